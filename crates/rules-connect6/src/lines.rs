//! Line masks: every row, column and diagonal of the board as a `u32` of bits, one per cell
//! along the line, so that "how long is the run through this stone" is a couple of shifts
//! and bit counts instead of a walk over the board.
//!
//! Line numbering (shared by all sizes, so the mask array has a fixed length):
//! - East (rows): line `r`, bit `c`;
//! - North (columns): line `26 + c`, bit `r`;
//! - NorthEast (`c − r` constant): line `52 + c − r + size − 1`, bit `min(c, r)`;
//! - SouthEast (`c + r` constant): line `103 + c + r`, bit `min(c, size − 1 − r)`.
//!
//! In every case bit 0 is the first cell of the line and the bits increase in the axis
//! direction ([`Direction::AXES`]: East, North, NorthEast, SouthEast).

use std::sync::OnceLock;

use board_core::{Direction, MAX_SIDE, Player, Square, zobrist};

/// Number of line masks per player: 26 rows + 26 columns + 51 + 51 diagonals = 154 are
/// used; the array has 256 so that a `u8` line index needs no bounds check.
pub(crate) const LINE_SLOTS: usize = 256;

const MAX: usize = MAX_SIDE as usize;
const NORTH_BASE: usize = MAX;
const NE_BASE: usize = 2 * MAX;
const SE_BASE: usize = 2 * MAX + 2 * MAX - 1;

/// Where a square sits on one of its four lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Slot {
    /// `1 << bit`.
    pub mask: u32,
    /// Index of the line's mask.
    pub line: u8,
    /// The square's bit in that mask.
    pub bit: u8,
    /// Number of cells on the line.
    pub len: u8,
}

/// Everything make/unmake needs about one square, in one place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CellInfo {
    /// The Zobrist key of a stone of each player here.
    pub keys: [u64; 2],
    /// The square's slot on each axis, in [`Direction::AXES`] order.
    pub slots: [Slot; 4],
}

/// The index in [`Direction::AXES`] of the axis a direction runs along (a direction and its
/// opposite name the same axis), and whether the direction goes up the bits.
#[inline]
pub(crate) fn axis_of(dir: Direction) -> (usize, bool) {
    match dir {
        Direction::East => (0, true),
        Direction::West => (0, false),
        Direction::North => (1, true),
        Direction::South => (1, false),
        Direction::NorthEast => (2, true),
        Direction::SouthWest => (2, false),
        Direction::SouthEast => (3, true),
        Direction::NorthWest => (3, false),
    }
}

/// The [`CellInfo`] of every square of a `size × size` board, built once per size.
pub(crate) fn cells(size: u32) -> &'static [CellInfo] {
    static TABLES: [OnceLock<Box<[CellInfo]>>; MAX + 1] = [const { OnceLock::new() }; MAX + 1];
    match TABLES.get(size as usize) {
        Some(cell) => cell.get_or_init(|| build(size as usize)),
        None => &[],
    }
}

fn build(size: usize) -> Box<[CellInfo]> {
    let keys = zobrist();
    let mut out = vec![CellInfo::default(); size * size];
    for r in 0..size {
        for c in 0..size {
            let slot = |line: usize, bit: usize, len: usize| Slot {
                mask: 1 << bit,
                line: line as u8,
                bit: bit as u8,
                len: len as u8,
            };
            let diff = c + size - 1 - r; // c - r + size - 1, in 0..2·size-1
            let sum = c + r;
            let sq = Square((r * size + c) as u16);
            out[r * size + c].keys = [
                keys.piece(Player::First.index(), sq),
                keys.piece(Player::Second.index(), sq),
            ];
            out[r * size + c].slots = [
                slot(r, c, size),
                slot(NORTH_BASE + c, r, size),
                slot(NE_BASE + diff, c.min(r), size - c.abs_diff(r)),
                slot(
                    SE_BASE + sum,
                    c.min(size - 1 - r),
                    if sum < size {
                        sum + 1
                    } else {
                        2 * size - 1 - sum
                    },
                ),
            ];
        }
    }
    out.into_boxed_slice()
}

/// How long the run of set bits through `bit` is (counting `bit` as set).
#[inline]
pub(crate) fn run_through(mask: u32, bit: u8) -> (u32, u32) {
    let m = mask | (1 << bit);
    // Ones from `bit` upwards, and from `bit` downwards (both include `bit`).
    let up = (!(m >> bit)).trailing_zeros();
    let down = (!(m << (31 - bit as u32))).leading_zeros();
    (up, down)
}

/// One line of the board (a rank, file, diagonal or anti-diagonal) through a square, as
/// bits: what pattern-based evaluation scans.
///
/// Bit `i` is the `i`-th square of the line from its start: its west end, or its south end
/// for a file; so the next higher bit is one step in the `axis` direction. Bits at and above
/// `len` are always clear. (The same shape as `rules_gomoku::LineView`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineView {
    /// `East`, `North`, `NorthEast` or `SouthEast`: the direction of increasing bits.
    pub axis: Direction,
    /// Black's stones on the line.
    pub black: u32,
    /// White's stones on the line.
    pub white: u32,
    /// The bit of the square the line was asked for.
    pub pos: u32,
    /// The number of squares on the line (1 to 26).
    pub len: u32,
}

impl LineView {
    /// `player`'s stones on the line.
    #[inline]
    pub const fn stones(&self, player: Player) -> u32 {
        match player {
            Player::First => self.black,
            Player::Second => self.white,
        }
    }

    /// The empty squares of the line.
    #[inline]
    pub const fn empty(&self) -> u32 {
        !(self.black | self.white) & self.on_board()
    }

    /// Every square of the line: the bits below `len`.
    #[inline]
    pub const fn on_board(&self) -> u32 {
        ((1u64 << self.len) - 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board_core::Geometry;

    #[test]
    fn slots_follow_the_axes() {
        for size in [6u32, 7, 19, 26] {
            let g = Geometry::square(size).unwrap();
            let table = cells(size);
            assert_eq!(table.len(), g.cells());
            for sq in g.squares() {
                assert_eq!(table[sq.index()].keys[1], zobrist().piece(1, sq));
                for (i, axis) in Direction::AXES.into_iter().enumerate() {
                    let s = table[sq.index()].slots[i];
                    assert!((s.line as usize) < 154);
                    assert_eq!(s.mask, 1 << s.bit);
                    assert!(s.bit < s.len && s.len as u32 <= size);
                    // The next square along the axis is on the same line, one bit up.
                    if let Some(next) = g.step(sq, axis) {
                        let t = table[next.index()].slots[i];
                        assert_eq!((t.line, t.bit, t.len), (s.line, s.bit + 1, s.len));
                    } else {
                        assert_eq!(s.bit + 1, s.len, "last cell of its line");
                    }
                    if g.step(sq, axis.opposite()).is_none() {
                        assert_eq!(s.bit, 0);
                    }
                    assert_eq!(axis_of(axis), (i, true));
                    assert_eq!(axis_of(axis.opposite()), (i, false));
                }
            }
            // No two squares share a (line, bit).
            let mut seen = std::collections::HashSet::new();
            for entry in table {
                for s in &entry.slots {
                    assert!(seen.insert((s.line, s.bit)));
                }
            }
        }
        assert!(cells(27).is_empty());
    }

    #[test]
    fn runs() {
        assert_eq!(run_through(0, 0), (1, 1));
        assert_eq!(run_through(0b0111_1110, 3), (4, 3));
        assert_eq!(run_through(u32::MAX >> 6, 25), (1, 26));
        assert_eq!(run_through(0b1, 0), (1, 1));
    }
}
