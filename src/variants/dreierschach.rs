//! Dreierschach 2.3 (rules: `../shared/rules/dreierschach.md`): three players
//! on 126 hexagons, classical chess kept as close as possible. The passing
//! rule lives in the board's tables (every diagonal step carries the two
//! cells it passes between); this file adds armies, pawns, castlings and the
//! end of the game.

use super::{
    Castling, CastlingSide, DoubleStep, EnPassantRule, Game, PawnTables, Variant, cell_set,
};
use crate::bitboard::Bitboard;
use crate::geometry::hex::{Diagonals, HexBoard};
use crate::geometry::{Geometry, SliderClass};
use crate::position::Position;
use crate::rules::{EndReason, Outcome};
use crate::types::{Army, Cell, MAX_PLAYERS, Player, PlayerSet};

/// The start position in the position format.
pub const START: &str = "nRnP2bPbR/nBnP3bPbN/nNnP4bPbB/nKnP5bPbQ/nQnP6bPbK/nBnP7bPbN/nNnP8bPbB/nRnP9bPbR/nP10bP/11/10/wPwPwPwPwPwPwPwPwP/wRwBwNwKwQwBwNwR w wKQnKQbKQ - 0 1";

/// Highest file and rank index (files a..m, ranks 1..13).
const LAST: i32 = 12;
/// The board's bounds on `q - r`.
const DIFF_RANGE: (i32, i32) = (-5, 7);

/// A step `(dq, dr)` on the hex board.
type Step = (i32, i32);

/// How one army's pawns move: two straight forward moves, three diagonal captures.
struct PawnDirections {
    moves: [Step; 2],
    captures: [Step; 3],
}

/// Each army's pawn directions.
const PAWN_DIRECTIONS: [PawnDirections; 3] = [
    PawnDirections {
        moves: [(0, 1), (1, 1)],
        captures: [(2, 1), (1, 2), (-1, 1)],
    },
    PawnDirections {
        moves: [(1, 0), (0, -1)],
        captures: [(-1, -2), (1, -1), (2, 1)],
    },
    PawnDirections {
        moves: [(-1, -1), (-1, 0)],
        captures: [(-1, 1), (-2, -1), (-1, -2)],
    },
];

/// Each army's pawn start cells.
const PAWN_STARTS: [&str; 3] = [
    "a2 b2 c2 d2 e2 f2 g2 h2 i2",
    "a5 b6 c7 d8 e9 f10 g11 h12 i13",
    "l5 l6 l7 l8 l9 l10 l11 l12 l13",
];

/// Each army's baseline (the 8 back-rank cells, left to right).
const BASELINES: [&str; 3] = [
    "a1 b1 c1 d1 e1 f1 g1 h1",
    "h13 g12 f11 e10 d9 c8 b7 a6",
    "m6 m7 m8 m9 m10 m11 m12 m13",
];

/// A castling of the rule book, by the names of its cells.
struct CastlingCells {
    /// The castling army.
    army: usize,
    /// Which rook.
    side: CastlingSide,
    /// The king's cell before and after.
    king: (&'static str, &'static str),
    /// The rook's cell before and after.
    rook: (&'static str, &'static str),
    /// The cells between king and rook, which must be empty and unattacked.
    between: &'static str,
}

/// Every army's two castlings.
const CASTLINGS: [CastlingCells; 6] = [
    CastlingCells {
        army: 0,
        side: CastlingSide::Right,
        king: ("d1", "g1"),
        rook: ("h1", "f1"),
        between: "e1 f1 g1",
    },
    CastlingCells {
        army: 0,
        side: CastlingSide::Left,
        king: ("d1", "b1"),
        rook: ("a1", "c1"),
        between: "b1 c1",
    },
    CastlingCells {
        army: 1,
        side: CastlingSide::Right,
        king: ("e10", "b7"),
        rook: ("a6", "c8"),
        between: "d9 c8 b7",
    },
    CastlingCells {
        army: 1,
        side: CastlingSide::Left,
        king: ("e10", "g12"),
        rook: ("h13", "f11"),
        between: "f11 g12",
    },
    CastlingCells {
        army: 2,
        side: CastlingSide::Right,
        king: ("m9", "m12"),
        rook: ("m13", "m11"),
        between: "m10 m11 m12",
    },
    CastlingCells {
        army: 2,
        side: CastlingSide::Left,
        king: ("m9", "m7"),
        rook: ("m6", "m8"),
        between: "m7 m8",
    },
];

/// Points of a finished game: the winner of a mate 3, the third player 1,
/// the mated 0; a draw 1 each.
const WIN_POINTS: f64 = 3.0;
const THIRD_POINTS: f64 = 1.0;
const DRAW_POINTS: f64 = 1.0;

/// Builds the game's tables.
pub fn build() -> Game {
    let board = HexBoard::new(LAST, DIFF_RANGE.0, DIFF_RANGE.1);
    let geometry = Geometry::build(board.shape(Diagonals::PassBetween));
    let cells = |names: &str| -> Vec<Cell> {
        names
            .split_whitespace()
            .map(|n| geometry.cell(n).expect("a Dreierschach cell"))
            .collect()
    };
    let baselines: Vec<Bitboard> = BASELINES.iter().map(|b| cell_set(cells(b))).collect();

    let pawns = (0..3)
        .map(|army| {
            let PawnDirections { moves, captures } = &PAWN_DIRECTIONS[army];
            let starts = cell_set(cells(PAWN_STARTS[army]));
            let promotion = (0..3)
                .filter(|&other| other != army)
                .fold(Bitboard::EMPTY, |acc, other| acc | baselines[other]);
            PawnTables::from_moves(
                geometry.cell_count(),
                |c| moves.iter().filter_map(|&d| board.step(c, d)).collect(),
                |c| {
                    if !starts.has(c) {
                        return Vec::new();
                    }
                    moves
                        .iter()
                        .filter_map(|&d| {
                            let skipped = board.step(c, d)?;
                            Some(DoubleStep::new(skipped, board.step(skipped, d)?))
                        })
                        .collect()
                },
                |c| captures.iter().filter_map(|&d| board.step(c, d)).collect(),
                promotion,
                baselines[army],
            )
        })
        .collect();

    let castlings = CASTLINGS
        .iter()
        .map(|c| {
            let cell = |name: &str| cells(name)[0];
            let between = cell_set(cells(c.between));
            Castling {
                army: Army::new(c.army),
                side: c.side,
                king_from: cell(c.king.0),
                king_to: cell(c.king.1),
                rook_from: cell(c.rook.0),
                rook_to: cell(c.rook.1),
                must_be_empty: between,
                must_be_safe: between,
            }
        })
        .collect();

    let rows = (0..=LAST)
        .rev()
        .map(|r| (0..=LAST).filter_map(|q| board.cell(q, r)).collect())
        .collect();
    Game::new(
        Variant::Dreierschach,
        geometry,
        "wnb",
        ["White", "Brown", "Black"],
        &SliderClass::BOTH,
        pawns,
        castlings,
        EnPassantRule::UntilOwnerMovesAgain,
        START,
        rows,
    )
}

/// The end when the player to move has no legal move: mate (the winner is
/// the first player after the mated one who attacks its king) or stalemate.
pub fn outcome_without_moves(pos: &Position) -> Outcome {
    let mated = pos.to_move();
    let Some(king) = pos.king_of(mated).filter(|_| pos.in_check()) else {
        return drawn(pos, EndReason::Stalemate);
    };
    let mut points = [0.0; MAX_PLAYERS];
    let mut order =
        (1..pos.game().players).map(|k| Player::new((mated.index() + k) % pos.game().players));
    let winner = order
        .clone()
        .find(|&p| {
            let by = pos.attackers(PlayerSet::EMPTY.with(p));
            pos.attackers_of(king, pos.occupied(), &by).nonempty()
        })
        .unwrap_or(Player::new((mated.index() + 1) % pos.game().players));
    for p in order.by_ref() {
        points[p.index()] = if p == winner {
            WIN_POINTS
        } else {
            THIRD_POINTS
        };
    }
    Outcome {
        reason: EndReason::Checkmate,
        points,
    }
}

/// A draw: one point each.
pub fn drawn(pos: &Position, reason: EndReason) -> Outcome {
    let mut points = [0.0; MAX_PLAYERS];
    for p in pos.state().in_game.iter() {
        points[p.index()] = DRAW_POINTS;
    }
    Outcome { reason, points }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_symmetric_under_the_rotation() {
        let pos = Position::start(Variant::Dreierschach);
        let board = HexBoard::new(LAST, DIFF_RANGE.0, DIFF_RANGE.1);
        // (q, r) -> (r - q + 7, 12 - q) maps White's army onto Brown's, Brown's onto Black's.
        for cell in pos.game().geometry.cells() {
            let (q, r) = board.coords(cell);
            let image = board
                .cell(r - q + 7, 12 - q)
                .expect("rotation stays on the board");
            match (pos.piece_at(cell), pos.piece_at(image)) {
                (None, None) => {}
                (Some(a), Some(b)) => {
                    assert_eq!(a.kind(), b.kind());
                    assert_eq!((a.army().index() + 1) % 3, b.army().index());
                }
                _ => panic!("rotation breaks the start position at {}", board.name(cell)),
            }
        }
    }

    #[test]
    fn pawn_tables_follow_the_rule_book() {
        let game = Variant::Dreierschach.game();
        let g = &game.geometry;
        let c = |n: &str| g.cell(n).unwrap();
        let white = game.pawns[0].at(c("e2"));
        assert_eq!(white.single, cell_set([c("e3"), c("f3")]));
        assert_eq!(white.doubles().len(), 2);
        assert_eq!(white.captures, cell_set([c("g3"), c("f4"), c("d3")]));
        assert!(game.pawns[0].promotion.has(c("h13")) && game.pawns[0].promotion.has(c("m6")));
        assert!(!game.pawns[0].promotion.has(c("a1")));
        // A White pawn on the short edge h1..m6 beyond h: m6 is Black's baseline, l5 is stuck? l5 -> l6, m6.
        assert_eq!(game.pawns[0].at(c("m12")).single, cell_set([c("m13")]));
        assert!(game.pawns[0].at(c("k13")).single.is_empty());
    }
}
