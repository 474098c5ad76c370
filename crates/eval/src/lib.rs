//! Reusable evaluators for boardlab games. The crate knows no rules and no single game:
//! evaluators take a
//! [`Geometry`](board_core::Geometry), square sets ([`SquareSet`](board_core::SquareSet)) and
//! updates (a piece of a player placed on or removed from a square), so each game drives
//! them from its own make/unmake.
//!
//! | module | what | used by |
//! |---|---|---|
//! | [`windows`] | every length-`k` window with per-player counts and a weight per count, incremental ([`WindowScorer`]) | fourshift (`k = 4`, [`WindowWeights::fourshift`]); gomoku and connect6 as a cheap alternative |
//! | [`patterns`] | fives, open/closed fours, open/broken/closed threes, open/closed twos per colour, incremental over the 4 lines through a move ([`LinePatterns`]), placement probes for move ordering and VCF | gomoku (`k = 5`, [`Rule::Freestyle`] or [`Rule::Exact`]), connect6 (`k = 6`) |
//! | [`mobility`] | queen-move and 1–2-square step counts through empty squares | amazons, clamp |
//! | [`cells`] | windows and mobility read from any game's [`View`](board_core::View) cells, weighted ([`CellEvaluator`]) | a game of your own (the tutorial's Connect Four) |
//!
//! **The evaluator rule:** this crate holds only evaluators more than one game can use
//! (windows, line patterns, mobility) and the input checks they share ([`check_set`],
//! [`check_pair`]). An evaluator written for one game — its terms, its weights, its
//! territory maps — lives with that game's strategy in `engines` (for example
//! `engines::amazons::distances` and `engines::clamp::terms`).
//!
//! Conventions:
//! - Every score is from `First`'s point of view (First's value minus Second's); the
//!   `score_for` methods flip it for the other side.
//! - Weights are configurable everywhere; the defaults are starting points, not tuned values.
//! - No function panics on caller input: board sizes, `k`, weight tables, squares and sets
//!   are checked and refused with an [`EvalError`].
//! - Tables that depend only on the board and `k` (windows, lines) are built once and shared.
//!
//! ```
//! use board_core::{Geometry, Player};
//! use boardlab_eval::{KWindows, WindowScorer, WindowWeights};
//!
//! // fourshift: drive the scorer from make/unmake.
//! let g = Geometry::square(6)?;
//! let mut eval = WindowScorer::new(KWindows::new(g, 4)?, &WindowWeights::fourshift())?;
//! let d3 = g.parse_square("d3")?;
//! eval.place(Player::First, d3)?;     // make
//! assert!(eval.score() > 0);
//! eval.remove(Player::First, d3)?;    // unmake
//! assert_eq!(eval.score(), 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod cells;
mod error;
pub mod mobility;
pub mod patterns;
pub mod tune;
mod util;
pub mod windows;

pub use cells::CellEvaluator;
pub use error::EvalError;
pub use patterns::{
    FoundPattern, LinePatterns, LineReport, Pattern, PatternCounts, PatternWeights, Probe, Rule,
    analyze_line,
};
pub use util::{check_pair, check_set};
pub use windows::{KWindows, WindowScorer, WindowWeights, window_count};
