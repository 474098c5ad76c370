//! Perft: counting move sequences, as `games.md` defines it.
//!
//! `perft(0)` is 1 for any position; a finished position has no moves, so counts 0 for any
//! depth of at least 1. The last ply calls only [`Position::count_moves`] (bulk counting).

use crate::position::Position;

/// The number of move sequences of length `depth` from `pos` (sequences stop early at a
/// finished game). `pos` is restored before returning.
pub fn perft<P: Position>(pos: &mut P, depth: u32) -> u64 {
    let mut buffers = vec![Vec::new(); depth.saturating_sub(1) as usize];
    perft_with(pos, depth, &mut buffers)
}

/// Perft of each legal move at depth `depth - 1`, in move-generation order.
/// Empty for `depth == 0` or a finished game.
pub fn divide<P: Position>(pos: &mut P, depth: u32) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut buffers = vec![Vec::new(); depth.saturating_sub(2) as usize];
    moves
        .into_iter()
        .map(|mv| {
            let undo = pos.make_move(mv);
            let n = perft_with(pos, depth - 1, &mut buffers);
            pos.unmake_move(mv, undo);
            (mv, n)
        })
        .collect()
}

fn perft_with<P: Position>(pos: &mut P, depth: u32, buffers: &mut [Vec<P::Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let Some((moves, rest)) = buffers.split_first_mut() else {
                return 0;
            };
            pos.generate_moves(moves);
            let mut total = 0;
            for &mv in moves.iter() {
                let undo = pos.make_move(mv);
                total += perft_with(pos, depth - 1, rest);
                pos.unmake_move(mv, undo);
            }
            total
        }
    }
}
