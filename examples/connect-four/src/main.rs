//! `connect-four`: every `boardlab` command, for Connect Four beside the bundled games.

use std::process::ExitCode;

use connect_four::game::ConnectFour;

fn main() -> ExitCode {
    boardlab::run_cli(&boardlab::Registry::bundled().with::<ConnectFour>())
}
