//! Differential tests: at a fixed depth, every exact configuration of the search returns
//! the root value of plain minimax, and a best move that achieves it.

use board_core::{Player, Position, Rules};
use boardlab_search::{
    Evaluator, Limits, Score, ScoreKind, SearchOptions, Searcher, StopReason, format_pv,
    reference::{minimax, minimax_moves},
};
use proptest::prelude::*;

use crate::games::{
    Nim, TicTacToe, TicTacToeConfig, Tree, TreeEval, nim_eval, random_walk, ttt_eval,
};

/// Exact configurations, from plain alpha-beta up to the default engine.
pub fn configs() -> Vec<(&'static str, SearchOptions)> {
    let small = |o: SearchOptions| o.with_hash_mb(1).expect("1 MB is in range");
    let plain = small(SearchOptions::plain_alpha_beta());
    let pvs = plain.clone().with_pvs(true);
    let tt = pvs.clone().with_transposition_table(true);
    let id = tt.clone().with_iterative_deepening(true);
    let asp = id
        .clone()
        .with_aspiration(true)
        .with_aspiration_window(3)
        .expect("in range");
    vec![
        ("alpha-beta", plain.clone()),
        (
            "alpha-beta, first best root move",
            plain.clone().with_root_tie_break(false),
        ),
        ("alpha-beta+tt", plain.with_transposition_table(true)),
        ("pvs", pvs),
        ("pvs+tt", tt),
        ("pvs+tt+id", id),
        ("pvs+tt+id+aspiration(3)", asp),
        ("default", small(SearchOptions::default())),
        (
            "default, first best root move",
            small(SearchOptions::default().with_root_tie_break(false)),
        ),
    ]
}

/// Searches `pos` to `depth` under every configuration and compares with minimax.
pub fn check_all<P, E>(eval: E, pos: &P, depth: u32, quiescence: bool) -> Result<(), TestCaseError>
where
    P: board_core::Notation,
    E: Evaluator<P> + Clone,
{
    let expected = minimax(&eval, pos, depth, quiescence);
    let per_move = minimax_moves(&eval, pos, depth, quiescence);
    for (name, opts) in configs() {
        let opts = opts.with_quiescence(quiescence);
        let mut s = Searcher::new(eval.clone(), opts).expect("valid options");
        let r = s.search_with(pos, &Limits::new().with_depth(depth), |_| {});
        prop_assert_eq!(
            r.score,
            expected,
            "{} at depth {} from {:?}",
            name,
            depth,
            pos
        );
        match r.best_move {
            None => prop_assert!(per_move.is_empty(), "{name}: no move"),
            Some(mv) => {
                let value = per_move.iter().find(|(m, _)| *m == mv).map(|&(_, v)| v);
                prop_assert_eq!(
                    value,
                    Some(expected),
                    "{}: best move {:?} is not optimal",
                    name,
                    mv
                );
                prop_assert_eq!(r.pv.first().copied(), Some(mv));
                // The PV is a legal line.
                let shown = format_pv(pos, &r.pv);
                prop_assert_eq!(
                    shown.split(' ').count(),
                    r.pv.len(),
                    "{}: pv {}",
                    name,
                    shown
                );
                // A forced result comes with the whole line to it.
                if let ScoreKind::Win(n) | ScoreKind::Loss(n) = r.score.kind() {
                    prop_assert_eq!(r.pv.len() as u32, n, "{}: pv {}", name, shown);
                }
                // Iterative deepening stops early at a result proven within its depth.
                if r.stop_reason == StopReason::Proven {
                    prop_assert!(r.depth <= depth && r.score.is_decisive());
                } else {
                    prop_assert_eq!(r.depth, depth);
                }
            }
        }
    }
    Ok(())
}

/// Cases per property: 40, or `SEARCH_CASES` from the environment for a longer run.
fn cases() -> u32 {
    std::env::var("SEARCH_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn tree_matches_minimax(seed in 0u32..10_000, walk in 0usize..4, depth in 1u32..=5) {
        let mut pos = Tree::with(seed, 11);
        random_walk(&mut pos, u64::from(seed), walk);
        check_all(TreeEval::default(), &pos, depth, false)?;
    }

    #[test]
    fn tree_with_hooks_matches_minimax(
        seed in 0u32..10_000,
        walk in 0usize..3,
        depth in 1u32..=4,
        hints: bool,
        prune: bool,
        noisy: bool,
    ) {
        let mut pos = Tree::with(seed, 11);
        random_walk(&mut pos, u64::from(seed) + 1, walk);
        let eval = TreeEval { hints, prune, noisy, flat: false };
        check_all(eval, &pos, depth, noisy)?;
    }

    #[test]
    fn tictactoe_matches_minimax(seed in 0u64..10_000, walk in 0usize..6, depth in 1u32..=9) {
        let mut pos = TicTacToe::new(TicTacToeConfig::default());
        random_walk(&mut pos, seed, walk);
        check_all(ttt_eval, &pos, depth, false)?;
    }

    #[test]
    fn nim_with_extra_turns_matches_minimax(
        heaps in proptest::array::uniform3(0u8..=5),
        second: bool,
        depth in 1u32..=6,
    ) {
        let side = if second { Player::Second } else { Player::First };
        check_all(nim_eval, &Nim::with(heaps, side), depth, false)?;
    }
}

/// A finished tree is solved: with two threads (helpers search other depths and share the
/// table) the value is still exactly minimax's, and the move achieves it.
#[test]
fn two_threads_solve_exactly() {
    for seed in 0..12u32 {
        let pos = Tree::with(seed, 8);
        let eval = TreeEval::default();
        let expected = minimax(&eval, &pos, 8, false);
        let per_move = minimax_moves(&eval, &pos, 8, false);
        let opts = SearchOptions::default()
            .with_hash_mb(1)
            .and_then(|o| o.with_threads(2))
            .unwrap();
        let mut s = Searcher::new(eval, opts).unwrap();
        let r = s.search_with(&pos, &Limits::new().with_depth(8), |_| {});
        assert_eq!(r.score, expected, "seed {seed}");
        let mv = r.best_move.unwrap();
        assert_eq!(per_move.iter().find(|(m, _)| *m == mv).unwrap().1, expected);
        assert_eq!(r.stats.threads, 2);
    }
    let pos = TicTacToe::new(TicTacToeConfig::default());
    let opts = SearchOptions::default().with_threads(2).unwrap();
    let mut s = Searcher::new(ttt_eval, opts).unwrap();
    let r = s.search_with(&pos, &Limits::new().with_depth(9), |_| {});
    assert_eq!(r.score, Score::DRAW);
}

/// With helpers running ahead (and the main thread adopting their deeper iterations), the
/// reports still come one per depth, deeper each time, ending at the limit.
#[test]
fn smp_reports_climb_to_the_limit() {
    for threads in [2, 3] {
        for seed in 0..4u32 {
            let pos = Tree::with(seed + 100, 16);
            let opts = SearchOptions::default()
                .with_hash_mb(2)
                .and_then(|o| o.with_threads(threads))
                .unwrap();
            let mut s = Searcher::new(TreeEval::default(), opts).unwrap();
            let mut depths = Vec::new();
            let r = s.search_with(&pos, &Limits::new().with_depth(7), |it| {
                depths.push(it.depth)
            });
            assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
            assert_eq!(depths.last().copied(), Some(r.depth));
            assert!(r.depth == 7 || r.stop_reason == StopReason::Proven);
            assert_eq!(r.pv.first().copied(), r.best_move);
        }
    }
}

/// Unsolved trees with several threads. The helpers never search past the depth limit and
/// the tree transposes only at equal plies, so every table entry the main thread uses is
/// from a search of the same depth: the value is still minimax's.
#[test]
fn more_threads_return_legal_moves() {
    for seed in 0..6u32 {
        let pos = Tree::with(seed, 16);
        let opts = SearchOptions::default()
            .with_hash_mb(2)
            .and_then(|o| o.with_threads(3))
            .unwrap();
        let mut s = Searcher::new(TreeEval::default(), opts).unwrap();
        let r = s.search_with(&pos, &Limits::new().with_depth(6), |_| {});
        let mv = r.best_move.unwrap();
        assert!(pos.validate(&mv).is_ok());
        assert!(r.depth == 6 || r.stop_reason == StopReason::Proven);
        assert_eq!(
            r.score,
            minimax(&TreeEval::default(), &pos, 6, false),
            "seed {seed}"
        );
        assert!(r.stats.nodes > 0);
    }
}

/// Late-move reductions are off unless asked for; on, they cut nodes and still return
/// legal moves and lines (their value may differ from minimax: they prune).
#[test]
fn late_move_reductions_are_optional() {
    assert!(!SearchOptions::default().late_move_reductions());
    let (mut with, mut without) = (0, 0);
    for seed in 0..6u32 {
        let pos = Tree::with(seed + 40, 20);
        let limits = Limits::new().with_depth(6);
        let opts = SearchOptions::default().with_hash_mb(4).unwrap();
        let off = Searcher::new(TreeEval::default(), opts.clone())
            .unwrap()
            .search_with(&pos, &limits, |_| {});
        assert_eq!(
            (off.stats.reductions, off.stats.reduction_researches),
            (0, 0)
        );
        if off.stop_reason == StopReason::Proven {
            continue; // decided at once: nothing to reduce
        }
        let on = Searcher::new(TreeEval::default(), opts.with_late_move_reductions(true))
            .unwrap()
            .search_with(&pos, &limits, |_| {});
        assert!(on.stats.reductions > 0 && on.stats.reduction_researches <= on.stats.reductions);
        let shown = format_pv(&pos, &on.pv);
        assert_eq!(shown.split(' ').count(), on.pv.len());
        assert!(pos.validate(&on.best_move.unwrap()).is_ok());
        with += on.stats.nodes;
        without += off.stats.nodes;
    }
    assert!(with < without, "{with} vs {without}");
}
