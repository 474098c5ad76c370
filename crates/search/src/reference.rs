//! Plain minimax without any pruning: the reference the search is tested against.
//!
//! It scores nodes exactly as the search does (finished games as wins/losses by distance
//! from the root, [`Evaluator::candidates`] as the moves, [`Evaluator::forced_win`] at
//! interior nodes, [`Evaluator::threat_defence`] narrowing the interior nodes' candidates,
//! [`Evaluator::extension`] on each move's depth, quiescence over
//! [`Evaluator::noisy`] moves when asked), so at a fixed depth every exact search
//! configuration must return the same root value. Game crates can
//! use it to test their hooks. Repetition detection is not modelled.

use board_core::Notation;

use crate::{
    evaluator::{Evaluator, applied_extension},
    options::MAX_DEPTH,
    score::{INFINITY, Score, clamp_eval, win_at},
    worker::{MAX_PLY, terminal_score},
};

/// The value of `pos` for its side to move, searched `depth` turns deep by plain minimax
/// (quiescence at the horizon when `quiescence`).
pub fn minimax<P: Notation, E: Evaluator<P>>(
    evaluator: &E,
    pos: &P,
    depth: u32,
    quiescence: bool,
) -> Score {
    let mut pos = pos.clone();
    Score::from_raw(node(evaluator, &mut pos, nominal(depth), 0, quiescence))
}

/// The depth as the searcher reads it (see [`crate::Limits::with_depth`]).
fn nominal(depth: u32) -> i32 {
    depth.clamp(1, MAX_DEPTH) as i32
}

/// The minimax value of every root move (for the side to move at the root), in the order
/// the root's candidates are listed: what a search at `depth` may choose among.
pub fn minimax_moves<P: Notation, E: Evaluator<P>>(
    evaluator: &E,
    pos: &P,
    depth: u32,
    quiescence: bool,
) -> Vec<(P::Move, Score)> {
    let mut pos = pos.clone();
    if pos.outcome().is_some() {
        return Vec::new();
    }
    let side = pos.side_to_move();
    let moves = root_candidates(evaluator, &pos);
    moves
        .into_iter()
        .map(|mv| {
            let undo = pos.make_move(mv);
            let child = depth.max(1) as i32 - 1 + applied_extension(evaluator, &pos);
            let v = node(evaluator, &mut pos, child, 1, quiescence);
            let v = if pos.side_to_move() != side { -v } else { v };
            pos.unmake_move(mv, undo);
            (mv, Score::from_raw(v))
        })
        .collect()
}

/// The root's moves as the searcher takes them: the legal candidates, or every legal move
/// if the game offers none.
fn root_candidates<P: Notation, E: Evaluator<P>>(evaluator: &E, pos: &P) -> Vec<P::Move> {
    let mut moves = Vec::new();
    evaluator.candidates(pos, &mut moves);
    let mut seen = std::collections::HashSet::new();
    moves.retain(|m| seen.insert(*m) && pos.validate(m).is_ok());
    if moves.is_empty() {
        pos.generate_moves(&mut moves);
    }
    moves
}

fn node<P: Notation, E: Evaluator<P>>(
    evaluator: &E,
    pos: &mut P,
    depth: i32,
    ply: usize,
    quiescence: bool,
) -> i32 {
    if let Some(o) = pos.outcome() {
        return terminal_score(o, pos.side_to_move(), ply as u32);
    }
    let stand = clamp_eval(evaluator.evaluate(pos));
    if ply >= MAX_PLY {
        return stand;
    }
    if depth <= 0 {
        return if quiescence {
            qnode(evaluator, pos, ply, stand)
        } else {
            stand
        };
    }
    if let Some(fw) = evaluator.forced_win(pos, depth as u32)
        && pos.validate(&fw.mv).is_ok()
    {
        return win_at((ply as u32).saturating_add(fw.turns.max(1)));
    }
    let moves = if ply == 0 {
        root_candidates(evaluator, pos)
    } else {
        let mut moves = Vec::new();
        evaluator.candidates(pos, &mut moves);
        if !moves.is_empty() {
            evaluator.threat_defence(pos, depth as u32, &mut moves);
        }
        moves
    };
    if moves.is_empty() {
        return stand;
    }
    let side = pos.side_to_move();
    let mut best = -INFINITY;
    for mv in moves {
        let undo = pos.make_move(mv);
        let child = depth - 1 + applied_extension(evaluator, pos);
        let v = node(evaluator, pos, child, ply + 1, quiescence);
        let v = if pos.side_to_move() != side { -v } else { v };
        pos.unmake_move(mv, undo);
        best = best.max(v);
    }
    best
}

/// Quiescence: the best of standing pat and every noisy move, recursively.
fn qnode<P: Notation, E: Evaluator<P>>(evaluator: &E, pos: &mut P, ply: usize, stand: i32) -> i32 {
    if ply >= MAX_PLY {
        return stand;
    }
    let mut moves = Vec::new();
    evaluator.noisy(pos, &mut moves);
    let side = pos.side_to_move();
    let mut best = stand;
    for mv in moves {
        let undo = pos.make_move(mv);
        let v = match pos.outcome() {
            Some(o) => terminal_score(o, pos.side_to_move(), ply as u32 + 1),
            None => {
                let s = clamp_eval(evaluator.evaluate(pos));
                qnode(evaluator, pos, ply + 1, s)
            }
        };
        let v = if pos.side_to_move() != side { -v } else { v };
        pos.unmake_move(mv, undo);
        best = best.max(v);
    }
    best
}
