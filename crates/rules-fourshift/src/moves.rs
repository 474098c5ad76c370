//! The move type and the reasons a move can be illegal.

use board_core::{Coord, Square};
use thiserror::Error;

/// A fourshift move: a placement (`c3`) or a shift of one of the mover's pieces to an
/// orthogonally adjacent empty square (`c3-c4`).
///
/// Squares are flat indices (`row * size + col`, row 0 = rank 1) of the board the move is
/// meant for; the type is 6 bytes and `Copy`. Placements sort before shifts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// Put a piece from the hand on an empty square.
    Place(Square),
    /// Move a piece one step up, down, left or right.
    Shift {
        /// The square the piece leaves (holds one of the mover's pieces).
        from: Square,
        /// The empty square one orthogonal step away that the piece moves to.
        to: Square,
    },
}

impl Move {
    /// The square the piece ends on.
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Place(to) | Move::Shift { to, .. } => to,
        }
    }

    /// The square a shifted piece leaves (`None` for a placement).
    #[inline]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Place(_) => None,
            Move::Shift { from, .. } => Some(from),
        }
    }

    /// Whether this is a placement from the hand (not a shift).
    #[inline]
    pub const fn is_place(self) -> bool {
        matches!(self, Move::Place(_))
    }
}

/// Why a move is illegal in a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The game has ended; nothing can be played.
    #[error("the game is over")]
    GameOver,
    /// A square of the move is not on the board (a flat index of another board size).
    #[error("square index {index} is off the {size}x{size} board")]
    OffBoard {
        /// The offending flat square index (`row * size + col`).
        index: u16,
        /// The side length of the board, in squares.
        size: u32,
    },
    /// A placement on an occupied square.
    #[error("{square} is occupied")]
    Occupied {
        /// The square the placement aimed at.
        square: Coord,
    },
    /// Black's first placement on a centre square under `centre_opening=false`.
    #[error(
        "{square} is a centre square: the first placement may not be in the centre (centre_opening=false)"
    )]
    CentreOpening {
        /// The centre square Black tried to place on.
        square: Coord,
    },
    /// A shift while the mover still has pieces to place.
    #[error("you still have {in_hand} piece(s) in hand: place one before shifting")]
    ShiftWhilePlacing {
        /// How many pieces the mover still has in hand (at least 1).
        in_hand: u32,
    },
    /// A placement after all pieces are placed.
    #[error("all your pieces are placed: shift one of them instead")]
    PlaceWhileMoving,
    /// A shift from an empty square.
    #[error("there is no piece on {square}")]
    NoPiece {
        /// The empty square the shift starts from.
        square: Coord,
    },
    /// A shift of the opponent's piece.
    #[error("{square} is not your piece")]
    NotYourPiece {
        /// The square holding the opponent's piece.
        square: Coord,
    },
    /// A shift that is not one step up, down, left or right.
    #[error("{from}-{to} is not a step to an orthogonally adjacent square")]
    NotAdjacent {
        /// The square the shift starts from.
        from: Coord,
        /// The square the shift aims at, not a neighbour of `from`.
        to: Coord,
    },
    /// A shift onto an occupied square.
    #[error("cannot shift to {square}: it is occupied")]
    DestinationOccupied {
        /// The occupied square the shift aims at.
        square: Coord,
    },
}
