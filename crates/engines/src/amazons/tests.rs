use std::time::Duration;

use board_core::{Direction, Notation as _, Position as _, Rules as _};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_amazons::AmazonsConfig;
use search::{Limits, ScoreKind};

use super::*;
use crate::tune::TunedWeights;

fn parse(size: u32, s: &str) -> Position {
    let config = AmazonsConfig::new(size).unwrap();
    Position::from_position_string(config, s).unwrap()
}

fn think(agent: &mut dyn Agent<Position>, pos: &Position, limits: &Limits) -> AmazonsMove {
    let r = agent.think(pos, limits, &mut |_| {});
    let mv = r.best_move.expect("a move");
    assert!(pos.validate(&mv).is_ok(), "illegal move {mv:?}");
    mv
}

fn engine() -> Box<dyn Agent<Position>> {
    Position::engine(SearchOptions::default()).unwrap()
}

/// White to move; Black's four queens share one liberty, j8.
const WIN_IN_1_10: &str = "x6xbb/7xbb/7xx1/x9/10/10/w8w/10/10/3w2w3 w 6";
/// Black (First on 8×8) to move; White's queens share one liberty, h6.
const WIN_IN_1_8: &str = "x4xww/5xww/5xx1/x7/8/b6b/8/2b2b2 b 6";

#[test]
fn wins_in_one() {
    for (size, s) in [(10, WIN_IN_1_10), (8, WIN_IN_1_8)] {
        let pos = parse(size, s);
        for limits in [
            Limits::new().with_depth(3),
            Limits::new().with_move_time(Duration::from_millis(100)),
        ] {
            let mut e = engine();
            let r = e.think(&pos, &limits, &mut |_| {});
            let mv = r.best_move.unwrap();
            let mut after = pos.clone();
            after.play(mv).unwrap();
            assert_eq!(
                after.outcome(),
                Some(board_core::Outcome::Win(pos.side_to_move())),
                "{s}: {}",
                pos.format_move(mv)
            );
            assert_eq!(r.score.kind(), ScoreKind::Win(1));
        }
    }
}

/// Whether the side to move at `pos` has a move that leaves the opponent without moves.
fn has_immediate_win(pos: &Position) -> bool {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut p = pos.clone();
    moves.iter().any(|&mv| {
        let undo = p.make_move(mv);
        let won = !p.has_legal_move(p.side_to_move());
        p.unmake_move(mv, undo);
        won
    })
}

#[test]
fn avoids_immediate_loss() {
    // White's queens a1 b1 a2 b2 have one liberty, a3: Black threatens to burn it.
    let pos = parse(10, "3b2b3/10/10/b8b/10/10/10/1xx7/wwx7/wwx7 w 4");
    let mut other = pos.clone();
    let mut moves = Vec::new();
    other.generate_moves(&mut moves);
    // The threat is real: after a useless White move Black wins at once.
    let useless = moves
        .iter()
        .copied()
        .find(|m| {
            let mut p = pos.clone();
            p.play(*m).unwrap();
            has_immediate_win(&p)
        })
        .unwrap();
    other.play(useless).unwrap();
    for limits in [
        Limits::new().with_depth(2),
        Limits::new().with_move_time(Duration::from_millis(100)),
    ] {
        let mv = think(engine().as_mut(), &pos, &limits);
        let mut after = pos.clone();
        after.play(mv).unwrap();
        assert!(!has_immediate_win(&after), "{}", pos.format_move(mv));
    }
}

#[test]
fn separated_endgame_prefers_more_squares() {
    // The players are walled apart (column e is all arrows): filling counts decide.
    let pos = parse(8, "b3x3/b3x3/b3x3/b3x3/4x3/4xw1w/4x3/4xw1w b 8");
    let v = engine_value(&pos, &EVAL_WEIGHTS);
    // Black (to move) has 4×8 − 4 = 28 empty squares, White 3×8 − 4 = 20.
    assert_eq!(v, 100 * (28 - 20) - 50);
}

#[test]
fn baseline_matches_the_article_formula() {
    // Hand count (Black to move): Black mobility a3 14 + h3 17 + c1 17 + f1 14 = 62,
    // White g8 0 + h8 0 + g7 1 + h7 3 = 4; centre distances Black 3+3+3+3 = 12,
    // White g8 3 + h8 3 + g7 2 + h7 3 = 11.
    let pos = parse(8, WIN_IN_1_8);
    assert_eq!(queen_mobility(&pos, pos.side_to_move()), 62);
    assert_eq!(queen_mobility(&pos, pos.side_to_move().other()), 4);
    let (mob, centre) = (62 - 4, 12 - 11);
    assert_eq!(baseline_value(&pos), 100 * mob - 6 * centre);
    for size in [8, 10] {
        let start = Position::new(AmazonsConfig::new(size).unwrap());
        assert_eq!(baseline_value(&start), 0);
    }
    assert_eq!(centre_distance(10, Square(0)), 4); // a1
    assert_eq!(centre_distance(10, Square(44)), 0); // e5
    assert_eq!(centre_distance(10, Square(9)), 4); // j1
    assert_eq!(centre_distance(8, Square(63)), 3); // h8
}

/// The article's formula with plain ray walks, for comparison.
fn naive_baseline(pos: &Position) -> i32 {
    let g = pos.geometry();
    let mob = |pl: Player| -> i32 {
        squares(pos.queens(pl))
            .map(|q| {
                Direction::ALL
                    .iter()
                    .map(|&d| {
                        g.ray(q, d)
                            .take_while(|&s| pos.piece_at(s).is_none())
                            .count() as i32
                    })
                    .sum::<i32>()
            })
            .sum()
    };
    let n = pos.size() as i32;
    let centre = |pl: Player| -> i32 {
        squares(pos.queens(pl))
            .map(|q| {
                let (c, r) = (g.col(q) as i32, g.row(q) as i32);
                let ax = |x: i32| (n / 2 - 1 - x).max(x - n / 2).max(0);
                ax(c).max(ax(r))
            })
            .sum()
    };
    let me = pos.side_to_move();
    100 * (mob(me) - mob(me.other())) - 6 * (centre(me) - centre(me.other()))
}

fn random_playout(size: u32, seed: u64, mut f: impl FnMut(&Position)) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::new(AmazonsConfig::new(size).unwrap());
    let mut moves = Vec::new();
    while pos.outcome().is_none() {
        f(&pos);
        pos.generate_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        pos.play(mv).unwrap();
    }
    f(&pos);
}

#[test]
fn baseline_equals_naive_along_playouts() {
    for (size, seed) in [(8, 1), (10, 2), (8, 3)] {
        random_playout(size, seed, |p| {
            assert_eq!(baseline_value(p), naive_baseline(p))
        });
    }
}

#[test]
fn candidates_are_legal_and_complete() {
    let start = Position::new(AmazonsConfig::default());
    let mut all = Vec::new();
    BaselineEval.candidates(&start, &mut all);
    assert_eq!(all.len(), 2176);
    for (size, seed) in [(10, 5), (8, 6)] {
        random_playout(size, seed, |p| {
            let mut moves = Vec::new();
            BaselineEval.candidates(p, &mut moves);
            assert_eq!(moves.len() as u64, p.count_moves());
            assert!(moves.iter().all(|m| p.validate(m).is_ok()));
            let mut c = Vec::new();
            EngineEval::default().candidates(&wrap_engine(p), &mut c);
            assert!(c.iter().all(|m| p.validate(m).is_ok()));
            assert_eq!(c.is_empty(), moves.is_empty());
            assert!(c.len() <= ROOT_K);
            if let Some(&first) = moves.first() {
                let mut w = wrap_engine(p);
                w.make_move(first);
                if w.outcome().is_none() {
                    EngineEval::default().candidates(&w, &mut c);
                    assert!(!c.is_empty() && c.len() <= K_BY_PLY[0]);
                    assert!(c.iter().all(|m| w.validate(m).is_ok()));
                }
            }
        });
    }
}

#[test]
fn eval_state_round_trips_and_matches_scratch() {
    random_playout(10, 9, |p| {
        let mut w = wrap_engine(p);
        let before = w.clone();
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        for &mv in moves.iter().step_by(97) {
            let undo = w.make_move(mv);
            assert_eq!(w.state().root, p.ply());
            let mut scratch = p.clone();
            scratch.play(mv).unwrap();
            assert_eq!(w.position(), &scratch);
            let mut d = AmazonsDistances::default();
            if scratch.outcome().is_none() {
                assert_eq!(
                    engine_value(&scratch, &EVAL_WEIGHTS),
                    engine_value_with(&scratch, &EVAL_WEIGHTS, &mut d)
                );
            }
            w.unmake_move(mv, undo);
            assert_eq!(w, before);
        }
    });
}

#[test]
fn engine_and_baseline_play_legal_moves() {
    for size in [8, 10] {
        let mut pos = Position::new(AmazonsConfig::new(size).unwrap());
        let mut e = engine();
        let mut b = Position::baseline().expect("the baseline builds");
        let limits = Limits::new().with_nodes(3000);
        for i in 0..6 {
            if pos.outcome().is_some() {
                break;
            }
            let mv = if i % 2 == 0 {
                think(e.as_mut(), &pos, &limits)
            } else if size == 8 {
                think(b.as_mut(), &pos, &limits)
            } else {
                think(e.as_mut(), &pos, &Limits::new().with_depth(1))
            };
            pos.play(mv).unwrap();
        }
    }
}

#[test]
fn bench_positions_parse() {
    for (spec, moves) in BENCH_POSITIONS {
        let config: AmazonsConfig = spec.parse().unwrap();
        let mut pos = Position::new(config);
        for m in moves.split_whitespace() {
            let mv = pos.parse_legal_move(m).unwrap();
            pos.play(mv).unwrap();
        }
    }
}

#[test]
fn best_first_is_a_sorted_prefix() {
    // Many ties in the first key: the second key makes the order total, as in the callers.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for len in [0usize, 1, 2, 5, 12, 40, 97] {
        let v: Vec<(i32, u32)> = (0..len)
            .map(|i| (rng.random_range(-3..4), i as u32))
            .collect();
        let cmp = |a: &(i32, u32), b: &(i32, u32)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        for k in [0usize, 1, 3, 12, 200] {
            let mut expected = v.clone();
            expected.sort_by(cmp);
            expected.truncate(k);
            let mut got = v.clone();
            best_first(&mut got, k, cmp);
            assert_eq!(got, expected, "len {len}, k {k}");
        }
    }
}

/// The static value of `mv` at `pos` as the re-ranking sees it (for the side to move).
fn value_after(pos: &Position, mv: AmazonsMove) -> i32 {
    let mut p = pos.clone();
    p.make_move(mv);
    if p.has_legal_move(p.side_to_move()) {
        -engine_value(&p, &EVAL_WEIGHTS)
    } else {
        i32::MAX
    }
}

#[test]
fn near_the_root_candidates_are_the_shortlists_best_by_evaluation() {
    for (size, seed) in [(8, 11), (10, 12)] {
        random_playout(size, seed, |p| {
            let mut root_moves = Vec::new();
            p.generate_moves(&mut root_moves);
            let Some(&first) = root_moves.first() else {
                return;
            };
            // Plies 1 and 2 below a root at `p` are re-ranked; ply 3 is not.
            let mut w = wrap_engine(p);
            let mut line = vec![first];
            for ply in 1..=3usize {
                let mv = *line.last().unwrap();
                w.make_move(mv);
                if w.outcome().is_some() {
                    return;
                }
                let node = w.position().clone();
                let k = K_BY_PLY[ply - 1];
                let mut c = Vec::new();
                EngineEval::default().candidates(&w, &mut c);
                let mut shortlist = Vec::new();
                let mut legal = Vec::new();
                node.generate_moves(&mut legal);
                if ply == 1 && legal.len() <= FULL_RANK_MAX_MOVES {
                    // Every reply ranked by static value: the best k of all legal moves.
                    assert_eq!(c.len(), k.min(legal.len()));
                    let values: Vec<i32> = c.iter().map(|&m| value_after(&node, m)).collect();
                    assert!(values.windows(2).all(|v| v[0] >= v[1]), "{values:?}");
                    let last = *values.last().unwrap();
                    for m in legal.iter().filter(|m| !c.contains(m)) {
                        assert!(value_after(&node, *m) <= last);
                    }
                } else if ply <= RERANK_PLIES {
                    interior_candidates(&node, RERANKED, &mut shortlist);
                    add_trapping_moves(&node, &mut shortlist);
                    assert_eq!(c.len(), k.min(shortlist.len()));
                    let values: Vec<i32> = c.iter().map(|&m| value_after(&node, m)).collect();
                    assert!(values.windows(2).all(|v| v[0] >= v[1]), "{values:?}");
                    // Nothing left out of the shortlist beats the last one kept.
                    let last = *values.last().unwrap();
                    for m in shortlist.iter().filter(|m| !c.contains(m)) {
                        assert!(value_after(&node, *m) <= last);
                    }
                } else {
                    interior_candidates(&node, k, &mut shortlist);
                    assert_eq!(c, shortlist);
                }
                line.push(c[0]);
            }
        });
    }
}

/// A game our engine (Black) lost to a Botzone bot: after its `d2-c1/d2` (ply 24, depth 8,
/// +76) the bot's reply `h3-f1/d1` shut the c1 queen in (the engine read -350 a move
/// later, and the separated ending was lost by three squares).
const TRAPPED_AT_C1: &str = "a6-b7/a8 a3-d3/a3 c8-c5/f5 d3-d6/b6 c5-c4/g4 c1-c2/e4 h6-d2/f4 \
    h3-h6/g7 f8-f6/e7 f1-f2/e2 f6-g6/h7 d6-d7/c7 c4-b3/e6 d7-e8/f7 b7-c6/c3 e8-c8/d7 \
    c6-b7/b8 c2-d3/a6 b7-d5/b7 h6-g5/h5 d2-e1/h1 f2-d4/f2 e1-d2/c2 d3-h3/d3 d2-c1/d2";

#[test]
fn the_reply_that_traps_a_queen_is_searched() {
    let config = AmazonsConfig::new(8).unwrap();
    let mut pos = Position::new(config);
    for m in TRAPPED_AT_C1.split_whitespace() {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv).unwrap();
    }
    let trap = pos.parse_move("h3-f1/d1").unwrap();
    // The move with the best static value, which the queen-move shortlist alone misses.
    let mut by_value = Vec::new();
    root_candidates(&pos, &EVAL_WEIGHTS, &mut by_value);
    assert_eq!(by_value[0], trap);
    let mut shortlist = Vec::new();
    interior_candidates(&pos, RERANKED, &mut shortlist);
    assert!(!shortlist.contains(&trap));
    // As the reply one ply below our root (the search at ply 24), it is searched, first.
    let mut w = wrap_engine(&pos);
    w.state_mut().root = pos.ply() - 1;
    let mut c = Vec::new();
    EngineEval::default().candidates(&w, &mut c);
    assert_eq!(c.first(), Some(&trap));
}

// ---- separated regions: exact move counts --------------------------------------------------

/// The moves of the longest sequence by plain exhaustive search over every move, with a
/// table of positions seen and nothing else: no regions, no order, no budget (the
/// reference for [`filling::Filler`]).
fn naive_fill(pos: &Position, empty: u128, queens: u128) -> u32 {
    fn go(pos: &Position, empty: u128, queens: u128, seen: &mut HashMap<(u128, u128), u32>) -> u32 {
        if let Some(&v) = seen.get(&(empty, queens)) {
            return v;
        }
        let board = pos.board_squares().0;
        let mut best = 0;
        for from in engine::squares(Bitboard128(queens)) {
            let dests = pos.queen_reach_in(from, Bitboard128(board & !empty)).0 & empty;
            for to in engine::squares(Bitboard128(dests)) {
                let vacated = (empty | engine::bit(from)) & !engine::bit(to);
                let arrows = pos.queen_reach_in(to, Bitboard128(board & !vacated)).0 & vacated;
                for arrow in engine::squares(Bitboard128(arrows)) {
                    let after = vacated & !engine::bit(arrow);
                    let q = (queens & !engine::bit(from)) | engine::bit(to);
                    best = best.max(1 + go(pos, after, q, seen));
                }
            }
        }
        seen.insert((empty, queens), best);
        best
    }
    go(pos, empty, queens, &mut HashMap::new())
}

fn squares_of(pos: &Position, list: &str) -> u128 {
    list.split_whitespace()
        .map(|s| engine::bit(pos.geometry().parse_square(s).unwrap()))
        .fold(0, |a, b| a | b)
}

#[test]
fn a_defective_region_counts_its_moves_not_its_squares() {
    let pos = Position::new(AmazonsConfig::new(8).unwrap());
    let mut filler = filling::Filler::default();
    // A queen on b2 whose only empty neighbours are a1 and c1: a step to either forces the
    // arrow back onto b2 and walls the other off. Two squares, one move.
    let (empty, queen) = (squares_of(&pos, "a1 c1"), squares_of(&pos, "b2"));
    assert_eq!(naive_fill(&pos, empty, queen), 1);
    assert_eq!(filler.moves(&pos, empty, queen), 1);
    // A 2×4 block with the queen in its corner fills completely.
    let (empty, queen) = (
        squares_of(&pos, "b1 c1 d1 a2 b2 c2 d2"),
        squares_of(&pos, "a1"),
    );
    assert_eq!(filler.moves(&pos, empty, queen), 7);
    // Two regions, one per queen, add up: 1 + 7.
    let empty = squares_of(&pos, "a1 c1 e8 f8 g8 h8 f7 g7 h7");
    let queens = squares_of(&pos, "b2 e7");
    assert_eq!(
        naive_fill(
            &pos,
            squares_of(&pos, "e8 f8 g8 h8 f7 g7 h7"),
            squares_of(&pos, "e7")
        ),
        7
    );
    assert_eq!(filler.moves(&pos, empty, queens), 8);
}

#[test]
fn region_counts_match_exhaustive_search_on_small_regions() {
    let pos = Position::new(AmazonsConfig::new(8).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    let corner: Vec<u128> = (0..4)
        .flat_map(|r| (0..4).map(move |c| 1u128 << (r * 8 + c)))
        .collect();
    let mut defective = 0;
    for _ in 0..300 {
        // A random 4×4 corner: each square empty, blocked or (at most two) a queen.
        let (mut empty, mut queens) = (0u128, 0u128);
        for &b in &corner {
            match rng.random_range(0..10) {
                0..=5 => empty |= b,
                6 if queens.count_ones() < 2 => queens |= b,
                _ => {}
            }
        }
        if queens == 0 || empty.count_ones() > 9 {
            continue;
        }
        let exact = naive_fill(&pos, empty, queens);
        let mut filler = filling::Filler::default();
        assert_eq!(
            filler.moves(&pos, empty, queens),
            exact,
            "empty {empty:#x} queens {queens:#x}"
        );
        // Squares the queens touch bound the count; a shortfall is a defect.
        let touched = (0..64).filter(|&i| empty & (1u128 << i) != 0).count() as u32;
        defective += u32::from(exact < touched);
    }
    // The sample must contain defects for the comparison to mean anything.
    assert!(defective > 10, "{defective} defective regions");
}

#[test]
fn a_defect_decides_a_separated_race() {
    // Separated (every other square an arrow or a walled-in queen): White, to move, has
    // a1 and c1 around its queen on b2; Black has g8 next to its queen on h8. Squares say
    // White 2 against 1, a won race; moves say 1 against 1: White moves first, runs out
    // first and loses.
    let pos = parse(
        8,
        "xxxxxx1b/xxxxxxxx/bbbxxwww/xxxxxxxx/xxxxxxxx/xxxxxxxx/xwxxxxxx/1x1xxxxx w 53",
    );
    assert_eq!(separated_moves(&pos, pos.side_to_move()), (1, 1));
    assert_eq!(engine_value(&pos, &EVAL_WEIGHTS), -50);
    // The search plays it out the same way: White loses.
    let r = engine().think(&pos, &Limits::new().with_depth(4), &mut |_| {});
    assert_eq!(r.score.kind(), ScoreKind::Loss(2), "{:?}", r.score);
}

// ---- the weights and their fit --------------------------------------------------------------

/// The static value is the fitted model: the terms [`quiet_features`] gives, weighed with
/// the weights, are the static value (in thousandths of a centipawn, up to the rounding of
/// the features to hundredths) on every position of random games before the players are
/// separated; a separated position, which the filling count values, has no features (so
/// the tuner fits what the engine evaluates).
#[test]
fn static_value_is_the_weighed_features() {
    for w in [EVAL_WEIGHTS, FITTED_WEIGHTS, HAND_WEIGHTS] {
        assert_eq!(EvalWeights::from_slice(&w.to_vec()), Some(w));
    }
    assert_eq!(EvalWeights::from_slice(&EVAL_WEIGHTS.to_vec()[1..]), None);
    // Weights unlike the shipped ones, so that each term is checked on its own.
    let odd = EvalWeights {
        opening: [130, -70, 410, 20],
        ending: [-250, 660, 90, -330],
        mobility: [-45, 170],
    };
    let (mut weighed, mut separated) = (0, 0);
    for (size, seed) in [(8, 11), (8, 12), (10, 13), (8, 14)] {
        random_playout(size, seed, |p| {
            if p.outcome().is_some() {
                return;
            }
            let features = quiet_features(p);
            for weights in [EVAL_WEIGHTS, FITTED_WEIGHTS, HAND_WEIGHTS, odd] {
                let value = engine_value(p, &weights);
                let Some(f) = &features else {
                    // The filling count: 100 cp a move, minus 50 for the side to move.
                    assert_eq!(value.rem_euclid(100), 50, "{}", p.to_position_string());
                    continue;
                };
                assert_eq!(f.len(), FEATURES);
                let w = weights.to_vec();
                let sum: i64 = f.iter().zip(&w).map(|(&f, &w)| f * i64::from(w)).sum();
                // Each feature is within half a hundredth, the value rounded to a cp.
                let slack: f64 = w.iter().map(|w| f64::from(w.abs()) / 2.0).sum::<f64>() + 500.0;
                assert!(
                    (sum as f64 - 1000.0 * f64::from(value)).abs() <= slack,
                    "{}: {sum} against {value} cp",
                    p.to_position_string()
                );
            }
            match features {
                Some(_) => weighed += 1,
                None => separated += 1,
            }
        });
    }
    assert!(
        weighed > 100 && separated > 10,
        "{weighed} weighed, {separated} separated"
    );
}

/// Other weights make another engine: the static value follows the weights given, and the
/// weights change the moves the search ranks first.
#[test]
fn the_evaluator_uses_its_weights() {
    let pos = Position::new(AmazonsConfig::SMALL);
    let mobility_only = EvalWeights {
        opening: [0; 4],
        ending: [0; 4],
        mobility: [120, 36],
    };
    let territory_only = EvalWeights {
        mobility: [0, 0],
        ..HAND_WEIGHTS
    };
    let f = quiet_features(&pos).expect("the start is open");
    // At the start the phase is 1: only the opening weights count.
    assert!(f[4..8].iter().all(|&x| x == 0) && f[9] == 0, "{f:?}");
    let a = engine_value(&pos, &mobility_only);
    let b = engine_value(&pos, &territory_only);
    assert!((engine_value(&pos, &HAND_WEIGHTS) - (a + b)).abs() <= 1);
    let mut moves_a = Vec::new();
    let mut moves_b = Vec::new();
    let w = wrap_engine(&pos);
    EngineEval {
        weights: mobility_only,
    }
    .candidates(&w, &mut moves_a);
    EngineEval {
        weights: territory_only,
    }
    .candidates(&w, &mut moves_b);
    assert_eq!(moves_a.len(), ROOT_K);
    assert_ne!(moves_a, moves_b);
}

/// An 8×8 self-play game of the engine (2 random plies, then 4,000 nodes a move), won by
/// Black when White had no legal move after the 52nd ply.
const GAME: &str = "f8-e7/e1 c1-d1/a1 a6-d3/f5 a3-d6/c6 d3-c4/c2 h3-b3/b7 h6-h2/e2 d6-f6/f8 \
    c8-d8/d2 f1-g2/g4 e7-g7/g5 b3-b6/e3 c4-b5/b1 f6-f7/d7 b5-c4/e6 b6-b5/b3 h2-g3/f3 \
    d1-c1/a3 c4-d4/b2 b5-b6/c5 d4-c4/d5 b6-c7/f4 c4-b4/b6 c7-b8/c8 b4-d4/e5 b8-a8/a4 \
    d4-c4/a6 g2-h2/g2 d8-c7/b8 f7-f6/d8 g3-h4/h3 h2-g3/f2 h4-h5/g6 f6-f7/f6 h5-h7/h4 \
    f7-e7/f7 c7-d6/c7 e7-e8/e7 c4-b4/c3 g3-h2/g3 b4-d4/d3 h2-h1/f1 h7-h6/h8 h1-h2/h1 \
    d4-c4/b5 c1-d1/c1 c4-d4/b4 a8-a7/a8 h6-h7/h6 h2-g1/h2 d4-c4/e4";

/// A records file of that game, then the first 6 plies of it alone (as after an external
/// engine's timeout).
fn records(moves: &str) -> String {
    let save = |moves: &[&str]| {
        format!(
            "boardlab-save 1\ngame amazons:size=8\n{}\n",
            moves.join("\n")
        )
    };
    let all: Vec<&str> = moves.split_whitespace().collect();
    format!(
        "# game 1: engine (first) vs engine (second): White has no legal move\n{}\n\
         # game 2: engine (first) vs ugi (second): timeout\n{}",
        save(&all),
        save(&all[..6])
    )
}

#[test]
fn samples_are_the_open_positions_of_finished_games() {
    let text = records(GAME);
    let plies = GAME.split_whitespace().count();
    let mut s = tune::Samples::default();
    tune::add_samples(&text, 0, &mut s).expect("records load");
    assert_eq!((s.games, s.unfinished), (1, 1));
    // One position before each move: the open ones are samples, the separated ones not.
    assert_eq!(s.samples.len() + s.forcing, plies);
    // The game's end is separated.
    assert!(s.forcing > 0 && s.samples.len() > 30, "{s:?}");
    // Black (First on 8×8) to move at the start, and Black won; then White, who lost.
    assert_eq!(s.samples[0].result, 1.0);
    assert_eq!(s.samples[1].result, 0.0);
    // The samples are the features of the replayed positions.
    let mut pos = Position::new(AmazonsConfig::SMALL);
    for (i, text) in GAME.split_whitespace().take(5).enumerate() {
        assert_eq!(Some(s.samples[i].features.clone()), quiet_features(&pos));
        pos.play(pos.parse_move(text).unwrap()).unwrap();
    }
    // Skipping the opening plies skips their samples.
    let mut later = tune::Samples::default();
    tune::add_samples(&text, 2, &mut later).expect("records load");
    assert_eq!(later.samples.len() + later.forcing, plies - 2);
    assert_eq!(later.samples[..], s.samples[2..later.samples.len() + 2]);
    // A game with an illegal move is refused, naming the game.
    let bad = records(&GAME.replacen("c1-d1/a1", "c1-c8/a1", 1));
    let err = tune::add_samples(&bad, 0, &mut tune::Samples::default()).expect_err("illegal");
    assert!(err.to_string().starts_with("records game 1:"), "{err}");
}

/// The fit learns from results: in games where the side to move had more queen territory in
/// the ending won, the fitted ending weight of `t1` rises from its start, and a term unrelated
/// to the results does not take its place.
#[test]
fn fit_follows_the_results() {
    let mut samples = Vec::new();
    for t1 in -8i64..=8 {
        for other in -3i64..=3 {
            let mut features = vec![0; FEATURES];
            features[4] = 100 * t1; // the ending's t1, in hundredths
            features[9] = 100 * other; // the ending's mobility, unrelated here
            samples.push(eval::tune::Sample {
                features,
                result: if t1 > 0 { 1.0 } else { 0.0 },
            });
        }
    }
    let (weights, fitted) = tune::fit_weights(&samples, &HAND_WEIGHTS).expect("fits");
    assert!(fitted.error_after < fitted.error_before, "{fitted:?}");
    assert!(weights.ending[0] > HAND_WEIGHTS.ending[0], "{weights:?}");
    assert!(
        weights.mobility[1].abs() < weights.ending[0] / 4,
        "{weights:?}"
    );
}

/// The games the shipped weights were fitted to (`docs/strength.md`, amazons, session 12):
/// self-play of the previous build, and games of our earlier builds against the Botzone bots
/// rizzo-opp and rizzo-mcts.
const SHIPPED_RECORDS: [&str; 3] = [
    include_str!("../../data/amazons8-selfplay-n4000-s12.txt"),
    include_str!("../../data/amazons8-vs-rizzo-1s-s11.txt"),
    include_str!("../../data/amazons8-vs-rizzo-opp-500ms-s1121.txt"),
];
/// The opening plies of those games (2 random plies, or a book line of 2 or 3), skipped.
const SHIPPED_SKIP: usize = 3;

/// The shipped weights are what the fit makes of the shipped games from the hand weights:
/// the weights are reproducible, and a change to the features or the fit shows here.
#[test]
fn shipped_weights_are_the_fit_of_the_shipped_games() {
    let mut s = tune::Samples::default();
    for records in SHIPPED_RECORDS {
        tune::add_samples(records, SHIPPED_SKIP, &mut s).expect("records load");
    }
    assert_eq!((s.games, s.unfinished), (996, 0));
    let (weights, fitted) = tune::fit_weights(&s.samples, &HAND_WEIGHTS).expect("fits");
    assert_eq!(weights, FITTED_WEIGHTS, "{fitted:?}");
    assert!(fitted.error_after < fitted.error_before, "{fitted:?}");
    // The engine's weights are the fit's, halved.
    for (half, whole) in EVAL_WEIGHTS
        .to_vec()
        .into_iter()
        .zip(FITTED_WEIGHTS.to_vec())
    {
        assert!((2 * half - whole).abs() <= 1, "{EVAL_WEIGHTS:?}");
    }
}

/// Fits the evaluation weights to recorded games, from the hand weights (or, with
/// `START=shipped`, from the shipped ones): `RECORDS=a.txt,b.txt SKIP=2 cargo test
/// --release -p boardlab-engines --lib fit_amazons_weights -- --ignored --nocapture`
/// (`SKIP` plies of each game are its opening, not samples).
#[test]
#[ignore = "a tuning run over records files"]
fn fit_amazons_weights() {
    crate::test_support::fit_from_env(
        HAND_WEIGHTS,
        EVAL_WEIGHTS,
        tune::add_samples,
        ("open positions", "separated skipped"),
    );
}
