//! The command line's games: the one list of games ([`boardlab_games::Registry`]) with each
//! game's commands attached ([`Commands`]), so a game registered from outside boardlab's
//! crates gets every command from the same `with::<G>()` that registers it.

use arena::{SelfplaySettings, SelfplaySummary};
use board_core::GameSpec;
use boardlab_games::{Attachment, Game};

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

/// The games the command line offers, each with its [`Commands`]: the bundled ones
/// ([`bundled_games`]) and any a user adds ([`boardlab_games::Registry::with`]). Every
/// command that takes a game spec finds the game here, and `engine`, `serve`, `connect` and
/// `web` open their games from the same list ([`boardlab_games::Registry::detached`]).
///
/// ```
/// use boardlab_games::{Connect6, Gomoku};
///
/// let registry = boardlab_cli::Registry::empty_attached()
///     .with::<Gomoku>()
///     .with::<Connect6>();
/// assert_eq!(registry.ids(), ["gomoku", "connect6"]);
/// assert_eq!(registry.detached().ids(), registry.ids());
/// ```
pub type Registry = boardlab_games::Registry<Commands>;

/// Every bundled game with its commands, in the table's order; add your own game with
/// [`with`](boardlab_games::Registry::with):
///
/// ```
/// let registry = boardlab_cli::bundled_games().with::<boardlab_games::Gomoku>();
/// assert_eq!(registry.ids().last(), Some(&"gomoku"));
/// ```
pub fn bundled_games() -> Registry {
    Registry::bundled_attached()
}

/// A `selfplay` tournament's summary and its JSON report.
pub(crate) type Tournament = (SelfplaySummary, String);

/// The commands of one game: each generic command instantiated for the game's type when it
/// is registered. Choosing the game costs one indirect call per command; the command itself
/// runs monomorphised. Opaque: the command line reads it back from the [`Registry`].
#[derive(Clone, Copy)]
pub struct Commands {
    pub(crate) perft: fn(&GameSpec, u32, &str, bool) -> Result<(), CliError>,
    pub(crate) show: fn(&GameSpec, &str) -> Result<(), CliError>,
    pub(crate) show_json: fn(&GameSpec, &str) -> Result<(), CliError>,
    pub(crate) analyze: fn(&GameSpec, &str, Think, &EngineArgs) -> Result<(), CliError>,
    pub(crate) run_match: fn(&GameSpec, &SelfplaySettings, &MatchOutput) -> Result<(), CliError>,
    /// One `selfplay` tournament (printing its games if asked): its summary and JSON report.
    pub(crate) tournament: fn(&SelfplayArgs, &GameSpec, bool) -> Result<Tournament, CliError>,
    /// Checks a tournament of the spec can be played (the spec, the players, the
    /// openings) without playing it.
    pub(crate) check_tournament: fn(&SelfplayArgs, &GameSpec) -> Result<(), CliError>,
    pub(crate) play: fn(&GameSpec, &PlayArgs, Option<&Loaded>) -> Result<(), CliError>,
    /// `replay` of one save file's text (its path for errors, whether to colour).
    pub(crate) replay: fn(&str, &str, bool) -> Result<(), CliError>,
    /// `bench` of the game's bench positions (none: nothing is searched).
    pub(crate) bench: fn(i32, usize, &mut Totals) -> Result<(), CliError>,
    pub(crate) tune: fn(&tune::TuneArgs) -> Result<(), CliError>,
    pub(crate) balance: fn(&balance::BalanceArgs) -> Result<(), CliError>,
}

impl Attachment for Commands {
    fn of<G: Game>() -> Commands {
        Commands {
            perft: commands::run_perft::<G>,
            show: commands::run_show::<G>,
            show_json: commands::run_show_json::<G>,
            analyze: commands::run_analyze::<G>,
            run_match: match_cmd::run_match::<G>,
            tournament: selfplay::tournament::<G>,
            check_tournament: selfplay::check_tournament::<G>,
            play: play_cmd::run_play::<G>,
            replay: play_cmd::run_replay::<G>,
            bench: bench::bench_game::<G>,
            tune: tune::run_tune::<G>,
            balance: balance::run_balance::<G>,
        }
    }
}

/// The commands of the game a parsed spec names; an unknown game is an error listing the
/// registered ids.
pub(crate) fn of_spec<'r>(
    registry: &'r Registry,
    spec: &GameSpec,
) -> Result<&'r Commands, CliError> {
    of_id(registry, &spec.id)
}

/// The commands of game `id` (case-insensitive, as specs are).
pub(crate) fn of_id<'r>(registry: &'r Registry, id: &str) -> Result<&'r Commands, CliError> {
    Ok(registry.get_attached(id)?.1)
}

#[cfg(test)]
mod tests {
    use boardlab_games::GameId;

    use super::*;

    #[test]
    fn bundled_games_offer_every_game_of_the_table_in_its_order() {
        let table: Vec<&str> = GameId::ALL.iter().map(|id| id.as_str()).collect();
        assert_eq!(bundled_games().ids(), table);
        assert_eq!(bundled_games().detached().ids(), table);
    }

    #[test]
    fn an_unknown_game_is_an_error_naming_the_registered_ids() {
        let registry = Registry::empty_attached().with::<boardlab_games::Gomoku>();
        let spec = |text| GameSpec::parse(text).expect("spec");
        let err = of_spec(&registry, &spec("clamp"))
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("bad game spec: unknown game 'clamp': expected one of gomoku")
        );
        assert!(of_spec(&registry, &spec("GOMOKU:size=9")).is_ok());
    }

    #[test]
    fn a_registered_game_runs_its_own_commands() {
        // Gomoku's perft on a 5x5 board counts its 25 squares: the gomoku instance ran,
        // not another game's.
        let registry = bundled_games();
        let spec = GameSpec::parse("gomoku:size=5").expect("spec");
        let gomoku = of_spec(&registry, &spec).expect("gomoku");
        assert!((gomoku.perft)(&spec, 1, "", false).is_ok());
        let clamp = of_id(&registry, "clamp").expect("clamp");
        // Clamp's perft refuses a gomoku spec: each game's commands are its own.
        assert!((clamp.perft)(&spec, 1, "", false).is_err());
    }
}
