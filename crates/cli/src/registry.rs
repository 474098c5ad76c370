//! The games the command line offers: for each, the erased game the protocols open
//! ([`boardlab_games::Registry`]) and the generic commands instantiated for its type
//! ([`Commands`] behind [`GameCommands`]), so a game registered from outside boardlab's
//! crates gets every command.

use std::marker::PhantomData;

use arena::{SelfplaySettings, SelfplaySummary};
use board_core::{GameConfig, GameSpec};
use boardlab_games::{Game, GameId, with_game};

use crate::{
    balance,
    bench::{self, Totals},
    cli_error::CliError,
    commands::{self, EngineArgs, Think},
    match_cmd::{self, MatchOutput},
    play_cmd::{self, Loaded, PlayArgs},
    selfplay::{self, SelfplayArgs},
    tune,
};

/// The games the command line offers: the bundled ones ([`Registry::bundled`]) and any a
/// user adds ([`Registry::with`]). Every command that takes a game spec finds the game
/// here, and `engine` and `serve` open their games from it.
///
/// ```
/// use boardlab_cli::Registry;
/// use boardlab_games::{Connect6, Gomoku};
///
/// let registry = Registry::empty().with::<Gomoku>().with::<Connect6>();
/// assert_eq!(registry.ids(), ["gomoku", "connect6"]);
/// assert_eq!(registry.games().ids(), registry.ids());
/// ```
pub struct Registry {
    /// The erased games, for the protocols (`engine`, `serve`).
    games: boardlab_games::Registry,
    /// The commands of each game, in the order of `games`.
    commands: Vec<Box<dyn GameCommands>>,
}

impl Registry {
    /// No games (add them with [`Registry::with`]).
    pub fn empty() -> Registry {
        Registry {
            games: boardlab_games::Registry::empty(),
            commands: Vec::new(),
        }
    }

    /// Every bundled game ([`GameId::ALL`]), in the table's order.
    pub fn bundled() -> Registry {
        fn add<G: Game>(registry: Registry) -> Registry {
            registry.with::<G>()
        }
        GameId::ALL.iter().fold(Registry::empty(), |registry, &id| {
            with_game!(id, add(registry))
        })
    }

    /// Adds the game `G`, a user's own or a bundled one. A game whose id is already
    /// registered replaces the one registered before (so a user's variant can stand in for
    /// a bundled game of the same id); it then comes last in [`Registry::ids`].
    pub fn with<G: Game>(mut self) -> Registry {
        let id = <G::Config as GameConfig>::GAME_ID;
        self.commands.retain(|c| c.id() != id);
        self.commands.push(Box::new(Commands::<G>(PhantomData)));
        self.games = self.games.with::<G>();
        self
    }

    /// The registered game ids, in order.
    pub fn ids(&self) -> Vec<&'static str> {
        self.commands.iter().map(|c| c.id()).collect()
    }

    /// The erased games, as the engine protocol, the server and other front ends take them.
    pub fn games(&self) -> &boardlab_games::Registry {
        &self.games
    }

    /// The commands of the game a parsed spec names; an unknown game is an error listing
    /// the registered ids.
    pub(crate) fn of_spec(&self, spec: &GameSpec) -> Result<&dyn GameCommands, CliError> {
        self.of_id(&spec.id)
    }

    /// The commands of game `id` (case-insensitive, as specs are).
    pub(crate) fn of_id(&self, id: &str) -> Result<&dyn GameCommands, CliError> {
        let id = self.games.get(id)?.id();
        self.commands
            .iter()
            .find(|c| c.id() == id)
            .map(|c| c.as_ref())
            .ok_or_else(|| CliError::usage(format!("game {id} has no commands registered")))
    }

    /// Every registered game's commands, in order.
    pub(crate) fn all(&self) -> impl Iterator<Item = &dyn GameCommands> {
        self.commands.iter().map(|c| c.as_ref())
    }
}

/// The generic commands of one game type, behind a trait object: choosing the game costs
/// one virtual call per command, and the command itself runs monomorphised for the type.
pub(crate) trait GameCommands {
    /// The game id.
    fn id(&self) -> &'static str;
    /// `perft`.
    fn perft(&self, spec: &GameSpec, depth: u32, moves: &str, divide: bool)
    -> Result<(), CliError>;
    /// `show` (`--json` if `json`).
    fn show(&self, spec: &GameSpec, moves: &str, json: bool) -> Result<(), CliError>;
    /// `analyze`.
    fn analyze(
        &self,
        spec: &GameSpec,
        moves: &str,
        think: Think,
        engine: &EngineArgs,
    ) -> Result<(), CliError>;
    /// `match`.
    fn run_match(
        &self,
        spec: &GameSpec,
        settings: &SelfplaySettings,
        output: &MatchOutput,
    ) -> Result<(), CliError>;
    /// One `selfplay` tournament: its summary and JSON report.
    fn tournament(
        &self,
        args: &SelfplayArgs,
        spec: &GameSpec,
        print: bool,
    ) -> Result<(SelfplaySummary, String), CliError>;
    /// Checks a tournament of `spec` can be played (the spec, the players, the openings)
    /// without playing it.
    fn check_tournament(&self, args: &SelfplayArgs, spec: &GameSpec) -> Result<(), CliError>;
    /// `play`.
    fn play(
        &self,
        spec: &GameSpec,
        args: &PlayArgs,
        loaded: Option<&Loaded>,
    ) -> Result<(), CliError>;
    /// `replay` of one save file's text.
    fn replay(&self, text: &str, path: &str, no_color: bool) -> Result<(), CliError>;
    /// `bench`: the game's bench positions (none: nothing is searched).
    fn bench(&self, depth_delta: i32, threads: usize, totals: &mut Totals) -> Result<(), CliError>;
    /// `tune`.
    fn tune(&self, args: &tune::TuneArgs) -> Result<(), CliError>;
    /// `balance`.
    fn balance(&self, args: &balance::BalanceArgs) -> Result<(), CliError>;
}

/// The commands of game `G`.
struct Commands<G>(PhantomData<fn() -> G>);

impl<G: Game> GameCommands for Commands<G> {
    fn id(&self) -> &'static str {
        <G::Config as GameConfig>::GAME_ID
    }
    fn perft(
        &self,
        spec: &GameSpec,
        depth: u32,
        moves: &str,
        divide: bool,
    ) -> Result<(), CliError> {
        commands::run_perft::<G>(spec, depth, moves, divide)
    }
    fn show(&self, spec: &GameSpec, moves: &str, json: bool) -> Result<(), CliError> {
        if json {
            commands::run_show_json::<G>(spec, moves)
        } else {
            commands::run_show::<G>(spec, moves)
        }
    }
    fn analyze(
        &self,
        spec: &GameSpec,
        moves: &str,
        think: Think,
        engine: &EngineArgs,
    ) -> Result<(), CliError> {
        commands::run_analyze::<G>(spec, moves, think, engine)
    }
    fn run_match(
        &self,
        spec: &GameSpec,
        settings: &SelfplaySettings,
        output: &MatchOutput,
    ) -> Result<(), CliError> {
        match_cmd::run_match::<G>(spec, settings, output)
    }
    fn tournament(
        &self,
        args: &SelfplayArgs,
        spec: &GameSpec,
        print: bool,
    ) -> Result<(SelfplaySummary, String), CliError> {
        selfplay::tournament::<G>(args, spec, print)
    }
    fn check_tournament(&self, args: &SelfplayArgs, spec: &GameSpec) -> Result<(), CliError> {
        selfplay::check_tournament::<G>(args, spec)
    }
    fn play(
        &self,
        spec: &GameSpec,
        args: &PlayArgs,
        loaded: Option<&Loaded>,
    ) -> Result<(), CliError> {
        play_cmd::run_play::<G>(spec, args, loaded)
    }
    fn replay(&self, text: &str, path: &str, no_color: bool) -> Result<(), CliError> {
        play_cmd::run_replay::<G>(text, path, no_color)
    }
    fn bench(&self, depth_delta: i32, threads: usize, totals: &mut Totals) -> Result<(), CliError> {
        bench::bench_game::<G>(depth_delta, threads, totals)
    }
    fn tune(&self, args: &tune::TuneArgs) -> Result<(), CliError> {
        tune::run_tune::<G>(args)
    }
    fn balance(&self, args: &balance::BalanceArgs) -> Result<(), CliError> {
        balance::run_balance::<G>(args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_offers_every_game_of_the_table_in_its_order() {
        let registry = Registry::bundled();
        let table: Vec<&str> = GameId::ALL.iter().map(|id| id.as_str()).collect();
        assert_eq!(registry.ids(), table);
        assert_eq!(registry.games().ids(), table);
    }

    #[test]
    fn a_game_registered_again_replaces_the_first_and_comes_last() {
        let registry = Registry::bundled().with::<boardlab_games::Fourshift>();
        let mut expected: Vec<&str> = GameId::ALL.iter().map(|id| id.as_str()).collect();
        expected.retain(|&id| id != GameId::Fourshift.as_str());
        expected.push(GameId::Fourshift.as_str());
        assert_eq!(registry.ids(), expected);
        assert_eq!(registry.games().ids(), registry.ids());
        assert_eq!(registry.all().count(), GameId::ALL.len());
    }

    #[test]
    fn an_unknown_game_is_an_error_naming_the_registered_ids() {
        let registry = Registry::empty().with::<boardlab_games::Gomoku>();
        let err = registry
            .of_spec(&GameSpec::parse("clamp").expect("spec"))
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("bad game spec: unknown game 'clamp': expected one of gomoku")
        );
        assert_eq!(
            registry
                .of_spec(&GameSpec::parse("GOMOKU:size=9").expect("spec"))
                .map(|c| c.id())
                .ok(),
            Some("gomoku")
        );
    }
}
