//! The shared vocabulary of boardlab: squares and their `a1` notation, board geometry and
//! ray tables, bitboards, line masks for the k-in-a-row games ([`lines`]), Zobrist keys,
//! game spec strings, the [`Position`] trait every game implements, perft, save files, and a
//! conformance harness ([`testing`]) for any implementation of the trait.
//!
//! # The game traits, and why three
//!
//! A game is described by three traits, one per concern, each a supertrait of the next:
//!
//! - [`Rules`]: the side to move, move generation, validation, make/unmake, the hash and
//!   the outcome. This is all that perft and the search need, and the only place a game's
//!   speed matters.
//! - [`Notation`]: reading and printing moves, which a search needs to print its
//!   principal variation and a protocol to talk to the world.
//! - [`Position`]: the config a game is built from, position strings (serialisation, read
//!   in two steps through an unvalidated [`Setup`], see [`setup`]) and the presentation
//!   words (diagram, player names, why the game ended).
//!
//! Why split rather than give the last two defaults: a wrapper that adds search state to a
//! game (`search::Incremental`) or a test game written to exercise the search has no
//! position strings or diagram of its own, and with one trait it had to forward or stub
//! all 21 methods. Now it implements `Rules` and `Notation` and nothing else; the search is
//! generic over `P: Notation`. Defaults for position strings could only have been an error
//! or a guess, which is the silent fallback this crate avoids. Presentation beyond the
//! diagram lives in [`view::View`], a trait of its own for the same reason.
//!
//! Generic code bound by `P: Position` sees every method of the three; code calling them on
//! a concrete type imports the traits that declare them (`use board_core::prelude::*`).
//!
//! ```
//! use board_core::{Geometry, Direction};
//! let g = Geometry::new(6, 6).unwrap();
//! let a2 = g.parse_square("a2").unwrap();
//! assert_eq!(g.step(a2, Direction::West), None); // never wraps to f1
//! assert_eq!(g.format_square(g.step(a2, Direction::North).unwrap()), "a3");
//! ```

pub mod bitboard;
pub mod diagram;
mod geometry;
pub mod lines;
pub mod perft;
/// The game traits, for code that calls their methods on a concrete type:
/// `use board_core::prelude::*;`.
pub mod prelude {
    pub use crate::{
        position::{Notation, Position, Rules},
        view::View,
    };
}
mod player;
mod position;
pub mod savefile;
pub mod setup;
pub mod spec;
mod square;
pub mod testing;
pub mod view;
pub mod zobrist;

pub use bitboard::{
    BitSet, Bitboard64, Bitboard128, BoardSet, OutOfCapacity, ShiftSet, SquareSet, StepMasks,
};
pub use geometry::{Direction, Geometry, GeometryError, Ray};
pub use perft::{divide, perft};
pub use player::{Outcome, Player};
pub use position::{GameConfig, MoveInputError, Notation, NotationError, Position, Rules};
pub use setup::{InvalidKind, PositionStringError, Setup};
pub use spec::{GameSpec, SpecError, SpecReader};
pub use square::{Coord, MAX_CELLS, MAX_SIDE, Square, SquareError};
pub use view::View;
pub use zobrist::{Zobrist, zobrist};
