//! The crate against the naive reference in `reference/mod.rs`: move lists, outcomes,
//! position strings, perft and divide, from the start and from many random positions
//! (seeded playouts that favour captures, run up to the end of the game).

#![allow(clippy::unwrap_used)]

mod reference;

use board_core::{Notation, Outcome, Player, Position, Rules, divide, perft};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{RefConfig, RefGame, RefMove, RefOutcome};
use rules_clamp::{ClampConfig, ClampPosition, EndReason};

fn configs(spec: &str) -> (ClampConfig, RefConfig) {
    let c: ClampConfig = spec.parse().unwrap();
    let r = RefConfig {
        size: c.size() as usize,
        zone: c.zone() as usize,
        max_on_board: c.max_on_board() as usize,
        quiet_limit: c.quiet_limit(),
        adjudicate: c.adjudicate(),
        supply: c.supply(),
    };
    (c, r)
}

fn outcome_of(o: Option<RefOutcome>) -> Option<Outcome> {
    o.map(|o| match o {
        RefOutcome::BlackWins => Outcome::Win(Player::First),
        RefOutcome::WhiteWins => Outcome::Win(Player::Second),
        RefOutcome::Draw => Outcome::Draw,
    })
}

fn move_names(pos: &ClampPosition) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    v.sort();
    v
}

fn sorted_divide(pos: &mut ClampPosition, depth: u32) -> Vec<(String, u64)> {
    let d = divide(pos, depth);
    let mut v: Vec<(String, u64)> = d
        .into_iter()
        .map(|(m, n)| (pos.format_move(m), n))
        .collect();
    v.sort();
    v
}

/// Compares everything observable about one position.
fn compare(pos: &ClampPosition, r: &RefGame, context: &str) {
    assert_eq!(pos.to_position_string(), r.position_string(), "{context}");
    assert_eq!(pos.outcome(), outcome_of(r.outcome()), "{context}");
    assert_eq!(move_names(pos), r.move_names(), "{context}");
    assert_eq!(pos.count_moves(), r.legal_moves().len() as u64, "{context}");
    let back = ClampPosition::from_position_string(*pos.config(), &r.position_string()).unwrap();
    assert_eq!(&back, pos, "{context}");
    assert_eq!(back.hash(), pos.hash(), "{context}");
}

fn check_perft(spec: &str, position: &str, max_depth: u32) -> Vec<u64> {
    let (c, rc) = configs(spec);
    let mut pos = ClampPosition::from_position_string(c, position).unwrap();
    let r = RefGame::from_string(rc, position);
    compare(&pos, &r, &format!("{spec} {position}"));
    let mut figures = Vec::new();
    for depth in 0..=max_depth {
        let n = perft(&mut pos, depth);
        assert_eq!(n, r.perft(depth), "{spec} '{position}' perft({depth})");
        figures.push(n);
    }
    if max_depth >= 2 {
        assert_eq!(
            sorted_divide(&mut pos, 2),
            r.divide(2),
            "{spec} '{position}' divide(2)"
        );
    }
    figures
}

/// How the random games pick their moves.
#[derive(Clone, Copy, Debug)]
enum Policy {
    /// A capture with probability `bias` when one exists; after `biased_plies` plies only
    /// quiet moves, so every game ends (quiet limit or blockade) from a late position.
    Mixed { bias: f64, biased_plies: usize },
    /// Drops nine times out of ten: the board fills up until someone is blocked.
    FillUp,
    /// Black captures whenever it can, White plays uniformly: eliminations.
    Hunt,
}

impl Policy {
    fn choose(self, r: &RefGame, rng: &mut ChaCha8Rng) -> RefMove {
        let moves = r.legal_moves();
        let pick = |v: &[RefMove], rng: &mut ChaCha8Rng| v[rng.random_range(0..v.len())];
        let (capturing, quiet): (Vec<RefMove>, Vec<RefMove>) =
            moves.iter().partition(|&&m| r.captures_of(m) > 0);
        match self {
            Policy::Mixed { bias, biased_plies } => {
                if r.ply as usize >= biased_plies && !quiet.is_empty() {
                    pick(&quiet, rng)
                } else if !capturing.is_empty() && rng.random_bool(bias) {
                    pick(&capturing, rng)
                } else {
                    pick(&moves, rng)
                }
            }
            Policy::FillUp => {
                let drops: Vec<RefMove> = moves
                    .iter()
                    .copied()
                    .filter(|m| matches!(m, RefMove::Drop(..)))
                    .collect();
                if !drops.is_empty() && rng.random_bool(0.9) {
                    pick(&drops, rng)
                } else {
                    pick(&moves, rng)
                }
            }
            Policy::Hunt => {
                if r.to_move == reference::BLACK && !capturing.is_empty() {
                    pick(&capturing, rng)
                } else {
                    pick(&moves, rng)
                }
            }
        }
    }
}

/// What a batch of random games covered.
#[derive(Debug, Default)]
struct Coverage {
    positions: usize,
    captures: usize,
    finished: usize,
    no_pieces: usize,
    no_moves: usize,
    quiet_limit: usize,
}

/// Plays seeded random games with the reference choosing the moves, comparing the two at
/// every ply, and perft to `perft_depth` (plus divide(2)) at every `perft_every`-th ply.
fn random_games(
    spec: &str,
    seed: u64,
    games: usize,
    policy: Policy,
    perft_every: u32,
    perft_depth: u32,
) -> Coverage {
    let (c, rc) = configs(spec);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cov = Coverage::default();
    for game in 0..games {
        let mut pos = ClampPosition::new(c);
        let mut r = RefGame::new(rc);
        let mut history = Vec::new();
        loop {
            let context = format!("{spec} game {game} after [{}]", history.join(" "));
            compare(&pos, &r, &context);
            cov.positions += 1;
            if perft_every > 0 && r.ply % perft_every == perft_every - 1 {
                for depth in 1..=perft_depth {
                    assert_eq!(
                        perft(&mut pos, depth),
                        r.perft(depth),
                        "{context}: perft({depth})"
                    );
                }
                assert_eq!(
                    sorted_divide(&mut pos, 2),
                    r.divide(2),
                    "{context}: divide(2)"
                );
            }
            if r.legal_moves().is_empty() {
                cov.finished += 1;
                match pos.end_reason() {
                    Some(EndReason::NoPieces) => cov.no_pieces += 1,
                    Some(EndReason::NoMoves) => cov.no_moves += 1,
                    Some(EndReason::QuietLimit) => cov.quiet_limit += 1,
                    None => panic!("{context}: no moves but no end reason"),
                }
                // A finished position still compares at perft 0..2 (1, 0, 0).
                assert_eq!(perft(&mut pos, 2), 0, "{context}");
                break;
            }
            let m = policy.choose(&r, &mut rng);
            let name = RefGame::format_move(m);
            let mv = pos.parse_move(&name).unwrap();
            let expected = r.captures_of(m);
            assert_eq!(
                pos.capture_count(mv) as usize,
                expected,
                "{context}: {name}"
            );
            let undo = pos.play(mv).unwrap();
            assert_eq!(undo.captures() as usize, expected, "{context}: {name}");
            cov.captures += expected;
            r.play(m);
            history.push(name);
        }
    }
    eprintln!("{spec} {policy:?}: {cov:?}");
    cov
}

#[test]
fn start_perft_default_matches_reference() {
    let (c, _) = configs("clamp");
    let start = ClampPosition::new(c).to_position_string();
    let figures = check_perft("clamp", &start, 4);
    assert_eq!(figures, [1, 72, 5_118, 363_710, 25_655_092]);
}

#[test]
fn start_perft_small_and_odd_configs_match_reference() {
    for (spec, depth) in [
        ("clamp:size=6", 4),
        ("clamp:size=6,zone=1", 4),
        ("clamp:size=6,max_on_board=4", 4),
        ("clamp:size=6,zone=3,max_on_board=36", 3),
        ("clamp:quiet_limit=3", 4),
        ("clamp:size=6,quiet_limit=2,adjudicate=true", 4),
        ("clamp:size=8,zone=4,max_on_board=64", 3),
        ("clamp:size=10,zone=2", 3),
        ("clamp:size=12,zone=1,max_on_board=6", 3),
        ("clamp:size=18,zone=2,max_on_board=5", 2),
        ("clamp:size=26,zone=1,max_on_board=4", 2),
    ] {
        let (c, _) = configs(spec);
        let start = ClampPosition::new(c).to_position_string();
        check_perft(spec, &start, depth);
    }
}

#[test]
fn perft_across_the_quiet_limit() {
    // quiet_limit=3: every sequence of three quiet moves ends the game, so perft(4) counts
    // only the lines with a capture in the first three plies.
    let (c, _) = configs("clamp:quiet_limit=3");
    let start = ClampPosition::new(c).to_position_string();
    let f = check_perft("clamp:quiet_limit=3", &start, 4);
    assert!(f[4] < f[3] * 60, "the limit must cut perft(4): {f:?}");
    // A position with captures available, one quiet move from the limit.
    check_perft(
        "clamp:quiet_limit=3,adjudicate=true",
        "8/8/2X5/3O4/8/2X2X2/3O4/8 x 2 2",
        3,
    );
}

#[test]
fn perft_of_positions_with_captures_and_full_zones() {
    for (spec, position, depth) in [
        // Several captures available, including a double.
        ("clamp", "8/8/2X1X3/3O4/2O1O3/8/3X4/8 x 4 10", 3),
        // A White piece ringed by Black pieces two squares away: up to 8 captures.
        (
            "clamp",
            "8/1X1X1X2/2OOO3/1XO1OX2/2OOO3/1X1X1X2/8/8 x 0 0",
            3,
        ),
        // Black at max_on_board (no drops), White able to drop.
        (
            "clamp:max_on_board=6",
            "8/2XXXX2/8/2X2X2/8/2OOOO2/8/8 x 3 12",
            3,
        ),
        // Black's zone full, zone=1 on 6×6.
        (
            "clamp:size=6,zone=1,max_on_board=8",
            "XXXXXX/6/6/6/1OOOO1/6 o 5 5",
            3,
        ),
        // Nearly blocked position.
        (
            "clamp:size=6,max_on_board=20",
            "XXXXXX/XOOOOX/XOXXOX/XOOOOX/X4X/6 o 7 9",
            3,
        ),
        // A finite supply: Black has one piece left in hand, White none.
        (
            "clamp:supply=5",
            "8/2X5/2XXXX2/8/8/2OOOO2/8/8 x 3 12 1 0",
            3,
        ),
        // Black without pieces in hand on 6×6 (a setup): steps only.
        (
            "clamp:size=6,supply=2",
            "6/6/1XXXX1/1OOOO1/6/6 x 0 0 0 2",
            3,
        ),
        // Finished positions: no pieces; no moves; quiet limit.
        ("clamp", "8/8/2XXXX2/8/8/8/8/8 o 0 5", 2),
        ("clamp:size=6,max_on_board=4", "XO4/OX4/6/6/6/6 x 1 4", 2),
        ("clamp", "8/8/2XXXX2/8/8/2OOOO2/8/8 x 80 80", 2),
    ] {
        check_perft(spec, position, depth);
    }
}

#[test]
fn random_games_match_reference_default() {
    let policy = Policy::Mixed {
        bias: 0.5,
        biased_plies: 160,
    };
    let cov = random_games("clamp", 1, 6, policy, 7, 2);
    assert!(cov.captures > 50, "{cov:?}");
    assert_eq!(cov.finished, 6);
}

#[test]
fn random_games_match_reference_small_boards() {
    let policy = Policy::Mixed {
        bias: 0.5,
        biased_plies: 100,
    };
    for (i, spec) in [
        "clamp:size=6",
        "clamp:size=6,zone=1,quiet_limit=30",
        "clamp:size=6,max_on_board=4,quiet_limit=25,adjudicate=true",
        "clamp:size=6,zone=3,max_on_board=36,quiet_limit=40",
        "clamp:size=6,quiet_limit=5,adjudicate=true",
    ]
    .into_iter()
    .enumerate()
    {
        let cov = random_games(spec, 100 + i as u64, 5, policy, 11, 3);
        assert_eq!(cov.finished, 5, "{spec}");
        assert!(cov.captures > 0, "{spec}");
    }
}

#[test]
fn random_games_match_reference_other_sizes() {
    let policy = Policy::Mixed {
        bias: 0.6,
        biased_plies: 120,
    };
    for (i, spec) in [
        "clamp:quiet_limit=3",
        "clamp:max_on_board=4,quiet_limit=40,adjudicate=true",
        "clamp:zone=4,max_on_board=64,quiet_limit=30",
        "clamp:size=10,zone=5,quiet_limit=40",
        "clamp:size=12,zone=6,max_on_board=20,quiet_limit=30",
        "clamp:size=16,zone=8,max_on_board=40,quiet_limit=20",
        "clamp:size=18,zone=9,max_on_board=30,quiet_limit=20",
        "clamp:size=26,zone=13,max_on_board=30,quiet_limit=15",
    ]
    .into_iter()
    .enumerate()
    {
        random_games(spec, 200 + i as u64, 3, policy, 9, 2);
    }
}

/// The supply variant and the adjudication's centre tie-break, played to the end on both
/// implementations (the reference counts the hands and the centre block its own way).
#[test]
fn random_games_match_reference_variants() {
    let policy = Policy::Mixed {
        bias: 0.5,
        biased_plies: 120,
    };
    let mut quiet_ends = 0;
    for (i, spec) in [
        "clamp:supply=12,adjudicate=true",
        "clamp:supply=8,adjudicate=true,quiet_limit=30",
        "clamp:supply=16",
        "clamp:supply=0,quiet_limit=40,adjudicate=true",
        "clamp:size=6,supply=3,quiet_limit=20,adjudicate=true",
        "clamp:size=6,zone=1,supply=5,max_on_board=6,quiet_limit=30",
        "clamp:size=10,zone=5,supply=10,quiet_limit=25,adjudicate=true",
        "clamp:size=6,quiet_limit=6,adjudicate=true",
    ]
    .into_iter()
    .enumerate()
    {
        let cov = random_games(spec, 500 + i as u64, 5, policy, 9, 2);
        assert_eq!(cov.finished, 5, "{spec}");
        quiet_ends += cov.quiet_limit;
    }
    assert!(quiet_ends >= 10, "too few adjudicated ends: {quiet_ends}");
}

/// Games where both hands run dry: random play that drops whenever it can.
#[test]
fn random_games_that_use_up_the_supply() {
    for (i, spec) in [
        "clamp:size=6,supply=4,quiet_limit=1000",
        "clamp:supply=6,quiet_limit=60,adjudicate=true",
    ]
    .into_iter()
    .enumerate()
    {
        let cov = random_games(spec, 600 + i as u64, 6, Policy::FillUp, 5, 2);
        assert_eq!(cov.finished, 6, "{spec}");
    }
}

/// The supply figures pinned in `tests/variants.rs` and the crate docs, recomputed by the
/// reference.
#[test]
fn variant_perft_matches_reference() {
    for (spec, position, depth, expected) in [
        ("clamp:supply=0", None, 3, &[1, 52, 2_638, 127_736][..]),
        ("clamp:supply=1", None, 3, &[1, 72, 5_118, 336_350][..]),
        ("clamp:supply=12", None, 3, &[1, 72, 5_118, 363_710][..]),
        (
            "clamp:size=6,supply=0",
            None,
            4,
            &[1, 26, 790, 23_942, 782_414][..],
        ),
        (
            "clamp:supply=5",
            Some("8/2X5/2XXXX2/8/8/2OOOO2/8/8 x 3 12 1 0"),
            3,
            &[1, 76, 3_885, 274_831][..],
        ),
    ] {
        let (c, _) = configs(spec);
        let text = position.map_or_else(
            || ClampPosition::new(c).to_position_string(),
            str::to_string,
        );
        assert_eq!(check_perft(spec, &text, depth), expected, "{spec}");
    }
}

#[test]
fn random_games_that_end_in_blockades() {
    let mut no_moves = 0;
    for (i, spec) in [
        "clamp:size=6,zone=3,max_on_board=36,quiet_limit=1000",
        "clamp:size=6,zone=2,max_on_board=20,quiet_limit=1000",
        "clamp:zone=4,max_on_board=64,quiet_limit=1000",
    ]
    .into_iter()
    .enumerate()
    {
        let cov = random_games(spec, 300 + i as u64, 6, Policy::FillUp, 4, 2);
        assert_eq!(cov.finished, 6, "{spec}");
        no_moves += cov.no_moves;
    }
    assert!(no_moves >= 3, "too few blockades: {no_moves}");
}

#[test]
fn random_games_that_end_in_eliminations() {
    let mut no_pieces = 0;
    for (i, spec) in [
        "clamp:size=6,max_on_board=4,quiet_limit=200",
        "clamp:size=6,zone=2,max_on_board=4,quiet_limit=200",
        "clamp:size=6,zone=1,max_on_board=5,quiet_limit=200",
    ]
    .into_iter()
    .enumerate()
    {
        let cov = random_games(spec, 400 + i as u64, 6, Policy::Hunt, 6, 2);
        assert_eq!(cov.finished, 6, "{spec}");
        no_pieces += cov.no_pieces;
    }
    assert!(no_pieces >= 3, "too few eliminations: {no_pieces}");
}

#[test]
fn random_games_without_capture_bias_reach_the_quiet_limit() {
    let policy = Policy::Mixed {
        bias: 0.0,
        biased_plies: usize::MAX,
    };
    let cov = random_games("clamp:quiet_limit=20", 7, 10, policy, 0, 0);
    assert_eq!(cov.finished, 10);
    assert_eq!(cov.quiet_limit, 10);
}

/// Prints perft figures (crate and reference) for positions reached by seeded playouts:
/// how the figures in `tests/perft.rs` were produced. Run with `--ignored --nocapture`.
#[test]
#[ignore]
fn print_figures() {
    for (spec, seed, plies, depth) in [
        ("clamp", 11u64, 12usize, 4u32),
        ("clamp", 12, 40, 4),
        ("clamp", 13, 90, 4),
        ("clamp:size=6", 14, 30, 4),
        ("clamp:quiet_limit=3", 15, 0, 5),
        ("clamp:size=6,quiet_limit=4,adjudicate=true", 16, 0, 5),
        ("clamp:max_on_board=4", 17, 0, 4),
        ("clamp:size=10,zone=5", 18, 20, 3),
        ("clamp:size=26,zone=13,max_on_board=12", 19, 10, 2),
    ] {
        let (c, rc) = configs(spec);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let policy = Policy::Mixed {
            bias: 0.8,
            biased_plies: usize::MAX,
        };
        let mut r = RefGame::new(rc);
        while (r.ply as usize) < plies && !r.legal_moves().is_empty() {
            let m = policy.choose(&r, &mut rng);
            r.play(m);
        }
        let s = r.position_string();
        let mut pos = ClampPosition::from_position_string(c, &s).unwrap();
        let fast: Vec<u64> = (0..=depth).map(|d| perft(&mut pos, d)).collect();
        let slow: Vec<u64> = (0..=depth).map(|d| r.perft(d)).collect();
        println!("(\"{spec}\", \"{s}\", &{fast:?}), // reference {slow:?}");
        assert_eq!(fast, slow);
    }
}

/// perft(5) from the default start, crate against reference (takes minutes).
#[test]
#[ignore]
fn reference_perft_5_from_start() {
    let (c, rc) = configs("clamp");
    let mut pos = ClampPosition::new(c);
    let r = RefGame::new(rc);
    let fast = perft(&mut pos, 5);
    let slow = r.perft(5);
    println!("perft(5) = {fast} (reference {slow})");
    assert_eq!(fast, slow);
}
