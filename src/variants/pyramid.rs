//! Schachpyramide (rules: `../shared/rules/pyramid.md`): classical chess on
//! the bottom level of a pyramid of four levels, with pieces that climb.
//! `pyramid` has no en passant, `pyramid-ep` has it after every two-cell
//! first move of a pawn.

use crate::game::{
    BenchPosition, Castling, CastlingSide, DoubleStep, EnPassantRule, Game, GameBench, GameSpec,
    PawnTables, RuleFacts, TextLayout, Variant, cell_set,
};
use crate::geometry::pyramid::{PyramidBoard, SIDE};
use crate::geometry::{Geometry, SliderClass};
use crate::position::GameRules;
use crate::types::{Army, Cell};

/// The start position in the position format.
pub const START: &str = "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR/6/6/6/6/6/6/4/4/4/4/2/2 w wKQbKQ - 0 1";

/// Level 1, where the game starts and pawns promote.
const GROUND: i32 = 0;

/// Pieces on every level of the pyramid (perft suite).
const MIDDLE: &str = "bR1bB3bK1/bPbP3bPbPbP/8/8/8/8/wPwPwP2wPwPwP/wR5wK1/6/1bQ1bP2/3wB2/4bN1/2wP3/6/1bB1wN/4/2bR1/wR3/2/wQ1 w - - 0 1";

/// What `triskel bench` runs in the game: its search nodes are the engine's
/// signature, so these never change with the engine.
pub const BENCH: GameBench = GameBench {
    perft: &[BenchPosition::start(4)],
    search: &[
        BenchPosition::start(6),
        BenchPosition::at("middle", MIDDLE, 5),
    ],
};

/// Builds the game's tables: `pyramid` without en passant, `pyramid-ep`
/// with the rule `en_passant`.
pub fn build(en_passant: EnPassantRule) -> Game {
    let board = PyramidBoard::new();
    let geometry = Geometry::build(board.shape());
    let last = SIDE - 1;
    let ground_rank = |rank: i32| cell_set((0..SIDE).filter_map(|f| board.cell(GROUND, f, rank)));

    let pawns = [(1, 0, last), (-1, last, 0)]
        .into_iter()
        .map(|(d, home, far)| {
            let start_rank = home + d;
            let step = |c: Cell, dr: i32, dl: i32| board.step(c, (0, dr, dl));
            PawnTables::from_moves(
                geometry.cell_count(),
                |c| {
                    [-1, 0, 1]
                        .into_iter()
                        .filter_map(|dl| step(c, d, dl))
                        .collect()
                },
                |c| {
                    let (level, _, rank) = board.coords(c);
                    if level != GROUND || rank != start_rank {
                        return Vec::new();
                    }
                    // Two steps straight, two staircase steps up, and a
                    // staircase step up followed by a step forward.
                    [((d, 0), (d, 0)), ((d, 1), (d, 1)), ((d, 1), (d, 0))]
                        .into_iter()
                        .filter_map(|((r1, l1), (r2, l2))| {
                            let skipped = step(c, r1, l1)?;
                            Some(DoubleStep::new(skipped, step(skipped, r2, l2)?))
                        })
                        .collect()
                },
                |c| {
                    [-1, 1]
                        .into_iter()
                        .flat_map(|df| [-1, 0, 1].map(|dl| (df, dl)))
                        .filter_map(|(df, dl)| board.step(c, (df, d, dl)))
                        .collect()
                },
                ground_rank(far),
                ground_rank(home),
            )
        })
        .collect();

    let castlings = [(0, 0), (1, last)]
        .into_iter()
        .flat_map(|(army, rank)| {
            let at = |file: i32| board.cell(GROUND, file, rank).expect("a level-1 cell");
            let army = Army::new(army);
            let (a, b, c, d, e, f, g, h) = (at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7));
            [
                Castling {
                    army,
                    side: CastlingSide::Right,
                    king_from: e,
                    king_to: g,
                    rook_from: h,
                    rook_to: f,
                    must_be_empty: cell_set([f, g]),
                    must_be_safe: cell_set([f, g]),
                },
                Castling {
                    army,
                    side: CastlingSide::Left,
                    king_from: e,
                    king_to: c,
                    rook_from: a,
                    rook_to: d,
                    must_be_empty: cell_set([b, c, d]),
                    must_be_safe: cell_set([c, d]),
                },
            ]
        })
        .collect();

    let rows = (0..4)
        .flat_map(|level| (level..SIDE - level).rev().map(move |rank| (level, rank)))
        .map(|(level, rank)| {
            (level..SIDE - level)
                .filter_map(|file| board.cell(level, file, rank))
                .collect()
        })
        .collect();
    let (variant, bench) = match en_passant {
        EnPassantRule::None => (Variant::Pyramid, BENCH),
        // One bench for the board: pyramid-ep adds only en passant.
        _ => (Variant::PyramidEp, GameBench::default()),
    };
    Game::new(GameSpec {
        variant,
        geometry,
        letters: "wb",
        player_names: ["White", "Black", ""],
        king_classes: &SliderClass::BOTH,
        pawns,
        castlings,
        en_passant,
        start: START.to_string(),
        rows,
        facts: RuleFacts {
            text_layout: TextLayout::Levels,
            ..RuleFacts::default()
        },
        bench,
    })
}

/// The pyramid plays by the common rules (its three dimensions are in the board's tables).
pub struct Rules;

impl GameRules for Rules {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn pawn_first_moves_have_their_middle_cells() {
        let game = Variant::PyramidEp.game();
        let g = &game.geometry;
        let c = |n: &str| g.cell(n).unwrap();
        let e2 = game.pawns[0].at(c("1e2"));
        assert_eq!(e2.single, cell_set([c("1e3"), c("2e3")]));
        let doubles: Vec<(Cell, Cell)> =
            e2.doubles().iter().map(|d| (d.skipped, d.target)).collect();
        assert_eq!(
            doubles,
            vec![
                (c("1e3"), c("1e4")),
                (c("2e3"), c("3e4")),
                (c("2e3"), c("2e4"))
            ]
        );
        assert_eq!(
            game.pawns[0].at(c("1a2")).doubles().len(),
            1,
            "the a-pawn cannot climb"
        );
        assert_eq!(game.pawns[0].at(c("2e5")).captures.count(), 6);
        assert_eq!(Position::start(Variant::Pyramid).legal_moves().len(), 55);
    }
}
