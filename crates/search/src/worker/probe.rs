//! The transposition-table probe of an interior node.

use board_core::Notation;

use super::Worker;
use crate::{evaluator::Evaluator, score::from_node, tt::Bound};

/// What the table says about a node.
pub(super) enum Probe {
    /// A stored result settles the node (off the PV, deep enough, its bound outside the
    /// window): its value.
    Cutoff(i32),
    /// Search the node, trying the stored move (its index in the candidate list) first.
    Continue { tt_move: Option<u32> },
}

impl<P: Notation, E: Evaluator<P>> Worker<'_, P, E> {
    /// Probes the table for the node `hash` at `ply`, `depth` turns deep in the window
    /// (`alpha`, `beta`). A PV node never takes a cutoff (it must keep its PV).
    pub(super) fn probe(
        &mut self,
        hash: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> Probe {
        let Some(tt) = self.cx.shared.tt else {
            return Probe::Continue { tt_move: None };
        };
        self.counters.tt_probes += 1;
        let Some(e) = tt.probe(hash) else {
            return Probe::Continue { tt_move: None };
        };
        self.counters.tt_hits += 1;
        if !pv_node && i32::from(e.depth) >= depth {
            let s = from_node(e.score, ply as u32);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                self.counters.tt_cutoffs += 1;
                return Probe::Cutoff(s);
            }
        }
        Probe::Continue {
            tt_move: e.move_index,
        }
    }
}
