//! What the search plays: shortest wins, blocks, slowest losses, extra turns, seeds.

use std::collections::BTreeSet;

use board_core::{Player, Position, Rules};
use boardlab_search::{
    Limits, Score, ScoreKind, SearchOptions, Searcher, StopReason, reference::minimax_moves,
};

use crate::games::{Nim, Take, TicTacToe, TicTacToeConfig, Tree, TreeEval, nim_eval, ttt_eval};

fn searcher<P: Position, E: boardlab_search::Evaluator<P>>(eval: E, seed: u64) -> Searcher<P, E> {
    let opts = SearchOptions::default()
        .with_hash_mb(1)
        .expect("in range")
        .with_seed(seed);
    Searcher::new(eval, opts).expect("valid options")
}

#[test]
fn takes_the_immediate_win_over_a_longer_one() {
    // x x .      X to move wins at 2 now; O threatens 5.
    // o o .
    // . . .
    let pos = TicTacToe::from_cells("xx.oo....");
    let r = searcher(ttt_eval, 0).search_with(&pos, &Limits::new().with_depth(7), |_| {});
    assert_eq!(r.best_move, Some(2));
    assert_eq!(r.score, Score::win_in(1));
    assert_eq!(r.stop_reason, StopReason::Proven);
    assert_eq!(r.depth, 1, "a win in 1 found at depth 1 ends the search");
}

#[test]
fn blocks_the_opponents_immediate_win() {
    // o . o      X to move must block at 1.
    // . x .
    // . . x
    let pos = TicTacToe::from_cells("o.o.x...x");
    for depth in 2..=7 {
        let r = searcher(ttt_eval, 0).search_with(&pos, &Limits::new().with_depth(depth), |_| {});
        assert_eq!(r.best_move, Some(1), "depth {depth}");
        assert!(!matches!(r.score.kind(), ScoreKind::Loss(_)), "{}", r.score);
    }
}

/// A forced win is reported at its exact length, and its PV plays it out.
#[test]
fn forced_win_pv_plays_out() {
    let mut wins = 0;
    for seed in 0..60u64 {
        let mut pos = TicTacToe::new(TicTacToeConfig::default());
        crate::games::random_walk(&mut pos, seed, 3 + (seed % 3) as usize);
        if pos.outcome().is_some() {
            continue;
        }
        let r = searcher(ttt_eval, seed).search_with(&pos, &Limits::new().with_depth(9), |_| {});
        assert_eq!(
            r.score,
            boardlab_search::reference::minimax(&ttt_eval, &pos, 9, false)
        );
        if let ScoreKind::Win(n) = r.score.kind() {
            wins += 1;
            assert_eq!(r.pv.len() as u32, n, "{}", pos.to_position_string());
            let mut p = pos.clone();
            for &mv in &r.pv {
                p.play(mv).unwrap();
            }
            assert_eq!(
                p.outcome(),
                Some(board_core::Outcome::Win(pos.side_to_move()))
            );
        }
    }
    assert!(wins >= 5, "{wins}");
}

/// Over many solved random trees: where the side to move wins, it takes the fastest win;
/// where it loses, it picks a move that loses as slowly as possible.
#[test]
fn wins_fastest_and_loses_slowest() {
    let (mut fast, mut slow) = (0, 0);
    for seed in 0..300 {
        let pos = Tree::with(seed, 9);
        if pos.outcome().is_some() {
            continue;
        }
        let values: Vec<Score> = minimax_moves(&TreeEval::default(), &pos, 9, false)
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        let best = *values.iter().max().unwrap();
        let r = searcher(TreeEval::default(), 0).search_with(
            &pos,
            &Limits::new().with_depth(9),
            |_| {},
        );
        assert_eq!(r.score, best, "seed {seed}");
        let kinds: BTreeSet<Score> = values.iter().copied().filter(|v| v.is_decisive()).collect();
        match best.kind() {
            ScoreKind::Win(_) if kinds.iter().filter(|v| **v > Score::DRAW).count() > 1 => {
                fast += 1
            }
            ScoreKind::Loss(_) if kinds.len() > 1 => slow += 1,
            _ => {}
        }
    }
    // The sweep did contain positions with wins (losses) of several lengths.
    assert!(fast >= 3 && slow >= 3, "fast {fast} slow {slow}");
}

#[test]
fn extra_turns_are_not_negated() {
    // First takes heap a (emptying it: moves again), then heap b: a win in 2 turns, both
    // by First. Negating at every ply would call this a loss.
    for side in Player::BOTH {
        let pos = Nim::with([1, 1, 0], side);
        let r = searcher(nim_eval, 0).search_with(&pos, &Limits::new().with_depth(4), |_| {});
        assert_eq!(r.score, Score::win_in(2), "{side:?}");
        assert_eq!(r.pv.len(), 2);
        let mut p = pos.clone();
        for &mv in &r.pv {
            assert_eq!(p.side_to_move(), side);
            p.make_move(mv);
        }
        assert_eq!(p.outcome(), Some(board_core::Outcome::Win(side)));
    }
    // (2,1,0): b1 or a2 empties a heap, so First moves again and wins with the other
    // heap: a win in 2. a1 would hand the opponent the same trick.
    let pos = Nim::with([2, 1, 0], Player::First);
    let r = searcher(nim_eval, 0).search_with(&pos, &Limits::new().with_depth(6), |_| {});
    assert_eq!(r.score, Score::win_in(2));
    let best = r.best_move.unwrap();
    assert!(
        best == Take { heap: 1, take: 1 } || best == Take { heap: 0, take: 2 },
        "{best:?}"
    );
}

#[test]
fn same_seed_replays_different_seeds_vary() {
    // Every tic-tac-toe opening move draws: the seed picks among nine equals.
    let start = TicTacToe::new(TicTacToeConfig::default());
    let limits = Limits::new().with_depth(9);
    let mut firsts = BTreeSet::new();
    for seed in 0..12 {
        let a = searcher(ttt_eval, seed).search_with(&start, &limits, |_| {});
        let b = searcher(ttt_eval, seed).search_with(&start, &limits, |_| {});
        assert_eq!(a.score, Score::DRAW);
        assert_eq!(
            (a.best_move, &a.pv, a.stats.nodes),
            (b.best_move, &b.pv, b.stats.nodes)
        );
        firsts.insert(a.best_move.unwrap());
    }
    assert!(firsts.len() >= 3, "{firsts:?}");

    // A flat evaluation makes every move of a random tree equal at the horizon.
    let pos = Tree::with(3, 16);
    let flat = TreeEval {
        flat: true,
        ..TreeEval::default()
    };
    let mut moves = BTreeSet::new();
    for seed in 0..12 {
        let r = searcher(flat, seed).search_with(&pos, &Limits::new().with_depth(1), |_| {});
        moves.insert(r.best_move.unwrap());
    }
    assert!(moves.len() >= 3, "{moves:?}");
}

/// Whole games replay move for move under the same seeds, and differ between seeds.
#[test]
fn self_play_replays_exactly() {
    let play = |seed: u64| {
        let mut pos = TicTacToe::new(TicTacToeConfig::default());
        let mut a = searcher(ttt_eval, seed);
        let mut b = searcher(ttt_eval, seed + 1000);
        let mut record = Vec::new();
        while pos.outcome().is_none() {
            let s = if pos.side_to_move() == Player::First {
                &mut a
            } else {
                &mut b
            };
            let mv = s
                .search_with(&pos, &Limits::new().with_depth(9), |_| {})
                .best_move
                .unwrap();
            record.push(mv);
            pos.make_move(mv);
        }
        assert_eq!(pos.outcome(), Some(board_core::Outcome::Draw));
        record
    };
    assert_eq!(play(5), play(5));
    let games: BTreeSet<Vec<u8>> = (0..6).map(play).collect();
    assert!(games.len() >= 3, "{games:?}");
}
