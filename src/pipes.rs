//! Engine programs as child processes: started with their standard input
//! and output piped, and their output read line by line. The tournament's
//! external engines and the browser board's engines both start this way.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A started child with its input and output pipes.
pub struct Piped {
    /// The process.
    pub child: Child,
    /// Its standard input.
    pub input: ChildStdin,
    /// Its standard output (standard error is discarded).
    pub output: ChildStdout,
}

/// Starts `command` with piped input and output, or says why it could not
/// be started (naming `program`).
pub fn spawn(command: &mut Command, program: &str) -> Result<Piped, String> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|why| format!("cannot start '{program}': {why}"))?;
    let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(format!("'{program}': no pipes to the engine"));
    };
    Ok(Piped {
        child,
        input,
        output,
    })
}

/// Hands each line of `output` to `take` (without its line ending) until
/// the output ends or `take` answers false. Bytes that are not UTF-8 make
/// a line unreadable, not the end of the output: they read as U+FFFD.
pub fn each_line(output: impl Read, mut take: impl FnMut(String) -> bool) {
    let mut output = BufReader::new(output);
    let mut bytes = Vec::new();
    while matches!(output.read_until(b'\n', &mut bytes), Ok(n) if n > 0) {
        let line = String::from_utf8_lossy(&bytes)
            .trim_end_matches(['\n', '\r'])
            .to_string();
        bytes.clear();
        if !take(line) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_lose_their_endings_and_bad_bytes_only() {
        let mut seen = Vec::new();
        each_line(&b"a\r\nb\xffc\nlast"[..], |line| {
            seen.push(line);
            true
        });
        assert_eq!(seen, ["a", "b\u{fffd}c", "last"]);
        let mut first = Vec::new();
        each_line(&b"one\ntwo\n"[..], |line| {
            first.push(line);
            false
        });
        assert_eq!(first, ["one"]);
    }

    #[test]
    fn a_missing_program_is_named() {
        let err = spawn(
            &mut Command::new("/nonexistent/engine"),
            "/nonexistent/engine",
        )
        .err()
        .unwrap();
        assert!(err.contains("cannot start '/nonexistent/engine'"), "{err}");
    }
}
