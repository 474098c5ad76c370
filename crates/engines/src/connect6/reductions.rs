//! Late-move reductions for the connect6 search: which candidate pairs the search tries a
//! turn shallower first (through `Evaluator::late_move_reduction`; the search re-searches
//! at full depth any pair whose reduced search beats alpha).
//!
//! Measured before the rule was chosen (`docs/strength.md`, connect6, session 14: 20
//! positions from Cloudict's book, searches to depth 6): 96% of the cutoffs come from the
//! first pair searched, and 72% of the nodes that search a second pair search every pair of
//! their list without a cutoff, each at full depth. From the fourth pair searched on, a
//! pair that makes a threat of ours cuts off about 3% of the time, a pair that makes none
//! about 1.5%, a blocking pair of a node the opponent's threats force about 1%. So the
//! rule reduces quiet pairs late in the list and never a pair whose point may only show
//! deep: a pair that makes a threat (the start of a threat sequence), or any pair of a
//! node where the opponent has a threat on the board (every candidate there is a forced
//! block).

use board_core::{Player, Square};
use rules_connect6::Move;

use super::state::WindowState;
use super::threats::{PairEffect, pair_effect};

/// Pairs a node searches at full depth before any is reduced: the first pair (the table's,
/// or the best by the value after it) and the next two, which between them make 5% of the
/// cutoffs (the first makes 96%); later pairs cut off at 1-3% each.
pub const FULL_DEPTH_PAIRS: usize = 3;

/// The reduction of a late quiet pair, in turns (pairs): one, so a node's quiet tail is
/// searched one pair-turn shallower (the search caps it so that at least one turn is
/// left).
pub const QUIET_REDUCTION: u32 = 1;

/// From this many pairs searched on (the second half of a full list of 16), a quiet pair is
/// reduced by [`DEEP_REDUCTION`]: those pairs cut off less than 1% of the time.
pub const DEEP_REDUCTION_PAIRS: usize = 8;

/// The reduction of a quiet pair from the [`DEEP_REDUCTION_PAIRS`]-th on, in turns.
pub const DEEP_REDUCTION: u32 = 2;

/// The reduction for the pair `mv` of `me` (the side to move in `st`), at a node that has
/// searched `searched` pairs already: [`QUIET_REDUCTION`] for a quiet pair from the
/// [`FULL_DEPTH_PAIRS`]-th on, 0 otherwise. A pair is quiet when the opponent has no threat
/// on the board (no block is forced) and the pair makes no threat of ours (no live window
/// of 4 or 5 of our stones through either of its stones). A single stone (the game's first
/// move) is never reduced.
pub fn late_move_reduction(st: &WindowState, me: Player, mv: Move, searched: usize) -> u32 {
    if searched < FULL_DEPTH_PAIRS || st.threats[me.other().index()] > 0 {
        return 0;
    }
    let Some(second) = mv.second() else {
        return 0;
    };
    if makes_threat(st, me, mv.first(), second) {
        0
    } else if searched >= DEEP_REDUCTION_PAIRS {
        DEEP_REDUCTION
    } else {
        QUIET_REDUCTION
    }
}

/// Whether `me`'s stones on `a` and `b` make a threat (a live window of 4 or 5 of `me`'s
/// stones, or a six, through either of them).
fn makes_threat(st: &WindowState, me: Player, a: Square, b: Square) -> bool {
    let mut eff = PairEffect::default();
    pair_effect(st, me, a, b, &mut eff);
    !eff.threats.is_empty()
}
