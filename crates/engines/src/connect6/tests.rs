use board_core::{Notation as _, Outcome, Player, Position as _, Rules as _, Square};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_connect6::{Connect6Config, Connect6Position, Move};
use search::{EvalState, Limits, ScoreKind, SearchOptions};

use super::state::{self, WindowState, blockers_needed, pair_blocks};
use super::threats::{PairEffect, ThreatMakers, may_share_window, pair_effect};
use super::*;
use crate::EngineGame;
use crate::tune::TunedWeights;

/// Far-apart filler squares (3 apart on rows 3 apart: no window holds more than two).
const FILLERS: [&str; 14] = [
    "a1", "d1", "g1", "p1", "s1", "a4", "s4", "a16", "s16", "a19", "d19", "g19", "p19", "s19",
];

/// A 19×19 position with the given stones and side to move, padded with fillers so that the
/// stone counts match a ply (Black has one stone fewer than White when Black is to move, as
/// many when White is).
fn position(black: &[&str], white: &[&str], side: Player) -> Connect6Position {
    let g = board_core::Geometry::square(19).expect("19 is a valid size");
    let mut b: Vec<Square> = black
        .iter()
        .map(|s| g.parse_square(s).expect("square"))
        .collect();
    let mut w: Vec<Square> = white
        .iter()
        .map(|s| g.parse_square(s).expect("square"))
        .collect();
    let fillers: Vec<Square> = FILLERS
        .iter()
        .map(|s| g.parse_square(s).expect("square"))
        .filter(|s| !b.contains(s) && !w.contains(s))
        .collect();
    let mut fill = fillers.into_iter();
    // White always has an even number of stones (2·⌊p/2⌋). Black to move: |b| = |w| - 1.
    // White to move: |b| = |w| + 1.
    if w.len() % 2 == 1 {
        w.push(fill.next().expect("enough fillers"));
    }
    loop {
        let want_b = match side {
            Player::First => w.len() as i64 - 1,
            Player::Second => w.len() as i64 + 1,
        };
        if (b.len() as i64) < want_b {
            b.push(fill.next().expect("enough fillers"));
        } else if (b.len() as i64) > want_b {
            w.push(fill.next().expect("enough fillers"));
            w.push(fill.next().expect("enough fillers"));
        } else {
            break;
        }
    }
    let ply = match side {
        Player::First => w.len(),
        Player::Second => b.len(),
    };
    let mut rows = Vec::new();
    for r in (0..19).rev() {
        let mut row = String::new();
        let mut run = 0;
        for c in 0..19 {
            let sq = g.square_at(c, r).expect("on board");
            let ch = if b.contains(&sq) {
                Some('x')
            } else if w.contains(&sq) {
                Some('o')
            } else {
                None
            };
            match ch {
                Some(ch) => {
                    if run > 0 {
                        row.push_str(&run.to_string());
                        run = 0;
                    }
                    row.push(ch);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            row.push_str(&run.to_string());
        }
        rows.push(row);
    }
    let side_ch = if side == Player::First { 'x' } else { 'o' };
    let s = format!("{} {side_ch} {ply}", rows.join("/"));
    Connect6Position::from_position_string(Connect6Config::default(), &s)
        .unwrap_or_else(|e| panic!("bad test position {s}: {e}"))
}

fn engine_move(pos: &Connect6Position, limits: Limits) -> (Move, search::Score) {
    let mut agent = Connect6Position::engine(SearchOptions::default()).expect("engine");
    let r = agent.think(pos, &limits, &mut |_| {});
    (r.best_move.expect("a move"), r.score)
}

fn after(pos: &Connect6Position, mv: Move) -> Connect6Position {
    let mut p = pos.clone();
    assert!(
        p.validate(&mv).is_ok(),
        "illegal move {}",
        pos.format_move(mv)
    );
    p.make_move(mv);
    p
}

#[test]
fn wins_in_one() {
    // Black: j10-m10 (four, open) and White elsewhere; Black to move makes six.
    let pos = position(
        &["j10", "k10", "l10", "m10"],
        &["c8", "d12", "p14"],
        Player::First,
    );
    let (mv, score) = engine_move(&pos, Limits::new().with_depth(2));
    assert_eq!(after(&pos, mv).outcome(), Some(Outcome::Win(Player::First)));
    assert!(matches!(score.kind(), ScoreKind::Win(_)));
    // A broken five (one gap) too, with a free second stone.
    let pos = position(
        &["j10", "k10", "m10", "n10", "o10"],
        &["c8", "d12", "p14", "q3"],
        Player::Second,
    );
    let pos = {
        // White to move here: hand the move to Black by a quiet White pair.
        let mv = pos.parse_legal_move("b17,r17").expect("legal");
        after(&pos, mv)
    };
    let (mv, _) = engine_move(&pos, Limits::new().with_depth(1));
    assert_eq!(after(&pos, mv).outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn blocks_the_opponents_threats() {
    // White has an open four (needs two blockers) plus a separate five-window threat is
    // absent; Black has nothing: Black must block with both stones.
    let pos = position(&["c3", "e12"], &["j10", "k10", "l10", "m10"], Player::First);
    for depth in [1, 2, 3] {
        let (mv, _) = engine_move(&pos, Limits::new().with_depth(depth));
        let next = after(&pos, mv);
        let st = WindowState::from_position(&next);
        assert_eq!(
            st.threats[Player::Second.index()],
            0,
            "depth {depth}: {}",
            pos.format_move(mv)
        );
    }
    // Two threats blockable by one stone each (a four in a row and a split four in a column).
    let pos = position(
        &["c3", "e12", "i10"],
        &["j10", "k10", "l10", "m10", "o4", "o5", "o7", "o8"],
        Player::First,
    );
    let st = WindowState::from_position(&pos);
    let mut ts = Vec::new();
    st.threat_windows(Player::Second, &mut ts);
    assert_eq!(blockers_needed(&ts), 2);
    let (mv, _) = engine_move(&pos, Limits::new().with_depth(2));
    let next = after(&pos, mv);
    assert_eq!(WindowState::from_position(&next).threats[1], 0);
}

#[test]
fn finds_double_threat_wins() {
    // Black has two open threes on separate lines and White no threat: Black makes two open
    // fours (four blockers needed) and wins on the next turn.
    let pos = position(
        &["h10", "i10", "j10", "c5", "c6", "c7"],
        &["p3", "q12", "r8", "n17", "e17", "b12", "s10"],
        Player::First,
    );
    let fw = threat_space_search(&wrap(&pos), 3, 10_000).expect("a double-threat win");
    assert_eq!(fw.turns, 3);
    let (mv, score) = engine_move(&pos, Limits::new().with_depth(3));
    assert!(
        matches!(score.kind(), ScoreKind::Win(_)),
        "{}",
        pos.format_move(mv)
    );
    // Play it out against the defender's best: the engine still wins.
    let mut p = after(&pos, mv);
    let mut defender = Connect6Position::engine(SearchOptions::default()).expect("engine");
    let mut engine = Connect6Position::engine(SearchOptions::default()).expect("engine");
    for _ in 0..4 {
        if p.outcome().is_some() {
            break;
        }
        let r = defender.think(&p, &Limits::new().with_depth(2), &mut |_| {});
        p = after(&p, r.best_move.expect("move"));
        if p.outcome().is_some() {
            break;
        }
        let r = engine.think(&p, &Limits::new().with_depth(3), &mut |_| {});
        p = after(&p, r.best_move.expect("move"));
    }
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn threat_space_search_needs_continuation() {
    // One open three only: a single open four (two blockers) is not a win by itself.
    let pos = position(
        &["h10", "i10", "j10"],
        &["p3", "q12", "r8", "n17"],
        Player::First,
    );
    assert_eq!(threat_space_search(&wrap(&pos), 1, 10_000), None);
    // Three stones in a row plus two on another line: an open four now and a second threat
    // need four blockers... only if both lines exist; here a two becomes a closed window.
    let pos = position(
        &["h10", "i10", "j10", "h12", "h13"],
        &["p3", "q12", "r8", "n17", "e17", "b12"],
        Player::First,
    );
    // Either way, whatever the search says must be a real win: check by playing the TSS line
    // against every blocking reply at depth 1 of the tree.
    if let Some(fw) = threat_space_search(&wrap(&pos), 3, 10_000) {
        let next = after(&pos, fw.mv);
        assert!(next.outcome().is_some() || fw.turns >= 3);
    }
}

#[test]
fn baseline_evaluation_follows_the_run_scores() {
    assert_eq!(run_score(6, 0), 500_000);
    assert_eq!(run_score(7, 1), 500_000);
    assert_eq!(run_score(5, 2), 500_000);
    assert_eq!(run_score(5, 1), 50_000);
    assert_eq!(run_score(5, 0), 0);
    assert_eq!(run_score(4, 2), 30_000);
    assert_eq!(run_score(4, 1), 3_000);
    assert_eq!(run_score(3, 2), 2_000);
    assert_eq!(run_score(3, 1), 200);
    assert_eq!(run_score(2, 2), 0);
    // Black: open three j10-l10 (2000). White: open four c5-c8 vertically (30000) and a
    // closed three at the edge a10-a12... a10, a11, a12 touch the edge only on the side,
    // vertically they are open: a9 and a13 empty → open three (2000). Fillers are single
    // stones (0).
    let pos = position(
        &["j10", "k10", "l10"],
        &["c5", "c6", "c7", "c8", "a10", "a11", "a12"],
        Player::First,
    );
    // Black to move: 2000 − 32000.
    assert_eq!(baseline_eval(&pos), 2_000 - 32_000);
    // A closed five: Black a1 (filler)… use row 8: White blocks h8, Black i8-m8 → closed
    // five (50000) — and from White's view (White to move) negated.
    let pos = position(
        &["i8", "j8", "k8", "l8", "m8"],
        &["h8", "c15", "q15", "c12"],
        Player::Second,
    );
    assert_eq!(baseline_eval(&pos), -50_000);
    // Dead four: both ends blocked.
    let pos = position(
        &["i8", "j8", "k8", "l8"],
        &["h8", "m8", "c15", "q15", "c12"],
        Player::Second,
    );
    assert_eq!(baseline_eval(&pos), 0);
    // The incremental state agrees.
    let bp = baseline_wrap(&pos);
    let t = bp.state().totals();
    assert_eq!(t[1] - t[0], 0);
}

#[test]
fn incremental_states_match_from_scratch() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for game in 0..6 {
        let size = if game % 3 == 2 { 8 } else { 19 };
        let config = Connect6Config::new(size).expect("size");
        let mut ep = wrap(&Connect6Position::new(config));
        let mut bp = baseline_wrap(&Connect6Position::new(config));
        let mut hist = Vec::new();
        let mut moves = Vec::new();
        let narrow = Connect6Eval {
            top_cells: 8,
            ..Connect6Eval::default()
        };
        while ep.outcome().is_none() && hist.len() < 60 {
            // Mostly near-stone candidate moves (threats happen), sometimes any legal move.
            if rng.random_range(0..4) == 0 {
                ep.generate_moves(&mut moves);
            } else {
                engine::candidates(&ep, &narrow, &mut moves);
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let u1 = ep.make_move(mv);
            let u2 = bp.make_move(mv);
            assert_eq!(ep.state(), &WindowState::from_position(ep.position()));
            assert_eq!(bp.state(), &BaselineState::from_position(bp.position()));
            let t = bp.state().totals();
            let me = bp.side_to_move().index();
            assert_eq!(t[me] - t[1 - me], baseline_eval(bp.position()));
            hist.push((mv, u1, u2));
        }
        while let Some((mv, u1, u2)) = hist.pop() {
            ep.unmake_move(mv, u1);
            bp.unmake_move(mv, u2);
            assert_eq!(ep.state(), &WindowState::from_position(ep.position()));
            assert_eq!(bp.state(), &BaselineState::from_position(bp.position()));
        }
        assert_eq!(
            ep.state(),
            &WindowState::from_position(&Connect6Position::new(config))
        );
    }
}

#[test]
fn candidates_are_legal_and_unique() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..4 {
        let mut ep = wrap(&Connect6Position::new(Connect6Config::default()));
        let mut moves = Vec::new();
        for _ in 0..30 {
            if ep.outcome().is_some() {
                break;
            }
            engine::candidates(&ep, &Connect6Eval::default(), &mut moves);
            assert!(!moves.is_empty());
            let mut seen = std::collections::HashSet::new();
            for m in &moves {
                assert!(ep.validate(m).is_ok());
                assert!(seen.insert(*m));
            }
            let mv = moves[rng.random_range(0..moves.len().min(6))];
            ep.make_move(mv);
        }
    }
}

#[test]
fn engine_and_baseline_play_legal_games() {
    let mut p = Connect6Position::new(Connect6Config::new(9).expect("size"));
    let mut e = Connect6Position::engine(SearchOptions::default()).expect("engine");
    let mut b = Connect6Position::baseline().expect("the baseline builds");
    let mut turn = 0;
    while p.outcome().is_none() && turn < 40 {
        let agent = if turn % 2 == 0 { &mut e } else { &mut b };
        let r = agent.think(&p, &Limits::new().with_nodes(3_000), &mut |_| {});
        p = after(&p, r.best_move.expect("move"));
        turn += 1;
    }
    assert!(p.outcome().is_some() || turn == 40);
}

// ---- threat logic, rule by rule --------------------------------------------------------

fn sq(name: &str) -> Square {
    board_core::Geometry::square(19)
        .expect("19 is a valid size")
        .parse_square(name)
        .expect("square")
}

/// The threats of `me` after `mv` (placed on a copy), and the blockers they need.
fn threats_after(st: &WindowState, me: Player, mv: Move) -> u32 {
    let mut st = st.clone();
    for s in mv.squares() {
        st.place(me, s);
    }
    let mut ts = Vec::new();
    st.threat_windows(me, &mut ts);
    blockers_needed(&ts)
}

/// Plays 3 random games of `plies` turns (each turn one of the engine's 4 best candidates,
/// from `seed`) and calls `f` with the window state, the side to move and its `top` best
/// cells (by cell value) before every turn.
fn each_position_of_random_games(
    seed: u64,
    plies: usize,
    top: usize,
    mut f: impl FnMut(&WindowState, Player, &[Square]),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..3 {
        let mut ep = wrap(&Connect6Position::new(Connect6Config::default()));
        let mut moves = Vec::new();
        for _ in 0..plies {
            if ep.outcome().is_some() {
                break;
            }
            let me = ep.side_to_move();
            let mut vals = Vec::new();
            engine::cell_values(ep.state(), me, &mut vals);
            let mut cells = Vec::new();
            engine::top_cells(&vals, top, &mut cells);
            f(ep.state(), me, &cells);
            engine::candidates(&ep, &Connect6Eval::default(), &mut moves);
            let mv = moves[rng.random_range(0..moves.len().min(4))];
            ep.make_move(mv);
        }
    }
}

#[test]
fn pair_effect_matches_placing_the_stones() {
    // On positions from random games, the effect computed from the window counts equals
    // the change of the incremental state when the pair is really placed, for every pair
    // of the candidate cells (pairs sharing windows included) and for single stones.
    let mut eff = PairEffect::default();
    each_position_of_random_games(11, 24, 10, |st, me, cells| {
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i..] {
                pair_effect(st, me, a, b, &mut eff);
                let mut placed = st.clone();
                placed.place(me, a);
                placed.place(me, b);
                for c in 0..2 {
                    for n in 0..=state::K {
                        assert_eq!(
                            eff.windows_delta[c][n],
                            placed.windows[c][n] - st.windows[c][n],
                            "colour {c}, {n} stones"
                        );
                    }
                }
                let mut through = Vec::new();
                placed.threat_windows_through(me, a, &mut through);
                placed.threat_windows_through(me, b, &mut through);
                assert_eq!(blockers_needed(&eff.threats), blockers_needed(&through));
                // The same windows (the state's list leaves out repeated square sets).
                for t in &eff.threats {
                    assert!(through.contains(t), "{t:?} not among {through:?}");
                }
                for t in &through {
                    assert!(eff.threats.contains(t), "{t:?} not among {:?}", eff.threats);
                }
            }
        }
    });
}

#[test]
fn pairs_sharing_no_window_add_their_stones_effects() {
    // The candidate generator sums the effects of two stones placed alone when no window
    // holds both: on positions from random games, that sum equals the pair's own effect
    // for every such pair of the best cells (the threats as a set: their order differs),
    // and `may_share_window` is true for every pair that does share a window.
    let (mut eff, mut summed) = (PairEffect::default(), PairEffect::default());
    let (mut apart, mut sharing) = (0, 0);
    each_position_of_random_games(12, 30, 14, |st, me, cells| {
        let table = st.table();
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                let shared = table
                    .through(a)
                    .iter()
                    .any(|w| table.through(b).contains(w));
                if may_share_window(st, a, b) {
                    sharing += 1;
                    continue;
                }
                assert!(!shared, "{a:?} and {b:?} share a window");
                apart += 1;
                let (mut ea, mut eb) = (PairEffect::default(), PairEffect::default());
                pair_effect(st, me, a, a, &mut ea);
                pair_effect(st, me, b, b, &mut eb);
                summed.set_sum(&ea, &eb);
                pair_effect(st, me, a, b, &mut eff);
                assert_eq!(summed.windows_delta, eff.windows_delta);
                assert_eq!(summed.threats.len(), eff.threats.len());
                for t in &eff.threats {
                    assert!(summed.threats.contains(t), "{t:?} not summed");
                }
            }
        }
    });
    // Both kinds occur often enough for the test to mean something.
    assert!(
        apart > 1000 && sharing > 200,
        "apart {apart}, sharing {sharing}"
    );
}

#[test]
fn threat_makers_come_from_three_and_two_stone_windows() {
    // Black: a three on row 10 (h10 i10 j10), a two on column c (c5 c6) far from it.
    let pos = position(
        &["h10", "i10", "j10", "c5", "c6"],
        &["p3", "q12", "r8", "n17"],
        Player::First,
    );
    let st = WindowState::from_position(&pos);
    let mut tm = ThreatMakers::default();
    tm.find(&st, Player::First);
    let singles: Vec<Square> = tm.singles.iter().map(|&(s, _)| s).collect();
    // A stone within the three's windows makes four: g10 and k10 lie in several windows.
    for s in ["e10", "f10", "g10", "k10", "l10", "m10"] {
        assert!(singles.contains(&sq(s)), "{s}");
    }
    // g10 and k10 are in more 3-stone windows than the far ends.
    let count = |s: &str| {
        tm.singles
            .iter()
            .find(|&&(x, _)| x == sq(s))
            .map(|&(_, k)| k)
    };
    assert!(count("k10") > count("m10"));
    // Nothing on column c makes a threat alone; two stones there do.
    assert!(!singles.contains(&sq("c7")));
    assert!(
        tm.doubles
            .contains(&(sq("c7").min(sq("c8")), sq("c7").max(sq("c8"))))
    );
    // Every double really makes a threat; every single does alone.
    let mut eff = PairEffect::default();
    for &(a, b) in &tm.doubles {
        pair_effect(&st, Player::First, a, b, &mut eff);
        assert!(!eff.threats.is_empty());
    }
    for &(a, _) in &tm.singles {
        pair_effect(&st, Player::First, a, a, &mut eff);
        assert!(!eff.threats.is_empty());
    }
    // White's scattered stones (at most two in a window) make no threat with one stone.
    tm.find(&st, Player::Second);
    assert!(tm.singles.is_empty());
}

#[test]
fn candidates_against_two_threats_block_both() {
    // White: a four on row 10 and a split four on column o, each blockable by one stone:
    // every candidate pair must block both, and the list is short.
    let pos = position(
        &["c3", "e12", "i10"],
        &["j10", "k10", "l10", "m10", "o4", "o5", "o7", "o8"],
        Player::First,
    );
    let ep = wrap(&pos);
    let st = ep.state();
    let mut ts = Vec::new();
    st.threat_windows(Player::Second, &mut ts);
    assert_eq!(blockers_needed(&ts), 2);
    let eval = Connect6Eval::default();
    let mut moves = Vec::new();
    engine::candidates(&ep, &eval, &mut moves);
    assert!(!moves.is_empty() && moves.len() <= eval.max_pairs);
    for mv in &moves {
        let (a, b) = (mv.first(), mv.second().expect("a pair"));
        assert!(pair_blocks(&ts, a, b), "{}", pos.format_move(*mv));
        assert_eq!(
            WindowState::from_position(&after(&pos, *mv)).threats[1],
            0,
            "{}",
            pos.format_move(*mv)
        );
    }
    // n10 and o6 is the only pair that blocks both with... either n10 or i10-side: the row
    // four j10-m10 has i10 Black, so only n10/o10 windows remain; o6 blocks the column.
    assert!(moves.iter().any(|m| m.contains(sq("o6"))));
}

#[test]
fn candidates_play_the_win_in_one_alone() {
    let pos = position(
        &["j10", "k10", "l10", "m10"],
        &["c8", "d12", "p14"],
        Player::First,
    );
    let mut moves = Vec::new();
    engine::candidates(&wrap(&pos), &Connect6Eval::default(), &mut moves);
    assert_eq!(moves.len(), 1);
    assert_eq!(
        after(&pos, moves[0]).outcome(),
        Some(Outcome::Win(Player::First))
    );
}

#[test]
fn candidates_create_double_threats() {
    // Two open threes on separate lines: one stone on each makes two open fours (four
    // blockers needed), a win next turn; the candidates give that pair alone.
    let pos = position(
        &["h10", "i10", "j10", "c5", "c6", "c7"],
        &["p3", "q12", "r8", "n17", "e17", "b12", "s10"],
        Player::First,
    );
    let ep = wrap(&pos);
    let mut moves = Vec::new();
    engine::candidates(&ep, &Connect6Eval::default(), &mut moves);
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert!(threats_after(ep.state(), Player::First, moves[0]) >= 3);
    // One open three only: the best pairs make a double threat (an open four: both of the
    // opponent's stones), and those come first.
    let pos = position(
        &["h10", "i10", "j10"],
        &["p3", "q12", "r8", "n17"],
        Player::First,
    );
    let ep = wrap(&pos);
    engine::candidates(&ep, &Connect6Eval::default(), &mut moves);
    assert!(moves.len() > 1);
    assert_eq!(threats_after(ep.state(), Player::First, moves[0]), 2);
}

/// Black to move: an open three on row 10, and twos on column e (e5 e6) and row 7 (c7 d7)
/// that cross at e7. No pair wins at once (the best makes one double threat), but k10 + e7
/// (an open four, and threes on both crossing lines) forces White's two stones onto row 10,
/// and then e8 + f7 makes two open fours.
fn two_step_position(white_extra: &[&str]) -> Connect6Position {
    let mut white = vec!["p3", "q12", "r8", "n17", "p16", "s13"];
    white.extend_from_slice(white_extra);
    position(
        &["h10", "i10", "j10", "e5", "e6", "c7", "d7"],
        &white,
        Player::First,
    )
}

#[test]
fn threat_space_search_finds_a_two_step_double_threat_win() {
    let pos = two_step_position(&[]);
    let ep = wrap(&pos);
    assert_eq!(
        threat_space_search(&ep, 1, 100_000),
        None,
        "no win in one pair"
    );
    let fw = threat_space_search(&ep, 2, 100_000).expect("a continuous double-threat win");
    // Pair, reply, pair, reply, six.
    assert_eq!(fw.turns, 5);
    // The first pair is a double threat: White's whole move is forced.
    assert_eq!(threats_after(ep.state(), Player::First, fw.mv), 2);
    // Against every pair White can answer with (only blocking pairs avoid the six), Black
    // still has a win by continuous double threats, now one step shorter.
    let next = after(&pos, fw.mv);
    let st = WindowState::from_position(&next);
    let mut ts = Vec::new();
    st.threat_windows(Player::First, &mut ts);
    let mut cells = Vec::new();
    super::state::threat_cells(&ts, &mut cells);
    let mut replies = 0;
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if !pair_blocks(&ts, a, b) {
                continue;
            }
            replies += 1;
            let reply = after(&next, Move::pair(a, b));
            let fw2 = threat_space_search(&wrap(&reply), 1, 100_000)
                .unwrap_or_else(|| panic!("no win after {}", next.format_move(Move::pair(a, b))));
            assert_eq!(fw2.turns, 3);
        }
    }
    assert!(replies > 0);
    // The engine finds and plays it inside its search too.
    let (_, score) = engine_move(&pos, Limits::new().with_depth(2));
    assert!(matches!(score.kind(), ScoreKind::Win(_)), "{score:?}");
}

#[test]
fn threat_space_search_is_refuted_by_the_defenders_threat() {
    // The same attack, but White has an open four of its own on row 16 (b16..e16... a
    // three plus one: c16 d16 e16 f16): Black's next pair must block it, so it cannot make
    // a double threat, and there is no continuous double-threat win.
    let pos = two_step_position(&["c16", "d16", "e16", "f16"]);
    let ep = wrap(&pos);
    assert!(ep.state().threats[1] > 0);
    assert_eq!(threat_space_search(&ep, 4, 200_000), None);
    // The engine blocks White's four instead of attacking.
    let (mv, _) = engine_move(&pos, Limits::new().with_depth(2));
    assert_eq!(
        WindowState::from_position(&after(&pos, mv)).threats[1],
        0,
        "{}",
        pos.format_move(mv)
    );
}

/// The static value is exactly the fitted model: the terms [`engine::quiet_features`]
/// counts, weighed with the engine's weights, give [`engine::static_value`] on every quiet
/// position of random games near the stones, and a position a threat decides has no
/// features (so the tuner fits what the engine evaluates).
#[test]
fn static_value_is_the_weighed_features() {
    for w in [EVAL_WEIGHTS, HAND_WEIGHTS] {
        assert_eq!(EvalWeights::from_slice(&w.to_vec()), Some(w));
    }
    assert_eq!(EvalWeights::from_slice(&EVAL_WEIGHTS.to_vec()[1..]), None);
    let weights = EVAL_WEIGHTS.to_vec();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut quiet, mut blocking, mut forcing) = (0, 0, 0);
    let eval = Connect6Eval::default();
    for _ in 0..8 {
        let mut pos = wrap(&Connect6Position::new(Connect6Config::default()));
        let mut moves = Vec::new();
        while pos.outcome().is_none() && pos.ply() < 40 {
            let me = pos.side_to_move();
            let value = engine::static_value(pos.state(), me, &EVAL_WEIGHTS);
            match engine::quiet_features(pos.state(), me) {
                Some(f) => {
                    quiet += 1;
                    if f[8] != 0 || f[9] != 0 {
                        blocking += 1;
                    }
                    let weighed: i64 = f
                        .iter()
                        .zip(&weights)
                        .map(|(&f, &w)| f * i64::from(w))
                        .sum();
                    assert_eq!(weighed, i64::from(value));
                }
                None => {
                    forcing += 1;
                    assert_eq!(value.abs(), engine::WON);
                }
            }
            engine::candidates(&pos, &eval, &mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            pos.make_move(mv);
        }
    }
    assert!(
        quiet > 100 && blocking > 5 && forcing > 3,
        "{quiet} quiet ({blocking} blocking), {forcing} forcing"
    );
}

/// A records file of two connect6 games: Black makes six on row 10 in the first; the second
/// stops before the end (as after an external engine's timeout).
const RECORDS: &str = "# game 1: engine (first) vs engine (second): six in a row\n\
boardlab-save 1\ngame connect6\nj10\na1,a3\nk10,l10\na5,a7\nm10,n10\nc1,c3\no10,h10\n\n\
# game 2: engine (first) vs ugi (second): timeout\n\
boardlab-save 1\ngame connect6\nj10\nk11,k9\n";

#[test]
fn samples_are_the_quiet_positions_of_finished_games() {
    let mut s = tune::Samples::default();
    tune::add_samples(RECORDS, 0, &mut s).expect("records load");
    assert_eq!((s.games, s.unfinished), (1, 1));
    // Seven positions before the seven moves: Black's five stones j10-n10 (before its last
    // pair) are threats that decide Black's last position.
    assert_eq!(s.samples.len() + s.forcing, 7);
    assert_eq!(s.forcing, 1, "{s:?}");
    // Black to move on the empty board, and Black won; then White to move, who lost.
    assert_eq!(s.samples[0].result, 1.0);
    assert_eq!(s.samples[1].result, 0.0);
    assert!(
        s.samples
            .iter()
            .all(|x| x.features.len() == engine::FEATURES)
    );
    // White's third position faces those threats: they take both stones of its move (i10
    // and o10) to block.
    assert_eq!(s.samples[5].features[8..], [0, -1]);
    // Skipping the opening plies skips their samples.
    let mut later = tune::Samples::default();
    tune::add_samples(RECORDS, 3, &mut later).expect("records load");
    assert_eq!(later.samples.len() + later.forcing, 4);
    // A game with an illegal move is refused, naming the game.
    let bad = RECORDS.replace("a5,a7", "k10,a7");
    let err = tune::add_samples(&bad, 0, &mut tune::Samples::default()).expect_err("illegal");
    assert!(err.to_string().starts_with("records game 1:"), "{err}");
}

/// The fit learns from results: in games where the side to move had more 2-stone windows
/// won, the fitted weight of those windows rises from its start.
#[test]
fn fit_follows_the_results() {
    let mut samples = Vec::new();
    for twos in -6i64..=6 {
        for other in -3i64..=3 {
            let mut features = vec![0; engine::FEATURES];
            features[1] = twos; // the side to move's 2-stone windows
            features[4] = other; // the waiting side's, unrelated to the result here
            samples.push(eval::tune::Sample {
                features,
                result: if twos > 0 { 1.0 } else { 0.0 },
            });
        }
    }
    let (weights, fitted) = tune::fit_weights(&samples, &HAND_WEIGHTS).expect("fits");
    assert!(fitted.error_after < fitted.error_before, "{fitted:?}");
    assert!(weights.to_move[1] > HAND_WEIGHTS.to_move[1], "{weights:?}");
}

/// The self-play games the shipped weights were fitted to (`docs/strength.md`, connect6,
/// session 11).
const SHIPPED_RECORDS: &str = include_str!("../../data/connect6-selfplay-n2000-s9.txt");
/// The opening plies of those games, drawn at random and skipped.
const SHIPPED_SKIP: usize = 3;

/// The shipped weights are what the fit makes of the shipped games from the hand weights:
/// the weights are reproducible, and a change to the features or the fit shows here.
#[test]
fn shipped_weights_are_the_fit_of_the_shipped_games() {
    let mut s = tune::Samples::default();
    tune::add_samples(SHIPPED_RECORDS, SHIPPED_SKIP, &mut s).expect("records load");
    assert_eq!((s.games, s.unfinished), (800, 0));
    let (weights, fitted) = tune::fit_weights(&s.samples, &HAND_WEIGHTS).expect("fits");
    assert_eq!(weights, EVAL_WEIGHTS, "{fitted:?}");
    assert!(fitted.error_after < fitted.error_before, "{fitted:?}");
}

/// Fits the evaluation weights to recorded games, from the hand weights (or, with
/// `START=shipped`, from the shipped ones): `RECORDS=a.txt,b.txt SKIP=3 cargo test
/// --release -p boardlab-engines fit_connect6_weights -- --ignored --nocapture`.
#[test]
#[ignore = "a tuning run over records files"]
fn fit_connect6_weights() {
    crate::test_support::fit_from_env(
        HAND_WEIGHTS,
        EVAL_WEIGHTS,
        tune::add_samples,
        ("quiet positions", "forcing skipped"),
    );
}

/// Every opening of the shipped connect6 book (`docs/strength.md`, connect6, session 11) is
/// legal and leaves the game open, as `boardlab match --openings book:FILE` needs.
#[test]
fn shipped_openings_are_legal_and_open() {
    let book = include_str!("../../../../data/openings/connect6-cloudict.txt");
    let mut count = 0;
    for line in crate::test_support::book_lines(book) {
        let mut pos = Connect6Position::new(Connect6Config::default());
        for text in line.split_whitespace() {
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{line}: {text}: {e}"));
            assert!(pos.validate(&mv).is_ok(), "{line}: {text}");
            pos.make_move(mv);
        }
        assert!(pos.outcome().is_none(), "{line}");
        count += 1;
    }
    assert_eq!(count, 40);
}

/// The defence's limits with the threat and test searches given: pairs over the first 10
/// squares of the opponent's win, 40 pairs tested at most.
fn defence(threat: TssLimits, test: TssLimits) -> DefenceLimits {
    DefenceLimits {
        threat,
        test,
        squares: 10,
        pairs: 40,
    }
}

/// Our side in a game of a `match --records` file: the player whose command in the
/// `# game N: A (first) vs B (second)` line names boardlab.
fn our_side(game: &str) -> Option<Player> {
    let header = game.lines().find(|l| l.starts_with("# game"))?;
    let first = header.find("(first)")?;
    Some(if header[..first].contains("boardlab") {
        Player::First
    } else {
        Player::Second
    })
}

/// Diagnosis of lost games (`docs/strength.md`, connect6, session 13): in every game of
/// `RECORDS` our side lost on the board, at each of our moves, whether the opponent would
/// have won by continuous double threats if it were its turn (before our move) and whether
/// it could after our move (`threat_space_search_for` at `BUDGET` pair tests, 6 attacking
/// moves); where the threat first stood for good, which pairs refute it: of our candidates,
/// of `threat_defence`'s list, and of all pairs over the win's squares and the candidates'.
/// `RECORDS=$PWD/crates/engines/data/connect6-vs-cloudict4-500ms-s1201.txt cargo test
/// --release -p boardlab-engines --lib diagnose_connect6_losses -- --ignored --nocapture`.
#[test]
#[ignore = "a diagnosis run over records files"]
fn diagnose_connect6_losses() {
    let path = std::env::var("RECORDS").expect("RECORDS=FILE");
    let budget: u32 = std::env::var("BUDGET").map_or(200_000, |b| b.parse().expect("BUDGET"));
    let scan_budget = budget / 10;
    let deep = |budget| TssLimits {
        depth: 6,
        budget,
        deadline: None,
    };
    let text = std::fs::read_to_string(&path).expect("records file");
    let (mut lost, mut with_missed, mut refutable, mut in_candidates, mut in_defence) =
        (0, 0, 0, 0, 0);
    for (i, game) in board_core::savefile::split_records(&text)
        .iter()
        .enumerate()
    {
        let Some(us) = our_side(game) else { continue };
        let loaded = board_core::savefile::load::<Connect6Position>(game).expect("a game");
        if loaded.position.outcome() != Some(Outcome::Win(us.other())) {
            continue;
        }
        lost += 1;
        let op = us.other();
        let mut pos = Connect6Position::new(*loaded.position.config());
        // (ply, opponent wins if it were its turn, opponent wins after our move, position)
        let mut rows = Vec::new();
        for &mv in &loaded.moves {
            if pos.side_to_move() == us && pos.stones_to_place() == 2 {
                let before = threat_space_search_for(wrap(&pos).state(), op, deep(budget), None);
                let next = after(&pos, mv);
                let after_move =
                    threat_space_search_for(wrap(&next).state(), op, deep(budget), None);
                rows.push((
                    pos.ply(),
                    before.is_some(),
                    after_move.is_some(),
                    pos.clone(),
                    mv,
                ));
            }
            pos.make_move(mv);
        }
        let end = loaded.moves.len();
        let line: String = rows
            .iter()
            .map(|r| match (r.1, r.2) {
                (false, false) => '.',
                (false, true) => '!',
                (true, true) => 'X',
                (true, false) => 'o',
            })
            .collect();
        // The first of our moves after which the opponent's win stood to the end.
        let from = rows.iter().rposition(|r| !r.2).map_or(0, |k| k + 1);
        let Some((ply, _, _, p, played)) = rows.get(from) else {
            println!(
                "game {}: {line} (end ply {end}): no standing threat-space win",
                i + 1
            );
            continue;
        };
        with_missed += 1;
        let ep = wrap(p);
        let eval = Connect6Eval::default();
        let mut cands = Vec::new();
        engine::candidates(&ep, &eval, &mut cands);
        let mut defended = cands.clone();
        let started = std::time::Instant::now();
        threat_defence(
            &ep,
            &eval,
            &defence(deep(30_000), deep(3_000)),
            &mut defended,
        );
        let defence_ms = started.elapsed().as_secs_f64() * 1e3;
        let refutes = |mv: Move| {
            let mut st = ep.state().clone();
            for sq in mv.squares() {
                st.place(us, sq);
            }
            threat_space_search_for(&st, op, deep(scan_budget), None).is_none()
        };
        let mut proof = Vec::new();
        threat_space_search_for(ep.state(), op, deep(budget), Some(&mut proof));
        let mut pool = proof.clone();
        for mv in &cands {
            for sq in mv.squares() {
                if !pool.contains(&sq) {
                    pool.push(sq);
                }
            }
        }
        let mut ts = Vec::new();
        ep.state().threat_windows(op, &mut ts);
        let mut all_refuting = Vec::new();
        for (k, &a) in pool.iter().enumerate() {
            for &b in &pool[k + 1..] {
                let mv = Move::pair(a, b);
                if pair_blocks(&ts, a, b) && refutes(mv) {
                    all_refuting.push(mv);
                }
            }
        }
        // At the full budget, as the threat was judged.
        let refutes_fully = |mv: Move| {
            let mut st = ep.state().clone();
            for sq in mv.squares() {
                st.place(us, sq);
            }
            threat_space_search_for(&st, op, deep(budget), None).is_none()
        };
        let cand_refuting: Vec<Move> = cands
            .iter()
            .copied()
            .filter(|&m| refutes_fully(m))
            .collect();
        let def_refuting = defended.iter().filter(|&&m| refutes_fully(m)).count();
        // The least budget that finds the opponent's win after the move we played.
        let mut played_st = ep.state().clone();
        for sq in played.squares() {
            played_st.place(us, sq);
        }
        let found_at = [100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, budget]
            .into_iter()
            .find(|&b| threat_space_search_for(&played_st, op, deep(b), None).is_some());
        let before_found_at = [100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, budget]
            .into_iter()
            .find(|&b| threat_space_search_for(ep.state(), op, deep(b), None).is_some());
        let fmt = |ms: &[Move]| {
            ms.iter()
                .take(6)
                .map(|&m| p.format_move(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        println!(
            "game {}: {line} (end ply {end}): from ply {ply} ({} plies before the end), played {} \
             (win found at budget {found_at:?}; before it {before_found_at:?}, {} threats on the board); \
             win squares {}; refuting: {} of {} pool pairs at a tenth of the budget [{}], \
             {} of {} candidates [{}], \
             {} of {} defence pairs [{}] ({defence_ms:.1} ms)",
            i + 1,
            end - *ply as usize,
            p.format_move(*played),
            ep.state().threats[op.index()],
            proof.len(),
            all_refuting.len(),
            pool.len() * (pool.len() - 1) / 2,
            fmt(&all_refuting),
            cand_refuting.len(),
            cands.len(),
            fmt(&cand_refuting),
            def_refuting,
            defended.len(),
            fmt(&defended),
        );
        if !all_refuting.is_empty() {
            refutable += 1;
        }
        if !cand_refuting.is_empty() {
            in_candidates += 1;
        }
        if def_refuting > 0 && defended != cands {
            in_defence += 1;
        }
    }
    println!(
        "{lost} lost; {with_missed} with a standing threat-space win of the opponent at one of \
         our moves; a refuting pair in the pool in {refutable}, in our candidates in \
         {in_candidates}, kept by the defence in {in_defence}"
    );
}

/// The game position after `moves` (a game record's moves, space-separated).
fn replay(moves: &str) -> Connect6Position {
    let mut pos = Connect6Position::new(Connect6Config::default());
    for text in moves.split_whitespace() {
        let mv = pos.parse_move(text).expect("a move");
        pos = after(&pos, mv);
    }
    pos
}

/// The defence against the opponent's coming threat-space win, proved on a position of a
/// game lost to Cloudict (`docs/strength.md`, connect6, session 13: game 12 of the s1201
/// records, our move at ply 3, where we played g8,l9 and Black won by continuous double
/// threats): Black would win if it were its turn; the defence keeps only pairs after which
/// a fresh threat-space search at the same budget finds no win, drops only pairs after
/// which one finds a win (at ten times the budget: the defence's tests try the pairs that
/// won before first, and prove some wins a fresh search needs more to find), keeps pairs
/// the candidates left out when they refute, and leaves the position as it found it; the
/// pair we played is dropped. (Not part of the engine's search: it did not gain in a
/// paired match, `docs/strength.md`.)
#[test]
fn threat_defence_keeps_the_refutations_of_the_opponents_win() {
    let pos = replay("i10 g9,l11 k10,j11");
    let ep = wrap(&pos);
    let (us, op) = (Player::Second, Player::First);
    assert_eq!(pos.side_to_move(), us);
    let judge = TssLimits {
        depth: 6,
        budget: 20_000,
        deadline: None,
    };
    assert!(
        threat_space_search_for(ep.state(), op, judge, None).is_some(),
        "Black wins if it is its turn"
    );
    let eval = Connect6Eval::default();
    let mut cands = Vec::new();
    engine::candidates(&ep, &eval, &mut cands);
    let mut kept = cands.clone();
    let state_before = ep.state().clone();
    threat_defence(&ep, &eval, &defence(judge, judge), &mut kept);
    assert_eq!(ep.state(), &state_before, "the position is left as it was");
    // A fresh search (without the pairs that won before to try first) at the judge's
    // budget, or at ten times it.
    let loses_within = |mv: Move, budget: u32| {
        let mut st = ep.state().clone();
        for sq in mv.squares() {
            st.place(us, sq);
        }
        let limits = TssLimits { budget, ..judge };
        threat_space_search_for(&st, op, limits, None).is_some()
    };
    let loses = |mv: Move| loses_within(mv, judge.budget);
    let surely_loses = |mv: Move| loses_within(mv, 10 * judge.budget);
    assert!(!kept.is_empty() && kept.len() <= eval.max_pairs);
    for &mv in &kept {
        assert!(!loses(mv), "kept {} loses", pos.format_move(mv));
    }
    let dropped: Vec<Move> = cands
        .iter()
        .copied()
        .filter(|m| !kept.contains(m))
        .collect();
    assert!(!dropped.is_empty(), "nothing was dropped");
    for &mv in &dropped {
        assert!(surely_loses(mv), "dropped {} refutes", pos.format_move(mv));
    }
    let played = pos.parse_move("g8,l9").expect("a move");
    assert!(surely_loses(played) && !kept.contains(&played));
    // Refutations the candidates left out are kept too.
    assert!(
        kept.iter().any(|m| !cands.contains(m)),
        "no pair beyond the candidates"
    );
    // A position the opponent cannot win from is left alone.
    let quiet = replay("i10 g9,l11");
    let qp = wrap(&quiet);
    let mut qc = Vec::new();
    engine::candidates(&qp, &eval, &mut qc);
    let mut qk = qc.clone();
    threat_defence(&qp, &eval, &defence(judge, judge), &mut qk);
    assert_eq!(qk, qc);
}

// ---- late-move reductions: the measurement ------------------------------------------------

/// What a candidate pair does, for the measurement of late moves.
#[derive(Clone, Copy, Debug)]
enum PairKind {
    /// A pair of a node the opponent's threats force (every candidate there blocks).
    Forced,
    /// A pair that makes a threat of ours.
    Threat,
    /// A pair that breaks an opponent's live 3-stone window (squares it would make a threat
    /// from) and makes no threat.
    BreaksThree,
    /// None of these.
    Quiet,
}

const PAIR_KINDS: [PairKind; 4] = [
    PairKind::Forced,
    PairKind::Threat,
    PairKind::BreaksThree,
    PairKind::Quiet,
];

fn pair_kind(pos: &EnginePosition, mv: Move) -> PairKind {
    let st = pos.state();
    let me = pos.side_to_move();
    let op = me.other();
    if st.threats[op.index()] > 0 {
        return PairKind::Forced;
    }
    let (a, b) = (mv.first(), mv.second().unwrap_or(mv.first()));
    let mut eff = PairEffect::default();
    pair_effect(st, me, a, b, &mut eff);
    if !eff.threats.is_empty() {
        PairKind::Threat
    } else if eff.windows_delta[op.index()][3] < 0 {
        PairKind::BreaksThree
    } else {
        PairKind::Quiet
    }
}

/// One visit of an interior node (depth ≥ 2) that searched a second pair.
struct Visit {
    /// The node's number of candidates.
    len: usize,
    /// The kind of each pair the search asked about, by `searched` (from 1: the first pair
    /// is never asked).
    kinds: Vec<PairKind>,
}

/// The visits a search made, and the open visit of each (position hash, depth).
#[derive(Default)]
struct Visits {
    all: Vec<Visit>,
    open: std::collections::HashMap<(u64, u32), usize>,
}

/// The engine's evaluator, recording every late-move question of the search (the search
/// asks about every pair of a node at depth ≥ 2 but the first), and answering with the
/// engine's own reduction (none on main).
struct LateMoveProbe {
    inner: Connect6Eval,
    visits: std::sync::Mutex<Visits>,
}

impl search::Evaluator<EnginePosition> for LateMoveProbe {
    fn evaluate(&self, pos: &EnginePosition) -> i32 {
        self.inner.evaluate(pos)
    }
    fn candidates(&self, pos: &EnginePosition, moves: &mut Vec<Move>) {
        self.inner.candidates(pos, moves);
    }
    fn forced_win(&self, pos: &mut EnginePosition, depth: u32) -> Option<search::ForcedWin<Move>> {
        self.inner.forced_win(pos, depth)
    }
    fn late_move_reduction(
        &self,
        pos: &EnginePosition,
        mv: Move,
        hint: i32,
        depth: u32,
        searched: usize,
    ) -> u32 {
        let kind = pair_kind(pos, mv);
        let mut guard = self.visits.lock().expect("probe lock");
        let Visits { all: visits, open } = &mut *guard;
        let key = (pos.hash(), depth);
        // The first question of a visit is about its second pair.
        if searched == 1 {
            let mut list = Vec::new();
            self.inner.candidates(pos, &mut list);
            open.insert(key, visits.len());
            visits.push(Visit {
                len: list.len(),
                kinds: Vec::new(),
            });
        }
        if let Some(&i) = open.get(&key) {
            let v = &mut visits[i];
            if v.kinds.len() + 1 == searched {
                v.kinds.push(kind);
            }
        }
        self.inner
            .late_move_reduction(pos, mv, hint, depth, searched)
    }
}

/// The measurement positions: the first 16 openings of Cloudict's book, and 4 more after a
/// few moves of the engine (3 turns at 3,000 nodes) from the next 4.
fn late_move_positions() -> Vec<(String, Connect6Position)> {
    let book = include_str!("../../../../data/openings/connect6-cloudict.txt");
    let mut out = Vec::new();
    for (i, line) in crate::test_support::book_lines(book).take(20).enumerate() {
        let mut pos = replay(line);
        let mut name = line.to_string();
        if i >= 16 {
            let mut agent = Connect6Position::engine(SearchOptions::default()).expect("engine");
            for _ in 0..3 {
                let r = agent.think(&pos, &Limits::new().with_nodes(3_000), &mut |_| {});
                let mv = r.best_move.expect("a move");
                name.push(' ');
                name.push_str(&pos.format_move(mv));
                pos = after(&pos, mv);
            }
        }
        out.push((name, pos));
    }
    out
}

/// The measurement of late moves (`docs/strength.md`, connect6, session 14): on the
/// positions of [`late_move_positions`], the depth the engine reaches at 500 ms a move
/// (`TimeControl::per_move`, as `go movetime 500`) with the nodes of each iteration, then a
/// search to `DEPTH` (default 6) with every late-move question recorded: of the nodes that
/// searched a second pair, which cut off and at which pair (by its kind), and how many
/// searched their whole list.
/// `cargo test --release -p boardlab-engines --lib measure_connect6_late_moves -- --ignored
/// --nocapture`.
#[test]
#[ignore = "a measurement run"]
fn measure_connect6_late_moves() {
    use search::{Searcher, TimeControl};
    let depth: u32 = std::env::var("DEPTH").map_or(6, |d| d.parse().expect("DEPTH"));
    // By the pair's place in the search (index 1: the second pair searched) and its kind:
    // the pairs asked about, and the cutoffs they made.
    let mut asked = vec![[0u64; 4]; engine::MAX_PAIRS];
    let mut cut = vec![[0u64; 4]; engine::MAX_PAIRS];
    let (mut visits_all, mut exhausted, mut total_nodes) = (0u64, 0u64, 0u64);
    let (mut beta, mut first) = (0u64, 0u64);
    for (name, pos) in late_move_positions() {
        let mut agent = Connect6Position::engine(SearchOptions::default()).expect("engine");
        let limits = Limits::new()
            .with_time_control(TimeControl::per_move(std::time::Duration::from_millis(500)));
        let mut iters = Vec::new();
        let r = agent.think(&pos, &limits, &mut |it| iters.push((it.depth, it.nodes)));
        let per_depth: Vec<String> = iters.iter().map(|(d, n)| format!("{d}:{n}")).collect();
        let probe = LateMoveProbe {
            inner: Connect6Eval::default(),
            visits: Default::default(),
        };
        let mut searcher = Searcher::new(probe, SearchOptions::default()).expect("searcher");
        let fixed = searcher.search_with(&wrap(&pos), &Limits::new().with_depth(depth), |_| {});
        let s = &fixed.stats;
        total_nodes += s.nodes;
        beta += s.beta_cutoffs;
        first += s.first_move_cutoffs;
        let visits = std::mem::take(&mut *searcher.evaluator().visits.lock().expect("lock")).all;
        for v in &visits {
            visits_all += 1;
            for (k, &kind) in v.kinds.iter().enumerate() {
                asked[(k + 1).min(engine::MAX_PAIRS - 1)][kind as usize] += 1;
            }
            // The last pair asked about cut off, unless it was the last of the list.
            match v.kinds.last() {
                Some(&kind) if v.kinds.len() + 1 < v.len => {
                    cut[v.kinds.len().min(engine::MAX_PAIRS - 1)][kind as usize] += 1;
                }
                _ => exhausted += 1,
            }
        }
        println!(
            "{name}: 500 ms depth {} nodes {} nps {} [{}]; depth {depth}: {} nodes, cutoffs {} (first {}), {} visits past the first pair",
            r.depth,
            r.stats.nodes,
            r.stats.nps,
            per_depth.join(" "),
            s.nodes,
            s.beta_cutoffs,
            s.first_move_cutoffs,
            visits.len()
        );
    }
    println!(
        "all: depth-{depth} nodes {total_nodes}, cutoffs {beta}, by the first pair {first}; {visits_all} visits past the first pair, {exhausted} searched every pair (or cut on the last)"
    );
    println!("pair searched (1 = second): asked {PAIR_KINDS:?} | cutoffs");
    for k in 1..engine::MAX_PAIRS {
        println!("{k:>2}: {:?} | {:?}", asked[k], cut[k]);
    }
}
