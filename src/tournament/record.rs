//! Game records: one line per game, tab-separated `key=value` fields in a
//! fixed order (lists inside a value are separated by single spaces):
//!
//! | key | value |
//! |---|---|
//! | `id` | game number in the match, from 1 |
//! | `round` | round number, from 1 (the games of a round share the opening) |
//! | `variant` | the game id |
//! | `seats` | `<letter>:<config>` per seat in turn order, e.g. `w:engine b:random` |
//! | `from` | the position the opening's plies start from (position format); empty for the game's start position (a field added later: lines without it read as empty) |
//! | `opening` | the opening's plies (random ones, or a book's), on the wire |
//! | `fen` | the position after the opening (position format) |
//! | `moves` | the game's moves after the opening, on the wire (in Star also the clock events `forfeit` and `freeze` in the turn they took) |
//! | `end` | a rule's end reason (`checkmate`, `stalemate`, `repetition`, `moverule`, `material`, `kingexposed`, `rabecaptured`, `lastplayer`, `points`), `timeout:<letter>`, `illegal:<letter>`, `disconnect:<letter>` (an engine process exited), `stalls:<letter>` (it gave no move even after `stop`), `maxplies`, `resign:<letter>` (adjudicated lost from the scores) or `draw` (adjudicated a draw from the scores) |
//! | `points` | points per seat in turn order |
//! | `plies` | the number of moves after the opening |
//! | `ms` | milliseconds each seat used in total |
//! | `evals` | per move after the opening, its time and the mover's evaluation ([`super::evaluation`]: `520:31/12`, `3`) |
//!
//! `from` and `evals` were added later: a line without them
//! still reads (no book position, no evaluations). Lines starting with `#` are comments;
//! the file starts with [`HEADER`].

use super::evaluation::MoveEvaluation;
use super::game::GameEnd;
use crate::game::Variant;
use crate::number;
use crate::rules::EndReason;
use crate::types::Player;

/// The first line of a record file.
pub const HEADER: &str = "# triskel match records: one game per line, tab-separated key=value fields \
     id round variant seats from opening fen moves end points plies ms evals (see protocol.md)";

/// The keys of a record line, in order.
pub const KEYS: [&str; 13] = [
    "id", "round", "variant", "seats", "from", "opening", "fen", "moves", "end", "points", "plies",
    "ms", EVALS,
];
/// The key of the moves' evaluations, which a line written before it was
/// added lacks.
const EVALS: &str = "evals";

/// The keys a record line may lack (records written before they were
/// added): their values read as empty.
const OPTIONAL_KEYS: [&str; 2] = ["from", EVALS];

/// Every end reason of the rules, for reading them back.
const END_REASONS: [EndReason; 9] = [
    EndReason::Checkmate,
    EndReason::Stalemate,
    EndReason::Repetition,
    EndReason::MoveRule,
    EndReason::InsufficientMaterial,
    EndReason::KingExposed,
    EndReason::RabeCaptured,
    EndReason::LastPlayer,
    EndReason::Points,
];

/// The `end` text of a forfeit on time.
const TIMEOUT: &str = "timeout";
/// The `end` text of a forfeit by an illegal move.
const ILLEGAL: &str = "illegal";
/// The `end` text of a forfeit by an engine process that exited.
const DISCONNECT: &str = "disconnect";
/// The `end` text of a forfeit by an engine process that gave no move even
/// after `stop`.
const STALLS: &str = "stalls";
/// The `end` text of a game adjudicated at the maximum length.
const MAX_PLIES: &str = "maxplies";
/// The `end` text of a player adjudicated lost from the scores.
const RESIGN: &str = "resign";
/// The `end` text of a game adjudicated a draw from the scores.
const DRAW: &str = "draw";

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Game number, from 1.
    pub id: usize,
    /// Round number, from 1.
    pub round: usize,
    /// The game.
    pub variant: Variant,
    /// Player letter and configuration name of each seat, in turn order.
    pub seats: Vec<(char, String)>,
    /// The position the opening's plies start from (`None`: the game's
    /// start position).
    pub from: Option<String>,
    /// The opening's plies.
    pub opening: Vec<String>,
    /// The position after the opening.
    pub fen: String,
    /// The moves after the opening.
    pub moves: Vec<String>,
    /// Why the game ended.
    pub end: GameEnd,
    /// Points per seat.
    pub points: Vec<f64>,
    /// Milliseconds used per seat.
    pub ms: Vec<u64>,
    /// Each move's time and evaluation, one per move (empty when not
    /// known: a record written before they were kept).
    pub evals: Vec<MoveEvaluation>,
}

/// `end` as written in a record.
pub fn end_text(end: GameEnd, variant: Variant) -> String {
    let letter = |p: Player| variant.game().letters[p.index()];
    match end {
        GameEnd::Rules(reason) => reason.name().to_string(),
        GameEnd::Timeout(p) => format!("{TIMEOUT}:{}", letter(p)),
        GameEnd::Illegal(p) => format!("{ILLEGAL}:{}", letter(p)),
        GameEnd::Disconnect(p) => format!("{DISCONNECT}:{}", letter(p)),
        GameEnd::Stall(p) => format!("{STALLS}:{}", letter(p)),
        GameEnd::MaxPlies => MAX_PLIES.to_string(),
        GameEnd::ResignAdjudicated(p) => format!("{RESIGN}:{}", letter(p)),
        GameEnd::DrawAdjudicated => DRAW.to_string(),
    }
}

/// Reads an `end` value.
pub fn parse_end(text: &str, variant: Variant) -> Result<GameEnd, String> {
    let player = |letter: &str| {
        let mut chars = letter.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => variant.game().player_index(c).map(Player::new),
            _ => None,
        }
        .ok_or_else(|| format!("end: '{letter}' is no player of {variant}"))
    };
    match text {
        MAX_PLIES => return Ok(GameEnd::MaxPlies),
        DRAW => return Ok(GameEnd::DrawAdjudicated),
        _ => {}
    }
    if let Some((kind, letter)) = text.split_once(':') {
        return match kind {
            TIMEOUT => Ok(GameEnd::Timeout(player(letter)?)),
            ILLEGAL => Ok(GameEnd::Illegal(player(letter)?)),
            DISCONNECT => Ok(GameEnd::Disconnect(player(letter)?)),
            STALLS => Ok(GameEnd::Stall(player(letter)?)),
            RESIGN => Ok(GameEnd::ResignAdjudicated(player(letter)?)),
            _ => Err(format!("end: unknown forfeit '{text}'")),
        };
    }
    END_REASONS
        .iter()
        .find(|r| r.name() == text)
        .map(|&r| GameEnd::Rules(r))
        .ok_or_else(|| format!("end: unknown reason '{text}'"))
}

/// Words joined by single spaces.
fn list<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of a list value (none for an empty value).
fn words(text: &str) -> Vec<String> {
    text.split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Numbers of a list value (points, which may be fractions).
fn numbers<T: std::str::FromStr>(key: &str, text: &str) -> Result<Vec<T>, String> {
    words(text)
        .iter()
        .map(|w| w.parse().map_err(|_| format!("{key}: '{w}' is no number")))
        .collect()
}

impl Record {
    /// The record as one line (without the line end).
    pub fn line(&self) -> String {
        let seats: Vec<String> = self
            .seats
            .iter()
            .map(|(letter, name)| format!("{letter}:{name}"))
            .collect();
        let values = [
            self.id.to_string(),
            self.round.to_string(),
            self.variant.id().to_string(),
            list(&seats),
            self.from.clone().unwrap_or_default(),
            list(&self.opening),
            self.fen.clone(),
            list(&self.moves),
            end_text(self.end, self.variant),
            list(&self.points),
            self.moves.len().to_string(),
            list(&self.ms),
            list(
                &self
                    .evals
                    .iter()
                    .map(MoveEvaluation::word)
                    .collect::<Vec<_>>(),
            ),
        ];
        KEYS.iter()
            .zip(values)
            .map(|(key, value)| format!("{key}={value}"))
            .collect::<Vec<_>>()
            .join("\t")
    }

    /// Reads a record line.
    pub fn parse(line: &str) -> Result<Record, String> {
        let mut fields = line.trim_end_matches(['\r', '\n']).split('\t').peekable();
        let mut values = Vec::with_capacity(KEYS.len());
        for key in KEYS {
            let field = fields.peek().copied().unwrap_or("");
            match field
                .strip_prefix(key)
                .and_then(|rest| rest.strip_prefix('='))
            {
                Some(value) => {
                    values.push(value);
                    fields.next();
                }
                None if OPTIONAL_KEYS.contains(&key) => values.push(""),
                None if field.is_empty() => return Err(format!("field {key}= is missing")),
                None => return Err(format!("expected field {key}=, found '{field}'")),
            }
        }
        if let Some(extra) = fields.next() {
            return Err(format!(
                "unexpected field '{extra}' after {}=",
                KEYS[KEYS.len() - 1]
            ));
        }
        let number = |i: usize| {
            number::whole::<usize>(values[i])
                .ok_or_else(|| format!("{}: '{}' is no number", KEYS[i], values[i]))
        };
        let variant =
            Variant::from_id(values[2]).ok_or_else(|| format!("unknown game '{}'", values[2]))?;
        let seats = words(values[3])
            .iter()
            .map(|seat| {
                let (letter, name) = seat
                    .split_once(':')
                    .ok_or_else(|| format!("seats: '{seat}' is not <letter>:<config>"))?;
                let mut chars = letter.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Ok((c, name.to_string())),
                    _ => Err(format!("seats: '{letter}' is not a player letter")),
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        let evals = words(values[12])
            .iter()
            .map(|word| MoveEvaluation::parse(word, variant))
            .collect::<Result<_, _>>()?;
        let record = Record {
            id: number(0)?,
            round: number(1)?,
            variant,
            seats,
            from: Some(values[4].to_string()).filter(|from| !from.is_empty()),
            opening: words(values[5]),
            fen: values[6].to_string(),
            moves: words(values[7]),
            end: parse_end(values[8], variant)?,
            points: numbers("points", values[9])?,
            ms: numbers("ms", values[11])?,
            evals,
        };
        if !record.evals.is_empty() && record.evals.len() != record.moves.len() {
            return Err(format!(
                "evals: {} for {} moves",
                record.evals.len(),
                record.moves.len()
            ));
        }
        if number(10)? != record.moves.len() {
            return Err(format!(
                "plies={} but {} moves",
                values[10],
                record.moves.len()
            ));
        }
        let players = variant.game().players;
        if record.seats.len() != players || record.points.len() != players {
            return Err(format!(
                "{variant} has {players} players: seats and points need {players} entries"
            ));
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        Record {
            id: 3,
            round: 2,
            variant: Variant::Dreierschach,
            seats: vec![
                ('w', "engine:algorithm=maxn,hash=4".to_string()),
                ('n', "greedy".to_string()),
                ('b', "random".to_string()),
            ],
            from: None,
            opening: vec!["a2a3".to_string()],
            fen: Variant::Dreierschach.game().start.clone(),
            moves: vec!["b2b3".to_string(), "c2c3".to_string()],
            end: GameEnd::Timeout(Player::new(1)),
            points: vec![1.5, 0.0, 1.0 / 3.0],
            ms: vec![12, 0, 3],
            evals: vec![
                MoveEvaluation::parse("12:-40/6:w-40,n20,b20", Variant::Dreierschach).unwrap(),
                MoveEvaluation::parse("0", Variant::Dreierschach).unwrap(),
            ],
        }
    }

    #[test]
    fn a_record_reads_back() {
        let record = sample();
        let line = record.line();
        assert!(!line.contains('\n'));
        assert!(line.starts_with("id=3\tround=2\tvariant=dreierschach\t"));
        assert!(line.contains("\tend=timeout:n\t"));
        assert!(line.ends_with("\tevals=12:-40/6:w-40,n20,b20 0"), "{line}");
        assert_eq!(Record::parse(&line).unwrap(), record);
        let from_a_book = Record {
            from: Some(record.fen.clone()),
            opening: Vec::new(),
            ..record
        };
        assert_eq!(Record::parse(&from_a_book.line()).unwrap(), from_a_book);
    }

    #[test]
    fn a_record_from_before_the_from_field_reads() {
        let line = sample().line().replace("\tfrom=\t", "\t");
        assert!(!line.contains("from="));
        assert_eq!(Record::parse(&line).unwrap(), sample());
    }

    #[test]
    fn a_record_without_evaluations_still_reads() {
        let record = sample();
        let line = record.line();
        let old = &line[..line.rfind("\tevals=").unwrap()];
        let read = Record::parse(old).unwrap();
        assert!(read.evals.is_empty());
        assert_eq!(read.moves, record.moves);
        let none = Record {
            evals: Vec::new(),
            ..record
        };
        assert_eq!(Record::parse(&none.line()).unwrap(), none);
        let short = line.replace("n20,b20 0", "n20,b20");
        assert!(
            Record::parse(&short)
                .unwrap_err()
                .contains("evals: 1 for 2 moves")
        );
    }

    #[test]
    fn every_end_reads_back() {
        let variant = Variant::Chess;
        let ends = END_REASONS.iter().map(|&r| GameEnd::Rules(r)).chain([
            GameEnd::MaxPlies,
            GameEnd::Illegal(Player::new(0)),
            GameEnd::Timeout(Player::new(1)),
            GameEnd::Disconnect(Player::new(0)),
            GameEnd::Stall(Player::new(1)),
            GameEnd::ResignAdjudicated(Player::new(1)),
            GameEnd::DrawAdjudicated,
        ]);
        for end in ends {
            assert_eq!(parse_end(&end_text(end, variant), variant), Ok(end));
        }
        assert!(parse_end("timeout:x", variant).is_err());
        assert!(parse_end("resigned", variant).is_err());
        assert!(parse_end("resign:x", variant).is_err());
        assert_eq!(
            end_text(GameEnd::ResignAdjudicated(Player::new(0)), variant),
            "resign:w"
        );
    }

    #[test]
    fn broken_lines_are_refused() {
        let line = sample().line();
        assert!(Record::parse("id=1").is_err());
        assert!(Record::parse(&line.replace("plies=2", "plies=5")).is_err());
        assert!(Record::parse(&line.replace("variant=dreierschach", "variant=go")).is_err());
        assert!(Record::parse(&line.replace("id=3", "game=3")).is_err());
        assert!(Record::parse(&format!("{line}\textra=1")).is_err());
        let without_ms = line.rsplitn(3, '\t').nth(2).unwrap();
        assert!(Record::parse(without_ms).is_err(), "{without_ms}");
    }
}
