//! The board-core conformance harness over random playouts, plain and under proptest.

#![allow(clippy::unwrap_used)]

use board_core::{
    Position, Square,
    testing::{check_playout, check_random_playouts_with},
};
use proptest::{collection::vec, prelude::*};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rules_clamp::{ClampConfig, ClampPosition, Move};

/// Random probes: drops and steps anywhere (mostly illegal), some off the board.
fn sampler(pos: &ClampPosition, rng: &mut ChaCha8Rng) -> Option<Move> {
    let cells = pos.geometry().cells() as u16;
    let square = |rng: &mut ChaCha8Rng| {
        if rng.random_bool(0.05) {
            Square(cells + rng.random_range(0..40))
        } else {
            Square(rng.random_range(0..cells))
        }
    };
    Some(if rng.random_bool(0.3) {
        Move::Drop(square(rng))
    } else {
        let from = square(rng);
        // Often a near square, to probe the step rules (3 squares, knight jumps, blocks).
        let to = if rng.random_bool(0.7) && from.0 < cells {
            let w = pos.config().size() as i32;
            let (dc, dr) = (rng.random_range(-3..=3), rng.random_range(-3..=3));
            let i = from.0 as i32 + dr * w + dc;
            if (0..cells as i32).contains(&i) {
                Square(i as u16)
            } else {
                square(rng)
            }
        } else {
            square(rng)
        };
        Move::Step(from, to)
    })
}

#[test]
fn conformance_random_playouts() {
    for (spec, seed, playouts, max_plies) in [
        ("clamp", 1, 12, 50_000),
        ("clamp:quiet_limit=20,adjudicate=true", 2, 20, 50_000),
        ("clamp:size=6,zone=1,max_on_board=5", 3, 10, 50_000),
        (
            "clamp:size=6,zone=3,max_on_board=36,quiet_limit=200",
            4,
            10,
            50_000,
        ),
        ("clamp:size=6,max_on_board=4,quiet_limit=3", 5, 20, 100),
        ("clamp:size=10,zone=5,quiet_limit=30", 6, 4, 50_000),
        (
            "clamp:size=14,zone=7,max_on_board=30,quiet_limit=20",
            7,
            3,
            50_000,
        ),
        (
            "clamp:size=22,zone=11,max_on_board=40,quiet_limit=12",
            8,
            2,
            50_000,
        ),
        // Finite supplies (the balance variant), with and without adjudication.
        ("clamp:supply=12,adjudicate=true", 9, 12, 50_000),
        ("clamp:supply=8", 10, 12, 50_000),
        ("clamp:supply=0,quiet_limit=30", 11, 12, 50_000),
        (
            "clamp:size=6,supply=3,quiet_limit=25,adjudicate=true",
            12,
            20,
            50_000,
        ),
        (
            "clamp:size=10,zone=5,supply=20,quiet_limit=30",
            13,
            4,
            50_000,
        ),
    ] {
        let config: ClampConfig = spec.parse().unwrap();
        let start = ClampPosition::new(config);
        let stats = check_random_playouts_with(&start, seed, playouts, max_plies, sampler)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        // Random play can go on for thousands of plies (captures reset the quiet counter),
        // but every game ends: the harness fails a playout that outlives the limit.
        assert_eq!(stats.finished, playouts, "{spec}: {stats:?}");
        assert!(stats.illegal_probes > 0, "{spec}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn conformance_default(choices in vec(any::<u32>(), 0..200)) {
        let pos = ClampPosition::new(ClampConfig::default());
        check_playout(&pos, &choices).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }

    #[test]
    fn conformance_finite_supply(which in 0..3usize, choices in vec(any::<u32>(), 0..200)) {
        let spec = ["clamp:supply=12,adjudicate=true", "clamp:size=6,supply=2,quiet_limit=15", "clamp:supply=0,adjudicate=true"][which];
        let pos = ClampPosition::new(spec.parse().unwrap());
        check_playout(&pos, &choices).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }

    #[test]
    fn conformance_small_quiet_limit(choices in vec(any::<u32>(), 0..60)) {
        let config: ClampConfig = "clamp:size=6,zone=2,quiet_limit=7,adjudicate=true".parse().unwrap();
        let pos = ClampPosition::new(config);
        check_playout(&pos, &choices).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
}
