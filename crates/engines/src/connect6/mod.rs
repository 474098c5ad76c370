//! connect6 players (19×19 by default; any size the rules crate accepts).
//!
//! # Engine
//! A [`SearchAgent`] over [`EnginePosition`] (`search::Incremental` of the rules position and
//! [`WindowState`]) with [`Connect6Eval`]:
//! - **State** ([`state`]): every length-6 window with its stone count per colour, updated
//!   on the ≤ 24 windows through each stone; per colour the sum of live-window weights
//!   ([`state::WINDOW_WEIGHTS`]) and the number of *threats* (live windows with 4 or 5 own
//!   stones: two more stones make six there).
//! - **Evaluation** ([`engine::static_value`]): a threat of the side to move is a win next
//!   move; an opponent with more threats than two stones can block is a loss; otherwise own
//!   window score minus the opponent's, minus a penalty for the stones a forced block costs.
//! - **Candidates** ([`engine::candidates`]): our six if we can complete one with ≤ 2
//!   stones; else, against opponent threats, only pairs that block every threat window
//!   (built from the threat squares plus the best cells); else all pairs of the
//!   [`engine::TOP_CELLS`] best cells by cell value (attack: what a stone adds to our live
//!   windows; defence: what it removes from the opponent's), best sum first. Pairs are
//!   canonical (`Move::pair`), so each is listed once.
//! - **Threat-space search** ([`engine::threat_space_search`]): continuous double threats
//!   (every attacking pair makes threats that need both defending stones; every blocking
//!   reply is tried; a pair making threats that need three stones wins), at the root with a
//!   large budget and at interior nodes via `Evaluator::forced_win` with a small one.
//!
//! # Baseline
//! See [`baseline`]: the article's depth-2 alpha-beta over pairs of radius-2 squares with
//! its run scores adapted to six.
//!
//! # Measured (release, 2 shared cores, load average 6–17)
//! `boardlab match connect6 --a engine --b baseline --games 2 --time 100 --seed N`, N = 1–4:
//! 8–0 in total (games of 13–24 plies); engine max move time 100.5 / 113.7 ms with the
//! time margin (138.8 / 174.7 ms before it, at load 17); baseline mean 2–29 s per move,
//! max 10–200 s (depth 2 over ~1,000–5,000 pairs, every root pair that ties the best
//! searched in full by the search's tie-break). Engine speed: 66–95 k nodes per CPU second
//! (22,940 nodes at depth 4 on the opening bench position in 0.24 s CPU).

pub mod baseline;
pub mod engine;
pub mod state;
#[cfg(test)]
mod tests;

pub use baseline::{
    BASELINE_DEPTH, BaselineEval, BaselinePosition, BaselineState, baseline_candidates,
    baseline_eval, baseline_wrap, run_score,
};
pub use engine::{Connect6Eval, EnginePosition, threat_space_search, wrap};
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

/// Depth at which `boardlab bench` searches [`BENCH_POSITIONS`] (each about 0.1–0.25 s of
/// CPU single-threaded in release; 4,000–23,000 nodes).
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
