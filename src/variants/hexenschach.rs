//! Hexenschach for three (rules: `../shared/rules/hexenschach.md`): 61
//! hexagons; while all three Ravens (kings) live there is no check and a
//! Rabe can be captured; the first capture of a Rabe (or a player left with
//! only its Rabe, or without a move) ends phase A, and the last two play on
//! under two-player rules. Toads keep their army's direction for good.

use crate::bitboard::Bitboard;
use crate::game::outcome::EndReason;
use crate::game::{
    BenchPosition, Castling, CastlingSide, DeadMaterial, EnPassantRule, Game, GameBench, GameSpec,
    OptionalField, PawnTables, RuleFacts, Scoring, TextLayout, Variant, cell_set,
};
use crate::geometry::hex::{Diagonals, HexBoard};
use crate::geometry::{Geometry, SliderClass};
use crate::moves::{Move, MoveSink};
use crate::position::{GameRules, Position, Removed};
use crate::types::{Army, Cell, Piece, PieceKind, Player, PlayerSet};

/// The start position in the position format.
pub const START: &str = "wKwBwRwP1/wNwQwBwP1bP/wRwNwPwP1bPbR/wPwPwP2bPbNbN/6bPbQbK/rPrPrP2bPbBbB/rRrBrPrP1bPbR/rBrQrNrP1bP/rKrNrRrP1 r rKQwKQbKQ - 0 1";

/// Highest file and rank index (files a..i, ranks 1..9).
const LAST: i32 = 8;
/// The board's bounds on `q - r`.
const DIFF_RANGE: (i32, i32) = (-4, 4);

/// A step `(dq, dr)` on the hex board.
type Step = (i32, i32);

/// How one army's toads move: forward, the two captures, the promotion cells.
struct Toads {
    forward: Step,
    captures: [Step; 2],
    promotion: &'static str,
}

/// Each army's toads.
const TOADS: [Toads; 3] = [
    Toads {
        forward: (1, 1),
        captures: [(0, 1), (1, 0)],
        promotion: "e9 f9 g9 h9 i9 i5 i6 i7 i8",
    },
    Toads {
        forward: (0, -1),
        captures: [(1, 0), (-1, -1)],
        promotion: "a1 b1 c1 d1 e1 f2 g3 h4 i5",
    },
    Toads {
        forward: (-1, 0),
        captures: [(-1, -1), (0, 1)],
        promotion: "a1 a2 a3 a4 a5 b6 c7 d8 e9",
    },
];

/// A castling of the rule book, by the names of its cells: Rabe and Turm
/// swap places over the one cell between them.
struct CastlingCells {
    /// The castling army.
    army: usize,
    /// Which Turm.
    side: CastlingSide,
    /// The Rabe's cell (the Turm's after).
    rabe: &'static str,
    /// The Turm's cell (the Rabe's after).
    turm: &'static str,
    /// The cell between them, which must be empty and unattacked.
    between: &'static str,
}

/// Every army's two castlings.
const CASTLINGS: [CastlingCells; 6] = [
    CastlingCells {
        army: 0,
        side: CastlingSide::Right,
        rabe: "a1",
        turm: "c1",
        between: "b1",
    },
    CastlingCells {
        army: 0,
        side: CastlingSide::Left,
        rabe: "a1",
        turm: "a3",
        between: "a2",
    },
    CastlingCells {
        army: 1,
        side: CastlingSide::Right,
        rabe: "e9",
        turm: "c7",
        between: "d8",
    },
    CastlingCells {
        army: 1,
        side: CastlingSide::Left,
        rabe: "e9",
        turm: "g9",
        between: "f9",
    },
    CastlingCells {
        army: 2,
        side: CastlingSide::Right,
        rabe: "i5",
        turm: "i7",
        between: "i6",
    },
    CastlingCells {
        army: 2,
        side: CastlingSide::Left,
        rabe: "i5",
        turm: "g3",
        between: "h4",
    },
];

/// Rounds without a capture after which the game is drawn.
const DRAW_ROUNDS: u32 = 40;

/// Players in the game during phase A.
const PHASE_A_PLAYERS: usize = 3;

/// Phase A with a Rabe in reach (perft suite).
const MIDDLE: &str = "wKwBwRwP1/3wP1bP/wRwN1bN1bPbR/1wPwPwPwQbP2/1wPrP3bP1bK/rPrPrRwB1rN1bB/2rPbPrPbPbN/rB4rQ/rKrNrRrP1 b rKwKQbK - 0 1";

/// What `triskel bench` runs in the game: its search nodes are the engine's
/// signature, so these never change with the engine.
pub const BENCH: GameBench = GameBench {
    perft: &[BenchPosition::start(5)],
    search: &[
        BenchPosition::start(3),
        BenchPosition::at("middle", MIDDLE, 3),
    ],
};

/// Builds the game's tables.
pub fn build() -> Game {
    let board = HexBoard::new(LAST, DIFF_RANGE.0, DIFF_RANGE.1);
    let geometry = Geometry::build(board.shape(Diagonals::Free));
    let cell = |name: &str| geometry.cell(name).expect("a Hexenschach cell");
    let pawns = TOADS
        .iter()
        .map(
            |&Toads {
                 forward,
                 captures,
                 promotion,
             }| {
                PawnTables::from_moves(
                    geometry.cell_count(),
                    |c| board.step(c, forward).into_iter().collect(),
                    |_| Vec::new(),
                    |c| captures.iter().filter_map(|&d| board.step(c, d)).collect(),
                    cell_set(promotion.split_whitespace().map(cell)),
                    Bitboard::EMPTY,
                )
            },
        )
        .collect();
    let castlings = CASTLINGS
        .iter()
        .map(|c| Castling {
            army: Army::new(c.army),
            side: c.side,
            king_from: cell(c.rabe),
            king_to: cell(c.turm),
            rook_from: cell(c.turm),
            rook_to: cell(c.rabe),
            must_be_empty: Bitboard::from_cell(cell(c.between)),
            must_be_safe: Bitboard::from_cell(cell(c.between)),
        })
        .collect();
    let rows = (0..=LAST)
        .rev()
        .map(|r| (0..=LAST).filter_map(|q| board.cell(q, r)).collect())
        .collect();
    Game::new(GameSpec {
        variant: Variant::Hexenschach,
        geometry,
        letters: "rwb",
        player_names: ["Red", "White", "Black"],
        king_classes: &[SliderClass::Straight],
        pawns,
        castlings,
        en_passant: EnPassantRule::None,
        start: START.to_string(),
        rows,
        facts: RuleFacts {
            draw_rounds: DRAW_ROUNDS,
            pawn_move_resets_clock: false,
            dead_material: DeadMaterial::Never,
            scoring: Scoring {
                last_player_end: EndReason::RabeCaptured,
                ..Scoring::default()
            },
            optional_fields: &[OptionalField::Out, OptionalField::Armies],
            text_layout: TextLayout::Hexagon,
            ..RuleFacts::default()
        },
        bench: BENCH,
    })
}

/// Whether the position is in phase A (all three players in, no check).
pub fn in_phase_a(pos: &Position) -> bool {
    pos.state().in_game.count() == PHASE_A_PLAYERS
}

/// Hexenschach's rules where they differ from the common ones: no check
/// in phase A, eliminations, the Rabe captures of phase B.
pub struct Rules;

impl GameRules for Rules {
    /// A Rabe may stand attacked, and be captured, in phase A.
    fn king_safety(&self, pos: &Position) -> bool {
        !in_phase_a(pos)
    }

    /// A captured Rabe hands its army to the captor (in phase B it ends
    /// the game); in phase A a player left with only its Rabe is out and
    /// the Rabe leaves the board.
    fn after_move(
        &self,
        pos: &mut Position,
        mover: Player,
        captured: Option<(Cell, Piece)>,
        removed: &mut Removed,
    ) {
        let Some((_, victim)) = captured else { return };
        let phase_a = in_phase_a(pos);
        if victim.kind() == PieceKind::King {
            let owner = victim.army().owner();
            pos.eliminate(owner, Some(mover), removed);
            return;
        }
        if phase_a {
            for p in pos.state().in_game.without(mover).iter() {
                let pieces = pos.pieces_of(p);
                if pieces.nonempty() && pieces == pieces & pos.kind(PieceKind::King) {
                    pos.eliminate(p, None, removed);
                }
            }
        }
    }

    /// In phase A a player without a move is out, its Rabe leaves the board
    /// and its other pieces pass to the next player.
    fn at_turn_start(&self, pos: &mut Position, removed: &mut Removed) {
        if !in_phase_a(pos) || has_a_move(pos) {
            return;
        }
        let stuck = pos.to_move();
        let heir = pos.next_active_after(stuck).unwrap_or(stuck);
        pos.eliminate(stuck, Some(heir), removed);
        pos.set_to_move(heir);
    }

    fn only_standard_moves(&self) -> bool {
        false
    }

    /// In phase B, capturing the other Rabe is legal whatever it leaves
    /// behind.
    fn add_moves(&self, pos: &Position, _any_standard: bool, sink: &mut dyn MoveSink) {
        if !in_phase_a(pos) {
            rabe_captures(pos, sink);
        }
    }

    /// Phase B may start with a Rabe attacked by the player to move (the
    /// rule book's winning capture).
    fn last_mover_may_be_attacked(&self, _pos: &Position) -> bool {
        true
    }

    /// In phase A nobody has only its Rabe.
    fn validate(&self, pos: &Position) -> Result<(), String> {
        if in_phase_a(pos) {
            for p in pos.state().in_game.iter() {
                let pieces = pos.pieces_of(p);
                if pieces == pieces & pos.kind(PieceKind::King) {
                    return Err(format!(
                        "player {} has only its Rabe in phase A; such a player is already out",
                        pos.game().letters[p.index()]
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Whether the player to move has a move in phase A, where every move the
/// pieces allow is legal (castling needs an empty cell next to the Rabe,
/// which the Rabe could step to anyway): stops at the first piece that moves.
fn has_a_move(pos: &Position) -> bool {
    let game = pos.game();
    let mover = pos.to_move();
    let own = pos.pieces_of(mover);
    let occupied = pos.occupied();
    own.into_iter().any(|from| {
        let piece = pos.piece_at(from).expect("own pieces stand on their cells");
        let targets = if piece.kind() == PieceKind::Pawn {
            let toad = game.pawns[piece.army().index()].at(from);
            (toad.single & !occupied) | (toad.captures & occupied)
        } else {
            pos.reach(piece.kind(), from, occupied)
        };
        (targets & !own).nonempty()
    })
}

/// Phase B: when the player to move attacks the other's Rabe, capturing it
/// is a legal move (and wins) whatever it leaves behind.
pub fn rabe_captures<S: MoveSink + ?Sized>(pos: &Position, sink: &mut S) {
    let mover = pos.to_move();
    for other in pos.state().in_game.without(mover).iter() {
        let Some(rabe) = pos.king_of(other) else {
            continue;
        };
        let by = pos.attackers(PlayerSet::EMPTY.with(mover));
        for from in pos.attackers_of(rabe, pos.occupied(), &by) {
            let piece = pos.piece_at(from).expect("an attacker stands on its cell");
            let promotes = piece.kind() == PieceKind::Pawn
                && pos.game().pawns[piece.army().index()].promotion.has(rabe);
            if promotes {
                sink.push_promotions(from, Bitboard::from_cell(rabe));
            } else {
                sink.push(Move::normal(from, rabe));
            }
        }
    }
}
