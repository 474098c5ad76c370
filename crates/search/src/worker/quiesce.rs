//! The horizon: the static value, or quiescence over the game's noisy moves.

use std::mem;

use board_core::Notation;

use super::{MAX_PLY, Worker, expand::Scored, terminal_score};
use crate::evaluator::Evaluator;

impl<P: Notation, E: Evaluator<P>> Worker<'_, P, E> {
    /// The value of an unfinished node at the horizon: quiescence when the options ask for
    /// it, else the static value.
    pub(super) fn horizon(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.cx.opts.quiescence() {
            self.quiesce(alpha, beta, ply)
        } else {
            self.static_eval()
        }
    }

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
