//! `boardlab play` and `boardlab replay`: thin wiring of the `play` crate to stdin/stdout.

use std::io::{self, IsTerminal};

use ::play::{Humans, Replay, Session, Settings};
use board_core::{Position, savefile::SaveFile};
use engines::{AgentKind, EngineGame, with_game};

use crate::{
    cli_error::CliError,
    commands::{EngineArgs, Think},
    setup,
};

pub fn run_play<P: EngineGame>(
    spec: &str,
    humans: Humans,
    think: Think,
    load: Option<&str>,
    no_color: bool,
    seed: u64,
) -> Result<(), CliError> {
    let start = P::new(setup::config::<P>(spec)?);
    let engine = EngineArgs {
        hash_mb: 64,
        threads: 1,
        seed,
    };
    let computer = AgentKind::Engine
        .build::<P>(engine.options()?)
        .map_err(|e| CliError::usage(e.to_string()))?;
    let settings = Settings {
        humans,
        limits: think.limits(),
        color: ::play::use_color(no_color, io::stdout().is_terminal()),
        echo: !io::stdin().is_terminal(),
    };
    let mut session = Session::new(start, Some(computer), settings);
    if let Some(path) = load {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::usage(format!("cannot read {path}: {e}")))?;
        session
            .load_text(&text)
            .map_err(|e| CliError::usage(format!("{path}: {e}")))?;
    }
    let stdin = io::stdin();
    session
        .run(&mut stdin.lock(), &mut io::stdout(), &mut io::stderr())
        .map_err(|e| CliError::usage(format!("i/o error: {e}")))
}

/// The game id of a save file's text.
pub fn save_game_id(text: &str) -> Result<String, CliError> {
    SaveFile::parse::<std::fmt::Error>(text)
        .map(|f| f.spec.id)
        .map_err(|e| CliError::usage(e.to_string()))
}

pub fn run_replay_file(path: &str, no_color: bool) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::usage(format!("cannot read {path}: {e}")))?;
    let id = save_game_id(&text)?;
    with_game!(id.as_str(), run_replay(&text, path, no_color))?
}

fn run_replay<P: Position>(text: &str, path: &str, no_color: bool) -> Result<(), CliError> {
    let color = ::play::use_color(no_color, io::stdout().is_terminal());
    let mut replay = Replay::<P>::from_save(text, color)
        .map_err(|e| CliError::usage(format!("{path}: {e}")))?
        .with_echo(!io::stdin().is_terminal());
    let stdin = io::stdin();
    replay
        .run(&mut stdin.lock(), &mut io::stdout())
        .map_err(|e| CliError::usage(format!("i/o error: {e}")))
}
