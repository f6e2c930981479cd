//! Game records in PGN (Portable Game Notation, the standard of 1994) for
//! `triskel match`: a writer, and a reader of what the writer writes (and
//! of the plain PGN of other programs).
//!
//! # Classical chess
//!
//! A game is written in the standard's export format:
//! - the Seven Tag Roster first, in its order: `Event`, `Site`, `Date`,
//!   `Round`, `White`, `Black`, `Result` (`?` for a value not known,
//!   `????.??.??` for an unknown date);
//! - then `FEN` and `SetUp "1"` when the game does not start from the
//!   start position, then the other tags in their given order
//!   (`TimeControl`, `Termination`, `PlyCount`, ...);
//! - a blank line, then the movetext: the moves in SAN, a move number
//!   before White's moves (`1. e4`) and before Black's move when it is the
//!   game's first or follows a comment (`1... e5`); a move's comment in
//!   braces after it; lines of at most [`LINE_WIDTH`] characters, broken
//!   between words; the result at the end, then a blank line.
//!
//! Move comments are a search's evaluation as cutechess writes them
//! ([`Evaluation::comment`], from the record's `evals`): `{+0.31/12
//! 0.52s}` (the score in pawns from the mover's view, the depth, the time
//! the move took), `{+M5/20 1.2s}`
//! for a mate in 5 plies (cutechess writes an engine's `mate 3` so), and
//! `{-M6/20 1.2s}` for being mated in 6; `{0.52s}` for a move without a search;
//! moves of the match's opening get `{book}`, as cutechess marks its
//! opening moves.
//!
//! The termination comment says how the game ended (`{Black mates}`,
//! `{White loses on time}`). It follows the last move's comment, just
//! before the result; when the last move has no comment, an empty `{}`
//! stands in its place, so that the reader tells the two apart.
//!
//! # The other games
//!
//! Every game is written in the same shape, with these differences:
//! - a `Variant` tag with the game's id (`dreierschach`), after `FEN` and
//!   `SetUp`;
//! - the roster has one tag per seat, in turn order, named by the game's
//!   colours ([`seat_tags`]) where chess has `White` and `Black`:
//!
//!   | game | seat tags |
//!   |---|---|
//!   | chess, pyramid, pyramid-ep | `White`, `Black` |
//!   | dreierschach | `White`, `Brown`, `Black` |
//!   | hexenschach | `Red`, `White`, `Black` |
//!   | trichess | `White`, `Red`, `Black` |
//!   | star | `Blue`, `Green`, `Red` |
//!
//! - moves are written on the wire (`e2e4`, `1e21e4`), and `FEN` in the
//!   position format;
//! - moves are numbered per round of all players: a number stands before
//!   the move that begins a round (`1. a b c 2. d e f`, two moves a round
//!   once a player is out), and before the first move and a move after a
//!   comment that do not (`1... b`);
//! - the result gives every player's points in turn order, joined by `-`
//!   ([`result_text`]): whole numbers, fractions up to twelfths as `n/d`
//!   (`1/2`, `3/2`, `1/3`), other values as decimals. A Dreierschach win is
//!   `[Result "1-0-0"]`, a forfeit of Brown `"3/2-0-3/2"`, a Hexenschach
//!   draw `"1/2-1/2-1/2"`. Chess's results are this format for two
//!   players (`1-0`, `0-1`, `1/2-1/2`); `*` is a game not finished.

use super::game::{GameEnd, TimeControl, forfeit_points, play_word};
use super::record::Record;
use crate::game::Variant;
use crate::notation::MoveError;
use crate::position::Position;
use crate::rules::{EndReason, format_points};
use crate::search::{DECIDED_SCORE, WIN_SCORE};
use crate::types::Player;
use std::time::Duration;

/// Longest line of the movetext, as the standard asks (below 80).
pub const LINE_WIDTH: usize = 79;
/// The tag of the event (the match).
pub const EVENT_TAG: &str = "Event";
/// The tag of the place.
pub const SITE_TAG: &str = "Site";
/// The tag of the date (`YYYY.MM.DD`).
pub const DATE_TAG: &str = "Date";
/// The tag of the round.
pub const ROUND_TAG: &str = "Round";
/// The tags that open the roster, before the seats.
pub const ROSTER_HEAD: [&str; 4] = [EVENT_TAG, SITE_TAG, DATE_TAG, ROUND_TAG];
/// The tag of the result, which ends the roster.
pub const RESULT_TAG: &str = "Result";
/// The tag of the start position.
pub const FEN_TAG: &str = "FEN";
/// The tag that says a `FEN` tag is there.
pub const SETUP_TAG: &str = "SetUp";
/// The tag of the game, outside classical chess.
pub const VARIANT_TAG: &str = "Variant";
/// The tag of the clocks.
pub const TIME_CONTROL_TAG: &str = "TimeControl";
/// The tag of how the game ended, in the standard's words.
pub const TERMINATION_TAG: &str = "Termination";
/// The tag of the number of moves.
pub const PLY_COUNT_TAG: &str = "PlyCount";
/// The value of a roster tag that is not known.
pub const UNKNOWN: &str = "?";
/// The date that is not known.
pub const UNKNOWN_DATE: &str = "????.??.??";
/// The result of a game not finished.
pub const UNFINISHED: &str = "*";
/// The comment of a move of the match's opening.
pub const BOOK_COMMENT: &str = "book";

/// The value of `SetUp` with a `FEN` tag.
const SETUP_VALUE: &str = "1";
/// Fewest players a result gives points to.
const MIN_PLAYERS: usize = 2;
/// What joins the players' points in a result.
const POINTS_SEPARATOR: char = '-';
/// What joins numerator and denominator of a fraction of a point.
const FRACTION_BAR: char = '/';
/// Largest denominator a fraction of a point is written with (twelfths
/// cover halves, thirds, quarters and sixths).
const MAX_DENOMINATOR: u32 = 12;
/// How near a point value must be to a fraction to be written as one.
const FRACTION_TOLERANCE: f64 = 1e-9;
/// Centipawns in a pawn (scores are written in pawns).
const CENTIPAWNS_PER_PAWN: f64 = 100.0;
/// Milliseconds in a second.
const MS_PER_SECOND: f64 = 1000.0;
/// Decimals of a move's time, by how long it took (as cutechess writes
/// it): below each bound in milliseconds, that many decimals of a second;
/// longer moves get none.
const TIME_DECIMALS: [(u128, usize); 3] = [(100, 3), (1_000, 2), (10_000, 1)];
/// Marks a mate score.
const MATE_MARK: char = 'M';
/// Ends a move's time.
const SECONDS_MARK: char = 's';
/// What separates the evaluation from more words in a cutechess comment.
const COMMENT_CLAUSE: char = ',';
/// A game ended by the rules (the standard's `Termination` values follow).
const TERMINATION_NORMAL: &str = "normal";
/// A loss on time.
const TERMINATION_TIME: &str = "time forfeit";
/// A loss by an illegal move.
const TERMINATION_ILLEGAL: &str = "rules infraction";
/// A game stopped at the match's maximum length or adjudicated from the
/// scores.
const TERMINATION_ADJUDICATION: &str = "adjudication";
/// The `Termination` of a game lost by an engine process that exited (as
/// cutechess names it).
const TERMINATION_DISCONNECT: &str = "abandoned";
/// The `Termination` of a game lost by an engine process that stopped
/// answering (as cutechess names it).
const TERMINATION_STALL: &str = "stalled connection";
/// Decimals of seconds in a `TimeControl` tag (milliseconds).
const TIME_CONTROL_DECIMALS: usize = 3;
/// The `Variant` values read as classical chess.
const CHESS_VARIANT_NAMES: [&str; 2] = ["standard", "chess"];
/// Characters that end a word of movetext.
const WORD_ENDS: [char; 6] = ['[', ']', '{', '}', '(', ')'];
/// The characters of move assessments written apart from the move.
const ASSESSMENT_MARKS: [char; 2] = ['!', '?'];
/// Starts a numeric annotation glyph (`$1`).
const NAG_MARK: char = '$';
/// Starts a comment to the end of the line.
const LINE_COMMENT: char = ';';
/// Starts a line the reader skips, in the first column.
const ESCAPE_LINE: char = '%';

/// One move of a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move: SAN in classical chess, the wire notation in the other games.
    pub text: String,
    /// The comment after it, e.g. an evaluation `+0.31/12 0.52s`.
    pub comment: Option<String>,
}

/// One game in PGN: its tags, start, moves and result.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// The game (the `Variant` tag).
    pub variant: Variant,
    /// The tags other than `Result`, `FEN`, `SetUp` and `Variant` (which
    /// come from the fields), in the order they are written after the
    /// roster; the roster's tags may stand anywhere.
    pub tags: Vec<(String, String)>,
    /// The start position, if not the game's start position: standard FEN
    /// in chess, the position format in the other games.
    pub start_fen: Option<String>,
    /// The moves.
    pub moves: Vec<PgnMove>,
    /// The result: `1-0`, `1/2-1/2`, `1-0-0`, `*` ([`result_text`]).
    pub result: String,
    /// How the game ended, in words: the comment before the result.
    pub termination: Option<String>,
}

/// An engine's evaluation of its move, for the move's comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Score from the mover's view (centipawns, or the search's mate scores
    /// beyond [`DECIDED_SCORE`]).
    pub score: i32,
    /// Depth of the search; 0 for a move without one (only the time is written).
    pub depth: u32,
    /// Time the move took.
    pub time: Duration,
}

/// What the tags of a match's games say besides the games: empty strings
/// are written as unknown.
#[derive(Clone, Debug, Default)]
pub struct MatchTags {
    /// The `Event` tag.
    pub event: String,
    /// The `Site` tag.
    pub site: String,
    /// The `Date` tag (`YYYY.MM.DD`).
    pub date: String,
    /// The clocks, for the `TimeControl` tag, if the games had any.
    pub time_control: Option<TimeControl>,
}

/// Today's date (UTC) as the `Date` tag writes it, `YYYY.MM.DD`.
pub fn today() -> String {
    const SECONDS_PER_DAY: u64 = 86_400;
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs() / SECONDS_PER_DAY);
    let (year, month, day) = civil_date(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The Gregorian date `days` days after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, for days since the epoch).
fn civil_date(days: u64) -> (u64, u64, u64) {
    const DAYS_TO_0000_03_01: u64 = 719_468;
    const DAYS_PER_ERA: u64 = 146_097;
    let z = days + DAYS_TO_0000_03_01;
    let era = z / DAYS_PER_ERA;
    let day_of_era = z % DAYS_PER_ERA;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// The roster's tag of each seat of `variant`, in turn order: the
/// colours' names (`White`, `Brown`, `Black` in Dreierschach).
pub fn seat_tags(variant: Variant) -> &'static [&'static str] {
    let game = variant.game();
    &game.player_names[..game.players]
}

/// The result of a game with `points` per player in turn order
/// (`1-0`, `1/2-1/2`, `3/2-0-3/2`). Points are never negative.
pub fn result_text(points: &[f64]) -> String {
    points
        .iter()
        .map(|&p| point_text(p))
        .collect::<Vec<_>>()
        .join(&POINTS_SEPARATOR.to_string())
}

/// The points per player of a result ([`result_text`]); `None` for `*` and
/// for text that is no result.
pub fn parse_result(text: &str) -> Option<Vec<f64>> {
    let points: Vec<f64> = text
        .split(POINTS_SEPARATOR)
        .map(parse_point)
        .collect::<Option<_>>()?;
    (points.len() >= MIN_PLAYERS).then_some(points)
}

/// The `TimeControl` tag of a time control: seconds, `60+0.6`, or with
/// periods `40/60+0.6` (the PGN standard's `moves/seconds`, with
/// cutechess's increment).
pub fn time_control_tag(clocks: &TimeControl) -> String {
    let period = clocks.moves.map(|m| format!("{m}/")).unwrap_or_default();
    format!(
        "{period}{}+{}",
        seconds_text(clocks.time),
        seconds_text(clocks.increment)
    )
}

/// What a roster tag the game lacks is written with.
fn unknown_value(name: &str) -> &'static str {
    if name == DATE_TAG {
        UNKNOWN_DATE
    } else {
        UNKNOWN
    }
}

/// Seconds without needless decimals: `60`, `0.6`.
fn seconds_text(time: Duration) -> String {
    let text = format!("{:.*}", TIME_CONTROL_DECIMALS, time.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One player's points: a whole number, a fraction `n/d`, or a decimal.
fn point_text(points: f64) -> String {
    for denominator in 1..=MAX_DENOMINATOR {
        let scaled = points * f64::from(denominator);
        if (scaled - scaled.round()).abs() < FRACTION_TOLERANCE {
            let numerator = scaled.round();
            return if denominator == 1 {
                format!("{numerator}")
            } else {
                format!("{numerator}{FRACTION_BAR}{denominator}")
            };
        }
    }
    format_points(points)
}

/// One player's points read back: `1`, `3/2`, `0.25`.
fn parse_point(text: &str) -> Option<f64> {
    let number = |digits: &str| -> Option<f64> {
        let well_formed = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        if well_formed {
            digits.parse().ok()
        } else {
            None
        }
    };
    if let Some((numerator, denominator)) = text.split_once(FRACTION_BAR) {
        let denominator = number(denominator).filter(|&d| d > 0.0)?;
        return Some(number(numerator)? / denominator);
    }
    match text.split_once('.') {
        Some((whole, fraction)) => {
            number(whole)?;
            number(fraction)?;
            text.parse().ok()
        }
        None => number(text),
    }
}

impl Evaluation {
    /// The comment cutechess writes for this evaluation: `+0.31/12 0.52s`,
    /// `-1.05/9 12s`, `+M5/20 0.8s` (the mover mates in 5 plies),
    /// `-M6/20 0.8s` (it is mated in 6), `0.00/3 0.004s`, or only the time
    /// (`0.52s`) without a depth.
    pub fn comment(&self) -> String {
        let mut text = String::new();
        if self.depth > 0 {
            text.push_str(&score_text(self.score));
            text.push_str(&format!("/{} ", self.depth));
        }
        text.push_str(&move_time_text(self.time));
        text
    }

    /// The evaluation in a comment written by [`Evaluation::comment`] (or by
    /// cutechess, whose comment may go on after a comma); `None` for another
    /// comment (`book`). The time is as precise as the comment.
    pub fn from_comment(comment: &str) -> Option<Evaluation> {
        let evaluation = comment.split(COMMENT_CLAUSE).next()?.trim();
        let words: Vec<&str> = evaluation.split_whitespace().collect();
        let (search, time) = match words[..] {
            [time] => (None, time),
            [search, time] => (Some(search), time),
            _ => return None,
        };
        let seconds: f64 = time.strip_suffix(SECONDS_MARK)?.parse().ok()?;
        let time = Duration::try_from_secs_f64(seconds).ok()?;
        let (score, depth) = match search {
            None => (0, 0),
            Some(search) => {
                let (score, depth) = search.split_once('/')?;
                (parse_score(score)?, depth.parse().ok()?)
            }
        };
        Some(Evaluation { score, depth, time })
    }
}

/// A score as cutechess writes it: `+0.31`, `-1.20`, `0.00`, `+M5`, `-M6`.
fn score_text(score: i32) -> String {
    let sign = if score > 0 { "+" } else { "" };
    if score.abs() >= DECIDED_SCORE {
        let mate_sign = if score < 0 { "-" } else { sign };
        return format!("{mate_sign}{MATE_MARK}{}", WIN_SCORE - score.abs());
    }
    format!("{sign}{:.2}", f64::from(score) / CENTIPAWNS_PER_PAWN)
}

/// A score read back from [`score_text`].
fn parse_score(text: &str) -> Option<i32> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let value = match unsigned.strip_prefix(MATE_MARK) {
        Some(plies) => WIN_SCORE - plies.parse::<i32>().ok()?,
        None => (unsigned.parse::<f64>().ok()? * CENTIPAWNS_PER_PAWN).round() as i32,
    };
    Some(if negative { -value } else { value })
}

/// A move's time as cutechess writes it: `0s`, `0.052s`, `0.52s`, `5.2s`, `52s`.
fn move_time_text(time: Duration) -> String {
    let ms = time.as_millis();
    if ms == 0 {
        return format!("0{SECONDS_MARK}");
    }
    let decimals = TIME_DECIMALS
        .iter()
        .find(|&&(below, _)| ms < below)
        .map_or(0, |&(_, decimals)| decimals);
    format!("{:.*}{SECONDS_MARK}", decimals, ms as f64 / MS_PER_SECOND)
}

/// A comment as written: whitespace runs made single spaces, a `}` (which
/// would end it) made `)`; `None` when nothing is left.
fn normalized_comment(comment: &str) -> Option<String> {
    let text = comment
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('}', ")");
    (!text.is_empty()).then_some(text)
}

/// A tag value with `\` and `"` escaped, and line breaks made spaces.
fn escaped(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// Movetext being broken into lines of at most [`LINE_WIDTH`] characters.
struct Lines {
    text: String,
    width: usize,
}

impl Lines {
    /// Appends `unit`, which is never broken, after a space or on a new line.
    fn push(&mut self, unit: &str) {
        let length = unit.chars().count();
        if self.width > 0 && self.width + 1 + length > LINE_WIDTH {
            self.text.push('\n');
            self.width = 0;
        }
        if self.width > 0 {
            self.text.push(' ');
            self.width += 1;
        }
        self.text.push_str(unit);
        self.width += length;
    }

    /// Appends a comment in braces, broken between its words.
    fn push_comment(&mut self, comment: &str) {
        let words: Vec<&str> = comment.split(' ').collect();
        let last = words.len() - 1;
        for (i, word) in words.iter().enumerate() {
            let open = if i == 0 { "{" } else { "" };
            let close = if i == last { "}" } else { "" };
            self.push(&format!("{open}{word}{close}"));
        }
    }
}

/// Where a move stands in the numbering: its round and whether it begins one.
#[derive(Clone, Copy)]
struct Turn {
    round: u32,
    begins_round: bool,
}

impl PgnGame {
    /// A game of `variant` without tags or moves, not finished.
    pub fn new(variant: Variant) -> PgnGame {
        PgnGame {
            variant,
            tags: Vec::new(),
            start_fen: None,
            moves: Vec::new(),
            result: UNFINISHED.to_string(),
            termination: None,
        }
    }

    /// The value of tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// Sets tag `name` to `value`, in its place if it is there, else last.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(tag, _)| tag == name) {
            Some((_, old)) => *old = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The position the game starts from.
    pub fn start_position(&self) -> Result<Position, String> {
        match &self.start_fen {
            None => Ok(Position::start(self.variant)),
            Some(fen) => Position::from_fen(self.variant, fen)
                .map_err(|why| format!("FEN \"{fen}\": {why:?}")),
        }
    }

    /// The moves read in their positions from the start, in the wire
    /// notation (and Star's clock events as their tokens), or the first
    /// that is not legal there.
    pub fn replay(&self) -> Result<Vec<String>, String> {
        let mut pos = self.start_position()?;
        let mut played = Vec::with_capacity(self.moves.len());
        for (ply, mv) in self.moves.iter().enumerate() {
            let m = play_word(&mut pos, &mv.text, |pos, text| {
                let m = pos.parse_san(text)?;
                played.push(pos.move_text(m));
                Ok::<_, String>(m)
            })
            .map_err(|why| format!("ply {}: {why}", ply + 1))?;
            if m.is_none() {
                played.push(mv.text.clone());
            }
        }
        Ok(played)
    }

    /// The game's record of `record` from a match with `context`: the
    /// opening's plies (comment `book`) and the game's moves from the start
    /// position, in SAN in chess, each with its evaluation and time
    /// ([`Evaluation::comment`]) where the record has them; the roster with
    /// the seats' configuration names; `TimeControl`, `Termination` and
    /// `PlyCount`.
    pub fn from_record(record: &Record, context: &MatchTags) -> Result<PgnGame, String> {
        let variant = record.variant;
        let mut game = PgnGame::new(variant);
        let mut pos = match &record.from {
            None => Position::start(variant),
            Some(fen) => {
                let from = Position::from_fen(variant, fen).map_err(|why| {
                    format!("game {}: the opening's position {fen}: {why:?}", record.id)
                })?;
                game.start_fen = Some(from.standard_fen());
                from
            }
        };
        for text in &record.opening {
            game.push_played(&mut pos, text, Some(BOOK_COMMENT), record.id)?;
        }
        if pos.fen() != record.fen {
            return Err(format!(
                "game {}: the opening leads to {}, not to the record's {}",
                record.id,
                pos.fen(),
                record.fen
            ));
        }
        for (ply, text) in record.moves.iter().enumerate() {
            let comment = record.evals.get(ply).map(|e| e.comment().comment());
            game.push_played(&mut pos, text, comment.as_deref(), record.id)?;
        }
        for (name, value) in [
            (EVENT_TAG, &context.event),
            (SITE_TAG, &context.site),
            (DATE_TAG, &context.date),
        ] {
            if !value.is_empty() {
                game.set_tag(name, value);
            }
        }
        game.set_tag(ROUND_TAG, &record.round.to_string());
        for (tag, (_, name)) in seat_tags(variant).iter().zip(&record.seats) {
            game.set_tag(tag, name);
        }
        if let Some(clocks) = &context.time_control {
            game.set_tag(TIME_CONTROL_TAG, &time_control_tag(clocks));
        }
        game.set_tag(TERMINATION_TAG, termination_tag(record.end));
        game.set_tag(PLY_COUNT_TAG, &game.moves.len().to_string());
        game.result = result_text(&record.points);
        game.termination = Some(termination_comment(record.end, variant, &record.points));
        Ok(game)
    }

    /// The record of a game played outside a match (the browser board):
    /// from `start` (the position format or standard FEN; `None`: the
    /// start position), `moves` on the wire, `seats` naming the players in
    /// turn order, dated today. It is finished when the player of
    /// `timeout` ran out of time (the others share the points, as in a
    /// match) or the rules ended it; unfinished otherwise.
    pub fn from_moves(
        variant: Variant,
        start: Option<&str>,
        moves: &[String],
        seats: &[String],
        timeout: Option<Player>,
    ) -> Result<PgnGame, String> {
        let mut game = PgnGame::new(variant);
        let mut pos = match start {
            None => Position::start(variant),
            Some(fen) => {
                let from = Position::from_fen(variant, fen)
                    .map_err(|why| format!("the start position {fen}: {why:?}"))?;
                game.start_fen = Some(from.standard_fen());
                from
            }
        };
        for text in moves {
            game.push_played(&mut pos, text, None, 1)?;
        }
        game.set_tag(DATE_TAG, &today());
        for (tag, name) in seat_tags(variant).iter().zip(seats) {
            game.set_tag(tag, name);
        }
        let end = match timeout {
            Some(player) => Some((GameEnd::Timeout(player), forfeit_points(&pos, player))),
            None => pos
                .outcome()
                .map(|outcome| (GameEnd::Rules(outcome.reason), outcome.points)),
        };
        if let Some((end, points)) = end {
            let points = &points[..variant.game().players];
            game.set_tag(TERMINATION_TAG, termination_tag(end));
            game.result = result_text(points);
            game.termination = Some(termination_comment(end, variant, points));
        }
        game.set_tag(PLY_COUNT_TAG, &game.moves.len().to_string());
        Ok(game)
    }

    /// Appends `wire`, the move of game `id` played in `pos`, with
    /// `comment`, and plays it.
    fn push_played(
        &mut self,
        pos: &mut Position,
        wire: &str,
        comment: Option<&str>,
        id: usize,
    ) -> Result<(), String> {
        let mut san = None;
        play_word(pos, wire, |pos, wire| {
            let m = pos.parse_move(wire)?;
            san = Some(pos.san(m));
            Ok::<_, MoveError>(m)
        })
        .map_err(|why| format!("game {id} ply {}: {why}", self.moves.len() + 1))?;
        self.moves.push(PgnMove {
            text: san.unwrap_or_else(|| wire.to_string()),
            comment: comment.map(str::to_string),
        });
        Ok(())
    }

    /// The tags in the order they are written: the roster (with unknown
    /// values where missing), `FEN` and `SetUp`, `Variant`, then the rest.
    fn ordered_tags(&self) -> Vec<(&str, String)> {
        let seats = seat_tags(self.variant);
        let mut out: Vec<(&str, String)> = Vec::new();
        for &name in ROSTER_HEAD.iter().chain(seats) {
            out.push((
                name,
                self.tag(name).unwrap_or(unknown_value(name)).to_string(),
            ));
        }
        out.push((RESULT_TAG, self.result_or_unfinished().to_string()));
        if let Some(fen) = &self.start_fen {
            out.push((FEN_TAG, fen.clone()));
            out.push((SETUP_TAG, SETUP_VALUE.to_string()));
        }
        if self.variant != Variant::CLASSICAL {
            out.push((VARIANT_TAG, self.variant.id().to_string()));
        }
        let reserved = [RESULT_TAG, FEN_TAG, SETUP_TAG, VARIANT_TAG];
        for (name, value) in &self.tags {
            let name = name.as_str();
            if !ROSTER_HEAD.contains(&name) && !seats.contains(&name) && !reserved.contains(&name) {
                out.push((name, value.clone()));
            }
        }
        out
    }

    /// The result, `*` if it is empty.
    fn result_or_unfinished(&self) -> &str {
        if self.result.is_empty() {
            UNFINISHED
        } else {
            &self.result
        }
    }

    /// The round of each move and whether it begins one, found by playing
    /// the moves; from a move that cannot be played on (or a start that
    /// cannot be read), counted as if every player were still in.
    fn turns(&self) -> Vec<Turn> {
        let players = self.variant.game().players;
        let mut pos = self.start_position().ok();
        let (mut round, mut seat) = pos
            .as_ref()
            .map_or((1, 0), |p| (p.round(), p.to_move().index()));
        let mut turns = Vec::with_capacity(self.moves.len());
        for (i, mv) in self.moves.iter().enumerate() {
            let begins_round = match &pos {
                Some(p) if i == 0 => p.state().active().iter().next() == Some(p.to_move()),
                Some(p) => p.round() != round,
                None => seat == 0,
            };
            if let Some(p) = &pos {
                (round, seat) = (p.round(), p.to_move().index());
            }
            turns.push(Turn {
                round,
                begins_round,
            });
            pos = pos.and_then(|mut p| {
                play_word(&mut p, &mv.text, Position::parse_san).ok()?;
                Some(p)
            });
            if pos.is_none() {
                seat = (seat + 1) % players;
                if seat == 0 {
                    round += 1;
                }
            }
        }
        turns
    }

    /// The movetext, broken into lines, with the result at its end.
    fn movetext(&self) -> String {
        let mut lines = Lines {
            text: String::new(),
            width: 0,
        };
        let termination = self.termination.as_deref().and_then(normalized_comment);
        let mut after_comment = false;
        let last = self.moves.len().checked_sub(1);
        for (i, (mv, turn)) in self.moves.iter().zip(self.turns()).enumerate() {
            let round = turn.round;
            if turn.begins_round {
                lines.push(&format!("{round}. {}", mv.text));
            } else if i == 0 || after_comment {
                lines.push(&format!("{round}... {}", mv.text));
            } else {
                lines.push(&mv.text);
            }
            after_comment = true;
            match mv.comment.as_deref().and_then(normalized_comment) {
                Some(comment) => lines.push_comment(&comment),
                None if Some(i) == last && termination.is_some() => lines.push("{}"),
                None => after_comment = false,
            }
        }
        if let Some(termination) = &termination {
            lines.push_comment(termination);
        }
        lines.push(self.result_or_unfinished());
        lines.text
    }

    /// The game in PGN: tags, a blank line, the movetext, a blank line.
    pub fn write(&self) -> String {
        let mut out = String::new();
        for (name, value) in self.ordered_tags() {
            out.push_str(&format!("[{name} \"{}\"]\n", escaped(&value)));
        }
        out.push('\n');
        out.push_str(&self.movetext());
        out.push_str("\n\n");
        out
    }

    /// Reads the one game of `text`.
    pub fn parse(text: &str) -> Result<PgnGame, String> {
        let mut games = read_games(text)?;
        match games.len() {
            1 => Ok(games.remove(0)),
            n => Err(format!("expected one game, found {n}")),
        }
    }
}

/// The standard's `Termination` tag of `end`.
fn termination_tag(end: GameEnd) -> &'static str {
    match end {
        GameEnd::Rules(_) => TERMINATION_NORMAL,
        GameEnd::Timeout(_) => TERMINATION_TIME,
        GameEnd::Illegal(_) => TERMINATION_ILLEGAL,
        GameEnd::MaxPlies | GameEnd::ResignAdjudicated(_) | GameEnd::DrawAdjudicated => {
            TERMINATION_ADJUDICATION
        }
        GameEnd::Disconnect(_) => TERMINATION_DISCONNECT,
        GameEnd::Stall(_) => TERMINATION_STALL,
    }
}

/// How a rule ended a game, as words after "Draw by" or "Ended by".
fn reason_words(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Checkmate => "checkmate",
        EndReason::Stalemate => "stalemate",
        EndReason::Repetition => "threefold repetition",
        EndReason::MoveRule => "the move-count rule",
        EndReason::InsufficientMaterial => "insufficient material",
        EndReason::KingExposed => "a king left exposed",
        EndReason::RabeCaptured => "the capture of a Rabe",
        EndReason::LastPlayer => "one player left",
        EndReason::Points => "the points on the board",
    }
}

/// The termination comment of a game of `variant` that ended by `end` with
/// `points`: `Black mates`, `Draw by stalemate`, `White loses on time`,
/// `Ended by the points on the board`, `White wins by adjudication` (as
/// cutechess writes an adjudicated loss of Black), `Brown loses by
/// adjudication` (of three players).
fn termination_comment(end: GameEnd, variant: Variant, points: &[f64]) -> String {
    let names = seat_tags(variant);
    let two_players = names.len() == 2;
    let drawn = points.iter().all(|&p| p == points[0]);
    let scorers: Vec<usize> = (0..points.len()).filter(|&p| points[p] > 0.0).collect();
    match end {
        GameEnd::Rules(EndReason::Checkmate) if two_players && scorers.len() == 1 => {
            format!("{} mates", names[scorers[0]])
        }
        GameEnd::Rules(reason) if two_players && drawn => {
            format!("Draw by {}", reason_words(reason))
        }
        GameEnd::Rules(reason) => format!("Ended by {}", reason_words(reason)),
        GameEnd::Timeout(p) => format!("{} loses on time", names[p.index()]),
        GameEnd::Illegal(p) => format!("{} makes an illegal move", names[p.index()]),
        GameEnd::Disconnect(p) => format!("{} disconnects", names[p.index()]),
        GameEnd::Stall(p) => format!("{}'s connection stalls", names[p.index()]),
        GameEnd::MaxPlies if two_players && drawn => "Draw by adjudication".to_string(),
        GameEnd::MaxPlies => "Adjudicated at the maximum length".to_string(),
        GameEnd::ResignAdjudicated(p) if two_players => {
            format!(
                "{} wins by adjudication",
                names[(p.index() + 1) % names.len()]
            )
        }
        GameEnd::ResignAdjudicated(p) => format!("{} loses by adjudication", names[p.index()]),
        GameEnd::DrawAdjudicated if drawn => "Draw by adjudication".to_string(),
        GameEnd::DrawAdjudicated => "Ended by adjudication".to_string(),
    }
}

/// A piece of PGN text.
enum Token {
    /// `[Name "value"]`.
    Tag(String, String),
    /// `{...}`, whitespace made single spaces.
    Comment(String),
    /// A move, move number, result or annotation.
    Word(String),
}

/// The tokens of PGN text, without variations, `;` comments and `%` lines.
fn tokens(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    let skip_line = |from: usize| {
        chars[from..]
            .iter()
            .position(|&c| c == '\n')
            .map_or(chars.len(), |n| from + n)
    };
    let comment_end = |from: usize| {
        chars[from..]
            .iter()
            .position(|&c| c == '}')
            .map(|n| from + n)
            .ok_or_else(|| "a comment '{' is not closed".to_string())
    };
    while i < chars.len() {
        let c = chars[i];
        let at_line_start = line_start;
        line_start = c == '\n';
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        match c {
            ESCAPE_LINE if at_line_start => i = skip_line(i),
            LINE_COMMENT => i = skip_line(i),
            '[' => {
                let (tag, next) = read_tag(&chars, i + 1)?;
                out.push(tag);
                i = next;
            }
            '{' => {
                let end = comment_end(i + 1)?;
                let body: String = chars[i + 1..end].iter().collect();
                out.push(Token::Comment(
                    body.split_whitespace().collect::<Vec<_>>().join(" "),
                ));
                i = end + 1;
            }
            '(' => {
                let mut depth = 0;
                while i < chars.len() {
                    match chars[i] {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        '{' => i = comment_end(i + 1)?,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
                if depth > 0 {
                    return Err("a variation '(' is not closed".to_string());
                }
            }
            ')' | ']' | '}' => return Err(format!("unexpected '{c}'")),
            _ => {
                let start = i;
                while i < chars.len()
                    && !chars[i].is_whitespace()
                    && !WORD_ENDS.contains(&chars[i])
                    && chars[i] != LINE_COMMENT
                {
                    i += 1;
                }
                out.push(Token::Word(chars[start..i].iter().collect()));
            }
        }
    }
    Ok(out)
}

/// Reads a tag from just after its `[`: the token and where the text goes on.
fn read_tag(chars: &[char], from: usize) -> Result<(Token, usize), String> {
    let mut i = from;
    let skip_space = |mut i: usize| {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        i
    };
    i = skip_space(i);
    let name_start = i;
    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
        i += 1;
    }
    let name: String = chars[name_start..i].iter().collect();
    i = skip_space(i);
    if name.is_empty() || chars.get(i) != Some(&'"') {
        return Err(format!("a tag must be [Name \"value\"] (tag '{name}')"));
    }
    i += 1;
    let mut value = String::new();
    loop {
        match chars.get(i) {
            None => return Err(format!("the value of tag {name} is not closed")),
            Some('"') => break,
            Some('\\') if i + 1 < chars.len() => {
                value.push(chars[i + 1]);
                i += 2;
            }
            Some(&c) => {
                value.push(c);
                i += 1;
            }
        }
    }
    i = skip_space(i + 1);
    if chars.get(i) != Some(&']') {
        return Err(format!("tag {name} is not closed by ']'"));
    }
    Ok((Token::Tag(name, value), i + 1))
}

/// Whether tag `name` of the roster says only that `value` is not known,
/// as the writer fills in for a tag the game lacks.
fn is_unknown_roster_value(name: &str, value: &str) -> bool {
    value == unknown_value(name)
        && (ROSTER_HEAD.contains(&name)
            || Variant::ALL.iter().any(|&v| seat_tags(v).contains(&name)))
}

/// Whether `word` ends a game's movetext: `*` or points per player.
fn is_result(word: &str) -> bool {
    word == UNFINISHED || parse_result(word).is_some()
}

/// The move in `word`, without a move number before it (`12.`, `3...`,
/// `1.e4`); `None` for a bare move number, a NAG or an assessment.
fn move_in(word: &str) -> Option<&str> {
    if word.starts_with(NAG_MARK) || word.chars().all(|c| ASSESSMENT_MARKS.contains(&c)) {
        return None;
    }
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    let after_number = rest.trim_start_matches('.');
    let text = if digits > 0 && after_number.len() < rest.len() {
        after_number
    } else {
        word
    };
    (!text.is_empty()).then_some(text)
}

/// A game being read.
#[derive(Default)]
struct GameReader {
    tags: Vec<(String, String)>,
    moves: Vec<PgnMove>,
    /// Comments since the last move (or before the first).
    comments: Vec<String>,
    result: Option<String>,
    started: bool,
}

/// Comments joined by spaces, `None` if they say nothing.
fn joined(comments: &[String]) -> Option<String> {
    let words: Vec<&str> = comments
        .iter()
        .map(String::as_str)
        .filter(|c| !c.is_empty())
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

impl GameReader {
    /// Gives the comments since the last move to it (comments before the
    /// first move are dropped).
    fn settle_comments(&mut self) {
        if let Some(last) = self.moves.last_mut() {
            last.comment = joined(&self.comments);
        }
        self.comments.clear();
    }

    /// The game read.
    fn finish(mut self) -> Result<PgnGame, String> {
        let termination = if self.moves.is_empty() {
            joined(&self.comments)
        } else if self.comments.len() > 1 {
            let end = self.comments.pop();
            self.settle_comments();
            end.filter(|c| !c.is_empty())
        } else {
            self.settle_comments();
            None
        };
        let mut variant = Variant::CLASSICAL;
        let mut start_fen = None;
        let mut result_tag = None;
        let mut tags = Vec::new();
        for (name, value) in self.tags {
            match name.as_str() {
                VARIANT_TAG
                    if CHESS_VARIANT_NAMES.contains(&value.to_ascii_lowercase().as_str()) => {}
                VARIANT_TAG => {
                    variant = Variant::from_id(&value)
                        .ok_or_else(|| format!("unknown Variant \"{value}\""))?;
                }
                FEN_TAG => start_fen = Some(value),
                SETUP_TAG => {}
                RESULT_TAG => result_tag = Some(value),
                _ if is_unknown_roster_value(&name, &value) => {}
                _ => tags.push((name, value)),
            }
        }
        Ok(PgnGame {
            variant,
            tags,
            start_fen,
            moves: self.moves,
            result: self
                .result
                .or(result_tag)
                .unwrap_or_else(|| UNFINISHED.to_string()),
            termination,
        })
    }
}

/// Reads every game of PGN `text`: tags, moves with their comments, the
/// result and the termination comment. Variations, NAGs, `;` comments and
/// comments before a game's first move are skipped.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = GameReader::default();
    for token in tokens(text)? {
        match token {
            Token::Tag(name, value) => {
                if game.started {
                    games.push(std::mem::take(&mut game).finish()?);
                }
                game.tags.push((name, value));
            }
            Token::Comment(comment) => {
                game.started = true;
                game.comments.push(comment);
            }
            Token::Word(word) if is_result(&word) => {
                game.result = Some(word);
                games.push(std::mem::take(&mut game).finish()?);
            }
            Token::Word(word) => {
                game.started = true;
                if let Some(text) = move_in(&word) {
                    game.settle_comments();
                    game.moves.push(PgnMove {
                        text: text.to_string(),
                        comment: None,
                    });
                }
            }
        }
    }
    if game.started || !game.tags.is_empty() {
        games.push(game.finish()?);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_come_from_days_since_the_epoch() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_790), (2026, 12, 3));
        assert_eq!(today().len(), "2026.12.03".len());
    }
    use crate::types::Player;

    fn chess_game(moves: &[(&str, Option<&str>)]) -> PgnGame {
        let mut game = PgnGame::new(Variant::Chess);
        game.moves = moves
            .iter()
            .map(|&(text, comment)| PgnMove {
                text: text.to_string(),
                comment: comment.map(str::to_string),
            })
            .collect();
        game
    }

    fn tag_names(pgn: &str) -> Vec<&str> {
        pgn.lines()
            .take_while(|l| l.starts_with('['))
            .map(|l| l[1..].split(' ').next().unwrap())
            .collect()
    }

    fn movetext(pgn: &str) -> String {
        pgn.split("\n\n").nth(1).unwrap().to_string()
    }

    #[test]
    fn the_roster_comes_first_in_its_order() {
        let mut game = chess_game(&[("e4", None)]);
        for (name, value) in [
            ("PlyCount", "1"),
            ("Black", "greedy"),
            ("TimeControl", "10+0.1"),
            ("Event", "test"),
            ("White", "engine"),
            ("Round", "3"),
        ] {
            game.set_tag(name, value);
        }
        game.start_fen = Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into());
        let pgn = game.write();
        assert_eq!(
            tag_names(&pgn),
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "FEN",
                "SetUp",
                "PlyCount",
                "TimeControl"
            ]
        );
        assert!(pgn.contains("[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"3\"]\n"));
        assert!(pgn.contains("[Result \"*\"]\n"));
        assert!(pgn.contains("[SetUp \"1\"]\n"));
        assert!(pgn.ends_with("\n\n1. e4 *\n\n"), "{pgn}");
    }

    #[test]
    fn lines_are_wrapped_at_79_characters() {
        let moves: Vec<(&str, Option<&str>)> = ["Nf3", "Nf6", "Ng1", "Ng8"]
            .iter()
            .cycle()
            .take(80)
            .map(|&m| (m, Some("+0.31/12 0.52s")))
            .collect();
        let mut game = chess_game(&moves);
        game.result = "1/2-1/2".into();
        game.termination = Some("Draw by threefold repetition".into());
        let text = movetext(&game.write());
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 10);
        assert!(lines.iter().all(|l| l.len() <= LINE_WIDTH), "{text}");
        // A line is broken only where the next unit (a move with its number
        // or a comment's word, here at most `LONGEST_UNIT` long) does not fit.
        const LONGEST_UNIT: usize = "10... Nf6".len();
        let (full, _) = lines.split_at(lines.len() - 1);
        assert!(
            full.iter().all(|l| l.len() + 1 + LONGEST_UNIT > LINE_WIDTH),
            "{text}"
        );
        assert!(
            lines
                .iter()
                .all(|l| !l.starts_with(' ') && !l.ends_with(' '))
        );
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.ends_with("{Draw by threefold repetition} 1/2-1/2"));
        assert_eq!(PgnGame::parse(&game.write()).unwrap(), game);
    }

    #[test]
    fn black_continues_with_dots_after_a_comment_and_at_the_start() {
        let game = chess_game(&[
            ("e4", Some("book")),
            ("e5", None),
            ("Nf3", None),
            ("Nc6", None),
        ]);
        assert_eq!(movetext(&game.write()), "1. e4 {book} 1... e5 2. Nf3 Nc6 *");
        let mut from_black = chess_game(&[("Nf6", None), ("Nc3", None)]);
        from_black.start_fen =
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12".into());
        assert_eq!(movetext(&from_black.write()), "12... Nf6 13. Nc3 *");
    }

    #[test]
    fn evaluations_are_written_as_cutechess_writes_them() {
        let cases = [
            (31, 12, 520, "+0.31/12 0.52s"),
            (-120, 8, 12_300, "-1.20/8 12s"),
            (0, 3, 4, "0.00/3 0.004s"),
            (WIN_SCORE - 5, 20, 1_234, "+M5/20 1.2s"),
            (6 - WIN_SCORE, 9, 50, "-M6/9 0.050s"),
            (17, 0, 0, "0s"),
            (17, 0, 5_600, "5.6s"),
        ];
        for (score, depth, ms, text) in cases {
            let evaluation = Evaluation {
                score,
                depth,
                time: Duration::from_millis(ms),
            };
            assert_eq!(evaluation.comment(), text);
            let read = Evaluation::from_comment(text).unwrap();
            assert_eq!(read.depth, depth);
            if depth > 0 {
                assert_eq!(read.score, score, "{text}");
            }
        }
        let read = Evaluation::from_comment("+0.31/12 0.52s, White mates").unwrap();
        assert_eq!(read.time, Duration::from_millis(520));
        assert_eq!(Evaluation::from_comment(BOOK_COMMENT), None);
    }

    #[test]
    fn comments_and_the_termination_stay_apart() {
        let mut game = chess_game(&[
            ("f3", None),
            ("e5", Some("a }brace\n and  spaces")),
            ("g4", None),
            ("Qh4#", None),
        ]);
        game.result = "0-1".into();
        game.termination = Some("Black mates".into());
        let text = movetext(&game.write());
        assert_eq!(
            text,
            "1. f3 e5 {a )brace and spaces} 2. g4 Qh4# {} {Black mates} 0-1"
        );
        let read = PgnGame::parse(&game.write()).unwrap();
        assert_eq!(
            read.moves[1].comment.as_deref(),
            Some("a )brace and spaces")
        );
        assert_eq!(read.moves[3].comment, None);
        assert_eq!(read.termination.as_deref(), Some("Black mates"));
        game.moves[3].comment = Some("+M1/1 0s".into());
        let read = PgnGame::parse(&game.write()).unwrap();
        assert_eq!(read.moves[3].comment.as_deref(), Some("+M1/1 0s"));
        assert_eq!(read.termination.as_deref(), Some("Black mates"));
        game.termination = None;
        let read = PgnGame::parse(&game.write()).unwrap();
        assert_eq!(read.moves[3].comment.as_deref(), Some("+M1/1 0s"));
        assert_eq!(read.termination, None);
    }

    #[test]
    fn three_players_are_numbered_per_round() {
        let start = Position::start(Variant::Dreierschach);
        let mut pos = start.clone();
        let mut game = PgnGame::new(Variant::Dreierschach);
        for _ in 0..7 {
            let m = pos.legal_moves()[0];
            game.moves.push(PgnMove {
                text: pos.san(m),
                comment: None,
            });
            pos.make(m);
        }
        game.moves[4].comment = Some("0.1s".into());
        game.set_tag("Brown", "greedy");
        game.result = result_text(&[1.5, 0.0, 1.5]);
        let pgn = game.write();
        assert_eq!(
            tag_names(&pgn),
            [
                "Event", "Site", "Date", "Round", "White", "Brown", "Black", "Result", "Variant"
            ]
        );
        assert!(pgn.contains("[Result \"3/2-0-3/2\"]\n[Variant \"dreierschach\"]\n"));
        let m: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
        let expected = format!(
            "1. {} {} {} 2. {} {} {{0.1s}} 2... {} 3. {} 3/2-0-3/2",
            m[0], m[1], m[2], m[3], m[4], m[5], m[6]
        );
        assert_eq!(movetext(&pgn), expected);
        assert_eq!(PgnGame::parse(&pgn).unwrap(), game);
        assert_eq!(game.replay().unwrap().len(), 7);
    }

    #[test]
    fn results_are_points_per_player() {
        assert_eq!(result_text(&[1.0, 0.0]), "1-0");
        assert_eq!(result_text(&[0.5, 0.5]), "1/2-1/2");
        assert_eq!(result_text(&[1.0, 0.0, 0.0]), "1-0-0");
        assert_eq!(result_text(&[1.0 / 3.0; 3]), "1/3-1/3-1/3");
        assert_eq!(result_text(&[0.75, 0.0, 0.75]), "3/4-0-3/4");
        assert_eq!(result_text(&[0.01, 0.0]), "0.01-0");
        assert_eq!(parse_result("3/2-0-3/2"), Some(vec![1.5, 0.0, 1.5]));
        assert_eq!(parse_result("0.25-1"), Some(vec![0.25, 1.0]));
        for no_result in ["*", "1", "O-O", "1/0-1", "a-b", "1--0", "-1-0"] {
            assert_eq!(parse_result(no_result), None, "{no_result}");
        }
    }

    #[test]
    fn a_written_game_reads_back() {
        let mut game = chess_game(&[
            ("d4", Some("book")),
            ("d5", Some("+0.12/10 0.31s")),
            ("c4", Some("-0.05/11 1.5s")),
            ("dxc4", None),
        ]);
        game.set_tag("Event", "a \"quoted\" \\ name");
        game.set_tag("White", "engine:depth=3");
        game.set_tag("Termination", "adjudication");
        game.result = "1/2-1/2".into();
        game.termination = Some("Draw by adjudication".into());
        let pgn = game.write();
        assert!(pgn.contains("[Event \"a \\\"quoted\\\" \\\\ name\"]"));
        assert_eq!(PgnGame::parse(&pgn).unwrap(), game);
        let two = format!("{pgn}{pgn}");
        assert_eq!(read_games(&two).unwrap(), [game.clone(), game]);
    }

    #[test]
    fn other_programs_pgn_is_read() {
        let text = "% a line to skip\n[Event \"x\"]\n[Variant \"Standard\"]\n\n\
                    {opening remark} 1.e4 $1 e5!? (1... c5 {Sicilian} 2. Nf3) 2. Nf3 ; rest\n\
                    Nc6 3. Bb5 {a\n long comment} 1-0\n";
        let game = PgnGame::parse(text).unwrap();
        assert_eq!(game.variant, Variant::Chess);
        let moves: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["e4", "e5!?", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(game.moves[4].comment.as_deref(), Some("a long comment"));
        assert_eq!(game.result, "1-0");
        assert_eq!(game.replay().unwrap().len(), 5);
        assert!(PgnGame::parse("[Event \"x\"\n").is_err());
        assert!(PgnGame::parse("1. e4 {open").is_err());
        assert!(PgnGame::parse("[Variant \"go\"] 1-0").is_err());
    }

    #[test]
    fn a_match_record_becomes_pgn() {
        let start = Position::start(Variant::Chess);
        let mut after_opening = start.clone();
        after_opening.make(start.parse_move("f2f3").unwrap());
        let record = Record {
            id: 7,
            round: 4,
            variant: Variant::Chess,
            seats: vec![('w', "random".into()), ('b', "greedy".into())],
            from: None,
            opening: vec!["f2f3".into()],
            fen: after_opening.fen(),
            moves: ["e7e5", "g2g4", "d8h4"].map(String::from).to_vec(),
            end: GameEnd::Rules(EndReason::Checkmate),
            points: vec![0.0, 1.0],
            ms: vec![0, 0],
            evals: Vec::new(),
        };
        let context = MatchTags {
            event: "triskel match".into(),
            date: "2024.06.11".into(),
            time_control: Some(TimeControl::fischer(
                Duration::from_secs(60),
                Duration::from_millis(600),
            )),
            ..MatchTags::default()
        };
        let game = PgnGame::from_record(&record, &context).unwrap();
        let pgn = game.write();
        assert!(
            pgn.starts_with(
                "[Event \"triskel match\"]\n[Site \"?\"]\n[Date \"2024.06.11\"]\n[Round \"4\"]\n\
             [White \"random\"]\n[Black \"greedy\"]\n[Result \"0-1\"]\n\
             [TimeControl \"60+0.6\"]\n[Termination \"normal\"]\n[PlyCount \"4\"]\n\n"
            ),
            "{pgn}"
        );
        assert_eq!(
            movetext(&pgn),
            "1. f3 {book} 1... e5 2. g4 Qh4# {} {Black mates} 0-1"
        );
        let mut forfeit = record.clone();
        forfeit.variant = Variant::Dreierschach;
        forfeit.seats.push(('b', "engine".into()));
        forfeit.opening.clear();
        forfeit.moves.clear();
        forfeit.fen = Position::start(Variant::Dreierschach).fen();
        forfeit.end = GameEnd::Timeout(Player::new(1));
        forfeit.points = vec![1.5, 0.0, 1.5];
        let game = PgnGame::from_record(&forfeit, &MatchTags::default()).unwrap();
        let pgn = game.write();
        assert!(pgn.contains("[Brown \"greedy\"]\n[Black \"engine\"]\n[Result \"3/2-0-3/2\"]\n"));
        assert!(
            pgn.ends_with("\n\n{Brown loses on time} 3/2-0-3/2\n\n"),
            "{pgn}"
        );
        assert_eq!(PgnGame::parse(&pgn).unwrap(), game);
        let mut broken = record;
        broken.moves[1] = "e1e2".into();
        assert!(PgnGame::from_record(&broken, &context).is_err());
    }
}
