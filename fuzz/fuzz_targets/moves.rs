//! Arbitrary move values (every move type is constructible from any squares, on the board
//! or not) offered to `validate`, `play` and `format_move` in positions reached by a
//! fuzzed playout: nothing panics, a move validates exactly when it is generated, a refused
//! `play` leaves position and hash untouched, and a legal move's notation reads back.
//!
//! Input layout: `pick, plies, choice bytes (plies of them) ..., move bytes ...`; every
//! move is built from the next `BYTES` bytes of the input.
#![no_main]

mod common;

use board_core::{Position, Square};
use libfuzzer_sys::fuzz_target;

/// A move of the game from raw bytes.
trait FromBytes: Position {
    const BYTES: usize;
    fn from_bytes(b: &[u8]) -> Self::Move;
}

/// A square from two bytes: any index up to 767 (past the end of every board, 26×26 = 676),
/// or one of the far-off values for the rest.
fn square(b: &[u8]) -> Square {
    let v = u16::from_le_bytes([b[0], b[1]]);
    if v >> 8 < 3 {
        Square(v)
    } else {
        const FAR: [u16; 8] = [676, 1023, 1024, 4095, 4096, 0x7FFF, 0xFFFE, 0xFFFF];
        Square(FAR[usize::from(v & 7)])
    }
}

impl FromBytes for rules_fourshift::Fourshift {
    const BYTES: usize = 5;
    fn from_bytes(b: &[u8]) -> Self::Move {
        use rules_fourshift::Move;
        if b[0] & 1 == 0 {
            Move::Place(square(&b[1..]))
        } else {
            Move::Shift {
                from: square(&b[1..]),
                to: square(&b[3..]),
            }
        }
    }
}

impl FromBytes for rules_clamp::ClampPosition {
    const BYTES: usize = 5;
    fn from_bytes(b: &[u8]) -> Self::Move {
        use rules_clamp::Move;
        if b[0] & 1 == 0 {
            Move::Drop(square(&b[1..]))
        } else {
            Move::Step(square(&b[1..]), square(&b[3..]))
        }
    }
}

impl FromBytes for rules_amazons::AmazonsPosition {
    const BYTES: usize = 6;
    fn from_bytes(b: &[u8]) -> Self::Move {
        rules_amazons::AmazonsMove::new(square(b), square(&b[2..]), square(&b[4..]))
    }
}

impl FromBytes for rules_gomoku::GomokuPosition {
    const BYTES: usize = 2;
    fn from_bytes(b: &[u8]) -> Self::Move {
        rules_gomoku::Move(square(b))
    }
}

impl FromBytes for rules_connect6::Connect6Position {
    const BYTES: usize = 5;
    fn from_bytes(b: &[u8]) -> Self::Move {
        use rules_connect6::Move;
        if b[0] & 1 == 0 {
            Move::single(square(&b[1..]))
        } else {
            Move::pair(square(&b[1..]), square(&b[3..]))
        }
    }
}

/// `FUZZ_UNCHECKED_MAKE=1` also makes and unmakes every refused move (no panic expected,
/// though the trait only promises memory safety for that): a survey, off by default.
fn unchecked_make() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("FUZZ_UNCHECKED_MAKE").is_some_and(|v| v == "1"))
}

fn run<P: FromBytes>(spec: &str, plies: &[u8], raw: &[u8]) {
    let config: P::Config = spec.parse().expect("fuzz specs are valid");
    let mut pos = P::new(config);
    let mut moves = Vec::new();
    for &c in plies {
        pos.generate_moves(&mut moves);
        let Some(&mv) = moves.get(usize::from(c) % moves.len().max(1)) else {
            break;
        };
        pos.make_move(mv);
    }
    pos.generate_moves(&mut moves);
    for chunk in raw.chunks_exact(P::BYTES).take(64) {
        let mv = P::from_bytes(chunk);
        let generated = moves.contains(&mv);
        let verdict = pos.validate(&mv);
        assert_eq!(
            verdict.is_ok(),
            generated,
            "{spec}: {mv:?}: validate says {verdict:?}"
        );
        let text = pos.format_move(mv);
        if generated {
            assert_eq!(
                pos.parse_move(&text).ok(),
                Some(mv),
                "{spec}: '{text}' round trip"
            );
        } else {
            let before = pos.clone();
            assert!(pos.play(mv).is_err(), "{spec}: play accepted {mv:?}");
            assert_eq!(pos, before, "{spec}: refused {mv:?} changed the position");
            assert_eq!(pos.hash(), before.hash());
            if unchecked_make() {
                // Outside the contract ("meaningless, but memory-safe"): only reported.
                let mut scratch = pos.clone();
                let undo = scratch.make_move(mv);
                scratch.unmake_move(mv, undo);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [pick, n, rest @ ..] = data else { return };
    let (id, spec) = common::spec_of(*pick);
    let n = usize::from(*n).min(rest.len());
    let (plies, raw) = rest.split_at(n);
    boardlab_games::with_game!(id, run(spec, plies, raw));
});
