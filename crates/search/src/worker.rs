//! One search thread: iterative deepening with aspiration windows over a fail-soft negamax
//! alpha-beta with PVS, transposition table, killers, history and quiescence.
//!
//! Turns need not alternate: a child's score is negated only when the side to move changed
//! across the move (`flip`), and the child's window is mirrored only then.
//!
//! The thread's state and limits live here; the search itself is split by stage, one
//! module each, in the order a node runs them:
//! - [`deepening`]: iterative deepening, aspiration windows and the root's moves;
//! - [`node`]: an interior node, which runs the stages below in turn;
//! - [`probe`]: the transposition-table probe (a cutoff, or the stored move to try first);
//! - [`prune`]: the game's shortcuts before any move is searched (reverse futility, a
//!   proven forced win, razoring);
//! - [`expand`]: the candidates searched in order (PVS, late-move reductions) and the
//!   ordering tables that learn from their cutoffs;
//! - [`quiesce`]: the horizon (static value or quiescence over the noisy moves).
//!
//! Game knowledge stays behind [`Evaluator`]'s hooks: no stage tests which game it runs.

mod deepening;
mod expand;
mod node;
mod probe;
mod prune;
mod quiesce;

use std::{
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed},
    },
    time::{Duration, Instant},
};

use board_core::{Notation, Outcome, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{
    evaluator::{Evaluator, applied_extension},
    options::SearchOptions,
    ordering::OrderingTables,
    report::{IterationReport, StopReason},
    score::{Score, clamp_eval, win_at},
    time::TimeBudget,
    tt::TranspositionTable,
};

use expand::Scored;

/// The deepest ply any line reaches (quiescence included); deeper nodes are evaluated.
pub(crate) const MAX_PLY: usize = 256;

/// The raw score of a finished game `ply` turns below the root, for its side to move.
#[inline]
pub(crate) fn terminal_score(outcome: Outcome, to_move: Player, ply: u32) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(p) if p == to_move => win_at(ply),
        Outcome::Win(_) => -win_at(ply),
    }
}

/// State shared by all threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: Option<&'a TranspositionTable>,
    /// Raised when the search must end (a limit, the external flag, or the main thread
    /// finished).
    pub stop: AtomicBool,
    pub external: Option<&'a AtomicBool>,
    pub start: Instant,
    pub hard_deadline: Option<Instant>,
    pub node_limit: Option<u64>,
    /// Flushed counters of all threads.
    pub nodes: AtomicU64,
    pub tt_probes: AtomicU64,
    pub tt_hits: AtomicU64,
    /// The first limit that stopped the search (a `StopReason` code, 0 = none).
    reason: AtomicU8,
    /// The depth of the main thread's current iteration (Lazy SMP helpers stay ahead of
    /// it or beside it, never behind).
    pub main_depth: AtomicU32,
}

impl<'a> Shared<'a> {
    pub fn new(
        tt: Option<&'a TranspositionTable>,
        external: Option<&'a AtomicBool>,
        start: Instant,
        hard_time: Option<Duration>,
        node_limit: Option<u64>,
    ) -> Shared<'a> {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            external,
            start,
            hard_deadline: hard_time.and_then(|t| start.checked_add(t)),
            node_limit,
            nodes: AtomicU64::new(0),
            tt_probes: AtomicU64::new(0),
            tt_hits: AtomicU64::new(0),
            reason: AtomicU8::new(0),
            main_depth: AtomicU32::new(0),
        }
    }

    fn halt(&self, reason: StopReason) {
        let code = match reason {
            StopReason::HardTime => 1,
            StopReason::Nodes => 2,
            _ => 3,
        };
        let _ = self.reason.compare_exchange(0, code, Relaxed, Relaxed);
        self.stop.store(true, Relaxed);
    }

    /// Why the search was interrupted.
    pub fn interrupt_reason(&self) -> StopReason {
        match self.reason.load(Relaxed) {
            1 => StopReason::HardTime,
            2 => StopReason::Nodes,
            _ => StopReason::Stopped,
        }
    }
}

/// What every thread of a search reads.
pub(crate) struct Context<'a, E> {
    pub eval: &'a E,
    pub opts: &'a SearchOptions,
    pub shared: &'a Shared<'a>,
    pub max_depth: u32,
    pub soft_time: Option<Duration>,
    /// A managed budget: the main thread's iterations follow an [`IterationClock`].
    pub budget: Option<TimeBudget>,
    /// Game positions before the root (for repetition detection).
    pub history: &'a [u64],
}

/// Per-thread counters, summed into [`crate::SearchStats`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counters {
    pub nodes: u64,
    pub qnodes: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_cutoffs: u64,
    pub beta_cutoffs: u64,
    pub first_move_cutoffs: u64,
    pub pvs_researches: u64,
    pub aspiration_researches: u64,
    pub reductions: u64,
    pub reduction_researches: u64,
}

impl Counters {
    pub fn add(&mut self, o: &Counters) {
        self.nodes += o.nodes;
        self.qnodes += o.qnodes;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.beta_cutoffs += o.beta_cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.pvs_researches += o.pvs_researches;
        self.aspiration_researches += o.aspiration_researches;
        self.reductions += o.reductions;
        self.reduction_researches += o.reduction_researches;
    }
}

/// A legal root move and its index in the root's candidate list (for the TT).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove<M> {
    pub mv: M,
    pub idx: u32,
}

/// A root result: depth, raw score and PV (`pv[0]` is the move).
#[derive(Clone, Debug)]
pub(crate) struct Completed<M> {
    pub depth: u32,
    pub score: i32,
    pub pv: Vec<M>,
}

/// The deepest iteration any helper thread has completed: the main thread adopts it when
/// it is deeper than its own, instead of searching that depth again.
pub(crate) type Deepest<M> = Mutex<Option<Completed<M>>>;

/// Why a thread's iterative deepening ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    Depth,
    Proven,
    SoftTime,
    Forced,
    Aborted,
}

/// What a thread hands back.
pub(crate) struct Finished<M> {
    pub best: Option<Completed<M>>,
    pub end: End,
    pub counters: Counters,
    pub seldepth: u32,
    pub reports: Vec<IterationReport<M>>,
}

/// Buffers of one ply, reused across nodes so the search does not allocate per node.
#[derive(Debug)]
struct Frame<M> {
    moves: Vec<M>,
    scored: Vec<Scored<M>>,
    pv: Vec<M>,
    /// The move being searched from this ply (the previous move of the ply below).
    current: Option<M>,
}

impl<M> Default for Frame<M> {
    fn default() -> Self {
        Frame {
            moves: Vec::new(),
            scored: Vec::new(),
            pv: Vec::new(),
            current: None,
        }
    }
}

/// Smallest and largest number of nodes between two limit checks; the interval adapts so
/// a check happens about every quarter to whole millisecond whatever a node costs.
const MAX_CHECK_INTERVAL: u64 = 8192;

pub(crate) struct Worker<'a, P: Notation, E> {
    id: usize,
    cx: &'a Context<'a, E>,
    tables: &'a mut OrderingTables<P::Move>,
    pos: P,
    root_moves: Vec<RootMove<P::Move>>,
    frames: Vec<Frame<P::Move>>,
    /// Hashes of the game before the root and of the current path (repetition only).
    path: Vec<u64>,
    repetition: bool,
    rng: ChaCha8Rng,
    counters: Counters,
    seldepth: u32,
    flushed: Counters,
    next_check: u64,
    interval: u64,
    last_check: Instant,
    aborted: bool,
    /// A helper's iteration was abandoned because the main thread got past its depth.
    stale: bool,
    /// The depth of the iteration being searched.
    iter_depth: u32,
    deepest: &'a Deepest<P::Move>,
    /// This iteration's best root move so far: (index in `root_moves`, score, exact).
    iter_best: Option<(usize, i32, bool)>,
    iter_pv: Vec<P::Move>,
}

impl<'a, P: Notation, E: Evaluator<P>> Worker<'a, P, E> {
    pub fn new(
        id: usize,
        cx: &'a Context<'a, E>,
        tables: &'a mut OrderingTables<P::Move>,
        pos: P,
        root_moves: Vec<RootMove<P::Move>>,
        deepest: &'a Deepest<P::Move>,
    ) -> Self {
        let repetition = cx.eval.repetition_is_draw();
        let seed = cx.opts.seed()
            ^ pos.hash().rotate_left(17)
            ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Worker {
            id,
            cx,
            tables,
            root_moves,
            frames: (0..MAX_PLY + 2).map(|_| Frame::default()).collect(),
            path: if repetition {
                cx.history.to_vec()
            } else {
                Vec::new()
            },
            repetition,
            rng: ChaCha8Rng::seed_from_u64(seed),
            counters: Counters::default(),
            seldepth: 0,
            flushed: Counters::default(),
            next_check: 1,
            interval: 16,
            last_check: cx.shared.start,
            aborted: false,
            stale: false,
            iter_depth: 0,
            deepest,
            iter_best: None,
            iter_pv: Vec::new(),
            pos,
        }
    }

    // ---- limits -------------------------------------------------------------------------

    /// Counts a node; true when the search must unwind.
    #[inline]
    fn tick(&mut self) -> bool {
        self.counters.nodes += 1;
        if self.counters.nodes >= self.next_check {
            self.check_limits();
        }
        self.aborted
    }

    fn flush(&mut self) -> u64 {
        let sh = self.cx.shared;
        let dn = self.counters.nodes - self.flushed.nodes;
        let total = sh.nodes.fetch_add(dn, Relaxed) + dn;
        sh.tt_probes
            .fetch_add(self.counters.tt_probes - self.flushed.tt_probes, Relaxed);
        sh.tt_hits
            .fetch_add(self.counters.tt_hits - self.flushed.tt_hits, Relaxed);
        self.flushed = self.counters;
        total
    }

    #[cold]
    fn check_limits(&mut self) {
        let total = self.flush();
        let sh = self.cx.shared;
        let now = Instant::now();
        if sh.stop.load(Relaxed) {
            self.aborted = true;
        } else if sh.external.is_some_and(|f| f.load(Relaxed)) {
            sh.halt(StopReason::Stopped);
            self.aborted = true;
        } else if sh.node_limit.is_some_and(|l| total >= l) {
            sh.halt(StopReason::Nodes);
            self.aborted = true;
        } else if sh.hard_deadline.is_some_and(|d| now >= d) {
            sh.halt(StopReason::HardTime);
            self.aborted = true;
        } else if self.id != 0 && self.iter_depth < self.helper_target() {
            // The main thread has got past this helper's depth: its table entries would
            // come too late to help. Drop the iteration and move ahead.
            self.aborted = true;
            self.stale = true;
        }
        let since = now.saturating_duration_since(self.last_check);
        self.last_check = now;
        if since < Duration::from_micros(250) && self.interval < MAX_CHECK_INTERVAL {
            self.interval *= 2;
        } else if since > Duration::from_millis(1) && self.interval > 1 {
            self.interval /= 2;
        }
        let mut step = self.interval;
        if let Some(limit) = sh.node_limit {
            step = step.min(limit.saturating_sub(total).max(1));
        }
        self.next_check = self.counters.nodes + step;
    }

    // ---- shared by the stages -----------------------------------------------------------

    /// Searches the node a move just reached, negating the child's view only if the side
    /// to move changed (`flip`).
    #[inline]
    fn child(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize, flip: bool) -> i32 {
        if flip {
            -self.search(depth, -beta, -alpha, ply)
        } else {
            self.search(depth, alpha, beta, ply)
        }
    }

    /// The game's extension of the node just reached (at most one ply).
    #[inline]
    fn extension(&self) -> i32 {
        applied_extension(self.cx.eval, &self.pos)
    }

    #[inline]
    fn static_eval(&self) -> i32 {
        clamp_eval(self.cx.eval.evaluate(&self.pos))
    }

    /// The move that led to the node at `ply`.
    #[inline]
    fn previous_move(&self, ply: usize) -> Option<P::Move> {
        ply.checked_sub(1).and_then(|p| self.frames[p].current)
    }

    fn update_pv(&mut self, ply: usize, mv: P::Move) {
        let (head, tail) = self.frames.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(mv);
        pv.extend_from_slice(&tail[0].pv);
    }

    fn is_repetition(&self) -> bool {
        let h = self.pos.hash();
        self.path.iter().rev().any(|&x| x == h)
    }
}

#[inline]
fn tt_depth(depth: i32) -> u8 {
    depth.clamp(0, i32::from(u8::MAX)) as u8
}

#[inline]
fn is_decisive(raw: i32) -> bool {
    Score::from_raw(raw).is_decisive()
}

/// A forced result no further than the searched depth: deeper iterations cannot change it.
fn proven(raw: i32, depth: u32) -> bool {
    use crate::score::ScoreKind;
    match Score::from_raw(raw).kind() {
        ScoreKind::Win(n) | ScoreKind::Loss(n) => n <= depth,
        ScoreKind::Value(_) => false,
    }
}
