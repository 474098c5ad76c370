//! Perft figures. clamp has no published figures: every number here was cross-checked
//! against the naive reference implementation in `tests/reference/mod.rs` (see
//! `print_figures` and `reference_perft_5_from_start` in `tests/differential.rs`, which
//! also recomputes the smaller figures on every run).

#![allow(clippy::unwrap_used)]

use board_core::{Notation, Position, Rules, divide, perft};
use rules_clamp::{ClampConfig, ClampPosition};

fn check(spec: &str, position: Option<&str>, figures: &[u64]) {
    let config: ClampConfig = spec.parse().unwrap();
    let mut pos = match position {
        Some(s) => ClampPosition::from_position_string(config, s).unwrap(),
        None => ClampPosition::new(config),
    };
    let before = pos.clone();
    for (depth, &n) in figures.iter().enumerate() {
        assert_eq!(
            perft(&mut pos, depth as u32),
            n,
            "{spec} {position:?} perft({depth})"
        );
    }
    assert_eq!(pos, before);
    assert_eq!(pos.hash(), before.hash());
}

#[test]
fn default_start() {
    // perft(1) = 20 drops (24 zone squares minus 4 pieces) + 52 steps (c6 and f6: 14 each,
    // d6 and e6: 12 each).
    check("clamp", None, &[1, 72, 5_118, 363_710, 25_655_092]);
}

#[test]
fn default_start_divide() {
    let mut pos = ClampPosition::new(ClampConfig::default());
    let d = divide(&mut pos, 2);
    assert_eq!(d.len(), 72);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 5_118);
    let of = |text: &str| {
        let mv = pos.parse_move(text).unwrap();
        d.iter().find(|(m, _)| *m == mv).unwrap().1
    };
    // After a drop Black has 5 pieces; White's reply count does not depend on Black's
    // move unless it blocks or opens White's squares.
    assert_eq!(of("a8"), 72);
    assert!(of("c6-c4") < 72, "c4 takes a square from c3");
}

#[test]
fn positions_past_the_opening() {
    for (spec, position, figures) in [
        (
            "clamp",
            "8/3X1X2/3X4/4X3/6O1/1O2O3/7O/4OO2 x 12 12",
            &[1, 68, 5_540, 380_276, 30_377_816][..],
        ),
        (
            "clamp",
            "4X3/8/2XXXX2/8/1O5X/4O3/OO4O1/O1O5 x 0 40",
            &[1, 84, 6_170, 515_836, 37_957_446],
        ),
        (
            "clamp",
            "X4XXX/XX6/6XX/X3O3/O4O2/O1O5/5O1O/5OO1 x 1 90",
            &[1, 67, 6_048, 399_461, 35_201_360],
        ),
        (
            "clamp:size=6",
            "X4X/1X3X/2X3/1OO2X/1OO2O/3O2 x 7 30",
            &[1, 50, 2_352, 118_423, 5_748_651],
        ),
        (
            "clamp:size=10,zone=5",
            "1X8/1X6X1/7X2/9X/3XX5/2O3O3/10/7O2/1O3O4/10 x 8 20",
            &[1, 118, 13_519, 1_624_546],
        ),
        (
            "clamp:size=26,zone=13,max_on_board=12",
            "26/26/26/26/26/19X6/26/26/26/26/26/11O14/13X12/13O12/12X2X10/26/26/26/26/13O12/26/26/26/26/26/26 x 0 10",
            &[1, 393, 147_729],
        ),
    ] {
        check(spec, Some(position), figures);
    }
}

#[test]
fn configs_that_cut_perft() {
    // quiet_limit=3: a line of three quiet moves ends the game, so perft(4) only counts
    // lines with a capture among the first three plies.
    check(
        "clamp:quiet_limit=3",
        None,
        &[1, 72, 5_118, 363_710, 123_040, 8_108_352],
    );
    check(
        "clamp:size=6,quiet_limit=4,adjudicate=true",
        None,
        &[1, 40, 1_710, 75_486, 3_451_756, 9_825_526],
    );
    // max_on_board=4: no drops until a capture.
    check(
        "clamp:max_on_board=4",
        None,
        &[1, 52, 2_638, 128_072, 6_141_932],
    );
}

#[test]
fn finished_positions_have_no_moves() {
    for (spec, position) in [
        ("clamp", "8/8/2XXXX2/8/8/8/8/8 o 0 5"),
        ("clamp", "8/8/2XXXX2/8/8/2OOOO2/8/8 x 80 80"),
        ("clamp:max_on_board=6", "8/8/8/8/8/XXXX4/OOOX4/OOOX4 o 3 3"),
    ] {
        check(spec, Some(position), &[1, 0, 0, 0]);
    }
}
