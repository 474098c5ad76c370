//! Squares, coordinates and the `a1` notation.
//!
//! A [`Square`] is a flat index `row * width + col` (row 0 = rank 1), so it means something
//! only together with a board width; a [`Coord`] is a (column, row) pair that prints and
//! parses on its own. [`crate::Geometry`] converts between the two for a given board.

use std::{fmt, str::FromStr};

use thiserror::Error;

/// The largest board side any boardlab game allows (columns `a`..=`z`).
pub const MAX_SIDE: u8 = 26;
/// The largest number of cells on a board (26×26).
pub const MAX_CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// A flat square index on some board: `row * width + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square(pub u16);

impl Square {
    /// The square with flat index `index` (`row * width + col`). Unchecked: whether it is
    /// on a board is [`crate::Geometry::contains`]'s question.
    #[inline]
    pub const fn new(index: u16) -> Square {
        Square(index)
    }

    /// The flat index, for indexing per-square arrays and bit sets.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A column and row, both 0-based and below [`MAX_SIDE`]; prints as `a1` (column letter,
/// 1-based rank).
///
/// The fields are private so that every `Coord` is one that prints and parses back: build
/// one with [`Coord::new`] (checked) or by parsing `c3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Coord {
    col: u8,
    row: u8,
}

impl Coord {
    /// A coordinate, if both parts are below [`MAX_SIDE`].
    pub const fn new(col: u8, row: u8) -> Option<Coord> {
        if col < MAX_SIDE && row < MAX_SIDE {
            Some(Coord { col, row })
        } else {
            None
        }
    }

    /// The 0-based column (`a` is 0), below [`MAX_SIDE`].
    #[inline]
    pub const fn col(self) -> u8 {
        self.col
    }

    /// The 0-based row (rank 1 is 0), below [`MAX_SIDE`].
    #[inline]
    pub const fn row(self) -> u8 {
        self.row
    }
}

impl fmt::Display for Coord {
    /// `a1` … `z26`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `col < MAX_SIDE` is the type's invariant, so the letter is `a`..=`z`.
        let letter = char::from(b'a' + self.col);
        write!(f, "{letter}{}", u32::from(self.row) + 1)
    }
}

/// Why a square could not be parsed or placed on a board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SquareError {
    /// The text is not a square in `a1` notation: not one letter followed by a row number
    /// of one or two digits from 1 to 26.
    #[error("'{0}' is not a square: expected a column letter a-z and a row number, like c3")]
    Syntax(
        /// The refused text, trimmed and cut to its first 16 characters.
        String,
    ),
    /// The square is well formed but outside the board it was placed on.
    #[error("{square} is off the {width}x{height} board")]
    OffBoard {
        /// The square in lower-case `a1` notation.
        square: String,
        /// The board's width, in columns.
        width: u8,
        /// The board's height, in rows.
        height: u8,
    },
}

impl FromStr for Coord {
    type Err = SquareError;

    /// Parses `c3` (case-insensitive, surrounding whitespace ignored).
    fn from_str(s: &str) -> Result<Coord, SquareError> {
        let t = s.trim();
        let bad = || SquareError::Syntax(t.chars().take(16).collect());
        let bytes = t.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(bad)?;
        let letter = letter.to_ascii_lowercase();
        if !letter.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || digits[0] == b'0'
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return Err(bad());
        }
        let row = digits.iter().fold(0u8, |acc, d| acc * 10 + (d - b'0'));
        if row == 0 || row > MAX_SIDE {
            return Err(bad());
        }
        Ok(Coord {
            col: letter - b'a',
            row: row - 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_and_prints() {
        assert_eq!("a1".parse::<Coord>(), Ok(Coord { col: 0, row: 0 }));
        assert_eq!(" Z26 ".parse::<Coord>(), Ok(Coord { col: 25, row: 25 }));
        assert_eq!(Coord { col: 2, row: 9 }.to_string(), "c10");
        for bad in [
            "", "a", "1", "a0", "a27", "aa1", "a01", "a1b", "é1", "a-1", "a100",
        ] {
            assert!(bad.parse::<Coord>().is_err(), "{bad}");
        }
    }

    /// Regression (no-panic review): `Coord`'s fields were public and a column past `z`
    /// printed as a character that never parsed back. Now only `new` and parsing build one.
    #[test]
    fn only_coords_on_a_26x26_board_exist() {
        assert_eq!(Coord::new(25, 25), Some(Coord { col: 25, row: 25 }));
        assert_eq!(Coord::new(26, 0), None);
        assert_eq!(Coord::new(0, 26), None);
        assert_eq!(Coord::new(255, 255), None);
        let c = Coord::new(2, 9).unwrap();
        assert_eq!((c.col(), c.row()), (2, 9));
        assert_eq!(Coord::new(25, 25).unwrap().to_string(), "z26");
    }

    proptest! {
        #[test]
        fn coord_round_trips(col in 0u8..26, row in 0u8..26) {
            let c = Coord { col, row };
            prop_assert_eq!(c.to_string().parse::<Coord>(), Ok(c));
            prop_assert_eq!(c.to_string().to_uppercase().parse::<Coord>(), Ok(c));
        }

        #[test]
        fn parse_never_panics(s in "\\PC{0,6}") {
            let _ = s.parse::<Coord>();
        }
    }
}
