//! The square sets behind a fourshift board: board-core's [`Bitboard64`] for boards up to
//! 8×8 (the default 6×6 among them) and its [`BoardSet`] for anything larger, with
//! board-core's edge-masked one-step shifts ([`StepMasks`]), so the move generator and the
//! line detector are written once over [`StoneSet`].
//!
//! What is fourshift's own: the per-size tables, and for the win test on boards up to 8×8 a
//! compile-time table of the four whole lines (row, column, both diagonals) through every
//! square.

use std::sync::OnceLock;

use board_core::{Bitboard64, BoardSet, Geometry, MAX_SIDE, ShiftSet, StepMasks};

/// Largest side that fits in a [`Bitboard64`] board.
pub(crate) const WORD_MAX_SIDE: u32 = 8;

/// A board-core square set with the per-size tables the rules need.
pub(crate) trait StoneSet: ShiftSet + Send + Sync + 'static {
    /// The one-step shift masks of a `size × size` board (`size` fits this type).
    fn steps(size: u32) -> &'static StepMasks<Self>;
    /// For each square of a `size × size` board, the four whole lines through it (see
    /// [`line_steps`] for their order); empty for the wide type, where walking the lines
    /// from the square is cheaper than one eleven-word mask per line.
    fn line_masks(size: u32) -> &'static [[Self; 4]];
    /// The same squares in the widest set type.
    fn to_board_set(self) -> BoardSet;
}

/// The masks of every `size × size` board of type `S` up to `max` (index = size; sizes
/// that do not fit `S` get the masks of the largest that does).
fn all_steps<S: ShiftSet>(max: u32) -> Vec<StepMasks<S>> {
    (0..=max)
        .map(|size| Geometry::square(size.max(1)).ok().and_then(StepMasks::new))
        .map(|steps| steps.expect("every size up to the type's maximum fits it"))
        .collect()
}

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

const fn all_word_lines() -> [[[Bitboard64; 4]; 64]; WORD_MAX_SIDE as usize + 1] {
    let mut out = [[[Bitboard64::EMPTY; 4]; 64]; WORD_MAX_SIDE as usize + 1];
    let mut size = 1;
    while size <= WORD_MAX_SIDE {
        let mut sq = 0;
        while sq < size * size {
            let [a, b, c, d] = word_lines_through(size, sq % size, sq / size);
            out[size as usize][sq as usize] =
                [Bitboard64(a), Bitboard64(b), Bitboard64(c), Bitboard64(d)];
            sq += 1;
        }
        size += 1;
    }
    out
}

/// `WORD_LINES[size][square]`: see [`word_lines_through`] (18 KiB, built at compile time).
static WORD_LINES: [[[Bitboard64; 4]; 64]; WORD_MAX_SIDE as usize + 1] = all_word_lines();

impl StoneSet for Bitboard64 {
    #[inline]
    fn steps(size: u32) -> &'static StepMasks<Bitboard64> {
        static STEPS: OnceLock<Vec<StepMasks<Bitboard64>>> = OnceLock::new();
        let all = STEPS.get_or_init(|| all_steps(WORD_MAX_SIDE));
        &all[(size as usize).min(all.len() - 1)]
    }
    fn line_masks(size: u32) -> &'static [[Bitboard64; 4]] {
        let cells = (size * size) as usize;
        WORD_LINES
            .get(size as usize)
            .and_then(|lines| lines.get(..cells))
            .unwrap_or(&[])
    }
    fn to_board_set(self) -> BoardSet {
        let mut out = BoardSet::default();
        out.0[0] = self.0;
        out
    }
}

impl StoneSet for BoardSet {
    #[inline]
    fn steps(size: u32) -> &'static StepMasks<BoardSet> {
        static STEPS: OnceLock<Vec<StepMasks<BoardSet>>> = OnceLock::new();
        let all = STEPS.get_or_init(|| all_steps(u32::from(MAX_SIDE)));
        &all[(size as usize).min(all.len() - 1)]
    }
    fn line_masks(_size: u32) -> &'static [[BoardSet; 4]] {
        &[]
    }
    fn to_board_set(self) -> BoardSet {
        self
    }
}

#[cfg(test)]
mod tests {
    use board_core::SquareSet;

    use super::*;

    #[test]
    fn line_masks_hold_whole_lines() {
        let lines = Bitboard64::line_masks(6);
        assert_eq!(lines.len(), 36);
        // c3 (index 14): row 3, column c, diagonals a1-f6 and a5-e1
        let g = Geometry::square(6).unwrap();
        let set = |names: &str| -> Bitboard64 {
            names
                .split(' ')
                .map(|n| g.parse_square(n).unwrap())
                .collect()
        };
        assert_eq!(lines[14][0], set("a3 b3 c3 d3 e3 f3"));
        assert_eq!(lines[14][1], set("c1 c2 c3 c4 c5 c6"));
        assert_eq!(lines[14][2], set("a1 b2 c3 d4 e5 f6"));
        assert_eq!(lines[14][3], set("e1 d2 c3 b4 a5"));
        assert_eq!(line_steps(6), [1, 6, 7, 5]);
        assert!(BoardSet::line_masks(6).is_empty());
        assert_eq!(Bitboard64::line_masks(8).len(), 64);
    }

    #[test]
    fn both_types_have_the_masks_of_each_size() {
        for size in 3..=WORD_MAX_SIDE {
            let word = Bitboard64::steps(size);
            let wide = BoardSet::steps(size);
            assert_eq!(word.board().to_board_set(), wide.board());
            assert_eq!(word.board().count(), size * size);
            assert_eq!(word.width(), size);
        }
        assert_eq!(BoardSet::steps(26).board().count(), 676);
        assert_eq!(BoardSet::steps(19).width(), 19);
    }
}
