//! Time-to-depth measurement: how long the searcher takes to complete each depth on a set
//! of positions, and the speed-up of one configuration (e.g. 2 threads) over another.
//!
//! Run [`time_to_depth`] with a 1-thread and an N-thread [`Searcher`] over the same
//! positions, then [`speedup`] gives the geometric-mean speed-up at a depth.

use std::time::Duration;

use board_core::Notation;

use crate::{Evaluator, Limits, Searcher};

/// When an iteration completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthTime {
    /// The nominal depth of the completed iteration.
    pub depth: u32,
    /// Since the start of the search.
    pub time: Duration,
    /// Nodes of all threads so far.
    pub nodes: u64,
}

/// Searches each position to `depth` from a fresh table ([`Searcher::new_game`] before
/// each) and records when every iteration completed. Positions whose search ends early
/// (a proven result) have shorter lists.
pub fn time_to_depth<P: Notation, E: Evaluator<P>>(
    searcher: &mut Searcher<P, E>,
    positions: &[P],
    depth: u32,
) -> Vec<Vec<DepthTime>> {
    let limits = Limits::new().with_depth(depth);
    positions
        .iter()
        .map(|pos| {
            searcher.new_game();
            let mut times = Vec::new();
            searcher.search_with(pos, &limits, |r| {
                times.push(DepthTime {
                    depth: r.depth,
                    time: r.time,
                    nodes: r.nodes,
                });
            });
            times
        })
        .collect()
}

/// The geometric mean over positions of `baseline time / candidate time` to reach
/// `depth` (positions where either run did not reach it are skipped; `None` if none is
/// left). Above 1.0 the candidate is faster.
pub fn speedup(
    baseline: &[Vec<DepthTime>],
    candidate: &[Vec<DepthTime>],
    depth: u32,
) -> Option<f64> {
    let at = |runs: &Vec<DepthTime>| {
        runs.iter()
            .find(|d| d.depth == depth)
            .map(|d| d.time.as_secs_f64().max(1e-6))
    };
    let logs: Vec<f64> = baseline
        .iter()
        .zip(candidate)
        .filter_map(|(b, c)| Some((at(b)? / at(c)?).ln()))
        .collect();
    if logs.is_empty() {
        None
    } else {
        Some((logs.iter().sum::<f64>() / logs.len() as f64).exp())
    }
}
