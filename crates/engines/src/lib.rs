//! boardlab's players for each game, behind one [`Agent`] trait:
//! - the strong **engine**: a game-specific evaluator, move ordering and threat search
//!   plugged into the generic [`search`] crate;
//! - the **baseline**: exactly the simple fixed-depth alpha-beta AI the source articles
//!   describe, kept as the yardstick (never weaken it);
//! - a seeded **random** player.
//!
//! [`EngineGame`] is implemented for each rules crate's position type; [`with_game!`] maps a
//! game id to that type so callers (the `boardlab` binary, protocols, self-play) write their
//! code once, generically.

pub mod agent;
pub mod amazons;
pub mod clamp;
pub mod connect6;
pub mod fourshift;
pub mod gomoku;
mod registry;
#[cfg(test)]
mod test_support;

use std::{fmt, str::FromStr};

pub use agent::{Agent, RandomAgent, SearchAgent, baseline_agent};
use board_core::Position;
pub use registry::GAME_IDS;
use search::{OptionsError, SearchOptions};

/// A game boardlab ships players for.
pub trait EngineGame: Position {
    /// The strong engine, searching under `options` (hash size, threads, seed).
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Self>>, OptionsError>;

    /// The source articles' simple AI (fixed depth, their evaluation, no table).
    fn baseline() -> Box<dyn Agent<Self>>;
}

/// Which player to build, as named on command lines (`engine`, `baseline`, `random`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    Engine,
    Baseline,
    Random,
}

impl AgentKind {
    pub const ALL: [AgentKind; 3] = [AgentKind::Engine, AgentKind::Baseline, AgentKind::Random];

    /// Builds the player for game `P`. `options` configures the engine (its seed also seeds
    /// the random player).
    pub fn build<P: EngineGame>(
        self,
        options: SearchOptions,
    ) -> Result<Box<dyn Agent<P>>, OptionsError> {
        match self {
            AgentKind::Engine => P::engine(options),
            AgentKind::Baseline => Ok(P::baseline()),
            AgentKind::Random => Ok(Box::new(RandomAgent::new(options.seed()))),
        }
    }
}

impl fmt::Display for AgentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AgentKind::Engine => "engine",
            AgentKind::Baseline => "baseline",
            AgentKind::Random => "random",
        })
    }
}

/// An unknown player name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player '{0}': expected engine, baseline or random")]
pub struct UnknownAgent(pub String);

impl FromStr for AgentKind {
    type Err = UnknownAgent;
    fn from_str(s: &str) -> Result<AgentKind, UnknownAgent> {
        AgentKind::ALL
            .into_iter()
            .find(|k| k.to_string().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownAgent(s.chars().take(32).collect()))
    }
}
