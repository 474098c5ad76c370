//! The one table of boardlab's bundled games, and what any game — bundled or a user's own —
//! offers the tools above the rules.
//!
//! - [`Game`]: what the command line, the protocols, self-play and the front ends need of a
//!   game beyond its rules and its [`View`]: its players (engine, baseline, random), its
//!   bench positions, its balance statistics, its display title and the keys of its spec.
//!   The bundled games implement it in [`table`]; a user's game implements it itself.
//! - [`GameId`]: the bundled games as a typed id ([`FromStr`](std::str::FromStr),
//!   [`Display`](std::fmt::Display), [`GameId::ALL`]).
//! - [`with_game!`]: the one dispatch from a [`GameId`] to its position type, so code written
//!   once generically over [`Game`] runs for every bundled game.
//! - [`DynGame`]: one erased game — a position with its history and its player behind a
//!   trait object (play and undo moves with typed errors, legal moves, ask the player,
//!   save and load, the view); [`Registry`] opens one by id, for the bundled games and a
//!   user's own alike, and is the one list of a program's games: a tool keeps its own
//!   per-game code beside each game as an [`Attachment`] (the command line's commands).
//! - [`records`]: game records in other programs' formats (SGF for gomoku), to and from
//!   the save file.
//!
//! The table is the only list of bundled games: adding a game means its rules and engine
//! crates plus one entry in [`table`] (see `docs/adding-a-game.md`).
//!
//! ```
//! use boardlab_games::{Game, GameId, with_game};
//!
//! fn bench_size<G: Game>() -> usize {
//!     G::BENCH_POSITIONS.len()
//! }
//!
//! let id: GameId = "gomoku".parse()?;
//! assert_eq!(id.to_string(), "gomoku");
//! assert!(with_game!(id, bench_size()) > 0);
//! # Ok::<(), board_core::SpecError>(())
//! ```

#![deny(missing_docs)]

use board_core::{Outcome, view::View};
use search::{
    Agent, AgentKind, IterationReport, Limits, OptionsError, RandomAgent, SearchOptions,
    SearchResult,
};

#[macro_use]
pub mod table;
pub mod dyn_game;
pub mod records;
pub mod registry;

pub use dyn_game::{
    DynGame, Entry, GameEntry, Handle, Iteration, MoveInfo, OpenError, PlayError, PlayedMove,
    PlyView, PositionError, ThinkError, Thought,
};
pub use registry::{Attachment, Registry};
pub use table::{Amazons, Clamp, Connect6, Fourshift, GameId, Gomoku};

/// A game the boardlab tools can run: its rules and view, plus its players and the figures
/// the tools print about it.
pub trait Game: View + 'static {
    /// The game's name for people ("Gomoku"); its id is `Self::Config::GAME_ID`.
    const TITLE: &'static str;

    /// Positions `boardlab bench` searches, as (spec, moves) pairs; empty: not benched.
    const BENCH_POSITIONS: &'static [(&'static str, &'static str)] = &[];

    /// The depth `boardlab bench` searches [`Game::BENCH_POSITIONS`] to.
    const BENCH_DEPTH: u32 = 1;

    /// Spec strings worth playing in fuzzing and tests: the default, small boards (so
    /// playouts reach the end game quickly) and odd parameters. Empty: only the default.
    const SAMPLE_SPECS: &'static [&'static str] = &[];

    /// Whether front ends get the full list of legal moves to draw targets from. `false`
    /// for games whose moves place stones on any empty square (gomoku; Connect6, whose
    /// pairs would be far too many), where every empty square is a target and the rules
    /// judge the move. Default: listed.
    const LISTS_MOVES: bool = true;

    /// The strong engine, searching under `options` (hash size, threads, seed).
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Self>>, OptionsError>;

    /// The simple fixed-depth AI of the game's source (the yardstick the engine is measured
    /// against).
    ///
    /// A game without a source AI (a game of your own) need not write one: by default the
    /// baseline is the game's [`engine`](Game::engine) held to a search of
    /// [`DEFAULT_BASELINE_PLIES`] plies whatever the limits, so `match --b baseline`
    /// measures a change against the same evaluator seen shallowly.
    fn baseline() -> Result<Box<dyn Agent<Self>>, OptionsError> {
        let engine = Self::engine(SearchOptions::default())?;
        Ok(Box::new(FixedDepth {
            name: "baseline",
            agent: engine,
            depth: DEFAULT_BASELINE_PLIES,
        }))
    }

    /// Builds the player of `kind`. `options` configures the engine; its seed also seeds the
    /// random player. A player that cannot be built is an error, never a stand-in.
    fn player(
        kind: AgentKind,
        options: SearchOptions,
    ) -> Result<Box<dyn Agent<Self>>, OptionsError> {
        match kind {
            AgentKind::Engine => Self::engine(options),
            AgentKind::Baseline => Self::baseline(),
            AgentKind::Random => Ok(Box::new(RandomAgent::new(options.seed()))),
        }
    }

    /// Game-specific statistics of a finished game (`moves` from the start position under
    /// `config`, ending in `outcome`), as `(name, value)` pairs that self-play averages to
    /// judge a rule set's balance. Default: none.
    fn balance_stats(
        config: &Self::Config,
        moves: &[Self::Move],
        outcome: Outcome,
    ) -> Vec<(&'static str, f64)> {
        let _ = (config, moves, outcome);
        Vec::new()
    }

    /// The keys of the game's spec string with the values the rules accept, in the order
    /// of the canonical spec, for forms that build a spec (the web's new-game form). The
    /// rules crate's parser stays the authority. Default: the integer keys the config
    /// declares ([`GameConfig::INT_KEYS`](board_core::GameConfig::INT_KEYS), from
    /// [`board_core::int_config!`]), none for a config without them.
    fn spec_keys() -> Vec<SpecKey> {
        let keys = <Self::Config as board_core::GameConfig>::INT_KEYS;
        let int = |k: &board_core::IntKey| SpecKey::int(k.key, k.min, k.max, 1, k.range);
        keys.iter().map(int).collect()
    }
}

/// How deep the default [`Game::baseline`] searches: two plies, the game's engine seeing
/// its own move and the reply.
pub const DEFAULT_BASELINE_PLIES: u32 = 2;

/// A player that searches exactly `depth` plies whatever limits it is given (keeping the
/// caller's stop flag): the default baseline.
struct FixedDepth<G: Game> {
    name: &'static str,
    agent: Box<dyn Agent<G>>,
    depth: u32,
}

impl<G: Game> Agent<G> for FixedDepth<G> {
    fn name(&self) -> &str {
        self.name
    }

    fn new_game(&mut self) {
        self.agent.new_game();
    }

    fn set_game_history(&mut self, hashes: &[u64]) {
        self.agent.set_game_history(hashes);
    }

    fn think(
        &mut self,
        pos: &G,
        limits: &Limits,
        report: &mut dyn FnMut(&IterationReport<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut fixed = Limits::new().with_depth(self.depth);
        if let Some(flag) = limits.stop_flag() {
            fixed = fixed.with_stop_flag(flag.clone());
        }
        self.agent.think(pos, &fixed, report)
    }
}

/// One key of a game spec and the values it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecKey {
    /// The key as the spec writes it (`size`).
    pub key: &'static str,
    /// The kind of value.
    pub kind: KeyKind,
    /// The allowed values for people ("an integer from 2 to size").
    pub range: &'static str,
}

impl SpecKey {
    /// An integer key from `min` to `max` in steps of `step`.
    pub const fn int(
        key: &'static str,
        min: u32,
        max: u32,
        step: u32,
        range: &'static str,
    ) -> SpecKey {
        SpecKey {
            key,
            kind: KeyKind::Int { min, max, step },
            range,
        }
    }
}

/// The kind of value a spec key takes. Serialised as the web form reads it: a `type` tag
/// (`int`, `int_or`, `bool`, `choice`) beside the variant's fields.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum KeyKind {
    /// An integer from `min` to `max` (the bounds that do not depend on other keys) in steps
    /// of `step`.
    Int {
        /// The smallest value.
        min: u32,
        /// The largest value.
        max: u32,
        /// The step between allowed values.
        step: u32,
    },
    /// An integer from `min` to `max`, or the one word `word` (clamp's
    /// `supply=N|unlimited`).
    IntOr {
        /// The smallest value.
        min: u32,
        /// The largest value.
        max: u32,
        /// The word allowed instead of a number.
        word: &'static str,
    },
    /// `true` or `false`.
    Bool,
    /// One of `values`.
    Choice {
        /// The allowed values.
        values: &'static [&'static str],
    },
}
