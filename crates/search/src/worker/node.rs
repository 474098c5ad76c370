//! An interior node: the checks every node makes (limits, a finished game, a repetition,
//! the horizon, the mate-distance window), then the stages in turn: [`super::probe`],
//! [`super::prune`], [`super::expand`].

use board_core::Notation;

use super::{MAX_PLY, Worker, probe::Probe, terminal_score};
use crate::{evaluator::Evaluator, score::win_at};

impl<P: Notation, E: Evaluator<P>> Worker<'_, P, E> {
    /// The value of the node at `ply` searched `depth` turns deep in the window
    /// (`alpha`, `beta`), from its side to move's view (fail-soft).
    pub(super) fn search(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
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
            return self.horizon(alpha, beta, ply);
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
        let tt_move = match self.probe(hash, depth, alpha, beta, ply, pv_node) {
            Probe::Cutoff(score) => return score,
            Probe::Continue { tt_move } => tt_move,
        };
        if let Some(v) = self.prune(depth, alpha, beta, ply, pv_node, hash) {
            return v;
        }
        self.expand(depth, alpha, beta, ply, hash, tt_move)
    }
}
