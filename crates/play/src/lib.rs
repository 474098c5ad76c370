//! Terminal play for boardlab games: people against the computer (or each other) with
//! undo, restart, save/load and hints, a replay viewer for saved games, and the terminal
//! client of the game server ([`connect`]: `boardlab connect`).
//!
//! Everything is generic over [`board_core::Position`]: the computer side is any
//! [`search::Agent`], so a game defined outside this workspace plays the same way (see
//! `docs/adding-a-game.md`). Sessions read lines from any [`std::io::BufRead`] and write to
//! any [`std::io::Write`], so tests drive them in-process and the binary wires stdin/stdout.

#![deny(missing_docs)]

pub mod connect;
pub mod render;
pub mod replay;
pub mod session;

pub use replay::{REPLAY_HELP, Replay};
pub use session::{
    HELP, Humans, LevelMaker, Opponent, Progress, SaveSnapshot, Session, Settings, UnknownHumans,
    game_id,
};

/// Whether to draw in colour: not when `no_color` was asked for, not when `NO_COLOR` is set
/// (to anything non-empty), and only when the output is a terminal.
pub fn use_color(no_color: bool, output_is_terminal: bool) -> bool {
    !no_color && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && output_is_terminal
}
