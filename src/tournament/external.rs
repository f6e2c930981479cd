//! An engine in another process, driven through the protocol
//! (protocol.md): the `--engine` and `exec:PATH` players of a match, so
//! that two builds of the engine, or any UCI engine in classical chess, can
//! play each other the way a tournament manager runs them.
//!
//! Per game the process is started, answers `uci` with `uciok`, is given
//! its options (`setoption name ... value ...`), the game (`setoption name
//! UCI_Variant`, except in standard UCI), `ucinewgame` and `isready`; for
//! each move it gets the position (`position startpos` or `position fen`
//! with standard FEN in classical chess under standard UCI, else `position
//! fen <start>` in the protocol's format, then `moves ...`) and `go` with
//! every clocked player's time and increment (or the engine's fixed
//! `movetime`, `depth` or `nodes`), and answers `bestmove`; its `info`
//! lines before it give the move's evaluation ([`InfoReader`]). An
//! engine that does not answer in its time is sent `stop`; one that exits,
//! or writes no `bestmove`, forfeits the game. At the end it gets `quit`
//! and is killed if it does not exit.

use super::engine_spec::{Dialect, ExternalConfig, FixedLimit};
use super::evaluation::{SearchScore, centipawn_score, mate_score};
use super::player::{Choice, ClockView};
use crate::game::Game;
use crate::number;
use crate::pipes::{self, Piped};
use crate::position::Position;
use crate::protocol::go::{INCREMENT_SUFFIX, TIME_SUFFIX};
use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to start and answer `uci` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long past its remaining time an engine is waited for before `stop`,
/// and again after `stop` before it is given up.
const GRACE: Duration = Duration::from_secs(1);
/// How long an engine searching to a fixed depth or node count may take
/// for a move before it is stopped: such a search has no clock to keep.
const FIXED_SEARCH_WAIT: Duration = Duration::from_secs(600);
/// How long an engine may take to exit after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);
/// How often a wait for an engine's answer looks whether the match was
/// interrupted.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);
/// Polling interval while waiting for an engine to exit.
const EXIT_POLL: Duration = Duration::from_millis(10);

/// A running engine process, set up for one game.
pub struct ExternalEngine {
    child: Child,
    input: ChildStdin,
    /// The engine's output, line by line, read by a thread of its own so
    /// that waiting for an answer can time out.
    lines: Receiver<String>,
    /// The `position` command of the game's start, to which every move's
    /// command adds the moves.
    start_command: String,
    /// Whether positions go in standard UCI (classical chess).
    standard: bool,
    /// A fixed search per move, if any.
    limit: FixedLimit,
    /// The program, for warnings.
    command: String,
}

impl ExternalEngine {
    /// Starts the engine of `config` for a game of `start`'s variant from
    /// `start`, or says why it could not be started.
    pub fn start(config: &ExternalConfig, start: &Position) -> Result<ExternalEngine, String> {
        let path = &config.command;
        let mut command = Command::new(path);
        command.args(&config.args);
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        let Piped {
            child,
            input,
            output,
        } = pipes::spawn(&mut command, path)?;
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || pipes::each_line(output, |line| sender.send(line).is_ok()));
        let standard = config.dialect == Dialect::Uci && start.game().facts.classical_notation;
        let mut engine = ExternalEngine {
            child,
            input,
            lines,
            start_command: start_command(start, standard),
            standard,
            limit: config.limit,
            command: path.clone(),
        };
        engine
            .handshake(config, start, standard)
            .map_err(|why| format!("'{path}': {why}"))?;
        Ok(engine)
    }

    /// `uci` … `uciok`, the options, the variant (not in standard UCI), a
    /// new game, `isready` … `readyok`.
    fn handshake(
        &mut self,
        config: &ExternalConfig,
        start: &Position,
        standard: bool,
    ) -> Result<(), String> {
        self.send("uci")?;
        self.wait_for("uciok", Instant::now() + HANDSHAKE_TIMEOUT)?;
        for (name, value) in &config.options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        if !standard {
            self.send(&format!(
                "setoption name UCI_Variant value {}",
                start.variant().id()
            ))?;
        }
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + HANDSHAKE_TIMEOUT)?;
        Ok(())
    }

    /// The engine's move in `pos`, reached from the start by `moves`, with
    /// `clocks`, and its evaluation from the `info` lines before it; or why
    /// it gave none. An engine past its time is stopped, and its late move
    /// returned (the game then forfeits it on time).
    pub fn choose(
        &mut self,
        pos: &Position,
        moves: &[String],
        clocks: &ClockView,
    ) -> Result<Choice, Failure> {
        let mut position = self.start_command.clone();
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position).map_err(Failure::Disconnected)?;
        self.synchronize()?;
        let clocked = clocks.time[pos.to_move().index()].is_some();
        let (go, allowed) = match self.limit {
            // Star's two clocks: the game's, and the time per move on top.
            FixedLimit {
                movetime: Some(time),
                ..
            } if clocked => (
                format!("{} movetime {}", go_command(pos, clocks), time.as_millis()),
                time,
            ),
            FixedLimit {
                movetime: Some(time),
                ..
            } => (format!("go movetime {}", time.as_millis()), time),
            FixedLimit {
                depth: Some(depth), ..
            } => (format!("go depth {depth}"), FIXED_SEARCH_WAIT),
            FixedLimit {
                nodes: Some(nodes), ..
            } => (format!("go nodes {nodes}"), FIXED_SEARCH_WAIT),
            _ => (
                go_command(pos, clocks),
                clocks.time[pos.to_move().index()].unwrap_or(Duration::ZERO),
            ),
        };
        self.send(&go).map_err(Failure::Disconnected)?;
        let mut info = InfoReader::new(pos.game());
        let mut observe = |line: &str| info.read(line);
        let answer = match self.read_until_observing(
            "bestmove",
            Instant::now() + allowed + GRACE,
            &mut observe,
        ) {
            Ok(line) => line,
            Err(Silence::Timeout) => {
                self.send("stop").map_err(Failure::Disconnected)?;
                self.read_until_observing("bestmove", Instant::now() + GRACE, &mut observe)
                    .map_err(|silence| Failure::of_silence(silence, "bestmove"))?
            }
            Err(silence) => return Err(Failure::of_silence(silence, "bestmove")),
        };
        let text = answer
            .split_whitespace()
            .nth(1)
            .ok_or_else(|| Failure::Illegal(format!("'{answer}' names no move")))?;
        let mv = pos
            .parse_move(text)
            .map_err(|why| Failure::Illegal(format!("bestmove {text}: {why}")))?;
        Ok(Choice {
            mv,
            search: info.evaluation(),
        })
    }

    /// Sends positions from `pos` on, with the moves played after it: a
    /// clock event (Star) changed the position without a move.
    pub fn rebase(&mut self, pos: &Position) {
        self.start_command = start_command(pos, self.standard);
    }

    /// `isready` … `readyok` before a `go`, dropping what the engine wrote
    /// since its last answer: the engine answers in order, so a `bestmove`
    /// before `readyok` (a duplicate, or one after `stop` came too late) is
    /// no answer to the next `go`, and is ignored with a warning, as
    /// cutechess ignores it. The wait ends early when the match is
    /// interrupted.
    fn synchronize(&mut self) -> Result<(), Failure> {
        self.send("isready").map_err(Failure::Disconnected)?;
        let command = self.command.clone();
        let mut warn = |line: &str| {
            if line.split_whitespace().next() == Some("bestmove") {
                eprintln!("warning: {command}: '{line}' while not searching, ignored");
            }
        };
        self.read_until_observing("readyok", Instant::now() + HANDSHAKE_TIMEOUT, &mut warn)
            .map(|_| ())
            .map_err(|silence| Failure::of_silence(silence, "readyok"))
    }

    /// Writes one line to the engine.
    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|_| format!("the engine exited (writing '{line}')"))
    }

    /// Reads lines until one whose first word is `word`, and returns it;
    /// fails at `deadline` or when the engine's output ends.
    fn wait_for(&mut self, word: &str, deadline: Instant) -> Result<String, String> {
        self.read_until(word, deadline)
            .map_err(|silence| silence.describe(word))
    }

    /// [`ExternalEngine::wait_for`], telling a timeout from an exit.
    fn read_until(&mut self, word: &str, deadline: Instant) -> Result<String, Silence> {
        self.read_until_observing(word, deadline, &mut |_| {})
    }

    /// [`ExternalEngine::read_until`], showing every other line to `observe`.
    fn read_until_observing(
        &mut self,
        word: &str,
        deadline: Instant,
        observe: &mut dyn FnMut(&str),
    ) -> Result<String, Silence> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if super::interrupted() {
                return Err(Silence::Exited);
            }
            match self.lines.recv_timeout(left.min(INTERRUPT_POLL)) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok(line),
                Ok(line) => observe(&line),
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(RecvTimeoutError::Timeout) => return Err(Silence::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Silence::Exited),
            }
        }
    }
}

/// The evaluation of a search read from its `info` lines, as cutechess
/// reads them: the last line with a `score cp <x>` or `score mate <n>`
/// that is not a bound (`lowerbound`, `upperbound`) nor a `multipv`
/// line beyond the first, with its `depth` (or the last depth before it)
/// and, in three-player games, its `scores <letter> cp <v> ...`.
pub struct InfoReader {
    game: &'static Game,
    /// The evaluation so far.
    last: Option<SearchScore>,
    /// The last depth of the first line's `info`.
    depth: Option<u32>,
}

/// What one `info` line says of the evaluation.
#[derive(Default)]
struct InfoLine {
    /// Its `depth`.
    depth: Option<u32>,
    /// Its `multipv`.
    multipv: Option<u64>,
    /// Its `score`, read as the search scores.
    score: Option<i32>,
    /// Whether the score is a `lowerbound` or `upperbound`.
    bound: bool,
    /// Its `scores`, by player letter.
    scores: Vec<(char, i32)>,
}

impl InfoReader {
    /// A reader of the `info` lines of one search in `game`.
    pub fn new(game: &'static Game) -> InfoReader {
        InfoReader {
            game,
            last: None,
            depth: None,
        }
    }

    /// Reads a line of the engine's output (other lines than `info` are
    /// passed over).
    pub fn read(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return;
        }
        let words: Vec<&str> = words.collect();
        let info = self.parse(&words);
        if info.multipv.is_some_and(|k| k > 1) {
            return;
        }
        if let Some(depth) = info.depth.filter(|&d| d > 0) {
            self.depth = Some(depth);
        }
        if let (Some(score), false, Some(depth)) = (info.score, info.bound, self.depth) {
            self.last = Some(SearchScore {
                score,
                depth,
                scores: info.scores,
            });
        }
    }

    /// The evaluation of the search, if a line gave one.
    pub fn evaluation(self) -> Option<SearchScore> {
        self.last
    }

    /// The fields of an `info` line's words after `info`, up to its `pv`
    /// or `string` (which take the rest of the line).
    fn parse(&self, words: &[&str]) -> InfoLine {
        let mut info = InfoLine::default();
        let mut i = 0;
        while i < words.len() {
            match words[i] {
                "pv" | "string" => break,
                "depth" => info.depth = words.get(i + 1).and_then(|w| number::whole(w)),
                "multipv" => info.multipv = words.get(i + 1).and_then(|w| number::whole(w)),
                "score" => {
                    info.score = words.get(i + 1..i + 3).and_then(score_of);
                    i += 2;
                    while matches!(words.get(i + 1), Some(&("lowerbound" | "upperbound"))) {
                        info.bound = true;
                        i += 1;
                    }
                }
                "scores" => {
                    while let Some(entry) = words.get(i + 1..i + 4) {
                        let letter = entry[0]
                            .parse::<char>()
                            .ok()
                            .and_then(|c| self.game.player_index(c))
                            .map(|p| self.game.letters[p]);
                        let (Some(letter), Some(score)) = (letter, score_of(&entry[1..])) else {
                            break;
                        };
                        info.scores.push((letter, score));
                        i += 3;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        info
    }
}

/// The score of the words `cp <x>` or `mate <n>`.
fn score_of(words: &[&str]) -> Option<i32> {
    match words {
        ["cp", value] => number::integer::<i64>(value).map(centipawn_score),
        ["mate", value] => number::integer::<i64>(value).map(mate_score),
        _ => None,
    }
}

/// Why an engine process gave no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It exited, or closed its pipes.
    Disconnected(String),
    /// It gave no `bestmove` even after `stop`.
    Stalled(String),
    /// Its answer names no move of the position.
    Illegal(String),
}

impl Failure {
    /// What happened, for reports.
    pub fn reason(&self) -> &str {
        match self {
            Failure::Disconnected(why) | Failure::Stalled(why) | Failure::Illegal(why) => why,
        }
    }

    /// The failure while waiting for `word`.
    fn of_silence(silence: Silence, word: &str) -> Failure {
        match silence {
            Silence::Timeout => Failure::Stalled(silence.describe(word)),
            Silence::Exited => Failure::Disconnected(silence.describe(word)),
        }
    }
}

/// Why an awaited line did not come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Silence {
    /// Not before the deadline.
    Timeout,
    /// The engine's output ended.
    Exited,
}

impl Silence {
    /// What went wrong while waiting for `word`.
    fn describe(self, word: &str) -> String {
        match self {
            Silence::Timeout => format!("no '{word}' in time"),
            Silence::Exited => format!("the engine exited before '{word}'"),
        }
    }
}

impl Drop for ExternalEngine {
    /// `quit`, then a kill if the engine is still running after half a second.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_WAIT;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(EXIT_POLL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `position` command of a game's start: in standard UCI `position
/// startpos` or `position fen` with standard FEN, else the protocol's
/// position format.
fn start_command(start: &Position, standard: bool) -> String {
    if !standard {
        return format!("position fen {}", start.fen());
    }
    let fen = start.standard_fen();
    if fen == Position::start(start.variant()).standard_fen() {
        "position startpos".to_string()
    } else {
        format!("position fen {fen}")
    }
}

/// `go` with the remaining time and increment of every clocked player,
/// named by the game's player letters (`go wtime 9000 btime 8500 winc 100 binc 100`).
fn go_command(pos: &Position, clocks: &ClockView) -> String {
    let game = pos.game();
    let mut go = String::from("go");
    let clocked =
        || (0..game.players).filter_map(|p| clocks.time[p].map(|time| (game.letters[p], time)));
    for (letter, time) in clocked() {
        go.push_str(&format!(" {letter}{TIME_SUFFIX} {}", time.as_millis()));
    }
    for p in (0..game.players).filter(|&p| clocks.time[p].is_some()) {
        let increment = clocks.increment[p].as_millis();
        go.push_str(&format!(
            " {}{INCREMENT_SUFFIX} {increment}",
            game.letters[p]
        ));
    }
    if let Some(moves) = clocks.moves_to_go {
        go.push_str(&format!(" movestogo {moves}"));
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::search::WIN_SCORE;
    use crate::types::MAX_PLAYERS;

    #[test]
    fn go_names_every_clocked_player_by_letter() {
        let pos = Position::start(Variant::Dreierschach);
        let clocks = ClockView {
            time: [
                Some(Duration::from_millis(9000)),
                None,
                Some(Duration::from_millis(8500)),
            ],
            increment: [Duration::from_millis(100); MAX_PLAYERS],
            moves_to_go: Some(7),
        };
        let letters = pos.game().letters;
        assert_eq!(
            go_command(&pos, &clocks),
            format!(
                "go {}time 9000 {}time 8500 {}inc 100 {}inc 100 movestogo 7",
                letters[0], letters[2], letters[0], letters[2]
            )
        );
    }

    #[test]
    fn standard_uci_gets_standard_positions_and_the_rest_the_protocol_format() {
        let chess = Position::start(Variant::Chess);
        assert_eq!(start_command(&chess, true), "position startpos");
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen(Variant::Chess, kiwipete).unwrap();
        assert_eq!(
            start_command(&pos, true),
            format!("position fen {kiwipete}")
        );
        assert_eq!(
            start_command(&chess, false),
            format!("position fen {}", chess.fen())
        );
        assert!(start_command(&chess, false).contains("wR"));
    }

    /// The evaluation `lines` give in `variant`.
    fn evaluation_of(variant: Variant, lines: &[&str]) -> Option<SearchScore> {
        let mut reader = InfoReader::new(variant.game());
        for line in lines {
            reader.read(line);
        }
        reader.evaluation()
    }

    #[test]
    fn the_last_exact_score_of_the_first_line_is_the_evaluation() {
        let chess = Variant::Chess;
        let eval = evaluation_of(
            chess,
            &[
                "info depth 6 score cp 30 nodes 100 pv e2e4",
                "info depth 7 seldepth 9 multipv 1 score cp 42 nodes 200 pv e2e4 e7e5",
                "info depth 7 multipv 2 score cp -80 pv d2d4",
                "info depth 8 score cp 90 lowerbound nodes 300",
                "info depth 8 currmove e2e4 currmovenumber 1",
                "info string score cp 500",
                "readyok",
            ],
        )
        .unwrap();
        assert_eq!((eval.score, eval.depth), (42, 7));
        assert!(eval.scores.is_empty());
        let mate = evaluation_of(chess, &["info depth 12 score mate 3 pv a1a2"]).unwrap();
        assert_eq!((mate.score, mate.depth), (WIN_SCORE - 5, 12));
        let mated = evaluation_of(chess, &["info depth 12 score mate -2"]).unwrap();
        assert_eq!(mated.score, 4 - WIN_SCORE);
        // The depth of an earlier line, where the score's line has none.
        let later = evaluation_of(chess, &["info depth 4 nodes 9", "info score cp -7"]).unwrap();
        assert_eq!((later.score, later.depth), (-7, 4));
        for nothing in [
            &["info depth 5 nodes 10 pv e2e4"][..],
            &["info score cp 10"],
            &["info depth 5 score cp +10"],
            &["info depth 5 score cp 99999999999999999999"],
            &["info depth 5 score upperbound cp 10"],
            &["bestmove e2e4"],
        ] {
            assert_eq!(evaluation_of(chess, nothing), None, "{nothing:?}");
        }
    }

    #[test]
    fn three_players_scores_are_read_by_letter() {
        let variant = Variant::Dreierschach;
        let eval = evaluation_of(
            variant,
            &["info depth 3 seldepth 10 multipv 1 score cp 48 scores w cp 48 n cp -37 b cp -10 nodes 14054 pv g2i4"],
        )
        .unwrap();
        assert_eq!(eval.scores, [('w', 48), ('n', -37), ('b', -10)]);
        let partial =
            evaluation_of(variant, &["info depth 3 score cp 5 scores w cp 5 x cp 1"]).unwrap();
        assert_eq!(partial.scores, [('w', 5)]);
    }

    #[test]
    fn a_missing_program_is_refused_clearly() {
        let pos = Position::start(Variant::Chess);
        let err = ExternalEngine::start(&ExternalConfig::program("/nonexistent/engine"), &pos)
            .err()
            .expect("no such program");
        assert!(err.contains("cannot start '/nonexistent/engine'"), "{err}");
    }

    #[test]
    fn a_program_that_exits_at_once_is_refused_clearly() {
        let pos = Position::start(Variant::Chess);
        let err = ExternalEngine::start(&ExternalConfig::program("true"), &pos)
            .err()
            .expect("true speaks no protocol");
        assert!(err.contains("exited"), "{err}");
    }
}
