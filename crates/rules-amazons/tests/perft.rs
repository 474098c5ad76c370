//! Perft figures: the published 10×10 ones, the 8×8 ones (cross-checked against the naive
//! reference in `reference.rs`), and positions past the opening.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use std::time::Instant;

use board_core::{Position, Rules, perft};
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

/// Nanoseconds this thread has run on a CPU (Linux), if known.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// The speed proof, by hand:
/// `cargo test --release -p rules-amazons --test perft -- --ignored perft3 --nocapture`
/// (also `cargo run --release -p rules-amazons --example perft -- 3`).
#[test]
#[ignore = "slow: the speed proof, run by hand"]
fn perft3_timing() {
    let mut pos = start(10);
    let cpu = thread_cpu_ns();
    let t = Instant::now();
    let n = perft(&mut pos, 3);
    let wall = t.elapsed().as_secs_f64();
    let cpu = cpu
        .zip(thread_cpu_ns())
        .map(|(a, b)| format!(", cpu {:.3} s", (b - a) as f64 / 1e9))
        .unwrap_or_default();
    println!("amazons 10x10 perft(3) = {n}: wall {wall:.3} s{cpu}");
    assert_eq!(n, 8_350_439_170);
}
