//! The board-core conformance harness over seeded random playouts (several configs) and
//! under proptest, plus notation round-trips and "never panics" properties.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns unwrap too

use board_core::{
    Notation, Position, Rules, Square,
    testing::{check_playout, check_random_playouts_with},
};
use proptest::{collection::vec, prelude::*};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rules_fourshift::{Fourshift, FourshiftConfig, Move, MovingFirst};

/// Extra moves to probe each position with: random squares (a few off the board), and
/// shifts from the mover's pieces by steps that are legal, diagonal, two away or wrapping.
fn sampler(pos: &Fourshift, rng: &mut ChaCha8Rng) -> Option<Move> {
    let size = pos.size() as u16;
    let cells = size * size;
    let any = |rng: &mut ChaCha8Rng| Square(rng.random_range(0..cells + size));
    Some(match rng.random_range(0..4) {
        0 => Move::Place(any(rng)),
        1 => Move::Shift {
            from: any(rng),
            to: any(rng),
        },
        _ => {
            let own: Vec<Square> = pos.stones(pos.side_to_move()).into_iter().collect();
            let from = if own.is_empty() {
                any(rng)
            } else {
                own[rng.random_range(0..own.len())]
            };
            let steps = [1, size, size + 1, size - 1, 2, 2 * size];
            let step = steps[rng.random_range(0..steps.len())];
            let to = if rng.random_bool(0.5) {
                from.0.wrapping_add(step)
            } else {
                from.0.wrapping_sub(step)
            };
            Move::Shift {
                from,
                to: Square(to),
            }
        }
    })
}

#[test]
fn random_playouts_conform() {
    for (spec, playouts, seed) in [
        ("fourshift", 400, 1),
        ("fourshift:size=3,k=3,pieces=4", 200, 2),
        ("fourshift:size=4,k=4,pieces=8", 150, 3),
        ("fourshift:size=5,k=3,pieces=5,max_plies=60", 200, 4),
        ("fourshift:size=6,k=4,pieces=2,max_plies=200", 100, 5),
        ("fourshift:size=8,k=5,pieces=12,max_plies=150", 80, 6),
        ("fourshift:size=9,k=4,pieces=6,max_plies=80", 80, 7),
        ("fourshift:size=26,k=5,pieces=10,max_plies=60", 6, 8),
        // The balance variants, alone and together, on even and odd boards.
        ("fourshift:moving_first=second", 300, 9),
        ("fourshift:centre_opening=false", 300, 10),
        (
            "fourshift:moving_first=second,centre_opening=false",
            300,
            11,
        ),
        (
            "fourshift:pieces=6,moving_first=second,centre_opening=false",
            200,
            12,
        ),
        (
            "fourshift:size=5,k=3,pieces=5,max_plies=60,moving_first=second",
            200,
            13,
        ),
        (
            "fourshift:size=3,k=3,pieces=4,moving_first=second,centre_opening=false",
            200,
            14,
        ),
        ("fourshift:size=4,k=4,pieces=8,moving_first=second", 150, 15),
        (
            "fourshift:size=7,k=4,pieces=6,centre_opening=false",
            100,
            16,
        ),
    ] {
        let config: FourshiftConfig = spec.parse().unwrap();
        let start = Fourshift::new(config);
        let stats = check_random_playouts_with(
            &start,
            seed,
            playouts,
            config.max_plies() as usize,
            sampler,
        )
        .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(stats.finished, playouts, "{spec}: every game ends");
        assert!(stats.illegal_probes > 0);
    }
}

const SPECS: [&str; 8] = [
    "fourshift",
    "fourshift:size=4,k=3,pieces=6,max_plies=50",
    "fourshift:size=5,k=4,pieces=12",
    "fourshift:size=10,k=4,pieces=4,max_plies=40",
    "fourshift:moving_first=second",
    "fourshift:centre_opening=false",
    "fourshift:size=5,k=3,pieces=4,moving_first=second,centre_opening=false",
    "fourshift:size=4,k=4,pieces=8,max_plies=20,moving_first=second",
];

fn valid_config() -> impl Strategy<Value = FourshiftConfig> {
    (3u32..=26)
        .prop_flat_map(|size| {
            (
                Just(size),
                2..=size,
                1..=size * size / 2,
                1u32..=1_000_000,
                any::<bool>(),
                any::<bool>(),
            )
        })
        .prop_map(|(size, k, pieces, max_plies, second, centre)| {
            let moving_first = if second {
                MovingFirst::Second
            } else {
                MovingFirst::Next
            };
            FourshiftConfig::new(size, k, pieces, max_plies)
                .unwrap()
                .with_moving_first(moving_first)
                .with_centre_opening(centre)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn conformance(which in 0..SPECS.len(), choices in vec(any::<u32>(), 0..200)) {
        let pos = Fourshift::new(SPECS[which].parse().unwrap());
        check_playout(&pos, &choices).unwrap();
    }

    #[test]
    fn config_round_trips(c in valid_config(), upper in any::<bool>(), rotate in 0usize..4) {
        let text = c.to_string();
        prop_assert_eq!(text.parse::<FourshiftConfig>(), Ok(c));
        // any key order and case
        let (id, keys) = text.split_once(':').unwrap();
        let mut parts: Vec<&str> = keys.split(',').collect();
        parts.rotate_left(rotate);
        let mut shuffled = format!("{id}:{}", parts.join(","));
        if upper {
            shuffled = shuffled.to_uppercase();
        }
        prop_assert_eq!(shuffled.parse::<FourshiftConfig>(), Ok(c));
    }

    #[test]
    fn moves_round_trip(size in 3u32..=26, a in 0u32..676, b in 0u32..676, spaced in any::<bool>()) {
        let k = 3.min(size);
        let pos = Fourshift::new(FourshiftConfig::new(size, k, 1, 10).unwrap());
        let cells = size * size;
        let (from, to) = (Square((a % cells) as u16), Square((b % cells) as u16));
        for mv in [Move::Place(to), Move::Shift { from, to }] {
            let text = pos.format_move(mv);
            prop_assert!(!text.contains(char::is_whitespace));
            prop_assert_eq!(pos.parse_move(&text), Ok(mv));
            let alt = if spaced { text.replace('-', " ") } else { format!("  {}\t", text.to_uppercase()) };
            prop_assert_eq!(pos.parse_move(&alt), Ok(mv));
        }
    }

    #[test]
    fn position_strings_round_trip(which in 0..SPECS.len(), choices in vec(any::<u32>(), 0..120)) {
        let mut pos = Fourshift::new(SPECS[which].parse().unwrap());
        let mut moves = Vec::new();
        for c in choices {
            let text = pos.to_position_string();
            let back = Fourshift::from_position_string(*pos.config(), &text).unwrap();
            prop_assert_eq!(&back, &pos);
            prop_assert_eq!(back.to_position_string(), text);
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[c as usize % moves.len()]);
        }
    }

    #[test]
    fn parsers_never_panic(s in "\\PC{0,40}", t in "[0-9xXoO/ ]{0,40}") {
        let pos = Fourshift::default();
        let _ = pos.parse_move(&s);
        let _ = s.parse::<FourshiftConfig>();
        let _ = Fourshift::from_position_string(FourshiftConfig::default(), &s);
        let _ = Fourshift::from_position_string(FourshiftConfig::default(), &t);
        let _ = Fourshift::from_position_string(FourshiftConfig::default(), &format!("{t} x 8 8 0"));
    }

    /// Any move value at all, legal or not: validate, play, format and even make/unmake
    /// (whose result is meaningless for an illegal move) never panic.
    #[test]
    fn arbitrary_moves_never_panic(which in 0..SPECS.len(), choices in vec(any::<u32>(), 0..40),
                                   place in any::<bool>(), a in any::<u16>(), b in any::<u16>()) {
        let mut pos = Fourshift::new(SPECS[which].parse().unwrap());
        let mut moves = Vec::new();
        for c in choices {
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[c as usize % moves.len()]);
        }
        let mv = if place { Move::Place(Square(a)) } else { Move::Shift { from: Square(a), to: Square(b) } };
        let before = pos.clone();
        let verdict = pos.validate(&mv);
        let _ = pos.format_move(mv);
        match pos.play(mv) {
            Ok(undo) => {
                prop_assert!(verdict.is_ok());
                pos.unmake_move(mv, undo);
            }
            Err(e) => {
                prop_assert_eq!(Err(e), verdict);
            }
        }
        prop_assert_eq!(&pos, &before);
        let undo = pos.make_move(mv);
        let _ = pos.count_moves();
        pos.generate_moves(&mut moves);
        let _ = pos.to_position_string();
        let _ = pos.outcome_reason();
        pos.unmake_move(mv, undo);
    }
}
