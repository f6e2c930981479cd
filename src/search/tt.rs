//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is three 64-bit words written independently: the data, the
//! scores, and a check word that is the key XOR both. A reader accepts an
//! entry only when the check matches, so a torn write by another thread is
//! seen as a miss, never as wrong data ("lockless hashing").

use crate::moves::Move;
use std::alloc::{self, Layout};
use std::ptr::NonNull;
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
    buckets: ZeroedBuckets,
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

/// Alignment the allocator's zeroed path takes without clearing the memory
/// itself: up to this, `alloc_zeroed` is `calloc`, which leaves a large block
/// to the kernel's pages that read as zero until first written. A stricter
/// alignment would make the allocator write every byte at once, seconds
/// for a table of gigabytes.
const CALLOC_ALIGN: usize = 16;

/// Buckets in zeroed memory that costs nothing until used: allocating or
/// replacing a table of any size is instant, and its pages are cleared by
/// the kernel as the search first touches them. The block is taken with
/// [`CALLOC_ALIGN`] and the buckets start at its first cache-line boundary.
struct ZeroedBuckets {
    /// The block as allocated.
    block: NonNull<u8>,
    layout: Layout,
    /// The first bucket, 64-byte aligned, inside `block`.
    first: NonNull<Bucket>,
    count: usize,
}

// SAFETY: `ZeroedBuckets` owns its block as a `Box<[Bucket]>` would, and
// `Bucket` (atomics only) may be shared and sent between threads.
unsafe impl Send for ZeroedBuckets {}
// SAFETY: as for `Send`: shared access goes through atomics.
unsafe impl Sync for ZeroedBuckets {}

impl ZeroedBuckets {
    /// `count` empty buckets (at least one), or `None` when the memory
    /// cannot be had.
    fn new(count: usize) -> Option<ZeroedBuckets> {
        let count = count.max(1);
        let alignment_slack = std::mem::align_of::<Bucket>() - CALLOC_ALIGN;
        let size = count
            .checked_mul(std::mem::size_of::<Bucket>())?
            .checked_add(alignment_slack)?;
        let layout = Layout::from_size_align(size, CALLOC_ALIGN).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let block = NonNull::new(unsafe { alloc::alloc_zeroed(layout) })?;
        let skip = block.as_ptr().align_offset(std::mem::align_of::<Bucket>());
        debug_assert!(skip <= alignment_slack);
        // SAFETY: `block` is `CALLOC_ALIGN`-aligned, so the next bucket
        // boundary is at most `alignment_slack` bytes in, and `count`
        // buckets fit after it inside the block.
        let first = unsafe { block.add(skip) }.cast::<Bucket>();
        Some(ZeroedBuckets {
            block,
            layout,
            first,
            count,
        })
    }
}

impl std::ops::Deref for ZeroedBuckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `first` is aligned and followed by `count` buckets inside
        // the block, which lives as long as `self`; all-zero bytes are valid
        // atomics, and the atomics are only ever shared, never borrowed
        // mutably.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.count) }
    }
}

impl Drop for ZeroedBuckets {
    fn drop(&mut self) {
        // SAFETY: `block` was allocated with `layout` and is freed once.
        unsafe { alloc::dealloc(self.block.as_ptr(), self.layout) }
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

    /// Like [`TranspositionTable::new`], or an error when the memory cannot
    /// be had. Instant at any size: the memory is cleared as it is first used.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, String> {
        let bytes = megabytes.max(1).saturating_mul(1024 * 1024);
        let fitting = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // The largest power of two that fits.
        let count = 1 << fitting.ilog2();
        let buckets = ZeroedBuckets::new(count)
            .ok_or_else(|| format!("cannot allocate a transposition table of {megabytes} MB"))?;
        Ok(TranspositionTable {
            buckets,
            mask: count * BUCKET_ENTRIES - 1,
            generation: AtomicU8::new(0),
        })
    }

    /// An empty table of the same size, or `None` when the memory cannot be
    /// had beside this one. Instant, unlike [`TranspositionTable::clear`].
    pub fn emptied(&self) -> Option<TranspositionTable> {
        Some(TranspositionTable {
            buckets: ZeroedBuckets::new(self.buckets.len())?,
            mask: self.mask,
            generation: AtomicU8::new(0),
        })
    }

    /// Forgets everything, writing every entry.
    pub fn clear(&self) {
        for w in self.buckets.iter().flat_map(|b| &b.words) {
            w.store(0, Ordering::Relaxed);
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
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
    fn buckets_lie_on_cache_lines_and_an_emptied_table_keeps_the_size() {
        for megabytes in [1, 3, 16] {
            let tt = TranspositionTable::new(megabytes);
            assert_eq!(tt.buckets.as_ptr().align_offset(64), 0);
            assert!(tt.bytes() <= megabytes << 20 && tt.bytes() > megabytes << 19);
            tt.store(
                7,
                TtEntry {
                    best: Move::NONE,
                    depth: 1,
                    bound: Bound::Exact,
                    scores: [1, 2, 3],
                    eval: 4,
                },
            );
            let last = tt.buckets.last().expect("a bucket");
            assert!(last.words.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            let empty = tt.emptied().expect("room for a second table");
            assert_eq!(empty.bytes(), tt.bytes());
            assert!(tt.probe(7).is_some() && empty.probe(7).is_none());
        }
    }

    #[test]
    fn a_table_larger_than_any_memory_is_refused() {
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
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
