//! `boardlab engine`: the UCI-style engine protocol (every game) on stdin/stdout.

use crate::cli_error::CliError;

pub fn run() -> Result<(), CliError> {
    protocols::ugi::run_stdio().map_err(|e| CliError::usage(format!("engine: {e}")))
}
