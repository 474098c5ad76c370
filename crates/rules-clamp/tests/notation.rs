//! Config spec strings, move notation and position strings: parsing, errors, round trips.

#![allow(clippy::unwrap_used)]

use board_core::{Notation, Player, Position, Rules, SpecError, Square};
use proptest::prelude::*;
use rules_clamp::{ClampConfig, ClampPosition, Move};

// ---------------------------------------------------------------- config

#[test]
fn config_defaults() {
    let c = ClampConfig::default();
    assert_eq!(
        (
            c.size(),
            c.zone(),
            c.start(),
            c.max_on_board(),
            c.quiet_limit(),
            c.adjudicate()
        ),
        (8, 3, 4, 10, 80, false)
    );
    assert_eq!(
        c.to_string(),
        "clamp:size=8,zone=3,start=4,max_on_board=10,quiet_limit=80,adjudicate=false,supply=unlimited"
    );
    assert_eq!("clamp".parse::<ClampConfig>(), Ok(c));
    assert_eq!(" CLAMP : ".parse::<ClampConfig>(), Ok(c));
    assert_eq!(<ClampConfig as board_core::GameConfig>::GAME_ID, "clamp");
}

#[test]
fn config_every_key() {
    let c: ClampConfig =
        "clamp:size=12,zone=6,start=4,max_on_board=144,quiet_limit=1000000,adjudicate=true"
            .parse()
            .unwrap();
    assert_eq!(
        (
            c.size(),
            c.zone(),
            c.start(),
            c.max_on_board(),
            c.quiet_limit(),
            c.adjudicate()
        ),
        (12, 6, 4, 144, 1_000_000, true)
    );
    let c: ClampConfig = "clamp:adjudicate=yes,quiet_limit=1,max_on_board=4,zone=1,size=6"
        .parse()
        .unwrap();
    assert_eq!(
        c.to_string(),
        "clamp:size=6,zone=1,start=4,max_on_board=4,quiet_limit=1,adjudicate=true,supply=unlimited"
    );
    assert_eq!(ClampConfig::new(6, 1, 4, 1, true), Ok(c));
}

#[test]
fn config_errors_name_key_and_range() {
    for (spec, message) in [
        (
            "clamp:size=7",
            "size=7 is out of range: expected an even integer from 6 to 26",
        ),
        (
            "clamp:size=28",
            "size=28 is out of range: expected an integer from 6 to 26",
        ),
        (
            "clamp:size=4",
            "size=4 is out of range: expected an integer from 6 to 26",
        ),
        (
            "clamp:size=big",
            "size=big is not valid: expected an integer from 6 to 26",
        ),
        (
            "clamp:zone=0",
            "zone=0 is out of range: expected an integer from 1 to 26",
        ),
        (
            "clamp:zone=5",
            "zone=5 is out of range: expected an integer from 1 to 4 (size/2)",
        ),
        (
            "clamp:size=6,zone=4",
            "zone=4 is out of range: expected an integer from 1 to 3 (size/2)",
        ),
        (
            "clamp:start=5",
            "start=5 is out of range: expected 4 (the only supported value)",
        ),
        (
            "clamp:start=16",
            "start=16 is out of range: expected 4 (the only supported value)",
        ),
        (
            "clamp:max_on_board=3",
            "max_on_board=3 is out of range: expected an integer from 4 to 676",
        ),
        (
            "clamp:max_on_board=65",
            "max_on_board=65 is out of range: expected an integer from 4 to 64 (size²)",
        ),
        (
            "clamp:quiet_limit=0",
            "quiet_limit=0 is out of range: expected an integer from 1 to 1000000",
        ),
        (
            "clamp:quiet_limit=1000001",
            "quiet_limit=1000001 is out of range: expected an integer from 1 to 1000000",
        ),
        (
            "clamp:adjudicate=maybe",
            "adjudicate=maybe is not valid: expected true or false",
        ),
        (
            "clamp:pieces=4",
            "unknown key 'pieces' for clamp: expected one of size, zone, start, max_on_board, quiet_limit, adjudicate, supply",
        ),
        (
            "gomoku:size=8",
            "unknown game 'gomoku': expected one of clamp",
        ),
        ("clamp:size", "'size' in game spec is not key=value"),
        ("clamp:size=8,size=6", "key 'size' is given twice"),
    ] {
        let e = spec.parse::<ClampConfig>().unwrap_err();
        assert_eq!(e.to_string(), message, "{spec}");
    }
    assert!(matches!(
        ClampConfig::new(8, 3, 10, 0, false),
        Err(SpecError::OutOfRange { .. })
    ));
    assert!(ClampConfig::new(9, 3, 10, 80, false).is_err());
    assert!(ClampConfig::new(8, 5, 10, 80, false).is_err());
    assert!(ClampConfig::new(8, 3, 65, 80, false).is_err());
}

fn any_config() -> impl Strategy<Value = ClampConfig> {
    (
        3u32..=13,
        any::<u32>(),
        any::<u32>(),
        1u32..=1_000_000,
        any::<bool>(),
    )
        .prop_map(|(half, z, m, q, a)| {
            let size = half * 2;
            let zone = 1 + z % half;
            let max = 4 + m % (size * size - 3);
            ClampConfig::new(size, zone, max, q, a).unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn config_round_trips(c in any_config()) {
        let text = c.to_string();
        prop_assert_eq!(text.parse::<ClampConfig>(), Ok(c));
        prop_assert_eq!(text.to_uppercase().parse::<ClampConfig>(), Ok(c));
    }

    #[test]
    fn config_parse_never_panics(s in "clamp(:[a-z_]{0,12}=[0-9a-z]{0,8}(,[a-z_]{0,12}=[0-9]{0,8}){0,3})?") {
        let _ = s.parse::<ClampConfig>();
    }

    #[test]
    fn moves_round_trip(c in any_config(), a in any::<u16>(), b in any::<u16>(), drop in any::<bool>()) {
        let pos = ClampPosition::new(c);
        let cells = pos.geometry().cells() as u16;
        let (a, b) = (Square(a % cells), Square(b % cells));
        let mv = if drop { Move::Drop(a) } else { Move::Step(a, b) };
        let text = pos.format_move(mv);
        prop_assert_eq!(pos.parse_move(&text), Ok(mv));
        prop_assert_eq!(pos.parse_move(&format!("  {}  ", text.to_uppercase())), Ok(mv));
        prop_assert_eq!(pos.parse_move(&text.replace('-', " ")), Ok(mv));
    }

    #[test]
    fn move_parse_never_panics(s in "\\PC{0,12}") {
        let pos = ClampPosition::new(ClampConfig::default());
        if let Ok(mv) = pos.parse_move(&s) {
            let _ = pos.validate(&mv);
        }
    }

    #[test]
    fn position_strings_round_trip(c in any_config(), choices in prop::collection::vec(any::<u32>(), 0..120)) {
        let mut pos = ClampPosition::new(c);
        let mut moves = Vec::new();
        for choice in choices {
            let text = pos.to_position_string();
            let back = ClampPosition::from_position_string(c, &text).unwrap();
            prop_assert_eq!(&back, &pos);
            prop_assert_eq!(back.hash(), pos.hash());
            prop_assert_eq!(back.outcome(), pos.outcome());
            prop_assert_eq!(back.to_position_string(), text);
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[choice as usize % moves.len()]).unwrap();
        }
    }

    #[test]
    fn position_string_parse_never_panics(s in "[0-9XOxo/ ]{0,80}") {
        let _ = ClampPosition::from_position_string(ClampConfig::default(), &s);
        let small: ClampConfig = "clamp:size=6".parse().unwrap();
        let _ = ClampPosition::from_position_string(small, &s);
    }
}

// ---------------------------------------------------------------- position strings

#[test]
fn position_string_examples() {
    let c = ClampConfig::default();
    let mut pos = ClampPosition::new(c);
    assert_eq!(pos.to_position_string(), "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0");
    let mv = pos.parse_move("c6-c4").unwrap();
    pos.play(mv).unwrap();
    assert_eq!(pos.to_position_string(), "8/8/3XXX2/8/2X5/2OOOO2/8/8 o 1 1");
    let small = ClampPosition::new("clamp:size=6".parse().unwrap());
    assert_eq!(small.to_position_string(), "6/6/1XXXX1/1OOOO1/6/6 x 0 0");
    let big = ClampPosition::new("clamp:size=26,zone=1".parse().unwrap());
    let s = big.to_position_string();
    assert!(s.starts_with("11XXXX11/26/"), "{s}");
    assert_eq!(
        ClampPosition::from_position_string(*big.config(), &s).unwrap(),
        big
    );
    // Lenient reading: case and spacing.
    let lenient =
        ClampPosition::from_position_string(c, "  8/8/3xxx2/8/2x5/2oooo2/8/8   O 1  1 ").unwrap();
    assert_eq!(lenient, pos);
}

#[test]
fn position_string_errors() {
    let c = ClampConfig::default();
    for (s, message) in [
        (
            "",
            "expected 4 fields (board, side to move x or o, quiet counter, ply), found 0",
        ),
        (
            "8/8/8/8/8/8/8/8 x 0",
            "expected 4 fields (board, side to move x or o, quiet counter, ply), found 3",
        ),
        (
            "8/8/8/8/8/8/8/8 x 0 0 0",
            "expected 4 fields (board, side to move x or o, quiet counter, ply), found 5",
        ),
        ("8/8/8/8/8/8/8 x 0 0", "the board has 7 ranks, expected 8"),
        (
            "8/8/8/8/8/8/8/8/8 x 0 0",
            "the board has 9 ranks, expected 8",
        ),
        (
            "8/8/2XXXX3/8/8/2OOOO2/8/8 x 0 0",
            "rank 6 covers more than 8 squares",
        ),
        (
            "8/8/2XXXX1/8/8/2OOOO2/8/8 x 0 0",
            "rank 6 covers 7 squares, expected 8",
        ),
        (
            "8/8/2XXXXX2/8/8/2OOOO2/8/8 x 0 0",
            "rank 6 covers more than 8 squares",
        ),
        (
            "8/8/2XXQX2/8/8/2OOOO2/8/8 x 0 0",
            "rank 6: bad character 'Q': expected X, O or a number of empty squares",
        ),
        (
            "8/8/02XXXX2/8/8/2OOOO2/8/8 x 0 0",
            "rank 6: a number of empty squares cannot start with 0",
        ),
        (
            "44/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0",
            "rank 8 covers more than 8 squares",
        ),
        (
            "8/8/2XXXX2/8/8/2OOOO2/8/8 w 0 0",
            "side to move 'w' is not x or o",
        ),
        (
            "8/8/2XXXX2/8/8/2OOOO2/8/8 x -1 0",
            "quiet counter '-1' is not a number from 0 to 80",
        ),
        (
            "8/8/2XXXX2/8/8/2OOOO2/8/8 x 81 100",
            "quiet counter '81' is not a number from 0 to 80",
        ),
        (
            "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 1e3",
            "ply '1e3' is not a number from 0 to 1000000000",
        ),
        (
            "8/8/2XXXX2/8/8/2OOOO2/8/8 x 4 2",
            "quiet counter 4 is larger than the ply 2",
        ),
        (
            "8/8/2XXXX2/8/8/2OOOO2/8/8 o 0 0",
            "o to move at ply 0: Black (x) moves at even plies, White (o) at odd ones",
        ),
        (
            "XXXXXXXX/XXX5/8/8/8/2OOOO2/8/8 x 0 0",
            "Black has 11 pieces on the board, more than max_on_board=10",
        ),
        (
            "8/8/8/8/8/2OOOO2/8/8 o 1 1",
            "Black made the last move but has no pieces on the board",
        ),
    ] {
        let e = ClampPosition::from_position_string(c, s).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("bad position string: {message}"),
            "{s}"
        );
    }
    // A setup at ply 0 need not be the start, and may even be finished.
    let pos = ClampPosition::from_position_string(c, "8/8/8/8/8/8/8/8 x 0 0").unwrap();
    assert_eq!(
        pos.outcome(),
        Some(board_core::Outcome::Win(Player::Second))
    );
    let six: ClampConfig = "clamp:size=6".parse().unwrap();
    assert!(ClampPosition::from_position_string(six, "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0").is_err());
}
