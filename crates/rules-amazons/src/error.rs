//! Why a move is illegal: one variant per reason, squares in `a1` notation.

use board_core::Coord;
use thiserror::Error;

/// Why [`crate::AmazonsPosition`] refused a move. Checked in the order of the variants: the
/// first reason found is reported.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("square index {index} is off the {size}x{size} board")]
    OffBoard { index: u16, size: u8 },
    #[error("{square} is empty: there is no queen to move")]
    NoQueen { square: Coord },
    #[error("{square} holds an arrow, not a queen")]
    ArrowNotQueen { square: Coord },
    #[error("{square} is not your queen")]
    NotYourQueen { square: Coord },
    #[error("the queen on {square} must move to another square")]
    QueenMustMove { square: Coord },
    #[error("{from} to {to} is not a queen move: not along a row, column or diagonal")]
    NotQueenLine { from: Coord, to: Coord },
    #[error("{square} is occupied")]
    Occupied { square: Coord },
    #[error("the queen cannot pass from {from} to {to}: {blocker} is in the way")]
    PathBlocked {
        from: Coord,
        to: Coord,
        blocker: Coord,
    },
    #[error("the arrow cannot land on {square}, where its queen now stands")]
    ArrowOnQueen { square: Coord },
    #[error("an arrow from {from} cannot reach {to}: not along a row, column or diagonal")]
    ArrowNotQueenLine { from: Coord, to: Coord },
    #[error("the arrow cannot land on {square}: it is occupied")]
    ArrowOccupied { square: Coord },
    #[error("the arrow cannot fly from {from} to {to}: {blocker} is in the way")]
    ArrowPathBlocked {
        from: Coord,
        to: Coord,
        blocker: Coord,
    },
}
