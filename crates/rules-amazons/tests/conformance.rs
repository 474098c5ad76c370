//! The board-core conformance harness over seeded random playouts (both sizes) and under
//! proptest.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use board_core::{
    Position, Rules, Square,
    testing::{check_playout, check_random_playouts_with},
};
use proptest::{collection::vec, prelude::*};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rules_amazons::{AmazonsConfig, AmazonsMove, AmazonsPosition};

/// Probes: mostly a legal move with one square changed (near misses), sometimes three
/// random squares, a few of them off the board.
fn sampler(pos: &AmazonsPosition, rng: &mut ChaCha8Rng) -> Option<AmazonsMove> {
    let cells = (pos.size() * pos.size()) as u16;
    let random_sq = |rng: &mut ChaCha8Rng| Square(rng.random_range(0..cells + 4));
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if moves.is_empty() || rng.random_bool(0.3) {
        return Some(AmazonsMove::new(
            random_sq(rng),
            random_sq(rng),
            random_sq(rng),
        ));
    }
    let mut m = moves[rng.random_range(0..moves.len())];
    match rng.random_range(0..3) {
        0 => m.from = random_sq(rng),
        1 => m.to = random_sq(rng),
        _ => m.arrow = random_sq(rng),
    }
    Some(m)
}

#[test]
fn random_playouts_standard() {
    let start = AmazonsPosition::new(AmazonsConfig::STANDARD);
    let stats = check_random_playouts_with(&start, 1, 6, 100, sampler).unwrap();
    assert_eq!(stats.finished, 6, "{stats:?}");
    assert!(stats.illegal_probes > 300, "{stats:?}");
}

#[test]
fn random_playouts_small() {
    let start = AmazonsPosition::new(AmazonsConfig::SMALL);
    let stats = check_random_playouts_with(&start, 2, 20, 60, sampler).unwrap();
    assert_eq!(stats.finished, 20, "{stats:?}");
}

#[test]
fn random_playouts_from_a_late_position() {
    // Many arrows already down: short, dense games.
    let start = AmazonsPosition::from_position_string(
        AmazonsConfig::STANDARD,
        "3b2b3/x1x1x1x1x1/1x1x1x1x1x/b8b/x1x1x1x1x1/1x1x1x1x1x/w8w/x1x1x1x1x1/10/3w2w3 b 25",
    )
    .unwrap();
    let stats = check_random_playouts_with(&start, 3, 20, 70, sampler).unwrap();
    assert_eq!(stats.finished, 20, "{stats:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn conformance_standard(choices in vec(any::<u32>(), 0..200)) {
        let pos = AmazonsPosition::new(AmazonsConfig::STANDARD);
        check_playout(&pos, &choices).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }

    #[test]
    fn conformance_small(choices in vec(any::<u32>(), 0..200)) {
        let pos = AmazonsPosition::new(AmazonsConfig::SMALL);
        check_playout(&pos, &choices).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
}
