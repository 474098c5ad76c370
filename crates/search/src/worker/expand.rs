//! The moves of an interior node: the game's candidates, the transposition-table move
//! first, then the rest in the order of [`Worker::order`] (hints, the game's trusted first
//! candidate, killers, the countermove, history), each searched with PVS and late-move
//! reductions; a quiet move's cutoff teaches the ordering tables.

use std::mem;

use board_core::{Notation, Player};

use super::{Worker, tt_depth};
use crate::{
    evaluator::Evaluator,
    score::{INFINITY, to_node},
    tt::Bound,
};

/// A candidate with its ordering key, its index in the game's list and its hint.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scored<M> {
    pub key: i64,
    pub idx: u32,
    pub hint: i32,
    pub mv: M,
}

const HINT_BASE: i64 = 1 << 40;
/// The game's top candidate, when trusted: above killers, below every positive hint.
const GAME_TOP_KEY: i64 = HINT_BASE - 1;
const KILLER_BASE: i64 = 1 << 36;
/// Below the killers, above any history value.
const COUNTER_KEY: i64 = KILLER_BASE - 1;

impl<P: Notation, E: Evaluator<P>> Worker<'_, P, E> {
    /// Generates the node's candidates (narrowed by the game's threat defence) and searches
    /// them; a node with none is a leaf.
    pub(super) fn expand(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        hash: u64,
        tt_move: Option<u32>,
    ) -> i32 {
        let mut moves = mem::take(&mut self.frames[ply].moves);
        let mut scored = mem::take(&mut self.frames[ply].scored);
        moves.clear();
        self.cx.eval.candidates(&self.pos, &mut moves);
        if !moves.is_empty() {
            self.cx
                .eval
                .threat_defence(&mut self.pos, depth as u32, &mut moves);
        }
        let v = if moves.is_empty() {
            self.static_eval()
        } else {
            if self.repetition {
                self.path.push(hash);
            }
            let v = self.search_moves(depth, alpha, beta, ply, tt_move, &moves, &mut scored);
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
    fn search_moves(
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
            let generic = if lmr && searched >= 3 && late_quiet {
                1 + i32::from(searched >= 12 && depth >= 6)
            } else {
                0
            };
            let game = if depth >= 2 && searched >= 1 && Some(idx) != tt_first {
                self.cx
                    .eval
                    .late_move_reduction(&self.pos, mv, hint, depth as u32, searched)
                    .min(depth as u32 - 2) as i32
            } else {
                0
            };
            let reduction = generic.max(game);
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
