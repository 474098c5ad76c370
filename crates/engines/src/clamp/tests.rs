use board_core::{Player, Position as _, Rules as _};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_clamp::{ClampConfig, ClampPosition};
use search::{Limits, Score, ScoreKind};

use super::*;
use crate::test_support::{mv, think};

fn engine() -> Box<dyn Agent<ClampPosition>> {
    crate::test_support::engine()
}

fn pos_in(config: &str, s: &str) -> ClampPosition {
    let config: ClampConfig = config.parse().expect("config");
    ClampPosition::from_position_string(config, s).expect("valid position")
}

fn pos(s: &str) -> ClampPosition {
    pos_in("clamp", s)
}

#[test]
fn captures_the_last_piece() {
    let p = pos("8/8/2X5/3O4/8/5X2/8/8 x 0 0");
    let r = think(engine().as_mut(), &p, 4);
    assert_eq!(r.best_move, Some(mv(&p, "f3-e4")));
    assert_eq!(r.score, Score::win_in(1));
    let r = think(
        ClampPosition::baseline()
            .expect("the baseline builds")
            .as_mut(),
        &p,
        4,
    );
    assert_eq!(r.best_move, Some(mv(&p, "f3-e4")));
}

#[test]
fn saves_the_last_piece() {
    // White's only piece d5 is clamped next move by f3-e4 (or a drop on e4? no: e4 is
    // outside Black's zone): White must move it or drop a second piece.
    let p = pos("8/8/2X5/3O4/8/5X2/8/8 o 1 1");
    let r = think(engine().as_mut(), &p, 4);
    assert!(!r.score.is_decisive(), "{r:?}");
    let mut q = p.clone();
    q.play(r.best_move.expect("a move")).expect("legal");
    let r2 = think(engine().as_mut(), &q, 3);
    assert_ne!(r2.score, Score::win_in(1));
}

#[test]
fn adjudication_near_the_quiet_limit() {
    // Black has five pieces to White's four, far apart; two half-moves before the limit.
    let s = "8/XXXXX3/8/8/8/8/8/4OOOO x 78 100";
    let p = pos_in("clamp:adjudicate=true", s);
    let r = think(engine().as_mut(), &p, 4);
    assert_eq!(r.score, Score::win_in(2), "{r:?}");
    // Without adjudication the same position is a draw.
    let p = pos(s);
    let r = think(engine().as_mut(), &p, 4);
    assert_eq!(r.score, Score::DRAW, "{r:?}");
}

#[test]
fn baseline_eval_matches_the_article() {
    // Black c6 d4, White a1 d5 (the eval crate's hand position): material 0, centre
    // (2 + 3) - (0 + 3) = 2, mobility (28 steps + 23 drops) - (18 + 23) = 10.
    let p = pos("8/8/2X5/3O4/3X4/8/8/O7 x 0 0");
    assert_eq!(baseline_value(&p, Player::First), 2 * 4 + 10 * 2);
    assert_eq!(BaselineEval.evaluate(&p), 28);
    let t = baseline_terms(&p).expect("terms");
    assert_eq!((t.material, t.centre, t.mobility), (0, 2, 10));
    // The start position is symmetric.
    let start = ClampPosition::new(ClampConfig::default());
    assert_eq!(BaselineEval.evaluate(&start), 0);
}

fn walk(config: &str, seed: u64, agent_every: usize) {
    let config: ClampConfig = config.parse().expect("config");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = ClampPosition::new(config);
    let mut agent = engine();
    let mut moves = Vec::new();
    for ply in 0..120 {
        if p.outcome().is_some() {
            break;
        }
        let terms = baseline_terms(&p).expect("terms");
        for me in Player::BOTH {
            assert_eq!(
                baseline_value(&p, me),
                terms.baseline() * i64::from(me.sign())
            );
        }
        let v = EngineEval.evaluate(&p);
        assert!(matches!(Score::cp(v).kind(), ScoreKind::Value(_)));
        if agent_every > 0 && ply % agent_every == 1 {
            let r = agent.think(&p, &Limits::new().with_nodes(3_000), &mut |_| {});
            let m = r.best_move.expect("a move");
            assert!(p.validate(&m).is_ok());
        }
        p.generate_moves(&mut moves);
        // Prefer captures now and then so that games get eventful.
        let caps: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| p.capture_count(m) > 0)
            .collect();
        let m = if !caps.is_empty() && rng.random_bool(0.7) {
            caps[rng.random_range(0..caps.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        let mut noisy = Vec::new();
        EngineEval.noisy(&p, &mut noisy);
        assert_eq!(noisy.len(), caps.len());
        if p.capture_count(m) > 0 {
            assert!(EngineEval.move_hint(&p, m) > 0);
        }
        p.play(m).expect("legal");
    }
}

#[test]
fn random_games_keep_evaluations_consistent() {
    for seed in 0..12 {
        walk("clamp", seed, if seed < 4 { 9 } else { 0 });
    }
    walk("clamp:size=6", 1, 11);
    walk("clamp:size=10,zone=2,max_on_board=12", 2, 17);
    // Finite supplies: drops run out, the baseline terms and the engine follow the hands.
    walk("clamp:supply=12,adjudicate=true", 3, 9);
    walk("clamp:supply=2", 4, 13);
    walk("clamp:size=6,supply=0,quiet_limit=40,adjudicate=true", 5, 7);
}

#[test]
fn the_engine_counts_pieces_in_hand_under_a_finite_supply() {
    // Same board; Black has 3 pieces in hand more than White in the first position.
    let board = "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 10";
    let ahead = pos_in("clamp:supply=12", &format!("{board} 12 9"));
    let level = pos_in("clamp:supply=12", &format!("{board} 12 12"));
    assert_eq!(
        EngineEval.evaluate(&ahead) - EngineEval.evaluate(&level),
        3 * IN_HAND
    );
    // Under the unlimited default there is no hand term.
    let plain = pos(board);
    assert_eq!(
        EngineEval.evaluate(&plain),
        EngineEval.evaluate(&pos_in("clamp:supply=1000000", &format!("{board} 7 7")))
    );
}

#[test]
fn no_drop_without_a_piece_in_hand() {
    // Black's hand is empty: every move the engine or the baseline picks is a step.
    let p = pos_in("clamp:supply=3", "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 6 0 3");
    for mut agent in [
        engine(),
        ClampPosition::baseline().expect("the baseline builds"),
    ] {
        let r = think(agent.as_mut(), &p, 3);
        let m = r.best_move.expect("a move");
        assert!(!m.is_drop(), "{m:?}");
        assert!(p.validate(&m).is_ok());
    }
}

#[test]
fn an_empty_hand_and_no_step_is_a_win_the_engine_sees() {
    // c1-b1 boxes in White's only piece a1; White has no piece in hand: Black wins at once.
    let p = pos_in("clamp:size=6,supply=0", "6/6/6/6/XX4/O1X3 x 0 0 0 0");
    let r = think(engine().as_mut(), &p, 3);
    assert_eq!(r.best_move, Some(mv(&p, "c1-b1")), "{r:?}");
    assert_eq!(r.score, Score::win_in(1));
}

#[test]
fn adjudication_by_the_centre_near_the_quiet_limit() {
    // Four pieces each, one half-move before the limit: Black's d8-d6 brings a piece onto
    // the centre block (c3-f6) and wins on the tie-break.
    let p = pos_in(
        "clamp:quiet_limit=10,adjudicate=true",
        "XXXX4/8/8/8/8/8/8/OOOO4 x 9 20",
    );
    let r = think(engine().as_mut(), &p, 2);
    assert_eq!(r.score, Score::win_in(1), "{r:?}");
    let mut q = p.clone();
    q.play(r.best_move.expect("a move")).expect("legal");
    assert_eq!(q.outcome(), Some(board_core::Outcome::Win(Player::First)));
}

#[test]
#[ignore]
fn debug_games() {
    use std::time::Duration;
    let spec = std::env::var("CLAMP_SPEC").unwrap_or_else(|_| "clamp".into());
    let config: ClampConfig = spec.parse().expect("config");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for g in 0..2 {
        let mut p = ClampPosition::new(config);
        let mut moves = Vec::new();
        for _ in 0..2 {
            p.generate_moves(&mut moves);
            let m = moves[rng.random_range(0..moves.len())];
            p.play(m).expect("legal");
        }
        let engine_first = g % 2 == 0;
        let mut e = engine();
        let mut b = ClampPosition::baseline().expect("the baseline builds");
        let mut hashes = vec![];
        let mut line = String::new();
        while p.outcome().is_none() && p.ply() < 600 {
            let eng = (p.side_to_move() == Player::First) == engine_first;
            let lim = Limits::new()
                .with_soft_time(Duration::from_millis(30))
                .with_hard_time(Duration::from_millis(50));
            hashes.push(p.hash());
            let r = if eng {
                e.set_game_history(&hashes);
                e.think(&p, &lim, &mut |_| {})
            } else {
                b.think(&p, &lim, &mut |_| {})
            };
            let m = r.best_move.expect("move");
            if p.ply().is_multiple_of(20) || p.ply() > 560 {
                let (ep, bp) = if engine_first {
                    (Player::First, Player::Second)
                } else {
                    (Player::Second, Player::First)
                };
                line += &format!(
                    "[{} E{} B{} q{} {} {}] ",
                    p.ply(),
                    p.piece_count(ep),
                    p.piece_count(bp),
                    p.quiet(),
                    if eng { "E" } else { "B" },
                    r.score
                );
            }
            p.play(m).expect("legal");
        }
        eprintln!(
            "game {g} engine_first={engine_first} {:?} {line}\n {}",
            p.outcome(),
            p.to_position_string()
        );
    }
}
