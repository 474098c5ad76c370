//! `boardlab`: the command line over the bundled games.

use std::process::ExitCode;

fn main() -> ExitCode {
    boardlab::run_cli(&boardlab::Registry::bundled())
}
