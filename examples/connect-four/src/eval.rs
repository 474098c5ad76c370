//! The tutorial game's evaluator: all the search needs besides the rules.

use board_core::Rules as _;

use crate::game::{COLS, ConnectFour, ROWS};

/// A simple evaluator: every window of four that only one side occupies counts for that
/// side, more the fuller it is; plus a bonus for the centre column.
pub fn evaluate(pos: &ConnectFour) -> i32 {
    const WEIGHT: [i32; 4] = [0, 1, 8, 60];
    let mut score = 0;
    for (dc, dr) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        for c in 0..COLS as i32 {
            for r in 0..ROWS as i32 {
                let (ec, er) = (c + 3 * dc, r + 3 * dr);
                if !(0..COLS as i32).contains(&ec) || !(0..ROWS as i32).contains(&er) {
                    continue;
                }
                let mut n = [0usize; 2];
                for i in 0..4 {
                    if let Some(p) = pos.at((c + i * dc) as usize, (r + i * dr) as usize) {
                        n[p.index()] += 1;
                    }
                }
                match n {
                    [k, 0] if k < 4 => score += WEIGHT[k],
                    [0, k] if k < 4 => score -= WEIGHT[k],
                    _ => {}
                }
            }
        }
    }
    score += (0..ROWS)
        .map(|r| pos.at(3, r).map_or(0, |p| 3 * p.sign()))
        .sum::<i32>();
    score * pos.side_to_move().sign()
}
