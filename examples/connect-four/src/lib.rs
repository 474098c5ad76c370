//! Connect Four, the tutorial game of `docs/adding-a-game.md`, as a crate of its own that
//! depends on boardlab's published crates only: its rules ([`game`]), its evaluator
//! ([`eval`]) and its players ([`players`]).

pub mod eval;
pub mod game;
pub mod players;
