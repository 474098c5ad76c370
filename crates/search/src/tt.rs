//! The shared transposition table: lock-free, `unsafe`-free, safe to share between threads.
//!
//! Layout: a power-of-two number of 32-byte buckets; a bucket holds two entries, each entry
//! two `AtomicU64` words `(key ^ data, data)` (the "XOR trick"). A reader loads both words
//! and accepts the entry only if their XOR equals its key: an entry torn by a concurrent
//! writer fails that check and reads as a miss, so no lock is needed.
//!
//! The 64-bit `data` word packs:
//!
//! | bits  | field                                                                        |
//! |-------|------------------------------------------------------------------------------|
//! | 0–23  | score (signed 24-bit, node-relative win/loss distance, see `score.rs`)       |
//! | 24–43 | best move as 1 + its index in the node's candidate list; 0 = none            |
//! | 44–51 | remaining depth of the search that stored it                                 |
//! | 52–53 | bound: 0 = empty, 1 = upper, 2 = lower, 3 = exact                            |
//! | 54–61 | generation (search counter), so entries of old searches are replaced first   |
//!
//! Storing the move as an index into the game's own candidate list keeps the table generic
//! over any `Position::Move` type without asking games for a packing. A hash collision can
//! yield an index that is out of range (ignored) or names another move of the probing
//! position; every TT move is still checked with `Position::validate` before it is played.
//!
//! Replacement: slot 0 is depth-preferred (taken when empty, same key, stale generation or
//! the new depth is at least the stored one; an entry of the current search displaced from
//! it moves to slot 1), otherwise the entry goes to slot 1, which is always replaced.

use std::sync::atomic::{AtomicU64, Ordering};

use zerocopy::FromZeros;

use crate::options::OptionsError;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value is at most the score (the search failed low).
    Upper = 1,
    /// The value is at least the score (the search failed high).
    Lower = 2,
    /// The value is the score.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TtEntry {
    /// Node-relative score.
    pub score: i32,
    pub move_index: Option<u32>,
    pub depth: u8,
    pub bound: Bound,
}

const SCORE_BITS: u32 = 24;
const MOVE_SHIFT: u32 = 24;
const MOVE_BITS: u32 = 20;
const DEPTH_SHIFT: u32 = 44;
const BOUND_SHIFT: u32 = 52;
const GEN_SHIFT: u32 = 54;
/// The largest candidate index a TT entry can name.
const MAX_MOVE_INDEX: u32 = (1 << MOVE_BITS) - 2;
/// Bytes per bucket (two entries of two words).
const BUCKET_BYTES: u64 = 32;
const WORDS_PER_BUCKET: usize = 4;

fn pack(score: i32, move_index: Option<u32>, depth: u8, bound: Bound, generation: u8) -> u64 {
    let score = u64::from(score as u32 & ((1 << SCORE_BITS) - 1));
    let mv = match move_index {
        Some(i) if i <= MAX_MOVE_INDEX => u64::from(i + 1),
        _ => 0,
    };
    score
        | mv << MOVE_SHIFT
        | u64::from(depth) << DEPTH_SHIFT
        | (bound as u64) << BOUND_SHIFT
        | u64::from(generation) << GEN_SHIFT
}

fn bound_bits(data: u64) -> u64 {
    (data >> BOUND_SHIFT) & 3
}

fn depth_of(data: u64) -> u8 {
    (data >> DEPTH_SHIFT) as u8
}

fn generation_of(data: u64) -> u8 {
    (data >> GEN_SHIFT) as u8
}

fn move_bits(data: u64) -> u64 {
    (data >> MOVE_SHIFT) & ((1 << MOVE_BITS) - 1)
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match bound_bits(data) {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    // Sign-extend the 24-bit score.
    let score = ((data as u32) << (32 - SCORE_BITS)) as i32 >> (32 - SCORE_BITS);
    let mv = move_bits(data);
    Some(TtEntry {
        score,
        move_index: (mv != 0).then(|| mv as u32 - 1),
        depth: depth_of(data),
        bound,
    })
}

/// The smallest page size of the platforms we run on (a larger page is touched more than once).
const PAGE_BYTES: usize = 4096;

/// A fixed-size table shared by all search threads.
///
/// The table is allocated zeroed by the allocator (`calloc`), which for a large table only
/// maps zero pages; [`TranspositionTable::new`] then writes one word of every page so that
/// the operating system backs and clears the whole table while the engine is being built
/// (Gomocup `START`, UGI `uginewgame`, a match's setup), not during the first searches,
/// whose page faults would be paid on a move's clock. [`TranspositionTable::clear`] zeroes
/// the table in place only if a search has written it since it was allocated or last
/// cleared, at new-game time (`RESTART`, `uginewgame`), not on a move's clock.
#[derive(Debug)]
pub(crate) struct TranspositionTable {
    words: Box<[AtomicU64]>,
    mask: usize,
    generation: u8,
    /// A search may have written entries since the table was zeroed.
    dirty: bool,
}

impl TranspositionTable {
    /// A table of at most `mb` MiB (the largest power-of-two bucket count that fits).
    pub fn new(mb: usize) -> Result<TranspositionTable, OptionsError> {
        let bytes = (mb as u64).saturating_mul(1 << 20);
        let buckets = (bytes / BUCKET_BYTES).max(1);
        let buckets = 1u64 << (63 - buckets.leading_zeros());
        let words = usize::try_from(buckets)
            .ok()
            .and_then(|b| b.checked_mul(WORDS_PER_BUCKET))
            .ok_or(OptionsError::HashAllocation { mb })?;
        let v = <[AtomicU64]>::new_box_zeroed_with_elems(words)
            .map_err(|_| OptionsError::HashAllocation { mb })?;
        // Touch every page now (see the type's docs). An atomic store, because a plain
        // store of zero into memory the allocator returned zeroed may be optimised away.
        for word in v.iter().step_by(PAGE_BYTES / 8) {
            word.store(0, Ordering::Relaxed);
        }
        Ok(TranspositionTable {
            words: v,
            mask: words / WORDS_PER_BUCKET - 1,
            generation: 0,
            dirty: false,
        })
    }

    /// Empties the table (nothing to do if no search has written it since it was zeroed).
    pub fn clear(&mut self) {
        if self.dirty {
            for w in self.words.iter_mut() {
                *w.get_mut() = 0;
            }
            self.dirty = false;
        }
        self.generation = 0;
    }

    /// Starts a new search: entries of earlier searches become preferred victims.
    pub fn new_search(&mut self) {
        self.dirty = true;
        self.generation = self.generation.wrapping_add(1);
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // The high bits pick the bucket; the full key is verified on probe.
        ((key >> 32 ^ key) as usize & self.mask) * WORDS_PER_BUCKET
    }

    #[inline]
    fn load(&self, i: usize) -> (u64, u64) {
        let k = self.words[i].load(Ordering::Relaxed);
        let d = self.words[i + 1].load(Ordering::Relaxed);
        (k ^ d, d)
    }

    #[inline]
    fn write(&self, i: usize, key: u64, data: u64) {
        self.words[i].store(key ^ data, Ordering::Relaxed);
        self.words[i + 1].store(data, Ordering::Relaxed);
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for slot in [b, b + 2] {
            let (k, d) = self.load(slot);
            if k == key && bound_bits(d) != 0 {
                return unpack(d);
            }
        }
        None
    }

    /// Stores a search result (score already node-relative). Only during a search, after
    /// [`TranspositionTable::new_search`] (which marks the table as written). A result without a move keeps
    /// the move of an entry for the same position.
    #[inline]
    pub fn store(&self, key: u64, depth: u8, bound: Bound, score: i32, move_index: Option<u32>) {
        let b = self.bucket(key);
        let (k0, d0) = self.load(b);
        let slot = if bound_bits(d0) == 0
            || k0 == key
            || generation_of(d0) != self.generation
            || depth >= depth_of(d0)
        {
            b
        } else {
            b + 2
        };
        let mut data = pack(score, move_index, depth, bound, self.generation);
        let (k, d) = if slot == b { (k0, d0) } else { self.load(slot) };
        let same = k == key && bound_bits(d) != 0;
        if same && move_index.is_none() {
            data |= move_bits(d) << MOVE_SHIFT;
        }
        if slot == b && !same && bound_bits(d0) != 0 && generation_of(d0) == self.generation {
            // The displaced entry of this search survives in the always-replace slot.
            self.write(b + 2, k0, d0);
        }
        self.write(slot, key, data);
    }

    /// Per mille of a sample of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = (self.words.len() / 2).min(1000);
        let used = (0..sample)
            .filter(|&e| {
                let d = self.words[e * 2 + 1].load(Ordering::Relaxed);
                bound_bits(d) != 0 && generation_of(d) == self.generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        for score in [0, 1, -1, 999_999, -1_000_000, 1_000_000, 12345] {
            for mv in [None, Some(0), Some(7), Some(MAX_MOVE_INDEX)] {
                for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
                    let e = unpack(pack(score, mv, 200, bound, 255)).unwrap();
                    assert_eq!(
                        e,
                        TtEntry {
                            score,
                            move_index: mv,
                            depth: 200,
                            bound
                        }
                    );
                }
            }
        }
        // Too large an index is dropped, not wrapped.
        let e = unpack(pack(5, Some(MAX_MOVE_INDEX + 1), 1, Bound::Exact, 0)).unwrap();
        assert_eq!(e.move_index, None);
    }

    #[test]
    fn sizes_are_powers_of_two_within_budget() {
        for mb in [1, 3, 16] {
            let tt = TranspositionTable::new(mb).unwrap();
            assert!(tt.bytes() <= mb << 20);
            assert!(tt.bytes() > mb << 19);
            assert!((tt.mask + 1).is_power_of_two());
        }
    }

    #[test]
    fn store_probe_and_replacement() {
        let mut tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.probe(42), None);
        // An empty table never matches key 0.
        assert_eq!(tt.probe(0), None);
        // Entries are stored during searches, each announced by `new_search`.
        tt.new_search();
        tt.store(42, 5, Bound::Exact, 17, Some(3));
        assert_eq!(
            tt.probe(42),
            Some(TtEntry {
                score: 17,
                move_index: Some(3),
                depth: 5,
                bound: Bound::Exact
            })
        );
        // Same key without a move keeps the old move.
        tt.store(42, 6, Bound::Lower, 20, None);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.depth, e.bound, e.move_index), (6, Bound::Lower, Some(3)));

        // A colliding key (same bucket) with a shallower depth goes to the second slot and
        // leaves the deep entry alone; a third key then replaces the second slot only.
        let buckets = (tt.mask + 1) as u64;
        let other = 42 + buckets;
        let third = 42 + 2 * buckets;
        assert_eq!(tt.bucket(42), tt.bucket(other));
        tt.store(other, 2, Bound::Upper, -3, Some(1));
        assert_eq!(tt.probe(42).unwrap().depth, 6);
        assert_eq!(tt.probe(other).unwrap().score, -3);
        tt.store(third, 1, Bound::Upper, 9, None);
        assert_eq!(tt.probe(42).unwrap().depth, 6);
        assert_eq!(tt.probe(other), None);
        assert_eq!(tt.probe(third).unwrap().score, 9);
        // A deeper entry takes the depth-preferred slot; the entry it displaces moves to
        // the always-replace slot.
        tt.store(other, 9, Bound::Exact, 1, None);
        assert_eq!(tt.probe(other).unwrap().depth, 9);
        assert_eq!(tt.probe(42).unwrap().depth, 6);
        assert_eq!(tt.probe(third), None);

        // Entries of older searches are replaced first, and hashfull counts only this one.
        assert!(tt.hashfull() > 0 || tt.words.len() / 2 > 1000);
        tt.new_search();
        tt.store(42, 1, Bound::Exact, 0, None);
        assert_eq!(tt.probe(42).unwrap().depth, 1);
        tt.clear();
        assert_eq!(tt.probe(42), None);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn hashfull_counts_sampled_entries() {
        let tt = TranspositionTable::new(1).unwrap();
        for k in 0..2 * (tt.mask as u64 + 1) {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
                1,
                Bound::Exact,
                0,
                None,
            );
        }
        assert!(tt.hashfull() >= 600, "{}", tt.hashfull());
    }
}
