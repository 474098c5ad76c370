//! `boardlab-cli`: the command line that wires the boardlab crates together, as a library
//! so a game of your own gets every command. No game logic lives here: every command is
//! generic over the game ([`boardlab_games::Game`]) and finds its game in a [`Registry`].
//!
//! The `boardlab` binary (the `boardlab` package, `examples/src/main.rs`) runs the bundled
//! games:
//!
//! ```no_run
//! use std::process::ExitCode;
//!
//! fn main() -> ExitCode {
//!     boardlab_cli::run_cli(&boardlab_cli::bundled_games())
//! }
//! ```
//!
//! A program of your own adds its game with [`with`](boardlab_games::Registry::with)
//! (`boardlab_cli::bundled_games().with::<YourGame>()`), and then has `play`,
//! `perft`, `show`, `analyze`, `match`, `selfplay`, `balance`, `tune`, `replay`, `bench`,
//! `engine` and `serve` for it beside the bundled games (`docs/adding-a-game.md`, "Every
//! boardlab command for your game"). `pbrain` stays gomoku's and `botzone` amazons': those
//! protocols are those games'.

#![deny(missing_docs)]

#[macro_use]
mod out;

mod balance;
mod bench;
mod book_cmd;
mod botzone;
mod cli;
mod cli_error;
mod commands;
mod engine;
mod match_cmd;
mod pbrain;
mod play_cmd;
mod registry;
mod selfplay;
mod serve;
mod setup;
mod tune;

use std::{ffi::OsString, process::ExitCode};

pub use registry::{Commands, Registry, bundled_games};

/// Runs the command line (`std::env::args`) over `registry`'s games and gives the exit
/// status: 0 on success, 2 on a usage error (the error is on stderr).
pub fn run_cli(registry: &Registry) -> ExitCode {
    cli::run_from(std::env::args_os(), registry)
}

/// [`run_cli`] on the given arguments, the program name first
/// (`["boardlab", "perft", "gomoku", "2"]`).
pub fn run_cli_from<I, T>(args: I, registry: &Registry) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    cli::run_from(args, registry)
}
