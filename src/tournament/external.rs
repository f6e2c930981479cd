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
//! `movetime`, `depth` or `nodes`), and answers `bestmove`. An
//! engine that does not answer in its time is sent `stop`; one that exits,
//! or writes no `bestmove`, forfeits the game. At the end it gets `quit`
//! and is killed if it does not exit.

use super::engine_spec::{Dialect, ExternalConfig, FixedLimit};
use super::player::ClockView;
use crate::moves::Move;
use crate::position::Position;
use crate::protocol::go::{INCREMENT_SUFFIX, TIME_SUFFIX};
use crate::variants::Variant;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
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
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|why| format!("cannot start '{path}': {why}"))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("'{path}': no pipes to the engine"));
        };
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            // Bytes that are not UTF-8 make a line unreadable, not the end
            // of the engine's output: they are shown as U+FFFD.
            let mut output = BufReader::new(output);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match output.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&bytes);
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let standard = config.dialect == Dialect::Uci && start.variant() == Variant::Chess;
        let mut engine = ExternalEngine {
            child,
            input,
            lines,
            start_command: start_command(start, standard),
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
    /// `clocks`; or why it gave none. An engine past its time is stopped,
    /// and its late move returned (the game then forfeits it on time).
    pub fn choose(
        &mut self,
        pos: &Position,
        moves: &[String],
        clocks: &ClockView,
    ) -> Result<Move, Failure> {
        let mut position = self.start_command.clone();
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position).map_err(Failure::Disconnected)?;
        self.synchronize()?;
        let (go, allowed) = match self.limit {
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
        let answer = match self.read_until("bestmove", Instant::now() + allowed + GRACE) {
            Ok(line) => line,
            Err(Silence::Timeout) => {
                self.send("stop").map_err(Failure::Disconnected)?;
                self.read_until("bestmove", Instant::now() + GRACE)
                    .map_err(|silence| Failure::of_silence(silence, "bestmove"))?
            }
            Err(silence) => return Err(Failure::of_silence(silence, "bestmove")),
        };
        let text = answer
            .split_whitespace()
            .nth(1)
            .ok_or_else(|| Failure::Illegal(format!("'{answer}' names no move")))?;
        pos.parse_move(text)
            .map_err(|why| Failure::Illegal(format!("bestmove {text}: {why}")))
    }

    /// `isready` … `readyok` before a `go`, dropping what the engine wrote
    /// since its last answer: the engine answers in order, so a `bestmove`
    /// before `readyok` (a duplicate, or one after `stop` came too late) is
    /// no answer to the next `go`, and is ignored with a warning, as
    /// cutechess ignores it.
    fn synchronize(&mut self) -> Result<(), Failure> {
        self.send("isready").map_err(Failure::Disconnected)?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::of_silence(Silence::Timeout, "readyok"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::of_silence(Silence::Exited, "readyok"));
                }
            };
            match line.split_whitespace().next() {
                Some("readyok") => return Ok(()),
                Some("bestmove") => eprintln!(
                    "warning: {}: '{line}' while not searching, ignored",
                    self.command
                ),
                _ => {}
            }
        }
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
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if super::interrupted() {
                return Err(Silence::Exited);
            }
            match self.lines.recv_timeout(left.min(INTERRUPT_POLL)) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(RecvTimeoutError::Timeout) => return Err(Silence::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Silence::Exited),
            }
        }
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
    if fen == Position::start(Variant::Chess).standard_fen() {
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
    use crate::types::MAX_PLAYERS;
    use crate::variants::Variant;

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
