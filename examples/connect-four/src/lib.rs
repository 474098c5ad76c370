//! Connect Four, the tutorial game of `docs/adding-a-game.md`, as a crate of its own that
//! depends on boardlab's crates only: its rules ([`game`]) and its evaluator and players
//! ([`players`]).

pub mod game;
pub mod players;
