//! Position strings in two steps, as shakmaty separates `Setup` from `Position`: the text
//! parses into an unvalidated [`Setup`] (a board and the remaining fields, each read for its
//! syntax only), and each game then validates the setup into a position (counts, side to
//! move, ply, an outcome that can have happened). Both steps report a
//! [`PositionStringError`] whose variant names what was wrong.
//!
//! The board part is the same in every boardlab game, so it is written and read here once:
//! ranks from the top (rank `height` first) separated by `/`, within a rank one character
//! per piece and a decimal number (1 or more, no leading zero) for a run of empty squares.
//!
//! ```
//! use board_core::{Geometry, Player, setup::{Setup, write_board}};
//! let g = Geometry::square(3).unwrap();
//! let piece = |c: char| match c {
//!     'x' => Some(Player::First),
//!     'o' => Some(Player::Second),
//!     _ => None,
//! };
//! let setup: Setup<_, 2> = Setup::parse(g, "3/1x1/o2 x 2", "board, side, ply", piece, "x, o")
//!     .unwrap();
//! assert_eq!(setup.board[g.parse_square("b2").unwrap().index()], Some(Player::First));
//! assert_eq!(setup.fields, ["x", "2"]);
//! let letter = |p: Player| if p == Player::First { 'x' } else { 'o' };
//! assert_eq!(write_board(g, |sq| setup.board[sq.index()].map(letter)), "3/1x1/o2");
//! ```

use std::fmt::Write;

use thiserror::Error;

use crate::{
    geometry::Geometry,
    player::Player,
    position::{Notation, NotationError},
    square::Square,
    view::{Cell, PieceKind, View},
};

/// Longest position string read: a 26×26 board takes well under 1 KiB.
pub const MAX_LEN: usize = 4096;

/// What the fields of a position string did not satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvalidKind {
    /// The number of pieces of a kind (on the board, in hand) cannot occur.
    PieceCount,
    /// The side to move does not follow from the rest.
    SideToMove,
    /// The ply (or another move counter) does not fit the rest.
    Counter,
    /// The board shows an end of the game that cannot have happened, or a game that
    /// should have ended earlier.
    Outcome,
    /// A move that is not legal where it stands (for games whose position string is the
    /// list of moves played).
    IllegalMove,
}

/// Why a position string could not be read: its syntax (`Fields` … `Field`), or a setup
/// that is no position of the game (`Invalid`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionStringError {
    /// Longer than [`MAX_LEN`] bytes.
    #[error("bad position string: longer than {MAX_LEN} bytes")]
    TooLong,
    /// The wrong number of whitespace-separated fields.
    #[error("bad position string: expected {expected} fields ({layout}), found {found}")]
    FieldCount {
        /// How many the game wants.
        expected: usize,
        /// How many there were.
        found: usize,
        /// What they are, for people ("board, side to move, ply").
        layout: &'static str,
    },
    /// The board has the wrong number of ranks.
    #[error("bad position string: the board has {found} ranks, expected {expected}")]
    RankCount {
        /// How many ranks there were.
        found: usize,
        /// The board height.
        expected: u32,
    },
    /// A run of empty squares was 0 or had a leading zero.
    #[error("bad position string: rank {rank}: a number of empty squares cannot start with 0")]
    ZeroRun {
        /// The rank (1 = bottom).
        rank: u32,
    },
    /// A rank covers fewer squares than the board is wide.
    #[error("bad position string: rank {rank} covers {found} squares, expected {expected}")]
    RankLength {
        /// The rank (1 = bottom).
        rank: u32,
        /// Squares covered.
        found: u32,
        /// The board width.
        expected: u32,
    },
    /// A rank covers more squares than the board is wide.
    #[error("bad position string: rank {rank} covers more than {width} squares")]
    RankTooLong {
        /// The rank (1 = bottom).
        rank: u32,
        /// The board width.
        width: u32,
    },
    /// A character that is no piece of the game.
    #[error(
        "bad position string: rank {rank}: bad character '{found}': expected {expected} or a number of empty squares"
    )]
    BadPiece {
        /// The rank (1 = bottom).
        rank: u32,
        /// The character.
        found: char,
        /// The game's piece letters ("x, o").
        expected: &'static str,
    },
    /// A field after the board that does not read.
    #[error("bad position string: {field} '{text}' is not {expected}")]
    Field {
        /// Which field ("side to move", "ply").
        field: &'static str,
        /// The text (at most 24 characters of it).
        text: String,
        /// What it should be ("x or o", "a number from 0 to 80").
        expected: String,
    },
    /// The setup reads but is no position of the game.
    #[error("bad position string: {reason}")]
    Invalid {
        /// What was wrong.
        kind: InvalidKind,
        /// The details, for people.
        reason: String,
    },
}

impl PositionStringError {
    /// A field error quoting at most 24 characters of `text`.
    pub fn field(
        field: &'static str,
        text: &str,
        expected: impl Into<String>,
    ) -> PositionStringError {
        let mut quoted: String = text.chars().take(24).collect();
        if text.chars().nth(24).is_some() {
            quoted.push_str("...");
        }
        PositionStringError::Field {
            field,
            text: quoted,
            expected: expected.into(),
        }
    }

    /// A setup that is no position of the game.
    pub fn invalid(kind: InvalidKind, reason: impl Into<String>) -> PositionStringError {
        PositionStringError::Invalid {
            kind,
            reason: reason.into(),
        }
    }
}

/// A position string read for its syntax only: not yet a position of any game. `N` is the
/// number of fields after the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup<'a, T, const N: usize> {
    /// What stands on each square, by flat index (`geometry.cells()` entries).
    pub board: Vec<Option<T>>,
    /// The fields after the board, as written.
    pub fields: [&'a str; N],
}

impl<'a, T, const N: usize> Setup<'a, T, N> {
    /// Splits `text` into the board and `N` more fields (`layout` names all of them, the
    /// board first, for the error) and reads the board, with `piece` naming the thing each
    /// piece character stands for (`pieces` lists the characters, for the error).
    pub fn parse(
        geometry: &Geometry,
        text: &'a str,
        layout: &'static str,
        piece: impl Fn(char) -> Option<T>,
        pieces: &'static str,
    ) -> Result<Setup<'a, T, N>, PositionStringError> {
        if text.len() > MAX_LEN {
            return Err(PositionStringError::TooLong);
        }
        let all: Vec<&str> = text.split_whitespace().collect();
        let Some((board, rest)) = all.split_first().filter(|(_, rest)| rest.len() == N) else {
            return Err(PositionStringError::FieldCount {
                expected: N + 1,
                found: all.len(),
                layout,
            });
        };
        let fields: [&str; N] = rest
            .try_into()
            .map_err(|_| PositionStringError::FieldCount {
                expected: N + 1,
                found: all.len(),
                layout,
            })?;
        Ok(Setup {
            board: read_board(geometry, board, piece, pieces)?,
            fields,
        })
    }
}

/// The position string of a game that writes its positions as the moves played from the
/// start: the moves in notation, separated by spaces, `-` for none. [`read_moves`] reads it
/// back. Every position of every game has one, and reading it needs no validation beyond
/// the rules themselves, at the price of length (and of the position keeping its moves).
///
/// ```
/// use board_core::setup::{read_moves, write_moves};
/// # board_core::config_without_parameters!(struct Config = "pile");
/// # #[derive(Clone, Debug, PartialEq)]
/// # struct Pile(u32);
/// # #[derive(Clone, Debug, PartialEq, thiserror::Error)]
/// # #[error("take 1 or 2")]
/// # struct TakeOneOrTwo;
/// # impl board_core::Rules for Pile {
/// #     type Move = u32;
/// #     type Undo = ();
/// #     type MoveError = TakeOneOrTwo;
/// #     fn side_to_move(&self) -> board_core::Player { board_core::Player::BOTH[self.0 as usize % 2] }
/// #     fn ply(&self) -> u32 { self.0 }
/// #     fn compute_hash(&self) -> u64 { self.0.into() }
/// #     fn outcome(&self) -> Option<board_core::Outcome> { None }
/// #     fn generate_moves(&self, moves: &mut Vec<u32>) { *moves = vec![1, 2] }
/// #     fn validate(&self, mv: &u32) -> Result<(), TakeOneOrTwo> {
/// #         if (1..=2).contains(mv) { Ok(()) } else { Err(TakeOneOrTwo) }
/// #     }
/// #     fn make_move(&mut self, _: u32) { self.0 += 1 }
/// #     fn unmake_move(&mut self, _: u32, _: ()) { self.0 -= 1 }
/// # }
/// # impl board_core::Notation for Pile {
/// #     fn parse_move(&self, text: &str) -> Result<u32, board_core::NotationError> {
/// #         text.trim().parse().map_err(|_| board_core::NotationError::syntax(text, "a number"))
/// #     }
/// #     fn format_move(&self, mv: u32) -> String { mv.to_string() }
/// # }
/// // A game whose moves are numbers (the hidden lines implement it).
/// assert_eq!(write_moves(&Pile(0), &[]), "-");
/// assert_eq!(write_moves(&Pile(0), &[2, 1]), "2 1");
/// assert_eq!(read_moves(Pile(0), " 2 1 "), Ok(Pile(2)));
/// assert_eq!(read_moves(Pile(0), "-"), Ok(Pile(0)));
/// assert!(read_moves(Pile(0), "- 1").is_err());
/// let e = read_moves(Pile(0), "2 x").unwrap_err();
/// assert_eq!(e.to_string(), "bad position string: move 'x' is not a number");
/// let e = read_moves(Pile(0), "2 7").unwrap_err();
/// assert_eq!(e.to_string(), "bad position string: move 2 '7': take 1 or 2");
/// ```
pub fn write_moves<P: Notation>(start: &P, moves: &[P::Move]) -> String {
    let mut pos = start.clone();
    let words: Vec<String> = moves
        .iter()
        .map(|&mv| {
            let word = pos.format_move(mv);
            pos.make_move(mv);
            word
        })
        .collect();
    if words.is_empty() {
        "-".into()
    } else {
        words.join(" ")
    }
}

/// Reads a position string [`write_moves`] wrote: plays its moves from `start`, each
/// through validation. The error names the first move that does not read
/// ([`PositionStringError::Field`]) or is illegal where it stands
/// ([`InvalidKind::IllegalMove`]).
pub fn read_moves<P: Notation>(start: P, text: &str) -> Result<P, PositionStringError> {
    if text.len() > MAX_LEN {
        return Err(PositionStringError::TooLong);
    }
    let mut pos = start;
    let words: Vec<&str> = text.split_whitespace().collect();
    let moves = if words == ["-"] { &[][..] } else { &words[..] };
    for (i, &word) in moves.iter().enumerate() {
        let mv = pos.parse_move(word).map_err(|e| {
            let expected = match e {
                NotationError::Syntax { expected, .. } => expected.to_string(),
                other => format!("a move ({other})"),
            };
            PositionStringError::field("move", word, expected)
        })?;
        pos.play(mv).map_err(|e| {
            PositionStringError::invalid(
                InvalidKind::IllegalMove,
                format!("move {} '{word}': {e}", i + 1),
            )
        })?;
    }
    Ok(pos)
}

/// The board-style position string of a game with a [`View`]: the board drawn with the
/// view's glyphs in the shared board encoding (see the module docs), then `fields`
/// separated by spaces. [`read_view`] reads it back. The game chooses the fields: whatever
/// its cells do not show (the side to move, a counter), none if the board says it all.
///
/// ```
/// # use board_core::{Geometry, Player, Square, View, setup::{read_view, write_view}, view::Cell};
/// # board_core::config_without_parameters!(struct Config = "line");
/// # #[derive(Clone, Debug, PartialEq)]
/// # struct Line(Vec<Option<Player>>);
/// # #[derive(Clone, Debug, PartialEq, thiserror::Error)]
/// # #[error("no")]
/// # struct No;
/// # impl board_core::Rules for Line {
/// #     type Move = Square; type Undo = (); type MoveError = No;
/// #     fn side_to_move(&self) -> Player { Player::First }
/// #     fn ply(&self) -> u32 { 0 }
/// #     fn compute_hash(&self) -> u64 { 0 }
/// #     fn outcome(&self) -> Option<board_core::Outcome> { None }
/// #     fn generate_moves(&self, moves: &mut Vec<Square>) { moves.clear() }
/// #     fn validate(&self, _: &Square) -> Result<(), No> { Err(No) }
/// #     fn make_move(&mut self, _: Square) {}
/// #     fn unmake_move(&mut self, _: Square, _: ()) {}
/// # }
/// # board_core::square_notation!(Line);
/// # impl board_core::Position for Line {
/// #     type Config = Config;
/// #     fn new(_: Config) -> Line { Line(vec![None; 4]) }
/// #     fn config(&self) -> &Config { &Config }
/// #     fn to_position_string(&self) -> String { write_view(self, &[]) }
/// #     fn from_position_string(_: Config, s: &str) -> Result<Line, board_core::PositionStringError> {
/// #         let cells = read_view::<_, 0>(&Line(vec![None; 4]), s, "board")?.board;
/// #         Ok(Line(cells.into_iter().map(|c| c.and_then(Cell::owner)).collect()))
/// #     }
/// # }
/// # impl View for Line {
/// #     fn geometry(&self) -> &Geometry { Geometry::new(4, 1).unwrap() }
/// #     fn cell(&self, sq: Square) -> Cell { self.0[sq.index()].map_or(Cell::Empty, Cell::stone) }
/// # }
/// // A 4×1 board of stones (the hidden lines implement the game).
/// let pos = Line(vec![Some(Player::First), None, None, Some(Player::Second)]);
/// assert_eq!(write_view(&pos, &["x"]), "X2O x");
/// let setup = read_view::<_, 1>(&pos, "X2O x", "board, side")?;
/// assert_eq!(setup.board[3], Some(Cell::stone(Player::Second)));
/// assert_eq!(setup.fields, ["x"]);
/// let e = read_view::<_, 0>(&pos, "X2Q", "board").unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "bad position string: rank 1: bad character 'Q': expected a piece of the board diagram \
///      or a number of empty squares"
/// );
/// # Ok::<(), board_core::PositionStringError>(())
/// ```
pub fn write_view<V: View>(pos: &V, fields: &[&str]) -> String {
    let board = write_board(pos.geometry(), |sq| match pos.cell(sq) {
        Cell::Empty => None,
        cell => Some(pos.glyph(cell)),
    });
    std::iter::once(board.as_str())
        .chain(fields.iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads a position string [`write_view`] wrote into its cells (by square index, `None`
/// for an empty square) and its `N` fields, on the board of `start` (a position under the
/// config the string is read for) and with its glyphs. `layout` names the board and the
/// fields, for the error on a wrong number of them.
///
/// Each character stands for the first cell the view draws with it, in the order a stone,
/// a man and a queen of First, the same of Second, then a marker: exact for every game
/// whose glyphs tell its cells apart (the default glyphs do for a game of stones, or of one
/// kind of piece); the conformance harness ([`crate::testing`]) checks the round trip.
/// Whether the cells and fields make a position of the game is the game's to check.
pub fn read_view<'a, V: View, const N: usize>(
    start: &V,
    text: &'a str,
    layout: &'static str,
) -> Result<Setup<'a, Cell, N>, PositionStringError> {
    let kinds = [PieceKind::Stone, PieceKind::Man, PieceKind::Queen];
    let pieces = Player::BOTH
        .into_iter()
        .flat_map(|owner| kinds.map(|kind| Cell::Piece { owner, kind }));
    let cells: Vec<Cell> = pieces.chain([Cell::Marker]).collect();
    let piece = |c: char| cells.iter().copied().find(|&cell| start.glyph(cell) == c);
    Setup::parse(
        start.geometry(),
        text,
        layout,
        piece,
        "a piece of the board diagram",
    )
}

/// Reads a number field: decimal digits only, at most `max`.
pub fn read_number(
    field: &'static str,
    text: &str,
    max: u32,
    expected: &str,
) -> Result<u32, PositionStringError> {
    let bad = || PositionStringError::field(field, text, expected);
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse::<u32>()
        .ok()
        .filter(|n| *n <= max)
        .ok_or_else(bad)
}

/// The board part of a position string: `piece(sq)` is the character of what stands on
/// `sq`, `None` for an empty square.
pub fn write_board(geometry: &Geometry, piece: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::with_capacity(geometry.cells() + geometry.height() as usize);
    for row in (0..geometry.height()).rev() {
        let mut run = 0;
        for col in 0..geometry.width() {
            match geometry.square_at(col, row).and_then(&piece) {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        let _ = write!(out, "{run}");
                        run = 0;
                    }
                    out.push(c);
                }
            }
        }
        if run > 0 {
            let _ = write!(out, "{run}");
        }
        if row > 0 {
            out.push('/');
        }
    }
    out
}

/// Reads the board part of a position string (see the module docs) into one entry per
/// square, by flat index.
pub fn read_board<T>(
    geometry: &Geometry,
    text: &str,
    piece: impl Fn(char) -> Option<T>,
    pieces: &'static str,
) -> Result<Vec<Option<T>>, PositionStringError> {
    let (width, height) = (geometry.width(), geometry.height());
    let ranks = text.split('/').count();
    if ranks != height as usize {
        return Err(PositionStringError::RankCount {
            found: ranks,
            expected: height,
        });
    }
    let mut board: Vec<Option<T>> = (0..geometry.cells()).map(|_| None).collect();
    for (i, rank_text) in text.split('/').enumerate() {
        let row = height - 1 - i as u32;
        let rank = row + 1;
        let too_long = PositionStringError::RankTooLong { rank, width };
        let mut col = 0u32;
        let mut chars = rank_text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(PositionStringError::ZeroRun { rank });
                }
                let mut run = d;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    chars.next();
                    run = run.saturating_mul(10).saturating_add(d);
                }
                col = col.saturating_add(run);
                if col > width {
                    return Err(too_long);
                }
                continue;
            }
            let thing = piece(c).ok_or(PositionStringError::BadPiece {
                rank,
                found: c,
                expected: pieces,
            })?;
            let sq = geometry.square_at(col, row).ok_or(too_long.clone())?;
            board[sq.index()] = Some(thing);
            col += 1;
        }
        if col != width {
            return Err(PositionStringError::RankLength {
                rank,
                found: col,
                expected: width,
            });
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn xo(c: char) -> Option<bool> {
        match c {
            'x' | 'X' => Some(true),
            'o' | 'O' => Some(false),
            _ => None,
        }
    }

    #[test]
    fn each_board_error_names_what_was_wrong() {
        let g = Geometry::new(4, 3).unwrap();
        let read = |s: &str| read_board(g, s, xo, "x, o");
        assert_eq!(
            read("4/4"),
            Err(PositionStringError::RankCount {
                found: 2,
                expected: 3
            })
        );
        assert_eq!(
            read("4/04/4"),
            Err(PositionStringError::ZeroRun { rank: 2 })
        );
        assert_eq!(
            read("4/4/3xx"),
            Err(PositionStringError::RankTooLong { rank: 1, width: 4 })
        );
        assert_eq!(
            read("4/4/5"),
            Err(PositionStringError::RankTooLong { rank: 1, width: 4 })
        );
        assert_eq!(
            read("4/x2/4"),
            Err(PositionStringError::RankLength {
                rank: 2,
                found: 3,
                expected: 4
            })
        );
        assert_eq!(
            read("4/4/2q1"),
            Err(PositionStringError::BadPiece {
                rank: 1,
                found: 'q',
                expected: "x, o"
            })
        );
        let ok = read("x3/4/2Oo").unwrap();
        assert_eq!(ok[g.parse_square("a3").unwrap().index()], Some(true));
        assert_eq!(ok[g.parse_square("c1").unwrap().index()], Some(false));
        assert_eq!(ok.iter().flatten().count(), 3);
    }

    #[test]
    fn setups_check_the_field_count_and_length() {
        let g = Geometry::square(2).unwrap();
        let s: Setup<_, 2> =
            Setup::parse(g, " 2/x1  o 5 ", "board, side, ply", xo, "x, o").unwrap();
        assert_eq!(s.fields, ["o", "5"]);
        assert_eq!(s.board, [Some(true), None, None, None]);
        // The field count is checked before the board is read.
        assert_eq!(
            Setup::<bool, 3>::parse(g, "2/q o 5", "board, side, ply, extra", xo, "x, o"),
            Err(PositionStringError::FieldCount {
                expected: 4,
                found: 3,
                layout: "board, side, ply, extra"
            })
        );
        assert_eq!(
            Setup::<bool, 1>::parse(g, "", "board, side", xo, "x, o"),
            Err(PositionStringError::FieldCount {
                expected: 2,
                found: 0,
                layout: "board, side"
            })
        );
        let long = "1".repeat(MAX_LEN + 1);
        assert_eq!(
            Setup::<bool, 0>::parse(g, &long, "board", xo, "x, o"),
            Err(PositionStringError::TooLong)
        );
        assert_eq!(read_number("ply", "12", 100, "a number"), Ok(12));
        assert_eq!(
            read_number("ply", "1e3", 100, "a number")
                .unwrap_err()
                .to_string(),
            "bad position string: ply '1e3' is not a number"
        );
        assert!(read_number("ply", "101", 100, "a number").is_err());
    }

    proptest! {
        #[test]
        fn boards_round_trip(width in 1u32..=26, height in 1u32..=26, seed in any::<u64>()) {
            let g = Geometry::new(width, height).unwrap();
            let at = |sq: Square| match seed.rotate_left(sq.0 as u32 % 64) % 3 {
                0 => None,
                1 => Some('x'),
                _ => Some('o'),
            };
            let text = write_board(g, at);
            let board = read_board(g, &text, xo, "x, o").unwrap();
            for sq in g.squares() {
                prop_assert_eq!(board[sq.index()], at(sq).and_then(xo));
            }
        }

        #[test]
        fn reading_never_panics(text in "[0-9xo/q]{0,40}") {
            let _ = read_board(Geometry::square(5).unwrap(), &text, xo, "x, o");
        }
    }
}
