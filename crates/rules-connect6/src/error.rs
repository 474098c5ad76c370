//! Why a connect6 move is illegal.

use board_core::Coord;
use thiserror::Error;

/// Why a move is illegal in a position: one variant per reason, checked in this order
/// (the first that applies is reported): game over, off the board, number of stones,
/// same square twice, occupied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum MoveError {
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// A square index outside the board (only a hand-built [`crate::Move`] can do this;
    /// parsed moves are always on the board).
    #[error("square index {index} is off the {size}x{size} board")]
    OffBoard {
        /// The offending flat square index (`row * size + col`).
        index: u16,
        /// The side length of the board, in squares.
        size: u8,
    },
    /// A pair on the very first move of the game, which places one stone.
    #[error("the first move of the game places a single stone, not two")]
    FirstMoveIsSingle,
    /// A pair when only one empty square (the one named) remains.
    #[error("only {0} is empty: the last move places a single stone there")]
    LastSquareIsSingle(Coord),
    /// A single stone on a turn that places two.
    #[error(
        "this move places two stones (a single stone only on the first move or the last empty square)"
    )]
    PairRequired,
    /// Both stones of a pair on the same square.
    #[error("both stones are on {0}: a pair needs two different squares")]
    SameSquare(Coord),
    /// A stone on a square that already holds one.
    #[error("{0} is occupied")]
    Occupied(Coord),
}
