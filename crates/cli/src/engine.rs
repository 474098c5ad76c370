//! `boardlab engine`: the UCI-style engine protocol (every registered game) on stdin/stdout.

use std::sync::Arc;

use crate::{Registry, cli_error::CliError};

pub fn run(registry: &Registry) -> Result<(), CliError> {
    protocols::ugi::run_stdio_with(Arc::new(registry.detached()))
        .map_err(|e| CliError::usage(format!("engine: {e}")))
}
