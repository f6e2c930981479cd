//! The `triskel` command: without a subcommand, the engine's protocol on
//! stdin/stdout (protocol.md); `perft` and `bench` for testing and timing.

use clap::{Parser, Subcommand};
use std::io::BufWriter;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use triskel::bench::{self, BenchConfig, per_second};
use triskel::perft;
use triskel::protocol::go::MAX_PERFT_DEPTH;
use triskel::protocol::options::{Options, THREADS, UCI_VARIANT};
use triskel::protocol::setup::build_position;
use triskel::protocol::{self, Output, perft_lines};
use triskel::search::MAX_DEPTH;

#[derive(Parser)]
#[command(
    name = "triskel",
    version,
    about = "A game engine for chess variants of three players and of 3-D boards",
    long_about = "A game engine for chess variants of three players and of 3-D boards.\n\n\
                  Without a subcommand it speaks its UCI-style protocol on standard input \
                  and output (see protocol.md)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (perft).
    Perft {
        /// Game id (see `uci` for the list).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Depth in plies.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PERFT_DEPTH)))]
        depth: u32,
        /// Start from this position (position format, or standard FEN for chess)
        /// instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Play these moves first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Threads.
        #[arg(long)]
        threads: Option<u32>,
        /// Set an engine option, e.g. `AfterMate=inherit` (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Run the benchmark: fixed perft counts and searches, then the node total and speed.
    Bench {
        /// Depth of the searches (perft entries keep their own).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
        depth: Option<u32>,
        /// Threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            let stdin = std::io::stdin();
            protocol::run(stdin.lock(), Output::stdout());
            Ok(())
        }
        Some(Command::Perft {
            variant,
            depth,
            fen,
            moves,
            divide,
            threads,
            options,
        }) => run_perft(
            &variant,
            depth,
            fen.as_deref(),
            &moves,
            divide,
            threads,
            &options,
        ),
        Some(Command::Bench { depth, threads }) => run_bench(depth, threads),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `triskel perft`.
fn run_perft(
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    moves: &[String],
    divide: bool,
    threads: Option<u32>,
    settings: &[String],
) -> Result<(), String> {
    let mut options = Options::default();
    options
        .set(UCI_VARIANT, Some(variant))
        .map_err(|why| format!("--variant: {why}"))?;
    if let Some(threads) = threads {
        options
            .set(THREADS, Some(&threads.to_string()))
            .map_err(|why| format!("--threads: {why}"))?;
    }
    for setting in settings {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("--option {setting}: expected NAME=VALUE"))?;
        options
            .set(name.trim(), Some(value.trim()))
            .map_err(|why| format!("--option {setting}: {why}"))?;
    }
    let pos = build_position(options.variant(), options.after_mate(), fen, moves)?;
    let start = Instant::now();
    let counts = perft::divide(&pos, depth, options.threads());
    let elapsed = start.elapsed();
    let mut lines = perft_lines(&pos, &counts);
    if !divide {
        lines.drain(..=counts.len());
    }
    lines.push(format!(
        "Time: {} ms, nodes/second: {}",
        elapsed.as_millis(),
        per_second(counts.iter().map(|&(_, n)| n).sum(), elapsed)
    ));
    Output::new(BufWriter::new(std::io::stdout())).block(lines);
    Ok(())
}

/// `triskel bench`.
fn run_bench(depth: Option<u32>, threads: usize) -> Result<(), String> {
    let config = BenchConfig { depth, threads };
    let out = Output::stdout();
    let totals = bench::run(&config, &AtomicBool::new(false), &mut |line| out.line(line))?;
    if let Some(totals) = totals {
        out.block(totals.summary_lines());
    }
    Ok(())
}
