//! Tables built once per board size: line ("rotated") occupancy indexing, sliding reach
//! tables, ray masks and the Zobrist keys, so that the hot paths are table lookups.
//!
//! **Lines.** Every row, column, diagonal (`/`, towards north-east) and anti-diagonal (`\`,
//! towards south-east) of the board is a *line* of at most 10 squares. A position keeps,
//! for each line, its occupancy as a 10-bit integer (bit `i` = the `i`-th square of the
//! line); bits past the end of a shorter line are permanently set, so they stop a slide
//! like an occupied square. Every square lies on exactly one line of each of the four
//! axes; two different squares share at most one line.
//!
//! **Reach tables**, indexed by `pos << 10 | occupancy` (the bit at `pos` itself is ignored):
//! - `reach_mask`: the positions a queen on `pos` reaches along the line through empty
//!   squares (both directions);
//! - `reach_count`: the number of those positions;
//! - `run_counts`: the reachable positions below `pos` (low nibble) and above it (high
//!   nibble), to update the mobility of those squares when `pos` fills or empties;
//! - `vacated_gain`: for a queen on `pos` moving along the line, summed over its
//!   destinations, how many more arrows each destination has along that line once `pos` is
//!   vacated than with `pos` occupied. (The rest of each destination's arrows is its
//!   mobility on the current board; see `AmazonsPosition::count_queen`.)

use std::sync::OnceLock;

use board_core::{Bitboard128, Direction, MAX_CELLS, Player, Square, SquareSet, zobrist};

/// Bits of line occupancy: lines hold at most 10 squares.
pub(crate) const LINE_BITS: u32 = 10;
/// All ten line bits set: a line with every square occupied.
pub(crate) const FULL_LINE: u16 = (1 << LINE_BITS) - 1;
/// Entries of a reach table (16 positions, 10 of them used, by 1024 occupancies); a power of
/// two so that masking an index proves it in bounds.
pub(crate) const TABLE: usize = 16 << LINE_BITS;
pub(crate) const TABLE_MASK: usize = TABLE - 1;
/// Room for the cells of a 10×10 board, a power of two for the same reason.
pub(crate) const CELLS: usize = 128;
pub(crate) const CELL_MASK: usize = CELLS - 1;
/// Room for the lines of a 10×10 board (58 of them).
pub(crate) const LINES: usize = 64;
pub(crate) const LINE_MASK: usize = LINES - 1;

/// The four lines through a square: `line[axis]` and the square's position on it.
/// Axes: 0 = row, 1 = column, 2 = diagonal, 3 = anti-diagonal.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cell {
    pub line: [u8; 4],
    pub pos: [u8; 4],
}

/// The rows of [`board_core::zobrist`] the hot path reads (indexed by a square masked with
/// [`CELL_MASK`], so no bounds check): queens of `First` are piece kind 0, of `Second`
/// kind 1, arrows kind 2.
#[derive(Debug)]
pub(crate) struct Keys {
    pub queen: [&'static [u64; MAX_CELLS]; 2],
    pub arrow: &'static [u64; MAX_CELLS],
    pub side: [u64; 2],
}

impl Keys {
    fn new() -> Keys {
        let z = zobrist();
        let row = |kind| z.piece_keys(kind).expect("kinds 0 to 2 exist");
        Keys {
            queen: [row(0), row(1)],
            arrow: row(2),
            side: [z.side(Player::First), z.side(Player::Second)],
        }
    }
}

/// Every table for one board size.
#[derive(Debug)]
pub(crate) struct Tables {
    pub size: u8,
    pub cells: usize,
    pub cell: [Cell; CELLS],
    /// `line_squares[line][pos]`: the square at that position of the line.
    pub line_squares: [[u8; 16]; LINES],
    /// Occupancy of each line on an empty board (bits past its end set).
    pub line_fill: [u16; LINES],
    pub reach_mask: [u16; TABLE],
    pub reach_count: [u8; TABLE],
    pub run_counts: [u8; TABLE],
    /// `spread[mask]`: bit `i` of a 10-bit mask moved to bit `4 i` (one nibble per position).
    pub spread: [u64; 1 << LINE_BITS],
    pub vacated_gain: [u8; TABLE],
    /// `rays[sq][dir]`: the squares beyond `sq` in direction `dir` (order of
    /// [`Direction::ALL`]), up to the edge.
    pub rays: [[Bitboard128; 8]; CELLS],
    /// The (up to 8) neighbours of each square.
    pub neighbours: [Bitboard128; CELLS],
    /// Every square of the board.
    pub board: Bitboard128,
    pub keys: Keys,
}

/// The shared tables of a `size × size` board (8 or 10; anything else gets the 10×10 ones,
/// which the config never allows).
pub(crate) fn tables(size: u8) -> &'static Tables {
    static SMALL: OnceLock<Box<Tables>> = OnceLock::new();
    static STANDARD: OnceLock<Box<Tables>> = OnceLock::new();
    let cell = if size == 8 { &SMALL } else { &STANDARD };
    cell.get_or_init(|| Tables::build(if size == 8 { 8 } else { 10 }))
}

/// Whether `dir` increases the flat index (so the nearest square of a ray is its lowest).
pub(crate) const fn is_positive(dir: usize) -> bool {
    matches!(dir, 0..=2 | 7)
}

impl Tables {
    fn build(size: u8) -> Box<Tables> {
        let n = size as usize;
        let mut t = Box::new(Tables {
            size,
            cells: n * n,
            cell: [Cell::default(); CELLS],
            line_squares: [[CELL_MASK as u8; 16]; LINES],
            line_fill: [FULL_LINE; LINES],
            reach_mask: [0; TABLE],
            reach_count: [0; TABLE],
            run_counts: [0; TABLE],
            spread: [0; 1 << LINE_BITS],
            vacated_gain: [0; TABLE],
            rays: [[Bitboard128::EMPTY; 8]; CELLS],
            neighbours: [Bitboard128::EMPTY; CELLS],
            board: Bitboard128::EMPTY,
            keys: Keys::new(),
        });

        // Lines: rows 0..n, columns n..2n, diagonals (col - row constant) 2n..4n-1,
        // anti-diagonals (col + row constant) 4n-1..6n-2. Positions run with the column
        // (with the row for columns).
        let mut lens = [0u8; LINES];
        for row in 0..n {
            for col in 0..n {
                let sq = row * n + col;
                let diag = col + (n - 1) - row;
                let anti = col + row;
                let lines = [row, n + col, 2 * n + diag, 4 * n - 1 + anti];
                let pos = [col, row, col.min(row), col - anti.saturating_sub(n - 1)];
                for axis in 0..4 {
                    let (l, p) = (lines[axis], pos[axis]);
                    t.cell[sq].line[axis] = l as u8;
                    t.cell[sq].pos[axis] = p as u8;
                    t.line_squares[l][p] = sq as u8;
                    lens[l] = lens[l].max(p as u8 + 1);
                }
                t.board.insert(Square(sq as u16));
            }
        }
        for (fill, &len) in t.line_fill.iter_mut().zip(&lens).take(6 * n - 2) {
            *fill = FULL_LINE & !((1u16 << len) - 1);
        }

        for (mask, spread) in t.spread.iter_mut().enumerate() {
            *spread = (0..LINE_BITS)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| 1u64 << (4 * i))
                .sum();
        }
        for p in 0..LINE_BITS as usize {
            for occ in 0..=FULL_LINE as usize {
                let mut mask = 0u16;
                let mut q = p;
                while q > 0 && occ & (1 << (q - 1)) == 0 {
                    q -= 1;
                    mask |= 1 << q;
                }
                let mut q = p + 1;
                while q < LINE_BITS as usize && occ & (1 << q) == 0 {
                    mask |= 1 << q;
                    q += 1;
                }
                t.reach_mask[p << LINE_BITS | occ] = mask;
                t.reach_count[p << LINE_BITS | occ] = mask.count_ones() as u8;
                let below = (mask & ((1 << p) - 1)).count_ones() as u8;
                let above = (mask >> p).count_ones() as u8;
                t.run_counts[p << LINE_BITS | occ] = below | above << 4;
            }
        }
        for p in 0..LINE_BITS as usize {
            for occ in 0..=FULL_LINE as usize {
                let (vacated, present) = (occ & !(1 << p), occ | 1 << p);
                let mut gain = 0u8;
                let mut m = t.reach_mask[p << LINE_BITS | occ];
                while m != 0 {
                    let q = m.trailing_zeros() as usize;
                    m &= m - 1;
                    gain += t.reach_count[q << LINE_BITS | vacated]
                        - t.reach_count[q << LINE_BITS | present];
                }
                t.vacated_gain[p << LINE_BITS | occ] = gain;
            }
        }

        for row in 0..n as i32 {
            for col in 0..n as i32 {
                let sq = (row * n as i32 + col) as usize;
                for (d, dir) in Direction::ALL.iter().enumerate() {
                    let (dc, dr) = dir.delta();
                    let (mut c, mut r) = (col + dc as i32, row + dr as i32);
                    let mut first = true;
                    while (0..n as i32).contains(&c) && (0..n as i32).contains(&r) {
                        let bit = Bitboard128::from_square(Square((r * n as i32 + c) as u16));
                        t.rays[sq][d] |= bit;
                        if first {
                            t.neighbours[sq] |= bit;
                            first = false;
                        }
                        c += dc as i32;
                        r += dr as i32;
                    }
                }
            }
        }

        t
    }

    /// The squares a queen on `sq` reaches through squares not in `occupied` (the square
    /// itself is ignored): classic ray scan with the nearest blocker of each direction.
    #[inline]
    pub(crate) fn queen_reach(&self, sq: usize, occupied: Bitboard128) -> Bitboard128 {
        let rays = &self.rays[sq & CELL_MASK];
        let mut reach = Bitboard128::EMPTY;
        for (d, &ray) in rays.iter().enumerate() {
            let blockers = ray & occupied;
            if blockers.is_empty() {
                reach |= ray;
            } else {
                // The nearest blocker: the lowest square going up the flat index, the
                // highest going down.
                let b = if is_positive(d) {
                    blockers.0.trailing_zeros()
                } else {
                    127 - blockers.0.leading_zeros()
                } as usize;
                // Up to the blocker, without it.
                reach |= ray.without_all(self.rays[b & CELL_MASK][d] | Bitboard128(1 << b));
            }
        }
        reach
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_cover_the_board() {
        for size in [8u8, 10] {
            let t = tables(size);
            let n = size as usize;
            let mut seen = vec![0u32; 6 * n - 2];
            for sq in 0..n * n {
                for axis in 0..4 {
                    let (l, p) = (t.cell[sq].line[axis] as usize, t.cell[sq].pos[axis]);
                    assert_eq!(t.line_squares[l][p as usize] as usize, sq);
                    assert_eq!(t.line_fill[l] & (1 << p), 0);
                    seen[l] += 1;
                }
            }
            // Every line holds exactly the squares its fill leaves free.
            for (l, &count) in seen.iter().enumerate() {
                assert_eq!(
                    count,
                    (!t.line_fill[l] & FULL_LINE).count_ones(),
                    "line {l}"
                );
            }
            assert_eq!(t.board.count() as usize, n * n);
        }
    }

    #[test]
    fn reach_tables() {
        let t = tables(10);
        // Position 3 of 0b0100_0001_00 (bits 2 and 8 set): reaches 4..=7 only (2 blocks).
        let occ = 0b01_0000_0100usize;
        assert_eq!(t.reach_mask[3 << 10 | occ], 0b00_1111_0000);
        assert_eq!(t.reach_count[3 << 10 | occ], 4);
        // Its own bit is ignored.
        assert_eq!(t.reach_mask[3 << 10 | occ | 8], 0b00_1111_0000);
        assert_eq!(t.run_counts[3 << 10 | occ], 4 << 4);
        // Empty line, queen at 0: reaches 1..=9; from each, vacating 0 adds one arrow.
        assert_eq!(t.reach_count[0], 9);
        assert_eq!(t.run_counts[0], 9 << 4);
        assert_eq!(t.vacated_gain[0], 9);
        // Queen at 5 of an empty line: destinations 0..=4 each gain the 5 squares 5..=9
        // (5 of them: 5 itself and 6..=9, which it blocked), destinations 6..=9 gain 6.
        assert_eq!(t.vacated_gain[5 << 10], 5 * 5 + 4 * 6);
        assert_eq!(t.run_counts[5 << 10], 5 | 4 << 4);
    }
}
