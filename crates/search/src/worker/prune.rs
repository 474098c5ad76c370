//! The game's shortcuts at an interior node, before any move is searched: reverse
//! futility, a proven forced win, razoring. Each is an [`Evaluator`] hook (none by
//! default, so the search stays exact unless the game asks).

use board_core::Notation;

use super::{Worker, is_decisive, tt_depth};
use crate::{
    evaluator::Evaluator,
    score::{to_node, win_at},
    tt::Bound,
};

impl<P: Notation, E: Evaluator<P>> Worker<'_, P, E> {
    /// The node's value if a shortcut settles it, in the order: reverse futility, the
    /// game's forced win, razoring. Forward pruning happens only off the PV, with the
    /// window and the static value both ordinary values, not forced results.
    pub(super) fn prune(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        hash: u64,
    ) -> Option<i32> {
        let prunable = !pv_node && !is_decisive(alpha) && !is_decisive(beta);
        if prunable && let Some(v) = self.reverse_futility(depth, beta) {
            return Some(v);
        }
        if let Some(v) = self.forced_win(depth, ply, hash) {
            return Some(v);
        }
        if prunable {
            return self.razor(depth, alpha, ply);
        }
        None
    }

    /// The static value, if it minus the game's futility margin still reaches beta.
    fn reverse_futility(&self, depth: i32, beta: i32) -> Option<i32> {
        let margin = self.cx.eval.futility_margin(&self.pos, depth as u32)?;
        let stand = self.static_eval();
        (!is_decisive(stand) && stand.saturating_sub(margin) >= beta).then_some(stand)
    }

    /// The win the game's own tactical search proves for the side to move (its move is
    /// the node's PV), stored in the table as exact.
    fn forced_win(&mut self, depth: i32, ply: usize, hash: u64) -> Option<i32> {
        let fw = self.cx.eval.forced_win(&mut self.pos, depth as u32)?;
        if self.pos.validate(&fw.mv).is_err() {
            return None;
        }
        let p = ply as u32;
        let s = win_at(p.saturating_add(fw.turns.max(1)));
        self.frames[ply].pv.push(fw.mv);
        if let Some(tt) = self.cx.shared.tt {
            tt.store(hash, tt_depth(depth), Bound::Exact, to_node(s, p), None);
        }
        Some(s)
    }

    /// Razoring: when the static value plus the game's margin is at or under alpha, the
    /// horizon's value (quiescence) at a null window, if that fails low too.
    fn razor(&mut self, depth: i32, alpha: i32, ply: usize) -> Option<i32> {
        let margin = self.cx.eval.razor_margin(&self.pos, depth as u32)?;
        let stand = self.static_eval();
        if is_decisive(stand) || stand.saturating_add(margin) > alpha {
            return None;
        }
        let v = self.horizon(alpha, alpha + 1, ply);
        if self.aborted {
            return Some(0);
        }
        if v <= alpha {
            return Some(v);
        }
        self.frames[ply].pv.clear();
        None
    }
}
