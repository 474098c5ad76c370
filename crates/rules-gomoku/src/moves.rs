//! Moves and the reasons a move can be illegal.

use board_core::{Coord, Square};
use thiserror::Error;

/// A gomoku move: put a stone of the side to move on a square (written `h8`).
///
/// Moves order by square index (`a1`, `b1`, … row by row), the order in which
/// [`generate_moves`](board_core::Rules::generate_moves) lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Move(pub Square);

impl Move {
    /// The move placing a stone on `sq`.
    #[inline]
    pub const fn new(sq: Square) -> Move {
        Move(sq)
    }

    /// The square the stone goes to.
    #[inline]
    pub const fn square(self) -> Square {
        self.0
    }
}

impl From<Square> for Move {
    #[inline]
    fn from(sq: Square) -> Move {
        Move(sq)
    }
}

/// Why a move is illegal in a position: one variant per reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum MoveError {
    /// The game has ended (five in a row, or a full board): no move is legal.
    #[error("the game is over")]
    GameOver,
    /// The square index is not on the board (only possible for a hand-made [`Move`]).
    #[error("square index {index} is off the {size}x{size} board")]
    OffBoard {
        /// The offending flat square index (`row * size + col`).
        index: u16,
        /// The side length of the board, in squares.
        size: u8,
    },
    /// The square already holds a stone.
    #[error("{0} is occupied")]
    Occupied(Coord),
}
