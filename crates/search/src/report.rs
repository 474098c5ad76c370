//! What a search reports: [`IterationReport`] per completed depth, [`SearchResult`] at the
//! end, with [`SearchStats`].

use std::{fmt::Write, time::Duration};

use board_core::Notation;

use crate::score::Score;

/// Counters of a whole search, summed over all threads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Nodes visited (interior, horizon and quiescence), all threads.
    pub nodes: u64,
    /// Of those, quiescence nodes.
    pub qnodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// Deepest ply reached by any thread (quiescence included).
    pub seldepth: u32,
    /// Transposition-table probes (0 with the table switched off).
    pub tt_probes: u64,
    /// Probes that found an entry for the position (its move or bounds may still have
    /// been of no use at this depth).
    pub tt_hits: u64,
    /// Nodes settled by a table entry alone.
    pub tt_cutoffs: u64,
    /// Beta cutoffs: nodes where a move scored at least beta and the remaining moves were
    /// skipped.
    pub beta_cutoffs: u64,
    /// Of those, cutoffs by the first move searched: the move-ordering quality (see
    /// [`SearchStats::first_move_cutoff_rate`]).
    pub first_move_cutoffs: u64,
    /// Null-window searches that had to be repeated with the full window.
    pub pvs_researches: u64,
    /// Root searches repeated after failing outside the aspiration window.
    pub aspiration_researches: u64,
    /// Late-move reductions made (0 unless the option is on, see
    /// [`crate::SearchOptions::with_late_move_reductions`]).
    pub reductions: u64,
    /// Of those, reduced searches that beat alpha and were repeated at full depth.
    pub reduction_researches: u64,
    /// Per mille of sampled table entries written by this search.
    pub hashfull: u32,
    /// Threads that searched.
    pub threads: usize,
}

impl SearchStats {
    /// `tt_hits / tt_probes` (0 without probes).
    pub fn tt_hit_rate(&self) -> f64 {
        ratio(self.tt_hits, self.tt_probes)
    }

    /// `first_move_cutoffs / beta_cutoffs` (0 without cutoffs); above 0.9 is good ordering.
    pub fn first_move_cutoff_rate(&self) -> f64 {
        ratio(self.first_move_cutoffs, self.beta_cutoffs)
    }
}

pub(crate) fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

pub(crate) fn nps(nodes: u64, time: Duration) -> u64 {
    let us = time.as_micros().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000 / us).unwrap_or(u64::MAX)
}

/// One completed iteration of iterative deepening, as delivered to the callback of
/// [`crate::Searcher::search_with`].
#[derive(Clone, Debug, PartialEq)]
pub struct IterationReport<M> {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached so far (main thread).
    pub seldepth: u32,
    /// Value of the root for the side to move.
    pub score: Score,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Nodes per second so far (`nodes / time`, all threads).
    pub nps: u64,
    /// Transposition-table hit rate so far, `0.0..=1.0`.
    pub tt_hit_rate: f64,
    /// Per mille of sampled table entries written by this search.
    pub hashfull: u32,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
}

impl<M: Copy> IterationReport<M> {
    /// The engine protocol's line: `info depth D seldepth S score cp X nodes N nps N time MS
    /// hashfull P pv <moves>` (moves in the game's notation, `root` being the searched
    /// position).
    pub fn info_line<P: Notation<Move = M>>(&self, root: &P) -> String {
        let mut s = format!(
            "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
            self.depth,
            self.seldepth,
            self.score,
            self.nodes,
            self.nps,
            self.time.as_millis(),
            self.hashfull
        );
        let pv = format_pv(root, &self.pv);
        if !pv.is_empty() {
            let _ = write!(s, " pv {pv}");
        }
        s
    }
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The depth limit (or [`crate::MAX_DEPTH`]) was reached.
    Depth,
    /// The node limit was reached.
    Nodes,
    /// The soft time passed (no new iteration started).
    SoftTime,
    /// The hard time passed (the search was interrupted).
    HardTime,
    /// The external stop flag was raised.
    Stopped,
    /// A forced win or loss was proven within the searched depth, or announced by
    /// [`crate::Evaluator::forced_win`] at the root.
    Proven,
    /// The root position is finished, or has no legal move.
    GameOver,
    /// Under a managed time budget, the root had a single candidate move: it was played
    /// after one iteration.
    Forced,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play: always a legal move when the root has one.
    pub best_move: Option<M>,
    /// Value of the root for the side to move (of the last completed iteration, or of a
    /// better move proven in the interrupted one).
    pub score: Score,
    /// Depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    /// Why the search stopped.
    pub stop_reason: StopReason,
    /// Counters of the whole search, summed over all threads. When the root was decided
    /// without a search they are zero but `threads` (a finished game, no legal move), or
    /// but `threads`, `time` and one node (a [`crate::Evaluator::forced_win`] at the root).
    pub stats: SearchStats,
    /// Every completed iteration, shallowest first.
    pub iterations: Vec<IterationReport<M>>,
}

impl<M: Copy> SearchResult<M> {
    /// The principal variation in the game's notation, separated by spaces.
    pub fn pv_string<P: Notation<Move = M>>(&self, root: &P) -> String {
        format_pv(root, &self.pv)
    }
}

/// Formats `moves` played in turn from `root`, stopping at the first one that is not legal.
pub fn format_pv<P: Notation>(root: &P, moves: &[P::Move]) -> String {
    let mut pos = root.clone();
    let mut out = String::new();
    for &mv in moves {
        if pos.validate(&mv).is_err() {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&pos.format_move(mv));
        pos.make_move(mv);
    }
    out
}
