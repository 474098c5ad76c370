//! Reusable evaluators for boardlab games (placeholder docs, rewritten below).

mod error;
mod util;
pub mod windows;

pub use error::EvalError;
pub use windows::{KWindows, WindowScorer, WindowWeights, window_count};
pub mod patterns;
pub use patterns::{
    FoundPattern, LinePatterns, LineReport, Pattern, PatternCounts, PatternWeights, Probe, Rule,
    analyze_line,
};
pub mod amazons;
pub mod mobility;
