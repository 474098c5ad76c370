//! A lock-free table of failed threat searches, shared by the games whose searches run a
//! threat search at interior nodes.

/// Slots of [`ThreatFailures`] (8 bytes each).
const FAILURE_SLOTS: usize = 1 << 16;

/// Positions where a threat search (gomoku's VCF, connect6's threat-space search) failed,
/// and within what budget: the search's interior threat searches ask again at the same
/// nodes in every iteration (and at transpositions). For gomoku's VCF a failure within `b`
/// nodes is a failure within any budget up to `b` (within any at all when the search ran
/// out of fours); a game whose threat search is not monotone in its budget mixes the
/// budget into the key and records and asks with budget 0 (exactly this search failed).
/// Shared by the search threads without locks: a slot holds the last position written to
/// it, keyed by its upper 56 bits and tagged with the budget in the low byte (255:
/// complete). Only failures are kept, so a collision can hide a win but never announce
/// one.
pub struct ThreatFailures {
    slots: Box<[std::sync::atomic::AtomicU64]>,
}

impl ThreatFailures {
    /// An empty table.
    pub fn new() -> ThreatFailures {
        ThreatFailures {
            slots: (0..FAILURE_SLOTS)
                .map(|_| std::sync::atomic::AtomicU64::new(0))
                .collect(),
        }
    }

    /// Whether the threat search at the position `key` is known to fail within `budget`.
    #[inline]
    pub fn covers(&self, key: u64, budget: u32) -> bool {
        let e = self.slots[key as usize % FAILURE_SLOTS].load(std::sync::atomic::Ordering::Relaxed);
        let tag = e as u8;
        e & !0xFF == key & !0xFF && (tag == 255 || u32::from(tag) >= budget)
    }

    /// Records that the threat search at `key` failed within `budget` (`complete`: at
    /// any).
    #[inline]
    pub fn record(&self, key: u64, budget: u32, complete: bool) {
        let tag = if complete { 255 } else { budget.min(254) };
        self.slots[key as usize % FAILURE_SLOTS].store(
            key & !0xFF | u64::from(tag),
            std::sync::atomic::Ordering::Relaxed,
        );
    }
}

impl std::fmt::Debug for ThreatFailures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThreatFailures").finish_non_exhaustive()
    }
}

impl Default for ThreatFailures {
    fn default() -> ThreatFailures {
        ThreatFailures::new()
    }
}
