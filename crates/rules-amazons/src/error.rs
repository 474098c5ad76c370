//! Why a move is illegal: one variant per reason, squares in `a1` notation.

use board_core::Coord;
use thiserror::Error;

/// Why [`crate::AmazonsPosition`] refused a move. Checked in the order of the variants: the
/// first reason found is reported.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The game has ended (the side to move has no legal move): nothing can be played.
    #[error("the game is over")]
    GameOver,
    /// A square of the move is not on the board (only possible for a hand-built
    /// [`crate::AmazonsMove`]).
    #[error("square index {index} is off the {size}x{size} board")]
    OffBoard {
        /// The offending flat square index (`row * size + col`).
        index: u16,
        /// The side length of the board, in squares.
        size: u8,
    },
    /// The move starts from an empty square.
    #[error("{square} is empty: there is no queen to move")]
    NoQueen {
        /// The empty `from` square.
        square: Coord,
    },
    /// The move starts from a square holding an arrow.
    #[error("{square} holds an arrow, not a queen")]
    ArrowNotQueen {
        /// The `from` square, which holds an arrow.
        square: Coord,
    },
    /// The move starts from a square holding the opponent's queen.
    #[error("{square} is not your queen")]
    NotYourQueen {
        /// The `from` square, which holds an enemy queen.
        square: Coord,
    },
    /// The queen's destination is the square it stands on.
    #[error("the queen on {square} must move to another square")]
    QueenMustMove {
        /// The queen's square (both `from` and `to`).
        square: Coord,
    },
    /// The queen's destination is not on a row, column or diagonal through its square.
    #[error("{from} to {to} is not a queen move: not along a row, column or diagonal")]
    NotQueenLine {
        /// The square the queen starts from.
        from: Coord,
        /// The square the queen aims at.
        to: Coord,
    },
    /// The queen's destination holds a queen or an arrow.
    #[error("{square} is occupied")]
    Occupied {
        /// The occupied `to` square.
        square: Coord,
    },
    /// A queen or an arrow stands between the queen's square and its destination.
    #[error("the queen cannot pass from {from} to {to}: {blocker} is in the way")]
    PathBlocked {
        /// The square the queen starts from.
        from: Coord,
        /// The square the queen aims at.
        to: Coord,
        /// The occupied square nearest to `from` on the way.
        blocker: Coord,
    },
    /// The arrow's target is the square the queen has just moved to.
    #[error("the arrow cannot land on {square}, where its queen now stands")]
    ArrowOnQueen {
        /// The queen's new square (both `to` and `arrow`).
        square: Coord,
    },
    /// The arrow's target is not on a row, column or diagonal through the queen's new
    /// square.
    #[error("an arrow from {from} cannot reach {to}: not along a row, column or diagonal")]
    ArrowNotQueenLine {
        /// The queen's new square, where the arrow is shot from.
        from: Coord,
        /// The square the arrow aims at.
        to: Coord,
    },
    /// The arrow's target holds a queen or an arrow after the queen's move (the square the
    /// queen left counts as empty).
    #[error("the arrow cannot land on {square}: it is occupied")]
    ArrowOccupied {
        /// The occupied `arrow` square.
        square: Coord,
    },
    /// A queen or an arrow stands between the queen's new square and the arrow's target,
    /// on the board after the queen's move.
    #[error("the arrow cannot fly from {from} to {to}: {blocker} is in the way")]
    ArrowPathBlocked {
        /// The queen's new square, where the arrow is shot from.
        from: Coord,
        /// The square the arrow aims at.
        to: Coord,
        /// The occupied square nearest to `from` on the way.
        blocker: Coord,
    },
}
