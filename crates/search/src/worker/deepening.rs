//! Iterative deepening: one iteration after another until a limit, each inside aspiration
//! windows, and the root's moves (every move an exact score where it might tie the best).

use std::{mem, sync::atomic::Ordering::Relaxed};

use board_core::Notation;
use rand::Rng;

use super::{Completed, End, Finished, Worker, is_decisive, proven};
use crate::{
    evaluator::Evaluator,
    report::{IterationReport, nps, ratio},
    score::{INFINITY, Score, to_node},
    time::{Decision, IterationClock, IterationEnd},
    tt::{Bound, TranspositionTable},
};

impl<P: Notation, E: Evaluator<P>> Worker<'_, P, E> {
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
    pub(super) fn helper_target(&self) -> u32 {
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
}
