//! Move generation under the conformance invariants: the input picks a game spec and a
//! sequence of move indices; after every step `board_core::testing::check_playout` checks
//! that generated moves validate, make/unmake restores position and hash, the incremental
//! hash equals the recomputed one, notation and position strings round-trip and perft(1)
//! equals the number of generated moves. A tail of the input is also offered as raw move
//! text, which must be refused or accepted without a panic and without changing a position
//! it is refused in.
#![no_main]

mod common;

use board_core::{Position, perft, testing};
use libfuzzer_sys::fuzz_target;

fn run<P: Position>(spec: &str, choices: &[u32], raw: &str) {
    let config: P::Config = spec.parse().expect("fuzz specs are valid");
    let start = P::new(config);
    if let Err(e) = testing::check_playout(&start, choices) {
        panic!("{spec}: {e}");
    }
    let mut pos = start.clone();
    for &c in choices {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert_eq!(perft(&mut pos, 1), moves.len() as u64);
        for text in raw.split('|') {
            let before = pos.clone();
            match pos.parse_legal_move(text) {
                Ok(mv) => assert!(moves.contains(&mv), "{spec}: '{text}' accepted but not generated"),
                Err(_) => assert_eq!(pos, before),
            }
        }
        let Some(&mv) = moves.get(c as usize % moves.len().max(1)) else { break };
        pos.make_move(mv);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let (id, spec) = common::SPECS[pick as usize % common::SPECS.len()];
    let split = rest.iter().position(|&b| b == 0xFF).unwrap_or(rest.len());
    let (moves, raw) = rest.split_at(split);
    let choices: Vec<u32> = moves
        .chunks(2)
        .map(|c| u32::from(c[0]) | (u32::from(*c.get(1).unwrap_or(&0)) << 8))
        .collect();
    let raw = String::from_utf8_lossy(raw.get(1..).unwrap_or_default());
    for_game!(id, run(spec, &choices, &raw));
});
