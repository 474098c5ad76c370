//! Tournaments: many games in parallel, in colour-swapped pairs from shared random
//! openings, optionally split into shards (for many machines) or stopped by an SPRT; used by
//! both `selfplay` (summarised for a game designer) and `match` (for an engine author).

use std::{
    collections::BTreeMap,
    fmt,
    str::FromStr,
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
        mpsc,
    },
    thread,
    time::Duration,
};

use board_core::{Outcome, Player, savefile};
use boardlab_games::Game;
use search::{AgentKind, SearchOptions};

use crate::{
    Budget,
    book::Openings,
    external::{ExternalLimits, Protocol, check_command, check_protocol, external_player},
    game::{GameRecord, MoveTiming, play_players},
    player::{Contestant, Fault, OwnedAgent, PlayerSpec},
    report::Tally,
    sprt::{Pentanomial, Sprt, SprtDecision},
    stats::{elo_95, median, signed_elo, wilson_95},
};

/// Everything a tournament needs of a game: its players and balance figures (the games
/// table's [`Game`]). The wire formats of external engines come with their protocols
/// ([`external::pbrain_codec`](crate::external::pbrain_codec)), so every [`Game`] is one.
pub trait ArenaGame: Game {}

impl<P: Game> ArenaGame for P {}

/// Which part of a tournament one process plays: shard `index` of `count` (1-based) plays
/// the games numbered `index`, `index + count`, … (numbering from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard this is, 1-based: `1 <= index <= count`.
    pub index: u32,
    /// How many shards the tournament is split into (at least 1).
    pub count: u32,
}

impl Shard {
    /// The whole tournament.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// The 0-based indices of this shard's games in a tournament of `games` games.
    pub fn games(&self, games: usize) -> impl Iterator<Item = usize> {
        (self.index as usize - 1..games).step_by(self.count as usize)
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::ALL
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Reads `K/N` with 1 ≤ K ≤ N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "bad shard '{}': expected K/N with 1 <= K <= N",
                s.chars().take(32).collect::<String>()
            )
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse::<u32>().map_err(|_| bad())?,
            n.trim().parse::<u32>().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// How a tournament is played.
#[derive(Clone, Debug)]
pub struct SelfplaySettings {
    /// Games to play (rounded up to whole pairs).
    pub games: usize,
    /// Player A, whose point of view the results take (first in even-numbered games).
    pub a: PlayerSpec,
    /// Player B, A's opponent.
    pub b: PlayerSpec,
    /// The thinking budget of every move, for both players.
    pub budget: Budget,
    /// The opening each pair starts from (the same for both games of a pair): random legal
    /// plies or a book's lines.
    pub openings: Openings,
    /// The tournament seed: with the pair number it fixes each pair's opening and the
    /// players' own seeds.
    pub seed: u64,
    /// Games played at once (each game's search is single-threaded).
    pub threads: usize,
    /// Engine hash size (MiB) per agent.
    pub hash_mb: usize,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: u32,
    /// The part of the tournament to play.
    pub shard: Shard,
    /// Stop when this test decides (pairs are judged in order; not with shards).
    pub sprt: Option<Sprt>,
    /// Slack for external engines on a time budget (see [`ExternalLimits`]).
    pub tolerance: Duration,
    /// The limit on an external engine's move under a depth or node budget.
    pub untimed_move: Duration,
}

impl Default for SelfplaySettings {
    fn default() -> Self {
        let external = ExternalLimits::default();
        SelfplaySettings {
            games: 100,
            a: AgentKind::Engine.into(),
            b: AgentKind::Engine.into(),
            budget: Budget::Depth(2),
            openings: Openings::Random(2),
            seed: 1,
            threads: 1,
            hash_mb: 8,
            max_plies: 2_000,
            shard: Shard::ALL,
            sprt: None,
            tolerance: external.tolerance,
            untimed_move: external.untimed_move,
        }
    }
}

/// A tournament that plays some book lines more than once under a budget that does not vary
/// from game to game: deterministic engines then replay those pairs move for move, and a
/// report counts the copies as new games (its interval is too narrow). See
/// [`SelfplaySettings::replayed_openings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayedOpenings {
    /// The book's lines: pair `k` plays line `k mod book_lines`.
    pub book_lines: usize,
    /// The tournament's pairs (all shards).
    pub pairs: usize,
}

impl fmt::Display for ReplayedOpenings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = self.book_lines + 1;
        let replayed = if first == self.pairs {
            format!("pair {first}")
        } else {
            format!("pairs {first} to {}", self.pairs)
        };
        write!(
            f,
            "the book has {} openings but the tournament plays {} pairs: under a depth or node \
             budget, external engines (which get no seed) replay {replayed} move for move and \
             the report counts those games again (play at most {} games, or use --time)",
            self.book_lines,
            self.pairs,
            2 * self.book_lines
        )
    }
}

impl SelfplaySettings {
    /// Whether pairs reuse book lines where that replays games: a book with fewer lines than
    /// the tournament has pairs, a depth or node budget (a time budget varies with the
    /// clock), and two external engines. In-process players get a seed per pair (the
    /// engine's search and the random player draw from it), so their games differ; an
    /// external engine gets no seed, and ours (`ugi:`, `pbrain:`) search deterministically
    /// under such budgets.
    pub fn replayed_openings(&self) -> Option<ReplayedOpenings> {
        let Openings::Book(book) = &self.openings else {
            return None;
        };
        let seeded = |p: &PlayerSpec| matches!(p, PlayerSpec::Agent(_));
        let pairs = self.total_games() / 2;
        let fixed_budget = matches!(self.budget, Budget::Depth(_) | Budget::Nodes(_));
        let replays = fixed_budget && pairs > book.lines.len();
        (replays && !seeded(&self.a) && !seeded(&self.b)).then_some(ReplayedOpenings {
            book_lines: book.lines.len(),
            pairs,
        })
    }

    /// Games in the whole tournament (all shards): whole pairs, at least one.
    pub fn total_games(&self) -> usize {
        self.games.div_ceil(2).max(1) * 2
    }

    fn external_limits(&self) -> ExternalLimits {
        ExternalLimits {
            budget: self.budget,
            tolerance: self.tolerance,
            untimed_move: self.untimed_move,
            ..ExternalLimits::default()
        }
    }

    /// Checks the players can play `config` and the options fit together, before any game.
    pub fn check<P: ArenaGame>(&self, config: &P::Config) -> Result<(), SelfplayError> {
        for (label, spec) in [("A", &self.a), ("B", &self.b)] {
            if let PlayerSpec::External { protocol, command } = spec {
                check_protocol::<P>(*protocol, config).map_err(|e| SelfplayError(e.to_string()))?;
                check_command(command)
                    .map_err(|e| SelfplayError(format!("player {label} ({spec}): {e}")))?;
            }
        }
        self.openings
            .check(&P::new(config.clone()))
            .map_err(|e| SelfplayError(e.to_string()))?;
        if self.sprt.is_some() && self.shard.count > 1 {
            return Err(SelfplayError(
                "an SPRT judges pairs in order, so it cannot run in shards".into(),
            ));
        }
        if self.shard.count as usize > self.total_games() {
            return Err(SelfplayError(format!(
                "shard {} of a {}-game tournament would play no games",
                self.shard,
                self.total_games()
            )));
        }
        Ok(())
    }
}

/// Starts each external engine that has a handshake (`ugi`, `pbrain`) once and takes it
/// through it, before any game: an engine that crashes or does not answer in time stops the
/// tournament at once with the reason, instead of losing every game. (A Botzone bot has no
/// handshake: its program was checked by [`SelfplaySettings::check`].)
fn probe_external<P: ArenaGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
) -> Result<(), SelfplayError> {
    for (label, spec) in [("A", &settings.a), ("B", &settings.b)] {
        let PlayerSpec::External { protocol, command } = spec else {
            continue;
        };
        if *protocol == Protocol::Botzone {
            continue;
        }
        let mut player =
            external_player::<P>(*protocol, command, config, settings.external_limits())
                .map_err(|e| SelfplayError(e.to_string()))?;
        let started = player.new_game(config);
        player.end_game();
        started.map_err(|fault| {
            SelfplayError(format!(
                "player {label} ({spec}) {fault} at the start: no game was played"
            ))
        })?;
    }
    Ok(())
}

/// One game of a tournament.
#[derive(Clone, Debug)]
pub struct PlayedGame<P: board_core::Position> {
    /// Index in the tournament (pairs are 2k, 2k+1).
    pub index: usize,
    /// Which colour A had.
    pub a_side: Player,
    /// The game itself: moves, result, timings.
    pub record: GameRecord<P>,
}

/// The seed of a pair's opening (shared by both games of the pair). The tournament seed is
/// mixed before the pair index joins it, so that tournaments under neighbouring seeds do
/// not share openings: with `seed + pair` mixed, pair `i` of seed `S` was pair `i − 1` of
/// seed `S + 1`.
fn pair_seed(seed: u64, pair: usize) -> u64 {
    splitmix64(splitmix64(seed) ^ pair as u64)
}

/// SplitMix64's finaliser: a bijection of `u64` that spreads every input bit over the output.
fn splitmix64(x: u64) -> u64 {
    let x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn build_player<P: ArenaGame>(
    spec: &PlayerSpec,
    config: &P::Config,
    settings: &SelfplaySettings,
    options: SearchOptions,
) -> Result<Box<dyn Contestant<P>>, SelfplayError> {
    match spec {
        PlayerSpec::Agent(kind) => Ok(Box::new(OwnedAgent(
            P::player(*kind, options).map_err(|e| SelfplayError(e.to_string()))?,
        ))),
        PlayerSpec::External { protocol, command } => {
            external_player::<P>(*protocol, command, config, settings.external_limits())
                .map_err(|e| SelfplayError(e.to_string()))
        }
    }
}

/// A player whose every move is counted (for a progress display of games under way).
struct Counted<'a, P: board_core::Position> {
    inner: &'a mut dyn Contestant<P>,
    moves: &'a AtomicU64,
}

impl<P: board_core::Position> Contestant<P> for Counted<'_, P> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn new_game(&mut self, config: &P::Config) -> Result<(), Fault> {
        self.inner.new_game(config)
    }

    fn choose(
        &mut self,
        pos: &P,
        moves: &[P::Move],
        hashes: &[u64],
        limits: &search::Limits,
    ) -> Result<P::Move, Fault> {
        let chosen = self.inner.choose(pos, moves, hashes, limits);
        self.moves.fetch_add(1, Ordering::Relaxed);
        chosen
    }

    fn end_game(&mut self) {
        self.inner.end_game();
    }
}

/// Plays game `index` of a tournament: deterministic in (settings, index) for fixed-depth or
/// node budgets and boardlab's own players.
pub fn play_indexed<P: ArenaGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
    index: usize,
) -> Result<PlayedGame<P>, SelfplayError> {
    play_indexed_counting::<P>(config, settings, index, &AtomicU64::new(0))
}

/// [`play_indexed`], adding one to `moves` for every move the players choose.
fn play_indexed_counting<P: ArenaGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
    index: usize,
    moves: &AtomicU64,
) -> Result<PlayedGame<P>, SelfplayError> {
    let seed = pair_seed(settings.seed, index / 2);
    let a_side = if index.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    let start = P::new(config.clone());
    let opening = settings
        .openings
        .for_pair(&start, index / 2, seed)
        .map_err(|e| SelfplayError(e.to_string()))?;
    let options = |salt: u64| -> Result<SearchOptions, SelfplayError> {
        let bad = |e: search::OptionsError| SelfplayError(e.to_string());
        Ok(SearchOptions::default()
            .with_hash_mb(settings.hash_mb)
            .map_err(bad)?
            .with_threads(1)
            .map_err(bad)?
            .with_seed(seed ^ salt))
    };
    let mut a = build_player::<P>(&settings.a, config, settings, options(0xA)?)?;
    let mut b = build_player::<P>(&settings.b, config, settings, options(0xB)?)?;
    let mut a = Counted {
        inner: a.as_mut(),
        moves,
    };
    let mut b = Counted {
        inner: b.as_mut(),
        moves,
    };
    let players: [&mut dyn Contestant<P>; 2] = match a_side {
        Player::First => [&mut a, &mut b],
        Player::Second => [&mut b, &mut a],
    };
    let record = play_players(
        start,
        &opening,
        players,
        &settings.budget.limits(),
        settings.max_plies,
    );
    Ok(PlayedGame {
        index,
        a_side,
        record,
    })
}

/// A's half-points in a game (2 a win, 1 a draw).
fn a_half_points(outcome: Outcome, a_side: Player) -> u32 {
    match outcome {
        Outcome::Win(p) if p == a_side => 2,
        Outcome::Draw => 1,
        Outcome::Win(_) => 0,
    }
}

/// Where an SPRT stands after the pairs played so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The test being run.
    pub sprt: Sprt,
    /// The complete pairs judged so far, counted by A's points in the pair.
    pub pairs: Pentanomial,
    /// The log-likelihood ratio of H1 against H0 over `pairs` (0 before any pair).
    pub llr: f64,
    /// The decision, once the LLR has crossed a bound; `None` while undecided.
    pub decision: Option<SprtDecision>,
}

impl SprtStatus {
    /// The test over the complete pairs of `results` (in index order), stopping at the
    /// first decision as the tournament did.
    pub fn of_results(sprt: Sprt, results: &[GameResult]) -> SprtStatus {
        let mut status = SprtStatus {
            sprt,
            pairs: Pentanomial::default(),
            llr: 0.0,
            decision: None,
        };
        for pair in results.chunks_exact(2) {
            if status.decision.is_some() {
                break;
            }
            status.add_pair(
                a_half_points(pair[0].outcome, pair[0].a_side)
                    + a_half_points(pair[1].outcome, pair[1].a_side),
            );
        }
        status
    }

    fn add_pair(&mut self, half_points: u32) {
        self.pairs.add(half_points);
        self.llr = self.sprt.llr(&self.pairs);
        self.decision = self.sprt.decide(self.llr);
    }
}

impl fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SPRT ({}): LLR {:.2} ({:.2}, {:.2}) after {} pairs {}: {}",
            self.sprt,
            self.llr,
            self.sprt.lower_bound(),
            self.sprt.upper_bound(),
            self.pairs.pairs(),
            self.pairs,
            match self.decision {
                Some(d) => d.to_string(),
                None => "no decision yet".to_string(),
            }
        )
    }
}

/// What a tournament played.
#[derive(Clone, Debug)]
pub struct Tournament<P: board_core::Position> {
    /// The games, in index order (with an SPRT: up to the deciding pair).
    pub games: Vec<PlayedGame<P>>,
    /// Where the SPRT stood at the end, if the tournament ran one.
    pub sprt: Option<SprtStatus>,
}

/// Plays this shard of a tournament on `settings.threads` threads. `on_game` sees each
/// game on the calling thread, in index order. With an SPRT, pairs are judged in order and
/// the tournament stops at the first decision (games already under way past it are
/// dropped, so the result does not depend on the thread count).
pub fn run_tournament<P: ArenaGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
    on_game: impl FnMut(&PlayedGame<P>),
) -> Result<Tournament<P>, SelfplayError> {
    run_tournament_counting::<P>(config, settings, &AtomicU64::new(0), on_game)
}

/// [`run_tournament`], adding one to `moves` for every move chosen in any game, finished or
/// not: a progress display reads it while long games are under way.
pub fn run_tournament_counting<P: ArenaGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
    moves: &AtomicU64,
    on_game: impl FnMut(&PlayedGame<P>),
) -> Result<Tournament<P>, SelfplayError> {
    settings.check::<P>(config)?;
    probe_external::<P>(config, settings)?;
    let indices: Vec<usize> = settings.shard.games(settings.total_games()).collect();
    play_games_counting::<P>(config, settings, &indices, moves, on_game)
}

/// Plays the tournament's games numbered `indices` (0-based, in increasing order; whole
/// pairs when an SPRT judges them) on `settings.threads` threads, as [`run_tournament`]
/// plays its shard: a sequential procedure plays a tournament in rounds with it, each
/// round a range of indices, and its games are those of the whole tournament played at
/// once. Call [`SelfplaySettings::check`] first.
pub fn play_games<P: ArenaGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
    indices: &[usize],
    on_game: impl FnMut(&PlayedGame<P>),
) -> Result<Tournament<P>, SelfplayError> {
    play_games_counting::<P>(config, settings, indices, &AtomicU64::new(0), on_game)
}

/// [`play_games`], adding one to `moves` for every move chosen in any game (as
/// [`run_tournament_counting`]).
pub fn play_games_counting<P: ArenaGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
    indices: &[usize],
    moves: &AtomicU64,
    mut on_game: impl FnMut(&PlayedGame<P>),
) -> Result<Tournament<P>, SelfplayError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failure = Mutex::new(None);
    let mut played = Vec::with_capacity(indices.len());
    let mut sprt = settings.sprt.map(|sprt| SprtStatus {
        sprt,
        pairs: Pentanomial::default(),
        llr: 0.0,
        decision: None,
    });
    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..settings.threads.clamp(1, 256) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let slot = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = indices.get(slot) else {
                        break;
                    };
                    let game = play_indexed_counting::<P>(config, settings, index, moves);
                    if tx.send((slot, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut expected = 0;
        for (slot, game) in rx {
            match game {
                Ok(game) => {
                    pending.insert(slot, game);
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert(e);
                    }
                }
            }
            while let Some(game) = pending.remove(&expected) {
                expected += 1;
                if stop.load(Ordering::Relaxed) {
                    continue;
                }
                on_game(&game);
                played.push(game);
                if let Some(status) = sprt.as_mut()
                    && played.len().is_multiple_of(2)
                {
                    let pair = &played[played.len() - 2..];
                    status.add_pair(
                        a_half_points(pair[0].record.outcome, pair[0].a_side)
                            + a_half_points(pair[1].record.outcome, pair[1].a_side),
                    );
                    if status.decision.is_some() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(Tournament {
        games: played,
        sprt,
    })
}

/// Plays a whole tournament (or shard) without an SPRT, calling `progress` after each game.
/// Games come back in index order.
pub fn run_selfplay<P: ArenaGame>(
    config: &P::Config,
    settings: &SelfplaySettings,
    progress: impl Fn(),
) -> Result<Vec<PlayedGame<P>>, SelfplayError> {
    Ok(run_tournament::<P>(config, settings, |_| progress())?.games)
}

/// A finished game as far as a report is concerned: no position, no moves; what the
/// shards' `--json` outputs carry so that `merge` can rebuild the whole report.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// 0-based index in the tournament.
    pub index: usize,
    /// Which colour A had.
    pub a_side: Player,
    /// The result.
    pub outcome: Outcome,
    /// Length of the game in plies, the random opening included.
    pub plies: u32,
    /// Why the game ended, for people.
    pub reason: String,
    /// The game's own figures ([`Game::balance_stats`]).
    pub balance: Vec<(String, f64)>,
    /// Thinking time of A and of B in this game, as the match timed their answers (in whole
    /// microseconds).
    pub move_times: [MoveTiming; 2],
}

impl GameResult {
    /// The report's view of a played game, with its [`Game::balance_stats`] figures.
    pub fn of<P: Game>(game: &PlayedGame<P>) -> GameResult {
        GameResult {
            index: game.index,
            a_side: game.a_side,
            outcome: game.record.outcome,
            plies: game.record.moves.len() as u32,
            reason: game.record.reason.clone(),
            balance: P::balance_stats(&game.record.config, &game.record.moves, game.record.outcome)
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            move_times: match game.a_side {
                Player::First => [0, 1],
                Player::Second => [1, 0],
            }
            .map(|seat| whole_micros(game.record.timing[seat])),
        }
    }
}

/// `t` in whole microseconds, as reports write it: a result read back from a report and
/// the one it was written from then sum to the same figures.
fn whole_micros(t: MoveTiming) -> MoveTiming {
    let micros = |d: Duration| Duration::from_micros(d.as_micros().try_into().unwrap_or(u64::MAX));
    MoveTiming {
        moves: t.moves,
        total: micros(t.total),
        max: micros(t.max),
    }
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
    /// Player A, as its player spec prints.
    pub a: String,
    /// Player B, as its player spec prints.
    pub b: String,
    /// Games summarised.
    pub games: u32,
    /// A's results overall.
    pub a_total: Tally,
    /// A's results when A moved first.
    pub a_first: Tally,
    /// A's results when A moved second.
    pub a_second: Tally,
    /// Games won by whoever moved first.
    pub first_wins: u32,
    /// Games won by whoever moved second.
    pub second_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// `first_wins / games` (0 without games): the first-move advantage of the rules.
    pub first_player_win_rate: f64,
    /// The Wilson 95% interval of `first_player_win_rate`; `(0, 1)` without games.
    pub first_player_ci95: (f64, f64),
    /// Elo of A over B (logistic, from A's wins, draws and losses).
    pub elo: f64,
    /// The 95% interval of `elo`, `(low, high)`.
    pub elo_ci95: (f64, f64),
    /// Mean game length in plies, the random opening included.
    pub mean_length: f64,
    /// Median game length in plies, the random opening included.
    pub median_length: f64,
    /// Game-specific statistics, averaged per game.
    pub balance: BTreeMap<String, f64>,
    /// Thinking time of A and of B over all the games: answers, their total, the slowest.
    pub move_times: [MoveTiming; 2],
}

impl SelfplaySummary {
    /// The summary of `games` (in index order) between A and B.
    pub fn new<P: Game>(a: &str, b: &str, games: &[PlayedGame<P>]) -> SelfplaySummary {
        let results: Vec<GameResult> = games.iter().map(GameResult::of).collect();
        SelfplaySummary::of_results(a, b, &results)
    }

    /// The summary of `results` (in index order, as the sums are taken in that order).
    pub fn of_results(a: &str, b: &str, results: &[GameResult]) -> SelfplaySummary {
        let mut s = SelfplaySummary {
            a: a.to_string(),
            b: b.to_string(),
            games: results.len() as u32,
            a_total: Tally::default(),
            a_first: Tally::default(),
            a_second: Tally::default(),
            first_wins: 0,
            second_wins: 0,
            draws: 0,
            first_player_win_rate: 0.0,
            first_player_ci95: (0.0, 1.0),
            elo: 0.0,
            elo_ci95: (f64::NEG_INFINITY, f64::INFINITY),
            mean_length: 0.0,
            median_length: 0.0,
            balance: BTreeMap::new(),
            move_times: [MoveTiming::default(); 2],
        };
        let mut lengths = Vec::with_capacity(results.len());
        for g in results {
            let outcome = g.outcome;
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
            lengths.push(f64::from(g.plies));
            for (name, value) in &g.balance {
                *s.balance.entry(name.clone()).or_insert(0.0) += value;
            }
            for (sum, game) in s.move_times.iter_mut().zip(&g.move_times) {
                sum.merge(game);
            }
        }
        let n = results.len().max(1) as f64;
        for v in s.balance.values_mut() {
            *v /= n;
        }
        s.first_player_win_rate = s.first_wins as f64 / n;
        s.first_player_ci95 = wilson_95(s.first_wins, results.len() as u32);
        let (elo, lo, hi) = elo_95(s.a_total.wins, s.a_total.draws, s.a_total.losses);
        s.elo = elo;
        s.elo_ci95 = (lo, hi);
        s.mean_length = lengths.iter().sum::<f64>() / n;
        s.median_length = median(&lengths);
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
        let ms = |d: Duration| json_number(d.as_secs_f64() * 1000.0);
        let move_time = |t: &MoveTiming| {
            format!(
                r#"{{"moves":{},"mean_ms":{},"max_ms":{}}}"#,
                t.moves,
                ms(t.total / t.moves.max(1)),
                ms(t.max)
            )
        };
        format!(
            concat!(
                r#"{{"a":"{}","b":"{}","games":{},"a_wins":{},"b_wins":{},"draws":{},"#,
                r#""a_first":{},"a_second":{},"first_wins":{},"second_wins":{},"#,
                r#""first_player_win_rate":{},"first_player_ci95":[{},{}],"#,
                r#""elo":{},"elo_ci95":[{},{}],"mean_length":{},"median_length":{},"balance":{{{}}},"#,
                r#""move_time":{{"a":{},"b":{}}}}}"#
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
            balance.join(","),
            move_time(&self.move_times[0]),
            move_time(&self.move_times[1])
        )
    }
}

pub(crate) fn json_number(v: f64) -> String {
    if v.is_finite() {
        format!("{:.4}", v)
    } else {
        "null".into()
    }
}

/// `n` with its noun: `1 win`, `3 wins`.
fn counted(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
            "A: {}, B: {}, {}",
            counted(self.a_total.wins, "win", "wins"),
            counted(self.a_total.losses, "win", "wins"),
            counted(self.a_total.draws, "draw", "draws")
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
        if self.elo.is_infinite() {
            // A 100% (or 0%) score: no finite Elo fits it, only a bound is known.
            let (side, bound) = if self.elo > 0.0 {
                (
                    "A won every game",
                    format!("at least {}", signed_elo(self.elo_ci95.0)),
                )
            } else {
                (
                    "B won every game",
                    format!("at most {}", signed_elo(self.elo_ci95.1)),
                )
            };
            writeln!(f, "Elo A-B: unbounded ({side}); 95% CI: {bound}")?;
        } else {
            writeln!(
                f,
                "Elo A-B: {} (95% CI {} to {})",
                signed_elo(self.elo),
                signed_elo(self.elo_ci95.0),
                signed_elo(self.elo_ci95.1)
            )?;
        }
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

#[cfg(test)]
mod summary_tests {
    use super::*;

    fn result(index: usize, a_side: Player, outcome: Outcome) -> GameResult {
        GameResult {
            index,
            a_side,
            outcome,
            plies: 10 + index as u32,
            reason: String::new(),
            balance: Vec::new(),
            move_times: [MoveTiming::default(); 2],
        }
    }

    #[test]
    fn the_summary_counts_in_words_and_never_prints_minus_zero() {
        let results = [
            result(0, Player::First, Outcome::Win(Player::First)),
            result(1, Player::Second, Outcome::Win(Player::First)),
            result(2, Player::First, Outcome::Draw),
        ];
        let text = SelfplaySummary::of_results("engine", "random", &results).to_string();
        assert!(text.contains("A: 1 win, B: 1 win, 1 draw\n"), "{text}");
        assert!(text.contains("Elo A-B: 0 ("), "{text}");
        assert!(!text.contains("-0 ") && !text.contains("-0)"), "{text}");
        // The median of an even count is the mean of the two middle lengths.
        assert!(text.contains("median 11.0"), "{text}");
        let more = SelfplaySummary::of_results("engine", "random", &results[..2]).to_string();
        assert!(more.contains("median 10.5"), "{more}");
        let wins = [
            result(0, Player::First, Outcome::Win(Player::First)),
            result(1, Player::First, Outcome::Win(Player::First)),
        ];
        let text = SelfplaySummary::of_results("engine", "random", &wins).to_string();
        assert!(text.contains("A: 2 wins, B: 0 wins, 0 draws\n"), "{text}");
    }
}

#[cfg(test)]
mod pair_seed_tests {
    use super::*;
    use board_core::Position as _;
    use std::collections::HashSet;

    #[test]
    fn neighbouring_tournament_seeds_share_no_pair_opening() {
        let pairs = |seed: u64| -> HashSet<u64> { (0..500).map(|p| pair_seed(seed, p)).collect() };
        for seed in [0, 1, 31, 32, u64::MAX] {
            let here = pairs(seed);
            assert_eq!(here.len(), 500, "pairs of seed {seed} repeat a seed");
            let next = pairs(seed.wrapping_add(1));
            assert!(
                here.is_disjoint(&next),
                "seeds {seed} and the next share openings"
            );
        }
    }

    #[test]
    fn neighbouring_seeds_open_differently_on_a_board() {
        let start = rules_gomoku::GomokuPosition::new(rules_gomoku::GomokuConfig::default());
        let openings = Openings::Random(4);
        let lines = |seed: u64| -> Vec<_> {
            (0..20)
                .map(|p| {
                    openings
                        .for_pair(&start, p, pair_seed(seed, p))
                        .expect("random plies")
                })
                .collect()
        };
        let (a, b) = (lines(31), lines(32));
        for (i, line) in a.iter().enumerate() {
            assert!(
                !b.contains(line),
                "pair {i} of seed 31 reappears under seed 32"
            );
        }
    }
}
