//! One search thread: iterative deepening with aspiration windows over a fail-soft negamax
//! alpha-beta with PVS, transposition table, killers, history and quiescence.
//!
//! Turns need not alternate: a child's score is negated only when the side to move changed
//! across the move (`flip`), and the child's window is mirrored only then.

use std::{
    mem,
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed},
    },
    time::{Duration, Instant},
};

use board_core::{Notation, Outcome, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{
    evaluator::{Evaluator, applied_extension},
    options::SearchOptions,
    ordering::OrderingTables,
    report::{IterationReport, StopReason, nps, ratio},
    score::{INFINITY, Score, clamp_eval, from_node, to_node, win_at},
    time::{Decision, IterationClock, IterationEnd, TimeBudget},
    tt::{Bound, TranspositionTable},
};

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

#[derive(Clone, Copy, Debug)]
struct Scored<M> {
    key: i64,
    idx: u32,
    hint: i32,
    mv: M,
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

const HINT_BASE: i64 = 1 << 40;
/// The game's top candidate, when trusted: above killers, below every positive hint.
const GAME_TOP_KEY: i64 = HINT_BASE - 1;
const KILLER_BASE: i64 = 1 << 36;
/// Below the killers, above any history value.
const COUNTER_KEY: i64 = KILLER_BASE - 1;

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

    // ---- iterative deepening ------------------------------------------------------------

    /// Runs iterative deepening until a limit, reporting each completed iteration when
    /// `main`.
    pub fn iterate(
        mut self,
        main: bool,
        report: &mut dyn FnMut(&IterationReport<P::Move>),
    ) -> Finished<P::Move> {
        let cx = self.cx;
        let max = cx.max_depth.max(1);
        let first = if !cx.opts.iterative_deepening() {
            max
        } else {
            // Lazy SMP: odd helpers start one iteration ahead, so threads work on
            // different depths at the same time.
            (1 + (self.id % 2) as u32).min(max)
        };
        let mut best: Option<Completed<P::Move>> = None;
        let mut reports = Vec::new();
        let mut depth = first;
        let mut clock = cx.budget.filter(|_| main).map(IterationClock::new);
        let mut previous_best: Option<P::Move> = None;
        let end = loop {
            if main {
                cx.shared.main_depth.store(depth, Relaxed);
            } else if cx.opts.iterative_deepening() {
                depth = depth.max(self.helper_target());
            }
            self.iter_depth = depth;
            let score = self.aspiration(depth, best.as_ref().map(|b| b.score));
            if self.aborted {
                if self.stale && !cx.shared.stop.load(Relaxed) {
                    self.aborted = false;
                    self.stale = false;
                    continue;
                }
                best = self.adopt_partial(best);
                break End::Aborted;
            }
            let pv = mem::take(&mut self.iter_pv);
            if let (Some(tt), Some(rm)) = (cx.shared.tt, self.root_moves.first()) {
                let d = depth.min(u32::from(u8::MAX)) as u8;
                tt.store(
                    self.pos.hash(),
                    d,
                    Bound::Exact,
                    to_node(score, 0),
                    Some(rm.idx),
                );
            }
            if main {
                let r = self.report(depth, score, &pv);
                report(&r);
                reports.push(r);
            } else {
                let mut deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
                if deepest.as_ref().is_none_or(|d| d.depth < depth) {
                    *deepest = Some(Completed {
                        depth,
                        score,
                        pv: pv.clone(),
                    });
                }
            }
            best = Some(Completed { depth, score, pv });
            if main && let Some(ahead) = self.helper_result_deeper_than(depth) {
                // A helper finished a deeper iteration while this one ran: take it as this
                // thread's own (reported like one) and go on from there.
                let r = self.report(ahead.depth, ahead.score, &ahead.pv);
                report(&r);
                reports.push(r);
                if let Some(i) = self
                    .root_moves
                    .iter()
                    .position(|rm| Some(&rm.mv) == ahead.pv.first())
                {
                    self.root_moves[..=i].rotate_right(1);
                }
                depth = ahead.depth;
                let score = ahead.score;
                best = Some(ahead);
                if proven(score, depth) {
                    break End::Proven;
                }
            }
            let score = best.as_ref().map_or(score, |b| b.score);
            if proven(score, depth) {
                break End::Proven;
            }
            if depth >= max {
                break End::Depth;
            }
            if let Some(clock) = clock.as_mut() {
                if self.root_moves.len() == 1 {
                    break End::Forced;
                }
                let best_move = best.as_ref().and_then(|b| b.pv.first().copied());
                let decision = clock.next(IterationEnd {
                    elapsed: cx.shared.start.elapsed(),
                    best_changed: previous_best.is_some() && previous_best != best_move,
                    score,
                    decisive: is_decisive(score),
                });
                previous_best = best_move;
                match decision {
                    Decision::Continue => {}
                    Decision::Stop => break End::SoftTime,
                    Decision::Proven => break End::Proven,
                }
            } else if main && cx.soft_time.is_some_and(|t| cx.shared.start.elapsed() >= t) {
                break End::SoftTime;
            }
            depth += 1;
        };
        self.flush();
        Finished {
            best,
            end,
            counters: self.counters,
            seldepth: self.seldepth,
            reports,
        }
    }

    /// The depth a helper should be searching: odd helpers one ahead of the main thread,
    /// even ones beside it (more than two threads), never past the depth limit.
    fn helper_target(&self) -> u32 {
        let main = self.cx.shared.main_depth.load(Relaxed);
        (main + (self.id % 2) as u32).min(self.cx.max_depth.max(1))
    }

    fn helper_result_deeper_than(&self, depth: u32) -> Option<Completed<P::Move>> {
        let deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        deepest
            .as_ref()
            .filter(|d| d.depth > depth && !d.pv.is_empty())
            .cloned()
    }

    fn report(&self, depth: u32, score: i32, pv: &[P::Move]) -> IterationReport<P::Move> {
        let sh = self.cx.shared;
        let time = sh.start.elapsed();
        let nodes = sh.nodes.load(Relaxed) + self.counters.nodes - self.flushed.nodes;
        let probes = sh.tt_probes.load(Relaxed) + self.counters.tt_probes - self.flushed.tt_probes;
        let hits = sh.tt_hits.load(Relaxed) + self.counters.tt_hits - self.flushed.tt_hits;
        IterationReport {
            depth,
            seldepth: self.seldepth,
            score: Score::from_raw(score),
            nodes,
            time,
            nps: nps(nodes, time),
            tt_hit_rate: ratio(hits, probes),
            hashfull: sh.tt.map_or(0, TranspositionTable::hashfull),
            pv: pv.to_vec(),
        }
    }

    /// After an interrupted iteration: keep the last completed result unless the
    /// interrupted one proved another move better; with no completed iteration, take the
    /// best of the root moves searched so far.
    fn adopt_partial(&mut self, prev: Option<Completed<P::Move>>) -> Option<Completed<P::Move>> {
        match (prev, self.iter_best) {
            (None, Some((_, score, _))) => Some(Completed {
                depth: 0,
                score,
                pv: mem::take(&mut self.iter_pv),
            }),
            (Some(p), Some((i, score, true))) if i != 0 => Some(Completed {
                depth: p.depth,
                score,
                pv: mem::take(&mut self.iter_pv),
            }),
            (p, _) => p,
        }
    }

    /// One iteration, re-searched with wider windows until the score is inside.
    fn aspiration(&mut self, depth: u32, prev: Option<i32>) -> i32 {
        let opts = self.cx.opts;
        let mut delta = opts.aspiration_window();
        let (mut alpha, mut beta) = match prev {
            Some(p) if opts.aspiration() && depth >= 3 && !is_decisive(p) => {
                ((p - delta).max(-INFINITY), (p + delta).min(INFINITY))
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let s = self.root_search(depth, alpha, beta);
            if self.aborted {
                return s;
            }
            if s <= alpha && alpha > -INFINITY {
                self.counters.aspiration_researches += 1;
                delta = delta.saturating_mul(2);
                alpha = if is_decisive(s) || delta > Score::MAX_EVAL {
                    -INFINITY
                } else {
                    (s - delta).max(-INFINITY)
                };
            } else if s >= beta && beta < INFINITY {
                self.counters.aspiration_researches += 1;
                delta = delta.saturating_mul(2);
                beta = if is_decisive(s) || delta > Score::MAX_EVAL {
                    INFINITY
                } else {
                    (s + delta).min(INFINITY)
                };
            } else {
                return s;
            }
        }
    }

    /// The root: every move gets an exact score where it might tie the best, so ties are
    /// broken by the seeded generator rather than by move order.
    fn root_search(&mut self, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.iter_best = None;
        self.iter_pv.clear();
        if self.tick() {
            return 0;
        }
        let side = self.pos.side_to_move();
        let d = depth as i32;
        let pvs = self.cx.opts.pvs();
        let tie_break = self.cx.opts.root_tie_break();
        let mut best = -INFINITY;
        let mut ties = 0u32;
        if self.repetition {
            self.path.push(self.pos.hash());
        }
        for i in 0..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            self.frames[0].current = Some(mv);
            let undo = self.pos.make_move(mv);
            let flip = self.pos.side_to_move() != side;
            let d1 = d - 1 + self.extension();
            let v = if i == 0 {
                self.child(d1, alpha, beta, 1, flip)
            } else {
                // With the tie-break, below `best` by one: a tie is then an exact score,
                // not a fail-low.
                let floor = match (best > alpha, tie_break) {
                    (true, true) => best - 1,
                    (true, false) => best,
                    (false, _) => alpha,
                };
                if pvs {
                    let v = self.child(d1, floor, floor + 1, 1, flip);
                    if v > floor && v < beta && !self.aborted {
                        self.counters.pvs_researches += 1;
                        self.child(d1, floor, beta, 1, flip)
                    } else {
                        v
                    }
                } else {
                    self.child(d1, floor, beta, 1, flip)
                }
            };
            self.pos.unmake_move(mv, undo);
            if self.aborted {
                break;
            }
            let take = if v > best {
                ties = 1;
                true
            } else if tie_break && v == best && best > alpha && best < beta {
                ties += 1;
                self.rng.random_range(0..ties) == 0
            } else {
                false
            };
            if take {
                best = v;
                self.iter_best = Some((i, v, v > alpha && v < beta));
                self.iter_pv.clear();
                self.iter_pv.push(mv);
                self.iter_pv.extend_from_slice(&self.frames[1].pv);
            }
            if best >= beta {
                break;
            }
        }
        if self.repetition {
            self.path.pop();
        }
        if !self.aborted
            && let Some((i, _, _)) = self.iter_best
        {
            // The best move leads the next iteration; the others keep their order.
            self.root_moves[..=i].rotate_right(1);
        }
        best
    }

    // ---- alpha-beta ---------------------------------------------------------------------

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

    fn search(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        if self.tick() {
            return 0;
        }
        self.frames[ply].pv.clear();
        let p = ply as u32;
        self.seldepth = self.seldepth.max(p);
        if let Some(o) = self.pos.outcome() {
            return terminal_score(o, self.pos.side_to_move(), p);
        }
        if self.repetition && self.is_repetition() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.static_eval();
        }
        if depth <= 0 {
            return if self.cx.opts.quiescence() {
                self.quiesce(alpha, beta, ply)
            } else {
                self.static_eval()
            };
        }
        // Decided before the window is narrowed below: a PV node stays one (and keeps its
        // PV) even where the narrowing leaves a single value possible.
        let pv_node = beta - alpha > 1;
        // Nothing here can beat a win on the next turn, or lose faster than on it: narrow
        // the window to one beyond those values (so a node worth exactly one of them still
        // raises alpha and records its PV).
        let lim = win_at(p + 1);
        alpha = alpha.max(-lim - 1);
        beta = beta.min(lim + 1);
        if alpha >= beta {
            return alpha;
        }
        let hash = self.pos.hash();
        let mut tt_idx = None;
        if let Some(tt) = self.cx.shared.tt {
            self.counters.tt_probes += 1;
            if let Some(e) = tt.probe(hash) {
                self.counters.tt_hits += 1;
                tt_idx = e.move_index;
                if !pv_node && i32::from(e.depth) >= depth {
                    let s = from_node(e.score, p);
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if cut {
                        self.counters.tt_cutoffs += 1;
                        return s;
                    }
                }
            }
        }
        // Forward pruning off the PV, where the game allows it (`None` by default): the
        // window and the static value must both be ordinary values, not forced results.
        let prunable = !pv_node && !is_decisive(alpha) && !is_decisive(beta);
        if prunable && let Some(margin) = self.cx.eval.futility_margin(&self.pos, depth as u32) {
            let stand = self.static_eval();
            if !is_decisive(stand) && stand.saturating_sub(margin) >= beta {
                return stand;
            }
        }
        if let Some(fw) = self.cx.eval.forced_win(&mut self.pos, depth as u32)
            && self.pos.validate(&fw.mv).is_ok()
        {
            let s = win_at(p.saturating_add(fw.turns.max(1)));
            self.frames[ply].pv.push(fw.mv);
            if let Some(tt) = self.cx.shared.tt {
                tt.store(hash, tt_depth(depth), Bound::Exact, to_node(s, p), None);
            }
            return s;
        }
        if prunable && let Some(margin) = self.cx.eval.razor_margin(&self.pos, depth as u32) {
            let stand = self.static_eval();
            if !is_decisive(stand) && stand.saturating_add(margin) <= alpha {
                let v = if self.cx.opts.quiescence() {
                    self.quiesce(alpha, alpha + 1, ply)
                } else {
                    stand
                };
                if self.aborted {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
                self.frames[ply].pv.clear();
            }
        }
        let mut moves = mem::take(&mut self.frames[ply].moves);
        let mut scored = mem::take(&mut self.frames[ply].scored);
        moves.clear();
        self.cx.eval.candidates(&self.pos, &mut moves);
        let v = if moves.is_empty() {
            self.static_eval()
        } else {
            if self.repetition {
                self.path.push(hash);
            }
            let v = self.expand(depth, alpha, beta, ply, tt_idx, &moves, &mut scored);
            if self.repetition {
                self.path.pop();
            }
            v
        };
        self.frames[ply].moves = moves;
        self.frames[ply].scored = scored;
        v
    }

    /// Searches the moves of an interior node: the TT move first (before the rest are even
    /// scored), then the others in order.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        tt_idx: Option<u32>,
        moves: &[P::Move],
        scored: &mut Vec<Scored<P::Move>>,
    ) -> i32 {
        let p = ply as u32;
        let side = self.pos.side_to_move();
        let alpha_orig = alpha;
        let pvs = self.cx.opts.pvs();
        let lmr = self.cx.opts.late_move_reductions() && depth >= 3;
        let tt_first = tt_idx.filter(|&i| {
            moves
                .get(i as usize)
                .is_some_and(|m| self.pos.validate(m).is_ok())
        });
        let mut tt_pending = tt_first.is_some();
        let mut ordered = false;
        let mut next = 0usize;
        let mut searched = 0usize;
        let mut best = -INFINITY;
        let mut best_idx = None;
        loop {
            let (mv, idx, hint, late_quiet) = match tt_first {
                Some(ti) if tt_pending => {
                    tt_pending = false;
                    let mv = moves[ti as usize];
                    (mv, ti, self.cx.eval.move_hint(&self.pos, mv), false)
                }
                _ => {
                    if !ordered {
                        self.order(ply, tt_first, moves, scored);
                        ordered = true;
                    }
                    pick(scored, next);
                    let Some(s) = scored.get(next) else { break };
                    next += 1;
                    (s.mv, s.idx, s.hint, s.key < COUNTER_KEY && s.hint <= 0)
                }
            };
            let reduction = if lmr && searched >= 3 && late_quiet {
                1 + i32::from(searched >= 12 && depth >= 6)
            } else {
                0
            };
            self.frames[ply].current = Some(mv);
            let undo = self.pos.make_move(mv);
            let flip = self.pos.side_to_move() != side;
            let d1 = depth - 1 + self.extension();
            let v = if searched == 0 {
                self.child(d1, alpha, beta, ply + 1, flip)
            } else {
                let mut v = alpha + 1;
                if reduction > 0 {
                    self.counters.reductions += 1;
                    v = self.child(d1 - reduction, alpha, alpha + 1, ply + 1, flip);
                    if v > alpha && !self.aborted {
                        self.counters.reduction_researches += 1;
                    }
                }
                if v <= alpha || self.aborted {
                    v
                } else if !pvs {
                    self.child(d1, alpha, beta, ply + 1, flip)
                } else {
                    let v = self.child(d1, alpha, alpha + 1, ply + 1, flip);
                    if v > alpha && v < beta && !self.aborted {
                        self.counters.pvs_researches += 1;
                        self.child(d1, alpha, beta, ply + 1, flip)
                    } else {
                        v
                    }
                }
            };
            self.pos.unmake_move(mv, undo);
            if self.aborted {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                best_idx = Some(idx);
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, mv);
                    if v >= beta {
                        self.counters.beta_cutoffs += 1;
                        if searched == 1 {
                            self.counters.first_move_cutoffs += 1;
                        }
                        if hint <= 0 {
                            self.tables.record_cutoff_rank(idx, moves.len());
                            // Quiet moves tried before this one (the TT move, if it was
                            // one of them, and the ordered moves before it).
                            let tried = if ordered { &scored[..next - 1] } else { &[] };
                            let tt_tried = tt_first
                                .filter(|&ti| ti != idx)
                                .map(|ti| moves[ti as usize]);
                            self.reward(ply, side, depth, mv, tt_tried, tried);
                        }
                        break;
                    }
                }
            }
        }
        if let Some(tt) = self.cx.shared.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_orig {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let mv = if bound == Bound::Upper {
                None
            } else {
                best_idx
            };
            tt.store(
                self.pos.hash(),
                tt_depth(depth),
                bound,
                to_node(best, p),
                mv,
            );
        }
        best
    }

    /// Scores the candidates (all but the TT move, already searched) for [`pick`]:
    /// positive hints; the game's first candidate while its order leads (see
    /// [`crate::ordering`]); killers and the countermove; history; negative hints last. The
    /// game's own order breaks ties.
    fn order(
        &self,
        ply: usize,
        skip: Option<u32>,
        moves: &[P::Move],
        scored: &mut Vec<Scored<P::Move>>,
    ) {
        let opts = self.cx.opts;
        let side = self.pos.side_to_move();
        let killers = if opts.killers() {
            self.tables.killers(ply)
        } else {
            [None; 2]
        };
        let counter = self
            .previous_move(ply)
            .filter(|_| opts.countermoves())
            .and_then(|prev| self.tables.countermove(side, &prev));
        scored.clear();
        // The game's first candidate (the TT move aside), if its order has earned it.
        let top = usize::from(skip == Some(0));
        let trust_top = self.tables.game_order_leads();
        for (i, &mv) in moves.iter().enumerate() {
            let idx = i as u32;
            if Some(idx) == skip {
                continue;
            }
            let hint = self.cx.eval.move_hint(&self.pos, mv);
            let key = if hint > 0 {
                HINT_BASE + i64::from(hint)
            } else if hint < 0 {
                -HINT_BASE + i64::from(hint)
            } else if trust_top && i == top {
                GAME_TOP_KEY
            } else if killers[0] == Some(mv) {
                KILLER_BASE + 1
            } else if killers[1] == Some(mv) {
                KILLER_BASE
            } else if counter == Some(mv) {
                COUNTER_KEY
            } else if opts.history() {
                i64::from(self.tables.history(side, &mv))
            } else {
                0
            };
            scored.push(Scored { key, idx, hint, mv });
        }
    }

    /// A quiet move caused a cutoff: make it a killer and the countermove of the previous
    /// move, and raise its history; lower the history of the quiet moves tried before it.
    fn reward(
        &mut self,
        ply: usize,
        side: Player,
        depth: i32,
        mv: P::Move,
        tt_tried: Option<P::Move>,
        tried: &[Scored<P::Move>],
    ) {
        let opts = self.cx.opts;
        if opts.killers() {
            self.tables.add_killer(ply, mv);
        }
        if opts.countermoves()
            && let Some(prev) = self.previous_move(ply)
        {
            self.tables.set_countermove(side, &prev, mv);
        }
        if opts.history() {
            let bonus = (depth * depth * 8).min(4096);
            self.tables.update_history(side, &mv, bonus);
            if let Some(t) = tt_tried {
                self.tables.update_history(side, &t, -bonus);
            }
            for s in tried.iter().filter(|s| s.hint <= 0) {
                self.tables.update_history(side, &s.mv, -bonus);
            }
        }
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

    // ---- quiescence ---------------------------------------------------------------------

    /// A quiescence node below the horizon.
    fn qnode(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.tick() {
            return 0;
        }
        self.counters.qnodes += 1;
        self.frames[ply].pv.clear();
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(o) = self.pos.outcome() {
            return terminal_score(o, self.pos.side_to_move(), ply as u32);
        }
        self.quiesce(alpha, beta, ply)
    }

    /// The value of an unfinished horizon node: the best of standing pat and the noisy moves.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let stand = self.static_eval();
        if stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        let mut moves = mem::take(&mut self.frames[ply].moves);
        moves.clear();
        self.cx.eval.noisy(&self.pos, &mut moves);
        if moves.is_empty() {
            self.frames[ply].moves = moves;
            return stand;
        }
        let mut scored = mem::take(&mut self.frames[ply].scored);
        scored.clear();
        scored.extend(moves.iter().enumerate().map(|(i, &mv)| {
            let hint = self.cx.eval.move_hint(&self.pos, mv);
            Scored {
                key: i64::from(hint),
                idx: i as u32,
                hint,
                mv,
            }
        }));
        scored.sort_unstable_by(|a, b| b.key.cmp(&a.key).then(a.idx.cmp(&b.idx)));
        let side = self.pos.side_to_move();
        let mut best = stand;
        alpha = alpha.max(stand);
        for s in &scored {
            let undo = self.pos.make_move(s.mv);
            let v = if self.pos.side_to_move() != side {
                -self.qnode(-beta, -alpha, ply + 1)
            } else {
                self.qnode(alpha, beta, ply + 1)
            };
            self.pos.unmake_move(s.mv, undo);
            if self.aborted {
                best = 0;
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, s.mv);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.frames[ply].moves = moves;
        self.frames[ply].scored = scored;
        best
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

/// How many moves of a node are picked one at a time (a scan for the best remaining
/// one) before the rest are sorted at once: most cutoffs come from the first few moves, so
/// a node that cuts early never pays for a full sort.
const PICK_ONE_BY_ONE: usize = 3;

/// Puts the best of `scored[next..]` (highest key, then lowest game index) at `next`: by a
/// scan for the first [`PICK_ONE_BY_ONE`] picks, then by sorting the rest once. The order
/// the moves come out in is that of a full sort.
#[inline]
fn pick<M>(scored: &mut [Scored<M>], next: usize) {
    let rest = match scored.get_mut(next..) {
        Some(rest) if rest.len() > 1 => rest,
        _ => return,
    };
    if next < PICK_ONE_BY_ONE {
        let mut best = 0;
        for (j, s) in rest.iter().enumerate().skip(1) {
            let b = &rest[best];
            if s.key > b.key || s.key == b.key && s.idx < b.idx {
                best = j;
            }
        }
        rest.swap(0, best);
    } else if next == PICK_ONE_BY_ONE {
        rest.sort_unstable_by(|a, b| b.key.cmp(&a.key).then(a.idx.cmp(&b.idx)));
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::{Scored, pick};

    #[test]
    fn picking_gives_the_order_of_a_full_sort() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for len in [0usize, 1, 2, 3, 4, 7, 30] {
            for _ in 0..50 {
                let scored: Vec<Scored<u16>> = (0..len)
                    .map(|i| Scored {
                        key: rng.random_range(-3..4),
                        idx: i as u32,
                        hint: 0,
                        mv: i as u16,
                    })
                    .collect();
                let mut sorted = scored.clone();
                sorted.sort_by(|a, b| b.key.cmp(&a.key).then(a.idx.cmp(&b.idx)));
                let mut picked = scored.clone();
                for next in 0..len {
                    pick(&mut picked, next);
                }
                let order = |v: &[Scored<u16>]| v.iter().map(|s| s.mv).collect::<Vec<_>>();
                assert_eq!(order(&picked), order(&sorted), "len {len}");
            }
        }
    }
}
