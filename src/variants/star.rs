//! Davidstern chess for three (rules: `../shared/rules/star.md`): three 4×8
//! sections whose middle columns lead into both neighbours; en passant for
//! both opponents until the two-stepper moves again; the duty to help;
//! passing; the end on points. Frozen players (out of time) are skipped and
//! their pieces are inert obstacles.

use super::sections::{CastlingSafety, castlings, pawn_tables, rows, start_position};
use crate::bitboard::Bitboard;
use crate::game::outcome::{EndReason, Outcome};
use crate::game::{
    BenchPosition, ClockRule, DeadMaterial, EnPassantRule, Game, GameBench, GameSpec,
    OptionalField, RowLabel, RuleFacts, Scoring, TextLayout, Variant,
};
use crate::geometry::sections::{ColumnRule, SectionBoard};
use crate::geometry::{Geometry, SliderClass};
use crate::moves::{Move, MoveCounter, MoveList, MoveSink};
use crate::position::{GameRules, Position};
use crate::types::{Cell, PieceKind, Player};

/// Player (and section) letters in turn order: Blue, Green, Red.
const LETTERS: &str = "bgr";

/// Row letters from the back rank to the middle.
const ROW_LETTERS: &str = "abcd";

/// The points of each piece kind (pawn 1, knight 3, bishop 3, rook 4,
/// queen 6, king 0), in the order of [`PieceKind::ALL`].
const PIECE_POINTS: [u16; PieceKind::COUNT] = {
    let mut points = [0; PieceKind::COUNT];
    points[PieceKind::Pawn.index()] = 1;
    points[PieceKind::Knight.index()] = 3;
    points[PieceKind::Bishop.index()] = 3;
    points[PieceKind::Rook.index()] = 4;
    points[PieceKind::Queen.index()] = 6;
    points
};

/// Pieces on the middle cells (perft suite).
const MIDDLE: &str =
    "3bRbB3/8/bPbPbP2bPbPbP/4bK3/3bN4/1gQ2gN3/5gPgPgP/gR3gK3/8/2rB2rN2/rPrP2rP1rPrP/4rK3 b - - 0 1";

/// What `triskel bench` runs in the game: its search nodes are the engine's
/// signature, so these never change with the engine.
pub const BENCH: GameBench = GameBench {
    perft: &[BenchPosition::start(5)],
    search: &[
        BenchPosition::start(5),
        BenchPosition::at("middle", MIDDLE, 5),
    ],
};

/// Builds the game's tables.
pub fn build() -> Game {
    let board = SectionBoard::new(ColumnRule::Star);
    let names = (0..SectionBoard::CELLS)
        .map(|i| {
            let (s, x, y) = board.coords(Cell::new(i as u8));
            let section = LETTERS.as_bytes()[s] as char;
            let row = ROW_LETTERS.as_bytes()[(y - 1) as usize] as char;
            format!("{section}{row}{x}")
        })
        .collect();
    let geometry = Geometry::build(board.shape(names));
    Game::new(GameSpec {
        variant: Variant::Star,
        geometry,
        letters: LETTERS,
        player_names: ["Blue", "Green", "Red"],
        king_classes: &SliderClass::BOTH,
        pawns: pawn_tables(&board),
        castlings: castlings(&board, CastlingSafety::AllBetween),
        en_passant: EnPassantRule::UntilOwnerMovesAgain,
        start: start_position(LETTERS),
        rows: rows(&board),
        facts: RuleFacts {
            // Bare kings end nothing: the points decide when nobody can move.
            dead_material: DeadMaterial::Never,
            clock_rule: ClockRule::ForfeitAndFreeze,
            scoring: Scoring {
                piece_points: Some(PIECE_POINTS),
                ..Scoring::default()
            },
            optional_fields: &[
                OptionalField::Frozen,
                OptionalField::Passes,
                OptionalField::Captured,
            ],
            text_layout: TextLayout::Sections(RowLabel::Prefix),
            ..RuleFacts::default()
        },
        bench: BENCH,
    })
}

/// Star's rules where they differ from the common ones: passing, the duty
/// to help, and the end when everyone passed.
pub struct Rules;

impl GameRules for Rules {
    /// Everyone that still moves passed in a row: the points decide.
    fn finished_by_rule(&self, pos: &Position) -> bool {
        everyone_passed(pos)
    }

    fn outcome_by_rule(&self, pos: &Position) -> Option<Outcome> {
        everyone_passed(pos).then(|| pos.outcome_on_points(EndReason::Points))
    }

    fn only_standard_moves(&self) -> bool {
        false
    }

    /// The duty to help: when the next player is in check from a piece not
    /// of the player to move, only the moves that do not leave it mated
    /// are legal (all moves if none does).
    fn restricts_moves(&self, pos: &Position) -> bool {
        duty_applies(pos)
    }

    fn restrict_moves(&self, pos: &Position, moves: &mut MoveList) {
        keep_helping_moves(pos, moves);
    }

    /// A player without a standard move passes, unless it is in check.
    fn add_moves(&self, pos: &Position, any_standard: bool, sink: &mut dyn MoveSink) {
        if !any_standard && !pos.in_check() {
            sink.push(Move::PASS);
        }
    }
}

/// Whether every player that still moves has passed in a row: the game ends
/// on points.
pub fn everyone_passed(pos: &Position) -> bool {
    usize::from(pos.state().passes) >= pos.state().active().count()
}

/// The pieces checking `player`'s king (attackers among the players that
/// still move).
fn checkers_of(pos: &Position, player: Player) -> Bitboard {
    let Some(king) = pos.king_of(player) else {
        return Bitboard::EMPTY;
    };
    let by = pos.attackers(pos.state().active().without(player));
    pos.attackers_of(king, pos.occupied(), &by)
}

/// Whether the player to move is mated: in check without a legal move.
fn is_mated(pos: &Position) -> bool {
    let mut counter = MoveCounter::default();
    pos.generate_standard(&mut counter);
    counter.0 == 0 && pos.in_check()
}

/// Keeps, of the standard moves in `moves`, those that obey the duty to
/// help: the moves after which the next player is not mated; all of them if
/// none does.
fn keep_helping_moves(pos: &Position, moves: &mut MoveList) {
    let mut scratch = pos.scratch_copy();
    let helping: MoveList = moves
        .iter()
        .copied()
        .filter(|&m| {
            let undo = scratch.make(m);
            let mated = is_mated(&scratch);
            scratch.unmake(m, &undo);
            !mated
        })
        .collect();
    if !helping.is_empty() {
        *moves = helping;
    }
}

/// Whether the duty to help binds the player to move (so moves cannot be
/// counted without playing them).
pub fn duty_applies(pos: &Position) -> bool {
    let mover = pos.to_move();
    pos.next_active_after(mover).is_some_and(|next| {
        let checkers = checkers_of(pos, next);
        checkers.nonempty() && (checkers & pos.pieces_of(mover)).is_empty()
    })
}
