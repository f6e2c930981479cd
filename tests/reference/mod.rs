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

/// A position of one game's reference rules, as perft walks it.
pub trait Node: Sized {
    /// A move of this game.
    type Move;
    /// The legal moves of the player to move (none when the game is over),
    /// after any automatic event due first, which may change the position.
    fn moves(&mut self) -> Vec<Self::Move>;
    /// The position after `m`, one of [`Node::moves`].
    fn play(&self, m: &Self::Move) -> Self;
    /// `m` as written on the wire.
    fn wire(m: &Self::Move) -> String;
}

/// The number of leaves of `node`'s move tree `depth` plies deep.
fn count<N: Node>(mut node: N, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = node.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| count(node.play(m), depth - 1)).sum()
}

/// Perft of `node` split by root move (`depth >= 1`).
pub fn split<N: Node>(mut node: N, depth: u32) -> Result<Vec<(String, u64)>, String> {
    if depth == 0 {
        return Err("divide needs depth >= 1".into());
    }
    let moves = node.moves();
    Ok(moves
        .iter()
        .map(|m| (N::wire(m), count(node.play(m), depth - 1)))
        .collect())
}

/// Refuses every option: for the games whose rules have none.
pub fn no_options(game: &str, options: &Options) -> Result<(), String> {
    match options.first() {
        Some((key, _)) => Err(format!("{game}: unknown option {key:?}")),
        None => Ok(()),
    }
}

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
