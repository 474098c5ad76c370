//! The balance variants of `games.md` ("fourshift", "Balance variants"), one test per rule
//! edge: `moving_first=second` (White's double move at the phase switch, end rule 2 and
//! `max_plies` around it, undo and hash across it, position strings) and
//! `centre_opening=false` (refused on even and odd boards, only for Black's first move),
//! with the variants' pinned perft figures.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns unwrap too

use board_core::{Coord, Notation, Outcome, Player, Position, Rules, SquareSet, perft};
use rules_fourshift::{EndReason, Fourshift, FourshiftConfig, MoveError, MovingFirst, Phase};

fn config(spec: &str) -> FourshiftConfig {
    spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn at(spec: &str, text: &str) -> Fourshift {
    Fourshift::from_position_string(config(spec), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(pos: &mut Fourshift, moves: &str) {
    for text in moves.split_whitespace() {
        assert!(pos.outcome().is_none(), "game over before {text}");
        let mv = pos
            .parse_legal_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.play(mv).unwrap();
        assert_eq!(pos.hash(), pos.compute_hash(), "hash after {text}");
    }
}

fn coord(name: &str) -> Coord {
    name.parse().unwrap()
}

/// Black to place its last piece (ply 14); then `a1` (Black) and `a6` (White) end the
/// placing phase without a line.
const LATE_PLACING: &str = "1OX2X/1OO2O/4X1/4X1/O2X1X/1XOO2 x 1 1 14";
const SECOND: &str = "fourshift:moving_first=second";
const NO_CENTRE: &str = "fourshift:centre_opening=false";

// ---------------------------------------------------------------- spec keys

#[test]
fn variant_keys_parse_print_and_default() {
    let d = FourshiftConfig::default();
    assert_eq!(d.moving_first(), MovingFirst::Next);
    assert!(d.centre_opening());
    let c = config("fourshift:moving_first=SECOND,centre_opening=no");
    assert_eq!(
        (c.moving_first(), c.centre_opening()),
        (MovingFirst::Second, false)
    );
    assert_eq!(
        c.to_string(),
        "fourshift:size=6,k=4,pieces=8,max_plies=120,moving_first=second,centre_opening=false"
    );
    assert_eq!(config(&c.to_string()), c);
    assert_eq!(config("fourshift:moving_first=next,centre_opening=true"), d);
}

#[test]
fn variant_key_errors_name_the_key() {
    let err = |s: &str| s.parse::<FourshiftConfig>().unwrap_err().to_string();
    assert_eq!(
        err("fourshift:moving_first=first"),
        "moving_first=first is not valid: expected one of next, second"
    );
    assert_eq!(
        err("fourshift:centre_opening=maybe"),
        "centre_opening=maybe is not valid: expected true or false"
    );
}

// ---------------------------------------------------------------- moving_first=second

#[test]
fn under_next_black_shifts_first() {
    let mut pos = at("fourshift", LATE_PLACING);
    play(&mut pos, "a1 a6");
    assert_eq!(pos.ply(), 16);
    assert_eq!(
        (pos.side_to_move(), pos.phase()),
        (Player::First, Phase::Moving)
    );
    assert_eq!(
        pos.to_position_string(),
        "OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 x 0 0 16"
    );
}

#[test]
fn white_moves_twice_at_the_phase_switch() {
    let mut pos = at(SECOND, LATE_PLACING);
    play(&mut pos, "a1");
    assert_eq!(
        (pos.side_to_move(), pos.phase()),
        (Player::Second, Phase::Placing)
    );
    play(&mut pos, "a6");
    // White placed the last piece and is still to move: its first shift.
    assert_eq!(pos.ply(), 16);
    assert_eq!(
        (pos.side_to_move(), pos.phase()),
        (Player::Second, Phase::Moving)
    );
    assert_eq!(pos.outcome(), None);
    assert_eq!(
        pos.to_position_string(),
        "OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 o 0 0 16"
    );
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert!(!moves.is_empty());
    assert!(
        moves
            .iter()
            .all(|m| pos.piece_at(m.from().unwrap()) == Some(Player::Second))
    );
    // A Black shift is not White's to make.
    assert_eq!(
        pos.play(pos.parse_move("e4-d4").unwrap()),
        Err(MoveError::NotYourPiece {
            square: coord("e4")
        })
    );
    play(&mut pos, "a6-a5");
    // After that first shift the turns alternate again.
    assert_eq!((pos.ply(), pos.side_to_move()), (17, Player::First));
    play(&mut pos, "e4-d4");
    assert_eq!((pos.ply(), pos.side_to_move()), (18, Player::Second));
}

#[test]
fn undo_and_hash_across_the_double_move() {
    let mut pos = at(SECOND, LATE_PLACING);
    play(&mut pos, "a1");
    let before_last = pos.clone();
    let last = pos.parse_legal_move("a6").unwrap();
    let undo = pos.make_move(last);
    // The side to move did not change, so neither did its hash key.
    let plain = at("fourshift", "OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 x 0 0 16");
    assert_eq!(pos.hash(), pos.compute_hash());
    assert_ne!(pos.hash(), plain.hash(), "White to move hashes differently");
    let shift = pos.parse_legal_move("a6-a5").unwrap();
    let before_shift = pos.clone();
    let undo2 = pos.make_move(shift);
    pos.unmake_move(shift, undo2);
    assert_eq!(pos, before_shift);
    pos.unmake_move(last, undo);
    assert_eq!(pos, before_last);
    assert_eq!(pos.side_to_move(), Player::Second);
    assert_eq!(pos.in_hand(Player::Second), 1);
}

/// 4×4 with 8 pieces each fills the board; this order never makes four in a row.
const FILL_4X4: &str = "a4 c4 b4 d4 c3 a3 d3 b3 a2 c2 b2 d2 c1 a1 d1 b1";

#[test]
fn end_rule_2_asks_white_after_its_last_placement() {
    let mut pos = Fourshift::new(config("fourshift:size=4,pieces=8,moving_first=second"));
    play(&mut pos, FILL_4X4);
    assert_eq!(pos.ply(), 16);
    assert_eq!(pos.side_to_move(), Player::Second);
    assert_eq!(
        pos.end_reason(),
        Some(EndReason::NoLegalMove(Player::Second))
    );
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(pos.outcome_reason().unwrap(), "White has no legal moves");
    // Under plain alternation the same board asks Black.
    let mut plain = Fourshift::new(config("fourshift:size=4,pieces=8"));
    play(&mut plain, FILL_4X4);
    assert_eq!(
        plain.end_reason(),
        Some(EndReason::NoLegalMove(Player::First))
    );
    assert_eq!(plain.outcome_reason().unwrap(), "Black has no legal moves");
    // The finished game's string reads back as the same finished game.
    let back = Fourshift::from_position_string(*pos.config(), &pos.to_position_string()).unwrap();
    assert_eq!(back, pos);
}

#[test]
fn white_last_placement_still_wins_before_the_switch() {
    // White to place its last piece at ply 15: b4 completes b3-b6 (rule 1 comes first).
    let mut pos2 = at(SECOND, "1OX2X/1OO2O/4X1/1O2X1/3X1X/XXOO2 o 0 1 15");
    play(&mut pos2, "b4");
    assert_eq!(pos2.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(pos2.outcome_reason().unwrap(), "four in a row b3-b6");
    assert_eq!(pos2.count_moves(), 0);
    let back = Fourshift::from_position_string(*pos2.config(), &pos2.to_position_string()).unwrap();
    assert_eq!(back, pos2);
}

#[test]
fn max_plies_counts_both_white_moves() {
    // max_plies=16: the game is drawn right after White's last placement; no shift.
    let mut pos = at("fourshift:max_plies=16,moving_first=second", LATE_PLACING);
    play(&mut pos, "a1 a6");
    assert_eq!(pos.end_reason(), Some(EndReason::MaxPlies));
    assert_eq!(pos.side_to_move(), Player::Second);
    // max_plies=17: White's double move is plies 16 and 17, and then it is over.
    let mut pos = at("fourshift:max_plies=17,moving_first=second", LATE_PLACING);
    play(&mut pos, "a1 a6 a6-a5");
    assert_eq!(pos.ply(), 17);
    assert_eq!(pos.end_reason(), Some(EndReason::MaxPlies));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "move limit of 17 plies reached"
    );
}

#[test]
fn position_strings_follow_the_moving_first_parity() {
    let white_first = "OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 o 0 0 16";
    let black_first = "OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 x 0 0 16";
    assert!(Fourshift::from_position_string(config(SECOND), white_first).is_ok());
    let e = Fourshift::from_position_string(config(SECOND), black_first).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad position string: at ply 16 it is White's turn (White moves on even plies under moving_first=second)"
    );
    let e = Fourshift::from_position_string(config("fourshift"), white_first).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad position string: at ply 16 it is Black's turn (Black moves on even plies)"
    );
    // Ply 17 under second: Black.
    let pos = at(SECOND, "1OX2X/OOO2O/4X1/4X1/O2X1X/XXOO2 x 0 0 17");
    assert_eq!(pos.side_to_move(), Player::First);
    // Placing is unchanged: Black places on even plies.
    assert!(Fourshift::from_position_string(config(SECOND), "6/6/6/2X3/6/6 x 7 8 1").is_err());
}

/// From the start the variant changes nothing; from the last placements on it does.
#[test]
fn moving_first_second_perft() {
    let mut start = Fourshift::new(config(SECOND));
    assert_eq!(
        (1..=3).map(|d| perft(&mut start, d)).collect::<Vec<_>>(),
        [36, 1_260, 42_840]
    );
    let mut next = at("fourshift", LATE_PLACING);
    let mut second = at(SECOND, LATE_PLACING);
    assert_eq!(
        (1..=4).map(|d| perft(&mut next, d)).collect::<Vec<_>>(),
        LATE_PLACING_NEXT
    );
    assert_eq!(
        (1..=4).map(|d| perft(&mut second, d)).collect::<Vec<_>>(),
        LATE_PLACING_SECOND
    );
    let mut moving = at(SECOND, "OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 o 0 0 16");
    assert_eq!(
        (1..=4).map(|d| perft(&mut moving, d)).collect::<Vec<_>>(),
        MOVING_SECOND
    );
}

/// perft(1..=4) from [`LATE_PLACING`] under the default rules.
const LATE_PLACING_NEXT: [u64; 4] = [22, 462, 7_640, 97_043];
/// The same under `moving_first=second`: equal for two plies (the placements), then White's
/// double move shows.
const LATE_PLACING_SECOND: [u64; 4] = [22, 462, 5_960, 98_870];
/// perft(1..=4) right after White's last placement under `moving_first=second`, White to
/// shift (the default game's Black-to-shift figures for this board: 15, 168, 2,528, 32,817).
const MOVING_SECOND: [u64; 4] = [11, 169, 2_197, 33_535];

// ---------------------------------------------------------------- centre_opening=false

#[test]
fn centre_opening_refused_on_an_even_board() {
    let pos = Fourshift::new(config(NO_CENTRE));
    for name in ["c3", "d3", "c4", "d4"] {
        let mv = pos.parse_move(name).unwrap();
        assert_eq!(
            pos.validate(&mv),
            Err(MoveError::CentreOpening {
                square: coord(name)
            }),
            "{name}"
        );
        assert_eq!(
            MoveError::CentreOpening {
                square: coord(name)
            }
            .to_string(),
            format!(
                "{name} is a centre square: the first placement may not be in the centre (centre_opening=false)"
            )
        );
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert_eq!(moves.len(), 32);
    assert_eq!(pos.count_moves(), 32);
    assert!(moves.iter().all(|m| !pos.is_centre(m.to())));
    // The squares around the centre are fine.
    for name in ["b3", "e4", "c2", "d5", "b2"] {
        assert!(pos.parse_legal_move(name).is_ok(), "{name}");
    }
    // Under the default the centre is open.
    assert!(Fourshift::default().parse_legal_move("c3").is_ok());
}

#[test]
fn centre_opening_refused_on_odd_boards() {
    for (spec, centre, neighbours, count) in [
        (
            "fourshift:size=5,centre_opening=false",
            "c3",
            ["b3", "c4", "d2"],
            24,
        ),
        (
            "fourshift:size=7,centre_opening=false",
            "d4",
            ["c4", "d5", "e3"],
            48,
        ),
        (
            "fourshift:size=3,k=3,pieces=4,centre_opening=false",
            "b2",
            ["a2", "b3", "c1"],
            8,
        ),
    ] {
        let pos = Fourshift::new(config(spec));
        assert_eq!(
            pos.validate(&pos.parse_move(centre).unwrap()),
            Err(MoveError::CentreOpening {
                square: coord(centre)
            }),
            "{spec}"
        );
        assert_eq!(pos.count_moves(), count, "{spec}");
        assert_eq!(pos.centre_squares().count(), 1, "{spec}");
        for n in neighbours {
            assert!(pos.parse_legal_move(n).is_ok(), "{spec} {n}");
        }
    }
}

#[test]
fn white_may_open_in_the_centre_and_black_may_use_it_later() {
    let mut pos = Fourshift::new(config(NO_CENTRE));
    play(&mut pos, "a1");
    assert_eq!(pos.count_moves(), 35);
    play(&mut pos, "c3");
    play(&mut pos, "d4");
    play(&mut pos, "d3 c4");
    assert_eq!(pos.to_position_string(), "6/6/2XX2/2OO2/6/X5 o 5 6 5");
}

#[test]
fn centre_opening_positions_must_be_reachable() {
    // Black's only piece on c3 after one or two placements: impossible.
    for text in ["6/6/6/2X3/6/6 o 7 8 1", "6/6/6/2XO2/6/6 x 7 7 2"] {
        let e = Fourshift::from_position_string(config(NO_CENTRE), text).unwrap_err();
        assert!(
            e.to_string().contains("centre_opening=false"),
            "{text}: {e}"
        );
        assert!(Fourshift::from_position_string(config("fourshift"), text).is_ok());
    }
    // One Black piece off the centre is enough (it may have been the first).
    assert!(
        Fourshift::from_position_string(config(NO_CENTRE), "6/6/2XX2/2XO2/6/O5 o 5 6 5").is_err()
    );
    at(NO_CENTRE, "6/6/2XX2/2OO2/6/X5 o 5 6 5");
}

#[test]
fn centre_opening_perft() {
    let mut pos = Fourshift::new(config(NO_CENTRE));
    assert_eq!(
        (1..=4).map(|d| perft(&mut pos, d)).collect::<Vec<_>>(),
        [32, 1_120, 38_080, 1_256_640]
    );
    // Only the first move is restricted: the moving phase is the default game's.
    let text = "OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21";
    let mut plain = at("fourshift", text);
    let mut variant = at(NO_CENTRE, text);
    for d in 1..=4 {
        assert_eq!(perft(&mut variant, d), perft(&mut plain, d), "perft({d})");
    }
}
