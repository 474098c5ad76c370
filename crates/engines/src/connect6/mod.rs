//! connect6 players (19×19 by default; any size the rules crate accepts).
//!
//! # Engine
//! A [`SearchAgent`] over [`EnginePosition`] (`search::Incremental` of the rules position and
//! [`WindowState`]) with [`Connect6Eval`]:
//! - **State** ([`state`]): every length-6 window with its stone count per colour, updated
//!   on the ≤ 24 windows through each stone; per colour the number of live windows holding
//!   1 to 6 of its stones and the number of *threats* (live windows with 4 or 5 own stones:
//!   two more stones make six there).
//! - **Evaluation** ([`engine::static_value`]): a threat of the side to move is a win next
//!   move; an opponent with more threats than two stones can block is a loss; otherwise
//!   the side to move's live windows weighed with its [`EvalWeights`] (`to_move`: its two
//!   stones about to be played make more of its 2- and 3-stone windows; without that
//!   initiative the score swung by ~1,900 between odd and even depths) minus the
//!   opponent's weighed as the waiting side's, minus the cost of the stones a forced block
//!   takes. The weights are data, fitted to game results ([`tune`]).
//! - **Threat logic** ([`threats`]): the effect of a pair (window counts, the threat windows
//!   it makes) summed over the ≤ 48 windows through its two squares, without placing it;
//!   the squares and pairs that make threats (3-stone and 2-stone windows).
//! - **Candidates** ([`engine::candidates`]), a short threat-ordered list at every node: our
//!   six if we can complete one with ≤ 2 stones; against opponent threats only pairs that
//!   block every threat window (forced defence: against two threats, pairs that answer
//!   both); a pair making threats that need three blockers alone (a win next turn);
//!   otherwise pairs of the [`engine::TOP_CELLS`] best cells, our threat-making squares and
//!   pairs inside our 2-stone windows, each scored by [`engine::pair_value`] (the value
//!   after it, double threats included) and cut to the best [`engine::MAX_PAIRS`].
//! - **Threat-space search** ([`engine::threat_space_search`]): continuous double threats
//!   (every attacking pair makes threats that need both defending stones; every blocking
//!   reply is tried; a pair making threats that need three stones wins). Attacking pairs
//!   come from the threat makers (pairs of threat-making squares, pairs inside 2-stone
//!   windows, a one-stone double threat with a building stone). It runs at the root with a
//!   large budget and at every interior node (`Evaluator::forced_win`) within a budget of
//!   pair tests.
//! - **Defence** ([`engine::threat_defence`], not in the search): where the opponent would
//!   win by continuous double threats if it were its turn, the pairs after which it no
//!   longer does (the candidates and pairs over the squares of its win). At the root it
//!   did not gain in two paired matches against the previous build (`docs/strength.md`,
//!   connect6, session 13); the diagnosis of the losses to Cloudict
//!   (`diagnose_connect6_losses`, an ignored test) and its proof test use it.
//!
//! # Baseline
//! See [`baseline`]: the article's depth-2 alpha-beta over pairs of radius-2 squares with
//! its run scores adapted to six.
//!
//! # Measured
//! See `docs/strength.md` (connect6): against the previous build +112 Elo at 100 ms a
//! move (SPRT accepted); `boardlab bench` 57,737 → 5,748 nodes at depth 4. The fitted
//! weights (session 11) against the build before them: +52 Elo [+18, +86] over 400 games
//! at 200 ms a move.

pub mod baseline;
pub mod engine;
pub mod state;
#[cfg(test)]
mod tests;
pub mod threats;
pub mod tune;

pub use baseline::{
    BASELINE_DEPTH, BaselineEval, BaselinePosition, BaselineState, baseline_candidates,
    baseline_eval, baseline_wrap, run_score,
};
pub use engine::{
    Connect6Eval, DefenceLimits, EVAL_WEIGHTS, EnginePosition, EvalWeights, HAND_WEIGHTS,
    TssLimits, threat_defence, threat_space_search, threat_space_search_for, wrap,
};
pub use state::WindowState;

use search::{OptionsError, SearchOptions};

use search::{Agent, SearchAgent};

use crate::EngineGame;

/// The game's position type.
pub type Position = rules_connect6::Connect6Position;

/// Positions for `boardlab bench`: (game spec, moves from the start): an opening, two
/// middle games with three-stone lines on both sides, a sharper one with open twos and
/// threes close together, and a 15×15 game.
pub const BENCH_POSITIONS: &[(&str, &str)] = &[
    ("connect6", "j10 k11,k9"),
    ("connect6", "j10 k11,k9 j11,j9 l10,h10 i12,i8"),
    ("connect6", "j10 k11,k9 i11,h12 l10,l8 j9,j8"),
    ("connect6", "j10 k10,k11 j11,i12 l12,m13 h11,h13"),
    ("connect6:size=15", "h8 i9,g7 h9,h7 i8,g9"),
];

/// Depth at which `boardlab bench` searches [`BENCH_POSITIONS`] (about 750–1,550 nodes
/// each).
pub const BENCH_DEPTH: u32 = 4;

impl EngineGame for Position {
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Position>>, OptionsError> {
        // Time is the caller's: a protocol's budget keeps its own reserve, and the root
        // threat-space search runs on the move's clock (under its own deadline).
        Ok(Box::new(SearchAgent::new(
            "engine",
            Connect6Eval::default(),
            options,
            wrap,
        )?))
    }

    fn baseline() -> Result<Box<dyn Agent<Position>>, OptionsError> {
        search::baseline_agent(
            BaselineEval,
            SearchOptions::plain_alpha_beta().with_root_tie_break(false),
            baseline_wrap,
            BASELINE_DEPTH,
        )
    }
}
