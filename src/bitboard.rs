//! A set of cells as a 128-bit mask: every board of the rule book has at most
//! 128 cells, so one `u128` holds any set of them.

use crate::types::{Cell, MAX_CELLS};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// `SINGLE[i]`: the set of cell `i` alone. Tables beat computing these: a
/// variable shift of a `u128` takes several instructions and a branch.
const SINGLE: [u128; MAX_CELLS] = {
    let mut table = [0u128; MAX_CELLS];
    let mut i = 0;
    while i < MAX_CELLS {
        table[i] = 1u128 << i;
        i += 1;
    }
    table
};

/// `UP_TO[i]`: the cells with index `0..=i`.
const UP_TO: [u128; MAX_CELLS] = {
    let mut table = [0u128; MAX_CELLS];
    let mut i = 0;
    while i < MAX_CELLS {
        table[i] = (2u128 << i).wrapping_sub(1);
        i += 1;
    }
    table
};

/// A set of cells; bit `i` stands for the cell with index `i`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `cell`.
    #[inline(always)]
    pub const fn from_cell(cell: Cell) -> Bitboard {
        Bitboard(SINGLE[cell.slot()])
    }

    /// The set of the first `count` cells (indices `0..count`).
    pub const fn first_cells(count: usize) -> Bitboard {
        if count >= 128 {
            Bitboard(u128::MAX)
        } else {
            Bitboard((1u128 << count) - 1)
        }
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one cell.
    #[inline(always)]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    /// Whether `cell` is in the set.
    #[inline(always)]
    pub const fn has(self, cell: Cell) -> bool {
        // The word holding the cell, then one bit test: cheaper than a
        // 128-bit mask from the table.
        let i = cell.slot();
        let word = if i < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        (word >> (i % 64)) & 1 != 0
    }

    /// The number of cells in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds more than one cell.
    #[inline(always)]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The cell with the lowest index; the set must not be empty.
    #[inline(always)]
    pub const fn first(self) -> Cell {
        Cell::new(self.0.trailing_zeros() as u8)
    }

    /// The cell with the highest index; the set must not be empty.
    #[inline(always)]
    pub const fn last(self) -> Cell {
        Cell::new(127 - self.0.leading_zeros() as u8)
    }

    /// Removes and returns the cell with the lowest index.
    #[inline(always)]
    pub fn pop_first(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        // On the whole 128 bits: which 64-bit word holds the cell is as
        // good as random, and a branch on it would often be guessed wrong.
        let first = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Cell::new(first as u8))
    }

    /// The set with `cell` added.
    #[inline(always)]
    pub const fn with(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 | Bitboard::from_cell(cell).0)
    }

    /// The set with `cell` removed.
    #[inline(always)]
    pub const fn without(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 & !Bitboard::from_cell(cell).0)
    }

    /// The cells of this set up to and including `cell` in index order.
    #[inline(always)]
    pub const fn up_to(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 & UP_TO[cell.slot()])
    }

    /// The cells of this set from `cell` (inclusive) upwards in index order.
    #[inline(always)]
    pub const fn from(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 & !(UP_TO[cell.slot()] ^ SINGLE[cell.slot()]))
    }

    /// Which cells of `mask` this set holds, packed: bit `k` of the result
    /// stands for the `k`-th cell of `mask` in index order. `mask` has
    /// fewer than 64 cells.
    #[inline(always)]
    pub fn gather(self, mask: Bitboard) -> u64 {
        let (low, high) = halves(self.0);
        let (mask_low, mask_high) = halves(mask.0);
        extract_bits(low, mask_low) | extract_bits(high, mask_high) << mask_low.count_ones()
    }

    /// The inverse of [`Bitboard::gather`]: the cells of `mask` whose place
    /// (`k`-th in index order) has its bit set in `packed`. `mask` has
    /// fewer than 64 cells.
    #[inline(always)]
    pub fn scatter(packed: u64, mask: Bitboard) -> Bitboard {
        let (mask_low, mask_high) = halves(mask.0);
        let low = deposit_bits(packed, mask_low);
        let high = deposit_bits(packed >> mask_low.count_ones(), mask_high);
        Bitboard(u128::from(low) | u128::from(high) << 64)
    }
}

/// The low and the high 64 bits.
#[inline(always)]
const fn halves(bits: u128) -> (u64, u64) {
    (bits as u64, (bits >> 64) as u64)
}

/// The bits of `value` under `mask`, packed to the low end (BMI2's `pext`).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn extract_bits(value: u64, mask: u64) -> u64 {
    // SAFETY: this form is compiled only for a target with BMI2 (see `cfg`).
    unsafe { std::arch::x86_64::_pext_u64(value, mask) }
}

/// The low bits of `value` spread to the set bits of `mask` (BMI2's `pdep`).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn deposit_bits(value: u64, mask: u64) -> u64 {
    // SAFETY: this form is compiled only for a target with BMI2 (see `cfg`).
    unsafe { std::arch::x86_64::_pdep_u64(value, mask) }
}

/// The bits of `value` under `mask`, packed to the low end: the portable
/// form of `pext`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn extract_bits(value: u64, mask: u64) -> u64 {
    extract_bits_portable(value, mask)
}

/// The low bits of `value` spread to the set bits of `mask`: the portable
/// form of `pdep`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn deposit_bits(value: u64, mask: u64) -> u64 {
    deposit_bits_portable(value, mask)
}

/// `pext` without BMI2: one bit of `mask` after another. Compiled for
/// targets without BMI2, and for the tests everywhere, where it is checked
/// against the instruction.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "bmi2"))))]
fn extract_bits_portable(value: u64, mut mask: u64) -> u64 {
    let mut packed = 0;
    let mut place = 1;
    while mask != 0 {
        if value & mask & mask.wrapping_neg() != 0 {
            packed |= place;
        }
        mask &= mask - 1;
        place <<= 1;
    }
    packed
}

/// `pdep` without BMI2 (see [`extract_bits_portable`]).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "bmi2"))))]
fn deposit_bits_portable(mut value: u64, mut mask: u64) -> u64 {
    let mut spread = 0;
    while mask != 0 {
        if value & 1 != 0 {
            spread |= mask & mask.wrapping_neg();
        }
        mask &= mask - 1;
        value >>= 1;
    }
    spread
}

/// The cells of a [`Bitboard`] in index order, as `for cell in set` and
/// the iterator adapters see them.
#[derive(Clone, Debug)]
pub struct Cells(Bitboard);

impl IntoIterator for Bitboard {
    type Item = Cell;
    type IntoIter = Cells;

    #[inline(always)]
    fn into_iter(self) -> Cells {
        Cells(self)
    }
}

impl Iterator for Cells {
    type Item = Cell;

    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        self.0.pop_first()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }

    /// The cells in index order, the low word's and then the high word's:
    /// two loops over 64 bits each are cheaper than one over 128 bits, and
    /// which word the next cell is in is no longer asked per cell.
    #[inline(always)]
    fn fold<B, F: FnMut(B, Cell) -> B>(self, init: B, mut f: F) -> B {
        let (mut low, mut high) = halves(self.0.0);
        let mut acc = init;
        while low != 0 {
            acc = f(acc, Cell::new(low.trailing_zeros() as u8));
            low &= low - 1;
        }
        while high != 0 {
            acc = f(acc, Cell::new(64 + high.trailing_zeros() as u8));
            high &= high - 1;
        }
        acc
    }
}

impl ExactSizeIterator for Cells {}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.into_iter().map(|c| c.index()))
            .finish()
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::zobrist::splitmix64;

    /// Random values and masks (dense, sparse, empty, full) to compare
    /// the bit packing forms on.
    fn samples() -> Vec<(u64, u64)> {
        let mut state = 0x5EED;
        let mut out = vec![(0, 0), (u64::MAX, u64::MAX), (u64::MAX, 0), (0, u64::MAX)];
        for _ in 0..10_000 {
            let value = splitmix64(&mut state);
            let mask = splitmix64(&mut state) & splitmix64(&mut state);
            out.push((value, mask));
            out.push((value, !mask));
        }
        out
    }

    #[test]
    fn the_portable_bit_packing_is_the_instructions() {
        for (value, mask) in samples() {
            let packed = extract_bits_portable(value, mask);
            assert_eq!(
                packed,
                extract_bits(value, mask),
                "pext {value:#x} {mask:#x}"
            );
            let spread = deposit_bits_portable(value, mask);
            assert_eq!(
                spread,
                deposit_bits(value, mask),
                "pdep {value:#x} {mask:#x}"
            );
            assert_eq!(spread & !mask, 0);
            assert_eq!(extract_bits_portable(spread, mask), packed_low(value, mask));
        }
    }

    /// The low bits of `value`, as many as `mask` has: what `pext` of
    /// `pdep` gives back.
    fn packed_low(value: u64, mask: u64) -> u64 {
        match mask.count_ones() {
            64 => value,
            n => value & ((1u64 << n) - 1),
        }
    }

    #[test]
    fn gather_packs_the_masked_cells_and_scatter_undoes_it() {
        let mask = set(&[3, 40, 63, 64, 90, 127]);
        let cells = set(&[0, 3, 63, 64, 100, 127]);
        assert_eq!(cells.gather(mask), 0b101101);
        assert_eq!(Bitboard::scatter(0b101101, mask), cells & mask);
        assert_eq!(Bitboard::scatter(u64::MAX, mask), mask);
        assert_eq!(Bitboard::EMPTY.gather(mask), 0);
    }

    fn set(cells: &[u8]) -> Bitboard {
        cells.iter().map(|&c| Cell::new(c)).collect()
    }

    #[test]
    fn iterates_in_index_order() {
        let b = set(&[127, 3, 64, 0]);
        let cells: Vec<usize> = b.into_iter().map(|c| c.index()).collect();
        assert_eq!(cells, vec![0, 3, 64, 127]);
        assert_eq!(b.count(), 4);
        assert_eq!(b.first().index(), 0);
        assert_eq!(b.last().index(), 127);
    }

    #[test]
    fn the_two_word_fold_visits_the_cells_as_next_does() {
        let mut bits = 0x9e37_79b9_7f4a_7c15_u128 ^ 0x6a09_e667_f3bc_c908 << 64;
        for _ in 0..200 {
            bits = bits.rotate_left(29) ^ bits.wrapping_mul(0x2545_f491_4f6c_dd1d);
            for b in [
                Bitboard(bits),
                Bitboard(bits & u128::from(u64::MAX)),
                Bitboard(bits >> 64 << 64),
            ] {
                // `for` steps with `next`.
                let mut stepped = Vec::new();
                for c in b {
                    stepped.push(c);
                }
                let mut folded = Vec::new();
                b.into_iter().for_each(|c| folded.push(c));
                assert_eq!(folded, stepped, "{b:?}");
            }
        }
        let mut none = 0;
        Bitboard::EMPTY.into_iter().for_each(|_| none += 1);
        assert_eq!(none, 0);
    }

    #[test]
    fn the_cells_iterator_knows_how_many_are_left() {
        let b = set(&[0, 63, 64, 127]);
        let mut cells = b.into_iter();
        assert_eq!(cells.len(), 4);
        assert_eq!(cells.next(), Some(Cell::new(0)));
        assert_eq!(cells.len(), 3);
        assert_eq!(cells.last(), Some(Cell::new(127)));
        assert_eq!(b.into_iter().count(), b.count() as usize);
        assert_eq!(b.into_iter().collect::<Bitboard>(), b);
    }

    #[test]
    fn ranges_include_the_bound() {
        let b = set(&[1, 5, 9, 127]);
        assert_eq!(b.up_to(Cell::new(5)), set(&[1, 5]));
        assert_eq!(b.up_to(Cell::new(127)), b);
        assert_eq!(b.from(Cell::new(5)), set(&[5, 9, 127]));
        assert_eq!(b.from(Cell::new(0)), b);
    }

    #[test]
    fn several_and_membership() {
        assert!(!set(&[7]).has_several());
        assert!(set(&[7, 8]).has_several());
        assert!(set(&[7]).has(Cell::new(7)));
        assert!(!set(&[7]).without(Cell::new(7)).nonempty());
        assert_eq!(Bitboard::first_cells(128).count(), 128);
        assert_eq!(Bitboard::first_cells(3), set(&[0, 1, 2]));
    }
}
