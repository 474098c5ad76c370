//! `boardlab`: the command line that wires the boardlab crates together. No game logic
//! lives here: every subcommand is generic over `board_core::Position`.

mod cli_error;
mod commands;
mod games;
mod setup;

use std::process::ExitCode;

use clap::{Parser, Subcommand, error::ErrorKind};

use cli_error::CliError;

#[derive(Parser, Debug)]
#[command(name = "boardlab", version, about = "Board-game engines: rules, perft, search, play.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count move sequences of a given length (perft).
    Perft {
        /// Game spec, e.g. `gomoku` or `gomoku:size=20,rule=exact5`.
        spec: String,
        /// Number of plies.
        depth: u32,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "")]
        moves: String,
        /// Print one `<move> <count>` line per legal move before the total.
        #[arg(long)]
        divide: bool,
    },
    /// Print the board, position string, side to move and outcome.
    Show {
        /// Game spec, e.g. `amazons:size=8`.
        spec: String,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "")]
        moves: String,
    },
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Perft { spec, depth, moves, divide } => {
            if depth > commands::MAX_PERFT_DEPTH {
                return Err(CliError::usage(format!(
                    "depth {depth} is out of range: expected 0-{}",
                    commands::MAX_PERFT_DEPTH
                )));
            }
            let id = setup::game_id(&spec)?;
            with_game!(id.as_str(), run_perft_dispatch(&spec, depth, &moves, divide))?
        }
        Command::Show { spec, moves } => {
            let id = setup::game_id(&spec)?;
            with_game!(id.as_str(), run_show_dispatch(&spec, &moves))?
        }
    }
}

use commands::{run_perft as run_perft_dispatch, run_show as run_show_dispatch};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprint!("{e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
