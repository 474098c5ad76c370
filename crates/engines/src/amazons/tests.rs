use std::time::Duration;

use board_core::{Direction, Notation as _, Position as _, Rules as _};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_amazons::AmazonsConfig;
use search::{Limits, ScoreKind};

use super::*;

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
    let v = engine_value(&pos);
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
            EngineEval.candidates(&wrap_engine(p), &mut c);
            assert!(c.iter().all(|m| p.validate(m).is_ok()));
            assert_eq!(c.is_empty(), moves.is_empty());
            assert!(c.len() <= ROOT_K);
            if let Some(&first) = moves.first() {
                let mut w = wrap_engine(p);
                w.make_move(first);
                if w.outcome().is_none() {
                    EngineEval.candidates(&w, &mut c);
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
                assert_eq!(engine_value(&scratch), engine_value_with(&scratch, &mut d));
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
        -engine_value(&p)
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
                EngineEval.candidates(&w, &mut c);
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
    root_candidates(&pos, &mut by_value);
    assert_eq!(by_value[0], trap);
    let mut shortlist = Vec::new();
    interior_candidates(&pos, RERANKED, &mut shortlist);
    assert!(!shortlist.contains(&trap));
    // As the reply one ply below our root (the search at ply 24), it is searched, first.
    let mut w = wrap_engine(&pos);
    w.state_mut().root = pos.ply() - 1;
    let mut c = Vec::new();
    EngineEval.candidates(&w, &mut c);
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
    assert_eq!(engine_value(&pos), -50);
    // The search plays it out the same way: White loses.
    let r = engine().think(&pos, &Limits::new().with_depth(4), &mut |_| {});
    assert_eq!(r.score.kind(), ScoreKind::Loss(2), "{:?}", r.score);
}
