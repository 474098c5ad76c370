//! The shared vocabulary of boardlab: squares and their `a1` notation, board geometry and
//! ray tables, bitboards, line masks for the k-in-a-row games ([`lines`]), Zobrist keys,
//! game spec strings, the [`Position`] trait every game implements, perft, save files, and a
//! conformance harness ([`testing`]) for any implementation of the trait.
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
    pub use crate::position::{Notation, Position, Rules};
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
