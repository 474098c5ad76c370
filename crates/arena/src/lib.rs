//! Matches and tournaments between boardlab agents and external engines.
//!
//! A match is a series of **pairs**: both games of a pair start from the same opening (a few
//! random legal moves drawn from the match seed, different for every pair, or a line of an
//! opening [`book`]) with the agents' colours swapped, so neither side profits from a lucky
//! opening or the first move.
//! Everything is deterministic under the seed when the agents are (fixed depth, or the
//! single-threaded engine with node limits), so a tournament can be split into shards on
//! many machines and merged back ([`merge`]) into exactly the one-machine report.

#![deny(missing_docs)]

pub mod book;
pub mod external;
mod game;
pub mod merge;
mod player;
pub mod plot;
mod report;
mod selfplay;
pub mod sequential;
pub mod sprt;
pub mod stats;

pub use book::{OpeningBook, Openings};
pub use game::{GameRecord, MoveTiming, play_game, play_players, random_opening};
pub use player::{AgentPlayer, Contestant, Fault, OwnedAgent, PlayerSpec, UnknownPlayer};
pub use report::{MatchReport, Side, Tally};
pub use selfplay::{
    ArenaGame, GameResult, PlayedGame, ReplayedOpenings, SelfplayError, SelfplaySettings,
    SelfplaySummary, Shard, SprtStatus, Tournament, play_games, play_games_counting, play_indexed,
    records_text, run_selfplay, run_tournament, run_tournament_counting, split_records,
};

use std::{fmt, time::Duration};

use search::Limits;

/// The thinking budget per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Wall time per move: the engine plans to stop at 60% and must stop by 95% of it.
    Time(Duration),
    /// Fixed search depth.
    Depth(u32),
    /// Node count per move (deterministic).
    Nodes(u64),
}

impl Budget {
    /// The search limits for one move.
    pub fn limits(self) -> Limits {
        match self {
            // The search's shared time manager, as for every in-process player.
            Budget::Time(t) => Limits::new().with_move_time(t),
            Budget::Depth(d) => Limits::new().with_depth(d),
            Budget::Nodes(n) => Limits::new().with_nodes(n),
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Time(t) => write!(f, "time {} ms", t.as_millis()),
            Budget::Depth(d) => write!(f, "depth {d}"),
            Budget::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}
