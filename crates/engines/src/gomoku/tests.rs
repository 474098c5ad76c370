use std::time::Duration;

use board_core::{Notation as _, Player, Position as _, Rules as _, Square};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_gomoku::{GomokuConfig, GomokuPosition, Move, Rule};
use search::{EvalState, Limits, ScoreKind, SearchOptions};

use super::{engine::candidates, *};
use crate::tune::TunedWeights;

fn play(size: u32, rule: Rule, moves: &str) -> GomokuPosition {
    let config = GomokuConfig::new(size, rule).expect("valid config");
    let mut pos = GomokuPosition::new(config);
    for m in moves.split_whitespace() {
        let mv = pos.parse_legal_move(m).expect("legal test move");
        pos.make_move(mv);
    }
    pos
}

fn sq(pos: &GomokuPosition, s: &str) -> Square {
    pos.geometry().parse_square(s).expect("square")
}

fn engine_move(pos: &GomokuPosition, limits: Limits) -> (Move, search::Score) {
    let mut agent = Position::engine(SearchOptions::default()).expect("engine");
    let r = agent.think(pos, &limits, &mut |_| {});
    (r.best_move.expect("a move"), r.score)
}

#[test]
fn takes_an_immediate_five() {
    // Black: h8 i8 j8 k8 (closed by g8 white); white scattered.
    let pos = play(15, Rule::Freestyle, "h8 g8 i8 a1 j8 a3 k8 a5");
    let (mv, score) = engine_move(&pos, Limits::new().with_depth(4));
    assert_eq!(mv.square(), sq(&pos, "l8"));
    assert_eq!(score.kind(), ScoreKind::Win(1));
}

#[test]
fn blocks_the_opponents_four() {
    // Black has h8 i8 j8 k8 closed at g8; White to move must block l8.
    let pos = play(15, Rule::Freestyle, "h8 g8 i8 a1 j8 a3 k8");
    let (mv, _) = engine_move(&pos, Limits::new().with_depth(4));
    assert_eq!(mv.square(), sq(&pos, "l8"));
}

#[test]
fn blocks_an_open_three() {
    // Black open three h8 i8 j8; White to move must not let it become an open four.
    let pos = play(15, Rule::Freestyle, "h8 h10 i8 a1 j8");
    let (mv, _) = engine_move(&pos, Limits::new().with_depth(5));
    let blocks = ["g8", "k8", "f8", "l8"].map(|s| sq(&pos, s));
    assert!(blocks.contains(&mv.square()), "{}", pos.format_move(mv));
}

#[test]
fn wins_with_an_open_four() {
    // Black open three h8 i8 j8, White has nothing: g8 or k8 wins in 3 turns.
    let pos = play(15, Rule::Freestyle, "h8 a1 i8 a3 j8 a5");
    let (mv, score) = engine_move(&pos, Limits::new().with_depth(6));
    assert!(
        matches!(score.kind(), ScoreKind::Win(n) if n <= 3),
        "{score}"
    );
    let wins = ["g8", "k8"].map(|s| sq(&pos, s));
    assert!(wins.contains(&mv.square()), "{}", pos.format_move(mv));
}

#[test]
fn vcf_finds_a_four_four_combination() {
    // Black: h8 i8 j8 (closed at g8) and k9 k10 k11 (closed at k12): k8 makes two fours.
    let pos = play(
        15,
        Rule::Freestyle,
        "h8 g8 i8 a1 j8 k12 k9 a3 k10 a5 k11 a7",
    );
    let fw = find_vcf(&mut wrap(&pos), 5_000, true, None).expect("a VCF");
    assert_eq!(fw.mv.square(), sq(&pos, "k8"));
    assert_eq!(fw.turns, 3);
    let (mv, score) = engine_move(
        &pos,
        Limits::new().with_move_time(Duration::from_millis(200)),
    );
    assert_eq!(mv.square(), sq(&pos, "k8"));
    assert!(score.is_decisive());
}

#[test]
fn vcf_finds_a_longer_chain() {
    // Black: closed three h8 i8 j8 (g8), two l9 l10, closed diagonal three i8 j9 k10 (h7).
    // l11 is a four (forcing m12) that also makes l8 a double four: a win in 5 turns.
    let pos = play(
        15,
        Rule::Freestyle,
        "h8 g8 i8 h7 j8 a1 l9 o1 l10 a15 j9 o15 k10 e14",
    );
    let fw = find_vcf(&mut wrap(&pos), 20_000, true, None).expect("a VCF");
    assert!(fw.turns >= 5, "{}", fw.turns);
    let (mv, score) = engine_move(
        &pos,
        Limits::new().with_move_time(Duration::from_millis(300)),
    );
    assert!(score.is_decisive(), "{score}");
    assert!(pos.validate(&mv).is_ok());
    // White to move instead (after a quiet black move) must not ignore it: the engine
    // as White finds a defence or at least plays legally.
    let _ = mv;
}

/// The VCF plays on the engine position's own pattern state (the search's hook gets it
/// mutably): found, not found and cut off by its budget, it must leave the position as it
/// was, or every later evaluation would be of another board.
#[test]
fn vcf_leaves_the_position_as_it_found_it() {
    let chain = play(
        15,
        Rule::Freestyle,
        "h8 g8 i8 h7 j8 a1 l9 o1 l10 a15 j9 o15 k10 e14",
    );
    for (pos, budget, found) in [
        (chain.clone(), 20_000, true),
        (chain, 1, false),
        (play(15, Rule::Freestyle, "h8 g8 i8 h9 j8 a1"), 5_000, false),
    ] {
        let mut engine_pos = wrap(&pos);
        let before = engine_pos.clone();
        let fw = find_vcf(&mut engine_pos, budget, true, None);
        assert_eq!(fw.is_some(), found, "budget {budget}");
        assert!(engine_pos == before, "budget {budget}: the state changed");
        assert!(
            engine_pos == wrap(&pos),
            "budget {budget}: not the position's state"
        );
    }
}

/// The interior VCF's failure cache hides nothing: asked at growing, shrinking and growing
/// depths (so budgets), the cached evaluator answers as a fresh one does each time. The
/// first position (from a match game) has a win by fours that 24 nodes (depth 2) do not
/// find and 200 (depth 8) do; the second has none at all.
#[test]
fn interior_vcf_failures_cached_answer_as_a_fresh_search() {
    use search::Evaluator as _;
    let long = play(
        15,
        Rule::Freestyle,
        "j6 h10 h8 i7 f8 i10 h6 g8 g7 i5 f6 i9 i8 f9",
    );
    let fresh = |pos: &GomokuPosition, depth| {
        GomokuEval::new()
            .forced_win(&mut wrap(pos), depth)
            .map(|w| (w.mv, w.turns))
    };
    assert!(fresh(&long, 2).is_none() && fresh(&long, 8).is_some());
    let quiet = play(15, Rule::Freestyle, "h8 g8 i8 h9 j8 a1");
    let cached = GomokuEval::new();
    for pos in [long, quiet] {
        for depth in (2..=8).chain((2..=8).rev()).chain(2..=8) {
            let mut p = wrap(&pos);
            let got = cached.forced_win(&mut p, depth).map(|w| (w.mv, w.turns));
            assert_eq!(got, fresh(&pos, depth), "depth {depth}");
            assert!(p == wrap(&pos), "depth {depth}: the state changed");
        }
    }
}

#[test]
fn vcf_failures_cover_smaller_budgets_and_complete_searches_all() {
    use crate::failures::ThreatFailures;
    let f = ThreatFailures::new();
    let (a, b) = (0x1234_5678_9abc_de00_u64, 0x0fed_cba9_8765_4300_u64);
    assert!(!f.covers(a, 1));
    f.record(a, 24, false);
    assert!(f.covers(a, 24) && f.covers(a, 6));
    assert!(!f.covers(a, 25), "a larger budget may still win");
    assert!(!f.covers(b, 1), "another position");
    f.record(b, 24, true);
    assert!(
        f.covers(b, 200) && f.covers(b, 10_000),
        "out of fours: fails at any budget"
    );
}

#[test]
fn no_vcf_without_threes() {
    let pos = play(15, Rule::Freestyle, "h8 h9 i8 i9");
    assert!(find_vcf(&mut wrap(&pos), 5_000, true, None).is_none());
}

#[test]
fn exact5_overline_is_not_a_five() {
    // Black: f8 g8 _ i8 j8 k8 ... h8 would make six: not a five under exact5.
    let pos = play(15, Rule::Exact5, "f8 a1 g8 a3 i8 a5 j8 a7 k8 a9");
    let st = GomokuState::from_position(&pos);
    assert!(st.five_point(Player::First).is_none());
    let free = play(15, Rule::Freestyle, "f8 a1 g8 a3 i8 a5 j8 a7 k8 a9");
    let st = GomokuState::from_position(&free);
    assert_eq!(st.five_point(Player::First), Some(sq(&free, "h8")));
}

#[test]
fn baseline_eval_matches_the_formula() {
    // Empty board: 0.
    let pos = play(15, Rule::Freestyle, "");
    assert_eq!(baseline_eval(&pos), 0);
    // Black h8 i8 (open two on the rank), White a1 (corner: dead single stone).
    // White to move: 0 - 2000.
    let pos = play(15, Rule::Freestyle, "h8 a1 i8");
    assert_eq!(baseline_eval(&pos), -2_000);
    // Black to move after White a3: Black open two (2000), White's single stones: 0.
    let pos = play(15, Rule::Freestyle, "h8 a1 i8 a2");
    // White a1 a2: a run of 2 on file a, closed (a0 off-board, a3 empty): 200.
    assert_eq!(baseline_eval(&pos), 2_000 - 200);
    // Black open three h8 i8 j8, White closed-off two at g8? g8 blocks: closed three 3000.
    let pos = play(15, Rule::Freestyle, "h8 g8 i8 g9 j8");
    // White to move: White g8 g9 open two on file g (2000) and diagonals singles;
    // Black h8 i8 j8 closed three (3000). Also g9-h8 anti-diagonal: different colours.
    assert_eq!(baseline_eval(&pos), 2_000 - 3_000);
    // Open four: 500000; closed four 50000.
    let pos = play(15, Rule::Freestyle, "h8 a1 i8 a3 j8 a5 k8");
    assert_eq!(baseline_eval(&pos), -500_000);
    let pos = play(15, Rule::Freestyle, "h8 g8 i8 a3 j8 a5 k8");
    assert_eq!(baseline_eval(&pos), -50_000);
    assert_eq!(run_score(3, 2, Rule::Freestyle), 30_000);
    assert_eq!(run_score(6, 1, Rule::Freestyle), 500_000);
    assert_eq!(run_score(6, 1, Rule::Exact5), 0);
    assert_eq!(run_score(2, 0, Rule::Freestyle), 0);
}

#[test]
fn baseline_candidates_are_radius_two() {
    let pos = play(15, Rule::Freestyle, "");
    let mut moves = Vec::new();
    baseline_candidates(&pos, &mut moves);
    assert_eq!(moves, vec![Move::new(sq(&pos, "h8"))]);
    let pos = play(15, Rule::Freestyle, "h8");
    baseline_candidates(&pos, &mut moves);
    assert_eq!(moves.len(), 24);
    let pos = play(15, Rule::Freestyle, "a1");
    baseline_candidates(&pos, &mut moves);
    assert_eq!(moves.len(), 8);
}

#[test]
fn incremental_state_matches_from_scratch() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for (size, rule) in [
        (15, Rule::Freestyle),
        (20, Rule::Freestyle),
        (15, Rule::Exact5),
    ] {
        for _ in 0..6 {
            let mut pos = wrap(&play(size, rule, ""));
            let mut stack = Vec::new();
            let mut moves = Vec::new();
            while pos.outcome().is_none() && stack.len() < 120 {
                pos.generate_moves(&mut moves);
                // Play near stones most of the time so patterns form.
                let mut cands = Vec::new();
                candidates(&pos, &mut cands, 12);
                let mv = if !cands.is_empty() && rng.random_bool(0.8) {
                    cands[rng.random_range(0..cands.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                let undo = pos.make_move(mv);
                stack.push((mv, undo));
                let scratch = GomokuState::from_position(pos.position());
                assert_eq!(pos.state(), &scratch);
            }
            let start = GomokuState::from_position(&play(size, rule, ""));
            while let Some((mv, undo)) = stack.pop() {
                pos.unmake_move(mv, undo);
                assert_eq!(pos.state(), &GomokuState::from_position(pos.position()));
            }
            assert_eq!(pos.state(), &start);
        }
    }
}

#[test]
fn engine_moves_are_always_legal() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut agent = Position::engine(SearchOptions::default()).expect("engine");
    for size in [15, 20] {
        let mut pos = play(size, Rule::Freestyle, "");
        let mut moves = Vec::new();
        while pos.outcome().is_none() && pos.ply() < 60 {
            let mv = if rng.random_bool(0.3) {
                pos.generate_moves(&mut moves);
                moves[rng.random_range(0..moves.len())]
            } else {
                let r = agent.think(&pos, &Limits::new().with_nodes(300), &mut |_| {});
                r.best_move.expect("a move")
            };
            assert!(pos.validate(&mv).is_ok());
            pos.make_move(mv);
        }
    }
}

#[test]
fn bench_positions_are_valid() {
    for (spec, moves) in BENCH_POSITIONS {
        let config: GomokuConfig = spec.parse().expect("spec");
        let mut pos = GomokuPosition::new(config);
        for m in moves.split_whitespace() {
            let mv = pos.parse_legal_move(m).expect("legal");
            pos.make_move(mv);
        }
        assert!(pos.outcome().is_none());
    }
}

#[test]
#[ignore = "slow diagnostic"]
fn diagnose_losses() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let games: usize = std::env::var("GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let size: u32 = std::env::var("SIZE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15);
    let limits = Limits::new()
        .with_soft_time(Duration::from_millis(60))
        .with_hard_time(Duration::from_millis(95));
    for g in 0..games {
        let mut engine = Position::engine(SearchOptions::default()).expect("engine");
        let mut base = Position::baseline().expect("the baseline builds");
        let mut pos = play(size, Rule::Freestyle, "");
        let mut moves = Vec::new();
        let mut record = Vec::new();
        for _ in 0..2 {
            pos.generate_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            record.push(pos.format_move(mv));
            pos.make_move(mv);
        }
        let engine_side = if g % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        while pos.outcome().is_none() {
            let r = if pos.side_to_move() == engine_side {
                let t0 = std::time::Instant::now();
                let r = engine.think(&pos, &limits, &mut |_| {});
                let ms = t0.elapsed().as_millis();
                if ms > 75 {
                    println!(
                        "slow {ms} ms (search {} ms, depth {}, nodes {}) after: {}",
                        r.stats.time.as_millis(),
                        r.depth,
                        r.stats.nodes,
                        record.join(" ")
                    );
                }
                r
            } else {
                base.think(&pos, &limits, &mut |_| {})
            };
            let mv = r.best_move.expect("move");
            record.push(pos.format_move(mv));
            pos.make_move(mv);
        }
        let lost = pos.outcome().and_then(|o| o.winner()) != Some(engine_side);
        println!(
            "game {g}: engine {:?} {} : {}",
            engine_side,
            if lost { "LOST" } else { "won" },
            record.join(" ")
        );
    }
}

#[test]
fn cell_kinds_of_an_open_three_and_a_four() {
    use super::board::{K_FIVE, K_FLEX4, K_FOUR};
    // Black open three h8 i8 j8: g8 and k8 make open fours, f8 and l8 fours.
    let pos = wrap(&play(15, Rule::Freestyle, "h8 a1 i8 a3 j8"));
    let st = pos.state();
    let flex: Vec<Square> = ["g8", "k8"].iter().map(|s| sq(pos.position(), s)).collect();
    assert_eq!(st.kind_count(Player::First, K_FLEX4), 2);
    for &s in &flex {
        assert!(st.fours(Player::First).iter().any(|x| x == s));
    }
    let fours: Vec<Square> = st.fours(Player::First).iter().collect();
    assert_eq!(fours.len(), 4, "{fours:?}");
    assert_eq!(st.kind_count(Player::First, K_FOUR), 2);
    assert_eq!(st.kind_count(Player::First, K_FIVE), 0);
    // White's a1 a3: a2 makes a closed... nothing forcing.
    assert!(st.fours(Player::Second).is_empty());
    // After g8 (open four), l8 and f8 are five points.
    let pos = wrap(&play(15, Rule::Freestyle, "h8 a1 i8 a3 j8 a5 g8"));
    let fives: Vec<Square> = pos.state().fives(Player::First).iter().collect();
    assert_eq!(
        fives,
        vec![sq(pos.position(), "f8"), sq(pos.position(), "k8")]
    );
}

/// The combinations the cell weights add to the line weights: a cell that makes a three
/// and an open two, a closed three and an open two, or two open twos, each counted where
/// the fit reads it.
#[test]
fn cell_combinations_of_two_lines() {
    // Black h8 i8 h10: j8 makes the open three h8-j8 and the two j8 . h10 on the
    // anti-diagonal; i10 makes the twos h10 i10 and i8 . i10 and no three; g8 only a three.
    let pos = wrap(&play(15, Rule::Freestyle, "h8 a1 i8 a3 h10"));
    let st = pos.state();
    let at = |s: &str| st.combo_at(Player::First, sq(pos.position(), s));
    assert_eq!(at("j8"), Some(Combo::ThreatTwo));
    assert_eq!(at("i10"), Some(Combo::TwoTwo));
    assert_eq!(at("g8"), None);
    assert_eq!(at("h8"), None, "an occupied cell makes nothing");
    // Black h8 i8 k9, White g8: j8 makes the closed three h8-j8 and the two j8 k9.
    let pos = wrap(&play(15, Rule::Freestyle, "h8 g8 i8 a1 k9"));
    let st = pos.state();
    assert_eq!(
        st.combo_at(Player::First, sq(pos.position(), "j8")),
        Some(Combo::ClosedThreeTwo)
    );
    // The fit counts every empty cell's combination, in both positions.
    for moves in ["h8 a1 i8 a3 h10", "h8 g8 i8 a1 k9"] {
        let pos = wrap(&play(15, Rule::Freestyle, moves));
        let st = pos.state();
        let counts = st.class_counts(Player::First);
        for c in [Combo::ThreatTwo, Combo::ClosedThreeTwo, Combo::TwoTwo] {
            let listed = pos
                .position()
                .geometry()
                .squares()
                .filter(|&s| st.combo_at(Player::First, s) == Some(c))
                .count();
            assert_eq!(counts.combos[c as usize], listed as i64, "{moves}: {c:?}");
        }
    }
}

/// White's double-four combination: h3 i3 j3 (closed at g3) and k4 k5 k6 (closed at k7),
/// so k3 makes two fours; Black has h8 i8 and j9 j10.
const WHITE_VCF_BLACK_THREE_THREE: &str = "h8 h3 i8 i3 j9 j3 j10 k4 g3 k5 k7 k6";

#[test]
fn state_vcf_is_asked_for_either_colour() {
    use super::threats::vcf;
    let pos = play(15, Rule::Freestyle, WHITE_VCF_BLACK_THREE_THREE);
    let mut st = GomokuState::from_position(&pos);
    let before = st.clone();
    // Black is to move, but White would win by fours if it were its turn.
    let (turns, first) = vcf(&mut st, Player::Second, 5_000, true, None).expect("White's VCF");
    assert_eq!((turns, first), (3, sq(&pos, "k3")));
    assert!(vcf(&mut st, Player::First, 5_000, true, None).is_none());
    assert_eq!(st, before, "the search leaves the state as it found it");
}

#[test]
fn forward_pruning_margins_stand_aside_for_threats() {
    use search::Evaluator as _;
    let eval = GomokuEval::new();
    let margins = |moves: &str| {
        let pos = wrap(&play(15, Rule::Freestyle, moves));
        let f: Vec<Option<i32>> = (1..=4).map(|d| eval.futility_margin(&pos, d)).collect();
        let r: Vec<Option<i32>> = (1..=3).map(|d| eval.razor_margin(&pos, d)).collect();
        (f, r)
    };
    let all = |m: &[i32]| m.iter().map(|&x| Some(x)).chain([None]).collect::<Vec<_>>();
    // Nothing forcing on the board: both prune at shallow depths only.
    let quiet = (all(&FUTILITY_MARGINS), all(&RAZOR_MARGINS));
    assert_eq!(margins("h8 h9"), quiet);
    assert_eq!(margins("h8 h9 i9 g7"), quiet);
    // White to move against Black's open three (h8 i8 j8): no futility (the static value
    // does not see the threat); razoring still may (the threat only lowers our value).
    assert_eq!(
        margins("h8 h10 i8 a1 j8"),
        (vec![None; 4], all(&RAZOR_MARGINS))
    );
    // White to move against Black's four (l8 makes five): a forced block, neither.
    assert_eq!(
        margins("h8 g8 i8 a1 j8 a3 k8"),
        (vec![None; 4], vec![None; 3])
    );
    // Black to move with its own open three (an open four next): White is quiet, so
    // futility may prune; razoring must not (quiescence would not play the open four).
    assert_eq!(
        margins("h8 a1 i8 a3 j8 a5"),
        (all(&FUTILITY_MARGINS), vec![None; 3])
    );
    // Black to move while White has a double-four point (k3): no futility.
    let (f, _) = margins(WHITE_VCF_BLACK_THREE_THREE);
    assert_eq!(f, vec![None; 4]);
}

/// Black has h8 i8 on the rank and j10 j11 on the j file: j8 makes two open threes (h8 i8
/// j8, and j8 _ j10 j11), a win by threats and not by fours. White's stones are in the
/// corners.
const BLACK_DOUBLE_THREE: &str = "h8 a1 i8 o1 j10 a15 j11 o15";

/// Every reply of the defender to `first` (every empty square) leaves the attacker a win
/// (a VCT at `budget`): a check of the solver's claim that its defence set holds all the
/// replies that matter.
fn every_reply_still_loses(pos: &GomokuPosition, first: Square, budget: u32) {
    use super::threats::vct;
    let attacker = pos.side_to_move();
    let mut st = GomokuState::from_position(pos);
    assert!(st.put(first, attacker));
    for i in 0..pos.size() * pos.size() {
        let reply = Square::new(i as u16);
        if !st.put(reply, attacker.other()) {
            continue;
        }
        let win = vct(&mut st, attacker, budget, 4, None);
        st.take(reply, attacker.other());
        assert!(
            win.is_some(),
            "after {} the reply {} refutes the claimed win",
            pos.format_move(Move::new(first)),
            pos.format_move(Move::new(reply))
        );
    }
}

#[test]
fn vct_wins_a_double_three_that_vcf_does_not() {
    let pos = play(15, Rule::Freestyle, BLACK_DOUBLE_THREE);
    assert!(find_vcf(&mut wrap(&pos), 20_000, true, None).is_none());
    let mut engine_pos = wrap(&pos);
    let fw = find_vct(&mut engine_pos, 20_000, 2, None).expect("a VCT");
    assert!(
        engine_pos == wrap(&pos),
        "the search leaves the position as it was"
    );
    // A three, a reply, an open four, a reply, the five: at least 5 turns.
    assert!(fw.turns >= 5, "{}", fw.turns);
    // With no threes allowed it is a VCF, and there is none.
    assert!(find_vct(&mut wrap(&pos), 20_000, 0, None).is_none());
    every_reply_still_loses(&pos, fw.mv.square(), 20_000);
    // The engine plays it at once and announces the win.
    let (mv, score) = engine_move(
        &pos,
        Limits::new().with_move_time(Duration::from_millis(200)),
    );
    assert!(score.is_decisive(), "{score}");
    every_reply_still_loses(&pos, mv.square(), 20_000);
}

#[test]
fn no_vct_for_the_side_without_threats() {
    // White (the corners) has nothing; Black's threats do not help White.
    let pos = play(15, Rule::Freestyle, BLACK_DOUBLE_THREE);
    let mut st = GomokuState::from_position(&pos);
    assert!(super::threats::vct(&mut st, Player::Second, 50_000, 4, None).is_none());
    // A lone open two has no VCT either (one three is answered).
    let pos = play(15, Rule::Freestyle, "h8 a1 i8 a3");
    assert!(find_vct(&mut wrap(&pos), 50_000, 4, None).is_none());
}

/// The defence set of an open three is exactly the squares after which the attacker has no
/// open or double four next, checked against every empty square.
#[test]
fn defence_set_of_an_open_three_is_exact() {
    use super::{board::K_FLEX4, threats::defence_set};
    for moves in [
        "h8 a1 i8 a3 j8",
        "h8 a1 i8 a3 k8",
        BLACK_DOUBLE_THREE,
        "h8 a1 i8 o1 j10 a15 j11 o15 j8",
        // White has fours to answer with (a2, a4): they are in every set.
        "h8 a1 i8 a3 j8 a5",
    ] {
        let pos = play(15, Rule::Freestyle, moves);
        let (attacker, defender) = (Player::First, Player::Second);
        let mut st = GomokuState::from_position(&pos);
        let before = st.clone();
        let set = defence_set(&mut st, attacker, defender);
        assert_eq!(st, before);
        let mut brute = Vec::new();
        for i in 0..pos.size() * pos.size() {
            let c = Square::new(i as u16);
            if st.put(c, defender) {
                if st.kind_count(attacker, K_FLEX4) == 0 {
                    brute.push(c);
                }
                st.take(c, defender);
            }
        }
        let counter: Vec<Square> = before.fours(defender).iter().collect();
        assert_eq!(
            &set[..counter.len()],
            &counter[..],
            "{moves}: counter-fours first"
        );
        let mut got: Vec<Square> = set[counter.len()..].to_vec();
        got.sort_unstable();
        brute.retain(|c| !counter.contains(c));
        if before.kind_count(attacker, K_FLEX4) == 0 {
            assert!(got.is_empty(), "{moves}: no threat, no blocks");
        } else {
            assert_eq!(got, brute, "{moves}");
        }
    }
    let pos = play(15, Rule::Freestyle, "h8 a1 i8 a3 j8");
    let mut st = GomokuState::from_position(&pos);
    let mut set = defence_set(&mut st, Player::First, Player::Second);
    set.sort_unstable();
    let expected: Vec<Square> = ["g8", "k8"].iter().map(|s| sq(&pos, s)).collect();
    assert_eq!(set, expected);
}

/// White to move while Black would win by fours (k8 or l11 first): the defence keeps the
/// moves after which Black no longer wins, and only those of the candidates.
#[test]
fn threat_defence_keeps_exactly_the_refutations() {
    use search::Evaluator as _;
    let pos = play(
        15,
        Rule::Freestyle,
        "h8 g8 i8 h7 j8 a1 l9 o1 l10 a15 j9 o15 k10",
    );
    let mut engine_pos = wrap(&pos);
    let eval = GomokuEval::new();
    eval.set_root_ply(pos.ply());
    let mut moves = Vec::new();
    eval.candidates(&engine_pos, &mut moves);
    let listed = moves.clone();
    let before = engine_pos.clone();
    threat_defence(&mut engine_pos, 200, 0, &mut moves);
    assert!(
        engine_pos == before,
        "the hook leaves the position as it was"
    );
    assert!(!moves.is_empty() && moves.len() < listed.len(), "{moves:?}");
    let black_wins_after = |white: Move| {
        let mut p = pos.clone();
        p.make_move(white);
        find_vcf(&mut wrap(&p), 50_000, true, None).is_some()
    };
    for &m in &moves {
        assert!(
            !black_wins_after(m),
            "{} kept but loses",
            pos.format_move(m)
        );
    }
    for &m in listed.iter().filter(|m| !moves.contains(m)) {
        assert!(
            black_wins_after(m),
            "{} dropped but holds",
            pos.format_move(m)
        );
    }
    // Nothing to defend: the list is left alone.
    let quiet = wrap(&play(15, Rule::Freestyle, "h8 h9"));
    let mut moves = Vec::new();
    eval.candidates(&quiet, &mut moves);
    let listed = moves.clone();
    threat_defence(&mut quiet.clone(), 200, 2_000, &mut moves);
    assert_eq!(moves, listed);
}

/// The VCT's wins hold against every reply, not only its defence sets: positions from
/// quick engine games from the book where the solver (5,000 nodes) claims a win by
/// threats, each claimed first move answered by every empty square, after which the
/// solver (at four times the budget) must still find the win.
#[test]
fn vct_claims_survive_every_reply() {
    let book = include_str!("../../../../data/openings/gomoku15.txt");
    let openings = crate::test_support::book_lines(book);
    let mut agent = Position::engine(SearchOptions::default()).expect("engine");
    let mut checked = 0;
    for opening in openings.take(12) {
        let mut pos = play(15, Rule::Freestyle, opening);
        while pos.outcome().is_none() && pos.ply() < 50 && checked < 6 {
            let mut ep = wrap(&pos);
            let vcf_win = find_vcf(&mut ep, 5_000, true, None).is_some();
            if let Some(fw) = find_vct(&mut ep, 5_000, 2, None)
                && !vcf_win
                && fw.turns > 1
            {
                every_reply_still_loses(&pos, fw.mv.square(), 20_000);
                checked += 1;
                break;
            }
            let r = agent.think(&pos, &Limits::new().with_depth(2), &mut |_| {});
            pos.make_move(r.best_move.expect("a move"));
        }
    }
    assert!(checked >= 3, "only {checked} VCT claims met");
}

/// The threat mask names what each side can make next, from the side to move's point of
/// view: the evaluation's initiative term reads it.
#[test]
fn threat_mask_names_each_sides_next_threats() {
    let mask = |moves: &str| {
        let pos = wrap(&play(15, Rule::Freestyle, moves));
        threat_mask(pos.state(), pos.side_to_move())
    };
    // Lone stones: nothing for either side.
    assert_eq!(mask("h8 a1"), 0);
    // Black to move with two in a row: it can make an open three (White's a1 a3 on the
    // edge make only a closed three at a2).
    assert_eq!(mask("h8 a1 i8 a3"), 2);
    // The same two, White to move: the opponent can make an open three.
    assert_eq!(mask("h8 a1 i8"), 8);
    // Black's open three, White to move: the opponent can make a four and a winning threat
    // (an open four), and White nothing of the kind.
    let m = mask("h8 a1 i8 a3 j8");
    assert_eq!(m & (4 | 16), 4 | 16, "{m:#b}");
    assert_eq!(m & (1 | 2), 0, "{m:#b}");
    // Black's closed three, Black to move: it can make a four; White cannot.
    let m = mask("h8 g8 i8 a1 j8 a3");
    assert_eq!(m & (1 | 4), 1, "{m:#b}");
}

/// The quiet value is exactly the fitted model: the terms [`quiet_features`] counts from the
/// board, weighed with [`EVAL_WEIGHTS`], give the value the incremental sums keep (so the
/// tuner fits what the engine evaluates), on positions of random games near the stones.
#[test]
fn quiet_value_is_the_weighed_features() {
    let weights = EVAL_WEIGHTS.to_vec();
    assert_eq!(EvalWeights::from_slice(&weights), Some(EVAL_WEIGHTS));
    assert_eq!(EvalWeights::from_slice(&weights[1..]), None);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut quiet, mut forcing) = (0, 0);
    for (size, rule) in [(15, Rule::Freestyle), (15, Rule::Exact5)] {
        for _ in 0..6 {
            let mut pos = wrap(&play(size, rule, ""));
            let mut cands = Vec::new();
            while pos.outcome().is_none() && pos.ply() < 60 {
                let me = pos.side_to_move();
                match quiet_features(pos.state(), me) {
                    Some(f) => {
                        quiet += 1;
                        let weighed: i64 = f
                            .iter()
                            .zip(&weights)
                            .map(|(&f, &w)| f * i64::from(w))
                            .sum();
                        assert_eq!(weighed, i64::from(quiet_value(pos.state(), me)));
                        assert_eq!(static_value(pos.state(), me), quiet_value(pos.state(), me));
                    }
                    None => {
                        forcing += 1;
                        assert_ne!(static_value(pos.state(), me), quiet_value(pos.state(), me));
                    }
                }
                candidates(&pos, &mut cands, 12);
                let mv = cands[rng.random_range(0..cands.len())];
                pos.make_move(mv);
            }
        }
    }
    assert!(
        quiet > 100 && forcing > 10,
        "{quiet} quiet, {forcing} forcing"
    );
}

/// A records file of two games: Black wins the first (an open four), the second stops
/// before the end (as after an external engine's timeout).
const RECORDS: &str = "# game 1: engine (first) vs engine (second): five in a row\n\
boardlab-save 1\ngame gomoku\nh8\na1\ni8\na3\nj8\na5\nk8\na7\nl8\n\n\
# game 2: engine (first) vs pbrain (second): timeout\n\
boardlab-save 1\ngame gomoku\nh8\ni9\n";

#[test]
fn samples_are_the_quiet_positions_of_finished_games() {
    let mut s = tune::Samples::default();
    tune::add_samples(RECORDS, 0, &mut s).expect("records load");
    assert_eq!((s.games, s.unfinished), (1, 1));
    // Nine positions before the nine moves: h8 .. k8 are quiet until Black's open three
    // (before its 4th stone, k8, and the five), and White's turns after it are forced.
    assert_eq!(s.samples.len() + s.forcing, 9);
    assert!(s.forcing >= 2, "{s:?}");
    // The first position: Black to move on an empty board, and Black won.
    assert_eq!(s.samples[0].result, 1.0);
    assert_eq!(s.samples[1].result, 0.0);
    assert!(s.samples.iter().all(|x| x.features.len() == FEATURES));
    // Skipping the opening plies skips their samples.
    let mut later = tune::Samples::default();
    tune::add_samples(RECORDS, 4, &mut later).expect("records load");
    assert_eq!(later.samples.len() + later.forcing, 5);
    // A game with an illegal move is refused, naming the game.
    let bad = RECORDS.replace("a7\n", "h8\n");
    let err = tune::add_samples(&bad, 0, &mut tune::Samples::default()).expect_err("illegal");
    assert!(err.to_string().starts_with("records game 1:"), "{err}");
}

/// The fit learns from results: in games where the side with more open twos won, the
/// fitted weight of the side to move's open twos rises from its start.
#[test]
fn fit_follows_the_results() {
    let mut samples = Vec::new();
    for twos in -6i64..=6 {
        for other in -3i64..=3 {
            let mut features = vec![0; FEATURES];
            features[1] = twos; // the side to move's open twos
            features[4] = other; // its open threes, unrelated to the result here
            samples.push(eval::tune::Sample {
                features,
                result: if twos > 0 { 1.0 } else { 0.0 },
            });
        }
    }
    let (weights, fitted) = tune::fit_weights(&samples, &HAND_WEIGHTS).expect("fits");
    assert!(fitted.error_after < fitted.error_before, "{fitted:?}");
    assert!(
        weights.to_move.line[2] > HAND_WEIGHTS.to_move.line[2],
        "{weights:?}"
    );
}

/// The games the shipped weights were fitted to (`docs/strength.md`, session 11): 800
/// self-play games, then games against the sparring brains (Rapfi and PentaZen at 500 ms,
/// Rapfi at 100 ms).
const SHIPPED_RECORDS: [&str; 4] = [
    include_str!("../../data/gomoku-selfplay-n4000-s9.txt"),
    include_str!("../../data/gomoku-vs-rapfi-500ms-s1001.txt"),
    include_str!("../../data/gomoku-vs-pentazen-500ms-s1002.txt"),
    include_str!("../../data/gomoku-vs-rapfi-100ms-s1111.txt"),
];
/// The opening plies of those games, skipped (drawn at random in the self-play games,
/// from a book in the others).
const SHIPPED_SKIP: usize = 4;

/// The shipped weights are what the fit makes of the shipped games from the hand weights:
/// the weights are reproducible, and a change to the features or the fit shows here.
#[test]
fn shipped_weights_are_the_fit_of_the_shipped_games() {
    let mut s = tune::Samples::default();
    for records in SHIPPED_RECORDS {
        tune::add_samples(records, SHIPPED_SKIP, &mut s).expect("records load");
    }
    assert_eq!((s.games, s.unfinished), (1200, 0));
    let (weights, fitted) = tune::fit_weights(&s.samples, &HAND_WEIGHTS).expect("fits");
    assert_eq!(weights, EVAL_WEIGHTS, "{fitted:?}");
    assert!(fitted.error_after < fitted.error_before, "{fitted:?}");
}

/// A valued-positions line that does not read is an error naming the line, and nothing of
/// the file is added; a good file adds a sample per quiet valued position, with the win
/// probability of its value.
#[test]
fn valued_positions_load_all_or_nothing() {
    let config = GomokuConfig::new(15, Rule::Freestyle).expect("valid config");
    let good = "# a comment\n\nh8 i9 g9 i7\t2=0 4=175\n";
    let mut s = tune::Samples::default();
    tune::add_valued_samples(good, config, 175.0, &mut s).expect("loads");
    assert_eq!((s.games, s.samples.len(), s.forcing), (1, 2, 0));
    assert!((s.samples[0].result - 0.5).abs() < 1e-12);
    let e = 1.0 / (1.0 + (-1f64).exp());
    assert!((s.samples[1].result - e).abs() < 1e-12);
    for (bad, says) in [
        ("h8 i9 h8\t2=10", "line 4: move 3 (h8): h8 is occupied"),
        ("h8 i9\t3=10", "line 4: ply 3 is past the game's end"),
        ("h8 i9\t1=ten", "line 4: \"1=ten\" is not ply=value"),
        ("h8 i9 1=10", "line 4: expected moves, a tab"),
    ] {
        let mut out = tune::Samples::default();
        let text = format!("{good}{bad}\n");
        let err = tune::add_valued_samples(&text, config, 175.0, &mut out)
            .expect_err(bad)
            .to_string();
        assert!(err.contains(says), "{bad}: {err}");
        assert_eq!(
            (out.games, out.samples.len(), out.forcing),
            (0, 0, 0),
            "{bad}"
        );
    }
}

/// Fits the evaluation weights to recorded games, from the hand weights (or, with
/// `START=shipped`, from the shipped ones): `RECORDS=a.txt,b.txt SKIP=4 cargo test
/// --release -p boardlab-engines fit_eval_weights -- --ignored --nocapture`.
#[test]
#[ignore = "a tuning run over records files"]
fn fit_eval_weights() {
    crate::test_support::fit_from_env(
        HAND_WEIGHTS,
        EVAL_WEIGHTS,
        tune::add_samples,
        ("quiet positions", "forcing skipped"),
    );
}

/// Fits the evaluation weights to valued positions (`tune::add_valued_samples`, values on
/// Rapfi's scale; RECORDS=a.txt,... adds the results of recorded games, after their 4
/// first plies, to the same fit), from the shipped weights (or, with `START=hand`, the hand
/// ones):
/// `VALUED=a.txt,b.txt cargo test --release -p boardlab-engines --lib
/// fit_eval_weights_to_values -- --ignored --nocapture`.
#[test]
#[ignore = "a tuning run over valued positions"]
fn fit_eval_weights_to_values() {
    let files = std::env::var("VALUED").expect("VALUED=file,file,...");
    let start = match std::env::var("START").as_deref() {
        Ok("hand") => HAND_WEIGHTS,
        Ok("shipped") | Err(_) => EVAL_WEIGHTS,
        Ok(other) => panic!("START is hand or shipped, not {other}"),
    };
    let config = GomokuConfig::new(15, Rule::Freestyle).expect("valid config");
    let mut s = tune::Samples::default();
    for f in files.split(',') {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        tune::add_valued_samples(&text, config, tune::RAPFI_SCALE, &mut s)
            .unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    if let Ok(files) = std::env::var("RECORDS") {
        for f in files.split(',') {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
            tune::add_samples(&text, 4, &mut s).unwrap_or_else(|e| panic!("{f}: {e}"));
        }
    }
    println!(
        "{} games, {} quiet positions, {} forcing skipped",
        s.games,
        s.samples.len(),
        s.forcing
    );
    let t = std::time::Instant::now();
    let (weights, fitted) = tune::fit_weights(&s.samples, &start).expect("fits");
    println!(
        "scale {:e}, error {:.6} -> {:.6} in {:.1} s",
        fitted.scale,
        fitted.error_before,
        fitted.error_after,
        t.elapsed().as_secs_f64()
    );
    println!("{weights:?}");
}

/// The class-pair term indexes each unordered pair of two lines' classes (closed two to
/// four) once, by the two strongest lines of the cell, and leaves out cells on one line
/// and cells with an open four (a forcing threat, valued before the cells).
#[test]
fn class_pairs_index_each_pair_once() {
    use super::board::{PAIRS, pair_of};
    let mut seen = [false; PAIRS];
    for hi in 1..=6u8 {
        for lo in 1..=hi {
            let i = pair_of([0, lo, 0, hi]).expect("two lines");
            assert!(!seen[i], "pair ({hi}, {lo}) shares index {i}");
            seen[i] = true;
            assert_eq!(
                pair_of([hi, 0, lo, 1]),
                Some(i),
                "a weaker third line is ignored"
            );
        }
    }
    assert!(seen.iter().all(|&s| s));
    assert_eq!(pair_of([0, 0, 5, 0]), None);
    assert_eq!(pair_of([7, 5, 0, 0]), None);
}

/// Taking a stone back copies back what placing it changed only when it is the last stone
/// placed; stones taken back in any other order (and the position's own stones) are
/// recomputed. Either way the state is the one a fresh board with the same stones has.
#[test]
fn stones_taken_back_in_any_order_leave_the_state_of_the_same_stones() {
    use board_core::SquareSet as _;
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    for (size, rule) in [(15u32, Rule::Freestyle), (15, Rule::Exact5)] {
        let start = play(size, rule, "h8 i9 g9");
        let mut st = GomokuState::from_position(&start);
        // The stones on the board, in any order.
        let mut on: Vec<(Square, Player)> = Player::BOTH
            .into_iter()
            .flat_map(|p| start.stones(p).squares().map(move |s| (s, p)))
            .collect();
        let empty = GomokuState::from_position(&play(size, rule, ""));
        for step in 0..600 {
            // Mostly the last stone (as the searches do), sometimes any other.
            if on.len() > 3 && rng.random_bool(0.45) {
                let i = if rng.random_bool(0.7) {
                    on.len() - 1
                } else {
                    rng.random_range(0..on.len())
                };
                let (s, p) = on.remove(i);
                st.take(s, p);
            } else {
                // Near the centre, so that lines form.
                let (r, c) = (rng.random_range(4..11u16), rng.random_range(4..11u16));
                let s = Square::new(r * size as u16 + c);
                let p = if rng.random_bool(0.5) {
                    Player::First
                } else {
                    Player::Second
                };
                if st.put(s, p) {
                    on.push((s, p));
                }
            }
            let mut fresh = empty.clone();
            for &(s, p) in &on {
                fresh.put(s, p);
            }
            assert_eq!(st, fresh, "{rule:?}, step {step}");
        }
    }
}
