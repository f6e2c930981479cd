//! The engine's output channel, shared by the command loop and the worker
//! thread: whole lines, flushed at once, never interleaved.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

/// A shared, line-oriented writer. Clones write to the same destination.
///
/// Write errors (e.g. the GUI closed the pipe) are ignored: the engine keeps
/// reading its input until `quit` or end of input.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Output to `writer`.
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Box::new(writer))),
        }
    }

    /// Output to the process's standard output.
    pub fn stdout() -> Output {
        Output::new(std::io::stdout())
    }

    /// Writes one line (a newline is appended) and flushes.
    pub fn line(&self, text: &str) {
        self.block([text]);
    }

    /// Writes several lines as one block that no other output splits.
    pub fn block<I, S>(&self, lines: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut sink = self.lock();
        for line in lines {
            let _ = writeln!(sink, "{}", line.as_ref());
        }
        let _ = sink.flush();
    }

    /// Writes `info string error: <message>`.
    pub fn error(&self, message: &str) {
        self.line(&format!("info string error: {}", one_line(message)));
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        self.sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `text` on one line: line breaks and other control characters become spaces.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
