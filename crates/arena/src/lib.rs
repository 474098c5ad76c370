//! Matches between boardlab agents.
//!
//! A match is a series of **pairs**: both games of a pair start from the same opening (a few
//! random legal moves drawn from the match seed, different for every pair) with the agents'
//! colours swapped, so neither side profits from a lucky opening or the first move.
//! Everything is deterministic under the seed when the agents are (fixed depth, or the
//! single-threaded engine with node limits).

mod balance;
mod game;
mod report;
mod selfplay;
pub mod sprt;
pub mod stats;

pub use balance::BalanceStats;
pub use game::{GameRecord, MoveTiming, play_game, random_opening};
pub use report::{MatchReport, Side, Tally};
pub use selfplay::{
    PlayedGame, SelfplayError, SelfplaySettings, SelfplaySummary, play_indexed, records_text,
    run_selfplay, split_records,
};

use std::time::Duration;

use engines::{AgentKind, EngineGame};
use search::{Limits, OptionsError, SearchOptions};

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Number of games (rounded up to whole pairs).
    pub games: usize,
    /// Per-move budget.
    pub budget: Budget,
    /// Random legal moves played before the agents take over.
    pub opening_plies: u32,
    /// Seeds the openings and the agents.
    pub seed: u64,
    /// Engine hash size (MiB) per agent.
    pub hash_mb: usize,
    /// A game still going after this many plies is scored a draw (a guard; every game here
    /// ends by its own rules first).
    pub max_plies: u32,
}

impl Default for MatchSettings {
    fn default() -> Self {
        MatchSettings {
            games: 2,
            budget: Budget::Time(Duration::from_millis(100)),
            opening_plies: 2,
            seed: 1,
            hash_mb: 16,
            max_plies: 2_000,
        }
    }
}

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
            Budget::Time(t) => Limits::new()
                .with_soft_time(t * 6 / 10)
                .with_hard_time(t * 95 / 100),
            Budget::Depth(d) => Limits::new().with_depth(d),
            Budget::Nodes(n) => Limits::new().with_nodes(n),
        }
    }
}

/// Plays a match of `a` against `b` under `config`, calling `on_game` after every game.
pub fn run_match<P: EngineGame>(
    config: &P::Config,
    a: AgentKind,
    b: AgentKind,
    settings: &MatchSettings,
    mut on_game: impl FnMut(&GameRecord<P>),
) -> Result<MatchReport, OptionsError> {
    let pairs = settings.games.div_ceil(2).max(1);
    let mut report = MatchReport::new(a.to_string(), b.to_string());
    for pair in 0..pairs {
        let pair_seed = settings
            .seed
            .wrapping_add(pair as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let opening = random_opening(&P::new(config.clone()), settings.opening_plies, pair_seed);
        for swap in [false, true] {
            let options = SearchOptions::default()
                .with_hash_mb(settings.hash_mb)?
                .with_seed(pair_seed ^ swap as u64);
            let mut agent_a = a.build::<P>(options.clone())?;
            let mut agent_b = b.build::<P>(options.with_seed(!pair_seed))?;
            let (first, second) = if swap {
                (&mut agent_b, &mut agent_a)
            } else {
                (&mut agent_a, &mut agent_b)
            };
            let record = play_game(
                P::new(config.clone()),
                &opening,
                [first.as_mut(), second.as_mut()],
                &settings.budget.limits(),
                settings.max_plies,
            );
            let a_side = if swap { Side::Second } else { Side::First };
            report.add(&record, a_side);
            on_game(&record);
        }
    }
    Ok(report)
}
