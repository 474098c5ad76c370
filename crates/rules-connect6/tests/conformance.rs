//! The board-core conformance harness on several board sizes (seeded playouts with random
//! probes, and proptest-driven playouts), plus proptest round-trips of the notations.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use board_core::{
    Notation, Position, Rules, Square,
    testing::{check_playout, check_random_playouts_with},
};
use proptest::{collection::vec, prelude::*};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rules_connect6::{Connect6Config, Connect6Position, Move};

fn start(size: u32) -> Connect6Position {
    Connect6Position::new(Connect6Config::new(size).unwrap())
}

/// Random probes: singles, pairs, same-square pairs, now and then a square just off the
/// board (mostly illegal moves, so refusals are exercised).
fn sampler(pos: &Connect6Position, rng: &mut ChaCha8Rng) -> Option<Move> {
    let cells = pos.geometry().cells() as u16;
    let mut square = || Square(rng.random_range(0..cells + 2));
    let a = square();
    let b = square();
    Some(match a.0 % 4 {
        0 => Move::single(b),
        1 => Move::pair(a, a),
        _ => Move::pair(a, b),
    })
}

/// A game lasts at most 1 + (cells - 1) / 2 + 1 plies.
fn max_plies(size: u32) -> usize {
    (size * size) as usize / 2 + 2
}

#[test]
fn harness_small_boards() {
    for (size, seed, games) in [(6, 11, 200), (7, 12, 100), (8, 13, 40), (11, 14, 8)] {
        let stats = check_random_playouts_with(&start(size), seed, games, max_plies(size), sampler)
            .unwrap_or_else(|e| panic!("{size}x{size}: {e}"));
        assert_eq!(stats.playouts, games);
        assert_eq!(stats.finished, games, "every playout reaches the end");
        assert!(stats.illegal_probes > 0);
    }
}

#[test]
fn harness_19x19() {
    let stats = check_random_playouts_with(&start(19), 21, 2, max_plies(19), sampler)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stats.finished, 2);
}

#[test]
fn harness_26x26_opening() {
    // 228,150 pairs per position: a short playout only.
    let choices: Vec<u32> = (0..6).map(|i| i * 7_919 + 13).collect();
    check_playout(&start(26), &choices).unwrap_or_else(|e| panic!("{e}"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn conformance_6x6(choices in vec(any::<u32>(), 0..200)) {
        let pos = start(6);
        check_playout(&pos, &choices).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }

    #[test]
    fn conformance_7x7(choices in vec(any::<u32>(), 0..200)) {
        let pos = start(7);
        check_playout(&pos, &choices).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn conformance_19x19_opening(choices in vec(any::<u32>(), 0..12)) {
        let pos = start(19);
        check_playout(&pos, &choices).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
}

/// Plays `choices` (each taken modulo the number of legal moves) from the start.
fn playout(size: u32, choices: &[u32]) -> Connect6Position {
    let mut pos = start(size);
    let mut moves = Vec::new();
    for &c in choices {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        pos.make_move(m);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn config_spec_round_trips(size in 6u32..=26, upper in any::<bool>(), spaces in any::<bool>()) {
        let c = Connect6Config::new(size).unwrap();
        let canonical = c.to_string();
        prop_assert_eq!(canonical.parse::<Connect6Config>(), Ok(c));
        let mut text = format!("connect6:size={size}");
        if upper { text = text.to_uppercase(); }
        if spaces { text = format!("  {}  ", text.replace(':', " : ").replace('=', " = ")); }
        prop_assert_eq!(text.parse::<Connect6Config>(), Ok(c));
    }

    #[test]
    fn config_parse_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<Connect6Config>();
        let _ = format!("connect6:{s}").parse::<Connect6Config>();
    }

    #[test]
    fn move_notation_round_trips(
        size in 6u32..=26,
        a in 0u16..676,
        b in 0u16..676,
        single in any::<bool>(),
        upper in any::<bool>(),
        spaced in any::<bool>(),
    ) {
        let pos = start(size);
        let cells = (size * size) as u16;
        let (a, b) = (Square(a % cells), Square(b % cells));
        let m = if single { Move::single(a) } else { Move::pair(a, b) };
        let text = pos.format_move(m);
        prop_assert_eq!(text.clone(), text.to_lowercase());
        prop_assert_eq!(pos.parse_move(&text), Ok(m));
        let mut variant = if upper { text.to_uppercase() } else { text.clone() };
        if spaced { variant = variant.replace(',', " "); }
        prop_assert_eq!(pos.parse_move(&format!(" {variant} ")), Ok(m));
        // Either order of a pair reads as the same move.
        if let Some(second) = m.second() {
            let swapped = format!(
                "{},{}",
                pos.geometry().format_square(second),
                pos.geometry().format_square(m.first())
            );
            prop_assert_eq!(pos.parse_move(&swapped), Ok(m));
        }
    }

    #[test]
    fn move_parse_never_panics(s in "\\PC{0,20}", size in 6u32..=26) {
        let pos = start(size);
        if let Ok(m) = pos.parse_move(&s) {
            // Whatever parses prints back to something that parses to the same move.
            prop_assert_eq!(pos.parse_move(&pos.format_move(m)), Ok(m));
            let _ = pos.validate(&m);
        }
    }

    #[test]
    fn position_string_round_trips(size in 6u32..=9, choices in vec(any::<u32>(), 0..60)) {
        let pos = playout(size, &choices);
        let text = pos.to_position_string();
        let back = Connect6Position::from_position_string(*pos.config(), &text);
        prop_assert_eq!(back.as_ref(), Ok(&pos));
        let back = back.unwrap();
        prop_assert_eq!(back.hash(), pos.hash());
        prop_assert_eq!(back.outcome(), pos.outcome());
        prop_assert_eq!(back.to_position_string(), text.clone());
        // Upper-case letters read the same.
        let upper = Connect6Position::from_position_string(*pos.config(), &text.to_uppercase());
        prop_assert_eq!(upper.as_ref(), Ok(&pos));
    }

    #[test]
    fn position_string_parse_never_panics(s in "[xoXO0-9/ ]{0,60}|\\PC{0,60}") {
        for size in [6, 7] {
            let config = Connect6Config::new(size).unwrap();
            if let Ok(p) = Connect6Position::from_position_string(config, &s) {
                let again = Connect6Position::from_position_string(config, &p.to_position_string());
                prop_assert_eq!(again.as_ref(), Ok(&p));
            }
        }
    }
}
