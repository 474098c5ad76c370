//! The tutorial game's evaluator: all the search needs besides the rules.

use std::sync::LazyLock;

use board_core::Rules as _;

use crate::game::ConnectFour;

/// The 42 squares (the low six bits of each seven-bit column) and the centre column, `d`.
const BOARD: u64 = 0x408_1020_4081 * 0x3f;
const CENTRE: u64 = 0x3f << 21;

/// Every window of four squares in a line (69 of them): four bits a step apart (1, 6, 7
/// or 8, as in `has_four`; drawn in 128 bits so that none is lost off the end), kept when
/// all four are squares of the board.
static WINDOWS: LazyLock<Vec<u64>> = LazyLock::new(|| {
    let line = |start: u32, step: u32| (0..4).fold(0u128, |w, i| w | 1 << (start + i * step));
    let lines = (0..49).flat_map(|start| [1, 6, 7, 8].map(|step| line(start, step)));
    lines
        .filter(|&w| w & !u128::from(BOARD) == 0)
        .map(|w| w as u64)
        .collect()
});

/// For the side to move: each window of four the opponent has no stone in counts for it,
/// more the fuller it is, and each window it has no stone in against it; plus a bonus for
/// stones in the centre column.
pub fn evaluate(pos: &ConnectFour) -> i32 {
    const WEIGHT: [i32; 5] = [0, 1, 8, 60, 0];
    let side = pos.side_to_move();
    let [mine, theirs] = [side, side.other()].map(|p| pos.stones(p));
    let count = |stones: u64, mask: u64| (stones & mask).count_ones() as usize;
    let windows = |me: u64, them: u64| -> i32 {
        let open = WINDOWS.iter().filter(|&&w| w & them == 0);
        open.map(|&w| WEIGHT[count(me, w)]).sum()
    };
    let centre = 3 * (count(mine, CENTRE) as i32 - count(theirs, CENTRE) as i32);
    windows(mine, theirs) - windows(theirs, mine) + centre
}
