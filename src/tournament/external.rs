//! An engine in another process, driven through the protocol
//! (protocol.md): the `exec:PATH` player of a match, so that two builds of
//! the engine (or another engine speaking the protocol) can play each other
//! the way a tournament manager runs them.
//!
//! Per game the process is started, answers `uci` with `uciok`, is given
//! the game with `setoption name UCI_Variant`, `ucinewgame` and `isready`;
//! for each move it gets `position fen <start> moves ...` and `go` with
//! every clocked player's time and increment, and answers `bestmove`. An
//! engine that does not answer in its time is sent `stop`; one that exits,
//! or writes no `bestmove`, forfeits the game. At the end it gets `quit`
//! and is killed if it does not exit.

use super::player::ClockView;
use crate::moves::Move;
use crate::position::Position;
use crate::protocol::go::{INCREMENT_SUFFIX, TIME_SUFFIX};
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
/// How long an engine may take to exit after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);
/// Polling interval while waiting for an engine to exit.
const EXIT_POLL: Duration = Duration::from_millis(10);

/// A running engine process, set up for one game.
pub struct ExternalEngine {
    child: Child,
    input: ChildStdin,
    /// The engine's output, line by line, read by a thread of its own so
    /// that waiting for an answer can time out.
    lines: Receiver<String>,
    /// The game's start position, as sent with every move.
    start_fen: String,
}

impl ExternalEngine {
    /// Starts the engine at `path` for a game of `start`'s variant from
    /// `start`, or says why it could not be started.
    pub fn start(path: &str, start: &Position) -> Result<ExternalEngine, String> {
        let mut child = Command::new(path)
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
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = ExternalEngine {
            child,
            input,
            lines,
            start_fen: start.fen(),
        };
        engine
            .handshake(start)
            .map_err(|why| format!("'{path}': {why}"))?;
        Ok(engine)
    }

    /// `uci` … `uciok`, the variant, a new game, `isready` … `readyok`.
    fn handshake(&mut self, start: &Position) -> Result<(), String> {
        self.send("uci")?;
        self.wait_for("uciok", Instant::now() + HANDSHAKE_TIMEOUT)?;
        self.send(&format!(
            "setoption name UCI_Variant value {}",
            start.variant().id()
        ))?;
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
    ) -> Result<Move, String> {
        let mut position = format!("position fen {}", self.start_fen);
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position)?;
        self.send(&go_command(pos, clocks))?;
        let mover_time = clocks.time[pos.to_move().index()].unwrap_or(Duration::ZERO);
        let answer = match self.read_until("bestmove", Instant::now() + mover_time + GRACE) {
            Ok(line) => line,
            Err(Silence::Timeout) => {
                self.send("stop")?;
                self.wait_for("bestmove", Instant::now() + GRACE)?
            }
            Err(silence) => return Err(silence.describe("bestmove")),
        };
        let text = answer
            .split_whitespace()
            .nth(1)
            .ok_or_else(|| format!("'{answer}' names no move"))?;
        pos.parse_move(text)
            .map_err(|why| format!("bestmove {text}: {why}"))
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
            match self.lines.recv_timeout(left) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(Silence::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Silence::Exited),
            }
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
    for (letter, _) in clocked() {
        let increment = clocks.increment.as_millis();
        go.push_str(&format!(" {letter}{INCREMENT_SUFFIX} {increment}"));
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;
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
            increment: Duration::from_millis(100),
        };
        let letters = pos.game().letters;
        assert_eq!(
            go_command(&pos, &clocks),
            format!(
                "go {}time 9000 {}time 8500 {}inc 100 {}inc 100",
                letters[0], letters[2], letters[0], letters[2]
            )
        );
    }

    #[test]
    fn a_missing_program_is_refused_clearly() {
        let pos = Position::start(Variant::Chess);
        let err = ExternalEngine::start("/nonexistent/engine", &pos)
            .err()
            .expect("no such program");
        assert!(err.contains("cannot start '/nonexistent/engine'"), "{err}");
    }

    #[test]
    fn a_program_that_exits_at_once_is_refused_clearly() {
        let pos = Position::start(Variant::Chess);
        let err = ExternalEngine::start("true", &pos)
            .err()
            .expect("true speaks no protocol");
        assert!(err.contains("exited"), "{err}");
    }
}
