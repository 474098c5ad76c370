//! Perft: counting move sequences, as `games.md` defines it.
//!
//! `perft(0)` is 1 for any position; a finished position has no moves, so counts 0 for any
//! depth of at least 1. The last ply calls only [`Rules::count_moves`] (bulk counting),
//! and the last two plies only [`Rules::count_two_ply_sequences`] when a game counts them
//! in bulk.

use crate::position::Rules;

/// The number of move sequences of length `depth` from `pos` (sequences stop early at a
/// finished game). `pos` is restored before returning.
pub fn perft<P: Rules>(pos: &mut P, depth: u32) -> u64 {
    perft_with(pos, depth, &mut Vec::new(), 0)
}

/// Perft of each legal move at depth `depth - 1`, in move-generation order.
/// Empty for `depth == 0` or a finished game.
pub fn divide<P: Rules>(pos: &mut P, depth: u32) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut buffers = Vec::new();
    moves
        .into_iter()
        .map(|mv| {
            let undo = pos.make_move(mv);
            let n = perft_with(pos, depth - 1, &mut buffers, 0);
            pos.unmake_move(mv, undo);
            (mv, n)
        })
        .collect()
}

/// `buffers[level]` is the move list of the `level`-th ply below the root. The buffers are
/// added as the recursion first reaches a level, not allocated up front for `depth`: a
/// huge depth (`u32::MAX`) on a game that ends costs only as many buffers as the game is
/// long.
fn perft_with<P: Rules>(
    pos: &mut P,
    depth: u32,
    buffers: &mut Vec<Vec<P::Move>>,
    level: usize,
) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            if depth == 2
                && let Some(n) = pos.count_two_ply_sequences()
            {
                return n;
            }
            if buffers.len() <= level {
                buffers.push(Vec::new());
            }
            let mut moves = std::mem::take(&mut buffers[level]);
            pos.generate_moves(&mut moves);
            let mut total = 0;
            for &mv in &moves {
                let undo = pos.make_move(mv);
                total += perft_with(pos, depth - 1, buffers, level + 1);
                pos.unmake_move(mv, undo);
            }
            buffers[level] = moves;
            total
        }
    }
}
