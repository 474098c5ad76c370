//! [`Searcher`]: the engine object a game keeps between moves.

use std::{
    collections::HashSet,
    fmt,
    sync::{Mutex, atomic::Ordering},
    thread,
    time::Instant,
};

use board_core::Notation;

use crate::{
    evaluator::Evaluator,
    options::{Limits, MAX_DEPTH, OptionsError, SearchOptions},
    ordering::OrderingTables,
    report::{IterationReport, SearchResult, SearchStats, StopReason, nps},
    score::Score,
    tt::TranspositionTable,
    worker::{
        Completed, Context, Counters, Deepest, End, Finished, MAX_PLY, RootMove, Shared, Worker,
        terminal_score,
    },
};

/// A game-tree searcher: owns the evaluator, the transposition table and the per-thread
/// move-ordering memory, and keeps them between moves of a game ([`new_game`] clears them).
///
/// With `threads > 1` it runs Lazy SMP: every thread runs the same iterative deepening on
/// its own copy of the position, they share only the transposition table, and the main
/// thread's result is returned. No work is split, so it needs nothing from the game beyond
/// `Position: Clone + Send`. Odd helpers stay one iteration ahead of the main thread (even
/// ones beside it), drop an iteration the main thread has got past, and publish each
/// iteration they complete; the main thread adopts a helper's deeper result instead of
/// searching that depth itself, and otherwise meets the helper's table entries (deeper or
/// differently ordered) that make it reach each depth sooner. Young Brothers Wait
/// would split work at nodes whose first move is done, which needs per-node
/// synchronisation and pays off mostly with many cores and uniform trees; our trees range
/// from fourshift's 30 moves to Connect6's pruned pair lists.
///
/// [`new_game`]: Searcher::new_game
pub struct Searcher<P: Notation, E> {
    evaluator: E,
    options: SearchOptions,
    tt: TranspositionTable,
    /// Move-ordering memory of the main thread and of each helper thread.
    main_tables: OrderingTables<P::Move>,
    helper_tables: Vec<OrderingTables<P::Move>>,
    game_history: Vec<u64>,
}

impl<P: Notation, E> fmt::Debug for Searcher<P, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("options", &self.options)
            .field("tt_bytes", &self.tt.bytes())
            .field("game_history", &self.game_history.len())
            .finish_non_exhaustive()
    }
}

impl<P: Notation, E: Evaluator<P>> Searcher<P, E> {
    /// A searcher with its transposition table allocated.
    pub fn new(evaluator: E, options: SearchOptions) -> Result<Self, OptionsError> {
        let tt = TranspositionTable::new(options.hash_mb())?;
        let helper_tables = (1..options.threads())
            .map(|_| OrderingTables::new(MAX_PLY))
            .collect();
        Ok(Searcher {
            evaluator,
            options,
            tt,
            main_tables: OrderingTables::new(MAX_PLY),
            helper_tables,
            game_history: Vec::new(),
        })
    }

    /// The options in force (change them with [`Searcher::set_options`]).
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes the options; a new hash size reallocates (and so clears) the table. On error
    /// the searcher keeps its old options.
    pub fn set_options(&mut self, options: SearchOptions) -> Result<(), OptionsError> {
        if options.hash_mb() != self.options.hash_mb() {
            self.tt = TranspositionTable::new(options.hash_mb())?;
        }
        self.helper_tables
            .resize_with(options.threads() - 1, || OrderingTables::new(MAX_PLY));
        self.options = options;
        Ok(())
    }

    /// The evaluator the search calls.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// The evaluator, to retune or reconfigure between searches. The transposition table
    /// is kept: call [`Searcher::new_game`] if the change makes its stored scores wrong.
    pub fn evaluator_mut(&mut self) -> &mut E {
        &mut self.evaluator
    }

    /// Size of the transposition table in bytes.
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Forgets everything learnt: table, killers, history, game history.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.main_tables.clear();
        for t in &mut self.helper_tables {
            t.clear();
        }
        self.game_history.clear();
    }

    /// Hashes of the positions played before the next root, oldest first, for
    /// [`Evaluator::repetition_is_draw`] games (ignored otherwise).
    pub fn set_game_history(&mut self, hashes: &[u64]) {
        self.game_history.clear();
        self.game_history.extend_from_slice(hashes);
    }

    /// Searches `pos` under the options' limits.
    pub fn search(&mut self, pos: &P) -> SearchResult<P::Move> {
        let limits = self.options.limits().clone();
        self.search_with(pos, &limits, |_| {})
    }

    /// Searches `pos` under `limits`, calling `on_iteration` (on this thread) after each
    /// completed iteration, and once more at the end when the search was cut off in an
    /// iteration that found a better move than the last line reported: the last line
    /// reported always starts with the result's best move (a GUI shows what is played).
    pub fn search_with(
        &mut self,
        pos: &P,
        limits: &Limits,
        mut on_iteration: impl FnMut(&IterationReport<P::Move>),
    ) -> SearchResult<P::Move> {
        // The move's clock: from when the caller read its command, if it says.
        let start = limits.start().unwrap_or_else(Instant::now);
        let mut result = SearchResult {
            best_move: None,
            score: Score::DRAW,
            depth: 0,
            pv: Vec::new(),
            stop_reason: StopReason::GameOver,
            stats: SearchStats {
                threads: self.options.threads(),
                ..SearchStats::default()
            },
            iterations: Vec::new(),
        };
        if let Some(o) = pos.outcome() {
            result.score = Score::from_raw(terminal_score(o, pos.side_to_move(), 0));
            return result;
        }
        let max_depth = limits.depth().unwrap_or(MAX_DEPTH);
        let root_moves = self.root_moves(pos);
        let Some(first) = root_moves.first().copied() else {
            result.score = Score::cp(self.evaluator.evaluate(pos));
            return result;
        };
        // The hook may play on its position: it gets a copy of the caller's.
        if let Some(fw) = self.evaluator.forced_win(&mut pos.clone(), max_depth)
            && pos.validate(&fw.mv).is_ok()
        {
            let report = IterationReport {
                depth: 1,
                seldepth: 1,
                score: Score::win_in(fw.turns.max(1)),
                nodes: 1,
                time: start.elapsed(),
                nps: nps(1, start.elapsed()),
                tt_hit_rate: 0.0,
                hashfull: 0,
                pv: vec![fw.mv],
            };
            on_iteration(&report);
            result.best_move = Some(fw.mv);
            result.score = report.score;
            result.depth = 1;
            result.pv = vec![fw.mv];
            result.stop_reason = StopReason::Proven;
            result.stats.nodes = 1;
            result.stats.time = start.elapsed();
            result.iterations.push(report);
            return result;
        }

        let use_tt = self.options.transposition_table();
        if use_tt {
            self.tt.new_search();
        }
        self.main_tables.new_search();
        for t in &mut self.helper_tables {
            t.new_search();
        }
        let shared = Shared::new(
            use_tt.then_some(&self.tt),
            limits.stop_flag().map(|f| &**f),
            start,
            limits.hard_time(),
            limits.nodes(),
        );
        let cx = Context {
            eval: &self.evaluator,
            opts: &self.options,
            shared: &shared,
            max_depth,
            soft_time: limits.soft_time(),
            budget: limits.budget(),
            history: &self.game_history,
        };
        let main_tables = &mut self.main_tables;
        let helper_tables = &mut self.helper_tables;
        let deepest: Deepest<P::Move> = Mutex::new(None);
        let (main, helpers) = thread::scope(|s| {
            // A helper the OS refuses to start is simply missing: the search goes on.
            let handles: Vec<_> = helper_tables
                .iter_mut()
                .enumerate()
                .filter_map(|(i, tables)| {
                    let w = Worker::new(
                        i + 1,
                        &cx,
                        tables,
                        pos.clone(),
                        root_moves.clone(),
                        &deepest,
                    );
                    thread::Builder::new()
                        .name(format!("search-helper-{}", i + 1))
                        .spawn_scoped(s, move || w.iterate(false, &mut |_| {}))
                        .ok()
                })
                .collect();
            let main = Worker::new(
                0,
                &cx,
                main_tables,
                pos.clone(),
                root_moves.clone(),
                &deepest,
            )
            .iterate(true, &mut on_iteration);
            shared.stop.store(true, Ordering::Relaxed);
            let helpers: Vec<Finished<P::Move>> = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            (main, helpers)
        });

        let mut counters = Counters::default();
        let mut seldepth = 0;
        for f in std::iter::once(&main).chain(&helpers) {
            counters.add(&f.counters);
            seldepth = seldepth.max(f.seldepth);
        }
        let time = start.elapsed();
        result.stats = SearchStats {
            nodes: counters.nodes,
            qnodes: counters.qnodes,
            time,
            nps: nps(counters.nodes, time),
            seldepth,
            tt_probes: counters.tt_probes,
            tt_hits: counters.tt_hits,
            tt_cutoffs: counters.tt_cutoffs,
            beta_cutoffs: counters.beta_cutoffs,
            first_move_cutoffs: counters.first_move_cutoffs,
            pvs_researches: counters.pvs_researches,
            aspiration_researches: counters.aspiration_researches,
            reductions: counters.reductions,
            reduction_researches: counters.reduction_researches,
            hashfull: if use_tt { self.tt.hashfull() } else { 0 },
            threads: self.options.threads(),
        };
        result.stop_reason = match main.end {
            End::Depth => StopReason::Depth,
            End::Proven => StopReason::Proven,
            End::SoftTime => StopReason::SoftTime,
            End::Forced => StopReason::Forced,
            End::Aborted => shared.interrupt_reason(),
        };
        result.iterations = main.reports;
        match main.best {
            Some(Completed { depth, score, pv }) if !pv.is_empty() => {
                result.best_move = pv.first().copied();
                result.score = Score::from_raw(score);
                result.depth = depth;
                result.pv = pv;
                // A cut-off iteration's better move has not been reported yet.
                if result
                    .iterations
                    .last()
                    .is_some_and(|last| last.pv != result.pv)
                {
                    on_iteration(&IterationReport {
                        depth: result.depth,
                        seldepth,
                        score: result.score,
                        nodes: counters.nodes,
                        time,
                        nps: nps(counters.nodes, time),
                        tt_hit_rate: result.stats.tt_hit_rate(),
                        hashfull: result.stats.hashfull,
                        pv: result.pv.clone(),
                    });
                }
            }
            _ => {
                // Stopped before any root move was searched: the first in order (the
                // table's move, if it has one) is still legal.
                result.best_move = Some(first.mv);
                result.score = Score::cp(self.evaluator.evaluate(pos));
                result.pv = vec![first.mv];
            }
        }
        result
    }

    /// The root's legal candidates, without duplicates, in search order: table move,
    /// positive hints, history, the game's order, negative hints.
    fn root_moves(&self, pos: &P) -> Vec<RootMove<P::Move>> {
        let mut moves = Vec::new();
        self.evaluator.candidates(pos, &mut moves);
        let mut root = legal_unique(pos, &moves);
        if root.is_empty() {
            pos.generate_moves(&mut moves);
            root = legal_unique(pos, &moves);
        }
        let tt_idx = if self.options.transposition_table() {
            self.tt.probe(pos.hash()).and_then(|e| e.move_index)
        } else {
            None
        };
        let side = pos.side_to_move();
        let mut keyed: Vec<(i64, RootMove<P::Move>)> = root
            .into_iter()
            .map(|rm| {
                let hint = i64::from(self.evaluator.move_hint(pos, rm.mv));
                let key = if Some(rm.idx) == tt_idx {
                    i64::MAX
                } else if hint != 0 {
                    hint.signum() * (1 << 40) + hint
                } else if self.options.history() {
                    i64::from(self.main_tables.history(side, &rm.mv))
                } else {
                    0
                };
                (key, rm)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        keyed.into_iter().map(|(_, rm)| rm).collect()
    }
}

fn legal_unique<P: Notation>(pos: &P, moves: &[P::Move]) -> Vec<RootMove<P::Move>> {
    let mut seen = HashSet::new();
    moves
        .iter()
        .enumerate()
        .filter(|&(_, mv)| seen.insert(*mv) && pos.validate(mv).is_ok())
        .map(|(i, &mv)| RootMove {
            mv,
            idx: u32::try_from(i).unwrap_or(u32::MAX),
        })
        .collect()
}
