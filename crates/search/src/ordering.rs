//! Move-ordering memory kept per thread: killer moves, countermoves, the history
//! heuristic, and how well the game's own candidate order finds cutoff moves.
//!
//! # The game's order against the learned heuristics
//!
//! A game's [`crate::Evaluator::candidates`] may come sorted best first (threat order in
//! k-in-a-row games), or in plain generation order. The search ranks moves as: the TT
//! move; positive hints; the game's first candidate, *if the game's order has earned it*;
//! the killers and the countermove; the rest by history, the game's order breaking ties;
//! negative hints last. The game's order earns the first place from where the quiet moves
//! that caused cutoffs stood in it: while their mean rank is below [`TRUSTED_RANK`] of the
//! list (sorted lists put them near the front, generation order spreads them evenly), and
//! until enough cutoffs are seen ([`RANK_MIN_CUTS`]), the game's first candidate goes
//! before the killers. So a game that supplies an order gets it respected, and a game that
//! does not loses nothing to it after a few cutoffs.
//!
//! Measured and not adopted (see `docs/strength.md`): reading history only once a node gets
//! past its leading moves (faster per node, but 38-49 over 87 amazons games against the
//! build without it), keeping the game's first N > 1
//! candidates ahead of the killers, keeping the game's order between the countermove and
//! the history-sorted tail, and choosing the leader by comparing the cut rates of the
//! game's top candidate and of the killers/countermove per try.
//!
//! Moves are opaque (`Position::Move` is only `Copy + Eq + Hash`), so history is a table
//! indexed by a deterministic hash of the move and the side to move; collisions only
//! blur the ordering, never the result.

use std::hash::{Hash, Hasher};

use board_core::Player;

/// History entries per player.
const HISTORY_SIZE: usize = 1 << 14;
/// Countermove entries per player.
const COUNTER_SIZE: usize = 1 << 12;
/// Cutoffs after which the rank statistic halves (recent ones weigh more).
const RANK_WINDOW: u64 = 1 << 12;
/// Cutoffs seen before the rank statistic decides (until then the game's order leads).
pub(crate) const RANK_MIN_CUTS: u64 = 16;
/// The game's first candidate leads while quiet cutoff moves stand, on average, within
/// this share of the candidate list (per mille). Measured on the minimax-comparison
/// bench: threat-sorted gomoku candidates stay well under it, fourshift's generation
/// order well over it (see `docs/strength.md`).
pub(crate) const TRUSTED_RANK: u64 = 150;
/// History values stay within `±HISTORY_MAX`.
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// A small deterministic hasher (no random state: searches must replay exactly).
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(23) ^ i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // splitmix64 finaliser
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A deterministic 64-bit hash of a move.
#[inline]
pub(crate) fn move_hash<M: Hash>(mv: &M) -> u64 {
    let mut h = MoveHasher(0);
    mv.hash(&mut h);
    h.finish()
}

/// Per-thread ordering memory, kept by the searcher between moves of a game.
#[derive(Clone, Debug)]
pub(crate) struct OrderingTables<M> {
    history: Vec<i32>,
    killers: Vec<[Option<M>; 2]>,
    /// The quiet move that last refuted a given previous move, per side to move.
    counters: Vec<Option<M>>,
    /// Where the quiet moves that caused cutoffs stood in the game's own candidate order:
    /// the sum of their relative ranks (in 1/1024ths of the list) and their number.
    rank_sum: u64,
    rank_cuts: u64,
}

impl<M: Copy + Eq + Hash> OrderingTables<M> {
    pub fn new(max_ply: usize) -> Self {
        OrderingTables {
            history: vec![0; 2 * HISTORY_SIZE],
            killers: vec![[None; 2]; max_ply + 1],
            counters: vec![None; 2 * COUNTER_SIZE],
            rank_sum: 0,
            rank_cuts: 0,
        }
    }

    /// A quiet move at `idx` of a candidate list of `len` moves caused a cutoff (lists of
    /// one move say nothing about the order).
    #[inline]
    pub fn record_cutoff_rank(&mut self, idx: u32, len: usize) {
        if len < 2 {
            return;
        }
        self.rank_sum += u64::from(idx) * 1024 / len as u64;
        self.rank_cuts += 1;
        if self.rank_cuts >= RANK_WINDOW {
            self.rank_sum /= 2;
            self.rank_cuts /= 2;
        }
    }

    /// Whether the game's first candidate is searched before the killers: see the
    /// [module docs](self).
    #[inline]
    pub fn game_order_leads(&self) -> bool {
        self.rank_cuts < RANK_MIN_CUTS
            || self.rank_sum * 1000 < self.rank_cuts * 1024 * TRUSTED_RANK
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.history.fill(0);
        self.killers.fill([None; 2]);
        self.counters.fill(None);
        self.rank_sum = 0;
        self.rank_cuts = 0;
    }

    /// Before a search: killers belong to the previous root's plies, history is aged.
    pub fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for h in &mut self.history {
            *h /= 2;
        }
    }

    #[inline]
    fn slot(side: Player, mv: &M) -> usize {
        side.index() * HISTORY_SIZE + (move_hash(mv) >> 50) as usize
    }

    #[inline]
    pub fn history(&self, side: Player, mv: &M) -> i32 {
        self.history[Self::slot(side, mv)]
    }

    /// Moves the history of `mv` towards `±HISTORY_MAX` by `bonus` (positive: it caused a
    /// cutoff; negative: it was tried before the move that did), with gravity so values
    /// stay bounded and recent results weigh more.
    #[inline]
    pub fn update_history(&mut self, side: Player, mv: &M, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = &mut self.history[Self::slot(side, mv)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    #[inline]
    fn counter_slot(side: Player, prev: &M) -> usize {
        side.index() * COUNTER_SIZE + (move_hash(prev) >> 52) as usize
    }

    /// The move that last refuted `prev` when `side` was to move.
    #[inline]
    pub fn countermove(&self, side: Player, prev: &M) -> Option<M> {
        self.counters[Self::counter_slot(side, prev)]
    }

    #[inline]
    pub fn set_countermove(&mut self, side: Player, prev: &M, mv: M) {
        self.counters[Self::counter_slot(side, prev)] = Some(mv);
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: M) {
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != Some(mv)
        {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_order_leads_until_cutoffs_show_it_does_not() {
        let mut t = OrderingTables::<u16>::new(8);
        assert!(
            t.game_order_leads(),
            "no evidence yet: the game's order leads"
        );
        // Cutoffs spread over the list (generation order): mean rank near a half.
        for i in 0..RANK_MIN_CUTS as u32 {
            t.record_cutoff_rank(i % 20, 20);
        }
        assert!(!t.game_order_leads());
        // Single-move lists do not count.
        for _ in 0..1000 {
            t.record_cutoff_rank(0, 1);
        }
        assert!(!t.game_order_leads());
        // Cutoffs at the front of the list from now on: the statistic halves as it goes,
        // so the game's order takes the lead again.
        for _ in 0..3 * RANK_WINDOW {
            t.record_cutoff_rank(0, 20);
        }
        assert!(t.game_order_leads());
        // Just over the threshold: 16% of the list on average.
        let mut t = OrderingTables::<u16>::new(8);
        for _ in 0..100 {
            t.record_cutoff_rank(16, 100);
        }
        assert!(!t.game_order_leads());
        let mut u = OrderingTables::<u16>::new(8);
        for _ in 0..100 {
            u.record_cutoff_rank(14, 100);
        }
        assert!(u.game_order_leads());
        u.clear();
        assert!(u.game_order_leads());
    }

    #[test]
    fn hash_is_deterministic_and_spreads() {
        assert_eq!(move_hash(&(3u8, 4u8)), move_hash(&(3u8, 4u8)));
        assert_ne!(move_hash(&(3u8, 4u8)), move_hash(&(4u8, 3u8)));
        let slots: std::collections::HashSet<usize> = (0u16..1000)
            .map(|m| OrderingTables::<u16>::slot(Player::First, &m))
            .collect();
        assert!(slots.len() > 950, "{}", slots.len());
    }

    #[test]
    fn history_stays_bounded_and_killers_shift() {
        let mut t = OrderingTables::<u16>::new(8);
        for _ in 0..1000 {
            t.update_history(Player::First, &7, 10_000);
        }
        let h = t.history(Player::First, &7);
        assert!(h > 0 && h <= HISTORY_MAX, "{h}");
        assert_eq!(t.history(Player::Second, &7), 0);
        t.update_history(Player::First, &7, -HISTORY_MAX);
        assert!(t.history(Player::First, &7).abs() <= HISTORY_MAX);
        t.new_search();

        t.add_killer(2, 5);
        t.add_killer(2, 5);
        assert_eq!(t.killers(2), [Some(5), None]);
        t.add_killer(2, 6);
        assert_eq!(t.killers(2), [Some(6), Some(5)]);
        t.add_killer(100, 1); // beyond the table: ignored
        assert_eq!(t.killers(100), [None, None]);
        t.set_countermove(Player::Second, &9, 4);
        assert_eq!(t.countermove(Player::Second, &9), Some(4));
        assert_eq!(t.countermove(Player::First, &9), None);
        t.new_search();
        assert_eq!(t.countermove(Player::Second, &9), Some(4));
        t.clear();
        assert_eq!(t.killers(2), [None, None]);
        assert_eq!(t.countermove(Player::Second, &9), None);
    }
}
