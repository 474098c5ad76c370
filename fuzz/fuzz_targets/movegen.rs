//! Move generation under the conformance invariants: the input picks a game spec and a
//! sequence of move indices; after every step `board_core::testing::check_playout` checks
//! that generated moves validate, make/unmake restores position and hash, the incremental
//! hash equals the recomputed one, notation and position strings round-trip and perft(1)
//! equals the number of generated moves. A tail of the input is also offered as raw move
//! text, which must be refused or accepted without a panic and without changing a position
//! it is refused in.
//!
//! Input layout: `pick, [spec text, 0xFE,] choices (2 bytes each) ..., 0xFF, raw moves`.
//! A `pick` below 0x80 selects one of `common::specs()`; otherwise it selects a game and the
//! bytes up to the first 0xFE are that game's spec parameters (`size=7,k=3`), so odd but
//! valid configurations (every board size, extreme limits) get played too.
#![no_main]

mod common;

use board_core::{Position, perft, testing};
use libfuzzer_sys::fuzz_target;

/// Most plies played per input: every ply checks every generated move (a thousand and more
/// in Amazons), so long games would make the target crawl. The small-board specs end well
/// within this.
const MAX_PLIES: usize = 160;
/// Most plies played through a fuzzed spec: its boards may be large and slow to check.
const MAX_FUZZED_SPEC_PLIES: usize = 64;
/// Most moves generated over one input's playout (each ply's list is generated, sorted and
/// sampled a few times): Connect6 on 19×19 lists some 60,000 pairs per ply, so without a
/// budget one long input took seconds and the target ran at a few inputs per second.
const MOVE_BUDGET: usize = 400_000;

/// How many of `choices` fit in [`MOVE_BUDGET`] (at least one ply is always played).
fn affordable<P: Position>(start: &P, choices: &[u32]) -> usize {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut spent = 0;
    for (ply, &c) in choices.iter().enumerate() {
        pos.generate_moves(&mut moves);
        spent += moves.len();
        if spent > MOVE_BUDGET && ply > 0 {
            return ply;
        }
        let Some(&mv) = moves.get(c as usize % moves.len().max(1)) else {
            return ply + 1;
        };
        pos.make_move(mv);
    }
    choices.len()
}

fn run<P: Position>(spec: &str, fuzzed: bool, choices: &[u32], raw: &str) {
    let config = match spec.parse::<P::Config>() {
        Ok(config) => config,
        Err(e) => {
            assert!(fuzzed, "fuzz spec '{spec}' is invalid: {e}");
            return;
        }
    };
    let start = P::new(config);
    let choices = &choices[..affordable(&start, choices)];
    if let Err(e) = testing::check_playout(&start, choices) {
        panic!("{spec}: {e}");
    }
    let mut pos = start.clone();
    for (ply, &c) in choices.iter().enumerate() {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert_eq!(perft(&mut pos, 1), moves.len() as u64, "{spec}: perft(1)");
        // Raw move texts only on the first few plies and every 8th: they are cheap to
        // refuse but the playout is long.
        if ply < 4 || ply % 8 == 0 {
            for text in raw.split('|').take(16) {
                check_raw(spec, &mut pos, &moves, text);
            }
        }
        let Some(&mv) = moves.get(c as usize % moves.len().max(1)) else {
            break;
        };
        pos.make_move(mv);
    }
}

/// A raw move text: parsing never panics; a parsed move is legal exactly when it is
/// generated; a refused move leaves the position alone; notation round-trips.
fn check_raw<P: Position>(spec: &str, pos: &mut P, moves: &[P::Move], text: &str) {
    let legal = pos.parse_legal_move(text);
    let Ok(mv) = pos.parse_move(text) else {
        assert!(
            legal.is_err(),
            "{spec}: '{text}' does not parse but is legal"
        );
        return;
    };
    let generated = moves.contains(&mv);
    assert_eq!(
        legal.is_ok(),
        generated,
        "{spec}: '{text}' legal={legal:?}, generated={generated}"
    );
    assert_eq!(
        pos.validate(&mv).is_ok(),
        generated,
        "{spec}: validate of '{text}'"
    );
    if generated {
        let printed = pos.format_move(mv);
        assert_eq!(
            pos.parse_move(&printed).ok(),
            Some(mv),
            "{spec}: '{printed}' round trip"
        );
    } else {
        let before = pos.clone();
        assert!(
            pos.play(mv).is_err(),
            "{spec}: play accepted refused '{text}'"
        );
        assert_eq!(
            *pos, before,
            "{spec}: refused '{text}' changed the position"
        );
        assert_eq!(pos.hash(), before.hash());
        // Formatting a move that is not legal here may not panic either (engines print
        // what they were sent).
        let _ = pos.format_move(mv);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let fuzzed = pick >= 0x80;
    let (id, spec, rest, max_plies) = if !fuzzed {
        let (id, spec) = common::spec_of(pick);
        (id, spec.to_string(), rest, MAX_PLIES)
    } else {
        let ids = boardlab_games::GameId::ALL;
        let id = ids[usize::from(pick) % ids.len()];
        let end = rest.iter().position(|&b| b == 0xFE).unwrap_or(rest.len());
        let params = String::from_utf8_lossy(&rest[..end]);
        let spec = if params.is_empty() {
            id.to_string()
        } else {
            format!("{id}:{params}")
        };
        (
            id,
            spec,
            rest.get(end + 1..).unwrap_or_default(),
            MAX_FUZZED_SPEC_PLIES,
        )
    };
    let split = rest.iter().position(|&b| b == 0xFF).unwrap_or(rest.len());
    let (moves, raw) = rest.split_at(split);
    let choices: Vec<u32> = moves
        .chunks(2)
        .take(max_plies)
        .map(|c| u32::from(c[0]) | (u32::from(*c.get(1).unwrap_or(&0)) << 8))
        .collect();
    let raw = String::from_utf8_lossy(raw.get(1..).unwrap_or_default());
    boardlab_games::with_game!(id, run(&spec, fuzzed, &choices, &raw));
});
