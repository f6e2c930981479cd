//! Davidstern chess for three (rules: `../shared/rules/star.md`): three 4×8
//! sections whose middle columns lead into both neighbours; en passant for
//! both opponents until the two-stepper moves again; the duty to help;
//! passing; the end on points. Frozen players (out of time) are skipped and
//! their pieces are inert obstacles.

use super::sections::{CastlingSafety, castlings, pawn_tables, rows, start_position};
use super::{ClockRule, DeadMaterial, EnPassantRule, Game, Variant};
use crate::bitboard::Bitboard;
use crate::geometry::sections::{ColumnRule, SectionBoard};
use crate::geometry::{Geometry, SliderClass};
use crate::movegen::{KnownReaches, MoveCounter, MoveSink};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{EndReason, Outcome};
use crate::types::{Army, Cell, MAX_PLAYERS, PieceKind, Player};

/// Player (and section) letters in turn order: Blue, Green, Red.
const LETTERS: &str = "bgr";

/// Row letters from the back rank to the middle.
const ROW_LETTERS: &str = "abcd";

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
    let mut game = Game::new(
        Variant::Star,
        geometry,
        LETTERS,
        ["Blue", "Green", "Red"],
        &SliderClass::BOTH,
        pawn_tables(&board),
        castlings(&board, CastlingSafety::AllBetween),
        EnPassantRule::UntilOwnerMovesAgain,
        &start_position(LETTERS),
        rows(&board),
    );
    // Bare kings end nothing: the points decide when nobody can move.
    game.dead_material = DeadMaterial::Never;
    game.clock_rule = ClockRule::ForfeitAndFreeze;
    game
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

/// The moves of a Star position: the standard legal moves filtered by the
/// duty to help, or a pass when there is none and the king is safe.
pub fn generate<S: MoveSink>(pos: &Position, known: KnownReaches, sink: &mut S) {
    if !duty_applies(pos) {
        let mut tally = Tally {
            inner: sink,
            any: false,
        };
        pos.generate_standard_knowing(known, &mut tally);
        if !tally.any && !pos.in_check() {
            sink.push(Move::PASS);
        }
        return;
    }
    let mut moves = MoveList::new();
    pos.generate_standard_knowing(known, &mut moves);
    if moves.is_empty() {
        if !pos.in_check() {
            sink.push(Move::PASS);
        }
        return;
    }
    {
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
            moves = helping;
        }
    }
    for m in moves {
        sink.push(m);
    }
}

/// Forwards moves to another sink, noting whether there was any.
struct Tally<'a, S> {
    inner: &'a mut S,
    any: bool,
}

impl<S: MoveSink> MoveSink for Tally<'_, S> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.any = true;
        self.inner.push(m);
    }

    #[inline(always)]
    fn push_targets(&mut self, from: Cell, targets: Bitboard) {
        self.any |= targets.nonempty();
        self.inner.push_targets(from, targets);
    }

    #[inline(always)]
    fn push_promotions(&mut self, from: Cell, targets: Bitboard) {
        self.any |= targets.nonempty();
        self.inner.push_promotions(from, targets);
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

/// Each player's points: its own pieces on the board plus the enemy
/// material it captured.
pub fn points(pos: &Position) -> [u32; MAX_PLAYERS] {
    let mut points = [0u32; MAX_PLAYERS];
    for (p, slot) in points.iter_mut().enumerate().take(pos.game().players) {
        let army = pos.army(Army::new(p));
        let on_board: u32 = PieceKind::ALL
            .iter()
            .map(|&k| u32::from(Game::star_points(k)) * (pos.kind(k) & army).count())
            .sum();
        *slot = on_board + u32::from(pos.state().captured[p]);
    }
    points
}

/// The end on points: the player with most points wins (equal points share
/// the win; the rule book's tie-break by time used is the interface's).
pub fn outcome_on_points(pos: &Position, reason: EndReason) -> Outcome {
    let totals = points(pos);
    let best = totals
        .iter()
        .take(pos.game().players)
        .copied()
        .max()
        .unwrap_or(0);
    let leaders = (0..pos.game().players)
        .filter(|&p| totals[p] == best)
        .count() as f64;
    let mut points = [0.0; MAX_PLAYERS];
    for p in 0..pos.game().players {
        if totals[p] == best {
            points[p] = 1.0 / leaders;
        }
    }
    Outcome { reason, points }
}

/// The end by mate: the player whose piece gives check wins; if both do,
/// the one who moves first after the mated player.
pub fn outcome_of_mate(pos: &Position) -> Outcome {
    let mated = pos.to_move();
    let checkers = checkers_of(pos, mated);
    let mut winner = None;
    let mut p = mated;
    for _ in 1..pos.game().players {
        let Some(next) = pos.next_active_after(p) else {
            break;
        };
        p = next;
        if (checkers & pos.pieces_of(p)).nonempty() {
            winner = Some(p);
            break;
        }
    }
    let mut points = [0.0; MAX_PLAYERS];
    if let Some(w) = winner {
        points[w.index()] = 1.0;
    }
    Outcome {
        reason: EndReason::Checkmate,
        points,
    }
}
