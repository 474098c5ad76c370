//! Perft figures: the published 10×10 ones, the 8×8 ones (cross-checked against the naive
//! reference in `reference.rs`), and positions past the opening.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use std::time::Instant;

use board_core::{Position, perft};
use rules_amazons::{AmazonsConfig, AmazonsPosition};

mod common;

fn start(size: u32) -> AmazonsPosition {
    AmazonsPosition::new(AmazonsConfig::new(size).unwrap())
}

#[test]
fn standard_start() {
    let mut pos = start(10);
    assert_eq!(perft(&mut pos, 0), 1);
    assert_eq!(perft(&mut pos, 1), 2_176);
    assert_eq!(perft(&mut pos, 2), 4_307_152);
    assert_eq!(pos, start(10));
}

#[test]
fn small_start() {
    let mut pos = start(8);
    assert_eq!(perft(&mut pos, 1), 1_232);
    // Not published: checked against the naive reference (`reference.rs`).
    assert_eq!(perft(&mut pos, 2), 1_331_198);
}

/// Past the opening (figures checked against the reference where it can afford them).
#[test]
fn positions_past_the_opening() {
    for &(size, text, figures) in common::PERFT_CASES {
        let mut pos =
            AmazonsPosition::from_position_string(AmazonsConfig::new(size).unwrap(), text).unwrap();
        let before = pos.clone();
        for (depth, &expected) in (1..).zip(figures) {
            assert_eq!(perft(&mut pos, depth), expected, "perft({depth}) of {text}");
        }
        assert_eq!(pos, before);
        assert_eq!(pos.outcome().is_some(), figures[0] == 0);
    }
}

/// `cargo test --release -p rules-amazons -- --ignored perft3 --nocapture`
#[test]
#[ignore = "slow: the speed proof, run by hand"]
fn perft3_timing() {
    let mut pos = start(10);
    let t = Instant::now();
    let n = perft(&mut pos, 3);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "amazons 10x10 perft(3) = {n} in {secs:.3} s ({:.1} Mleaves/s)",
        n as f64 / secs / 1e6
    );
}
