//! Games for unit tests: a start position played on, captures first.

use super::Position;
use crate::game::Variant;

/// Plays `variant` from its start for up to `plies` moves, showing `visit`
/// each position reached (the start and the last included) with the
/// number of moves played. Each move is a capture where the position has
/// one, so that pieces come off and sliders' lines open up, else move
/// number `ply × stride` of the legal moves (wrapping): different strides
/// give different games.
pub(crate) fn play_capturing_first(
    variant: Variant,
    plies: usize,
    stride: usize,
    mut visit: impl FnMut(&Position, usize),
) {
    let mut pos = Position::start(variant);
    for ply in 0..=plies {
        visit(&pos, ply);
        let moves = pos.legal_moves();
        if ply == plies || moves.is_empty() {
            break;
        }
        let capture = moves.iter().find(|m| pos.piece_at(m.to()).is_some());
        let m = capture
            .copied()
            .unwrap_or(moves[(ply * stride) % moves.len()]);
        pos.make(m);
    }
}
