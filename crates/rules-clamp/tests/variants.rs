//! The clamp balance variants of `games.md` ("End" and "Supply"), one test per rule edge:
//! a finite `supply` (pieces in hand, drops gone at 0, an empty hand and no step loses,
//! position strings, hash and undo, diagram) and the adjudication's centre tie-break
//! (decided by count, by the centre block, and drawn), with the variants' perft figures.

#![allow(clippy::unwrap_used)]

use board_core::View as _;
use board_core::{Notation, Outcome, Player, Position, Rules, perft};
use rules_clamp::{ClampConfig, ClampPosition, EndReason, MoveError};

fn config(spec: &str) -> ClampConfig {
    spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn at(spec: &str, text: &str) -> ClampPosition {
    ClampPosition::from_position_string(config(spec), text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(pos: &mut ClampPosition, moves: &str) {
    for text in moves.split_whitespace() {
        assert!(pos.outcome().is_none(), "game over before {text}");
        let mv = pos
            .parse_legal_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.play(mv).unwrap();
        assert_eq!(pos.hash(), pos.compute_hash(), "hash after {text}");
    }
}

fn drops(pos: &ClampPosition) -> usize {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves.iter().filter(|m| m.is_drop()).count()
}

// ---------------------------------------------------------------- the supply key

#[test]
fn supply_key_parses_prints_and_defaults_to_unlimited() {
    assert_eq!(ClampConfig::default().supply(), None);
    assert_eq!(config("clamp:supply=unlimited"), ClampConfig::default());
    assert_eq!(config("clamp:supply=UNLIMITED"), ClampConfig::default());
    let c = config("clamp:supply=12,adjudicate=true");
    assert_eq!(c.supply(), Some(12));
    assert_eq!(
        c.to_string(),
        "clamp:size=8,zone=3,start=4,max_on_board=10,quiet_limit=80,adjudicate=true,supply=12"
    );
    assert_eq!(config(&c.to_string()), c);
    assert_eq!(config("clamp:supply=0").supply(), Some(0));
    assert_eq!(config("clamp:supply=1000000").supply(), Some(1_000_000));
}

#[test]
fn supply_errors_name_the_key_and_range() {
    let err = |s: &str| s.parse::<ClampConfig>().unwrap_err().to_string();
    assert_eq!(
        err("clamp:supply=1000001"),
        "supply=1000001 is out of range: expected an integer from 0 to 1000000, or unlimited"
    );
    assert_eq!(
        err("clamp:supply=-1"),
        "supply=-1 is not valid: expected an integer from 0 to 1000000, or unlimited"
    );
    assert_eq!(
        err("clamp:supply=infinite"),
        "supply=infinite is not valid: expected an integer from 0 to 1000000, or unlimited"
    );
    assert!(ClampConfig::default().with_supply(Some(1_000_001)).is_err());
}

// ---------------------------------------------------------------- pieces in hand

#[test]
fn every_drop_uses_a_piece_from_the_hand() {
    let mut pos = ClampPosition::new(config("clamp:supply=12"));
    assert_eq!(
        (pos.in_hand(Player::First), pos.in_hand(Player::Second)),
        (Some(12), Some(12))
    );
    play(&mut pos, "d7 c2");
    assert_eq!(
        (pos.in_hand(Player::First), pos.in_hand(Player::Second)),
        (Some(11), Some(11))
    );
    // A step leaves the hand alone.
    play(&mut pos, "c6-c5");
    assert_eq!(pos.in_hand(Player::First), Some(11));
    assert_eq!(
        ClampPosition::new(ClampConfig::default()).in_hand(Player::First),
        None
    );
}

#[test]
fn supply_reaching_zero_takes_the_drops_off_the_move_list() {
    let mut pos = ClampPosition::new(config("clamp:supply=1"));
    assert_eq!(drops(&pos), 20);
    play(&mut pos, "d7");
    assert_eq!(pos.in_hand(Player::First), Some(0));
    // White still has its piece.
    assert_eq!(drops(&pos), 20);
    play(&mut pos, "c3-c4");
    // Black: no drop in the list, only steps, and a drop is refused with its own error.
    assert_eq!(drops(&pos), 0);
    assert!(pos.count_moves() > 0);
    assert!(!pos.can_drop(Player::First));
    let drop = pos.parse_move("a8").unwrap();
    assert_eq!(
        pos.validate(&drop),
        Err(MoveError::NoPiecesInHand { supply: 1 })
    );
    assert_eq!(
        MoveError::NoPiecesInHand { supply: 1 }.to_string(),
        "you have no pieces left in hand to drop (supply=1): step instead"
    );
    assert_eq!(pos.play(drop), Err(MoveError::NoPiecesInHand { supply: 1 }));
    // Under the unlimited default the same drop is fine.
    let mut plain = ClampPosition::new(ClampConfig::default());
    play(&mut plain, "d7 c3-c4");
    assert!(plain.parse_legal_move("a8").is_ok());
}

#[test]
fn a_drop_needs_a_piece_in_hand_and_room_on_the_board() {
    // Black at max_on_board=4 with pieces in hand: no drop (the board is the limit).
    let pos = ClampPosition::new(config("clamp:max_on_board=4,supply=5"));
    assert_eq!(drops(&pos), 0);
    let drop = pos.parse_move("a8").unwrap();
    assert_eq!(
        pos.validate(&drop),
        Err(MoveError::TooManyPieces { max: 4 })
    );
    // The hand is checked first when both fail.
    let pos = ClampPosition::new(config("clamp:max_on_board=4,supply=0"));
    assert_eq!(
        pos.validate(&drop),
        Err(MoveError::NoPiecesInHand { supply: 0 })
    );
}

#[test]
fn captured_pieces_do_not_return_to_the_hand() {
    // White d5 between c6 and e4: Black's step f3-e4 captures it; White's hand stays 2.
    let mut pos = at("clamp:supply=2", "8/8/2X5/3O4/8/5X2/8/8 x 0 0 2 2");
    let undo = pos.play(pos.parse_move("f3-e4").unwrap()).unwrap();
    assert_eq!(undo.captures(), 1);
    assert_eq!(pos.in_hand(Player::Second), Some(2));
    assert_eq!(pos.piece_count(Player::Second), 0);
}

#[test]
fn an_empty_hand_and_no_step_loses_even_with_room_in_the_zone() {
    // White's only piece a1 is boxed in by a2 b2 b1 after c1-b1; White's zone has room but
    // its hand is empty: no legal move, Black wins (end rule 2).
    let mut pos = at("clamp:size=6,supply=0", "6/6/6/6/XX4/O1X3 x 0 0 0 0");
    play(&mut pos, "c1-b1");
    assert_eq!(pos.end_reason(), Some(EndReason::NoMoves));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.outcome_reason().unwrap(), "White has no legal move");
    assert_eq!(pos.count_moves(), 0);
    // With a piece in hand White could drop, and the game goes on.
    let mut pos = at("clamp:size=6,supply=1", "6/6/6/6/XX4/O1X3 x 0 0 1 1");
    play(&mut pos, "c1-b1");
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.count_moves(), drops(&pos) as u64);
}

// ---------------------------------------------------------------- position strings, hash, undo

#[test]
fn position_strings_carry_the_hands() {
    let mut pos = ClampPosition::new(config("clamp:supply=12"));
    assert_eq!(
        pos.to_position_string(),
        "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0 12 12"
    );
    play(&mut pos, "d7 c3-c4 c6-b5");
    let text = pos.to_position_string();
    assert_eq!(text, "8/3X4/3XXX2/1X6/2O5/3OOO2/8/8 o 3 3 11 12");
    let back = at("clamp:supply=12", &text);
    assert_eq!(back, pos);
    assert_eq!(back.hash(), pos.hash());
    // The unlimited default keeps its four fields.
    assert_eq!(
        ClampPosition::new(ClampConfig::default()).to_position_string(),
        "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0"
    );
}

#[test]
fn position_string_hand_errors() {
    let err = |spec: &str, text: &str| {
        ClampPosition::from_position_string(config(spec), text)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err("clamp:supply=12", "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0"),
        "bad position string: expected 6 fields (board, side to move x or o, quiet counter, ply, Black's and White's pieces in hand), found 4"
    );
    assert_eq!(
        err("clamp", "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0 12 12"),
        "bad position string: expected 4 fields (board, side to move x or o, quiet counter, ply), found 6"
    );
    assert_eq!(
        err("clamp:supply=12", "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0 13 12"),
        "bad position string: Black's pieces in hand '13' is not a number from 0 to 12"
    );
    assert_eq!(
        err("clamp:supply=12", "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0 12 x"),
        "bad position string: White's pieces in hand 'x' is not a number from 0 to 12"
    );
    // Five Black pieces but nothing dropped yet.
    assert_eq!(
        err("clamp:supply=12", "8/3X4/2XXXX2/8/8/2OOOO2/8/8 o 1 1 12 12"),
        "bad position string: Black has 5 pieces on the board but only 4 to have come from: 4 at the start and 0 dropped (supply=12, 12 in hand)"
    );
}

#[test]
fn hands_are_hashed_and_undone() {
    let a = at("clamp:supply=12", "8/3X4/2XXXX2/8/8/2OOOO2/8/8 o 1 1 11 12");
    let b = at("clamp:supply=12", "8/3X4/2XXXX2/8/8/2OOOO2/8/8 o 1 1 10 12");
    assert_ne!(a.hash(), b.hash(), "same board, different hands");
    assert_eq!(a.hash(), a.compute_hash());
    // The unlimited hash is the board and side alone (unchanged by the variant).
    let plain = at("clamp", "8/3X4/2XXXX2/8/8/2OOOO2/8/8 o 1 1");
    assert_ne!(plain.hash(), a.hash());
    let mut pos = a.clone();
    let drop = pos.parse_legal_move("c2").unwrap();
    let undo = pos.make_move(drop);
    assert_eq!(pos.in_hand(Player::Second), Some(11));
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake_move(drop, undo);
    assert_eq!(pos, a);
    assert_eq!(pos.hash(), a.hash());
}

#[test]
fn diagram_shows_the_pieces_in_hand() {
    let mut pos = ClampPosition::new(config("clamp:size=6,supply=3"));
    play(&mut pos, "b6");
    assert_eq!(
        pos.diagram(),
        "  a b c d e f\n\
         6 . X . . . .  6\n\
         5 . . . . . .  5\n\
         4 . X X X X .  4\n\
         3 . O O O O .  3\n\
         2 . . . . . .  2\n\
         1 . . . . . .  1\n  a b c d e f\nin hand: Black 2, White 3\n"
    );
    assert!(
        !ClampPosition::new(ClampConfig::default())
            .diagram()
            .contains("in hand")
    );
}

// ---------------------------------------------------------------- adjudication

/// A position one quiet move from the limit (quiet_limit=10), `side` to move at ply 21 or
/// 20, built from a board string.
fn near_limit(spec: &str, board: &str, side: char) -> ClampPosition {
    let ply = if side == 'x' { 20 } else { 21 };
    at(spec, &format!("{board} {side} 9 {ply}"))
}

#[test]
fn adjudication_by_piece_count() {
    // Black 5, White 4, none in the centre: Black wins on count.
    let mut pos = near_limit(
        "clamp:quiet_limit=10,adjudicate=true",
        "XXXXX3/8/8/8/8/8/8/OOOO4",
        'x',
    );
    play(&mut pos, "a8-a7");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "10 half-moves without a capture, adjudicated: 5 pieces to 4"
    );
    // More pieces wins even against more centre pieces.
    let mut pos = near_limit(
        "clamp:quiet_limit=10,adjudicate=true",
        "XXXXX3/8/8/3OO3/3OO3/8/8/8",
        'x',
    );
    play(&mut pos, "a8-a7");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn adjudication_by_centre_when_the_counts_are_equal() {
    // 4 pieces each; Black has d4 e5 in the centre block (c3-f6), White only c3.
    let mut pos = near_limit(
        "clamp:quiet_limit=10,adjudicate=true",
        "XX6/8/8/4X3/3X4/2O5/8/OOO5",
        'x',
    );
    play(&mut pos, "a8-a7");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "10 half-moves without a capture, adjudicated: 4 pieces each, 2 to 1 on the centre squares"
    );
    // White ahead in the centre, White makes the limit move: White wins.
    let mut pos = near_limit(
        "clamp:quiet_limit=10,adjudicate=true",
        "XXXX4/8/3O4/8/8/2O2O2/8/O7",
        'o',
    );
    play(&mut pos, "a1-a2");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "10 half-moves without a capture, adjudicated: 4 pieces each, 3 to 0 on the centre squares"
    );
    // A step onto the centre on the limit move decides it.
    let mut pos = near_limit(
        "clamp:quiet_limit=10,adjudicate=true",
        "XXXX4/8/8/8/8/8/8/OOOO4",
        'x',
    );
    play(&mut pos, "d8-d6");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    // Without adjudication it is a draw whatever the centre.
    let mut pos = near_limit("clamp:quiet_limit=10", "XX6/8/8/4X3/3X4/2O5/8/OOO5", 'x');
    play(&mut pos, "a8-a7");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "10 half-moves without a capture"
    );
}

#[test]
fn adjudication_drawn_when_count_and_centre_are_equal() {
    let mut pos = near_limit(
        "clamp:quiet_limit=10,adjudicate=true",
        "XXX5/8/8/3X4/8/4O3/8/OOO5",
        'x',
    );
    play(&mut pos, "a8-a7");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "10 half-moves without a capture, adjudicated: 4 pieces each and 1 each on the centre squares"
    );
}

#[test]
fn the_centre_block_on_six_by_six_is_b2_to_e5() {
    assert_eq!(config("clamp:size=6").centre_span(), (1, 4));
    assert_eq!(config("clamp").centre_span(), (2, 5));
    assert_eq!(config("clamp:size=26").centre_span(), (11, 14));
    // b2 and e5 count, a1, f1, a6, b6 and f6 do not: White b2 e5 against none of Black.s.
    let pos = at(
        "clamp:size=6,quiet_limit=10,adjudicate=true",
        "XX3X/4O1/6/6/1O4/OX3O x 10 20",
    );
    assert_eq!(pos.centre_count(Player::Second), 2);
    assert_eq!(pos.centre_count(Player::First), 0);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "10 half-moves without a capture, adjudicated: 4 pieces each, 2 to 0 on the centre squares"
    );
}

// ---------------------------------------------------------------- perft

fn perfts(pos: &mut ClampPosition, depth: u32) -> Vec<u64> {
    (1..=depth).map(|d| perft(pos, d)).collect()
}

#[test]
fn supply_perft_at_the_start() {
    // Enough pieces in hand for the first plies: the default figures.
    let mut pos = ClampPosition::new(config("clamp:supply=12"));
    assert_eq!(perfts(&mut pos, 4), [72, 5_118, 363_710, 25_655_092]);
    // No drops at all: 52 steps for Black.
    let mut pos = ClampPosition::new(config("clamp:supply=0"));
    assert_eq!(perfts(&mut pos, 4), [52, 2_638, 127_736, 6_112_040]);
    // One piece each: the hands run dry from ply 3 on.
    let mut pos = ClampPosition::new(config("clamp:supply=1"));
    assert_eq!(perfts(&mut pos, 4), [72, 5_118, 336_350, 21_874_936]);
    let mut pos = ClampPosition::new(config("clamp:size=6,supply=0"));
    assert_eq!(perfts(&mut pos, 4), [26, 790, 23_942, 782_414]);
}

#[test]
fn supply_perft_later_in_the_game() {
    // Black has one piece left in hand, White none (Black 7 on the board, White 4).
    let text = "8/2X5/2XXXX2/8/8/2OOOO2/8/8 x 3 12 1 0";
    for spec in ["clamp:supply=5", "clamp:supply=12,adjudicate=true"] {
        let mut pos = at(spec, text);
        assert_eq!(perfts(&mut pos, 3), [76, 3_885, 274_831], "{spec}");
    }
}

#[test]
fn the_tie_break_does_not_change_perft() {
    // Outcomes differ, move counts do not: a finished game counts 0 whoever won.
    for text in [
        "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0",
        "8/8/2X5/3O4/8/5X2/8/8 x 2 2",
    ] {
        let mut plain = at("clamp:quiet_limit=3", text);
        let mut adjudicated = at("clamp:quiet_limit=3,adjudicate=true", text);
        assert_eq!(perfts(&mut plain, 3), perfts(&mut adjudicated, 3), "{text}");
    }
}
