//! Moves packed into 32 bits, and the fixed-capacity list they are generated into.

use crate::bitboard::Bitboard;
use crate::types::{Cell, MAX_CELLS, PieceKind};
use arrayvec::ArrayVec;

/// What kind of move a [`Move`] is, beyond its two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveKind {
    /// A plain move or capture (including promotions).
    Normal = 0,
    /// A pawn's two-cell move; [`Move::aux_cell`] is the cell it passes over.
    DoubleStep = 1,
    /// An en-passant capture; [`Move::aux_cell`] is the captured pawn's cell.
    EnPassant = 2,
    /// Castling written as the king's move; [`Move::castle_index`] is the castling's index.
    Castle = 3,
    /// A pass (`0000`), where the game allows one.
    Pass = 4,
}

/// A move: from-cell, to-cell, promotion, kind and one auxiliary cell or index.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

const CELL_BITS: u32 = 7;
const CELL_MASK: u32 = (1 << CELL_BITS) - 1;
const TO_SHIFT: u32 = CELL_BITS;
/// Both cells of a move.
const CELLS_MASK: u32 = (1 << (2 * CELL_BITS)) - 1;
const _: () = assert!(1 << CELL_BITS == MAX_CELLS, "a cell index fills its bits");
const PROMOTION_SHIFT: u32 = 2 * CELL_BITS;
const PROMOTION_MASK: u32 = 0b111;
const KIND_SHIFT: u32 = PROMOTION_SHIFT + 3;
const KIND_MASK: u32 = 0b111;
const AUX_SHIFT: u32 = KIND_SHIFT + 3;

impl Move {
    /// No move (used as "none" in tables and for `bestmove 0000` when there is none).
    pub const NONE: Move = Move(0);

    /// A pass.
    pub const PASS: Move = Move((MoveKind::Pass as u32) << KIND_SHIFT);

    #[inline(always)]
    const fn pack(from: Cell, to: Cell, promotion: u32, kind: MoveKind, aux: u32) -> Move {
        Move(
            from.index() as u32
                | (to.index() as u32) << TO_SHIFT
                | promotion << PROMOTION_SHIFT
                | (kind as u32) << KIND_SHIFT
                | aux << AUX_SHIFT,
        )
    }

    /// A plain move or capture.
    #[inline(always)]
    pub const fn normal(from: Cell, to: Cell) -> Move {
        Move::pack(from, to, 0, MoveKind::Normal, 0)
    }

    /// A pawn move or capture that promotes to `kind`.
    #[inline(always)]
    pub const fn promotion(from: Cell, to: Cell, kind: PieceKind) -> Move {
        Move::pack(from, to, kind as u32, MoveKind::Normal, 0)
    }

    /// A pawn's two-cell move passing over `skipped`.
    #[inline(always)]
    pub const fn double_step(from: Cell, to: Cell, skipped: Cell) -> Move {
        Move::pack(from, to, 0, MoveKind::DoubleStep, skipped.index() as u32)
    }

    /// An en-passant capture onto `to`, removing the pawn on `captured`.
    #[inline(always)]
    pub const fn en_passant(from: Cell, to: Cell, captured: Cell) -> Move {
        Move::pack(from, to, 0, MoveKind::EnPassant, captured.index() as u32)
    }

    /// Castling number `index` of its game, written as the king's move.
    #[inline(always)]
    pub const fn castle(from: Cell, to: Cell, index: usize) -> Move {
        Move::pack(from, to, 0, MoveKind::Castle, index as u32)
    }

    /// The cell the piece moves from.
    #[inline(always)]
    pub const fn from(self) -> Cell {
        Cell::new((self.0 & CELL_MASK) as u8)
    }

    /// The cell the piece moves to.
    #[inline(always)]
    pub const fn to(self) -> Cell {
        Cell::new((self.0 >> TO_SHIFT & CELL_MASK) as u8)
    }

    /// The piece a pawn promotes to, if it does.
    #[inline(always)]
    pub const fn promotion_kind(self) -> Option<PieceKind> {
        match self.0 >> PROMOTION_SHIFT & PROMOTION_MASK {
            0 => None,
            k => PieceKind::from_index(k as usize),
        }
    }

    /// The two cells as one index below `MAX_CELLS²` (a table slot per
    /// pair of cells): the move's low bits, `from + MAX_CELLS × to`.
    #[inline(always)]
    pub const fn cells_index(self) -> usize {
        (self.0 & CELLS_MASK) as usize
    }

    /// Whether a pawn promotes with this move.
    #[inline(always)]
    pub const fn promotes(self) -> bool {
        self.0 >> PROMOTION_SHIFT & PROMOTION_MASK != 0
    }

    /// Whether this is a plain move or capture without promotion: one bit
    /// test instead of decoding kind and promotion.
    #[inline(always)]
    pub const fn is_plain(self) -> bool {
        self.0 >> PROMOTION_SHIFT & (PROMOTION_MASK | KIND_MASK << (KIND_SHIFT - PROMOTION_SHIFT))
            == 0
    }

    /// The move's kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> KIND_SHIFT & KIND_MASK {
            0 => MoveKind::Normal,
            1 => MoveKind::DoubleStep,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            _ => MoveKind::Pass,
        }
    }

    /// The auxiliary cell: skipped cell of a double step, captured pawn of en passant.
    #[inline(always)]
    pub const fn aux_cell(self) -> Cell {
        Cell::new((self.0 >> AUX_SHIFT & CELL_MASK) as u8)
    }

    /// The castling index of a castling move.
    #[inline(always)]
    pub const fn castle_index(self) -> usize {
        (self.0 >> AUX_SHIFT & CELL_MASK) as usize
    }

    /// Whether this is a pass.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        matches!(self.kind(), MoveKind::Pass)
    }

    /// The raw 32-bit value (for hash tables).
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// A move from its raw 32-bit value.
    #[inline(always)]
    pub const fn from_bits(bits: u32) -> Move {
        Move(bits)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_pass() {
            return write!(f, "Move(pass)");
        }
        write!(
            f,
            "Move({}->{} {:?} {:?})",
            self.from().index(),
            self.to().index(),
            self.kind(),
            self.promotion_kind()
        )
    }
}

/// Upper bound on the legal moves of any position the parser accepts.
///
/// Position validation caps every army at its starting material (promoted
/// pieces replace missing pawns), which keeps the densest conceivable
/// position of any game well below this.
pub const MAX_MOVES: usize = 1024;

/// The moves of one position.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Receives generated moves: a list, or a counter for bulk counting.
pub trait MoveSink {
    /// One move.
    fn push(&mut self, m: Move);

    /// A plain move from `from` to every cell of `targets`.
    #[inline(always)]
    fn push_targets(&mut self, from: Cell, targets: Bitboard) {
        targets
            .into_iter()
            .for_each(|to| self.push(Move::normal(from, to)));
    }

    /// Whether the moves of the mover's piece on `from` cannot matter to
    /// this sink: the generator then skips the piece before working out its
    /// targets. Asked for officers and pawns, not for the king.
    #[inline(always)]
    fn skips(&self, _from: Cell) -> bool {
        false
    }

    /// A promotion to each promotion kind from `from` to every cell of `targets`.
    #[inline(always)]
    fn push_promotions(&mut self, from: Cell, targets: Bitboard) {
        targets.into_iter().for_each(|to| {
            for kind in PieceKind::PROMOTIONS {
                self.push(Move::promotion(from, to, kind));
            }
        });
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        ArrayVec::push(self, m);
    }
}

/// Counts moves without storing them (perft's bulk counting).
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn push_targets(&mut self, _: Cell, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn push_promotions(&mut self, _: Cell, targets: Bitboard) {
        self.0 += u64::from(targets.count()) * PieceKind::PROMOTIONS.len() as u64;
    }
}

/// Looks for one move among those generated (a single-move legality test).
pub struct MoveFinder {
    wanted: Move,
    /// Whether the move was generated.
    pub found: bool,
}

impl MoveFinder {
    /// Looks for `wanted`.
    pub fn new(wanted: Move) -> MoveFinder {
        MoveFinder {
            wanted,
            found: false,
        }
    }
}

impl MoveSink for MoveFinder {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.found |= m == self.wanted;
    }

    #[inline(always)]
    fn push_targets(&mut self, from: Cell, targets: Bitboard) {
        let to = self.wanted.to();
        self.found |=
            from == self.wanted.from() && targets.has(to) && self.wanted == Move::normal(from, to);
    }
}

/// Forwards moves to another sink, noting whether there was any. It does
/// not pass on the inner sink's [`MoveSink::skips`]: every move counts.
pub struct Tally<'a, S: ?Sized> {
    /// The sink the moves go to.
    pub inner: &'a mut S,
    /// Whether a move went through.
    pub any: bool,
}

impl<'a, S: MoveSink + ?Sized> Tally<'a, S> {
    /// A tally of the moves going to `inner`.
    pub fn new(inner: &'a mut S) -> Tally<'a, S> {
        Tally { inner, any: false }
    }
}

impl<S: MoveSink + ?Sized> MoveSink for Tally<'_, S> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let (a, b, c) = (Cell::new(127), Cell::new(5), Cell::new(64));
        let m = Move::promotion(a, b, PieceKind::Knight);
        assert_eq!((m.from(), m.to()), (a, b));
        assert_eq!(m.promotion_kind(), Some(PieceKind::Knight));
        assert_eq!(m.kind(), MoveKind::Normal);
        let d = Move::double_step(b, a, c);
        assert_eq!((d.kind(), d.aux_cell()), (MoveKind::DoubleStep, c));
        let e = Move::en_passant(a, c, b);
        assert_eq!(
            (e.kind(), e.aux_cell(), e.promotion_kind()),
            (MoveKind::EnPassant, b, None)
        );
        let k = Move::castle(a, b, 5);
        assert_eq!((k.kind(), k.castle_index()), (MoveKind::Castle, 5));
        assert!(Move::PASS.is_pass());
        assert_ne!(Move::PASS, Move::NONE);
    }

    #[test]
    fn plain_and_promoting_moves_are_told_by_their_bits() {
        let (a, b, c) = (Cell::new(127), Cell::new(5), Cell::new(64));
        let mut moves = vec![
            Move::normal(a, b),
            Move::double_step(b, a, c),
            Move::en_passant(a, c, b),
            Move::castle(a, b, 5),
            Move::PASS,
        ];
        moves.extend(PieceKind::PROMOTIONS.map(|k| Move::promotion(a, b, k)));
        for m in moves {
            let plain = m.kind() == MoveKind::Normal && m.promotion_kind().is_none();
            assert_eq!(m.is_plain(), plain, "{m:?}");
            assert_eq!(m.promotes(), m.promotion_kind().is_some(), "{m:?}");
        }
    }

    #[test]
    fn each_pair_of_cells_has_its_own_index() {
        let mut seen = vec![false; MAX_CELLS * MAX_CELLS];
        for from in (0..MAX_CELLS).map(|i| Cell::new(i as u8)) {
            for to in (0..MAX_CELLS).map(|i| Cell::new(i as u8)) {
                let index = Move::promotion(from, to, PieceKind::Queen).cells_index();
                assert_eq!(index, Move::normal(from, to).cells_index());
                assert!(!seen[index], "{from:?} {to:?}");
                seen[index] = true;
            }
        }
    }
}
