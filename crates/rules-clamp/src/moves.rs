//! Moves, the reasons a move is illegal, and the undo record.

use board_core::{Coord, Square};
use thiserror::Error;

/// A clamp move: a drop (`d7`) or a step of one or two squares (`c6-c4`).
///
/// Squares are flat indices (`row * size + col`, row 0 = rank 1); the move only means
/// something together with a board size, so print and read it through
/// [`Position::format_move`](board_core::Notation::format_move) and
/// [`Position::parse_move`](board_core::Notation::parse_move). Six bytes, `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// A new piece on an empty square of the mover's drop zone.
    Drop(Square),
    /// A piece moves from the first square to the second.
    Step(Square, Square),
}

impl Move {
    /// The square the piece lands on.
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Drop(to) | Move::Step(_, to) => to,
        }
    }

    /// The square a step starts from; `None` for a drop.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Drop(_) => None,
            Move::Step(from, _) => Some(from),
        }
    }

    /// Whether this is a drop of a new piece (not a step).
    #[inline]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop(_))
    }
}

/// Why a move is illegal. Squares print in `a1` notation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Error)]
pub enum MoveError {
    /// The game has ended: no move is legal.
    #[error("the game is over")]
    GameOver,
    /// A square of the move is not on the board (only possible for a hand-built [`Move`]).
    #[error("square index {index} is off the {size}x{size} board")]
    OffBoard {
        /// The offending flat square index (`row * size + col`).
        index: u16,
        /// The side length of the board, in squares.
        size: u32,
    },
    /// A drop outside the mover's drop zone (Black: the top `zone` ranks, White: the bottom).
    #[error("{square} is outside your drop zone (ranks {first_rank}-{last_rank})")]
    OutsideZone {
        /// The square the drop aimed at.
        square: Coord,
        /// The lowest rank of the mover's zone, 1-based as printed.
        first_rank: u32,
        /// The highest rank of the mover's zone, 1-based as printed.
        last_rank: u32,
    },
    /// A drop with an empty hand under a finite `supply`.
    #[error("you have no pieces left in hand to drop (supply={supply}): step instead")]
    NoPiecesInHand {
        /// The configured number of pieces each player starts with in hand.
        supply: u32,
    },
    /// A drop while the mover already has `max_on_board` pieces on the board.
    #[error("you already have {max} pieces on the board: no drop until you have fewer")]
    TooManyPieces {
        /// The configured `max_on_board` limit.
        max: u32,
    },
    /// The square a drop or step lands on already holds a piece.
    #[error("{0} is occupied")]
    Occupied(Coord),
    /// A step from an empty square.
    #[error("there is no piece on {0}")]
    NoPiece(Coord),
    /// A step of the opponent's piece.
    #[error("{0} is not your piece")]
    NotYourPiece(Coord),
    /// A step whose origin and destination are the same square.
    #[error("{0}-{0} does not move the piece")]
    NullStep(Coord),
    /// A step that is not along a row, column or diagonal.
    #[error("{from}-{to} is not a straight line (a step goes along a row, column or diagonal)")]
    NotStraight {
        /// The square the step starts from.
        from: Coord,
        /// The square the step aims at.
        to: Coord,
    },
    /// A straight step of more than 2 squares.
    #[error("{from}-{to} is {distance} squares: a step is 1 or 2 squares")]
    TooFar {
        /// The square the step starts from.
        from: Coord,
        /// The square the step aims at.
        to: Coord,
        /// How many squares the step covers along its line (at least 3).
        distance: u32,
    },
    /// A 2-square step whose middle square holds a piece.
    #[error("{from}-{to} passes over {over}, which is occupied")]
    Blocked {
        /// The square the step starts from.
        from: Coord,
        /// The square the step aims at.
        to: Coord,
        /// The occupied square between them.
        over: Coord,
    },
}

/// What [`make_move`](board_core::Rules::make_move) returns and
/// [`unmake_move`](board_core::Rules::unmake_move) needs: the captured pieces (as
/// directions from the landing square), the previous quiet counter and hash. 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    pub(crate) captured: u8,
    pub(crate) quiet: u32,
    pub(crate) hash: u64,
}

impl Undo {
    /// How many enemy pieces the move captured (0–8).
    pub fn captures(&self) -> u32 {
        self.captured.count_ones()
    }

    /// The quiet counter before the move.
    pub fn previous_quiet(&self) -> u32 {
        self.quiet
    }
}
