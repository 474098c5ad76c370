//! boardlab's per-game strategy: for each bundled game, behind the [`search::Agent`] trait,
//! - the strong **engine**: a game-specific evaluator, move ordering and threat search
//!   plugged into the generic [`search`] crate;
//! - the **baseline**: exactly the simple fixed-depth alpha-beta AI the source articles
//!   describe, kept as the yardstick (never weaken it);
//! - a seeded **random** player.
//!
//! Every game has the same layout: `mod.rs` (the players, [`EngineGame`]), `engine.rs` (the
//! strong engine's evaluator and search hooks), `baseline.rs` (the article's AI), and where
//! the game has one a threat search. The generic player machinery ([`search::Agent`],
//! [`search::SearchAgent`], [`search::RandomAgent`]) lives beside the search; the list of
//! games and the dispatch over it live in the games table (`boardlab-games`).

#![deny(missing_docs)]

pub mod amazons;
pub mod clamp;
pub mod connect6;
pub mod failures;
pub mod fourshift;
pub mod gomoku;
#[cfg(test)]
mod test_support;
pub mod tune;

use board_core::Position;
use search::{Agent, OptionsError, SearchOptions};

/// A game boardlab ships players for.
pub trait EngineGame: Position {
    /// The strong engine, searching under `options` (hash size, threads, seed).
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Self>>, OptionsError>;

    /// The source articles' simple AI (fixed depth, their evaluation, no table). Options
    /// the searcher refuses are an error, never a stand-in player.
    fn baseline() -> Result<Box<dyn Agent<Self>>, OptionsError>;
}
