//! `boardlab botzone`: the Botzone Amazons bot (8×8) on stdin/stdout.

use search::AgentKind;

use crate::cli_error::CliError;

pub fn run(player: AgentKind, keep_running: bool) -> Result<(), CliError> {
    protocols::botzone::run_stdio(player, keep_running)
        .map_err(|e| CliError::usage(format!("botzone: {e}")))
}
