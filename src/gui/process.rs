//! An engine process of the browser board: a child whose standard input
//! takes the page's lines and whose standard output is kept, line by line,
//! for the page to read from any point (a long poll waits for new lines).
//!
//! The bridge knows nothing of the protocol: the page speaks it, as any
//! GUI would, to Triskel itself or to any engine program.

use crate::pipes::{self, Piped};
use std::collections::VecDeque;
use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// Most output lines kept per engine; older ones are dropped (an infinite
/// analysis writes lines for as long as it runs).
const KEPT_LINES: usize = 20_000;
/// How long an engine may take to exit after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);
/// Polling interval while waiting for an engine to exit.
const EXIT_POLL: Duration = Duration::from_millis(10);

/// What an engine wrote, shared between its reader thread and the page's
/// requests.
#[derive(Default)]
struct Output {
    /// The kept lines; the first is line number `first`.
    lines: VecDeque<String>,
    /// The number of the first kept line (lines are numbered from 0).
    first: usize,
    /// Whether the engine closed its output (it exited).
    closed: bool,
}

/// Lines read from an engine from some line number on.
#[derive(Debug, PartialEq)]
pub struct Lines {
    /// The number the next read starts from.
    pub next: usize,
    /// The lines, oldest first.
    pub lines: Vec<String>,
    /// Whether the engine is still running (its output is open).
    pub running: bool,
}

/// A running engine process.
pub struct EngineProcess {
    child: Mutex<Child>,
    input: Mutex<ChildStdin>,
    output: Arc<(Mutex<Output>, Condvar)>,
    /// When the page last read the engine's output.
    last_read: Mutex<Instant>,
}

impl EngineProcess {
    /// Starts `program` with `args`, or says why it could not be started.
    pub fn start(program: &str, args: &[String]) -> Result<EngineProcess, String> {
        let Piped {
            child,
            input,
            output: stdout,
        } = pipes::spawn(Command::new(program).args(args), program)?;
        let output = Arc::new((Mutex::new(Output::default()), Condvar::new()));
        let shared = Arc::clone(&output);
        thread::spawn(move || {
            let (kept, arrived) = &*shared;
            pipes::each_line(stdout, |line| {
                let mut out = kept.lock().unwrap_or_else(PoisonError::into_inner);
                out.lines.push_back(line);
                if out.lines.len() > KEPT_LINES {
                    out.lines.pop_front();
                    out.first += 1;
                }
                arrived.notify_all();
                true
            });
            kept.lock().unwrap_or_else(PoisonError::into_inner).closed = true;
            arrived.notify_all();
        });
        Ok(EngineProcess {
            child: Mutex::new(child),
            input: Mutex::new(input),
            output,
            last_read: Mutex::new(Instant::now()),
        })
    }

    /// Writes `text` to the engine, ending it with a newline if it has none.
    pub fn send(&self, text: &str) -> Result<(), String> {
        let mut line = text.to_string();
        if !line.ends_with('\n') {
            line.push('\n');
        }
        let mut input = self.input.lock().unwrap_or_else(PoisonError::into_inner);
        input
            .write_all(line.as_bytes())
            .and_then(|()| input.flush())
            .map_err(|why| format!("the engine does not take input: {why}"))
    }

    /// The lines from number `from` on, waiting up to `wait` for one if
    /// there is none yet (and the engine runs). Lines dropped already are
    /// skipped.
    pub fn read(&self, from: usize, wait: Duration) -> Lines {
        *self
            .last_read
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Instant::now();
        let (kept, arrived) = &*self.output;
        let deadline = Instant::now() + wait;
        let mut out = kept.lock().unwrap_or_else(PoisonError::into_inner);
        while out.first + out.lines.len() <= from && !out.closed {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            out = arrived
                .wait_timeout(out, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        let start = from.max(out.first) - out.first;
        Lines {
            next: out.first + out.lines.len(),
            lines: out.lines.iter().skip(start).cloned().collect(),
            running: !out.closed,
        }
    }

    /// How long ago the page last read the engine's output.
    pub fn idle(&self) -> Duration {
        self.last_read
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .elapsed()
    }

    /// Sends `quit`, and kills the engine if it has not exited soon after.
    pub fn close(&self) {
        let _ = self.send("quit");
        let mut child = self.child.lock().unwrap_or_else(PoisonError::into_inner);
        let deadline = Instant::now() + QUIT_WAIT;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            thread::sleep(EXIT_POLL);
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shell that echoes each line it reads, until `quit`.
    fn echo() -> EngineProcess {
        let script = "while read line; do [ \"$line\" = quit ] && exit 0; echo \"got $line\"; done";
        EngineProcess::start("sh", &["-c".to_string(), script.to_string()]).unwrap()
    }

    #[test]
    fn lines_are_read_from_any_number_on() {
        let engine = echo();
        engine.send("a").unwrap();
        engine.send("b\n").unwrap();
        let mut seen = Vec::new();
        let mut next = 0;
        while seen.len() < 2 {
            let read = engine.read(next, Duration::from_secs(5));
            assert!(read.running);
            next = read.next;
            seen.extend(read.lines);
        }
        assert_eq!(seen, ["got a", "got b"]);
        assert_eq!(engine.read(1, Duration::ZERO).lines, ["got b"]);
        assert!(engine.read(2, Duration::ZERO).lines.is_empty());
        engine.close();
    }

    #[test]
    fn bytes_that_are_not_utf8_do_not_end_the_output() {
        let script = "printf 'a\\377b\\r\\nnext\\n'";
        let engine = EngineProcess::start("sh", &["-c".to_string(), script.to_string()]).unwrap();
        let mut seen = Vec::new();
        let mut next = 0;
        loop {
            let read = engine.read(next, Duration::from_secs(5));
            next = read.next;
            seen.extend(read.lines);
            if !read.running {
                break;
            }
        }
        assert_eq!(seen, ["a\u{fffd}b", "next"]);
        engine.close();
    }

    #[test]
    fn an_engine_that_exits_is_seen_as_stopped() {
        let engine = echo();
        engine.send("quit").unwrap();
        let read = engine.read(0, Duration::from_secs(5));
        assert_eq!(read.next, 0);
        assert!(read.lines.is_empty());
        assert!(!read.running);
        engine.close();
    }
}
