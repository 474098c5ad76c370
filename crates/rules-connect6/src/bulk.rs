//! Counting the last two plies of perft without playing them.
//!
//! No pair of empty squares is ever illegal, so a position with `E` empty squares has
//! `C(E, 2)` pairs (or `E` single stones), and each move's successors depend only on how
//! many squares it leaves empty, unless the move wins, in which case it has none. So
//! `perft(2) = (moves − W) · next(E − placed)`, where `W` counts the moves that make six or
//! more in a row and `next(k)` is the number of moves of a position with `k` empty squares.
//!
//! `W` comes from the six-square windows of the mover's lines (every run of six or more
//! through a new stone holds a window of six that the move fills, and a filled window
//! holds a new stone): a window with no opposing stone and
//! - five of the mover's stones and one empty square `e` makes every move through `e`
//!   win;
//! - four stones and two empty squares makes that pair win.
//!
//! A pair can fill several windows, so pairs are counted once: the pairs through a square
//! of the first kind are counted as a whole (`C(E, 2) − C(E − s, 2)` for `s` such squares),
//! and a pair of the second kind only if neither of its squares is one of those. Two
//! squares lie on one line only, and along that line the windows a pair fills are
//! consecutive, so comparing a pair with the previous one of its line removes every repeat.

use board_core::{BoardSet, Rules, SquareSet, lines};

use crate::position::{Connect6Position, WIN_LENGTH};

/// One window of six bits.
const WINDOW: u32 = (1 << WIN_LENGTH) - 1;

/// The number of moves of a position with `empty` empty squares, where `single` says
/// whether it is a single-stone turn (a game that is not over).
#[inline]
fn moves_of(empty: u64, single: bool) -> u64 {
    match empty {
        0 => 0, // a full board is a draw
        _ if single => empty,
        _ => choose2(empty),
    }
}

#[inline]
fn choose2(n: u64) -> u64 {
    n * n.saturating_sub(1) / 2
}

/// perft(2) of `pos`: see the [module docs](self).
pub(crate) fn two_ply_sequences(pos: &Connect6Position) -> u64 {
    if pos.outcome().is_some() {
        return 0;
    }
    let empty = pos.empty_count() as u64;
    let single = pos.is_single_turn();
    let placed = if single { 1 } else { 2 };
    let left = empty.saturating_sub(placed);
    // The next turn is a single stone on the very first move or on the last square.
    let next = moves_of(left, pos.ply().wrapping_add(1) == 0 || left == 1);
    if next == 0 {
        return 0;
    }
    let moves = moves_of(empty, single);
    moves.saturating_sub(winning_moves(pos, single, empty)) * next
}

/// The number of distinct moves of the side to move that make six or more in a row.
fn winning_moves(pos: &Connect6Position, single: bool, empty: u64) -> u64 {
    let mover = pos.side_to_move();
    let need = if single { 5 } else { 4 };
    if pos.stone_count(mover) < need {
        return 0;
    }
    let size = pos.size();
    let mine = pos.line_masks(mover);
    let theirs = pos.line_masks(mover.other());
    // Squares where one stone fills a window.
    let mut winning_squares = BoardSet::EMPTY;
    for_each_window(size, mine, theirs, 5, |line, window, stones| {
        let e = (window & !stones).trailing_zeros() as u8;
        if let Some(sq) = lines::square_at(size, line, e) {
            winning_squares.insert(sq);
        }
    });
    let s = winning_squares.count() as u64;
    if single {
        return s;
    }
    let mut pairs = choose2(empty) - choose2(empty - s);
    // Pairs that fill a window of four, through no square counted above.
    let mut previous: Option<(u8, u32)> = None;
    for_each_window(size, mine, theirs, 4, |line, window, stones| {
        let gaps = window & !stones;
        if previous == Some((line, gaps)) {
            return;
        }
        previous = Some((line, gaps));
        let lo = gaps.trailing_zeros() as u8;
        let hi = (31 - gaps.leading_zeros()) as u8;
        let on_winning_square =
            |bit| lines::square_at(size, line, bit).is_none_or(|sq| winning_squares.contains(sq));
        if !on_winning_square(lo) && !on_winning_square(hi) {
            pairs += 1;
        }
    });
    pairs
}

/// Calls `f(line, window, stones)` for every six-square window (as bits of its line) that
/// holds no stone of the opponent and exactly `count` of the mover's, in line order and
/// along each line from bit 0 up; `stones` is the mover's mask of that line.
#[inline]
fn for_each_window(
    size: u32,
    mine: &[u32; lines::LINE_SLOTS],
    theirs: &[u32; lines::LINE_SLOTS],
    count: u32,
    mut f: impl FnMut(u8, u32, u32),
) {
    let n = size as usize;
    for line in 0..lines::line_count(size) {
        let stones = mine[line];
        if stones.count_ones() < count {
            continue;
        }
        let len = line_len(n, line);
        if len < WIN_LENGTH as usize {
            continue;
        }
        let blocked = theirs[line];
        for start in 0..=len - WIN_LENGTH as usize {
            let window = WINDOW << start;
            if blocked & window == 0 && (stones & window).count_ones() == count {
                f(line as u8, window, stones);
            }
        }
    }
}

/// The number of squares on line `line` of an `n × n` board (numbering of
/// [`board_core::lines`]).
#[inline]
fn line_len(n: usize, line: usize) -> usize {
    if line < 2 * n {
        n
    } else if line < 4 * n - 1 {
        n - (line - 2 * n).abs_diff(n - 1)
    } else {
        n - (line - (4 * n - 1)).abs_diff(n - 1)
    }
}

#[cfg(test)]
mod tests {
    use board_core::Geometry;

    use super::*;

    #[test]
    fn line_len_matches_the_slot_table() {
        for n in [6u32, 7, 9, 19, 26] {
            let g = Geometry::square(n).unwrap();
            let mut lens = vec![0usize; lines::line_count(n)];
            for sq in g.squares() {
                for slot in lines::slots(n)[sq.index()] {
                    lens[slot.line as usize] = slot.len as usize;
                }
            }
            for (line, &len) in lens.iter().enumerate() {
                assert_eq!(line_len(n as usize, line), len, "size {n} line {line}");
            }
        }
    }

    #[test]
    fn moves_of_counts_singles_pairs_and_a_full_board() {
        assert_eq!(moves_of(0, false), 0);
        assert_eq!(moves_of(0, true), 0);
        assert_eq!(moves_of(1, true), 1);
        assert_eq!(moves_of(2, false), 1);
        assert_eq!(moves_of(36, true), 36);
        assert_eq!(moves_of(36, false), 630);
    }
}
