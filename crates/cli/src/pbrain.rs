//! `boardlab pbrain`: the Piskvork / Gomocup brain protocol on stdin/stdout.

use search::AgentKind;

use crate::cli_error::CliError;

pub fn run(player: AgentKind) -> Result<(), CliError> {
    protocols::pbrain::run_stdio(player).map_err(|e| CliError::usage(format!("pbrain: {e}")))
}
