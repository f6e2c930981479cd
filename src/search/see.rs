//! Static exchange evaluation: what a capture wins once every piece that
//! attacks the target cell has joined in, cheapest first, the mover against
//! all other players together. Pins and checks are ignored, as usual.

use super::eval::EvalTables;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Cell, PieceKind, PlayerSet};

/// Most captures one exchange can have (a bound for the gain list).
const MAX_EXCHANGE: usize = 64;

/// The material balance of the exchange `m` starts, for the mover.
pub fn see(pos: &Position, m: Move) -> i32 {
    let values = &EvalTables::of(pos.variant()).values;
    let target = m.to();
    let value_at = |cell: Cell| pos.piece_at(cell).map_or(0, |p| values[p.kind().index()]);
    let first_victim = match m.kind() {
        MoveKind::EnPassant => values[PieceKind::Pawn.index()],
        MoveKind::Normal => value_at(target),
        _ => return 0,
    };
    let Some(mover_piece) = pos.piece_at(m.from()) else {
        return 0;
    };
    let mover = pos.to_move();
    let sides = [
        pos.attackers(PlayerSet::EMPTY.with(mover)),
        pos.attackers(pos.state().active().without(mover)),
    ];
    let mut occupied = pos.occupied().without(m.from());
    if m.kind() == MoveKind::EnPassant {
        occupied = occupied.without(m.aux_cell());
    }
    let mut gains = [0i32; MAX_EXCHANGE];
    gains[0] = first_victim
        + m.promotion_kind()
            .map_or(0, |k| values[k.index()] - values[0]);
    let mut on_target = m
        .promotion_kind()
        .map_or(values[mover_piece.kind().index()], |k| values[k.index()]);
    let mut depth = 0;
    let mut side = 1;
    loop {
        let attackers = pos.attackers_of(target, occupied, &sides[side]) & occupied;
        let Some(cheapest) = cheapest(pos, attackers) else {
            break;
        };
        // A king captures only where no enemy piece attacks any more.
        if pos
            .piece_at(cheapest)
            .is_some_and(|p| p.kind() == PieceKind::King)
            && (pos.attackers_of(target, occupied, &sides[side ^ 1]) & occupied).nonempty()
        {
            break;
        }
        depth += 1;
        if depth >= MAX_EXCHANGE {
            break;
        }
        gains[depth] = on_target - gains[depth - 1];
        on_target = value_at(cheapest);
        occupied = occupied.without(cheapest);
        side ^= 1;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// Whether the capture `m` loses material by [`see`]. A capture of a piece
/// worth at least the capturing one never does (the mover can stop after
/// it), so then no exchange is worked out.
pub fn loses_material(pos: &Position, m: Move) -> bool {
    let values = &EvalTables::of(pos.variant()).values;
    let value_at = |cell: Cell| pos.piece_at(cell).map_or(0, |p| values[p.kind().index()]);
    if m.kind() == MoveKind::Normal && value_at(m.to()) >= value_at(m.from()) {
        return false;
    }
    see(pos, m) < 0
}

/// The least valuable of `pieces` (kings last).
fn cheapest(pos: &Position, pieces: Bitboard) -> Option<Cell> {
    PieceKind::ALL
        .into_iter()
        .map(|k| pieces & pos.kind(k))
        .find(|b| b.nonempty())
        .map(Bitboard::first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Variant;

    fn see_of(fen: &str, m: &str) -> i32 {
        let pos = Position::from_fen(Variant::Chess, fen).unwrap();
        see(&pos, pos.parse_move(m).unwrap())
    }

    #[test]
    fn exchanges_on_one_cell() {
        // A free pawn.
        assert_eq!(see_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 100);
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        assert!(see_of("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5") < 0);
        // Rook takes a rook defended by a rook, backed by a second rook (x-ray).
        assert_eq!(see_of("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 500);
        // The same with the defender's king next to the target: even.
        assert_eq!(see_of("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
    }

    #[test]
    fn material_is_lost_only_when_the_exchange_says_so() {
        let cases = [
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
            ("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
            ("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"),
            ("4k3/8/2p5/3n4/8/8/8/3QK3 w - - 0 1", "d1d5"),
            ("4k3/8/2p5/3q4/4P3/8/8/3RK3 w - - 0 1", "e4d5"),
        ];
        for (fen, m) in cases {
            let pos = Position::from_fen(Variant::Chess, fen).unwrap();
            let m = pos.parse_move(m).unwrap();
            assert_eq!(loses_material(&pos, m), see(&pos, m) < 0, "{fen} {m:?}");
        }
    }
}
