//! Board geometry: directions and the neighbour/ray tables of a `width × height` board.
//!
//! Tables are built once per board size and shared (`Geometry::new` returns a
//! `&'static Geometry`), so a position can keep a plain reference and stay cheap to clone.
//! A step that would leave the board is `None`: nothing ever wraps from one row to the next.

use std::{
    collections::HashMap,
    sync::{Mutex, OnceLock},
};

use crate::square::{Coord, MAX_SIDE, Square, SquareError};

/// One of the eight compass directions. `North` is towards higher ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Up the board: same column, next row (`a1` to `a2`).
    North,
    /// One column right and one row up (`a1` to `b2`).
    NorthEast,
    /// Right: next column, same row (`a1` to `b1`).
    East,
    /// One column right and one row down (`a2` to `b1`).
    SouthEast,
    /// Down the board: same column, previous row (`a2` to `a1`).
    South,
    /// One column left and one row down (`b2` to `a1`).
    SouthWest,
    /// Left: previous column, same row (`b1` to `a1`).
    West,
    /// One column left and one row up (`b1` to `a2`).
    NorthWest,
}

impl Direction {
    /// All eight, clockwise from `North`, in [`Direction::index`] order (so
    /// `ALL[d.index()] == d`).
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];
    /// The four rook directions, clockwise from `North`.
    pub const ORTHOGONAL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];
    /// The four bishop directions, clockwise from `NorthEast`.
    pub const DIAGONAL: [Direction; 4] = [
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::NorthWest,
    ];
    /// One direction per line through a square (horizontal, vertical, two diagonals):
    /// what k-in-a-row games scan, each paired with its [`Direction::opposite`].
    pub const AXES: [Direction; 4] = [
        Direction::East,
        Direction::North,
        Direction::NorthEast,
        Direction::SouthEast,
    ];

    /// Position in [`Direction::ALL`], `0..8` (`North` is 0, clockwise): the index of
    /// per-direction tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Column and row change of one step.
    #[inline]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// The direction pointing back (`North` ↔ `South`, `NorthEast` ↔ `SouthWest`, ...).
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 4) % 8]
    }
}

const NONE: u16 = u16::MAX;

/// Size and precomputed step tables of a rectangular board up to 26×26.
///
/// Equality compares the dimensions only: the tables follow from them.
#[derive(Debug)]
pub struct Geometry {
    width: u8,
    height: u8,
    /// `steps[sq * 8 + dir]`: the neighbour in that direction or `NONE`.
    steps: Box<[u16]>,
    /// `ray_len[sq * 8 + dir]`: how many steps fit before the edge.
    ray_len: Box<[u8]>,
}

impl PartialEq for Geometry {
    fn eq(&self, other: &Geometry) -> bool {
        (self.width, self.height) == (other.width, other.height)
    }
}

impl Eq for Geometry {}

/// Why a board size was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board size {width}x{height} is out of range: each side must be 1-{MAX_SIDE}")]
pub struct GeometryError {
    /// The refused width, in columns.
    pub width: u32,
    /// The refused height, in rows.
    pub height: u32,
}

impl Geometry {
    /// The shared geometry of a `width × height` board (both 1–26).
    pub fn new(width: u32, height: u32) -> Result<&'static Geometry, GeometryError> {
        if !(1..=MAX_SIDE as u32).contains(&width) || !(1..=MAX_SIDE as u32).contains(&height) {
            return Err(GeometryError { width, height });
        }
        static CACHE: OnceLock<Mutex<HashMap<(u8, u8), &'static Geometry>>> = OnceLock::new();
        let key = (width as u8, height as u8);
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Ok(*cache
            .entry(key)
            .or_insert_with(|| Box::leak(Box::new(Geometry::build(key.0, key.1)))))
    }

    /// The shared geometry of a square `size × size` board.
    pub fn square(size: u32) -> Result<&'static Geometry, GeometryError> {
        Geometry::new(size, size)
    }

    fn build(width: u8, height: u8) -> Geometry {
        let cells = width as usize * height as usize;
        let mut steps = vec![NONE; cells * 8];
        let mut ray_len = vec![0u8; cells * 8];
        for row in 0..height as i32 {
            for col in 0..width as i32 {
                let sq = (row * width as i32 + col) as usize;
                for dir in Direction::ALL {
                    let (dc, dr) = dir.delta();
                    let (mut c, mut r, mut len) = (col + dc as i32, row + dr as i32, 0u8);
                    if (0..width as i32).contains(&c) && (0..height as i32).contains(&r) {
                        steps[sq * 8 + dir.index()] = (r * width as i32 + c) as u16;
                    }
                    while (0..width as i32).contains(&c) && (0..height as i32).contains(&r) {
                        len += 1;
                        c += dc as i32;
                        r += dr as i32;
                    }
                    ray_len[sq * 8 + dir.index()] = len;
                }
            }
        }
        Geometry {
            width,
            height,
            steps: steps.into_boxed_slice(),
            ray_len: ray_len.into_boxed_slice(),
        }
    }

    /// Number of columns, `1..=26` (files `a` to `z`).
    #[inline]
    pub fn width(&self) -> u32 {
        self.width as u32
    }

    /// Number of rows, `1..=26` (ranks `1` to `26`).
    #[inline]
    pub fn height(&self) -> u32 {
        self.height as u32
    }

    /// Number of cells, `width * height`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// All squares, `a1`, `b1`, … row by row.
    pub fn squares(&self) -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator + use<> {
        (0..self.cells() as u16).map(Square)
    }

    /// Whether `sq` is on this board (its index is below [`Geometry::cells`]). A
    /// [`Square`] is a bare index, so one made for a larger board may be off this one.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        sq.index() < self.cells()
    }

    /// The square at `col`, `row` (0-based), if on the board.
    #[inline]
    pub fn square_at(&self, col: u32, row: u32) -> Option<Square> {
        (col < self.width as u32 && row < self.height as u32)
            .then(|| Square((row * self.width as u32 + col) as u16))
    }

    /// The square of a coordinate, or an error naming it if it is off this board.
    pub fn square_of(&self, c: Coord) -> Result<Square, SquareError> {
        self.square_at(c.col() as u32, c.row() as u32)
            .ok_or_else(|| SquareError::OffBoard {
                square: c.to_string(),
                width: self.width,
                height: self.height,
            })
    }

    /// Column and row of a square of this board; `None` for a square off it (its row
    /// would be past the last one, perhaps past what a [`Coord`] can name).
    #[inline]
    pub fn coord(&self, sq: Square) -> Option<Coord> {
        let w = self.width as u16;
        if !self.contains(sq) {
            return None;
        }
        Coord::new((sq.0 % w) as u8, (sq.0 / w) as u8)
    }

    /// The 0-based column of `sq` (`a` is 0), `< width`. Unchecked: for a square off the
    /// board it is still `index % width` (see [`Geometry::coord`] for a checked form).
    #[inline]
    pub fn col(&self, sq: Square) -> u32 {
        sq.0 as u32 % self.width as u32
    }

    /// The 0-based row of `sq` (rank `1` is 0). Unchecked: for a square off the board it
    /// is `index / width`, at least `height`.
    #[inline]
    pub fn row(&self, sq: Square) -> u32 {
        sq.0 as u32 / self.width as u32
    }

    /// Parses `c3` (any case, whitespace around ignored) into a square of this board.
    ///
    /// A well-formed square beyond the largest board (`d44`) is off this board, like `z9` on
    /// a 15×15 one: the same error for the same mistake.
    pub fn parse_square(&self, s: &str) -> Result<Square, SquareError> {
        match s.parse::<Coord>() {
            Ok(c) => self.square_of(c),
            Err(e) => {
                let t = s.trim();
                let (letter, digits) = t.split_at(t.chars().next().map_or(0, char::len_utf8));
                let well_formed = letter.chars().all(|c| c.is_ascii_alphabetic())
                    && !letter.is_empty()
                    && !digits.is_empty()
                    && !digits.starts_with('0')
                    && digits.chars().all(|c| c.is_ascii_digit());
                if well_formed {
                    Err(SquareError::OffBoard {
                        square: t.to_ascii_lowercase().chars().take(16).collect(),
                        width: self.width,
                        height: self.height,
                    })
                } else {
                    Err(e)
                }
            }
        }
    }

    /// Prints a square in lower-case `a1` notation; a square off this board (only an
    /// illegal move holds one) prints as its flat index, `#40`, which no parser reads.
    pub fn format_square(&self, sq: Square) -> String {
        match self.coord(sq) {
            Some(c) => c.to_string(),
            None => format!("#{}", sq.0),
        }
    }

    /// The neighbour of `sq` in direction `dir`, or `None` at the edge (and for a square
    /// off the board).
    #[inline]
    pub fn step(&self, sq: Square, dir: Direction) -> Option<Square> {
        match self.steps.get(sq.index() * 8 + dir.index()) {
            Some(&s) if s != NONE => Some(Square(s)),
            _ => None,
        }
    }

    /// How many squares lie beyond `sq` in direction `dir` before the edge (0 for a
    /// square off the board).
    #[inline]
    pub fn ray_length(&self, sq: Square, dir: Direction) -> u32 {
        self.ray_len
            .get(sq.index() * 8 + dir.index())
            .map_or(0, |&n| n as u32)
    }

    /// The squares from `sq` (exclusive) towards the edge in direction `dir`.
    #[inline]
    pub fn ray(&self, sq: Square, dir: Direction) -> Ray<'_> {
        Ray {
            geometry: self,
            next: self.step(sq, dir),
            dir,
        }
    }

    /// The on-board neighbours of `sq` among `dirs`.
    pub fn neighbours<'a>(
        &'a self,
        sq: Square,
        dirs: &'a [Direction],
    ) -> impl Iterator<Item = Square> + 'a {
        dirs.iter().filter_map(move |&d| self.step(sq, d))
    }

    /// Chebyshev (king-move) distance between two squares (of the board's flat indexing,
    /// so also for squares off it).
    pub fn king_distance(&self, a: Square, b: Square) -> u32 {
        let (ca, cb) = ((self.col(a), self.row(a)), (self.col(b), self.row(b)));
        (ca.0.abs_diff(cb.0)).max(ca.1.abs_diff(cb.1))
    }
}

/// Iterator over the squares of a ray, nearest first.
#[derive(Clone, Debug)]
pub struct Ray<'a> {
    geometry: &'a Geometry,
    next: Option<Square>,
    dir: Direction,
}

impl Iterator for Ray<'_> {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.next?;
        self.next = self.geometry.step(sq, self.dir);
        Some(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_never_wrap() {
        let g = Geometry::new(6, 6).unwrap();
        let a2 = g.parse_square("a2").unwrap();
        assert_eq!(g.step(a2, Direction::West), None);
        let f1 = g.parse_square("f1").unwrap();
        assert_eq!(g.step(f1, Direction::East), None);
        assert_eq!(
            g.step(f1, Direction::North),
            Some(g.parse_square("f2").unwrap())
        );
        assert_eq!(g.step(f1, Direction::South), None);
        for sq in g.squares() {
            for d in Direction::ALL {
                if let Some(n) = g.step(sq, d) {
                    assert_eq!(g.king_distance(sq, n), 1);
                    assert_eq!(g.step(n, d.opposite()), Some(sq));
                }
                assert_eq!(g.ray(sq, d).count() as u32, g.ray_length(sq, d));
            }
        }
    }

    #[test]
    fn shared_and_range_checked() {
        assert!(std::ptr::eq(
            Geometry::new(19, 19).unwrap(),
            Geometry::square(19).unwrap()
        ));
        assert!(Geometry::new(0, 5).is_err());
        assert!(Geometry::new(27, 5).is_err());
        let g6 = Geometry::new(6, 6).unwrap();
        assert_eq!(g6.step(Square(36), Direction::North), None);
        assert_eq!(g6.ray_length(Square(500), Direction::East), 0);
        assert_eq!(g6.ray(Square(u16::MAX), Direction::East).count(), 0);
        let g = Geometry::new(10, 8).unwrap();
        assert_eq!(g.format_square(Square(79)), "j8");
        assert!(matches!(
            g.parse_square("k1"),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            g.parse_square("a9"),
            Err(SquareError::OffBoard { .. })
        ));
        let rays: Vec<String> = g
            .ray(g.parse_square("c3").unwrap(), Direction::SouthWest)
            .map(|s| g.format_square(s))
            .collect();
        assert_eq!(rays, ["b2", "a1"]);
    }
}
