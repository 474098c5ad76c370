//! gomoku players (15×15 and 20×20, `freestyle` and `exact5`).
//!
//! # Engine
//! A [`SearchAgent`] over [`EnginePosition`] (`search::Incremental` of the rules position
//! and [`GomokuState`]) with [`GomokuEval`]:
//! - **State**: `eval::LinePatterns` (fives, open/closed fours, open/broken/closed threes,
//!   twos, five points, per colour; `Rule::Exact` under `exact5`) updated on the four lines
//!   through each move, and per square the number of stones within distance 2.
//! - **Evaluation** ([`engine::static_value`]): a five point of the side to move is a win
//!   next move; an open four or two fours of the opponent is lost; an open three of the side
//!   to move (opponent without a four) becomes an open four; otherwise weighted pattern
//!   counts (own weighted higher: it is our turn), minus a double-open-three term.
//! - **Candidates**: our five if we have one; else every square blocking an opponent five
//!   point (only blocks: our own four would not stop the opponent's five); else, against an
//!   opponent open three, only squares where either side makes a four (the blocks of the
//!   three and our counter-fours); else the [`engine::MAX_CANDIDATES`] best empty squares
//!   within Chebyshev distance 2 of a stone, by threat value (what a stone there makes for
//!   us plus 4/5 of what it would make for the opponent, from a 3^10-entry table of line
//!   neighbourhoods built from the `eval` pattern definitions).
//! - **Ordering**: the same threat value as a move hint (ahead of killers/history).
//! - **Threat search**: VCF (continuous fours, each with its single forced reply, the
//!   defender's counter-fours respected) at the root (a few thousand nodes, failed
//!   positions memoised) and through `Evaluator::forced_win` at interior nodes (budget
//!   `6·depth²` nodes, from depth 2).
//!
//! # Baseline
//! See [`baseline`]: the article's depth-4 alpha-beta over radius-2 candidates with its run
//! scores.

mod baseline;
mod classes;
mod engine;
#[cfg(test)]
mod tests;

pub use baseline::{BASELINE_DEPTH, BaselineEval, baseline_candidates, baseline_eval, run_score};
pub use engine::{EnginePosition, GomokuEval, GomokuState, MAX_CANDIDATES, find_vcf, wrap};
use search::{OptionsError, SearchOptions};

use crate::{Agent, EngineGame, SearchAgent};

/// The game's position type.
pub type Position = rules_gomoku::GomokuPosition;

/// Positions for `boardlab bench`: (game spec, moves from the start).
pub const BENCH_POSITIONS: &[(&str, &str)] = &[
    ("gomoku", "h8 i9 g9 i7 i8 g7"),
    ("gomoku", "h8 h9 i9 g7 j10 k11 i8 i10 g8 j8 f8 e8 h7"),
    ("gomoku:size=20", "k10 l11 j11 l9 l10 j10 k11 k12 m10"),
    ("gomoku:rule=exact5", "h8 h9 g9 i7 i9 g8 f10 e11 j8"),
];

/// Depth at which `boardlab bench` searches [`BENCH_POSITIONS`].
pub const BENCH_DEPTH: u32 = 8;

impl EngineGame for Position {
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Position>>, OptionsError> {
        Ok(Box::new(SearchAgent::new(
            "engine",
            GomokuEval::new(),
            options,
            wrap,
        )?))
    }

    fn baseline() -> Box<dyn Agent<Position>> {
        // `plain_alpha_beta` builds valid options; `SearchAgent::new` only fails on an
        // impossible table allocation, which plain alpha-beta does not make.
        match SearchAgent::new(
            "baseline",
            BaselineEval,
            SearchOptions::plain_alpha_beta(),
            Position::clone,
        ) {
            Ok(agent) => Box::new(agent.with_fixed_depth(BASELINE_DEPTH)),
            Err(_) => Box::new(crate::RandomAgent::new(0)),
        }
    }
}
