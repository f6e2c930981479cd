//! Classical chess (FIDE rules): the calibration game, built from the same
//! machinery as every other board.

use crate::game::{
    BenchPosition, Castling, CastlingSide, DeadMaterial, DoubleStep, EnPassantRule, Game,
    GameBench, GameSpec, PawnTables, RuleFacts, Variant, cell_set,
};
use crate::geometry::square::{SIDE, SquareBoard};
use crate::geometry::{Geometry, SliderClass};
use crate::position::GameRules;
use crate::types::{Army, Cell};

/// The start position in the position format.
pub const START: &str =
    "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR w wKQbKQ - 0 1";

/// Kiwipete, the classic move generator test (chessprogramming.org).
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// A rook endgame with en-passant and check subtleties (perft "position 3").
pub const ROOK_ENDGAME: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
/// Promotions and castling rights (perft "position 4").
pub const PROMOTIONS: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
/// A quiet middlegame (perft "position 6").
pub const MIDDLEGAME: &str =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// What `triskel bench` runs in the game: its search nodes are the engine's
/// signature, so these never change with the engine.
pub const BENCH: GameBench = GameBench {
    perft: &[
        BenchPosition::start(5),
        BenchPosition::at("kiwipete", KIWIPETE, 4),
    ],
    search: &[
        BenchPosition::start(8),
        BenchPosition::at("kiwipete", KIWIPETE, 6),
        BenchPosition::at("middle", MIDDLEGAME, 6),
    ],
};

/// Builds the game's tables.
pub fn build() -> Game {
    let board = SquareBoard::new();
    let geometry = Geometry::build(board.shape());
    let at = |file: i32, rank: i32| board.cell(file, rank);
    let sq = |name: &str| geometry.cell(name).expect("a square of the board");
    let rank = |r: i32| cell_set((0..SIDE).filter_map(|f| at(f, r)));
    let last = SIDE - 1;

    let pawns = [(1, 0, last), (-1, last, 0)]
        .into_iter()
        .map(|(forward, home, far)| {
            let start_rank = home + forward;
            PawnTables::from_moves(
                geometry.cell_count(),
                |c| step(&board, c, 0, forward).into_iter().collect(),
                |c| {
                    let (_, r) = file_rank(&board, c);
                    if r != start_rank {
                        return Vec::new();
                    }
                    let skipped = step(&board, c, 0, forward);
                    let target = step(&board, c, 0, 2 * forward);
                    skipped
                        .zip(target)
                        .map(|(skipped, target)| DoubleStep::new(skipped, target))
                        .into_iter()
                        .collect()
                },
                |c| {
                    [-1, 1]
                        .into_iter()
                        .filter_map(|df| step(&board, c, df, forward))
                        .collect()
                },
                rank(far),
                rank(home),
            )
        })
        .collect();

    let castlings = [("e1", "a1", "h1", 0), ("e8", "a8", "h8", 1)]
        .into_iter()
        .flat_map(|(king, left_rook, right_rook, army)| {
            let army = Army::new(army);
            let king = sq(king);
            let rank_no = &geometry.name(king)[1..];
            let cell = |file: char| sq(&format!("{file}{rank_no}"));
            [
                Castling {
                    army,
                    side: CastlingSide::Right,
                    king_from: king,
                    king_to: cell('g'),
                    rook_from: sq(right_rook),
                    rook_to: cell('f'),
                    must_be_empty: cell_set([cell('f'), cell('g')]),
                    must_be_safe: cell_set([cell('f'), cell('g')]),
                },
                Castling {
                    army,
                    side: CastlingSide::Left,
                    king_from: king,
                    king_to: cell('c'),
                    rook_from: sq(left_rook),
                    rook_to: cell('d'),
                    must_be_empty: cell_set([cell('b'), cell('c'), cell('d')]),
                    must_be_safe: cell_set([cell('c'), cell('d')]),
                },
            ]
        })
        .collect();

    let rows = (0..SIDE)
        .rev()
        .map(|r| (0..SIDE).filter_map(|f| at(f, r)).collect())
        .collect();
    // a1 is dark: the light squares are those whose file and rank differ in parity.
    let light = cell_set(
        (0..SIDE)
            .flat_map(|f| (0..SIDE).map(move |r| (f, r)))
            .filter(|(f, r)| (f + r) % 2 == 1)
            .filter_map(|(f, r)| at(f, r)),
    );
    Game::new(GameSpec {
        variant: Variant::Chess,
        geometry,
        letters: "wb",
        player_names: ["White", "Black", ""],
        king_classes: &SliderClass::BOTH,
        pawns,
        castlings,
        en_passant: EnPassantRule::NextMoveOnly,
        start: START.to_string(),
        rows,
        facts: RuleFacts {
            draws_are_claimed: true,
            dead_material: DeadMaterial::Fide { light },
            classical_notation: true,
            ..RuleFacts::default()
        },
        bench: BENCH,
    })
}

fn file_rank(board: &SquareBoard, cell: Cell) -> (i32, i32) {
    let [rank, file] = board.lattice.point(cell);
    (file, rank)
}

fn step(board: &SquareBoard, cell: Cell, df: i32, dr: i32) -> Option<Cell> {
    let (f, r) = file_rank(board, cell);
    board.cell(f + df, r + dr)
}

/// Classical chess plays by the common rules.
pub struct Rules;

impl GameRules for Rules {}
