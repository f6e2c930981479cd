//! The engine as a child process, driven through the protocol: shared by the
//! integration tests (protocol, bad input, tactics) that include it with
//! `#[path = "data/engine.rs"] mod engine;`.
//! Every wait has a timeout, so a hang fails the test instead of hanging it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Longest wait for a line the engine owes us (a reply, a `bestmove`).
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// How long to listen for lines that must not come.
pub const QUIET_PERIOD: Duration = Duration::from_millis(200);

/// The engine binary under test.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_triskel")
}

/// Whether a line is an error line (`info string error: ...`).
pub fn is_error(line: &str) -> bool {
    line.starts_with("info string error: ")
}

/// The running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<String>>,
    /// Everything sent and read so far, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    /// Starts the engine and reads its greeting.
    pub fn start() -> Engine {
        let mut child = Command::new(binary())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let mut engine = Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: Some(stderr),
            transcript: Vec::new(),
        };
        let greeting = engine.next_line();
        assert!(
            greeting.starts_with("Triskel ") && greeting.contains("'help' lists the commands"),
            "greeting: {greeting}"
        );
        engine
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    /// Sends one line of raw bytes (not necessarily UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let shown: String = String::from_utf8_lossy(bytes).chars().take(200).collect();
        self.transcript.push(format!("> {shown}"));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.write_all(b"\n").expect("write to the engine");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits for the engine to exit; panics after [`TIMEOUT`].
    pub fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(start.elapsed() < TIMEOUT, "the engine did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Everything the engine wrote to stderr (once it has exited).
    pub fn stderr(&mut self) -> String {
        self.stderr
            .take()
            .map(|h| h.join().unwrap_or_default())
            .unwrap_or_default()
    }

    /// Lines that arrive within [`QUIET_PERIOD`].
    pub fn drain(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(QUIET_PERIOD) {
            self.transcript.push(line.chars().take(300).collect());
            lines.push(line);
        }
        lines
    }

    /// The next line, failing after `timeout`.
    pub fn next_line_within(&mut self, timeout: Duration) -> String {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.chars().take(300).collect());
                line
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!("no line within {timeout:?}; so far:\n{}", self.transcript())
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!(
                    "the engine closed its output; so far:\n{}",
                    self.transcript()
                )
            }
        }
    }

    /// The next line, failing after [`TIMEOUT`].
    pub fn next_line(&mut self) -> String {
        self.next_line_within(TIMEOUT)
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn read_until(&mut self, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next_line();
            let finished = done(&line);
            lines.push(line);
            if finished {
                return lines;
            }
        }
    }

    /// Lines up to and including `exact`.
    pub fn read_until_line(&mut self, exact: &str) -> Vec<String> {
        self.read_until(|l| l == exact)
    }

    /// Sends `isready` and returns the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `command`, then `isready`; returns what came before `readyok`.
    pub fn command(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.sync()
    }

    /// The value of the `key: value` line of `d`.
    pub fn show(&mut self, key: &str) -> String {
        let prefix = format!("{key}: ");
        let lines = self.command("d");
        lines
            .iter()
            .find_map(|l| l.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("no {key} line in {lines:?}"))
            .to_string()
    }

    /// The root moves of `go perft 1`, in the engine's order.
    pub fn legal_moves(&mut self) -> Vec<String> {
        self.send("go perft 1");
        let lines = self.read_until(|l| l.starts_with("Nodes searched: "));
        lines
            .iter()
            .filter_map(|l| l.split_once(": "))
            .filter(|(m, _)| *m != "Nodes searched")
            .map(|(m, _)| m.to_string())
            .collect()
    }

    /// Sends `go ...`, waits for `bestmove` (failing after `timeout`) and
    /// returns the move, every line printed, and the time it took.
    pub fn go(&mut self, go: &str, timeout: Duration) -> (String, Vec<String>, Duration) {
        let start = Instant::now();
        self.send(go);
        let mut lines = Vec::new();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            let line = self.next_line_within(left.max(Duration::from_millis(1)));
            let done = line.starts_with("bestmove") || is_error(&line);
            lines.push(line);
            if done {
                break;
            }
        }
        let last = lines.last().cloned().unwrap_or_default();
        let best = last
            .strip_prefix("bestmove ")
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("")
            .to_string();
        (best, lines, start.elapsed())
    }

    /// Everything sent and read so far (lines shortened).
    pub fn transcript(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
