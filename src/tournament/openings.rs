//! Opening books: the start positions of a match's rounds read from a file
//! (`--openings file=F format=epd|pgn|tfen order=random|sequential start=N
//! plies=N`, protocol.md section 7).
//!
//! Formats:
//! - `epd` (classical chess): one position per line, the four fields of
//!   standard EPD (placement, side, castling, en passant) and its
//!   operations; `hmvc` and `fmvn` set the clocks, the rest is ignored.
//!   A full FEN (six fields) is read too.
//! - `pgn`: every game of the file; the opening is its start position
//!   (`FEN` tag) and its moves (SAN in chess, the wire notation elsewhere;
//!   a `Variant` tag names the game). `plies=N` keeps only the first N.
//! - `tfen`: one opening per line in the protocol's position format, as the
//!   words after `position`: `startpos [moves ...]`, `fen <position> [moves
//!   ...]`, or the position alone, optionally followed by `moves ...`.
//!   The books of `openings/` are in this format.
//!
//! Blank lines and lines starting with `#` are skipped in `epd` and `tfen`.
//! Every opening is checked when the book is read: a line that cannot be
//! read is an error naming its line; an opening whose game is already over,
//! or where a player is out or a king is attacked, is skipped with a
//! warning. Each round takes the next opening: in the file's order from
//! `start` (counted from 1), or in an order shuffled by the match's seed;
//! after the last the book starts again.

use super::player::{SeededRng, mix_seed};
use super::schedule::{Opening, is_fair_start};
use crate::game::Variant;
use crate::number;
use crate::protocol::setup::{STARTPOS, Setup};
use crate::tournament::pgn::read_games;
use std::path::PathBuf;

/// The keys of an `--openings` argument.
pub const BOOK_KEYS: &str = "file= format=epd|pgn|tfen order=random|sequential start=N plies=N";

/// Stream tag of a book's shuffle (kept apart from the other seeds).
const SHUFFLE_STREAM: u64 = 3;

/// The EPD operation that sets the halfmove clock.
const EPD_HALFMOVE_CLOCK: &str = "hmvc";
/// The EPD operation that sets the fullmove number.
const EPD_FULLMOVE_NUMBER: &str = "fmvn";
/// The fields of a standard EPD position before its operations.
const EPD_POSITION_FIELDS: usize = 4;

/// How a book file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// Standard EPD (classical chess).
    Epd,
    /// PGN games.
    Pgn,
    /// The protocol's position format, one opening per line.
    Tfen,
}

/// In which order the rounds take the book's openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookOrder {
    /// As in the file.
    Sequential,
    /// Shuffled by the match's seed (each opening once before any repeats).
    Random,
}

/// An `--openings` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSpec {
    /// The book file.
    pub file: PathBuf,
    /// Its format.
    pub format: BookFormat,
    /// The order of play.
    pub order: BookOrder,
    /// The opening of the first round, counted from 1 in the order of play.
    pub start: usize,
    /// Most plies of an opening's moves kept (`None`: all).
    pub plies: Option<usize>,
}

impl BookSpec {
    /// Reads the `KEY=VALUE` words of `--openings`. Without `format=`, the
    /// file's extension names it (`.epd`, `.pgn`, anything else `tfen`).
    pub fn parse(words: &[String]) -> Result<BookSpec, String> {
        let mut file = None;
        let mut format = None;
        let mut order = BookOrder::Sequential;
        let mut start = 1;
        let mut plies = None;
        let mut seen: Vec<&str> = Vec::new();
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}' is not KEY=VALUE ({BOOK_KEYS})"))?;
            if seen.contains(&key) {
                return Err(format!("{key}= is given twice"));
            }
            seen.push(key);
            match key {
                "file" if !value.is_empty() => file = Some(PathBuf::from(value)),
                "file" => return Err("file= needs a path".to_string()),
                "format" => {
                    format = Some(match value {
                        "epd" => BookFormat::Epd,
                        "pgn" => BookFormat::Pgn,
                        "tfen" => BookFormat::Tfen,
                        _ => return Err(format!("format={value}: expected epd, pgn or tfen")),
                    })
                }
                "order" => {
                    order = match value {
                        "sequential" => BookOrder::Sequential,
                        "random" => BookOrder::Random,
                        _ => return Err(format!("order={value}: expected random or sequential")),
                    }
                }
                "start" => {
                    start = number::whole_in(value, &(1..=usize::MAX))
                        .ok_or_else(|| format!("start={value}: expected a positive whole number"))?
                }
                "plies" => {
                    plies = Some(
                        number::whole::<usize>(value)
                            .ok_or_else(|| format!("plies={value}: expected a whole number"))?,
                    )
                }
                _ => return Err(format!("unknown key '{key}' (keys: {BOOK_KEYS})")),
            }
        }
        let file = file.ok_or_else(|| format!("file= is missing ({BOOK_KEYS})"))?;
        let format = format.unwrap_or_else(|| match file.extension().and_then(|e| e.to_str()) {
            Some("epd") => BookFormat::Epd,
            Some("pgn") => BookFormat::Pgn,
            _ => BookFormat::Tfen,
        });
        Ok(BookSpec {
            file,
            format,
            order,
            start,
            plies,
        })
    }
}

impl BookSpec {
    /// The spec as `--openings` words name it (all keys given).
    pub fn describe(&self) -> String {
        let format = match self.format {
            BookFormat::Epd => "epd",
            BookFormat::Pgn => "pgn",
            BookFormat::Tfen => "tfen",
        };
        let order = match self.order {
            BookOrder::Sequential => "sequential",
            BookOrder::Random => "random",
        };
        let plies = self.plies.map_or(String::new(), |p| format!(" plies={p}"));
        format!(
            "file={} format={format} order={order} start={}{plies}",
            self.file.display(),
            self.start
        )
    }
}

/// One opening of a book, as text: read again for each round it starts,
/// so that a book of any size takes only its text's memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position the moves start from (`None`: the game's start position).
    pub from: Option<String>,
    /// The moves, on the wire.
    pub moves: Vec<String>,
}

impl BookEntry {
    /// The opening of this entry in `variant`.
    pub fn opening(&self, variant: Variant) -> Result<Opening, String> {
        let setup = Setup {
            fen: self.from.clone(),
            moves: self.moves.clone(),
        };
        let position = setup.build(variant, Default::default())?;
        Ok(Opening {
            from: self.from.clone(),
            moves: self.moves.clone(),
            position,
        })
    }
}

/// The openings of a match, in the order its rounds take them.
#[derive(Clone, Debug)]
pub struct Book {
    /// The openings, in the order of play.
    entries: Vec<BookEntry>,
    /// Index of the first round's opening.
    first: usize,
    /// Openings of the file skipped (over, or not a fair start), for the report.
    pub skipped: Vec<String>,
    /// The book's file and how it is played, e.g. `book.epd order=random start=1`.
    pub description: String,
}

impl Book {
    /// Reads the book of `spec` for `variant`, ordering it by `seed`.
    pub fn load(spec: &BookSpec, variant: Variant, seed: u64) -> Result<Book, String> {
        let text =
            std::fs::read(&spec.file).map_err(|why| format!("{}: {why}", spec.file.display()))?;
        let text = String::from_utf8_lossy(&text);
        let mut book = Book::read(&text, spec, variant)
            .map_err(|why| format!("{}: {why}", spec.file.display()))?;
        if spec.order == BookOrder::Random {
            let mut rng = SeededRng::new(mix_seed(&[seed, SHUFFLE_STREAM]));
            for i in (1..book.entries.len()).rev() {
                book.entries.swap(i, rng.below(i + 1));
            }
        }
        Ok(book)
    }

    /// Reads a book's `text` (in the file's order).
    pub fn read(text: &str, spec: &BookSpec, variant: Variant) -> Result<Book, String> {
        let mut entries = Vec::new();
        let mut skipped = Vec::new();
        let candidates = match spec.format {
            BookFormat::Epd if !variant.game().facts.classical_notation => {
                return Err(format!(
                    "format=epd is classical chess's; a book of {variant} is tfen or pgn"
                ));
            }
            BookFormat::Epd | BookFormat::Tfen => lines(text, spec.format)?,
            BookFormat::Pgn => pgn_entries(text, variant)?,
        };
        for (place, mut entry) in candidates {
            if let Some(plies) = spec.plies {
                entry.moves.truncate(plies);
            }
            let opening = entry
                .opening(variant)
                .map_err(|why| format!("{place}: {why}"))?;
            let position = &opening.position;
            if let Some(outcome) = position.outcome_with_claims() {
                skipped.push(format!(
                    "{place}: the game is over ({})",
                    outcome.reason.name()
                ));
            } else if !is_fair_start(position) {
                skipped.push(format!("{place}: a player is out or a king is attacked"));
            } else {
                entries.push(entry);
            }
        }
        if entries.is_empty() {
            return Err("no opening to play".to_string());
        }
        let first = (spec.start - 1) % entries.len();
        if spec.start > entries.len() {
            skipped.push(format!(
                "start={} is beyond the {} openings: starting at {}",
                spec.start,
                entries.len(),
                first + 1
            ));
        }
        Ok(Book {
            entries,
            first,
            skipped,
            description: spec.describe(),
        })
    }

    /// Openings in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no openings (never, for a book that was read).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The opening of round `round` (from 1).
    pub fn opening(&self, round: usize, variant: Variant) -> Opening {
        let entry = &self.entries[(self.first + round - 1) % self.entries.len()];
        entry
            .opening(variant)
            .expect("a book's openings were checked when it was read")
    }
}

/// The openings of an `epd` or `tfen` text, each with its line's name.
fn lines(text: &str, format: BookFormat) -> Result<Vec<(String, BookEntry)>, String> {
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let place = format!("line {}", number + 1);
        let entry = match format {
            BookFormat::Epd => epd_entry(line),
            _ => tfen_entry(line),
        }
        .map_err(|why| format!("{place}: {why}"))?;
        entries.push((place, entry));
    }
    Ok(entries)
}

/// A `tfen` line: the words after `position`, or a position alone.
fn tfen_entry(line: &str) -> Result<BookEntry, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let setup = match words[0] {
        STARTPOS | "fen" => Setup::parse(&words)?,
        _ => {
            let mut with_fen = vec!["fen"];
            with_fen.extend(&words);
            Setup::parse(&with_fen)?
        }
    };
    Ok(BookEntry {
        from: setup.fen,
        moves: setup.moves,
    })
}

/// An EPD line as the FEN it stands for.
fn epd_entry(line: &str) -> Result<BookEntry, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < EPD_POSITION_FIELDS {
        return Err(format!(
            "an EPD position has {EPD_POSITION_FIELDS} fields, not {}",
            fields.len()
        ));
    }
    let position = fields[..EPD_POSITION_FIELDS].join(" ");
    let rest = &fields[EPD_POSITION_FIELDS..];
    // A full FEN: its two counters follow the four fields.
    let is_counter = |w: &&str| number::whole::<u32>(w).is_some();
    if rest.len() == 2 && rest.iter().all(is_counter) {
        return Ok(BookEntry {
            from: Some(format!("{position} {} {}", rest[0], rest[1])),
            moves: Vec::new(),
        });
    }
    let operations = fields[EPD_POSITION_FIELDS..].join(" ");
    let operand = |name: &str, default: &str| -> Result<String, String> {
        for operation in operations.split(';') {
            let mut words = operation.split_whitespace();
            if words.next() == Some(name) {
                let value = words.next().unwrap_or("");
                return number::whole::<u32>(value)
                    .map(|n| n.to_string())
                    .ok_or_else(|| format!("{name} {value}: expected a whole number"));
            }
        }
        Ok(default.to_string())
    };
    let halfmove = operand(EPD_HALFMOVE_CLOCK, "0")?;
    let fullmove = operand(EPD_FULLMOVE_NUMBER, "1")?;
    Ok(BookEntry {
        from: Some(format!("{position} {halfmove} {fullmove}")),
        moves: Vec::new(),
    })
}

/// The openings of a PGN text: each game's start and moves.
fn pgn_entries(text: &str, variant: Variant) -> Result<Vec<(String, BookEntry)>, String> {
    let games = read_games(text)?;
    let mut entries = Vec::with_capacity(games.len());
    for (number, game) in games.iter().enumerate() {
        let place = format!("game {}", number + 1);
        if game.variant != variant {
            return Err(format!(
                "{place} is a game of {}, not of {variant}",
                game.variant
            ));
        }
        let moves = game.replay().map_err(|why| format!("{place}: {why}"))?;
        entries.push((
            place,
            BookEntry {
                from: game.start_fen.clone(),
                moves,
            },
        ));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(format: BookFormat) -> BookSpec {
        BookSpec {
            file: PathBuf::from("book"),
            format,
            order: BookOrder::Sequential,
            start: 1,
            plies: None,
        }
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn specs_read_their_keys_and_refuse_the_rest() {
        let s = BookSpec::parse(&words("file=a.pgn order=random start=3 plies=8")).unwrap();
        assert_eq!(s.format, BookFormat::Pgn);
        assert_eq!((s.order, s.start, s.plies), (BookOrder::Random, 3, Some(8)));
        assert_eq!(
            BookSpec::parse(&words("file=x format=epd")).unwrap().format,
            BookFormat::Epd
        );
        assert_eq!(
            BookSpec::parse(&words("file=b.txt")).unwrap().format,
            BookFormat::Tfen
        );
        for bad in [
            "",
            "format=epd",
            "file=",
            "file=a format=fen",
            "file=a order=shuffled",
            "file=a start=0",
            "file=a start=-1",
            "file=a plies=x",
            "file=a file=b",
            "file=a depth=3",
            "file",
        ] {
            assert!(BookSpec::parse(&words(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn epd_lines_become_positions_with_their_clocks() {
        let text = "# a comment\n\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"e4\"; hmvc 0; fmvn 1;\n\
            rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n";
        let book = Book::read(text, &spec(BookFormat::Epd), Variant::Chess).unwrap();
        assert_eq!(book.len(), 2);
        let first = book.opening(1, Variant::Chess);
        assert!(first.moves.is_empty());
        assert_eq!(
            first.position.standard_fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        let second = book.opening(2, Variant::Chess);
        assert!(second.position.standard_fen().ends_with("w KQkq - 0 2"));
        assert_eq!(
            book.opening(3, Variant::Chess).position.hash(),
            first.position.hash()
        );
        let err = Book::read("8/8/8 w\n", &spec(BookFormat::Epd), Variant::Chess).unwrap_err();
        assert!(err.starts_with("line 1:"), "{err}");
        assert!(Book::read(text, &spec(BookFormat::Epd), Variant::Star).is_err());
    }

    #[test]
    fn tfen_lines_take_the_position_commands_words() {
        let variant = Variant::Trichess;
        let start = &variant.game().start;
        let text =
            format!("startpos moves e2e4\nfen {start} moves e2e4\n{start}\n{start} moves e2e3\n");
        let book = Book::read(&text, &spec(BookFormat::Tfen), variant).unwrap();
        assert_eq!(book.len(), 4);
        let openings: Vec<Opening> = (1..=4).map(|r| book.opening(r, variant)).collect();
        assert_eq!(openings[0].from, None);
        assert_eq!(openings[0].moves, ["e2e4"]);
        assert_eq!(openings[1].from.as_deref(), Some(start.as_str()));
        assert_eq!(openings[0].position.hash(), openings[1].position.hash());
        assert!(openings[2].moves.is_empty());
        assert_eq!(openings[3].moves, ["e2e3"]);
        let err =
            Book::read("startpos moves e2e5\n", &spec(BookFormat::Tfen), variant).unwrap_err();
        assert!(err.starts_with("line 1: move 1 (e2e5)"), "{err}");
    }

    #[test]
    fn finished_and_unfair_openings_are_skipped_and_an_empty_book_refused() {
        let mate = "startpos moves f2f3 e7e5 g2g4 d8h4";
        let text = format!("{mate}\nstartpos moves e2e4\n");
        let book = Book::read(&text, &spec(BookFormat::Tfen), Variant::Chess).unwrap();
        assert_eq!(book.len(), 1);
        assert_eq!(book.skipped.len(), 1);
        assert!(book.skipped[0].contains("checkmate"), "{:?}", book.skipped);
        let check = "startpos moves e2e4 f7f6 d1h5";
        let book = Book::read(
            &format!("{check}\n{text}"),
            &spec(BookFormat::Tfen),
            Variant::Chess,
        )
        .unwrap();
        assert_eq!(book.skipped.len(), 2);
        assert!(Book::read(mate, &spec(BookFormat::Tfen), Variant::Chess).is_err());
        assert!(Book::read("# none\n", &spec(BookFormat::Tfen), Variant::Chess).is_err());
    }

    #[test]
    fn pgn_games_give_their_moves_cut_to_the_plies_asked() {
        let text = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
                    [FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\
                    [SetUp \"1\"]\n\n1... c5 2. Nf3 *\n";
        let mut cut = spec(BookFormat::Pgn);
        cut.plies = Some(3);
        let book = Book::read(text, &cut, Variant::Chess).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(
            book.opening(1, Variant::Chess).moves,
            ["e2e4", "e7e5", "g1f3"]
        );
        let second = book.opening(2, Variant::Chess);
        assert!(second.from.is_some());
        assert_eq!(second.moves, ["c7c5", "g1f3"]);
        assert!(Book::read(text, &cut, Variant::Trichess).is_err());
    }

    #[test]
    fn the_order_starts_where_asked_and_a_shuffle_follows_the_seed() {
        let text: String = [
            "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3",
        ]
        .iter()
        .map(|m| format!("startpos moves {m}\n"))
        .collect();
        let mut from_third = spec(BookFormat::Tfen);
        from_third.start = 3;
        let book = Book::read(&text, &from_third, Variant::Chess).unwrap();
        assert_eq!(book.opening(1, Variant::Chess).moves, ["c2c3"]);
        assert_eq!(book.opening(7, Variant::Chess).moves, ["a2a3"]);
        let dir = std::env::temp_dir().join(format!("triskel-book-{}", std::process::id()));
        std::fs::write(&dir, &text).unwrap();
        let random = BookSpec {
            file: dir.clone(),
            order: BookOrder::Random,
            ..spec(BookFormat::Tfen)
        };
        let order = |seed| {
            let book = Book::load(&random, Variant::Chess, seed).unwrap();
            (1..=8)
                .map(|r| book.opening(r, Variant::Chess).moves[0].clone())
                .collect::<Vec<_>>()
        };
        let (a, again, b) = (order(1), order(1), order(2));
        std::fs::remove_file(&dir).unwrap();
        assert_eq!(a, again, "the same seed, the same order");
        assert_ne!(a, b, "another seed, another order");
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted.len(), 8);
        sorted.dedup();
        assert_eq!(sorted.len(), 8, "each opening once");
    }
}
