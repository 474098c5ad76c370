//! `connect-four`: every `boardlab` command, for Connect Four beside the bundled games.

use connect_four::game::ConnectFour;

fn main() -> std::process::ExitCode {
    boardlab_cli::run_cli(&boardlab_cli::bundled_games().with::<ConnectFour>())
}
