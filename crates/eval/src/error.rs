//! The one error type of this crate.

use board_core::{Player, Square};
use thiserror::Error;

/// Why an evaluator refused its input. Nothing in this crate panics on caller input: sizes,
/// `k`, weight tables and squares are range-checked and reported here instead.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EvalError {
    /// `k` does not fit: it must be 1 or more and at most `max` (the longer board side, or
    /// 32 for a single line).
    #[error("line length k={k} does not fit a {width}x{height} board: allowed 1-{max}")]
    BadK {
        /// The refused length.
        k: u32,
        /// Board width (the line length for a single line).
        width: u32,
        /// Board height (1 for a single line).
        height: u32,
        /// The largest allowed `k`.
        max: u32,
    },
    /// A weight table has the wrong number of entries.
    #[error("weight table has {got} entries, expected {expected} (one per piece count 1..=k)")]
    BadWeights {
        /// Entries needed (`k`).
        expected: usize,
        /// Entries given.
        got: usize,
    },
    /// A square index that is not on the board.
    #[error("square index {square} is off a board of {cells} cells")]
    OffBoard {
        /// The flat index given.
        square: u16,
        /// Cells on the board.
        cells: usize,
    },
    /// The board has more cells than the square-set type can hold.
    #[error("a board of {cells} cells does not fit a square set of capacity {capacity}")]
    SetTooSmall {
        /// Cells on the board.
        cells: usize,
        /// Squares the set type holds.
        capacity: usize,
    },
    /// A piece was placed on a square that already holds one.
    #[error("square index {square} is already occupied")]
    Occupied {
        /// The flat index given.
        square: u16,
    },
    /// A piece was removed from a square that does not hold a piece of that player.
    #[error("square index {square} holds no piece of the {player} player")]
    NotThere {
        /// The flat index given.
        square: u16,
        /// Whose piece was to be removed.
        player: Player,
    },
    /// A line given as bit masks is malformed: longer than 32 cells, stones beyond its
    /// length, or a cell claimed by both players.
    #[error("malformed line of {len} cells (at most 32, masks inside the line and disjoint)")]
    BadLine {
        /// The line length given.
        len: u32,
    },
    /// The two players' piece sets share a square.
    #[error("square index {square} is in both players' sets")]
    Overlap {
        /// The first shared square.
        square: u16,
    },
}

impl EvalError {
    pub(crate) fn off_board(sq: Square, cells: usize) -> EvalError {
        EvalError::OffBoard {
            square: sq.0,
            cells,
        }
    }
}
