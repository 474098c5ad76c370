//! The one error type of this crate.

use board_core::{Player, Square};
use thiserror::Error;

/// Why an evaluator refused its input. Nothing in this crate panics on caller input: sizes,
/// `k`, weight tables and squares are range-checked and reported here instead.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EvalError {
    /// `k` does not fit the board: it must be 1 or more and at most the longer side.
    #[error("line length k={k} does not fit a {width}x{height} board: allowed 1-{max}")]
    BadK {
        k: u32,
        width: u32,
        height: u32,
        max: u32,
    },
    /// A weight table has the wrong number of entries.
    #[error("weight table has {got} entries, expected {expected} (one per piece count 1..=k)")]
    BadWeights { expected: usize, got: usize },
    /// A square index that is not on the board.
    #[error("square index {square} is off a board of {cells} cells")]
    OffBoard { square: u16, cells: usize },
    /// The board has more cells than the square-set type can hold.
    #[error("a board of {cells} cells does not fit a square set of capacity {capacity}")]
    SetTooSmall { cells: usize, capacity: usize },
    /// A piece was placed on a square that already holds one.
    #[error("square index {square} is already occupied")]
    Occupied { square: u16 },
    /// A piece was removed from a square that does not hold a piece of that player.
    #[error("square index {square} holds no piece of the {player} player")]
    NotThere { square: u16, player: Player },
    /// A line given as bit masks is malformed: longer than 32 cells, stones beyond its
    /// length, or a cell claimed by both players.
    #[error("malformed line of {len} cells (at most 32, masks inside the line and disjoint)")]
    BadLine { len: u32 },
    /// The two players' piece sets share a square.
    #[error("square index {square} is in both players' sets")]
    Overlap { square: u16 },
}

impl EvalError {
    pub(crate) fn off_board(sq: Square, cells: usize) -> EvalError {
        EvalError::OffBoard {
            square: sq.0,
            cells,
        }
    }
}
