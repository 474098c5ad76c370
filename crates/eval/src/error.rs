//! The one error type of this crate.

use board_core::{Player, Square};
use std::fmt;

/// Why an evaluator refused its input. Nothing in this crate panics on caller input: sizes,
/// `k`, weight tables and squares are range-checked and reported here instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// `k` does not fit: it must be 1 or more and at most `max` (the longer board side, or
    /// 32 for a single line).
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
    BadWeights {
        /// Entries needed (`k`).
        expected: usize,
        /// Entries given.
        got: usize,
    },
    /// A square index that is not on the board.
    OffBoard {
        /// The flat index given.
        square: u16,
        /// Cells on the board.
        cells: usize,
    },
    /// The board has more cells than the square-set type can hold.
    SetTooSmall {
        /// Cells on the board.
        cells: usize,
        /// Squares the set type holds.
        capacity: usize,
    },
    /// A piece was placed on a square that already holds one.
    Occupied {
        /// The flat index given.
        square: u16,
    },
    /// A piece was removed from a square that does not hold a piece of that player.
    NotThere {
        /// The flat index given.
        square: u16,
        /// Whose piece was to be removed.
        player: Player,
    },
    /// A line given as bit masks is malformed: longer than 32 cells, stones beyond its
    /// length, or a cell claimed by both players.
    BadLine {
        /// The line length given.
        len: u32,
    },
    /// The two players' piece sets share a square.
    Overlap {
        /// The first shared square.
        square: u16,
    },
    /// Positions to fit weights to ([`crate::tune::fit`]) that cannot be fitted: none, a
    /// feature count other than the weights', a result outside 0..=1.
    BadSamples(String),
}

impl EvalError {
    pub(crate) fn off_board(sq: Square, cells: usize) -> EvalError {
        EvalError::OffBoard {
            square: sq.0,
            cells,
        }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::BadK {
                k,
                width,
                height,
                max,
            } => write!(
                f,
                "line length k={k} does not fit a {width}x{height} board: allowed 1-{max}"
            ),
            EvalError::BadWeights { expected, got } => write!(
                f,
                "weight table has {got} entries, expected {expected} (one per piece count 1..=k)"
            ),
            EvalError::OffBoard { square, cells } => {
                write!(f, "square index {square} is off a board of {cells} cells")
            }
            EvalError::SetTooSmall { cells, capacity } => write!(
                f,
                "a board of {cells} cells does not fit a square set of capacity {capacity}"
            ),
            EvalError::Occupied { square } => {
                write!(f, "square index {square} is already occupied")
            }
            EvalError::NotThere { square, player } => {
                write!(
                    f,
                    "square index {square} holds no piece of the {player} player"
                )
            }
            EvalError::BadLine { len } => write!(
                f,
                "malformed line of {len} cells (at most 32, masks inside the line and disjoint)"
            ),
            EvalError::Overlap { square } => {
                write!(f, "square index {square} is in both players' sets")
            }
            EvalError::BadSamples(why) => write!(f, "cannot fit weights: {why}"),
        }
    }
}

impl std::error::Error for EvalError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_problem() {
        let e = EvalError::BadK {
            k: 7,
            width: 6,
            height: 6,
            max: 6,
        };
        assert_eq!(
            e.to_string(),
            "line length k=7 does not fit a 6x6 board: allowed 1-6"
        );
        let e = EvalError::NotThere {
            square: 3,
            player: Player::Second,
        };
        assert_eq!(
            e.to_string(),
            "square index 3 holds no piece of the second player"
        );
        let boxed: Box<dyn std::error::Error> = Box::new(EvalError::Overlap { square: 1 });
        assert!(boxed.to_string().contains("both players"));
    }
}
