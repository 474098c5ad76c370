//! The square sets behind a fourshift board: a plain `u64` for boards up to 8×8 (the default
//! 6×6 among them) and a [`BoardSet`] for anything larger, behind one small trait so the move
//! generator and the line detector are written once.
//!
//! Shifts move every square of a set one step at once: `<< width` is one step north,
//! `>> width` one step south, `<< 1` / `>> 1` east / west once the squares on the edge that
//! would wrap to the next row have been masked off.
//!
//! For the win test, boards up to 8×8 also get a compile-time table of the four whole lines
//! (row, column, both diagonals) through every square.

use std::{fmt, sync::OnceLock};

use board_core::{BitSet, BoardSet, Square, SquareSet};

/// Largest side that fits in a `u64` board.
pub(crate) const WORD_MAX_SIDE: u32 = 8;

/// Set operations the rules need.
pub(crate) trait Bits: Copy + Eq + Default + fmt::Debug + Send + Sync + 'static {
    /// The set holding `sq` alone (empty if `sq` is past the capacity).
    fn bit(sq: Square) -> Self;
    fn has(self, sq: Square) -> bool;
    /// Adds `sq` if absent, removes it if present; nothing if `sq` is not in `within`.
    fn toggle_within(&mut self, sq: Square, within: &Self);
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// `self & !other`.
    fn and_not(self, other: Self) -> Self;
    /// Every square moved `n` indices up (`0 < n < 64`); squares past the capacity drop off.
    fn shl(self, n: u32) -> Self;
    /// Every square moved `n` indices down (`0 < n < 64`).
    fn shr(self, n: u32) -> Self;
    fn count(self) -> u32;
    fn is_empty(self) -> bool;
    /// Removes and returns the lowest square.
    fn pop(&mut self) -> Option<Square>;
    /// The edge masks of a `size × size` board.
    fn masks(size: u32) -> &'static Masks<Self>;
    /// For each square of a `size × size` board, the four whole lines through it (see
    /// [`line_steps`] for their order); empty for the wide type, where walking the lines
    /// from the square is cheaper than one eleven-word mask per line.
    fn line_masks(size: u32) -> &'static [[Self; 4]];
    fn to_board_set(self) -> BoardSet;
}

/// Per-size masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Masks<B> {
    /// Every square of the board.
    pub all: B,
    /// Squares that have a neighbour to the west (not in column `a`).
    pub has_west: B,
    /// Squares that have a neighbour to the east (not in the last column).
    pub has_east: B,
}

const fn word_masks(size: u32) -> Masks<u64> {
    let mut all = 0u64;
    let mut has_west = 0u64;
    let mut has_east = 0u64;
    let mut row = 0;
    while row < size {
        let mut col = 0;
        while col < size {
            let bit = 1u64 << (row * size + col);
            all |= bit;
            if col > 0 {
                has_west |= bit;
            }
            if col + 1 < size {
                has_east |= bit;
            }
            col += 1;
        }
        row += 1;
    }
    Masks {
        all,
        has_west,
        has_east,
    }
}

const fn all_word_masks() -> [Masks<u64>; WORD_MAX_SIDE as usize + 1] {
    let mut out = [Masks {
        all: 0,
        has_west: 0,
        has_east: 0,
    }; WORD_MAX_SIDE as usize + 1];
    let mut size = 0;
    while size <= WORD_MAX_SIDE {
        out[size as usize] = word_masks(size);
        size += 1;
    }
    out
}

static WORD_MASKS: [Masks<u64>; WORD_MAX_SIDE as usize + 1] = all_word_masks();

/// The index step along each line of [`Bits::line_masks`] on a board of width `w`: east, north,
/// north-east, north-west.
#[inline]
pub(crate) const fn line_steps(w: u32) -> [u32; 4] {
    [1, w, w + 1, w - 1]
}

/// The four whole lines through the square at `col`, `row` of a `size × size` board, in the
/// order of [`line_steps`]: the row, the column, the diagonal rising to the right and the
/// diagonal rising to the left.
const fn word_lines_through(size: u32, col: u32, row: u32) -> [u64; 4] {
    const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
    let mut out = [0u64; 4];
    let mut axis = 0;
    while axis < 4 {
        let (dc, dr) = DIRS[axis];
        let mut sign = -1;
        while sign <= 1 {
            let (mut c, mut r) = (col as i32, row as i32);
            while c >= 0 && r >= 0 && c < size as i32 && r < size as i32 {
                out[axis] |= 1u64 << (r as u32 * size + c as u32);
                c += dc * sign;
                r += dr * sign;
            }
            sign += 2;
        }
        axis += 1;
    }
    out
}

const fn all_word_lines() -> [[[u64; 4]; 64]; WORD_MAX_SIDE as usize + 1] {
    let mut out = [[[0u64; 4]; 64]; WORD_MAX_SIDE as usize + 1];
    let mut size = 1;
    while size <= WORD_MAX_SIDE {
        let mut sq = 0;
        while sq < size * size {
            out[size as usize][sq as usize] = word_lines_through(size, sq % size, sq / size);
            sq += 1;
        }
        size += 1;
    }
    out
}

/// `WORD_LINES[size][square]`: see [`word_lines_through`] (18 KiB, built at compile time).
static WORD_LINES: [[[u64; 4]; 64]; WORD_MAX_SIDE as usize + 1] = all_word_lines();

impl Bits for u64 {
    #[inline]
    fn bit(sq: Square) -> u64 {
        1u64.checked_shl(sq.0 as u32).unwrap_or(0)
    }
    #[inline]
    fn has(self, sq: Square) -> bool {
        self & Self::bit(sq) != 0
    }
    #[inline]
    fn toggle_within(&mut self, sq: Square, within: &u64) {
        *self ^= Self::bit(sq) & within;
    }
    #[inline]
    fn and(self, other: u64) -> u64 {
        self & other
    }
    #[inline]
    fn or(self, other: u64) -> u64 {
        self | other
    }
    #[inline]
    fn and_not(self, other: u64) -> u64 {
        self & !other
    }
    #[inline]
    fn shl(self, n: u32) -> u64 {
        self.checked_shl(n).unwrap_or(0)
    }
    #[inline]
    fn shr(self, n: u32) -> u64 {
        self.checked_shr(n).unwrap_or(0)
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline]
    fn pop(&mut self) -> Option<Square> {
        if *self == 0 {
            return None;
        }
        let sq = Square(self.trailing_zeros() as u16);
        *self &= *self - 1;
        Some(sq)
    }
    #[inline]
    fn masks(size: u32) -> &'static Masks<u64> {
        &WORD_MASKS[(size as usize).min(WORD_MAX_SIDE as usize)]
    }
    fn line_masks(size: u32) -> &'static [[u64; 4]] {
        let cells = (size * size) as usize;
        WORD_LINES
            .get(size as usize)
            .and_then(|lines| lines.get(..cells))
            .unwrap_or(&[])
    }
    fn to_board_set(self) -> BoardSet {
        let mut out = BoardSet::default();
        out.0[0] = self;
        out
    }
}

const WORDS: usize = 11;

impl Bits for BoardSet {
    #[inline]
    fn bit(sq: Square) -> BoardSet {
        let mut out = BoardSet::default();
        out.insert(sq);
        out
    }
    #[inline]
    fn has(self, sq: Square) -> bool {
        self.contains(sq)
    }
    #[inline]
    fn toggle_within(&mut self, sq: Square, within: &BoardSet) {
        if within.contains(sq) {
            SquareSet::toggle(self, sq);
        }
    }
    #[inline]
    fn and(self, other: BoardSet) -> BoardSet {
        self & other
    }
    #[inline]
    fn or(self, other: BoardSet) -> BoardSet {
        self | other
    }
    #[inline]
    fn and_not(self, other: BoardSet) -> BoardSet {
        self.without_all(other)
    }
    fn shl(self, n: u32) -> BoardSet {
        if n == 0 || n >= 64 {
            return if n == 0 { self } else { BoardSet::default() };
        }
        let a = self.0;
        let mut out = [0u64; WORDS];
        out[0] = a[0] << n;
        for i in 1..WORDS {
            out[i] = (a[i] << n) | (a[i - 1] >> (64 - n));
        }
        BitSet(out)
    }
    fn shr(self, n: u32) -> BoardSet {
        if n == 0 || n >= 64 {
            return if n == 0 { self } else { BoardSet::default() };
        }
        let a = self.0;
        let mut out = [0u64; WORDS];
        for i in 0..WORDS - 1 {
            out[i] = (a[i] >> n) | (a[i + 1] << (64 - n));
        }
        out[WORDS - 1] = a[WORDS - 1] >> n;
        BitSet(out)
    }
    #[inline]
    fn count(self) -> u32 {
        SquareSet::count(&self)
    }
    #[inline]
    fn is_empty(self) -> bool {
        SquareSet::is_empty(&self)
    }
    #[inline]
    fn pop(&mut self) -> Option<Square> {
        self.pop_first()
    }
    fn masks(size: u32) -> &'static Masks<BoardSet> {
        static MASKS: OnceLock<Vec<Masks<BoardSet>>> = OnceLock::new();
        let all = MASKS.get_or_init(|| (0..=26).map(wide_masks).collect());
        &all[(size as usize).min(all.len() - 1)]
    }
    fn line_masks(_size: u32) -> &'static [[BoardSet; 4]] {
        &[]
    }
    fn to_board_set(self) -> BoardSet {
        self
    }
}

fn wide_masks(size: u32) -> Masks<BoardSet> {
    let mut masks = Masks {
        all: BoardSet::default(),
        has_west: BoardSet::default(),
        has_east: BoardSet::default(),
    };
    for row in 0..size {
        for col in 0..size {
            let sq = Square((row * size + col) as u16);
            masks.all.insert(sq);
            if col > 0 {
                masks.has_west.insert(sq);
            }
            if col + 1 < size {
                masks.has_east.insert(sq);
            }
        }
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model_shift(set: &[u16], n: i32, cap: i32) -> Vec<u16> {
        set.iter()
            .map(|&s| s as i32 + n)
            .filter(|&s| (0..cap).contains(&s))
            .map(|s| s as u16)
            .collect()
    }

    fn squares<B: Bits>(mut b: B) -> Vec<u16> {
        let mut out = Vec::new();
        while let Some(sq) = b.pop() {
            out.push(sq.0);
        }
        out
    }

    #[test]
    fn shifts_match_a_model() {
        let set = [0u16, 5, 63, 64, 100, 127, 128, 600, 675, 703];
        let wide: BoardSet = set.iter().map(|&s| Square(s)).collect();
        for n in [1u32, 6, 8, 13, 26, 63] {
            assert_eq!(
                squares(wide.shl(n)),
                model_shift(&set, n as i32, 704),
                "<< {n}"
            );
            assert_eq!(
                squares(wide.shr(n)),
                model_shift(&set, -(n as i32), 704),
                ">> {n}"
            );
        }
        let word: u64 = set.iter().filter(|&&s| s < 64).map(|&s| 1u64 << s).sum();
        let small: Vec<u16> = set.iter().copied().filter(|&s| s < 64).collect();
        for n in [1u32, 6, 8] {
            assert_eq!(squares(word.shl(n)), model_shift(&small, n as i32, 64));
            assert_eq!(squares(word.shr(n)), model_shift(&small, -(n as i32), 64));
        }
        assert_eq!(u64::bit(Square(64)), 0);
        assert!(!Bits::has(BoardSet::default(), Square(9999)));
    }

    #[test]
    fn line_masks_hold_whole_lines() {
        let lines = u64::line_masks(6);
        assert_eq!(lines.len(), 36);
        // c3 (index 14): row 3, column c, diagonals a1-f6 and a5-e1
        let sq = |name: &str| {
            let b = name.as_bytes();
            1u64 << ((b[1] - b'1') as u32 * 6 + (b[0] - b'a') as u32)
        };
        let set = |names: &str| names.split(' ').map(sq).fold(0, |a, b| a | b);
        assert_eq!(lines[14][0], set("a3 b3 c3 d3 e3 f3"));
        assert_eq!(lines[14][1], set("c1 c2 c3 c4 c5 c6"));
        assert_eq!(lines[14][2], set("a1 b2 c3 d4 e5 f6"));
        assert_eq!(lines[14][3], set("e1 d2 c3 b4 a5"));
        assert_eq!(line_steps(6), [1, 6, 7, 5]);
        assert!(BoardSet::line_masks(6).is_empty());
        assert_eq!(u64::line_masks(8).len(), 64);
    }

    #[test]
    fn masks_agree() {
        for size in 3..=8 {
            let w = u64::masks(size);
            let b = BoardSet::masks(size);
            assert_eq!(w.all.to_board_set(), b.all);
            assert_eq!(w.has_west.to_board_set(), b.has_west);
            assert_eq!(w.has_east.to_board_set(), b.has_east);
            assert_eq!(w.all.count(), size * size);
            assert_eq!(w.has_west.count(), size * (size - 1));
        }
        assert_eq!(Bits::count(BoardSet::masks(26).all), 676);
    }
}
