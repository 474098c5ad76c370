//! [`SearchOptions`] (how to search, kept across moves) and [`Limits`] (when to stop).

use std::{
    sync::{Arc, atomic::AtomicBool},
    time::{Duration, Instant},
};

use thiserror::Error;

use crate::{
    score::Score,
    time::{Clock, TimeBudget, TimeControl},
};

/// The deepest iteration the search runs (nominal depth, in turns).
pub const MAX_DEPTH: u32 = 128;

/// Why an option value was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionsError {
    /// [`SearchOptions::with_hash_mb`] was given a size outside
    /// [`SearchOptions::MIN_HASH_MB`]`..=`[`SearchOptions::MAX_HASH_MB`].
    #[error("hash size {value} MB is out of range: expected 1-65536")]
    HashMb {
        /// The refused size, in MiB.
        value: usize,
    },
    /// [`SearchOptions::with_threads`] was given a count outside
    /// [`SearchOptions::MIN_THREADS`]`..=`[`SearchOptions::MAX_THREADS`].
    #[error("thread count {value} is out of range: expected 1-256")]
    Threads {
        /// The refused thread count.
        value: usize,
    },
    /// [`SearchOptions::with_aspiration_window`] was given a half-width outside
    /// `1..=`[`Score::MAX_EVAL`].
    #[error("aspiration window {value} is out of range: expected 1-{max}", max = Score::MAX_EVAL)]
    AspirationWindow {
        /// The refused half-width, in evaluation units.
        value: i32,
    },
    /// The size was in range but the memory for the table could not be had (the
    /// allocation failed, or the bucket count overflows `usize` on this target). Returned
    /// by [`crate::Searcher::new`] and [`crate::Searcher::set_options`], which leave any
    /// existing table as it was.
    #[error("could not allocate a {mb} MB transposition table")]
    HashAllocation {
        /// The requested size, in MiB.
        mb: usize,
    },
}

/// How the search runs: table size, threads, seed, default limits and the switchable
/// techniques. `Default` is the recommended engine setting; every `with_*` method that can
/// be given a bad value range-checks it.
///
/// ```
/// use boardlab_search::{Limits, SearchOptions};
/// let opts = SearchOptions::default()
///     .with_hash_mb(64)?
///     .with_threads(2)?
///     .with_seed(7)
///     .with_limits(Limits::new().with_depth(8));
/// assert_eq!((opts.hash_mb(), opts.threads(), opts.seed()), (64, 2, 7));
/// assert!(SearchOptions::default().with_hash_mb(0).is_err());
/// assert!(SearchOptions::default().with_threads(1000).is_err());
/// # Ok::<(), boardlab_search::OptionsError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SearchOptions {
    hash_mb: usize,
    threads: usize,
    seed: u64,
    limits: Limits,
    aspiration: bool,
    aspiration_window: i32,
    quiescence: bool,
    pvs: bool,
    transposition_table: bool,
    iterative_deepening: bool,
    killers: bool,
    countermoves: bool,
    history: bool,
    late_move_reductions: bool,
    root_tie_break: bool,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            hash_mb: SearchOptions::DEFAULT_HASH_MB,
            threads: 1,
            seed: 0,
            limits: Limits::default(),
            aspiration: true,
            aspiration_window: 50,
            quiescence: true,
            pvs: true,
            transposition_table: true,
            iterative_deepening: true,
            killers: true,
            countermoves: true,
            history: true,
            late_move_reductions: false,
            root_tie_break: true,
        }
    }
}

impl SearchOptions {
    /// The transposition-table size of [`SearchOptions::default`], in MiB.
    pub const DEFAULT_HASH_MB: usize = 16;
    /// The smallest table [`SearchOptions::with_hash_mb`] accepts, in MiB.
    pub const MIN_HASH_MB: usize = 1;
    /// The largest table [`SearchOptions::with_hash_mb`] accepts, in MiB (64 GiB).
    pub const MAX_HASH_MB: usize = 65_536;
    /// The fewest search threads [`SearchOptions::with_threads`] accepts (the main thread
    /// alone, no helpers).
    pub const MIN_THREADS: usize = 1;
    /// The most search threads [`SearchOptions::with_threads`] accepts.
    pub const MAX_THREADS: usize = 256;

    /// Plain fixed-depth alpha-beta: no PVS, TT, iterative deepening, aspiration, killers,
    /// countermoves, history or reductions (quiescence stays as configured: it changes what
    /// is computed, not how).
    /// The baseline of the differential tests.
    pub fn plain_alpha_beta() -> SearchOptions {
        SearchOptions {
            aspiration: false,
            pvs: false,
            transposition_table: false,
            iterative_deepening: false,
            killers: false,
            countermoves: false,
            history: false,
            late_move_reductions: false,
            ..SearchOptions::default()
        }
    }

    /// Transposition table size in MiB, `1..=65536`. The table holds the largest power of
    /// two of 32-byte buckets that fits.
    pub fn with_hash_mb(mut self, mb: usize) -> Result<SearchOptions, OptionsError> {
        if !(Self::MIN_HASH_MB..=Self::MAX_HASH_MB).contains(&mb) {
            return Err(OptionsError::HashMb { value: mb });
        }
        self.hash_mb = mb;
        Ok(self)
    }

    /// Search threads (Lazy SMP), `1..=256`.
    pub fn with_threads(mut self, threads: usize) -> Result<SearchOptions, OptionsError> {
        if !(Self::MIN_THREADS..=Self::MAX_THREADS).contains(&threads) {
            return Err(OptionsError::Threads { value: threads });
        }
        self.threads = threads;
        Ok(self)
    }

    /// Seed of the tie-break among root moves of equal score: with one thread and a
    /// depth or node limit, a search is a pure function of position, options and seed.
    pub fn with_seed(mut self, seed: u64) -> SearchOptions {
        self.seed = seed;
        self
    }

    /// The limits [`crate::Searcher::search`] uses.
    pub fn with_limits(mut self, limits: Limits) -> SearchOptions {
        self.limits = limits;
        self
    }

    /// Aspiration windows around the previous iteration's score (default on).
    pub fn with_aspiration(mut self, on: bool) -> SearchOptions {
        self.aspiration = on;
        self
    }

    /// Initial half-width of the aspiration window (default 50), `1..=Score::MAX_EVAL`.
    pub fn with_aspiration_window(mut self, cp: i32) -> Result<SearchOptions, OptionsError> {
        if !(1..=Score::MAX_EVAL).contains(&cp) {
            return Err(OptionsError::AspirationWindow { value: cp });
        }
        self.aspiration_window = cp;
        Ok(self)
    }

    /// Quiescence search over [`crate::Evaluator::noisy`] moves at the horizon (default on;
    /// a game without noisy moves is unaffected).
    pub fn with_quiescence(mut self, on: bool) -> SearchOptions {
        self.quiescence = on;
        self
    }

    /// Principal-variation search: null windows after the first move (default on).
    pub fn with_pvs(mut self, on: bool) -> SearchOptions {
        self.pvs = on;
        self
    }

    /// Probe and store the transposition table (default on). Off, the table is unused and
    /// iterations order moves from the previous iteration's root results only.
    pub fn with_transposition_table(mut self, on: bool) -> SearchOptions {
        self.transposition_table = on;
        self
    }

    /// Iterative deepening (default on). Off, the search runs only the final depth, which
    /// needs a depth limit (time and node limits still stop it, with only a fallback move).
    pub fn with_iterative_deepening(mut self, on: bool) -> SearchOptions {
        self.iterative_deepening = on;
        self
    }

    /// Killer-move ordering (default on).
    pub fn with_killers(mut self, on: bool) -> SearchOptions {
        self.killers = on;
        self
    }

    /// Countermove ordering: the quiet move that last refuted the opponent's previous
    /// move is tried right after the killers (default on).
    pub fn with_countermoves(mut self, on: bool) -> SearchOptions {
        self.countermoves = on;
        self
    }

    /// History-heuristic ordering (default on).
    pub fn with_history(mut self, on: bool) -> SearchOptions {
        self.history = on;
        self
    }

    /// Late-move reductions (default **off**): at depth 3 and more, quiet moves late in the
    /// order (after the TT move, the hinted moves, killers and countermove, and the first
    /// three moves) are searched one or two turns shallower with a null window first, and
    /// again at full depth only if they beat alpha. Faster, but a forward pruning: it may
    /// miss a quiet move whose point only shows deep (zugzwang, slow threats), so the
    /// search no longer equals fixed-depth minimax. Enable it per game after testing.
    pub fn with_late_move_reductions(mut self, on: bool) -> SearchOptions {
        self.late_move_reductions = on;
        self
    }

    /// Seeded tie-break among root moves of equal score (default **on**): every root move
    /// that might tie the best is searched to an exact score, and one of the tied moves is
    /// drawn with the seed, so games vary between seeds. Off, the root keeps the first best
    /// move in search order, which is much cheaper where many moves share one score (a
    /// coarse evaluation on a wide, shallow tree: a plateau of equal root moves then costs a
    /// full-width search each). The root value is the same either way.
    pub fn with_root_tie_break(mut self, on: bool) -> SearchOptions {
        self.root_tie_break = on;
        self
    }

    /// The requested transposition-table size in MiB (the table itself may be smaller:
    /// the largest power of two of buckets that fits).
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }
    /// Search threads, the main one included (`1`: no helper threads).
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Seed of the root tie-break (default 0).
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The limits [`crate::Searcher::search`] uses (default: none).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
    /// Whether the root is searched in a window around the previous iteration's score
    /// (from depth 3 on, and not around a forced result).
    pub fn aspiration(&self) -> bool {
        self.aspiration
    }
    /// Initial half-width of the aspiration window, in evaluation units, `1..=Score::MAX_EVAL`.
    pub fn aspiration_window(&self) -> i32 {
        self.aspiration_window
    }
    /// Whether the horizon runs a quiescence search over noisy moves.
    pub fn quiescence(&self) -> bool {
        self.quiescence
    }
    /// Whether principal-variation search (null windows after the first move) is on.
    pub fn pvs(&self) -> bool {
        self.pvs
    }
    /// Whether the transposition table is probed and stored.
    pub fn transposition_table(&self) -> bool {
        self.transposition_table
    }
    /// Whether iterative deepening is on (off: only the final depth is searched).
    pub fn iterative_deepening(&self) -> bool {
        self.iterative_deepening
    }
    /// Whether killer moves are tried early.
    pub fn killers(&self) -> bool {
        self.killers
    }
    /// Whether the countermove is tried right after the killers.
    pub fn countermoves(&self) -> bool {
        self.countermoves
    }
    /// Whether quiet moves are ordered by the history heuristic.
    pub fn history(&self) -> bool {
        self.history
    }
    /// Whether late-move reductions are on (default off: they make the search differ
    /// from fixed-depth minimax).
    pub fn late_move_reductions(&self) -> bool {
        self.late_move_reductions
    }
    /// Whether equal-score root moves are searched exactly and one drawn with the seed.
    pub fn root_tie_break(&self) -> bool {
        self.root_tie_break
    }
}

/// When a search stops. The search stops at the first limit reached; with none it runs to
/// [`MAX_DEPTH`] (or until a forced result is proven, or the stop flag is raised).
///
/// - `depth`: the last iteration's depth (0 is read as 1; above [`MAX_DEPTH`] as
///   `MAX_DEPTH`).
/// - `nodes`: total nodes over all threads (exact with one thread, approximate with more).
/// - `soft_time`: no new iteration starts after it.
/// - `hard_time`: checked inside the search, which stops within a few milliseconds of it.
/// - a [`TimeBudget`] ([`Limits::with_budget`], [`Limits::with_time_control`]): the
///   managed form of the two, for engines playing under a protocol's limits: its target
///   and hard stop become the soft and hard times, and the iterations are driven by
///   [`crate::IterationClock`] (the target stretched on an unstable best move or a falling
///   score, no iteration started under a clock that is predicted to end too late, an early
///   stop on a single candidate move or a confirmed forced result).
/// - `start`: the instant the move's clock started (when the protocol read the command);
///   times count from it, so work done before the search (a root threat search, a
///   thread start) is charged to the move. Default: when the search starts.
/// - `stop flag`: raised by another thread to stop as soon as possible (`go infinite` +
///   `stop`). The search only reads it: the caller lowers it before the next search.
///
/// Whatever stops it, a search reports a legal move when the root has one.
///
/// ```
/// use std::{sync::{Arc, atomic::AtomicBool}, time::Duration};
/// use boardlab_search::{Limits, TimeControl};
/// let stop = Arc::new(AtomicBool::new(false));
/// let limits = Limits::new()
///     .with_depth(12)
///     .with_move_time(Duration::from_millis(500))
///     .with_stop_flag(stop.clone());
/// assert_eq!(limits.depth(), Some(12));
/// assert_eq!(limits.hard_time(), Some(Duration::from_millis(500)));
/// // A protocol's 500 ms turn: the search keeps the overhead reserve.
/// let managed = Limits::new().with_time_control(TimeControl::per_move(Duration::from_millis(500)));
/// assert!(managed.budget().is_some());
/// assert!(managed.hard_time() < Some(Duration::from_millis(500)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    depth: Option<u32>,
    nodes: Option<u64>,
    soft_time: Option<Duration>,
    hard_time: Option<Duration>,
    budget: Option<TimeBudget>,
    start: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit at all (stop flag, proof or [`MAX_DEPTH`] end the search).
    pub fn new() -> Limits {
        Limits::default()
    }

    /// Up to `depth` (see the type's docs for the range).
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth.clamp(1, MAX_DEPTH));
        self
    }

    /// At most about `nodes` nodes (at least one node is searched).
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes.max(1));
        self
    }

    /// No iteration starts after `t` (replaces a budget's target, and the budget's
    /// management).
    pub fn with_soft_time(mut self, t: Duration) -> Limits {
        self.soft_time = Some(t);
        self.budget = None;
        self
    }

    /// The search stops at `t` (within a few ms; replaces a budget's hard stop, and the
    /// budget's management).
    pub fn with_hard_time(mut self, t: Duration) -> Limits {
        self.hard_time = Some(t);
        self.budget = None;
        self
    }

    /// A managed budget of `t` for a player in this process ([`TimeBudget::in_process`]):
    /// the whole of `t` with no reserve, and the manager's early stop on a forced move or
    /// a proven result. Protocol engines use [`Limits::with_time_control`], which keeps
    /// back their overhead.
    pub fn with_move_time(self, t: Duration) -> Limits {
        self.with_budget(TimeBudget::in_process(t))
    }

    /// A managed budget: its target and hard stop become the soft and hard times.
    pub fn with_budget(mut self, budget: TimeBudget) -> Limits {
        self.soft_time = Some(budget.target);
        self.hard_time = Some(budget.hard);
        self.budget = Some(budget);
        self
    }

    /// The budget of a protocol's time limits ([`TimeControl::budget`]); unchanged when
    /// they limit nothing.
    pub fn with_time_control(self, control: TimeControl) -> Limits {
        match control.budget() {
            Some(b) => self.with_budget(b),
            None => self,
        }
    }

    /// A managed budget from a game clock: `remaining` on our clock, `increment` per move,
    /// `moves_to_go` until the next time control (`None`: sudden death). See
    /// [`TimeControl::budget`].
    pub fn with_clock(
        self,
        remaining: Duration,
        increment: Duration,
        moves_to_go: Option<u32>,
    ) -> Limits {
        self.with_time_control(TimeControl::clock(Clock::new(
            remaining,
            increment,
            moves_to_go,
        )))
    }

    /// The move's clock started at `start` (when its command was read).
    pub fn with_start(mut self, start: Instant) -> Limits {
        self.start = Some(start);
        self
    }

    /// Stops when `flag` becomes true.
    pub fn with_stop_flag(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.stop = Some(flag);
        self
    }

    /// The depth limit in turns, already clamped to `1..=`[`MAX_DEPTH`]; `None`: no limit
    /// (the search may still stop at `MAX_DEPTH`).
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }
    /// The node limit over all threads, at least 1; `None`: no limit.
    pub fn nodes(&self) -> Option<u64> {
        self.nodes
    }
    /// After this time no new iteration starts; `None`: no limit. Counted from
    /// [`Limits::start`] (else from the start of the search); set directly or from a
    /// budget's target.
    pub fn soft_time(&self) -> Option<Duration> {
        self.soft_time
    }
    /// At this time the search is interrupted, mid-iteration if need be; `None`: no limit.
    /// Counted like [`Limits::soft_time`]; set directly or from a budget's hard stop.
    pub fn hard_time(&self) -> Option<Duration> {
        self.hard_time
    }
    /// The managed budget, if the times came from one.
    pub fn budget(&self) -> Option<TimeBudget> {
        self.budget
    }
    /// When the move's clock started, if the caller said.
    pub fn start(&self) -> Option<Instant> {
        self.start
    }
    /// The instant of the hard stop, for a clock started at [`Limits::start`] or else at
    /// `default_start`.
    pub fn hard_deadline(&self, default_start: Instant) -> Option<Instant> {
        let start = self.start.unwrap_or(default_start);
        self.hard_time.and_then(|t| start.checked_add(t))
    }
    /// The external stop flag, if one was given: the search stops soon after it reads
    /// `true`, and never lowers it.
    pub fn stop_flag(&self) -> Option<&Arc<AtomicBool>> {
        self.stop.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_checked() {
        let o = SearchOptions::default();
        assert_eq!(
            o.clone().with_hash_mb(0).unwrap_err(),
            OptionsError::HashMb { value: 0 }
        );
        assert!(o.clone().with_hash_mb(65_537).is_err());
        assert!(o.clone().with_hash_mb(65_536).is_ok());
        assert!(o.clone().with_threads(0).is_err());
        assert!(o.clone().with_threads(257).is_err());
        assert!(o.clone().with_threads(256).is_ok());
        assert!(o.clone().with_aspiration_window(0).is_err());
        assert_eq!(
            OptionsError::Threads { value: 300 }.to_string(),
            "thread count 300 is out of range: expected 1-256"
        );
        assert_eq!(
            OptionsError::HashMb { value: 0 }.to_string(),
            "hash size 0 MB is out of range: expected 1-65536"
        );
    }

    #[test]
    fn limits_clamp_and_clock() {
        assert_eq!(Limits::new().with_depth(0).depth(), Some(1));
        assert_eq!(Limits::new().with_depth(10_000).depth(), Some(MAX_DEPTH));
        assert_eq!(Limits::new().with_nodes(0).nodes(), Some(1));
        let l = Limits::new().with_clock(Duration::from_secs(60), Duration::from_secs(1), None);
        let (soft, hard) = (l.soft_time().unwrap(), l.hard_time().unwrap());
        assert!(soft >= Duration::from_secs(2) && soft <= Duration::from_secs(4));
        assert!(hard >= soft && hard <= Duration::from_secs(30));
        assert!(l.budget().unwrap().saves_time);
        // Nearly flagged: never plan beyond the clock.
        let l = Limits::new().with_clock(Duration::from_millis(20), Duration::ZERO, Some(1));
        assert!(l.hard_time().unwrap() < Duration::from_millis(20));
        let l = Limits::new().with_clock(Duration::ZERO, Duration::from_secs(5), None);
        assert_eq!(l.hard_time(), Some(Duration::ZERO));
        // Absurd clocks do not overflow.
        let l = Limits::new().with_clock(Duration::MAX, Duration::MAX, Some(0));
        assert!(l.soft_time().unwrap() <= l.hard_time().unwrap());
        // Explicit times replace the budget and its management.
        let l = l.with_hard_time(Duration::from_secs(1));
        assert_eq!(l.budget(), None);
        // No time at all leaves the limits as they were.
        let l = Limits::new().with_time_control(TimeControl::default());
        assert_eq!(
            (l.soft_time(), l.hard_time(), l.budget()),
            (None, None, None)
        );
        // The deadline counts from the given start.
        let t0 = Instant::now();
        let l = Limits::new()
            .with_move_time(Duration::from_millis(10))
            .with_start(t0);
        assert_eq!(
            l.hard_deadline(t0 + Duration::from_secs(5)),
            Some(t0 + Duration::from_millis(10))
        );
    }
}
