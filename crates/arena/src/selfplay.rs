//! Self-play tournaments: many games in parallel, in colour-swapped pairs from shared random
//! openings, summarised for a game designer (who wins, from which seat, how long games last).

use std::{collections::BTreeMap, fmt, sync::Mutex};

use board_core::{Outcome, Player, savefile};
use engines::{AgentKind, EngineGame};
use rayon::prelude::*;
use search::{OptionsError, SearchOptions};

use crate::{
    Budget,
    balance::BalanceStats,
    game::{GameRecord, play_game, random_opening},
    report::Tally,
    stats::{elo_95, wilson_95},
};

/// How a tournament is played.
#[derive(Clone, Debug)]
pub struct SelfplaySettings {
    /// Games to play (rounded up to whole pairs).
    pub games: usize,
    pub a: AgentKind,
    pub b: AgentKind,
    pub budget: Budget,
    /// Random legal moves before the agents take over (same for both games of a pair).
    pub opening_plies: u32,
    pub seed: u64,
    /// Games played at once (each game's search is single-threaded).
    pub threads: usize,
    /// Engine hash size (MiB) per agent.
    pub hash_mb: usize,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: u32,
}

impl Default for SelfplaySettings {
    fn default() -> Self {
        SelfplaySettings {
            games: 100,
            a: AgentKind::Engine,
            b: AgentKind::Engine,
            budget: Budget::Depth(2),
            opening_plies: 2,
            seed: 1,
            threads: 1,
            hash_mb: 8,
            max_plies: 2_000,
        }
    }
}

/// One game of a tournament.
#[derive(Clone, Debug)]
pub struct PlayedGame<P: board_core::Position> {
    /// Index in the tournament (pairs are 2k, 2k+1).
    pub index: usize,
    /// Which colour A had.
    pub a_side: Player,
    pub record: GameRecord<P>,
}

/// The seed of game `index`'s opening (shared by both games of a pair).
fn pair_seed(seed: u64, pair: usize) -> u64 {
    seed.wrapping_add(pair as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ 0xB0A2_D1AB
}

/// Plays game `index` of a tournament: deterministic in (settings, index) for fixed-depth or
/// node budgets.
pub fn play_indexed<P: EngineGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
    index: usize,
) -> Result<PlayedGame<P>, OptionsError> {
    let seed = pair_seed(settings.seed, index / 2);
    let a_side = if index.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    let start = P::new(config.clone());
    let opening = random_opening(&start, settings.opening_plies, seed);
    let options = |salt: u64| -> Result<SearchOptions, OptionsError> {
        Ok(SearchOptions::default()
            .with_hash_mb(settings.hash_mb)?
            .with_threads(1)?
            .with_seed(seed ^ salt))
    };
    let mut a = settings.a.build::<P>(options(0xA)?)?;
    let mut b = settings.b.build::<P>(options(0xB)?)?;
    let agents: [&mut dyn engines::Agent<P>; 2] = match a_side {
        Player::First => [a.as_mut(), b.as_mut()],
        Player::Second => [b.as_mut(), a.as_mut()],
    };
    let record = play_game(
        start,
        &opening,
        agents,
        &settings.budget.limits(),
        settings.max_plies,
    );
    Ok(PlayedGame {
        index,
        a_side,
        record,
    })
}

/// Plays a whole tournament on `settings.threads` threads, calling `progress` after each
/// game (from any thread). Games come back in index order.
pub fn run_selfplay<P: EngineGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
    progress: impl Fn() + Sync,
) -> Result<Vec<PlayedGame<P>>, SelfplayError> {
    let games = settings.games.div_ceil(2).max(1) * 2;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads.clamp(1, 256))
        .build()
        .map_err(|e| SelfplayError(e.to_string()))?;
    let failure = Mutex::new(None);
    let mut played: Vec<PlayedGame<P>> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .filter_map(|i| match play_indexed::<P>(config, settings, i) {
                Ok(game) => {
                    progress();
                    Some(game)
                }
                Err(e) => {
                    if let Ok(mut slot) = failure.lock() {
                        *slot = Some(e.to_string());
                    }
                    None
                }
            })
            .collect()
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(SelfplayError(e));
    }
    played.sort_by_key(|g| g.index);
    Ok(played)
}

/// A tournament that could not be run (bad options, no thread pool).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfplayError(pub String);

impl fmt::Display for SelfplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "self-play failed: {}", self.0)
    }
}

impl std::error::Error for SelfplayError {}

/// What a tournament says about the players and the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfplaySummary {
    pub a: String,
    pub b: String,
    pub games: u32,
    /// A's results overall and with each colour.
    pub a_total: Tally,
    pub a_first: Tally,
    pub a_second: Tally,
    /// Wins by whoever moved first / second, and draws.
    pub first_wins: u32,
    pub second_wins: u32,
    pub draws: u32,
    pub first_player_win_rate: f64,
    pub first_player_ci95: (f64, f64),
    /// Elo of A over B with its 95% interval.
    pub elo: f64,
    pub elo_ci95: (f64, f64),
    pub mean_length: f64,
    pub median_length: f64,
    /// Game-specific statistics, averaged per game.
    pub balance: BTreeMap<&'static str, f64>,
}

impl SelfplaySummary {
    pub fn new<P: BalanceStats>(a: &str, b: &str, games: &[PlayedGame<P>]) -> SelfplaySummary {
        let mut s = SelfplaySummary {
            a: a.to_string(),
            b: b.to_string(),
            games: games.len() as u32,
            a_total: Tally::default(),
            a_first: Tally::default(),
            a_second: Tally::default(),
            first_wins: 0,
            second_wins: 0,
            draws: 0,
            first_player_win_rate: 0.0,
            first_player_ci95: (0.0, 1.0),
            elo: 0.0,
            elo_ci95: (-1000.0, 1000.0),
            mean_length: 0.0,
            median_length: 0.0,
            balance: BTreeMap::new(),
        };
        let mut lengths = Vec::with_capacity(games.len());
        for g in games {
            let outcome = g.record.outcome;
            s.a_total.add(outcome, g.a_side);
            match g.a_side {
                Player::First => s.a_first.add(outcome, g.a_side),
                Player::Second => s.a_second.add(outcome, g.a_side),
            }
            match outcome {
                Outcome::Win(Player::First) => s.first_wins += 1,
                Outcome::Win(Player::Second) => s.second_wins += 1,
                Outcome::Draw => s.draws += 1,
            }
            lengths.push(g.record.moves.len() as f64);
            for (name, value) in P::balance_stats(&g.record) {
                *s.balance.entry(name).or_insert(0.0) += value;
            }
        }
        let n = games.len().max(1) as f64;
        for v in s.balance.values_mut() {
            *v /= n;
        }
        s.first_player_win_rate = s.first_wins as f64 / n;
        s.first_player_ci95 = wilson_95(s.first_wins, games.len() as u32);
        let (elo, lo, hi) = elo_95(s.a_total.wins, s.a_total.draws, s.a_total.losses);
        s.elo = elo;
        s.elo_ci95 = (lo, hi);
        lengths.sort_by(f64::total_cmp);
        s.mean_length = lengths.iter().sum::<f64>() / n;
        s.median_length = match lengths.len() {
            0 => 0.0,
            l if l % 2 == 1 => lengths[l / 2],
            l => (lengths[l / 2 - 1] + lengths[l / 2]) / 2.0,
        };
        s
    }

    /// The summary as a JSON object (stable keys, see `docs/balance.md`).
    pub fn to_json(&self) -> String {
        let tally = |t: &Tally| {
            format!(
                r#"{{"wins":{},"draws":{},"losses":{}}}"#,
                t.wins, t.draws, t.losses
            )
        };
        let balance: Vec<String> = self
            .balance
            .iter()
            .map(|(k, v)| format!(r#""{k}":{}"#, json_number(*v)))
            .collect();
        format!(
            concat!(
                r#"{{"a":"{}","b":"{}","games":{},"a_wins":{},"b_wins":{},"draws":{},"#,
                r#""a_first":{},"a_second":{},"first_wins":{},"second_wins":{},"#,
                r#""first_player_win_rate":{},"first_player_ci95":[{},{}],"#,
                r#""elo":{},"elo_ci95":[{},{}],"mean_length":{},"median_length":{},"balance":{{{}}}}}"#
            ),
            self.a,
            self.b,
            self.games,
            self.a_total.wins,
            self.a_total.losses,
            self.a_total.draws,
            tally(&self.a_first),
            tally(&self.a_second),
            self.first_wins,
            self.second_wins,
            json_number(self.first_player_win_rate),
            json_number(self.first_player_ci95.0),
            json_number(self.first_player_ci95.1),
            json_number(self.elo),
            json_number(self.elo_ci95.0),
            json_number(self.elo_ci95.1),
            json_number(self.mean_length),
            json_number(self.median_length),
            balance.join(",")
        )
    }
}

fn json_number(v: f64) -> String {
    if v.is_finite() {
        format!("{:.4}", v)
    } else {
        "null".into()
    }
}

impl fmt::Display for SelfplaySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} (A) vs {} (B), {} games", self.a, self.b, self.games)?;
        writeln!(
            f,
            "{:<12} {:>6} {:>6} {:>6} {:>7}",
            "A as", "wins", "draws", "losses", "score"
        )?;
        for (label, t) in [
            ("first", &self.a_first),
            ("second", &self.a_second),
            ("total", &self.a_total),
        ] {
            writeln!(
                f,
                "{label:<12} {:>6} {:>6} {:>6} {:>6.1}%",
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score()
            )?;
        }
        writeln!(
            f,
            "A: {} wins, B: {} wins, {} draws",
            self.a_total.wins, self.a_total.losses, self.a_total.draws
        )?;
        writeln!(
            f,
            "first player wins {:.1}% (95% CI {:.1}-{:.1}%), second {:.1}%, draws {:.1}%",
            100.0 * self.first_player_win_rate,
            100.0 * self.first_player_ci95.0,
            100.0 * self.first_player_ci95.1,
            100.0 * self.second_wins as f64 / self.games.max(1) as f64,
            100.0 * self.draws as f64 / self.games.max(1) as f64
        )?;
        writeln!(
            f,
            "Elo A-B: {:+.0} (95% CI {:+.0} to {:+.0})",
            self.elo, self.elo_ci95.0, self.elo_ci95.1
        )?;
        writeln!(
            f,
            "game length: mean {:.1} plies, median {:.1}",
            self.mean_length, self.median_length
        )?;
        for (name, value) in &self.balance {
            writeln!(f, "{name}: {value:.3} per game")?;
        }
        Ok(())
    }
}

/// Every game in the save format, one block per game, each headed by a comment line with its
/// index, colours and result; blocks are separated by a blank line. [`split_records`] cuts
/// such a file back into loadable save files.
pub fn records_text<P: board_core::Position>(games: &[PlayedGame<P>]) -> String {
    let mut out = String::new();
    for g in games {
        out.push_str(&format!(
            "# game {}: {} (first) vs {} (second): {}\n",
            g.index + 1,
            g.record.players[0],
            g.record.players[1],
            g.record.reason
        ));
        out.push_str(&savefile::save::<P>(&g.record.config, &g.record.moves));
        out.push('\n');
    }
    out
}

/// Splits a records file into one save file per game (see
/// [`board_core::savefile::split_records`]).
pub fn split_records(text: &str) -> Vec<String> {
    savefile::split_records(text)
}
