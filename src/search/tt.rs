//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is three 64-bit words written independently: the data, the
//! scores, and a check word that is the key XOR both. A reader accepts an
//! entry only when the check matches, so a torn write by another thread is
//! seen as a miss, never as wrong data ("lockless hashing").

use crate::moves::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact = 0,
    /// At least this (a beta cut-off).
    Lower = 1,
    /// At most this (no move raised alpha).
    Upper = 2,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// The best (or refuting) move found.
    pub best: Move,
    /// Remaining depth it was searched to.
    pub depth: i32,
    /// How to read `scores`.
    pub bound: Bound,
    /// Scores: `[value, 0, 0]` for the scalar searches, one per player for max-n.
    pub scores: [i32; 3],
    /// The static evaluation (scalar searches) of the position.
    pub eval: i32,
}

/// The table.
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    /// Entry index mask (entries = buckets × [`BUCKET_ENTRIES`]).
    mask: usize,
    generation: AtomicU8,
}

/// Words per entry.
const WORDS: usize = 3;
/// Entries per bucket: the places one key may be stored in.
const BUCKET_ENTRIES: usize = 2;
/// Words of a bucket, padded to a cache line.
const BUCKET_WORDS: usize = 8;
/// Bytes of memory per entry (a bucket's cache line shared by its entries).
pub const ENTRY_BYTES: usize = BUCKET_WORDS * 8 / BUCKET_ENTRIES;

/// The entries one key may live in, on one cache line of its own, so that
/// a probe touches one line of memory.
#[repr(C, align(64))]
struct Bucket {
    words: [AtomicU64; BUCKET_WORDS],
}

impl Bucket {
    fn empty() -> Bucket {
        Bucket {
            words: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}
/// Offset that makes depths (which can be slightly negative) fit a byte.
const DEPTH_OFFSET: i32 = 16;
/// Generations wrap within 6 bits.
const GENERATION_MASK: u8 = 0x3f;

fn pack_scores(scores: [i32; 3], eval: i32) -> u64 {
    let w = |v: i32| (v.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    w(scores[0]) | w(scores[1]) << 16 | w(scores[2]) << 32 | w(eval) << 48
}

fn unpack_scores(word: u64) -> ([i32; 3], i32) {
    let r = |shift: u32| (word >> shift) as u16 as i16 as i32;
    ([r(0), r(16), r(32)], r(48))
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (rounded down to a power-of-two
    /// number of entries).
    pub fn new(megabytes: usize) -> TranspositionTable {
        Self::try_new(megabytes).unwrap_or_else(|_| Self::try_new(1).expect("a 1 MB table"))
    }

    /// Like [`TranspositionTable::new`], or an error when the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, String> {
        let bytes = megabytes.max(1).saturating_mul(1024 * 1024);
        let fitting = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // The largest power of two that fits.
        let count = 1 << fitting.ilog2();
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate a transposition table of {megabytes} MB"))?;
        buckets.resize_with(count, Bucket::empty);
        Ok(TranspositionTable {
            buckets: buckets.into_boxed_slice(),
            mask: count * BUCKET_ENTRIES - 1,
            generation: AtomicU8::new(0),
        })
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for w in self.buckets.iter().flat_map(|b| &b.words) {
            w.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & GENERATION_MASK
    }

    /// The two slots (a bucket) where `key` may live.
    fn slots(&self, key: u64) -> [usize; BUCKET_ENTRIES] {
        let first = key as usize & self.mask & !1;
        [first, first | 1]
    }

    /// The three words of entry `slot`.
    fn entry_words(&self, slot: usize) -> &[AtomicU64] {
        let start = (slot % BUCKET_ENTRIES) * WORDS;
        &self.buckets[slot / BUCKET_ENTRIES].words[start..start + WORDS]
    }

    fn read(&self, slot: usize) -> (u64, u64, u64) {
        let words = self.entry_words(slot);
        (
            words[0].load(Ordering::Relaxed),
            words[1].load(Ordering::Relaxed),
            words[2].load(Ordering::Relaxed),
        )
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in self.slots(key) {
            let (check, data, scores) = self.read(slot);
            if data != 0 && check ^ data ^ scores == key {
                let (scores, eval) = unpack_scores(scores);
                let bound = match data >> 40 & 3 {
                    0 => Bound::Exact,
                    1 => Bound::Lower,
                    _ => Bound::Upper,
                };
                return Some(TtEntry {
                    best: Move::from_bits(data as u32),
                    depth: (data >> 32 & 0xff) as i32 - DEPTH_OFFSET,
                    bound,
                    scores,
                    eval,
                });
            }
        }
        None
    }

    /// Stores `entry` for `key`, replacing the same key or the less valuable
    /// of the bucket's two entries (older, then shallower).
    pub fn store(&self, key: u64, entry: TtEntry) {
        let generation = self.generation();
        let slots = self.slots(key);
        let value = |slot: usize| {
            let (check, data, scores) = self.read(slot);
            if data == 0 {
                return i32::MIN;
            }
            if check ^ data ^ scores == key {
                return i32::MIN + 1;
            }
            let age = (generation.wrapping_sub((data >> 42) as u8) & GENERATION_MASK) as i32;
            (data >> 32 & 0xff) as i32 - 8 * age
        };
        let slot = if value(slots[0]) <= value(slots[1]) {
            slots[0]
        } else {
            slots[1]
        };
        let (check, old, old_scores) = self.read(slot);
        let mut best = entry.best;
        if best == Move::NONE && check ^ old ^ old_scores == key {
            best = Move::from_bits(old as u32);
        }
        let depth = (entry.depth + DEPTH_OFFSET).clamp(0, 255) as u64;
        let data = u64::from(best.bits())
            | depth << 32
            | (entry.bound as u64) << 40
            | u64::from(generation) << 42
            | 1 << 48;
        let scores = pack_scores(entry.scores, entry.eval);
        let words = self.entry_words(slot);
        words[0].store(key ^ data ^ scores, Ordering::Relaxed);
        words[1].store(data, Ordering::Relaxed);
        words[2].store(scores, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = 1000.min(self.mask + 1);
        (0..sample)
            .filter(|&slot| {
                let data = self.entry_words(slot)[1].load(Ordering::Relaxed);
                data != 0 && (data >> 42) as u8 & GENERATION_MASK == generation
            })
            .count() as u32
            * 1000
            / sample as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Cell;

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1);
        let m = Move::normal(Cell::new(12), Cell::new(28));
        let entry = TtEntry {
            best: m,
            depth: 7,
            bound: Bound::Lower,
            scores: [123, -45, 6],
            eval: -300,
        };
        tt.store(0xDEAD_BEEF_1234_5678, entry);
        let found = tt.probe(0xDEAD_BEEF_1234_5678).expect("stored");
        assert_eq!((found.best, found.depth, found.bound), (m, 7, Bound::Lower));
        assert_eq!((found.scores, found.eval), ([123, -45, 6], -300));
        assert!(tt.probe(0x1111).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234_5678).is_none());
    }

    #[test]
    fn negative_depths_survive() {
        let tt = TranspositionTable::new(1);
        let entry = TtEntry {
            best: Move::NONE,
            depth: -3,
            bound: Bound::Upper,
            scores: [0; 3],
            eval: 0,
        };
        tt.store(42, entry);
        assert_eq!(tt.probe(42).map(|e| e.depth), Some(-3));
    }
}
