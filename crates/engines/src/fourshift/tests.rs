use board_core::{Notation as _, Player, Position as _, Rules as _};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_fourshift::{Fourshift, FourshiftConfig};
use search::{Limits, Score, ScoreKind};

use super::*;
use crate::test_support::{mv, think};

fn engine() -> Box<dyn Agent<Fourshift>> {
    crate::test_support::engine()
}

fn pos(s: &str) -> Fourshift {
    Fourshift::from_position_string(FourshiftConfig::default(), s).expect("valid position")
}

#[test]
fn wins_in_one_while_placing() {
    let p = pos("OO3O/6/6/6/6/XXX3 x 5 5 6");
    let r = think(engine().as_mut(), &p, 4);
    assert_eq!(r.best_move, Some(mv(&p, "d1")));
    assert_eq!(r.score, Score::win_in(1));
    let r = think(
        Fourshift::baseline().expect("the baseline builds").as_mut(),
        &p,
        1,
    );
    assert_eq!(r.best_move, Some(mv(&p, "d1")));
}

#[test]
fn blocks_while_placing() {
    let p = pos("OO4/6/6/6/6/XXX3 o 5 6 5");
    let r = think(engine().as_mut(), &p, 5);
    assert_eq!(r.best_move, Some(mv(&p, "d1")));
}

#[test]
fn builds_a_double_threat() {
    let p = pos("O4O/6/6/6/1XX3/6 x 6 6 4");
    let r = think(engine().as_mut(), &p, 5);
    assert_eq!(r.score, Score::win_in(3), "{r:?}");
    let mut q = p.clone();
    q.play(r.best_move.expect("a move")).expect("legal");
    // Whatever White does, Black wins next move.
    let mut replies = Vec::new();
    q.generate_moves(&mut replies);
    for reply in replies {
        let mut t = q.clone();
        t.play(reply).expect("legal");
        let r = think(engine().as_mut(), &t, 2);
        assert_eq!(r.score, Score::win_in(1));
    }
}

#[test]
fn wins_and_blocks_by_shifting() {
    let p = pos("OO1O1O/4X1/1OX3/X2OOX/5O/XXX1X1 x 0 0 20");
    let r = think(engine().as_mut(), &p, 4);
    assert_eq!(r.best_move, Some(mv(&p, "e1-d1")));
    assert_eq!(r.score, Score::win_in(1));
    let p = pos("OO1O1O/4X1/1OX3/X3OX/3O1O/XXX1X1 o 0 0 21");
    let r = think(engine().as_mut(), &p, 5);
    assert_eq!(r.best_move, Some(mv(&p, "d2-d1")));
    let r = think(
        Fourshift::baseline().expect("the baseline builds").as_mut(),
        &p,
        4,
    );
    assert_eq!(r.best_move, Some(mv(&p, "d2-d1")));
}

#[test]
fn baseline_eval_matches_the_formula() {
    // After c3: c3 lies in 11 windows (5 each) and is a centre square (+3); White to move.
    let mut p = Fourshift::new(FourshiftConfig::default());
    p.play(mv(&p, "c3")).expect("legal");
    let b = BaselinePosition::new(p.clone());
    assert_eq!(BaselineEval.evaluate(&b), -(11 * 5 + 3));
    assert_eq!(baseline_eval_scratch(&p), -(11 * 5 + 3));
    // Black a1 b1 c1: row windows 500 + 50 + 5, three columns and three rising diagonals
    // with one piece each (6 × 5) = 585. White a6 b6 f6: row windows 50 + 5 + 5, three
    // columns (15), falling diagonals from a6 and b6 and the rising c3-f6 (15) = 90.
    let p = pos("OO3O/6/6/6/6/XXX3 x 5 5 6");
    let b = BaselinePosition::new(p.clone());
    assert_eq!(BaselineEval.evaluate(&b), 585 - 90);
    assert_eq!(baseline_eval_scratch(&p), 585 - 90);
    // Centre squares on 6x6 are c3 d3 c4 d4; on 5x5 only c3.
    let g = p.geometry();
    let centre: Vec<String> = g
        .squares()
        .filter(|&s| is_centre(g, s))
        .map(|s| g.format_square(s))
        .collect();
    assert_eq!(centre, ["c3", "d3", "c4", "d4"]);
    let g5 = board_core::Geometry::square(5).expect("5x5");
    assert_eq!(g5.squares().filter(|&s| is_centre(g5, s)).count(), 1);
    assert_eq!(baseline_weights(4), WindowWeights::fourshift());
}

fn random_walk(config: FourshiftConfig, seed: u64, check_agent: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = EnginePosition::new(Fourshift::new(config));
    let mut b = BaselinePosition::new(Fourshift::new(config));
    let mut agent = engine();
    let mut moves = Vec::new();
    let mut undos = Vec::new();
    while p.outcome().is_none() && undos.len() < 70 {
        if check_agent && undos.len() % 7 == 3 {
            let r = agent.think(p.position(), &Limits::new().with_nodes(2_000), &mut |_| {});
            let m = r.best_move.expect("a move in an unfinished game");
            assert!(p.validate(&m).is_ok());
        }
        p.generate_moves(&mut moves);
        let m = moves[rng.random_range(0..moves.len())];
        let u = p.make_move(m);
        let ub = b.make_move(m);
        assert_eq!(p.state(), &EngineState::from_position(p.position()));
        assert_eq!(b.state(), &BaselineState::from_position(b.position()));
        assert_eq!(
            BaselineEval.evaluate(&b) as i64,
            baseline_eval_scratch(b.position())
        );
        undos.push((m, u, ub));
    }
    while let Some((m, u, ub)) = undos.pop() {
        p.unmake_move(m, u);
        b.unmake_move(m, ub);
        assert_eq!(p.state(), &EngineState::from_position(p.position()));
        assert_eq!(b.state(), &BaselineState::from_position(b.position()));
    }
    assert_eq!(
        p.state(),
        &EngineState::from_position(&Fourshift::new(config))
    );
}

#[test]
fn incremental_state_matches_scratch() {
    for seed in 0..30 {
        random_walk(FourshiftConfig::default(), seed, seed < 6);
    }
    let other: FourshiftConfig = "fourshift:size=7,k=5,pieces=10".parse().expect("config");
    for seed in 0..5 {
        random_walk(other, seed, true);
    }
}

#[test]
fn engine_threat_squares() {
    let p = EnginePosition::new(pos("OO3O/6/6/6/6/XXX3 x 5 5 6"));
    let st = p.state();
    assert_eq!(st.near_windows(Player::First), 1);
    assert_eq!(st.near_windows(Player::Second), 0);
    assert!(EngineEval.evaluate(&p) >= WIN_NEXT - 5_000);
    let mut c = Vec::new();
    EngineEval.candidates(&p, &mut c);
    assert_eq!(c.len(), 1);
    assert!(matches!(
        Score::cp(EngineEval.evaluate(&p)).kind(),
        ScoreKind::Value(_)
    ));
}

#[test]
fn vcf_finds_threat_sequences() {
    let mut p = EnginePosition::new(pos("O4O/6/6/6/1XX3/6 x 6 6 4"));
    let fw = EngineEval.forced_win(&mut p, 4).expect("a forced win");
    assert_eq!(fw.turns, 3);
    // After a quiet Black move White has no forced win.
    let p = EnginePosition::new(pos("O4O/6/6/6/1XX3/6 x 6 6 4"));
    let mut q = p.clone();
    q.make_move(mv(p.position(), "f1"));
    assert!(EngineEval.forced_win(&mut q, 4).is_none());
}

#[test]
#[ignore]
fn debug_games() {
    use std::time::Duration;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut score = 0.0;
    for g in 0..10 {
        let mut p = Fourshift::new(FourshiftConfig::default());
        let mut moves = Vec::new();
        for _ in 0..2 {
            p.generate_moves(&mut moves);
            let m = moves[rng.random_range(0..moves.len())];
            p.play(m).expect("legal");
        }
        let engine_first = g % 2 == 0;
        let mut e = engine();
        let mut b = Fourshift::baseline().expect("the baseline builds");
        let mut line = String::new();
        let mut hashes = vec![];
        while p.outcome().is_none() {
            let eng = (p.side_to_move() == Player::First) == engine_first;
            let lim = Limits::new()
                .with_soft_time(Duration::from_millis(60))
                .with_hard_time(Duration::from_millis(95));
            hashes.push(p.hash());
            let r = if eng {
                e.set_game_history(&hashes);
                e.think(&p, &lim, &mut |_| {})
            } else {
                b.think(&p, &lim, &mut |_| {})
            };
            let m = r.best_move.expect("move");
            line += &format!(
                "{}{}({} d{}) ",
                if eng { "E:" } else { "B:" },
                p.format_move(m),
                r.score,
                r.depth
            );
            p.play(m).expect("legal");
        }
        let o = p.outcome().expect("over");
        let s = match o.winner() {
            None => 0.5,
            Some(w) => f64::from(u8::from((w == Player::First) == engine_first)),
        };
        score += s;
        eprintln!(
            "game {g} engine_first={engine_first} result {s}: {line}\n  {}",
            p.to_position_string()
        );
    }
    eprintln!("score {score}");
}

#[test]
#[ignore]
fn debug_arena_first() {
    use std::time::Duration;
    for pair in 0..25u64 {
        let pair_seed = 1u64.wrapping_add(pair).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut rng = ChaCha8Rng::seed_from_u64(pair_seed);
        let mut p = Fourshift::new(FourshiftConfig::default());
        let mut moves = Vec::new();
        let mut line = String::new();
        for _ in 0..2 {
            p.generate_moves(&mut moves);
            let m = moves[rng.random_range(0..moves.len())];
            line += &format!("{} ", p.format_move(m));
            p.play(m).expect("legal");
        }
        let mut e =
            Fourshift::engine(SearchOptions::default().with_seed(pair_seed)).expect("engine");
        let mut b = Fourshift::baseline().expect("the baseline builds");
        let mut hashes = vec![];
        while p.outcome().is_none() {
            let eng = p.side_to_move() == Player::First;
            let lim = Limits::new()
                .with_soft_time(Duration::from_millis(60))
                .with_hard_time(Duration::from_millis(95));
            hashes.push(p.hash());
            let r = if eng {
                e.set_game_history(&hashes);
                e.think(&p, &lim, &mut |_| {})
            } else {
                b.think(&p, &lim, &mut |_| {})
            };
            let m = r.best_move.expect("move");
            line += &format!(
                "{}{}({} d{}) ",
                if eng { "E:" } else { "B:" },
                p.format_move(m),
                r.score,
                r.depth
            );
            p.play(m).expect("legal");
        }
        if p.outcome().and_then(|o| o.winner()) != Some(Player::First) {
            eprintln!("pair {pair}: {line}\n  {}", p.to_position_string());
        }
    }
}

// ---- balance variants ---------------------------------------------------------------------

fn variant(spec: &str, s: &str) -> Fourshift {
    let config: FourshiftConfig = spec.parse().expect("config");
    Fourshift::from_position_string(config, s).expect("valid position")
}

/// White to place its last piece (ply 15): a1 makes a1-c1 and d2-d1 completes it. Black
/// threatens f1-f2 (f2 e3 d4 c5).
const DOUBLE_MOVE_WIN: &str = "O4O/X1X1X1/1O1XO1/X1X1X1/3O2/1OO2X o 0 1 15";

#[test]
fn white_wins_with_its_double_move_under_moving_first_second() {
    let p = variant("fourshift:moving_first=second", DOUBLE_MOVE_WIN);
    let r = think(engine().as_mut(), &p, 4);
    // Both of White's turns count: a win two turns from now.
    assert_eq!(r.score, Score::win_in(2), "{r:?}");
    let mut q = p.clone();
    q.play(r.best_move.expect("a move")).expect("legal");
    assert_eq!(q.side_to_move(), Player::Second);
    let r2 = think(engine().as_mut(), &q, 2);
    assert_eq!(r2.score, Score::win_in(1));
    q.play(r2.best_move.expect("a move")).expect("legal");
    assert_eq!(q.outcome(), Some(board_core::Outcome::Win(Player::Second)));
    // Under plain alternation Black would win with f1-f2 next: White must block f2.
    let p = variant("fourshift", DOUBLE_MOVE_WIN);
    let r = think(engine().as_mut(), &p, 4);
    assert_eq!(r.best_move, Some(mv(&p, "f2")), "{r:?}");
    assert!(!matches!(r.score.kind(), ScoreKind::Win(_)), "{r:?}");
}

/// Around the phase switch under `moving_first=second` the full engine search (table,
/// aspiration, PVS, threat search) returns plain minimax's value at every depth, from
/// Black's last placement, White's last placement and White's first shift.
#[test]
fn search_agrees_with_minimax_around_the_double_move() {
    use search::{SearchOptions, Searcher, reference::minimax};
    let spec = "fourshift:moving_first=second";
    let mut positions = vec![
        variant(spec, "1OX2X/1OO2O/4X1/4X1/O2X1X/1XOO2 x 1 1 14"),
        variant(spec, DOUBLE_MOVE_WIN),
    ];
    let mut q = positions[0].clone();
    q.play(mv(&q, "a1")).expect("legal");
    positions.push(q.clone());
    q.play(mv(&q, "a6")).expect("legal");
    assert_eq!((q.ply(), q.side_to_move()), (16, Player::Second));
    positions.push(q);
    for p in &positions {
        let ip = wrap_engine(p);
        for depth in 1..=3 {
            let expected = minimax(&EngineEval, &ip, depth, true);
            for opts in [SearchOptions::default(), SearchOptions::plain_alpha_beta()] {
                let opts = opts.with_hash_mb(1).expect("1 MB");
                let mut s = Searcher::new(EngineEval, opts).expect("options");
                let r = s.search_with(&ip, &Limits::new().with_depth(depth), |_| {});
                assert_eq!(
                    r.score,
                    expected,
                    "depth {depth} from {}",
                    p.to_position_string()
                );
            }
        }
    }
}

#[test]
fn incremental_state_matches_scratch_under_the_variants() {
    for spec in [
        "fourshift:moving_first=second",
        "fourshift:centre_opening=false",
        "fourshift:pieces=6,moving_first=second,centre_opening=false",
    ] {
        let config: FourshiftConfig = spec.parse().expect("config");
        for seed in 0..8 {
            random_walk(config, seed, seed < 2);
        }
    }
}

#[test]
fn engine_and_baseline_respect_the_centre_opening() {
    let p = Fourshift::new("fourshift:centre_opening=false".parse().expect("config"));
    for mut agent in [
        engine(),
        Fourshift::baseline().expect("the baseline builds"),
    ] {
        let r = think(agent.as_mut(), &p, 3);
        let m = r.best_move.expect("a move");
        assert!(p.validate(&m).is_ok());
        assert!(!p.is_centre(m.to()));
    }
}
