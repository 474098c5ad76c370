//! `connect-four`: every `boardlab` command, for Connect Four beside the bundled games.

use connect_four::game::ConnectFour;

fn main() -> std::process::ExitCode {
    boardlab::run_cli(&boardlab::Registry::bundled().with::<ConnectFour>())
}
