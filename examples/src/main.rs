//! `boardlab`: the command line over the bundled games.

use std::process::ExitCode;

fn main() -> ExitCode {
    boardlab_cli::run_cli(&boardlab_cli::bundled_games())
}
