//! One focused test per rule of `games.md` (section "fourshift") and per edge, every
//! `MoveError`, config and position-string parsing, and pinned perft figures.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns unwrap too

use board_core::{
    Coord, Notation, NotationError, Outcome, Player, Position, PositionStringError, Rules, Square,
    SquareError, SquareSet, perft,
};
use rules_fourshift::{EndReason, Fourshift, FourshiftConfig, Move, MoveError, Phase};

fn config(spec: &str) -> FourshiftConfig {
    spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn start(spec: &str) -> Fourshift {
    Fourshift::new(config(spec))
}

fn at(spec: &str, text: &str) -> Fourshift {
    Fourshift::from_position_string(config(spec), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays whitespace-separated moves, each of which must be legal.
fn play(pos: &mut Fourshift, moves: &str) {
    for text in moves.split_whitespace() {
        assert!(pos.outcome().is_none(), "game over before {text}");
        let mv = pos
            .parse_legal_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.play(mv).unwrap();
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}

fn sq(pos: &Fourshift, name: &str) -> Square {
    pos.geometry().parse_square(name).unwrap()
}

fn coord(name: &str) -> Coord {
    name.parse().unwrap()
}

fn shift(pos: &Fourshift, from: &str, to: &str) -> Move {
    Move::Shift {
        from: sq(pos, from),
        to: sq(pos, to),
    }
}

fn moves_of(pos: &Fourshift) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    texts.sort();
    texts
}

/// `play` refuses `mv` with `expected` and leaves the position and hash untouched.
fn refused(pos: &mut Fourshift, mv: Move, expected: MoveError) {
    let before = pos.clone();
    assert_eq!(pos.validate(&mv), Err(expected.clone()));
    assert_eq!(pos.play(mv).err(), Some(expected));
    assert_eq!(*pos, before);
    assert_eq!(pos.hash(), before.hash());
    assert_eq!(pos.to_position_string(), before.to_position_string());
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_from_the_start() {
    let mut pos = Fourshift::default();
    let expected = [1, 36, 1_260, 42_840, 1_413_720, 45_239_040];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32), n, "perft({d})");
    }
    assert_eq!(pos, Fourshift::default());
}

/// Figures cross-checked against the naive reference in `tests/reference.rs`
/// (`deep_reference_figures`).
#[test]
fn perft_past_the_opening() {
    for (text, figures) in [
        // four placements left: depth 5 reaches the moving phase
        (
            "O2X2/3XX1/2O1OX/O5/4X1/2OXO1 x 2 2 12",
            &[24, 552, 12_144, 252_252, 3_460_620][..],
        ),
        // last two placements, then shifts
        (
            "1OX2X/1OO2O/4X1/4X1/O2X1X/1XOO2 x 1 1 14",
            &[22, 462, 7_640, 97_043, 1_594_261, 22_617_524][..],
        ),
        // moving phase, White to move
        (
            "OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21",
            &[15, 240, 3_902, 62_876, 1_060_276, 17_140_578][..],
        ),
        // moving phase, Black to move
        (
            "XOO3/O1OX1O/1X2X1/X1O1OX/X5/O4X x 0 0 30",
            &[17, 267, 4_175, 62_775, 948_348][..],
        ),
    ] {
        let mut pos = at("fourshift", text);
        for (d, &n) in figures.iter().enumerate() {
            assert_eq!(perft(&mut pos, d as u32 + 1), n, "{text} perft({})", d + 1);
        }
        assert_eq!(pos.to_position_string(), text);
    }
}

/// Other board sizes and k (also cross-checked against the reference).
#[test]
fn perft_on_other_boards() {
    for (spec, text, figures) in [
        // 8×8, k=5: the last placements, with wins at depth 4
        (
            "fourshift:size=8,k=5,pieces=12",
            "2X5/1XXXO3/OX2X3/3XO3/8/O1OXXO2/5OO1/4OOX1 x 2 2 20",
            &[44, 1_892, 79_464, 3_251_136][..],
        ),
        (
            "fourshift:size=8,k=5,pieces=12",
            "2XXO1O1/1XX1O3/4XX2/1X1XO3/O7/O1O1XO2/4XOOX/3O1OX1 x 0 0 40",
            &[25, 578, 14_686, 347_420][..],
        ),
        // 9×9 (the wide board representation), moving phase
        (
            "fourshift:size=9,k=4,pieces=6",
            "3O5/1XX2O3/1O6X/9/7X1/9/6X1O/9/6OOX x 0 0 20",
            &[17, 269, 4_630, 74_845, 1_287_978][..],
        ),
        // 9×9 start: nothing can end within four plies
        (
            "fourshift:size=9,k=4,pieces=6",
            "9/9/9/9/9/9/9/9/9 x 6 6 0",
            &[81, 6_480, 511_920, 39_929_760][..],
        ),
    ] {
        let mut pos = at(spec, text);
        for (d, &n) in figures.iter().enumerate() {
            assert_eq!(
                perft(&mut pos, d as u32 + 1),
                n,
                "{spec} {text} perft({})",
                d + 1
            );
        }
    }
}

#[test]
fn finished_positions_have_no_moves() {
    let mut pos = at("fourshift", "1OO3/XOX1O1/X1O2X/XO4/X3OX/1O3X o 0 0 43");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.count_moves(), 0);
    assert!(moves_of(&pos).is_empty());
    assert_eq!(perft(&mut pos, 0), 1);
    assert_eq!(perft(&mut pos, 1), 0);
    assert_eq!(perft(&mut pos, 3), 0);
}

// ---------------------------------------------------------------- placing phase

#[test]
fn the_board_starts_empty_with_black_to_move() {
    let pos = Fourshift::default();
    assert_eq!(pos.to_position_string(), "6/6/6/6/6/6 x 8 8 0");
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(pos.player_name(Player::First), "Black");
    assert_eq!(pos.player_name(Player::Second), "White");
    assert_eq!(pos.phase(), Phase::Placing);
    assert_eq!(pos.in_hand(Player::First), 8);
    assert_eq!(pos.in_hand(Player::Second), 8);
    assert!(pos.occupied().is_empty());
    assert_eq!(pos.count_moves(), 36);
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.outcome_reason(), None);
}

#[test]
fn placing_puts_a_piece_from_hand_on_any_empty_square() {
    let mut pos = Fourshift::default();
    play(&mut pos, "c3");
    assert_eq!(pos.piece_at(sq(&pos, "c3")), Some(Player::First));
    assert_eq!(pos.in_hand(Player::First), 7);
    assert_eq!(pos.side_to_move(), Player::Second);
    assert_eq!(pos.count_moves(), 35);
    assert!(!moves_of(&pos).contains(&"c3".to_string()));
    play(&mut pos, "d4");
    assert_eq!(pos.piece_at(sq(&pos, "d4")), Some(Player::Second));
    assert_eq!(pos.to_position_string(), "6/6/3O2/2X3/6/6 x 7 7 2");
    assert_eq!(pos.ply(), 2);
}

#[test]
fn moving_phase_starts_after_both_hands_are_empty() {
    let mut pos = start("fourshift:pieces=2");
    play(&mut pos, "a1 f6 c3");
    assert_eq!(
        pos.phase(),
        Phase::Placing,
        "White still has a piece to place"
    );
    play(&mut pos, "d4");
    assert_eq!(pos.phase(), Phase::Moving);
    assert_eq!(pos.ply(), 4);
    assert_eq!(
        moves_of(&pos),
        ["a1-a2", "a1-b1", "c3-b3", "c3-c2", "c3-c4", "c3-d3"]
    );
}

// ---------------------------------------------------------------- moving phase

#[test]
fn shifts_go_to_orthogonally_adjacent_empty_squares_only() {
    // Black c3 is surrounded by White on two sides; diagonals are never moves.
    let pos = at("fourshift:pieces=3", "5O/6/2O3/2XO2/6/X4X x 0 0 6");
    assert_eq!(
        moves_of(&pos),
        ["a1-a2", "a1-b1", "c3-b3", "c3-c2", "f1-e1", "f1-f2"]
    );
}

#[test]
fn shifts_never_wrap_around_an_edge() {
    // Black f3 is boxed in by White (e3, f4, f2); a4 (index f3+1) is empty but is not its
    // neighbour. Black a6 must not reach f5 (index a6-1) nor leave the top; a1 the bottom.
    let mut pos = at("fourshift:pieces=3", "X5/6/5O/4OX/5O/X5 x 0 0 6");
    assert_eq!(moves_of(&pos), ["a1-a2", "a1-b1", "a6-a5", "a6-b6"]);
    let f3 = sq(&pos, "f3");
    let a6 = sq(&pos, "a6");
    let a1 = sq(&pos, "a1");
    // right edge to the next row: f3 -> index 18 = a4
    refused(
        &mut pos,
        Move::Shift {
            from: f3,
            to: Square(f3.0 + 1),
        },
        MoveError::NotAdjacent {
            from: coord("f3"),
            to: coord("a4"),
        },
    );
    // left edge to the previous row: a6 -> index 29 = f5
    refused(
        &mut pos,
        Move::Shift {
            from: a6,
            to: Square(a6.0 - 1),
        },
        MoveError::NotAdjacent {
            from: coord("a6"),
            to: coord("f5"),
        },
    );
    // top edge: a6 -> index 36 is off the board
    refused(
        &mut pos,
        Move::Shift {
            from: a6,
            to: Square(a6.0 + 6),
        },
        MoveError::OffBoard { index: 36, size: 6 },
    );
    // bottom edge: a1 "minus one row" wraps the u16 index: off the board
    refused(
        &mut pos,
        Move::Shift {
            from: a1,
            to: Square(a1.0.wrapping_sub(6)),
        },
        MoveError::OffBoard {
            index: u16::MAX - 5,
            size: 6,
        },
    );
    // and in notation, g3 and a7 are not squares of this board
    assert!(matches!(
        pos.parse_move("f3-g3"),
        Err(NotationError::Square(SquareError::OffBoard { .. }))
    ));
    assert!(matches!(
        pos.parse_move("a6-a7"),
        Err(NotationError::Square(SquareError::OffBoard { .. }))
    ));
}

#[test]
fn no_wrapping_on_larger_boards_either() {
    // 9×9 (the wide representation): Black i5 boxed in, a6 (index i5+1) empty.
    let pos = at(
        "fourshift:size=9,pieces=3",
        "9/9/9/8O/7OX/8O/9/9/XX7 x 0 0 6",
    );
    assert_eq!(moves_of(&pos), ["a1-a2", "b1-b2", "b1-c1"]);
    let pos = at(
        "fourshift:size=8,pieces=3",
        "X7/O7/8/8/3X4/8/7O/O6X x 0 0 6",
    );
    // a8: north off, west would wrap to h7; h1: east would wrap to a2, south off.
    assert_eq!(
        moves_of(&pos),
        ["a8-b8", "d4-c4", "d4-d3", "d4-d5", "d4-e4", "h1-g1"]
    );
}

// ---------------------------------------------------------------- winning lines

#[test]
fn three_in_a_row_does_not_win_with_k_4() {
    let mut pos = Fourshift::default();
    play(&mut pos, "a1 f6 b1 f5 c1");
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.longest_line(Player::First).unwrap().len, 3);
}

#[test]
fn k_in_a_row_wins_and_so_does_more() {
    let mut pos = Fourshift::default();
    play(&mut pos, "a1 f6 b1 f5 c1 f3 d1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.end_reason(), Some(EndReason::Line(Player::First)));
    assert_eq!(pos.outcome_reason().unwrap(), "four in a row a1-d1");

    // five in a row: a1 b1 _ d1 e1, then c1
    let mut pos = Fourshift::default();
    play(&mut pos, "a1 f6 b1 f5 d1 f3 e1 a6 c1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.outcome_reason().unwrap(), "five in a row a1-e1");
    let line = pos.winning_line().unwrap();
    assert_eq!((line.len, line.player), (5, Player::First));

    // with k=3 three in a row wins
    let mut pos = start("fourshift:k=3");
    play(&mut pos, "a1 f6 b1 f5 c1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.outcome_reason().unwrap(), "three in a row a1-c1");
}

#[test]
fn lines_must_be_unbroken() {
    let mut pos = Fourshift::default();
    // a1 b1 c1 e1: a gap at d1 (White), not four in a row
    play(&mut pos, "a1 d1 b1 f5 c1 f3 e1");
    assert_eq!(pos.outcome(), None);
}

#[test]
fn the_last_placement_can_win_before_the_moving_phase() {
    let mut pos = Fourshift::default();
    play(&mut pos, "a1 f2 c1 f4 e1 d2 a3 b4 c3 b6 e3 c6 a5 d6 c5");
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.ply(), 15);
    // White's eighth and last piece completes b6-e6: checked before the moving phase.
    play(&mut pos, "e6");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(pos.outcome_reason().unwrap(), "four in a row b6-e6");
    assert_eq!(pos.in_hand(Player::First) + pos.in_hand(Player::Second), 0);
    assert_eq!(pos.count_moves(), 0);
}

#[test]
fn a_win_in_the_moving_phase_by_a_shift_in_every_direction() {
    // pieces=4: the moving phase starts at ply 8; Black to move, White far away.
    for (board, mv, reason) in [
        // horizontal: d2-d1 completes a1-d1
        ("O3OO/5O/6/6/3X2/XXX3", "d2-d1", "four in a row a1-d1"),
        // vertical: d5-c5 completes c2-c5
        ("O3OO/3X1O/2X3/2X3/2X3/6", "d5-c5", "four in a row c2-c5"),
        // diagonal up-right: e4-d4 completes a1-d4
        ("O3OO/5O/4X1/2X3/1X4/X5", "e4-d4", "four in a row a1-d4"),
        // diagonal down-right: e1-d1 completes a4-d1 (printed lower square first)
        ("O3OO/5O/X5/1X4/2X3/4X1", "e1-d1", "four in a row d1-a4"),
    ] {
        let text = format!("{board} x 0 0 8");
        let mut pos = at("fourshift:pieces=4", &text);
        assert_eq!(pos.outcome(), None, "{text}");
        play(&mut pos, mv);
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Win(Player::First)),
            "{text} {mv}"
        );
        assert_eq!(pos.outcome_reason().unwrap(), reason);
        assert_eq!(pos.count_moves(), 0);
        // the finished position reads back finished
        let back = at("fourshift:pieces=4", &pos.to_position_string());
        assert_eq!(back, pos);
    }
}

#[test]
fn moving_a_piece_out_of_a_line_does_not_win() {
    // Black a1 b1 c1 d2: moving d2 up keeps three, no win.
    let mut pos = at("fourshift:pieces=4", "O3OO/5O/6/6/3X2/XXX3 x 0 0 8");
    play(&mut pos, "d2-d3");
    assert_eq!(pos.outcome(), None);
}

// ---------------------------------------------------------------- draws

#[test]
fn no_legal_move_is_a_draw_when_all_pieces_are_blocked() {
    // Black a1 a2 b1 fenced in by White a3 b2 c1 after the last placement.
    let mut pos = start("fourshift:pieces=3");
    play(&mut pos, "a1 a3 a2 b2 b1 c1");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(
        pos.end_reason(),
        Some(EndReason::NoLegalMove(Player::First))
    );
    assert_eq!(pos.outcome_reason().unwrap(), "Black has no legal moves");
    assert_eq!(pos.count_moves(), 0);

    // and by a shift in the moving phase: White d1-c1 closes the fence
    let mut pos = at("fourshift:pieces=3", "6/6/6/O5/XO4/XX1O2 o 0 0 7");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "d1-c1");
    assert_eq!(
        pos.end_reason(),
        Some(EndReason::NoLegalMove(Player::First))
    );
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_full_board_after_placement_is_a_draw() {
    // 4×4 with 8 pieces each and no four in a row:
    //   X X O O / O O X X / X X O O / O O X X (rank 4 to rank 1)
    let mut pos = start("fourshift:size=4,k=4,pieces=8");
    play(&mut pos, "c1 a1 d1 b1 a2 c2 b2 d2 c3 a3 d3 b3 a4 c4 b4");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "d4");
    assert!(pos.empty_squares().is_empty());
    assert_eq!(
        pos.end_reason(),
        Some(EndReason::NoLegalMove(Player::First))
    );
    assert_eq!(pos.to_position_string(), "XXOO/OOXX/XXOO/OOXX x 0 0 16");
}

#[test]
fn max_plies_draw_counts_placements() {
    let mut pos = start("fourshift:max_plies=5");
    play(&mut pos, "a1 b1 c1 d1");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "e1");
    assert_eq!(pos.end_reason(), Some(EndReason::MaxPlies));
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "move limit of 5 plies reached"
    );
    assert_eq!(pos.phase(), Phase::Placing);
    assert_eq!(pos.count_moves(), 0);

    // in the moving phase too
    let mut pos = start("fourshift:pieces=2,max_plies=6");
    play(&mut pos, "a1 f6 c3 d4 a1-a2");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "d4-d5");
    assert_eq!(pos.end_reason(), Some(EndReason::MaxPlies));
}

#[test]
fn a_win_on_the_last_allowed_ply_is_still_a_win() {
    let mut pos = start("fourshift:max_plies=7");
    play(&mut pos, "a1 f6 b1 f5 c1 f3 d1");
    assert_eq!(pos.ply(), 7);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.end_reason(), Some(EndReason::Line(Player::First)));
}

#[test]
fn no_legal_move_is_reported_before_the_move_limit() {
    let mut pos = start("fourshift:pieces=3,max_plies=6");
    play(&mut pos, "a1 a3 a2 b2 b1 c1");
    assert_eq!(
        pos.end_reason(),
        Some(EndReason::NoLegalMove(Player::First))
    );
}

// ---------------------------------------------------------------- errors

#[test]
fn every_move_error() {
    // placing phase
    let mut pos = Fourshift::default();
    play(&mut pos, "c3 d4");
    let c3 = sq(&pos, "c3");
    refused(
        &mut pos,
        Move::Place(c3),
        MoveError::Occupied {
            square: coord("c3"),
        },
    );
    let mv = shift(&pos, "c3", "c4");
    refused(&mut pos, mv, MoveError::ShiftWhilePlacing { in_hand: 7 });
    refused(
        &mut pos,
        Move::Place(Square(36)),
        MoveError::OffBoard { index: 36, size: 6 },
    );

    // moving phase: Black c3 a1, White d4 f6 (pieces=2), Black to move
    let mut pos = start("fourshift:pieces=2");
    play(&mut pos, "c3 d4 a1 f6");
    let e5 = sq(&pos, "e5");
    refused(&mut pos, Move::Place(e5), MoveError::PlaceWhileMoving);
    let mv = shift(&pos, "b2", "b3");
    refused(
        &mut pos,
        mv,
        MoveError::NoPiece {
            square: coord("b2"),
        },
    );
    let mv = shift(&pos, "d4", "d5");
    refused(
        &mut pos,
        mv,
        MoveError::NotYourPiece {
            square: coord("d4"),
        },
    );
    for to in ["d4", "b2", "c5", "a3", "c3"] {
        // diagonal (occupied or not), distance 2, same square
        let mv = shift(&pos, "c3", to);
        refused(
            &mut pos,
            mv,
            MoveError::NotAdjacent {
                from: coord("c3"),
                to: coord(to),
            },
        );
    }
    play(&mut pos, "c3-c4");
    // White d4: c4 is now Black's
    let mv = shift(&pos, "d4", "c4");
    refused(
        &mut pos,
        mv,
        MoveError::DestinationOccupied {
            square: coord("c4"),
        },
    );

    // game over
    let mut pos = Fourshift::default();
    play(&mut pos, "a1 f6 b1 f5 c1 f3 d1");
    let e4 = sq(&pos, "e4");
    refused(&mut pos, Move::Place(e4), MoveError::GameOver);
    let mv = shift(&pos, "d1", "d2");
    refused(&mut pos, mv, MoveError::GameOver);
}

#[test]
fn error_messages_name_squares() {
    let pos = Fourshift::default();
    let msg = |e: MoveError| e.to_string();
    assert_eq!(
        msg(MoveError::Occupied {
            square: coord("e5")
        }),
        "e5 is occupied"
    );
    assert_eq!(
        msg(MoveError::NotYourPiece {
            square: coord("d4")
        }),
        "d4 is not your piece"
    );
    assert_eq!(msg(MoveError::GameOver), "the game is over");
    assert_eq!(
        msg(MoveError::NotAdjacent {
            from: coord("c3"),
            to: coord("d4")
        }),
        "c3-d4 is not a step to an orthogonally adjacent square"
    );
    let e = pos.parse_legal_move("c3-c4").unwrap_err();
    assert_eq!(
        e.to_string(),
        "you still have 8 piece(s) in hand: place one before shifting"
    );
}

#[test]
fn a_rejected_move_changes_nothing_anywhere_in_a_game() {
    let mut pos = at("fourshift", "OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21");
    let cells = pos.geometry().cells() as u16;
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    let mut refusals = 0;
    for a in 0..cells + 2 {
        for mv in [Move::Place(Square(a))]
            .into_iter()
            .chain((0..cells + 2).map(|b| Move::Shift {
                from: Square(a),
                to: Square(b),
            }))
        {
            let before = pos.clone();
            match pos.play(mv) {
                Ok(undo) => {
                    assert!(legal.contains(&mv));
                    pos.unmake_move(mv, undo);
                    assert_eq!(pos, before);
                }
                Err(_) => {
                    refusals += 1;
                    assert!(!legal.contains(&mv));
                    assert_eq!(pos, before);
                    assert_eq!(pos.hash(), before.hash());
                }
            }
        }
    }
    assert!(refusals > 1000);
}

// ---------------------------------------------------------------- make/unmake, hash

#[test]
fn make_unmake_restores_every_field() {
    let mut pos = start("fourshift:pieces=2,max_plies=6");
    play(&mut pos, "a1 f6 c3 d4 a1-a2");
    let before = pos.clone();
    let mv = pos.parse_legal_move("d4-d5").unwrap();
    let undo = pos.make_move(mv);
    assert_eq!(pos.end_reason(), Some(EndReason::MaxPlies));
    assert_ne!(pos.hash(), before.hash());
    pos.unmake_move(mv, undo);
    assert_eq!(pos, before);
    assert_eq!(pos.hash(), before.hash());
    assert_eq!(pos.end_reason(), None);
}

#[test]
fn the_hash_depends_on_pieces_and_side_not_on_the_path() {
    let mut a = Fourshift::default();
    play(&mut a, "a1 f6 c3 d4");
    let mut b = Fourshift::default();
    play(&mut b, "c3 d4 a1 f6");
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a, b);
    let mut c = Fourshift::default();
    play(&mut c, "c3 f6 a1 d4");
    assert_eq!(a.hash(), c.hash());
    let mut d = Fourshift::default();
    play(&mut d, "c3 d4 a1");
    assert_ne!(a.hash(), d.hash());
    assert_ne!(Fourshift::default().hash(), 0);
}

// ---------------------------------------------------------------- notation

#[test]
fn move_notation() {
    let pos = Fourshift::default();
    let c3 = sq(&pos, "c3");
    let c4 = sq(&pos, "c4");
    let shift = Move::Shift { from: c3, to: c4 };
    for text in ["c3", " C3 ", "c3\n"] {
        assert_eq!(pos.parse_move(text), Ok(Move::Place(c3)), "{text:?}");
    }
    for text in ["c3-c4", "C3-C4", "  c3-c4 ", "c3 c4", "C3   c4", "c3 - c4"] {
        assert_eq!(pos.parse_move(text), Ok(shift), "{text:?}");
    }
    assert_eq!(pos.format_move(shift), "c3-c4");
    assert_eq!(pos.format_move(Move::Place(c3)), "c3");
    // parse_move checks syntax and board only, not adjacency
    assert!(pos.parse_move("a1-f6").is_ok());
    for bad in [
        "", "  ", "c3-", "-c4", "c3 c4 c5", "c3c4", "x", "c3-c4-c5", "c0", "c3,c4",
    ] {
        assert!(pos.parse_move(bad).is_err(), "{bad:?} should not parse");
    }
    assert!(matches!(
        pos.parse_move("g1"),
        Err(NotationError::Square(SquareError::OffBoard { .. }))
    ));
    assert!(matches!(
        pos.parse_move("c3 c4 c5"),
        Err(NotationError::Syntax { .. })
    ));
    let big = start("fourshift:size=12,k=5");
    assert_eq!(
        big.parse_move("L12-l11").map(|m| big.format_move(m)),
        Ok("l12-l11".to_string())
    );
}

// ---------------------------------------------------------------- config

#[test]
fn config_defaults_and_keys() {
    let d = FourshiftConfig::default();
    assert_eq!((d.size(), d.k(), d.pieces(), d.max_plies()), (6, 4, 8, 120));
    assert_eq!(
        d.to_string(),
        "fourshift:size=6,k=4,pieces=8,max_plies=120,moving_first=next,centre_opening=true"
    );
    assert_eq!(config("fourshift"), d);
    assert_eq!(config(" FourShift : "), d);
    let c = config("fourshift:max_plies=200,pieces=10,k=5,size=8");
    assert_eq!(
        (c.size(), c.k(), c.pieces(), c.max_plies()),
        (8, 5, 10, 200)
    );
    assert_eq!(
        c.to_string(),
        "fourshift:size=8,k=5,pieces=10,max_plies=200,moving_first=next,centre_opening=true"
    );
    assert_eq!(config(&c.to_string()), c);
    // extremes
    let c = config("fourshift:size=26,k=26,pieces=338,max_plies=1000000");
    assert_eq!(c.cells(), 676);
    let c = config("fourshift:size=3,k=2,pieces=1,max_plies=1");
    assert_eq!(c.placing_plies(), 2);
    assert_eq!(FourshiftConfig::new(6, 4, 8, 120), Ok(d));
}

#[test]
fn config_errors_name_the_key_and_range() {
    let err = |s: &str| s.parse::<FourshiftConfig>().unwrap_err().to_string();
    assert_eq!(
        err("fourshift:size=2"),
        "size=2 is out of range: expected an integer from 3 to 26"
    );
    assert_eq!(
        err("fourshift:size=27"),
        "size=27 is out of range: expected an integer from 3 to 26"
    );
    assert_eq!(
        err("fourshift:k=1"),
        "k=1 is out of range: expected an integer from 2 to 26"
    );
    assert_eq!(
        err("fourshift:k=7"),
        "k=7 is out of range: expected an integer from 2 to 6 (at most size=6)"
    );
    assert_eq!(
        err("fourshift:size=3"),
        "k=4 is out of range: expected an integer from 2 to 3 (at most size=3)"
    );
    assert_eq!(
        err("fourshift:pieces=0"),
        "pieces=0 is out of range: expected an integer from 1 to 338"
    );
    assert_eq!(
        err("fourshift:pieces=19"),
        "pieces=19 is out of range: expected an integer from 1 to 18 (size²/2 for size=6)"
    );
    assert_eq!(
        err("fourshift:size=5,pieces=13"),
        "pieces=13 is out of range: expected an integer from 1 to 12 (size²/2 for size=5)"
    );
    assert_eq!(
        err("fourshift:max_plies=0"),
        "max_plies=0 is out of range: expected an integer from 1 to 1000000"
    );
    assert_eq!(
        err("fourshift:max_plies=1000001"),
        "max_plies=1000001 is out of range: expected an integer from 1 to 1000000"
    );
    assert_eq!(
        err("fourshift:depth=3"),
        "unknown key 'depth' for fourshift: expected one of size, k, pieces, max_plies, moving_first, centre_opening"
    );
    assert!(err("fourshift:size=six").contains("size=six is not valid"));
    assert!(err("gomoku:size=6").contains("unknown game 'gomoku'"));
    assert!(err("fourshift:k=3,k=4").contains("'k' is given twice"));
    assert!(err("").contains("empty game spec"));
    assert!(FourshiftConfig::new(6, 4, 8, 0).is_err());
    assert!(FourshiftConfig::new(30, 4, 8, 10).is_err());
}

// ---------------------------------------------------------------- position strings

#[test]
fn position_strings_read_and_print() {
    let pos = at("fourshift", "6/6/3O2/2X3/6/6 x 7 7 2");
    let mut expected = Fourshift::default();
    play(&mut expected, "c3 d4");
    assert_eq!(pos, expected);
    // either case for pieces and side, any whitespace between fields
    let lower = at("fourshift", "  6/6/3o2/2x3/6/6   X 7\t7 2 ");
    assert_eq!(lower, expected);
    // two-digit runs
    let big = start("fourshift:size=12,k=5");
    assert_eq!(
        big.to_position_string(),
        "12/12/12/12/12/12/12/12/12/12/12/12 x 8 8 0"
    );
    let mut big2 = big.clone();
    play(&mut big2, "a12 l1");
    assert_eq!(
        big2.to_position_string(),
        "X11/12/12/12/12/12/12/12/12/12/12/11O x 7 7 2"
    );
    assert_eq!(
        at("fourshift:size=12,k=5", &big2.to_position_string()),
        big2
    );
    assert_eq!(big2.to_string(), big2.to_position_string());
}

#[test]
fn finished_games_read_back_finished() {
    let spec = "fourshift:pieces=3,max_plies=6";
    let mut pos = start(spec);
    play(&mut pos, "a1 a3 a2 b2 b1 c1");
    let back = at(spec, &pos.to_position_string());
    assert_eq!(
        back.end_reason(),
        Some(EndReason::NoLegalMove(Player::First))
    );
    assert_eq!(back, pos);

    let pos = at("fourshift:max_plies=5", "6/6/6/6/6/XOXOX1 o 5 6 5");
    assert_eq!(pos.end_reason(), Some(EndReason::MaxPlies));

    let pos = at("fourshift", "6/6/6/6/OOO3/XXXX2 o 4 5 7");
    assert_eq!(pos.end_reason(), Some(EndReason::Line(Player::First)));
    assert_eq!(pos.outcome_reason().unwrap(), "four in a row a1-d1");
    assert_eq!(pos.count_moves(), 0);
}

#[test]
fn bad_position_strings_are_rejected_with_a_reason() {
    let err = |spec: &str, s: &str| -> String {
        let e: PositionStringError = Fourshift::from_position_string(config(spec), s)
            .err()
            .unwrap_or_else(|| panic!("{s} should be rejected"));
        e.to_string()
    };
    let d = "fourshift";
    for (s, reason) in [
        ("", "expected 5 fields"),
        ("6/6/6/6/6/6 x 8 8", "expected 5 fields"),
        ("6/6/6/6/6/6 x 8 8 0 0", "expected 5 fields"),
        ("6/6/6/6/6 x 8 8 0", "the board has 5 ranks, expected 6"),
        ("6/6/6/6/6/6/6 x 8 8 0", "the board has 7 ranks, expected 6"),
        ("6/6/6/6/6/5 x 8 8 0", "rank 1 covers 5 squares, expected 6"),
        ("7/6/6/6/6/6 x 8 8 0", "rank 6 covers more than 6 squares"),
        ("6/6/6/6/6/X6 x 7 8 1", "rank 1 covers more than 6 squares"),
        ("6/6/6/6/6/15 x 8 8 0", "rank 1 covers more than 6 squares"),
        (
            "6/6/6/6/6/06 x 8 8 0",
            "rank 1: a number of empty squares cannot start with 0",
        ),
        ("6/6/6/6/6/Q5 x 8 8 0", "rank 1: bad character 'Q'"),
        (
            "6/6/6/6/6/6 b 8 8 0",
            "side to move 'b' is not x (Black) or o (White)",
        ),
        (
            "6/6/6/6/6/6 x 8 -8 0",
            "White's pieces in hand '-8' is not a number",
        ),
        (
            "6/6/6/6/6/6 x 8 8 99999999999",
            "ply '99999999999' is not a number",
        ),
        (
            "6/6/6/6/6/X5 o 8 8 1",
            "Black has 1 pieces on the board, so 7 in hand (pieces=8), not 8",
        ),
        (
            "6/6/6/6/6/XX4 o 6 8 2",
            "Black has 2 pieces on the board and White 0",
        ),
        (
            "6/6/6/6/6/XO4 o 7 7 2",
            "with 1 Black and 1 White pieces placed it is Black's turn",
        ),
        (
            "6/6/6/6/6/XO4 x 7 7 3",
            "ply 3 does not match the 2 pieces placed",
        ),
        (
            "XXXXX1/XXXX2/6/6/6/6 o 0 8 9",
            "Black has 9 pieces on the board, more than pieces=8",
        ),
        (
            "6/6/6/6/6/XXXX2 o 4 8 4",
            "Black has 4 pieces on the board and White 0",
        ),
    ] {
        let e = err(d, s);
        assert!(e.contains(reason), "{s}: got '{e}', expected '{reason}'");
        assert!(e.starts_with("bad position string: "));
    }
    let moving = "fourshift:pieces=2";
    assert!(err(moving, "6/6/6/6/6/XXOO2 x 0 0 3").contains("ply 3 is too small"));
    assert!(err(moving, "6/6/6/6/6/XXOO2 x 0 0 5").contains("at ply 5 it is White's turn"));
    assert!(
        err("fourshift:pieces=2,max_plies=6", "6/6/6/6/6/XXOO2 x 0 0 8")
            .contains("ply 8 is past max_plies=6")
    );
    assert!(err("fourshift:max_plies=5", "6/6/6/6/6/XOXOXO x 5 5 6").contains("past max_plies=5"));
    // Black (to move) already has four in a row: unreachable
    assert!(
        err(d, "6/6/6/6/OOO1O1/XXXX2 x 4 4 8").contains("Black (to move) already has 4 in a row")
    );
    // a huge string is refused without work
    assert!(err(d, &"1".repeat(10_000)).contains("longer than"));
}

// ---------------------------------------------------------------- accessors

#[test]
fn accessors_for_search_and_evaluation() {
    let pos = at("fourshift", "OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21");
    let b2 = sq(&pos, "b2");
    assert_eq!(pos.piece_at(b2), Some(Player::First));
    assert_eq!(pos.piece_at(sq(&pos, "c2")), Some(Player::Second));
    assert_eq!(pos.piece_at(sq(&pos, "a2")), None);
    assert_eq!(pos.piece_at(Square(999)), None);
    assert_eq!(pos.on_board(Player::First), 8);
    assert_eq!(pos.stones(Player::First).count(), 8);
    assert_eq!(pos.stones64(Player::Second).map(|b| b.popcount()), Some(8));
    assert_eq!(pos.occupied().count() + pos.empty_squares().count(), 36);
    assert_eq!(pos.shift_count(Player::Second), pos.count_moves() as u32);
    assert!(pos.shift_count(Player::First) > 0);
    let lines = pos.lines_through64(sq(&pos, "c3")).unwrap();
    assert_eq!(lines.map(|l| l.popcount()), [6, 6, 6, 5]);
    assert!(pos.lines_through64(Square(36)).is_none());
    assert!(
        start("fourshift:size=9")
            .lines_through64(Square(0))
            .is_none()
    );
    assert!(start("fourshift:size=9").stones64(Player::First).is_none());
    let line = pos.longest_line(Player::First).unwrap();
    assert_eq!(line.len, 2);
    assert_eq!(pos.winning_line(), None);
    assert_eq!(Fourshift::piece_char(Player::Second), 'O');
}
