//! Line masks for square boards: every rank, file, diagonal and anti-diagonal of a
//! `size × size` board (`size` 1–26) as a `u32` of bits per player, one bit per square along
//! the line, so that "how long is the run through this stone" is a couple of shifts and bit
//! counts instead of a walk over the board. Shared by the k-in-a-row games (gomoku,
//! connect6).
//!
//! # Numbering
//!
//! The lines of an `n × n` board are numbered `0..6n-2` ([`line_count`]); a square at
//! column `c`, row `r` (both from 0, `a1` = (0, 0)) lies on:
//!
//! | axis ([`Direction::AXES`]) | line | bit | squares on the line |
//! |---|---|---|---|
//! | 0: East (rank) | `r` | `c` | `n` |
//! | 1: North (file) | `n + c` | `r` | `n` |
//! | 2: NorthEast (`c − r` constant) | `2n + (c − r + n − 1)` | `min(c, r)` | `n − \|c − r\|` |
//! | 3: SouthEast (`c + r` constant) | `4n − 1 + (c + r)` | `min(c, n − 1 − r)` | `n − \|c + r − (n − 1)\|` |
//!
//! Bit 0 of a line is its first square: the west end of a rank or a diagonal, the south end
//! of a file, the west (upper) end of an anti-diagonal. So one step in the axis direction
//! (East, North, NorthEast, SouthEast) is the next higher bit, a run of stones along a line
//! is a run of one bits, and nothing wraps from one line to another. Bits at and above the
//! line's length are never used.
//!
//! The numbers fit a `u8` (at most `6·26 − 2 = 154`), so per-player masks are kept in
//! arrays of [`LINE_SLOTS`] = 256 entries that a `u8` line number indexes without a bounds
//! check.
//!
//! ```
//! use board_core::{Direction, Geometry, lines};
//!
//! let g = Geometry::square(15).unwrap();
//! let e3 = g.parse_square("e3").unwrap();
//! let [rank, file, diag, anti] = lines::slots(15)[e3.index()];
//! assert_eq!((rank.line, rank.pos, rank.len), (2, 4, 15));
//! assert_eq!((file.line, file.pos, file.len), (15 + 4, 2, 15));
//! assert_eq!((diag.line, diag.pos, diag.len), (30 + 16, 2, 13));
//! assert_eq!((anti.line, anti.pos, anti.len), (59 + 6, 4, 7));
//! assert_eq!(lines::square_at(15, anti.line, anti.pos), Some(e3));
//! assert_eq!(lines::axis_of(Direction::SouthWest), (2, false));
//! ```

use std::sync::OnceLock;

use crate::{Direction, MAX_SIDE, Player, Square};

/// A maximal run of one player's stones that wins a k-in-a-row game (gomoku's five,
/// connect6's six).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WinningLine {
    /// The left end of the run (the bottom end for a vertical run).
    pub start: Square,
    /// The other end.
    pub end: Square,
    /// From `start` towards `end`: `East`, `North`, `NorthEast` or `SouthEast`.
    pub direction: Direction,
    /// Number of stones.
    pub len: u32,
}

/// Length of a per-player array of line masks indexed by a `u8` line number: 256, so the
/// index needs no bounds check (at most [`line_count`]`(26)` = 154 entries are used).
pub const LINE_SLOTS: usize = 256;

/// The number of lines of an `n × n` board (`6n − 2`; 0 for an empty board): `n` ranks,
/// `n` files, `2n − 1` diagonals and `2n − 1` anti-diagonals.
#[inline]
pub const fn line_count(size: u32) -> usize {
    (6 * size as usize).saturating_sub(2)
}

const _: () = assert!(line_count(MAX_SIDE as u32) <= LINE_SLOTS);

/// Where a square sits on one of its four lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Slot {
    /// The line's number (see the [module docs](self)).
    pub line: u8,
    /// The square's bit number on that line.
    pub pos: u8,
    /// The number of squares on the line (1 to 26).
    pub len: u8,
    /// `1 << pos`.
    pub mask: u32,
}

/// The axis (index into [`Direction::AXES`]: East, North, NorthEast, SouthEast) a direction
/// runs along, and whether it runs towards higher bits (a direction and its opposite name
/// the same axis).
#[inline]
pub const fn axis_of(dir: Direction) -> (usize, bool) {
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

/// For each square of a `size × size` board (by [`Square::index`]), its slot on each axis
/// in [`Direction::AXES`] order. Built on first use per size and shared; empty for a size
/// of 0 or above 26.
pub fn slots(size: u32) -> &'static [[Slot; 4]] {
    static TABLES: [OnceLock<Box<[[Slot; 4]]>>; MAX_SIDE as usize + 1] =
        [const { OnceLock::new() }; MAX_SIDE as usize + 1];
    match TABLES.get(size as usize) {
        Some(table) => table.get_or_init(|| build(size as usize)),
        None => &[],
    }
}

fn build(n: usize) -> Box<[[Slot; 4]]> {
    let mut table = vec![[Slot::default(); 4]; n * n];
    for row in 0..n {
        for col in 0..n {
            let diag = col + n - 1 - row; // col - row + n - 1, in 0..2n-1
            let anti = col + row; // in 0..2n-1
            let slots = [
                (row, col, n),
                (n + col, row, n),
                (2 * n + diag, col.min(row), n - diag.abs_diff(n - 1)),
                (
                    4 * n - 1 + anti,
                    col.min(n - 1 - row),
                    n - anti.abs_diff(n - 1),
                ),
            ];
            table[row * n + col] = slots.map(|(line, pos, len)| Slot {
                line: line as u8,
                pos: pos as u8,
                len: len as u8,
                mask: 1 << pos,
            });
        }
    }
    table.into_boxed_slice()
}

/// The square at bit `pos` of line `line` of a `size × size` board (the inverse of
/// [`slots`]); `None` if there is no such line or the line has no such bit.
pub fn square_at(size: u32, line: u8, pos: u8) -> Option<Square> {
    let n = size as usize;
    let (line, pos) = (line as usize, pos as usize);
    if n == 0 || n > MAX_SIDE as usize || line >= line_count(size) {
        return None;
    }
    let (col, row) = if line < n {
        (pos, line)
    } else if line < 2 * n {
        (line - n, pos)
    } else if line < 4 * n - 1 {
        // col - row = diag - (n - 1); the line starts on the west or the south edge.
        let diag = line - 2 * n;
        let (c0, r0) = (diag.saturating_sub(n - 1), (n - 1).saturating_sub(diag));
        (c0 + pos, r0 + pos)
    } else {
        // col + row = anti; the line starts on the west or the north edge.
        let anti = line - (4 * n - 1);
        let c0 = anti.saturating_sub(n - 1);
        let (col, row) = (c0 + pos, (anti - c0).checked_sub(pos)?);
        (col, row)
    };
    (col < n && row < n).then(|| Square((row * n + col) as u16))
}

/// The length of the run of one bits through bit `pos` of `bits` (0 if that bit is clear).
///
/// Like every run helper here, `pos` is a bit of a line, below 32 (it is taken modulo 32).
#[inline]
pub const fn run_at(bits: u32, pos: u8) -> u32 {
    let pos = pos & 31;
    if bits >> pos & 1 == 0 {
        return 0;
    }
    run_up(bits, pos) + run_down(bits, pos) + 1
}

/// How many one bits follow bit `pos` upwards without a gap (bit `pos` itself not counted).
#[inline]
pub const fn run_up(bits: u32, pos: u8) -> u32 {
    let pos = pos & 31;
    ((bits as u64) >> (pos + 1)).trailing_ones()
}

/// How many one bits lie just below bit `pos` without a gap (bit `pos` itself not counted).
#[inline]
pub const fn run_down(bits: u32, pos: u8) -> u32 {
    let pos = pos & 31;
    // Zeros below `pos`: the highest one ends the run (none: the run reaches bit 0).
    let zeros = !(bits as u64) & ((1u64 << pos) - 1);
    pos as u32 + zeros.leading_zeros() - 64
}

/// The run of one bits through bit `pos` of `bits | 1 << pos` (bit `pos` counted as set),
/// as (ones from `pos` upwards, ones from `pos` downwards), both counting `pos` itself: the
/// same as `(run_up + 1, run_down + 1)`, and the run's length is `up + down − 1`.
#[inline]
pub const fn run_through(bits: u32, pos: u8) -> (u32, u32) {
    let pos = pos & 31;
    let m = bits | (1 << pos);
    let up = (!(m >> pos)).trailing_zeros();
    let down = (!(m << (31 - pos as u32))).leading_zeros();
    (up, down)
}

/// One line of the board (a rank, file, diagonal or anti-diagonal) through a square, as
/// bits: what pattern-based evaluation scans.
///
/// Bit `i` is the `i`-th square of the line from its start (its west end, or its south end
/// for a file; see the [module docs](self)), so the next higher bit is one step in the
/// `axis` direction. Bits at and above `len` are always clear.
///
/// ```
/// use board_core::{Player, lines};
///
/// let slot = lines::slots(19)[3][0]; // d1 on the first rank
/// let rank = lines::LineView::new(0, slot, 0b0100, 0b1001);
/// assert_eq!((rank.pos, rank.len), (3, 19));
/// assert_eq!(rank.stones(Player::Second), 0b1001);
/// assert_eq!(rank.empty().count_ones(), 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineView {
    /// `East`, `North`, `NorthEast` or `SouthEast`: the direction of increasing bits.
    pub axis: Direction,
    /// The first player's (Black's) stones on the line.
    pub black: u32,
    /// The second player's (White's) stones on the line.
    pub white: u32,
    /// The bit of the square the line was asked for.
    pub pos: u32,
    /// The number of squares on the line (1 to 26).
    pub len: u32,
}

impl LineView {
    /// The line of `slot`, on axis `axis` (index into [`Direction::AXES`], taken modulo 4),
    /// holding the given stones.
    #[inline]
    pub const fn new(axis: usize, slot: Slot, black: u32, white: u32) -> LineView {
        LineView {
            axis: Direction::AXES[axis % 4],
            black,
            white,
            pos: slot.pos as u32,
            len: slot.len as u32,
        }
    }

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
        if self.len >= 32 {
            u32::MAX
        } else {
            !(u32::MAX << self.len)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::Geometry;

    #[test]
    fn slots_follow_the_geometry_on_every_size() {
        for n in 1..=MAX_SIDE as u32 {
            let g = Geometry::square(n).unwrap();
            let table = slots(n);
            assert_eq!(table.len(), g.cells());
            let mut seen = HashSet::new();
            let mut lines = HashSet::new();
            for sq in g.squares() {
                for (axis, dir) in Direction::AXES.into_iter().enumerate() {
                    let slot = table[sq.index()][axis];
                    assert!((slot.line as usize) < line_count(n), "{n} {sq:?}");
                    // No two squares share a (line, bit), and the slot leads back here.
                    assert!(seen.insert((slot.line, slot.pos)), "{n} {sq:?}");
                    assert_eq!(square_at(n, slot.line, slot.pos), Some(sq), "{n} {sq:?}");
                    lines.insert(slot.line);
                    // The bit counts the squares before this one; the length all of them.
                    assert_eq!(slot.pos as u32, g.ray_length(sq, dir.opposite()));
                    assert_eq!(
                        slot.len as u32,
                        slot.pos as u32 + 1 + g.ray_length(sq, dir),
                        "{n} {sq:?} {dir:?}"
                    );
                    assert!(slot.len as u32 <= n);
                    assert_eq!(slot.mask, 1 << slot.pos);
                    // One step along the axis: the same line, one bit up.
                    match g.step(sq, dir) {
                        Some(next) => {
                            let s = table[next.index()][axis];
                            assert_eq!((s.line, s.pos, s.len), (slot.line, slot.pos + 1, slot.len));
                        }
                        None => assert_eq!(slot.pos + 1, slot.len, "last square of its line"),
                    }
                }
            }
            assert_eq!(seen.len(), 4 * g.cells());
            // Every line number is used.
            assert_eq!(lines.len(), line_count(n));
            // Past the end of a line, or past the last line, there is no square.
            for line in 0..=255u8 {
                let len = (0..=26u8)
                    .take_while(|&pos| square_at(n, line, pos).is_some())
                    .count();
                if (line as usize) < line_count(n) {
                    assert!(len >= 1);
                    assert_eq!(square_at(n, line, 30), None);
                } else {
                    assert_eq!(len, 0);
                }
            }
        }
        assert!(slots(0).is_empty());
        assert!(slots(27).is_empty());
        assert!(slots(u32::MAX).is_empty());
        assert_eq!(square_at(0, 0, 0), None);
        assert_eq!(square_at(27, 0, 0), None);
        assert_eq!(line_count(0), 0);
        assert_eq!(line_count(19), 112);
        assert_eq!(line_count(MAX_SIDE as u32), 154);
    }

    #[test]
    fn axes() {
        for (i, dir) in Direction::AXES.into_iter().enumerate() {
            assert_eq!(axis_of(dir), (i, true));
            assert_eq!(axis_of(dir.opposite()), (i, false));
        }
    }

    #[test]
    fn runs_of_bits() {
        let bits = 0b0111_0110u32;
        assert_eq!(run_at(bits, 0), 0);
        assert_eq!(run_at(bits, 1), 2);
        assert_eq!(run_at(bits, 2), 2);
        assert_eq!(run_at(bits, 5), 3);
        assert_eq!(run_up(bits, 4), 2);
        assert_eq!(run_down(bits, 4), 0);
        assert_eq!(run_down(bits, 7), 3);
        assert_eq!(run_down(bits, 3), 2);
        assert_eq!(run_down(bits, 0), 0);
        assert_eq!(run_up(u32::MAX >> 6, 25), 0);
        assert_eq!(run_down(u32::MAX >> 6, 25), 25);
        assert_eq!(run_at(u32::MAX >> 6, 0), 26);
        assert_eq!(run_through(0, 0), (1, 1));
        assert_eq!(run_through(0b0111_1110, 3), (4, 3));
        assert_eq!(run_through(u32::MAX >> 6, 25), (1, 26));
        assert_eq!(run_through(0b1, 0), (1, 1));
        assert_eq!(run_through(u32::MAX, 31), (1, 32));
        assert_eq!(run_at(u32::MAX, 31), 32);
    }

    #[test]
    fn run_helpers_agree_with_a_walk() {
        let walk = |bits: u32, pos: u32, up: bool| {
            let mut n = 0;
            let mut p = pos as i32;
            loop {
                p += if up { 1 } else { -1 };
                if !(0..32).contains(&p) || bits >> p & 1 == 0 {
                    return n;
                }
                n += 1;
            }
        };
        for bits in (0u32..1 << 13).chain([u32::MAX, u32::MAX >> 6, 0xAAAA_AAAA, 0x7FFF_0FFF]) {
            for pos in (0..14).chain([25, 26, 31]) {
                let (up, down) = (walk(bits, pos, true), walk(bits, pos, false));
                let p = pos as u8;
                assert_eq!(run_up(bits, p), up, "{bits:b} {pos}");
                assert_eq!(run_down(bits, p), down, "{bits:b} {pos}");
                assert_eq!(run_through(bits, p), (up + 1, down + 1), "{bits:b} {pos}");
                let set = bits >> pos & 1 == 1;
                assert_eq!(run_at(bits, p), if set { up + down + 1 } else { 0 });
            }
        }
    }

    #[test]
    fn line_views() {
        let table = slots(19);
        let view = LineView::new(2, table[3][2], 0b10, 0b100);
        assert_eq!(view.axis, Direction::NorthEast);
        assert_eq!((view.pos, view.len), (0, 16));
        assert_eq!(view.on_board(), 0xFFFF);
        assert_eq!(view.empty(), 0xFFFF & !0b110);
        assert_eq!(view.stones(Player::First), 0b10);
        assert_eq!(view.stones(Player::Second), 0b100);
        let full = LineView { len: 32, ..view };
        assert_eq!(full.on_board(), u32::MAX);
        let none = LineView { len: 0, ..view };
        assert_eq!(none.empty(), 0);
    }
}
