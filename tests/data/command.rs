//! The engine's command line run as a child process: shared by the tests of
//! its subcommands (cli, match) that include it with
//! `#[path = "data/command.rs"] mod command;`.

#![allow(dead_code)]

use std::process::{Command, Output, Stdio};

/// Exit code of a usage error found by the argument parser.
pub const USAGE_ERROR: i32 = 2;
/// Exit code of any other error.
pub const FAILURE: i32 = 1;

/// Runs `triskel` with `args` and no input.
pub fn triskel(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_triskel"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the engine runs")
}

/// What the run printed on standard output.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

/// What the run printed on standard error.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}
