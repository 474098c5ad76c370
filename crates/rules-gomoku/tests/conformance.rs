//! The board-core conformance harness over random games, and proptest round-trips of every
//! notation (config specs, moves, position strings); parsers never panic.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns unwrap too

use board_core::{
    Notation, Outcome, Player, Position, Rules, Square,
    testing::{check_playout, check_random_playouts_with},
};
use proptest::{collection::vec, prelude::*};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rules_gomoku::{GomokuConfig, GomokuPosition, Move, Rule};

fn start(spec: &str) -> GomokuPosition {
    GomokuPosition::new(spec.parse().unwrap())
}

/// Probes each position with a random square, sometimes off the board.
fn any_square(pos: &GomokuPosition, rng: &mut ChaCha8Rng) -> Option<Move> {
    let cells = pos.geometry().cells() as u16;
    Some(Move(Square(rng.random_range(0..cells + cells / 8))))
}

#[test]
fn random_games_conform() {
    for (spec, seed, games) in [
        ("gomoku", 1, 3),
        ("gomoku:rule=exact5", 2, 3),
        ("gomoku:size=20", 3, 1),
        ("gomoku:size=26,rule=exact5", 4, 1),
        ("gomoku:size=5", 5, 60),
        ("gomoku:size=5,rule=exact5", 6, 60),
        ("gomoku:size=6", 7, 40),
        ("gomoku:size=7,rule=exact5", 8, 30),
        ("gomoku:size=9", 9, 10),
    ] {
        let pos = start(spec);
        let cells = pos.geometry().cells();
        let stats = check_random_playouts_with(&pos, seed, games, cells, any_square)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(stats.finished, games, "{spec}");
        assert!(stats.illegal_probes > 0);
    }
}

/// Plays move `choices[i] % n` at ply `i` while the game goes on.
fn playout(mut pos: GomokuPosition, choices: &[u32]) -> GomokuPosition {
    let mut moves = Vec::new();
    for &c in choices {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[c as usize % moves.len()]);
    }
    pos
}

fn any_config() -> impl Strategy<Value = GomokuConfig> {
    (
        5u32..=26,
        prop_oneof![Just(Rule::Freestyle), Just(Rule::Exact5)],
    )
        .prop_map(|(size, rule)| GomokuConfig::new(size, rule).unwrap())
}

fn small_config() -> impl Strategy<Value = GomokuConfig> {
    (
        5u32..=8,
        prop_oneof![Just(Rule::Freestyle), Just(Rule::Exact5)],
    )
        .prop_map(|(size, rule)| GomokuConfig::new(size, rule).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn conformance(choices in vec(any::<u32>(), 0..200)) {
        let pos = GomokuPosition::new(GomokuConfig::default());
        check_playout(&pos, &choices).unwrap();
    }

    #[test]
    fn conformance_on_any_board(config in small_config(), choices in vec(any::<u32>(), 0..70)) {
        check_playout(&GomokuPosition::new(config), &choices).unwrap();
    }

    #[test]
    fn config_specs_round_trip(config in any_config()) {
        let text = config.to_string();
        prop_assert_eq!(text.parse::<GomokuConfig>(), Ok(config));
        prop_assert_eq!(text.to_uppercase().parse::<GomokuConfig>(), Ok(config));
        let swapped = format!("gomoku:rule={},size={}", config.rule(), config.size());
        prop_assert_eq!(swapped.parse::<GomokuConfig>(), Ok(config));
    }

    #[test]
    fn moves_round_trip(config in any_config(), raw in any::<u16>()) {
        let pos = GomokuPosition::new(config);
        let mv = Move(Square(raw % pos.geometry().cells() as u16));
        let text = pos.format_move(mv);
        prop_assert_eq!(&text, &text.to_lowercase());
        prop_assert_eq!(pos.parse_move(&text), Ok(mv));
        prop_assert_eq!(pos.parse_move(&format!(" {} ", text.to_uppercase())), Ok(mv));
    }

    #[test]
    fn position_strings_round_trip(config in any_config(), choices in vec(any::<u32>(), 0..300)) {
        let pos = playout(GomokuPosition::new(config), &choices);
        let text = pos.to_position_string();
        let back = GomokuPosition::from_position_string(config, &text).unwrap();
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(back.hash(), pos.hash());
        prop_assert_eq!(back.outcome_reason(), pos.outcome_reason());
        prop_assert_eq!(back.to_position_string(), text);
    }

    /// Random 5x5 boards with plausible stone counts (stones coloured x, o, x, … in square
    /// order): reading never panics, and what is accepted is consistent.
    #[test]
    fn random_boards_read_consistently(mut cells in vec(0u8..3, 25), exact in any::<bool>()) {
        let mut colour = 1;
        for c in cells.iter_mut().filter(|c| **c != 0) {
            *c = colour;
            colour = 3 - colour;
        }
        let config = GomokuConfig::new(5, if exact { Rule::Exact5 } else { Rule::Freestyle }).unwrap();
        let rows: Vec<String> = cells
            .chunks(5)
            .rev()
            .map(|row| {
                let mut s = String::new();
                let mut run = 0;
                for &c in row {
                    if c == 0 {
                        run += 1;
                        continue;
                    }
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push(if c == 1 { 'x' } else { 'o' });
                }
                if run > 0 {
                    s.push_str(&run.to_string());
                }
                s
            })
            .collect();
        let (x, o) = (
            cells.iter().filter(|&&c| c == 1).count(),
            cells.iter().filter(|&&c| c == 2).count(),
        );
        let side = if x == o { 'x' } else { 'o' };
        let text = format!("{} {side} {}", rows.join("/"), x + o);
        match GomokuPosition::from_position_string(config, &text) {
            Ok(pos) => {
                prop_assert!(x == o || x == o + 1);
                prop_assert_eq!(pos.to_position_string(), text);
                prop_assert_eq!(pos.hash(), pos.compute_hash());
                match pos.outcome() {
                    Some(Outcome::Win(p)) => {
                        prop_assert_eq!(p, pos.side_to_move().other());
                        prop_assert!(pos.winning_line().is_some());
                    }
                    Some(Outcome::Draw) => prop_assert_eq!(x + o, 25),
                    None => prop_assert!(x + o < 25),
                }
                check_playout(&pos, &cells.iter().map(|&c| c as u32 * 7919).collect::<Vec<_>>())
                    .unwrap();
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn parsers_never_panic(s in "\\PC{0,40}", t in "[xoXO0-9/ ]{0,40}") {
        let pos = GomokuPosition::new(GomokuConfig::new(5, Rule::Freestyle).unwrap());
        let _ = pos.parse_move(&s);
        let _ = s.parse::<GomokuConfig>();
        let _ = GomokuPosition::from_position_string(*pos.config(), &s);
        let _ = GomokuPosition::from_position_string(*pos.config(), &t);
        let _ = format!("gomoku:{s}").parse::<GomokuConfig>();
    }

    #[test]
    fn validate_accepts_exactly_the_empty_squares(
        config in small_config(),
        choices in vec(any::<u32>(), 0..40),
        raw in any::<u16>(),
    ) {
        let mut pos = playout(GomokuPosition::new(config), &choices);
        let mv = Move(Square(raw % 1024));
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        prop_assert_eq!(pos.validate(&mv).is_ok(), moves.contains(&mv));
        let legal = pos.outcome().is_none() && pos.is_empty_square(mv.square());
        prop_assert_eq!(pos.validate(&mv).is_ok(), legal);
        let before = pos.clone();
        if pos.play(mv).is_err() {
            prop_assert_eq!(&pos, &before);
            prop_assert_eq!(pos.hash(), before.hash());
        } else {
            prop_assert_eq!(pos.stone_at(mv.square()), Some(before.side_to_move()));
            prop_assert_eq!(pos.side_to_move(), before.side_to_move().other());
            prop_assert!(pos.side_to_move() != Player::First || pos.ply().is_multiple_of(2));
        }
    }
}
