//! The reference move generator: a second, deliberately simple implementation
//! of every game's rules, written from the rule book (`../shared/rules/`)
//! alone and sharing no code with the engine. It is slow on purpose: plain
//! data structures, one function per rule, no bitboards, no incremental
//! state. The perft suites in `perft/` are confirmed by it.

pub mod chess;
pub mod dreierschach;
pub mod fen;
pub mod hexboard;
pub mod hexenschach;
pub mod pyramid;
pub mod sections;
pub mod star;
pub mod trichess;

/// Engine options that change the rules (e.g. `AfterMate=inherit`).
pub type Options = [(String, String)];

/// Perft split by root move: each legal move (as written on the wire) with
/// the number of leaf nodes below it at `depth - 1`.
pub fn divide(
    game: &str,
    position: &str,
    options: &Options,
    depth: u32,
) -> Result<Vec<(String, u64)>, String> {
    match game {
        "chess" => chess::divide(position, options, depth),
        "dreierschach" => dreierschach::divide(position, options, depth),
        "hexenschach" => hexenschach::divide(position, options, depth),
        "pyramid" => pyramid::divide(position, options, depth, false),
        "pyramid-ep" => pyramid::divide(position, options, depth, true),
        "trichess" => trichess::divide(position, options, depth),
        "star" => star::divide(position, options, depth),
        other => Err(format!("reference: unknown game {other}")),
    }
}

/// The perft node count of `position` at `depth` (`depth >= 1`).
pub fn perft(game: &str, position: &str, options: &Options, depth: u32) -> Result<u64, String> {
    Ok(divide(game, position, options, depth)?
        .iter()
        .map(|(_, nodes)| nodes)
        .sum())
}
