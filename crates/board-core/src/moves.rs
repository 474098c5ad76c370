//! The default notation of games whose moves are squares: a square (`c3`), a pair of
//! squares (`c3-c4`), either of them or a pass ([`PassOr`], written `pass`).
//!
//! A game whose `Rules::Move` is one of these types takes its whole [`Notation`](crate::Notation)
//! impl from [`square_notation!`](crate::square_notation): moves are read and written with
//! the game's [`View::geometry`](crate::View::geometry), so a square off the board is refused
//! while reading, with the board's size in the message.
//!
//! ```
//! use board_core::{Geometry, Square, moves::{PassOr, SquareMove}};
//! let g = Geometry::new(7, 6)?;
//! let d1 = g.parse_square("d1")?;
//! assert_eq!(Square::read(g, " D1 ")?, d1);
//! assert_eq!(<[Square; 2]>::read(g, "d1 d2")?.write(g), "d1-d2");
//! assert_eq!(PassOr::<Square>::read(g, "PASS")?, PassOr::Pass);
//! assert_eq!(PassOr::Play(d1).write(g), "d1");
//! assert_eq!(
//!     Square::read(g, "h1").unwrap_err().to_string(),
//!     "h1 is off the 7x6 board"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::{fmt, hash::Hash};

use crate::{Geometry, NotationError, Square};

/// A move type written in square notation.
pub trait SquareMove: Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync + 'static {
    /// What a move looks like, for the error on text that is none ("a square, like c3").
    const EXPECTED: &'static str;

    /// Reads a move (case-insensitive, surrounding whitespace ignored). Checks the syntax
    /// and that every square is on `geometry`; legality is the rules' job.
    fn read(geometry: &Geometry, text: &str) -> Result<Self, NotationError>;

    /// Writes the move in canonical (lower-case) notation; [`read`](SquareMove::read)
    /// reads it back.
    fn write(self, geometry: &Geometry) -> String;

    /// Every move of this shape on `geometry`, legal or not: what a game that lists its
    /// moves by validating each one goes through ([`crate::BoardGame::generate_moves`]).
    /// A board's squares, or its ordered pairs of distinct squares (cells² of them: fine
    /// for small boards only).
    fn every(geometry: &Geometry) -> Vec<Self>;
}

/// One square: a stone placed, a square claimed.
impl SquareMove for Square {
    const EXPECTED: &'static str = "a square, like c3";

    fn read(geometry: &Geometry, text: &str) -> Result<Square, NotationError> {
        Ok(geometry.parse_square(text)?)
    }

    fn write(self, geometry: &Geometry) -> String {
        geometry.format_square(self)
    }

    fn every(geometry: &Geometry) -> Vec<Square> {
        geometry.squares().collect()
    }
}

/// Two squares in order, written `c3-c4` (also read as `c3 c4`): a piece moved from the
/// first to the second.
impl SquareMove for [Square; 2] {
    const EXPECTED: &'static str = "two squares, like c3-c4";

    fn read(geometry: &Geometry, text: &str) -> Result<[Square; 2], NotationError> {
        let words: Vec<&str> = text.split(['-', ' ']).filter(|w| !w.is_empty()).collect();
        match words[..] {
            [from, to] => Ok([geometry.parse_square(from)?, geometry.parse_square(to)?]),
            _ => Err(NotationError::syntax(text, Self::EXPECTED)),
        }
    }

    fn write(self, geometry: &Geometry) -> String {
        format!(
            "{}-{}",
            geometry.format_square(self[0]),
            geometry.format_square(self[1])
        )
    }

    fn every(geometry: &Geometry) -> Vec<[Square; 2]> {
        let squares = || geometry.squares();
        squares()
            .flat_map(|from| {
                squares()
                    .filter(move |&to| to != from)
                    .map(move |to| [from, to])
            })
            .collect()
    }
}

/// A move of a game in which a player may pass: either a pass or a move `M`.
///
/// A pass is an ordinary move to every generic tool: it is generated and validated by the
/// rules (a game says when passing is allowed, for example only when nothing else is),
/// made and unmade, counted by perft, searched, and kept in save files as the word `pass`.
/// The game also says which moves are passes ([`Rules::is_pass`](crate::Rules::is_pass)),
/// so that front ends show "White passes" rather than a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PassOr<M> {
    /// The player passes: nothing on the board changes, the turn goes to the opponent.
    Pass,
    /// An ordinary move.
    Play(M),
}

impl<M: SquareMove> SquareMove for PassOr<M> {
    const EXPECTED: &'static str = "a move or pass";

    fn read(geometry: &Geometry, text: &str) -> Result<PassOr<M>, NotationError> {
        if text.trim().eq_ignore_ascii_case("pass") {
            Ok(PassOr::Pass)
        } else {
            M::read(geometry, text).map(PassOr::Play)
        }
    }

    fn write(self, geometry: &Geometry) -> String {
        match self {
            PassOr::Pass => "pass".to_string(),
            PassOr::Play(mv) => mv.write(geometry),
        }
    }

    /// The pass, then every move `M`.
    fn every(geometry: &Geometry) -> Vec<PassOr<M>> {
        let moves = M::every(geometry).into_iter().map(PassOr::Play);
        std::iter::once(PassOr::Pass).chain(moves).collect()
    }
}

/// Implements [`Notation`](crate::Notation) for a game whose moves are a [`SquareMove`]
/// type, reading and writing them on the board of its [`View::geometry`](crate::View::geometry).
///
/// ```text
/// board_core::square_notation!(ConnectFour);
/// ```
#[macro_export]
macro_rules! square_notation {
    ($game:ty) => {
        impl $crate::Notation for $game {
            fn parse_move(
                &self,
                text: &str,
            ) -> ::std::result::Result<<Self as $crate::Rules>::Move, $crate::NotationError> {
                <<Self as $crate::Rules>::Move as $crate::moves::SquareMove>::read(
                    <Self as $crate::View>::geometry(self),
                    text,
                )
            }

            fn format_move(&self, mv: <Self as $crate::Rules>::Move) -> ::std::string::String {
                $crate::moves::SquareMove::write(mv, <Self as $crate::View>::geometry(self))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn bad_text_is_refused_with_what_a_move_looks_like() {
        let g = Geometry::square(5).expect("5x5");
        let err = |r: Result<[Square; 2], NotationError>| r.unwrap_err().to_string();
        assert_eq!(
            err(<[Square; 2]>::read(g, "c3")),
            "'c3' is not a move: expected two squares, like c3-c4"
        );
        assert_eq!(
            err(<[Square; 2]>::read(g, "c3-c4-c5")),
            "'c3-c4-c5' is not a move: expected two squares, like c3-c4"
        );
        assert_eq!(
            err(<[Square; 2]>::read(g, "c3-f4")),
            "f4 is off the 5x5 board"
        );
        assert!(PassOr::<Square>::read(g, "passe").is_err());
        assert!(Square::read(g, "pass").is_err());
    }

    proptest! {
        #[test]
        fn moves_round_trip(a in 0u16..25, b in 0u16..25, pass in any::<bool>()) {
            let g = Geometry::square(5).expect("5x5");
            let (a, b) = (Square(a), Square(b));
            prop_assert_eq!(Square::read(g, &a.write(g).to_uppercase()), Ok(a));
            prop_assert_eq!(<[Square; 2]>::read(g, &[a, b].write(g)), Ok([a, b]));
            let mv = if pass { PassOr::Pass } else { PassOr::Play([a, b]) };
            prop_assert_eq!(PassOr::read(g, &mv.write(g)), Ok(mv));
        }
    }
}
