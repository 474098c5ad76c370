//! Line bitboards: every horizontal, vertical and diagonal line of the board as a `u32`
//! per player, and the table saying where each square sits on its four lines.
//!
//! The lines of a `n × n` board are numbered: ranks `0..n` (East), files `n..2n` (North),
//! diagonals `2n..4n-1` (NorthEast, by `col - row`), anti-diagonals `4n-1..6n-2`
//! (SouthEast, by `col + row`). Bit `i` of a line is its `i`-th square counted from its
//! start: the west end of a rank or a diagonal, the south end of a file, the west (upper)
//! end of an anti-diagonal. So moving in the axis direction (East, North, NorthEast,
//! SouthEast) is moving to the next higher bit, and a run of stones along a line is a run
//! of one bits: nothing can wrap from one line to another.

use std::sync::OnceLock;

use board_core::{Direction, MAX_SIDE};

/// Number of lines of the largest (26×26) board: `6 * 26 - 2`.
pub(crate) const LINE_COUNT: usize = 6 * MAX_SIDE as usize - 2;

/// Where a square sits on one of its lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Slot {
    /// The line's index (see the module docs).
    pub line: u8,
    /// The square's bit number on that line.
    pub pos: u8,
    /// The number of squares on the line.
    pub len: u8,
    /// `1 << pos`.
    pub bit: u32,
}

/// For each square of a board, its slot on each axis, in the order of
/// [`Direction::AXES`] (East, North, NorthEast, SouthEast).
pub(crate) type LineTable = [[Slot; 4]];

/// The axis (index into [`Direction::AXES`]) of a direction, and whether the direction
/// runs towards higher bits.
#[inline]
pub(crate) const fn axis_of(dir: Direction) -> (usize, bool) {
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

/// The shared table of a `size × size` board (built on first use; `size` is 1–26).
pub(crate) fn table(size: u32) -> &'static LineTable {
    static TABLES: [OnceLock<Box<LineTable>>; MAX_SIDE as usize + 1] =
        [const { OnceLock::new() }; MAX_SIDE as usize + 1];
    let size = size.clamp(1, MAX_SIDE as u32);
    TABLES[size as usize].get_or_init(|| build(size as usize))
}

fn build(n: usize) -> Box<LineTable> {
    let mut table = vec![[Slot::default(); 4]; n * n];
    for row in 0..n {
        for col in 0..n {
            let diag = col + n - 1 - row; // col - row + n - 1, in 0..2n-1
            let anti = col + row; // in 0..2n-1
            let anti_start = anti.saturating_sub(n - 1); // column of its west end
            let slots = [
                (row, col, n),
                (n + col, row, n),
                (2 * n + diag, col.min(row), n - diag.abs_diff(n - 1)),
                (4 * n - 1 + anti, col - anti_start, n - anti.abs_diff(n - 1)),
            ];
            table[row * n + col] = slots.map(|(line, pos, len)| Slot {
                line: line as u8,
                pos: pos as u8,
                len: len as u8,
                bit: 1 << pos,
            });
        }
    }
    table.into_boxed_slice()
}

/// The bits that start a run of five or more ones.
#[inline]
pub(crate) const fn five_or_more(bits: u32) -> u32 {
    let two = bits & (bits >> 1);
    two & (two >> 2) & (bits >> 4)
}

/// The bits that start a run of exactly five ones.
#[inline]
pub(crate) const fn exactly_five(bits: u32) -> u32 {
    five_or_more(bits) & !(bits >> 5) & !(bits << 1)
}

/// The length of the run of one bits through bit `pos` of `bits` (0 if that bit is clear).
#[inline]
pub(crate) const fn run_at(bits: u32, pos: u8) -> u32 {
    if bits >> pos & 1 == 0 {
        return 0;
    }
    run_up(bits, pos) + run_down(bits, pos) + 1
}

/// How many one bits follow bit `pos` upwards without a gap (bit `pos` itself not counted).
#[inline]
pub(crate) const fn run_up(bits: u32, pos: u8) -> u32 {
    ((bits as u64) >> (pos + 1)).trailing_ones()
}

/// How many one bits lie just below bit `pos` without a gap.
#[inline]
pub(crate) const fn run_down(bits: u32, pos: u8) -> u32 {
    // Zeros below `pos`: the highest one ends the run (none: the run reaches bit 0).
    let zeros = !(bits as u64) & ((1u64 << pos) - 1);
    pos as u32 + zeros.leading_zeros() - 64
}

#[cfg(test)]
mod tests {
    use board_core::Geometry;

    use super::*;

    #[test]
    fn tables_follow_the_geometry_on_every_board() {
        for n in 1..=MAX_SIDE as u32 {
            let g = Geometry::square(n).unwrap();
            let t = table(n);
            assert_eq!(t.len(), g.cells());
            let mut seen = std::collections::HashSet::new();
            for sq in g.squares() {
                for (axis, dir) in Direction::AXES.into_iter().enumerate() {
                    let slot = t[sq.index()][axis];
                    assert!((slot.line as usize) < 6 * n as usize - 2);
                    assert!(seen.insert((slot.line, slot.pos)), "{n} {sq:?}");
                    assert_eq!(slot.pos as u32, g.ray_length(sq, dir.opposite()));
                    assert_eq!(slot.len as u32, slot.pos as u32 + 1 + g.ray_length(sq, dir));
                    assert_eq!(slot.bit, 1 << slot.pos);
                    if let Some(next) = g.step(sq, dir) {
                        let s = t[next.index()][axis];
                        assert_eq!((s.line, s.pos, s.len), (slot.line, slot.pos + 1, slot.len));
                    }
                }
            }
            assert!(seen.len() == 4 * g.cells());
        }
    }

    #[test]
    fn fives_in_bits() {
        for bits in 0u32..1 << 14 {
            let (mut five, mut exact) = (0, 0);
            for start in 0..14 {
                let before = start > 0 && bits >> (start - 1) & 1 == 1;
                let len = run_up(bits, start) + 1;
                if bits >> start & 1 == 1 && !before {
                    if len >= 5 {
                        five |= 1 << start;
                    }
                    if len == 5 {
                        exact |= 1 << start;
                    }
                }
            }
            assert_eq!(five_or_more(bits) != 0, five != 0, "{bits:b}");
            assert_eq!(exactly_five(bits), exact, "{bits:b}");
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
    }
}
