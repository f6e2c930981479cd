//! Dreierschach 2.3 (rules: `../shared/rules/dreierschach.md`): three players
//! on 126 hexagons, classical chess kept as close as possible. The passing
//! rule lives in the board's tables (every diagonal step carries the two
//! cells it passes between); this file adds armies, pawns, castlings and the
//! end of the game.

use crate::bitboard::Bitboard;
use crate::game::{
    BenchPosition, Castling, CastlingSide, DoubleStep, EnPassantRule, Game, GameBench, GameSpec,
    MatePoints, PawnTables, RuleFacts, Scoring, TextLayout, Variant, cell_set,
};
use crate::geometry::hex::{Diagonals, HexBoard};
use crate::geometry::{Geometry, SliderClass};
use crate::position::GameRules;
use crate::types::{Army, Cell, MAX_PLAYERS};

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

/// Points of a mate: the winner 3, the third player 1, the mated 0.
const MATE_POINTS: MatePoints = MatePoints {
    winner: 3.0,
    loser: 0.0,
    others: 1.0,
};
/// Points of a draw: 1 each.
const DRAW_POINTS: f64 = 1.0;

/// Dreierschach's rules are the common ones (its passing rule is in the
/// board's tables, its points in its description).
pub struct Rules;

impl GameRules for Rules {}

/// Every army developed and both castlings open (perft suite).
const MIDDLE: &str = "nRnP2bPbR/nBnP3bP1/nNnP4bP1/nKnP3bNbB2/1nPnQ4bPbPbK/1nPnB4bQ1bP1/1nP6bN1bP1/nRnP1nN6bBbPbR/nP10bP/11/1wN1wBwP5/wPwPwPwP1wPwPwPwP/wR2wKwQwBwNwR b wKQnKQbKQ - 0 1";

/// What `triskel bench` runs in the game: its search nodes are the engine's
/// signature, so these never change with the engine.
pub const BENCH: GameBench = GameBench {
    perft: &[BenchPosition::start(4)],
    search: &[
        BenchPosition::start(4),
        BenchPosition::at("middle", MIDDLE, 3),
    ],
};

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
    let mut scoring = Scoring::default();
    scoring.mate[MAX_PLAYERS] = MATE_POINTS;
    scoring.draw_share = [DRAW_POINTS; MAX_PLAYERS + 1];
    Game::new(GameSpec {
        variant: Variant::Dreierschach,
        geometry,
        letters: "wnb",
        player_names: ["White", "Brown", "Black"],
        king_classes: &SliderClass::BOTH,
        pawns,
        castlings,
        en_passant: EnPassantRule::UntilOwnerMovesAgain,
        start: START.to_string(),
        rows,
        facts: RuleFacts {
            scoring,
            text_layout: TextLayout::Hexagon,
            ..RuleFacts::default()
        },
        bench: BENCH,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

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
