//! Static exchange evaluation: what a capture wins once every piece that
//! attacks the target cell has joined in, cheapest first, the mover against
//! all other players together. Pins and checks are ignored, as usual.

use super::eval::EvalTables;
use crate::bitboard::Bitboard;
use crate::movegen::Attackers;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Cell, PieceKind, PlayerSet};

/// Most captures one exchange can have (a bound for the gain list).
const MAX_EXCHANGE: usize = 64;

/// An exchange on one cell after its first capture: whose turn it is to
/// recapture and which pieces are still on the board.
struct Exchange<'a> {
    pos: &'a Position,
    values: &'a [i32; PieceKind::COUNT],
    target: Cell,
    /// The mover's attacking pieces, then all other players'.
    sides: [Attackers; 2],
    occupied: Bitboard,
    /// The side to capture next (index into `sides`).
    side: usize,
}

impl<'a> Exchange<'a> {
    /// The exchange the capture `m` starts, with what the mover has won if
    /// it stops there and the value of the piece it leaves on the target;
    /// none if `m` takes nothing.
    #[inline(always)]
    fn start(pos: &'a Position, m: Move) -> Option<(Exchange<'a>, i32, i32)> {
        let values = &EvalTables::of(pos.variant()).values;
        let first_victim = match m.kind() {
            MoveKind::EnPassant => values[PieceKind::Pawn.index()],
            MoveKind::Normal => value_on(values, pos, m.to()),
            _ => return None,
        };
        let mover_piece = pos.piece_at(m.from())?;
        let promotion = m.promotion_kind();
        let won = first_victim + promotion.map_or(0, |k| values[k.index()] - values[0]);
        let on_target = promotion.map_or(values[mover_piece.kind().index()], |k| values[k.index()]);
        let mover = pos.to_move();
        let mut occupied = pos.occupied().without(m.from());
        if m.kind() == MoveKind::EnPassant {
            occupied = occupied.without(m.aux_cell());
        }
        let exchange = Exchange {
            pos,
            values,
            target: m.to(),
            sides: [
                pos.attackers(PlayerSet::EMPTY.with(mover)),
                pos.attackers(pos.state().active().without(mover)),
            ],
            occupied,
            side: 1,
        };
        Some((exchange, won, on_target))
    }

    /// The next recapture, by the side to capture's cheapest attacker:
    /// the value of that piece (now on the target), or none when that side
    /// cannot capture. A king captures only where no enemy piece attacks
    /// any more.
    #[inline(always)]
    fn recapture(&mut self) -> Option<i32> {
        let (pos, target, occupied) = (self.pos, self.target, self.occupied);
        let attackers = pos.attackers_of(target, occupied, &self.sides[self.side]) & occupied;
        let cheapest = cheapest(pos, attackers)?;
        if pos
            .piece_at(cheapest)
            .is_some_and(|p| p.kind() == PieceKind::King)
            && (pos.attackers_of(target, occupied, &self.sides[self.side ^ 1]) & occupied)
                .nonempty()
        {
            return None;
        }
        self.occupied = occupied.without(cheapest);
        self.side ^= 1;
        Some(value_on(self.values, pos, cheapest))
    }
}

/// The value of the piece on `cell` (none: 0) by `values`.
#[inline(always)]
fn value_on(values: &[i32; PieceKind::COUNT], pos: &Position, cell: Cell) -> i32 {
    pos.piece_at(cell).map_or(0, |p| values[p.kind().index()])
}

/// The material balance of the exchange `m` starts, for the mover.
pub fn see(pos: &Position, m: Move) -> i32 {
    let Some((mut exchange, won, mut on_target)) = Exchange::start(pos, m) else {
        return 0;
    };
    let mut gains = [0i32; MAX_EXCHANGE];
    gains[0] = won;
    let mut depth = 0;
    while let Some(capturer) = exchange.recapture() {
        depth += 1;
        if depth >= MAX_EXCHANGE {
            break;
        }
        gains[depth] = on_target - gains[depth - 1];
        on_target = capturer;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// Whether the capture `m` loses material by [`see`] (a value below zero).
/// A capture of a piece worth at least the capturing one never does (the
/// mover can stop after it), so then no exchange is worked out; otherwise
/// the exchange is followed only until its sign is settled.
pub fn loses_material(pos: &Position, m: Move) -> bool {
    let values = &EvalTables::of(pos.variant()).values;
    if m.kind() == MoveKind::Normal
        && value_on(values, pos, m.to()) >= value_on(values, pos, m.from())
    {
        return false;
    }
    !holds_even(pos, m)
}

/// Whether [`see`] of `m` is at least zero, found without the whole
/// exchange: the captures go on only while the side that just captured
/// could still change the sign of the outcome.
fn holds_even(pos: &Position, m: Move) -> bool {
    let Some((mut exchange, won, on_target)) = Exchange::start(pos, m) else {
        return true;
    };
    // What the side to capture next wins if it captures and the exchange
    // stops there.
    let mut swap = on_target - won;
    if swap <= 0 {
        return true;
    }
    // Whether the mover ends at zero or better if the exchange stops here.
    let mut holds = true;
    while let Some(capturer) = exchange.recapture() {
        holds = !holds;
        swap = capturer - swap;
        // Even losing the capturing piece, this side keeps the sign it has.
        if swap < i32::from(holds) {
            break;
        }
    }
    holds
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
    use crate::game::Variant;

    fn see_of(fen: &str, m: &str) -> i32 {
        let pos = Position::from_fen(Variant::Chess, fen).unwrap();
        see(&pos, pos.parse_move(m).unwrap())
    }

    /// Chess's value of `kind`, as the exchanges count it.
    fn value(kind: PieceKind) -> i32 {
        EvalTables::of(Variant::Chess).values[kind.index()]
    }

    #[test]
    fn exchanges_on_one_cell() {
        // A free pawn.
        assert_eq!(
            see_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
            value(PieceKind::Pawn)
        );
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        assert!(see_of("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5") < 0);
        // Rook takes a rook defended by a rook, backed by a second rook (x-ray).
        assert_eq!(
            see_of("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"),
            value(PieceKind::Rook)
        );
        // The same with the defender's king next to the target: even.
        assert_eq!(see_of("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
    }

    #[test]
    fn the_shortened_exchange_has_the_sign_of_the_whole_one() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut compared = 0;
        for v in Variant::ALL {
            for _ in 0..30 {
                let mut pos = Position::start(v);
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in moves.iter() {
                        let capture = m.kind() == MoveKind::EnPassant
                            || (m.kind() == MoveKind::Normal && pos.piece_at(m.to()).is_some());
                        if capture {
                            let value = see(&pos, m);
                            assert_eq!(holds_even(&pos, m), value >= 0, "{} {m:?}", pos.fen());
                            assert_eq!(loses_material(&pos, m), value < 0, "{} {m:?}", pos.fen());
                            compared += 1;
                        }
                    }
                    // Captures are played more often, so that exchanges build up.
                    let captures: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| pos.piece_at(m.to()).is_some())
                        .collect();
                    let m = if !captures.is_empty() && next(3) == 0 {
                        captures[next(captures.len())]
                    } else {
                        moves[next(moves.len())]
                    };
                    pos.make(m);
                }
            }
        }
        assert!(compared > 10_000, "{compared} captures compared");
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
