//! What every position the reader accepts must be: a position the engine
//! can play. Shared by the mutation test (`tests/mutated_positions.rs`) and
//! the fuzz target `position` (`fuzz/`), which include it with
//! `#[path = ...] mod playable;`.

use std::sync::atomic::AtomicBool;
use triskel::moves::Move;
use triskel::perft::perft;
use triskel::position::{AfterMate, Position};
use triskel::search::{Limits, Options, Searcher};
use triskel::variants::Variant;

/// Checks that `text`, if the reader accepts it as a `variant` position,
/// is a position the engine can play: whether it was accepted, or the
/// defect found.
pub fn check_position(variant: Variant, after_mate: AfterMate, text: &str) -> Result<bool, String> {
    let Ok(mut pos) = Position::from_fen_with(variant, text, after_mate) else {
        return Ok(false);
    };
    let fen = pos.fen();
    let again = Position::from_fen_with(variant, &fen, after_mate)
        .map_err(|e| format!("{variant}: its own position string is refused: {fen}: {e}"))?;
    if again.fen() != fen || again.hash() != pos.hash() {
        return Err(format!("{variant}: {fen} reads back as {}", again.fen()));
    }
    let moves = pos.legal_moves();
    for &m in moves.iter() {
        let played = pos.move_text(m);
        if !pos.is_legal(m) {
            return Err(format!(
                "{variant}: generated move {played} is not legal in {fen}"
            ));
        }
        let undo = pos.make(m);
        let after = pos.fen();
        match Position::from_fen_with(variant, &after, after_mate) {
            Ok(read) if read.hash() == pos.hash() => {}
            Ok(_) => {
                return Err(format!(
                    "{variant}: after {played} in {fen} the key differs from that of {after}"
                ));
            }
            Err(e) => {
                return Err(format!(
                    "{variant}: {after}, after {played} in {fen}, is refused: {e}"
                ));
            }
        }
        pos.unmake(m, &undo);
        if pos.fen() != fen || pos.hash() != again.hash() {
            return Err(format!(
                "{variant}: {played} is not taken back exactly in {fen}"
            ));
        }
    }
    perft(&mut pos, 2);
    let mut searcher = Searcher::new(Options {
        hash_mb: 1,
        ..Options::default()
    });
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let result = searcher.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
    let chosen = result.best;
    if chosen != Move::NONE && !moves.contains(&chosen) {
        return Err(format!(
            "{variant}: the search chose {}, not legal in {fen}",
            pos.move_text(chosen)
        ));
    }
    if chosen == Move::NONE && !moves.is_empty() && pos.outcome().is_none() {
        return Err(format!("{variant}: the search chose no move in {fen}"));
    }
    Ok(true)
}
