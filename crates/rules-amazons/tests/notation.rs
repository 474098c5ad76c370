//! Config spec strings, move notation and position strings: parsing, errors, round trips.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use board_core::{GameConfig, Notation, Position, Rules, SpecError, Square};
use proptest::{collection::vec, prelude::*};
use rules_amazons::{AmazonsConfig, AmazonsMove, AmazonsPosition};

// ----- config -----

#[test]
fn config_defaults_and_keys() {
    assert_eq!(AmazonsConfig::GAME_ID, "amazons");
    let d = AmazonsConfig::default();
    assert_eq!(d.size(), 10);
    assert_eq!(d.to_string(), "amazons:size=10");
    assert_eq!("amazons".parse::<AmazonsConfig>(), Ok(d));
    assert_eq!("amazons:".parse::<AmazonsConfig>(), Ok(d));
    assert_eq!("amazons:size=10".parse::<AmazonsConfig>(), Ok(d));
    let s: AmazonsConfig = " AMAZONS : Size = 8 ".parse().unwrap();
    assert_eq!(s.size(), 8);
    assert_eq!(s, AmazonsConfig::SMALL);
    assert_eq!(s.to_string(), "amazons:size=8");
    assert_eq!(AmazonsConfig::new(10), Ok(AmazonsConfig::STANDARD));
}

#[test]
fn config_errors_name_the_key_and_range() {
    let err = |s: &str| s.parse::<AmazonsConfig>().unwrap_err();
    for bad in ["9", "12", "0", "6", "26", "99999999999"] {
        let e = err(&format!("amazons:size={bad}"));
        assert!(matches!(e, SpecError::OutOfRange { .. }), "{bad}: {e:?}");
        assert_eq!(
            e.to_string(),
            format!("size={bad} is out of range: expected 8 or 10")
        );
    }
    let e = err("amazons:size=ten");
    assert_eq!(e.to_string(), "size=ten is not valid: expected 8 or 10");
    let e = err("amazons:size=-8");
    assert!(matches!(e, SpecError::BadValue { .. }));
    let e = err("amazons:queens=4");
    assert_eq!(
        e.to_string(),
        "unknown key 'queens' for amazons: expected one of size"
    );
    let e = err("amazons:size=8,size=10");
    assert!(matches!(e, SpecError::Duplicate { .. }));
    let e = err("gomoku:size=8");
    assert_eq!(
        e.to_string(),
        "unknown game 'gomoku': expected one of amazons"
    );
    assert_eq!(err(""), SpecError::Empty);
    assert!(matches!(err("amazons:size"), SpecError::Syntax { .. }));
    assert_eq!(
        AmazonsConfig::new(9).unwrap_err().to_string(),
        "size=9 is out of range: expected 8 or 10"
    );
}

// ----- round trips -----

fn any_config() -> impl Strategy<Value = AmazonsConfig> {
    prop_oneof![Just(AmazonsConfig::STANDARD), Just(AmazonsConfig::SMALL)]
}

/// A position reached by a random playout.
fn any_position() -> impl Strategy<Value = AmazonsPosition> {
    (any_config(), vec(any::<u32>(), 0..60)).prop_map(|(config, choices)| {
        let mut pos = AmazonsPosition::new(config);
        let mut moves = Vec::new();
        for c in choices {
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[c as usize % moves.len()]);
        }
        pos
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn config_round_trips(config in any_config(), upper in any::<bool>()) {
        let text = config.to_string();
        let text = if upper { text.to_uppercase() } else { text };
        prop_assert_eq!(text.parse::<AmazonsConfig>(), Ok(config));
    }

    #[test]
    fn moves_round_trip(config in any_config(), a in 0u16..100, b in 0u16..100, c in 0u16..100) {
        let pos = AmazonsPosition::new(config);
        let cells = (config.size() * config.size()) as u16;
        let m = AmazonsMove::new(Square(a % cells), Square(b % cells), Square(c % cells));
        let text = pos.format_move(m);
        prop_assert_eq!(&text, &text.to_lowercase());
        prop_assert_eq!(pos.parse_move(&text), Ok(m));
        prop_assert_eq!(pos.parse_move(&text.to_uppercase()), Ok(m));
        let spaced = format!(" {} ", text.replace(['-', '/'], " "));
        prop_assert_eq!(pos.parse_move(&spaced), Ok(m));
    }

    #[test]
    fn position_strings_round_trip(pos in any_position()) {
        let text = pos.to_position_string();
        let back = AmazonsPosition::from_position_string(*pos.config(), &text).unwrap();
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(back.hash(), pos.hash());
        prop_assert_eq!(back.to_position_string(), text);
        prop_assert_eq!(back.outcome(), pos.outcome());
    }

    #[test]
    fn parsers_never_panic(s in "\\PC{0,40}", config in any_config()) {
        let pos = AmazonsPosition::new(config);
        let _ = pos.parse_move(&s);
        let _ = AmazonsPosition::from_position_string(config, &s);
        let _ = s.parse::<AmazonsConfig>();
    }

    #[test]
    fn mangled_position_strings_never_panic(
        pos in any_position(),
        at in any::<usize>(),
        ch in prop::sample::select(vec!['w', 'b', 'x', '1', '0', '9', '/', ' ', 'q', '2']),
    ) {
        let mut text: Vec<char> = pos.to_position_string().chars().collect();
        let i = at % text.len();
        text[i] = ch;
        let text: String = text.into_iter().collect();
        if let Ok(back) = AmazonsPosition::from_position_string(*pos.config(), &text) {
            prop_assert_eq!(back.to_position_string().split(' ').count(), 3);
            prop_assert_eq!(back.hash(), back.compute_hash());
        }
    }
}
