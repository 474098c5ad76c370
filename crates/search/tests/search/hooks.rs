//! The game-side hooks: tactical pre-check, candidates, repetition, incremental
//! evaluation through a wrapping position.

use board_core::{Player, Position, Rules};
use boardlab_search::{
    EvalState, Evaluator, ForcedWin, Incremental, Limits, Score, SearchOptions, Searcher,
    StopReason, reference::minimax,
};

use crate::{
    differential::check_all,
    games::{Shuttle, ShuttleConfig, TicTacToe, Tree, TreeEval, mix, ttt_eval},
};

/// Tic-tac-toe with a "threat search" that spots an immediate win for the side to move.
#[derive(Clone, Copy)]
struct WinSpotter;

impl Evaluator<TicTacToe> for WinSpotter {
    fn evaluate(&self, pos: &TicTacToe) -> i32 {
        ttt_eval(pos)
    }
    fn forced_win(&self, pos: &mut TicTacToe, _depth: u32) -> Option<ForcedWin<u8>> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut p = pos.clone();
        moves.into_iter().find_map(|mv| {
            p.make_move(mv);
            let wins = p.outcome() == Some(board_core::Outcome::Win(pos.side_to_move()));
            p.unmake_move(mv, ());
            wins.then_some(ForcedWin { mv, turns: 1 })
        })
    }
}

/// Tic-tac-toe whose evaluator asks for `.0` plies of extension of the reply to a threat
/// (the side that just moved could complete a line next turn), as gomoku extends the
/// block of a four.
#[derive(Clone, Copy)]
struct ThreatExtender(u32);

impl Evaluator<TicTacToe> for ThreatExtender {
    fn evaluate(&self, pos: &TicTacToe) -> i32 {
        ttt_eval(pos)
    }
    fn extension(&self, pos: &TicTacToe) -> u32 {
        if pos.threatens(pos.side_to_move().other()) {
            self.0
        } else {
            0
        }
    }
}

/// Tic-tac-toe whose threat defence keeps, where the opponent threatens to complete a
/// line, only the moves that win at once or leave it no such threat (as gomoku keeps the
/// moves that refute a VCF); with no such move the list stays whole.
#[derive(Clone, Copy)]
struct ThreatBlocker;

impl Evaluator<TicTacToe> for ThreatBlocker {
    fn evaluate(&self, pos: &TicTacToe) -> i32 {
        ttt_eval(pos)
    }
    fn threat_defence(&self, pos: &mut TicTacToe, _depth: u32, moves: &mut Vec<u8>) {
        let me = pos.side_to_move();
        if !pos.threatens(me.other()) {
            return;
        }
        let kept: Vec<u8> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                pos.make_move(mv);
                let keep = pos.outcome().is_some() || !pos.threatens(me.other());
                pos.unmake_move(mv, ());
                keep
            })
            .collect();
        if !kept.is_empty() {
            *moves = kept;
        }
    }
}

#[test]
fn threat_defence_is_exact_and_narrows_interior_nodes() {
    // Every search configuration agrees with minimax applying the same defence, and the
    // defence only drops moves that lose: searched to the end, the values are those of
    // the full tree.
    for seed in 0..30u64 {
        let mut pos = TicTacToe::new(Default::default());
        crate::games::random_walk(&mut pos, seed, 1 + (seed % 4) as usize);
        for depth in 1..=4 {
            check_all(ThreatBlocker, &pos, depth, false).unwrap();
        }
        assert_eq!(
            minimax(&ThreatBlocker, &pos, 9, false),
            minimax(&ttt_eval, &pos, 9, false)
        );
    }
    // From the empty board to the end: the same value in fewer nodes.
    let pos = TicTacToe::new(Default::default());
    let limits = Limits::new().with_depth(9);
    let with = Searcher::new(ThreatBlocker, SearchOptions::default())
        .unwrap()
        .search_with(&pos, &limits, |_| {});
    let without = Searcher::new(ttt_eval, SearchOptions::default())
        .unwrap()
        .search_with(&pos, &limits, |_| {});
    assert_eq!(with.score, without.score);
    assert!(
        with.stats.nodes < without.stats.nodes,
        "nothing was narrowed"
    );
    // Never at the root: x threatens (x x . / o . . / . . .), o to move; the reference's
    // root, like the searcher's, keeps every candidate.
    let pos = TicTacToe::from_cells("xx.o.....");
    let scores = boardlab_search::reference::minimax_moves(&ThreatBlocker, &pos, 1, false);
    assert_eq!(scores.len(), 6, "the root's moves were narrowed");
}

#[test]
fn extensions_are_exact_and_deepen_forced_lines() {
    // Every search configuration agrees with minimax applying the same extension.
    for seed in 0..30u64 {
        let mut pos = TicTacToe::new(Default::default());
        crate::games::random_walk(&mut pos, seed, 1 + (seed % 4) as usize);
        for depth in 1..=4 {
            check_all(ThreatExtender(1), &pos, depth, false).unwrap();
        }
    }
    // x and o in opposite corners, x to move: x's second mark threatens a line, and at
    // depth 3 the plain search ends on x's third mark while the extended one also
    // searches the forced block after each threat, and so values the position otherwise.
    let pos = TicTacToe::from_cells("x.......o");
    let search = |depth| {
        let limits = Limits::new().with_depth(depth);
        let with = Searcher::new(ThreatExtender(1), SearchOptions::default())
            .unwrap()
            .search_with(&pos, &limits, |_| {});
        let without = Searcher::new(ttt_eval, SearchOptions::default())
            .unwrap()
            .search_with(&pos, &limits, |_| {});
        (with, without)
    };
    let (with, without) = search(3);
    assert!(
        with.stats.nodes > without.stats.nodes,
        "the extension searched nothing more"
    );
    assert_eq!(with.score, minimax(&ThreatExtender(1), &pos, 3, false));
    assert_ne!(with.score, without.score, "the extension changed no value");
    // More than one ply is clipped to one: the same values as the one-ply extender.
    for depth in 1..=4 {
        assert_eq!(
            minimax(&ThreatExtender(5), &pos, depth, false),
            minimax(&ThreatExtender(1), &pos, depth, false)
        );
        check_all(ThreatExtender(5), &pos, depth, false).unwrap();
    }
}

#[test]
fn forced_win_hook_settles_nodes() {
    // Exact hook: the search still agrees with minimax (which calls it too) everywhere,
    // and needs fewer nodes than without it.
    for seed in 0..30u64 {
        let mut pos = TicTacToe::new(Default::default());
        crate::games::random_walk(&mut pos, seed, 2 + (seed % 4) as usize);
        check_all(WinSpotter, &pos, 5, false).unwrap();
        assert_eq!(
            minimax(&WinSpotter, &pos, 9, false),
            minimax(&ttt_eval, &pos, 9, false)
        );
    }
    let pos = TicTacToe::new(Default::default());
    let limits = Limits::new().with_depth(9);
    let with = Searcher::new(WinSpotter, SearchOptions::default())
        .unwrap()
        .search_with(&pos, &limits, |_| {});
    let without = Searcher::new(ttt_eval, SearchOptions::default())
        .unwrap()
        .search_with(&pos, &limits, |_| {});
    assert_eq!(with.score, without.score);
    assert!(with.stats.nodes < without.stats.nodes);

    // At the root the announced win is played at once.
    let pos = TicTacToe::from_cells("xx.oo....");
    let r = Searcher::new(WinSpotter, SearchOptions::default())
        .unwrap()
        .search(&pos);
    assert_eq!(
        (r.best_move, r.score, r.stop_reason),
        (Some(2), Score::win_in(1), StopReason::Proven)
    );
    assert_eq!(r.iterations.len(), 1);

    // An illegal announced move is ignored.
    struct Liar;
    impl Evaluator<TicTacToe> for Liar {
        fn evaluate(&self, _: &TicTacToe) -> i32 {
            0
        }
        fn forced_win(&self, _: &mut TicTacToe, _: u32) -> Option<ForcedWin<u8>> {
            Some(ForcedWin { mv: 200, turns: 1 })
        }
    }
    let r = Searcher::new(Liar, SearchOptions::default())
        .unwrap()
        .search_with(&pos, &Limits::new().with_depth(3), |_| {});
    assert_eq!(r.best_move, Some(2));
}

/// Candidates that break the contract at the root (illegal, duplicated, or none at all)
/// cannot make the search return an illegal move.
#[test]
fn root_candidates_are_sanitised() {
    struct Sloppy(Vec<u8>);
    impl Evaluator<TicTacToe> for Sloppy {
        fn evaluate(&self, _: &TicTacToe) -> i32 {
            0
        }
        fn candidates(&self, _: &TicTacToe, moves: &mut Vec<u8>) {
            moves.clear();
            moves.extend(&self.0);
        }
    }
    let pos = TicTacToe::from_cells("xo.......");
    for list in [vec![0, 1, 0, 1], vec![], vec![0, 4, 4, 1]] {
        let mut s = Searcher::new(Sloppy(list.clone()), SearchOptions::default()).unwrap();
        let r = s.search_with(&pos, &Limits::new().with_depth(2), |_| {});
        let mv = r.best_move.unwrap();
        assert!(pos.validate(&mv).is_ok(), "{list:?}: {mv}");
        if list.contains(&4) {
            assert_eq!(mv, 4);
        }
    }
}

#[test]
fn closures_are_evaluators() {
    let pos = TicTacToe::new(Default::default());
    let mut s = Searcher::new(|p: &TicTacToe| ttt_eval(p) * 2, SearchOptions::default()).unwrap();
    let r = s.search_with(&pos, &Limits::new().with_depth(2), |_| {});
    assert_eq!(
        r.score,
        minimax(&|p: &TicTacToe| ttt_eval(p) * 2, &pos, 2, false)
    );
}

/// Positions that repeat are draws when the game asks for it.
#[test]
fn repetition_draws() {
    struct Shuttling {
        repetition: bool,
    }
    impl Evaluator<Shuttle> for Shuttling {
        fn evaluate(&self, _: &Shuttle) -> i32 {
            100 // the side to move likes its position
        }
        fn repetition_is_draw(&self) -> bool {
            self.repetition
        }
    }
    let start = Shuttle::new(ShuttleConfig::default()); // x = 2, First to move
    // First steps right to 3; Second must step back (stepping on to 4 loses): the start
    // position again. Stepping left instead lets Second win at 0.
    for depth in 2..=8 {
        let mut s =
            Searcher::new(Shuttling { repetition: true }, SearchOptions::default()).unwrap();
        let r = s.search_with(&start, &Limits::new().with_depth(depth), |_| {});
        assert_eq!(r.score, Score::DRAW, "depth {depth}");
        assert_eq!(r.best_move, Some(true));
        // Without detection the horizon's evaluation decides: good for whoever is to move
        // there, First at even depths.
        let mut s =
            Searcher::new(Shuttling { repetition: false }, SearchOptions::default()).unwrap();
        let r = s.search_with(&start, &Limits::new().with_depth(depth), |_| {});
        let horizon = if depth % 2 == 0 { 100 } else { -100 };
        assert_eq!(r.score, Score::cp(horizon), "depth {depth}");
    }
    // Game history counts too: if x = 3 with Second to move was seen before, stepping
    // there is already a draw at depth 1.
    let mut seen = start.clone();
    seen.make_move(true);
    let mut s = Searcher::new(Shuttling { repetition: true }, SearchOptions::default()).unwrap();
    s.set_game_history(&[seen.hash()]);
    let r = s.search_with(&start, &Limits::new().with_depth(1), |_| {});
    assert_eq!(r.score, Score::DRAW);
    s.new_game();
    let r = s.search_with(&start, &Limits::new().with_depth(1), |_| {});
    assert_eq!(r.score, Score::cp(-100));
    assert_eq!(start.side_to_move(), Player::First);
}

// ---- incremental evaluation -----------------------------------------------------------

/// A per-token weight.
fn weight(token: u8) -> i32 {
    (mix(u64::from(token) * 31) % 200) as i32 - 100
}

/// The sum of the weights of the tokens played, maintained move by move: the kind of
/// state a k-in-a-row evaluator keeps per line.
#[derive(Clone, Debug, PartialEq)]
struct Balance {
    sum: i32,
}

impl EvalState<Tree> for Balance {
    type Undo = i32;
    fn from_position(pos: &Tree) -> Self {
        let sum = (0..32u8)
            .filter(|&t| pos.mask() & (1 << t) != 0)
            .map(weight)
            .sum();
        Balance { sum }
    }
    fn make(&mut self, _: &Tree, mv: u8, _: &Player) -> i32 {
        let delta = weight(mv);
        self.sum += delta;
        delta
    }
    fn unmake(&mut self, delta: i32) {
        self.sum -= delta;
    }
}

/// Reads the state: no rescan of the position.
#[derive(Clone, Copy)]
struct IncrementalEval;

impl Evaluator<Incremental<Tree, Balance>> for IncrementalEval {
    fn evaluate(&self, pos: &Incremental<Tree, Balance>) -> i32 {
        pos.state().sum * pos.side_to_move().sign() + pos.position().noise(1) / 10
    }
}

/// The same evaluation, rescanning the position.
#[derive(Clone, Copy)]
struct RescanEval;

impl Evaluator<Tree> for RescanEval {
    fn evaluate(&self, pos: &Tree) -> i32 {
        Balance::from_position(pos).sum * pos.side_to_move().sign() + pos.noise(1) / 10
    }
}

#[test]
fn incremental_evaluation_through_a_wrapping_position() {
    let start = Tree::with(11, 12);
    let wrapped = Incremental::<Tree, Balance>::new(start.clone());
    // The wrapper is a conforming position (make/unmake restore the state too).
    board_core::testing::check_rules_playouts(&wrapped, 5, 10, 30).unwrap();

    for depth in 1..=5 {
        check_all(IncrementalEval, &wrapped, depth, false).unwrap();
        let limits = Limits::new().with_depth(depth);
        let a = Searcher::new(IncrementalEval, SearchOptions::default())
            .unwrap()
            .search_with(&wrapped, &limits, |_| {});
        let b = Searcher::new(RescanEval, SearchOptions::default())
            .unwrap()
            .search_with(&start, &limits, |_| {});
        // The same tree with the same values: the same search, node for node.
        assert_eq!(
            (a.best_move, a.score, &a.pv, a.stats.nodes),
            (b.best_move, b.score, &b.pv, b.stats.nodes)
        );
    }
    // Along a line the state matches a rescan.
    let mut w = wrapped.clone();
    let mut moves = Vec::new();
    for i in 0..6 {
        w.generate_moves(&mut moves);
        let Some(&mv) = moves.get(i % moves.len().max(1)) else {
            break;
        };
        w.make_move(mv);
        assert_eq!(w.state(), &Balance::from_position(w.position()));
    }
}

/// Quiescence changes the value exactly as the reference says it should, and only with
/// noisy moves.
#[test]
fn quiescence_follows_noisy_moves() {
    let mut differs = 0;
    for seed in 0..40u32 {
        let pos = Tree::with(seed, 12);
        let noisy = TreeEval {
            noisy: true,
            ..TreeEval::default()
        };
        let q = minimax(&noisy, &pos, 2, true);
        let plain = minimax(&noisy, &pos, 2, false);
        differs += usize::from(q != plain);
        let opts = SearchOptions::default().with_hash_mb(1).unwrap();
        let r = Searcher::new(noisy, opts.clone()).unwrap().search_with(
            &pos,
            &Limits::new().with_depth(2),
            |_| {},
        );
        assert_eq!(r.score, q);
        assert!(r.stats.qnodes > 0 || q == plain);
        let r = Searcher::new(noisy, opts.with_quiescence(false))
            .unwrap()
            .search_with(&pos, &Limits::new().with_depth(2), |_| {});
        assert_eq!((r.score, r.stats.qnodes), (plain, 0));
    }
    assert!(differs >= 5, "{differs}");
}

// ---- forward pruning -------------------------------------------------------------------

/// [`TreeEval`] with futility and razoring margins, recording the depths the search asks
/// them at.
#[derive(Default)]
struct Pruning {
    futility: Option<i32>,
    razor: Option<i32>,
    asked: std::sync::Mutex<Vec<u32>>,
}

impl Evaluator<Tree> for Pruning {
    fn evaluate(&self, pos: &Tree) -> i32 {
        TreeEval::default().evaluate(pos)
    }
    fn futility_margin(&self, _: &Tree, depth: u32) -> Option<i32> {
        self.asked_at(depth, self.futility)
    }
    fn razor_margin(&self, _: &Tree, depth: u32) -> Option<i32> {
        self.asked_at(depth, self.razor)
    }
}

impl Pruning {
    /// Records that a margin was asked for at `depth`, and gives it.
    fn asked_at(&self, depth: u32, margin: Option<i32>) -> Option<i32> {
        self.asked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(depth);
        margin
    }
}

fn pruned_search(
    eval: &Pruning,
    pos: &Tree,
    depth: u32,
) -> Result<boardlab_search::SearchResult<u8>, boardlab_search::OptionsError> {
    let opts = SearchOptions::default().with_hash_mb(1)?;
    let eval = Pruning {
        futility: eval.futility,
        razor: eval.razor,
        asked: Default::default(),
    };
    let mut s = Searcher::new(eval, opts)?;
    let r = s.search_with(pos, &Limits::new().with_depth(depth), |_| {});
    let asked = s
        .evaluator()
        .asked
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    // Never at the root, never at the horizon.
    assert!(asked.iter().all(|&d| (1..depth).contains(&d)), "{asked:?}");
    Ok(r)
}

#[test]
fn forward_pruning_prunes_only_when_its_margin_is_met() {
    let (mut futility_nodes, mut plain_nodes) = (0, 0);
    for seed in 0..20u32 {
        let pos = Tree::with(seed, 20);
        let plain = pruned_search(&Pruning::default(), &pos, 4).unwrap();
        // Margins no evaluation (within ±1000) can meet: the same search, node for node.
        let never = Pruning {
            futility: Some(10_000),
            razor: Some(10_000),
            ..Pruning::default()
        };
        let r = pruned_search(&never, &pos, 4).unwrap();
        assert_eq!(
            (r.best_move, r.score, &r.pv, r.stats.nodes),
            (plain.best_move, plain.score, &plain.pv, plain.stats.nodes)
        );
        // Margins that are always met off the PV: the tree changes (it can grow: a
        // pruned value can fail where the real one would not), the best move stays legal.
        // Razoring, which keeps a quiescence value only when it fails low, shrinks it.
        if plain.score.is_decisive() {
            continue;
        }
        let eager_futility = Pruning {
            futility: Some(-10_000),
            ..Pruning::default()
        };
        let eager_razor = Pruning {
            razor: Some(-10_000),
            ..Pruning::default()
        };
        let f = pruned_search(&eager_futility, &pos, 4).unwrap();
        let r = pruned_search(&eager_razor, &pos, 4).unwrap();
        assert_ne!(f.stats.nodes, plain.stats.nodes, "seed {seed}");
        assert!(r.stats.nodes < plain.stats.nodes, "seed {seed}");
        for res in [&f, &r] {
            assert!(pos.validate(&res.best_move.unwrap()).is_ok());
        }
        futility_nodes += f.stats.nodes;
        plain_nodes += plain.stats.nodes;
    }
    assert!(
        futility_nodes < plain_nodes / 2,
        "{futility_nodes} of {plain_nodes}"
    );
}

#[test]
fn forward_pruning_is_asked_only_off_the_principal_variation() {
    // Depth 2: the root's children are the only interior nodes. Plain alpha-beta searches
    // them with open windows (PV nodes: never asked, so the search stays exact); PVS
    // searches all but the first with a null window (asked).
    for seed in 0..20u32 {
        let pos = Tree::with(seed, 20);
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for (opts, pv_only) in [
            (SearchOptions::plain_alpha_beta(), true),
            (SearchOptions::plain_alpha_beta().with_pvs(true), false),
        ] {
            let eval = Pruning {
                futility: Some(-10_000),
                razor: Some(-10_000),
                ..Pruning::default()
            };
            let mut s = Searcher::new(eval, opts).unwrap();
            let r = s.search_with(&pos, &Limits::new().with_depth(2), |_| {});
            let asked = s.evaluator().asked.lock().unwrap().len();
            if pv_only {
                assert_eq!(asked, 0, "seed {seed}");
                assert_eq!(r.score, minimax(&TreeEval::default(), &pos, 2, false));
            } else if moves.len() > 1 && !r.score.is_decisive() {
                assert!(asked > 0, "seed {seed}");
            }
        }
    }
}

/// The tree game whose evaluator reduces every move it is asked about by `.0` turns, and
/// records whether it was ever asked about a first move or at depth under 2.
#[derive(Default)]
struct Reducer(u32, std::sync::atomic::AtomicBool);

impl Evaluator<Tree> for Reducer {
    fn evaluate(&self, pos: &Tree) -> i32 {
        TreeEval::default().evaluate(pos)
    }
    fn late_move_reduction(&self, _: &Tree, _: u8, _: i32, depth: u32, searched: usize) -> u32 {
        if searched == 0 || depth < 2 {
            self.1.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        self.0
    }
}

/// The game's late-move reductions apply with the search's own reductions off: none
/// (0) searches exactly the tree the default evaluator does; one turn cuts nodes and still
/// gives a legal move; the hook is never asked about a node's first move nor under depth 2.
#[test]
fn game_late_move_reductions_cut_nodes_and_spare_first_moves() {
    let opts = SearchOptions::default().with_hash_mb(4).unwrap();
    assert!(!opts.late_move_reductions());
    let limits = Limits::new().with_depth(6);
    let (mut reduced_nodes, mut full_nodes) = (0, 0);
    for seed in 0..6u32 {
        let pos = Tree::with(seed + 40, 20);
        let plain = Searcher::new(TreeEval::default(), opts.clone())
            .unwrap()
            .search_with(&pos, &limits, |_| {});
        let none = Reducer(0, Default::default());
        let zero = Searcher::new(none, opts.clone())
            .unwrap()
            .search_with(&pos, &limits, |_| {});
        assert_eq!(
            (zero.score, zero.stats.nodes),
            (plain.score, plain.stats.nodes)
        );
        assert_eq!(zero.stats.reductions, 0);
        if plain.stop_reason == StopReason::Proven {
            continue; // decided at once: nothing to reduce
        }
        let mut searcher = Searcher::new(Reducer(1, Default::default()), opts.clone()).unwrap();
        let one = searcher.search_with(&pos, &limits, |_| {});
        assert!(one.stats.reductions > 0);
        assert!(one.stats.reduction_researches <= one.stats.reductions);
        assert!(pos.validate(&one.best_move.unwrap()).is_ok());
        assert!(
            !searcher
                .evaluator()
                .1
                .load(std::sync::atomic::Ordering::Relaxed)
        );
        reduced_nodes += one.stats.nodes;
        full_nodes += plain.stats.nodes;
    }
    assert!(
        reduced_nodes < full_nodes,
        "{reduced_nodes} vs {full_nodes}"
    );
}
