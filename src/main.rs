//! The `triskel` command: the engine's protocol on stdin/stdout, and tools.

use clap::{Parser, Subcommand};
use std::time::Instant;
use triskel::perft;
use triskel::position::Position;
use triskel::variants::Variant;

#[derive(Parser)]
#[command(name = "triskel", version, about = "A game engine for chess variants of three players and of 3-D boards")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the move tree.
    Perft {
        /// Game id.
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Start from this position instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Play these moves first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

fn main() {
    let cli = Cli::parse();
    if let Some(Command::Perft { variant, depth, fen, moves, divide, threads }) = cli.command {
        let variant = Variant::from_id(&variant).expect("variant");
        let mut pos = match fen {
            Some(f) => Position::from_fen(variant, &f).expect("fen"),
            None => Position::start(variant),
        };
        for m in moves {
            let mv = pos.parse_move(&m).expect("move");
            pos.make(mv);
        }
        let t = Instant::now();
        let lines = perft::divide(&pos, depth, threads);
        let total: u64 = lines.iter().map(|(_, n)| n).sum();
        if divide {
            for (m, n) in &lines {
                println!("{}: {n}", pos.move_text(*m));
            }
        }
        let s = t.elapsed().as_secs_f64();
        println!("Nodes searched: {total}  ({:.1} Mnps, {:.2}s)", total as f64 / s / 1e6, s);
    }
}
