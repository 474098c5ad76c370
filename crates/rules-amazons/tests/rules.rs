//! One test per rule of `games.md` (amazons) and per edge named in the task, each
//! `MoveError` variant, and the position string's checks.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use board_core::{
    Coord, Notation, NotationError, Outcome, Player, Position, Rules, Square, SquareError,
    SquareSet, perft,
};
use rules_amazons::{AmazonsConfig, AmazonsMove, AmazonsPosition, MoveError, Piece};

fn cfg(size: u32) -> AmazonsConfig {
    AmazonsConfig::new(size).unwrap()
}

fn start(size: u32) -> AmazonsPosition {
    AmazonsPosition::new(cfg(size))
}

fn from_str(size: u32, s: &str) -> AmazonsPosition {
    AmazonsPosition::from_position_string(cfg(size), s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn sq(pos: &AmazonsPosition, s: &str) -> Square {
    pos.geometry().parse_square(s).unwrap()
}

fn c(s: &str) -> Coord {
    s.parse().unwrap()
}

fn mv(pos: &AmazonsPosition, text: &str) -> AmazonsMove {
    pos.parse_move(text).unwrap()
}

fn generated(pos: &AmazonsPosition) -> Vec<AmazonsMove> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
}

/// Plays `text` (which must be legal and generated) and checks hash and count afterwards.
fn play(pos: &mut AmazonsPosition, text: &str) {
    let m = mv(pos, text);
    assert!(generated(pos).contains(&m), "{text} is not generated");
    pos.play(m).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(pos.hash(), pos.compute_hash());
    assert_eq!(pos.count_moves(), generated(pos).len() as u64);
}

/// The move is refused with `expected`, is not generated, and refusing it changes nothing.
fn refused(pos: &AmazonsPosition, m: AmazonsMove, expected: MoveError) {
    assert_eq!(pos.validate(&m), Err(expected.clone()), "{m:?}");
    let mut after = pos.clone();
    assert_eq!(after.play(m).unwrap_err(), expected);
    assert_eq!(&after, pos, "refusing {m:?} changed the position");
    assert_eq!(after.hash(), pos.hash());
    assert!(!generated(pos).contains(&m), "{m:?} is generated");
}

fn refused_text(pos: &AmazonsPosition, text: &str, expected: MoveError) {
    refused(pos, mv(pos, text), expected);
}

/// Two arrows (d2, h1), White to move.
const ARROWS_D2_H1: &str = "3b2b3/10/10/b8b/10/10/w8w/10/3x6/3w2wx2 w 2";
/// 10×10, White to move, every White queen walled in: Black has won.
const WHITE_WALLED: &str = "8bb/8bb/10/10/10/4x5/10/xxx7/wwx7/wwx7 w 6";
/// 8×8, Black (First) to move, every Black queen walled in: White has won.
const BLACK_WALLED_8: &str = "bxbx4/xxxx4/8/8/8/8/xwwww3/bxbxxxx1 b 12";
/// 10×10, White to move; Black's queens (i9 j9 i10 j10) have one free neighbour, j8.
const BLACK_ALMOST_WALLED: &str = "7xbb/7xbb/7xx1/10/10/10/10/10/10/w1w1w4w w 4";

// ----- setup and players -----

#[test]
fn standard_setup() {
    let pos = start(10);
    let names = |p| -> Vec<String> {
        pos.queens(p)
            .squares()
            .map(|s| pos.geometry().format_square(s))
            .collect()
    };
    assert_eq!(names(Player::First), ["d1", "g1", "a4", "j4"]);
    assert_eq!(names(Player::Second), ["a7", "j7", "d10", "g10"]);
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(pos.player_name(Player::First), "White");
    assert_eq!(pos.player_name(Player::Second), "Black");
    assert!(pos.arrows().0 == 0 && pos.ply() == 0 && pos.outcome().is_none());
    assert_eq!(
        pos.to_position_string(),
        "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w 0"
    );
}

#[test]
fn small_setup() {
    let pos = start(8);
    let names = |p| -> Vec<String> {
        pos.queen_squares(p)
            .iter()
            .map(|&s| pos.geometry().format_square(s))
            .collect()
    };
    assert_eq!(names(Player::First), ["a6", "h6", "c8", "f8"]);
    assert_eq!(names(Player::Second), ["c1", "f1", "a3", "h3"]);
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(pos.player_name(Player::First), "Black");
    assert_eq!(pos.player_name(Player::Second), "White");
    assert_eq!(pos.to_position_string(), "2b2b2/8/b6b/8/8/w6w/8/2w2w2 b 0");
}

// ----- the move -----

#[test]
fn queen_moves_then_shoots_and_turns_alternate() {
    let mut pos = start(10);
    play(&mut pos, "d1-d7/g7");
    assert_eq!(pos.piece_at(sq(&pos, "d1")), None);
    assert_eq!(
        pos.piece_at(sq(&pos, "d7")),
        Some(Piece::Queen(Player::First))
    );
    assert_eq!(pos.piece_at(sq(&pos, "g7")), Some(Piece::Arrow));
    assert_eq!((pos.side_to_move(), pos.ply()), (Player::Second, 1));
    // Any distance, along a diagonal, for the queen and for the arrow.
    play(&mut pos, "j7-e2/b5");
    assert_eq!((pos.side_to_move(), pos.ply()), (Player::First, 2));
    play(&mut pos, "g1-g6/j3");
}

#[test]
fn arrow_may_land_on_the_vacated_origin() {
    let mut pos = start(10);
    play(&mut pos, "a4-a5/a4");
    // The classic bug (`occupied ^= from | to | arrow`) would leave a4 empty here.
    assert_eq!(pos.piece_at(sq(&pos, "a4")), Some(Piece::Arrow));
    assert_eq!(
        pos.piece_at(sq(&pos, "a5")),
        Some(Piece::Queen(Player::First))
    );
    assert!(pos.occupied().0 & (1 << sq(&pos, "a4").index()) != 0);
    assert_eq!(
        pos.to_position_string(),
        "3b2b3/10/10/b8b/10/w9/x8w/10/10/3w2w3 b 1"
    );
    play(&mut pos, "j7-j8/j7");
    // The arrow on a4 blocks the queen on a5 going south, and arrows shot south past it.
    refused_text(
        &pos,
        "a5-a3/a2",
        MoveError::PathBlocked {
            from: c("a5"),
            to: c("a3"),
            blocker: c("a4"),
        },
    );
    refused_text(
        &pos,
        "a5-a6/a3",
        MoveError::ArrowPathBlocked {
            from: c("a6"),
            to: c("a3"),
            blocker: c("a4"),
        },
    );
    refused_text(
        &pos,
        "a5-a6/a4",
        MoveError::ArrowOccupied { square: c("a4") },
    );
    play(&mut pos, "a5-a6/a5");
}

#[test]
fn arrow_may_pass_over_the_vacated_origin() {
    let mut pos = start(10);
    play(&mut pos, "a4-a5/a1");
    assert_eq!(pos.piece_at(sq(&pos, "a4")), None);
    assert_eq!(pos.piece_at(sq(&pos, "a1")), Some(Piece::Arrow));
    // Diagonally, from the middle of the board.
    let mut pos = start(10);
    play(&mut pos, "d1-d7/g7");
    play(&mut pos, "j7-j8/j7");
    play(&mut pos, "d7-f9/b5");
    assert_eq!(pos.piece_at(sq(&pos, "d7")), None);
    assert_eq!(pos.piece_at(sq(&pos, "b5")), Some(Piece::Arrow));
    // Every destination of a queen can shoot back onto its origin: one such move each.
    let all = generated(&start(10));
    let origin = sq(&pos, "d1");
    let back = all
        .iter()
        .filter(|m| m.from == origin && m.arrow == origin)
        .count();
    let dests: std::collections::BTreeSet<_> = all
        .iter()
        .filter(|m| m.from == origin)
        .map(|m| m.to)
        .collect();
    assert_eq!(back, dests.len());
}

#[test]
fn queen_path_blocked_by_a_queen_or_an_arrow() {
    let pos = start(10);
    refused_text(
        &pos,
        "a4-a8/a9",
        MoveError::PathBlocked {
            from: c("a4"),
            to: c("a8"),
            blocker: c("a7"),
        },
    );
    let pos = from_str(10, ARROWS_D2_H1);
    refused_text(
        &pos,
        "d1-d5/d6",
        MoveError::PathBlocked {
            from: c("d1"),
            to: c("d5"),
            blocker: c("d2"),
        },
    );
    refused_text(
        &pos,
        "g1-j1/j2",
        MoveError::PathBlocked {
            from: c("g1"),
            to: c("j1"),
            blocker: c("h1"),
        },
    );
}

#[test]
fn arrow_path_blocked() {
    let pos = from_str(10, ARROWS_D2_H1);
    // By an arrow.
    refused_text(
        &pos,
        "g1-e3/c1",
        MoveError::ArrowPathBlocked {
            from: c("e3"),
            to: c("c1"),
            blocker: c("d2"),
        },
    );
    // By a queen.
    refused_text(
        &pos,
        "a4-a5/a8",
        MoveError::ArrowPathBlocked {
            from: c("a5"),
            to: c("a8"),
            blocker: c("a7"),
        },
    );
}

#[test]
fn destination_and_arrow_target_must_be_empty() {
    let pos = start(10);
    refused_text(&pos, "d1-d10/d9", MoveError::Occupied { square: c("d10") });
    refused_text(&pos, "a4-j4/j5", MoveError::Occupied { square: c("j4") });
    refused_text(
        &pos,
        "a4-a5/a7",
        MoveError::ArrowOccupied { square: c("a7") },
    );
    // Onto one of the mover's own queens, past the square the queen left.
    refused_text(
        &pos,
        "d1-c1/g1",
        MoveError::ArrowOccupied { square: c("g1") },
    );
}

#[test]
fn moves_must_follow_queen_lines() {
    let pos = start(10);
    refused_text(
        &pos,
        "d1-e3/e4",
        MoveError::NotQueenLine {
            from: c("d1"),
            to: c("e3"),
        },
    );
    refused_text(
        &pos,
        "a4-b4/d1",
        MoveError::ArrowNotQueenLine {
            from: c("b4"),
            to: c("d1"),
        },
    );
}

#[test]
fn only_your_own_queens_move() {
    let pos = start(10);
    refused_text(
        &pos,
        "a7-a6/a5",
        MoveError::NotYourQueen { square: c("a7") },
    );
    refused_text(&pos, "e5-e6/e7", MoveError::NoQueen { square: c("e5") });
    let pos = from_str(10, ARROWS_D2_H1);
    refused_text(
        &pos,
        "d2-d3/d4",
        MoveError::ArrowNotQueen { square: c("d2") },
    );
}

#[test]
fn the_queen_must_move() {
    let pos = start(10);
    refused_text(
        &pos,
        "d1-d1/d2",
        MoveError::QueenMustMove { square: c("d1") },
    );
}

#[test]
fn the_arrow_cannot_land_on_its_queen() {
    let pos = start(10);
    refused_text(
        &pos,
        "d1-d7/d7",
        MoveError::ArrowOnQueen { square: c("d7") },
    );
}

#[test]
fn off_board_squares_are_refused() {
    let pos = start(10);
    let d1 = sq(&pos, "d1");
    for bad in [100u16, 127, 128, u16::MAX] {
        let err = MoveError::OffBoard {
            index: bad,
            size: 10,
        };
        refused(&pos, AmazonsMove::new(Square(bad), d1, d1), err.clone());
        refused(&pos, AmazonsMove::new(d1, Square(bad), d1), err.clone());
        refused(&pos, AmazonsMove::new(d1, sq(&pos, "d2"), Square(bad)), err);
    }
    let small = start(8);
    refused(
        &small,
        AmazonsMove::new(Square(64), Square(0), Square(1)),
        MoveError::OffBoard { index: 64, size: 8 },
    );
    assert_eq!(
        MoveError::OffBoard { index: 64, size: 8 }.to_string(),
        "square index 64 is off the 8x8 board"
    );
    // The notation never produces them: j1 does not exist on 8×8.
    assert!(matches!(
        small.parse_move("j1-a1/a2"),
        Err(NotationError::Square(SquareError::OffBoard { .. }))
    ));
}

#[test]
fn error_messages_name_the_squares() {
    let cases = [
        (MoveError::GameOver, "the game is over"),
        (
            MoveError::NoQueen { square: c("e5") },
            "e5 is empty: there is no queen to move",
        ),
        (
            MoveError::ArrowNotQueen { square: c("d2") },
            "d2 holds an arrow, not a queen",
        ),
        (
            MoveError::NotYourQueen { square: c("a7") },
            "a7 is not your queen",
        ),
        (
            MoveError::QueenMustMove { square: c("d1") },
            "the queen on d1 must move to another square",
        ),
        (
            MoveError::NotQueenLine {
                from: c("d1"),
                to: c("e3"),
            },
            "d1 to e3 is not a queen move: not along a row, column or diagonal",
        ),
        (MoveError::Occupied { square: c("e5") }, "e5 is occupied"),
        (
            MoveError::PathBlocked {
                from: c("d1"),
                to: c("d5"),
                blocker: c("d2"),
            },
            "the queen cannot pass from d1 to d5: d2 is in the way",
        ),
        (
            MoveError::ArrowOnQueen { square: c("d7") },
            "the arrow cannot land on d7, where its queen now stands",
        ),
        (
            MoveError::ArrowNotQueenLine {
                from: c("b4"),
                to: c("d1"),
            },
            "an arrow from b4 cannot reach d1: not along a row, column or diagonal",
        ),
        (
            MoveError::ArrowOccupied { square: c("a7") },
            "the arrow cannot land on a7: it is occupied",
        ),
        (
            MoveError::ArrowPathBlocked {
                from: c("e3"),
                to: c("c1"),
                blocker: c("d2"),
            },
            "the arrow cannot fly from e3 to c1: d2 is in the way",
        ),
    ];
    for (e, text) in cases {
        assert_eq!(e.to_string(), text);
    }
}

// ----- the end of the game -----

#[test]
fn a_player_without_moves_loses() {
    let mut pos = from_str(10, WHITE_WALLED);
    assert!(!pos.has_legal_move(Player::First));
    assert!(pos.has_legal_move(Player::Second));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(
        pos.outcome_reason().as_deref(),
        Some("White has no legal move")
    );
    assert!(generated(&pos).is_empty());
    assert_eq!(pos.count_moves(), 0);
    assert_eq!(perft(&mut pos, 1), 0);
    assert_eq!(perft(&mut pos, 2), 0);
    assert_eq!(perft(&mut pos, 0), 1);
    // 8×8, where Black moves first.
    let pos = from_str(8, BLACK_WALLED_8);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(
        pos.outcome_reason().as_deref(),
        Some("Black has no legal move")
    );
}

#[test]
fn finished_games_refuse_every_move() {
    let pos = from_str(10, WHITE_WALLED);
    // Even a move that would otherwise be a Black move, or nonsense.
    refused_text(&pos, "i10-h10/g10", MoveError::GameOver);
    refused_text(&pos, "a1-a1/a1", MoveError::GameOver);
    refused(
        &pos,
        AmazonsMove::new(Square(999), Square(0), Square(0)),
        MoveError::GameOver,
    );
}

#[test]
fn sealing_the_last_queen_wins() {
    let mut pos = from_str(10, BLACK_ALMOST_WALLED);
    assert!(pos.outcome().is_none());
    // Black still has j8 (step there, shoot back).
    assert!(pos.has_legal_move(Player::Second));
    play(&mut pos, "j1-j7/j8");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(
        pos.outcome_reason().as_deref(),
        Some("Black has no legal move")
    );
    assert_eq!(pos.count_moves(), 0);
    // And the string of the finished game reads back finished.
    let back = from_str(10, &pos.to_position_string());
    assert_eq!(back, pos);
    assert_eq!(back.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn only_the_player_to_move_can_lose() {
    // Black is walled in but it is White's turn: the game goes on until Black must move.
    let mut pos = from_str(10, "7xbb/7xbb/7xxx/10/10/4x5/10/10/10/w1w1w4w w 6");
    assert!(!pos.has_legal_move(Player::Second));
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.move_count(Player::Second), 0);
    play(&mut pos, "a1-a2/a1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn a_walled_in_queen_does_not_end_the_game() {
    // White's a1 queen is stuck, its others are free.
    let pos = from_str(10, "3b2b3/10/10/b8b/10/10/9w/10/xx8/wx1w2w3 b 3");
    assert_eq!(pos.side_to_move(), Player::Second);
    assert_eq!(pos.queen_move_count(sq(&pos, "a1")), 0);
    assert!(pos.has_legal_move(Player::First));
}

// ----- make / unmake and hashing -----

#[test]
fn make_unmake_restores_everything() {
    let mut pos = from_str(10, ARROWS_D2_H1);
    let before = pos.clone();
    for m in generated(&pos) {
        let undo = pos.make_move(m);
        assert_eq!(pos.hash(), pos.compute_hash());
        pos.unmake_move(m, undo);
        assert_eq!(pos, before);
        assert_eq!(pos.hash(), before.hash());
    }
}

#[test]
fn make_unmake_of_any_move_is_safe() {
    // `make_move` is only meaningful for legal moves, but must never panic, and with this
    // implementation even an illegal move is taken back exactly.
    for size in [10u32, 8] {
        let mut pos = from_str(
            size,
            if size == 10 {
                ARROWS_D2_H1
            } else {
                BLACK_WALLED_8
            },
        );
        let before = pos.clone();
        for (a, b, c) in [
            (0, 0, 0),
            (3, 3, 3),
            (99, 127, 128),
            (u16::MAX, 5, 500),
            (7, 63, 64),
        ] {
            let m = AmazonsMove::new(Square(a), Square(b), Square(c));
            let undo = pos.make_move(m);
            let _ = (pos.count_moves(), pos.outcome(), pos.to_position_string());
            pos.unmake_move(m, undo);
            assert_eq!(pos, before);
        }
    }
}

#[test]
fn an_illegal_make_does_not_spoil_later_moves() {
    // "Moving" from the empty d2 onto the White queen d1 puts a queen on d2: the same board
    // as the legal d1-d2. Made through make_move (no validation) and taken back, it must not
    // leave anything behind that changes what the legal move computes.
    let mut pos = start(10);
    let legal = mv(&pos, "d1-d2/d3");
    let mut fresh = pos.clone();
    fresh.play(legal).unwrap();
    let expected = (fresh.count_moves(), generated(&fresh).len() as u64);
    let illegal = mv(&pos, "d2-d1/d3");
    let undo = pos.make_move(illegal);
    pos.unmake_move(illegal, undo);
    assert_eq!(pos, start(10));
    pos.play(legal).unwrap();
    assert_eq!(pos, fresh);
    assert_eq!((pos.count_moves(), generated(&pos).len() as u64), expected);
    for sq in pos.board_squares().squares() {
        assert_eq!(pos.queen_mobility(sq), fresh.queen_mobility(sq));
    }
}

#[test]
fn transpositions_hash_alike() {
    let mut a = start(10);
    for m in ["d1-d2/d3", "d10-d9/d8", "g1-g2/g3"] {
        play(&mut a, m);
    }
    let mut b = start(10);
    for m in ["g1-g2/g3", "d10-d9/d8", "d1-d2/d3"] {
        play(&mut b, m);
    }
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    let mut c = start(10);
    for m in ["g1-g2/g3", "d10-d9/d7", "d1-d2/d3"] {
        play(&mut c, m);
    }
    assert_ne!(a.hash(), c.hash());
    // The side to move is hashed.
    let w = from_str(10, "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w 0");
    assert_ne!(w.hash(), 0);
}

// ----- notation -----

#[test]
fn move_notation() {
    let pos = start(10);
    let m = AmazonsMove::new(sq(&pos, "d1"), sq(&pos, "d7"), sq(&pos, "g7"));
    for text in [
        "d1-d7/g7",
        "D1-D7/G7",
        "  d1-d7/g7\n",
        "d1 d7 g7",
        " D1   d7\tG7 ",
        "d1 - d7 / g7",
    ] {
        assert_eq!(pos.parse_move(text), Ok(m), "{text:?}");
    }
    assert_eq!(pos.format_move(m), "d1-d7/g7");
    let j10 = AmazonsMove::new(sq(&pos, "j10"), sq(&pos, "a1"), sq(&pos, "j1"));
    assert_eq!(pos.format_move(j10), "j10-a1/j1");
    assert_eq!(pos.parse_move("J10-A1/J1"), Ok(j10));
    for bad in [
        "",
        "d1",
        "d1-d7",
        "d1 d7",
        "d1-d7/",
        "d1/d7-g7",
        "d1-d7-g7",
        "d1-d7/g7/h8",
        "d1 d7 g7 h8",
        "d1-d7 g7",
        "d1--d7/g7",
        "d0-d7/g7",
        "dd-d7/g7",
    ] {
        assert!(pos.parse_move(bad).is_err(), "{bad:?} parsed");
    }
    assert!(matches!(
        pos.parse_move("k1-d7/g7"),
        Err(NotationError::Square(SquareError::OffBoard { .. }))
    ));
    assert_eq!(
        pos.parse_move("d1-d7").unwrap_err().to_string(),
        "'d1-d7' is not a move: expected a queen move and its arrow, like d1-d7/g7 (or d1 d7 g7)"
    );
    // parse_legal_move combines both.
    assert!(pos.parse_legal_move("d1-d7/g7").is_ok());
    assert!(pos.parse_legal_move("d1-d7/d7").is_err());
}

// ----- position strings -----

#[test]
fn position_string_round_trips_and_reads_leniently() {
    let pos = from_str(10, ARROWS_D2_H1);
    assert_eq!(pos.to_position_string(), ARROWS_D2_H1);
    let upper = from_str(10, "  3B2B3/10/10/B8B/10/10/W8W/10/3X6/3W2WX2   W  2 ");
    assert_eq!(upper, pos);
}

#[test]
fn position_string_errors() {
    let cases: [(u32, &str, &str); 15] = [
        (
            10,
            "",
            "expected 3 fields (board, side to move, ply), found 0",
        ),
        (10, "10/10 w", "expected 3 fields"),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/3w2w3 w 0",
            "the board has 9 ranks, expected 10",
        ),
        (
            8,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w 0",
            "the board has 10 ranks, expected 8",
        ),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w4 w 0",
            "rank 1 covers more than 10 squares",
        ),
        (
            10,
            "3b2b3/9/10/b8b/10/10/w8w/10/10/3w2w3 w 0",
            "rank 9 covers 9 squares, expected 10",
        ),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2q3 w 0",
            "rank 1: bad character 'q'",
        ),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w30 w 0",
            "more than 10 squares",
        ),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w03 w 0",
            "a number of empty squares cannot start with 0",
        ),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2x3 w 1",
            "White has 3 queens, expected 4",
        ),
        (
            10,
            "3b2b3/10/10/bb7b/10/10/w8w/10/10/3w2w3 w 0",
            "Black has 5 queens, expected 4",
        ),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w 1",
            "ply 1 does not match the 0 arrows",
        ),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 b 0",
            "Black cannot be to move at ply 0: White moves first",
        ),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 x 0",
            "side to move 'x' is not w or b",
        ),
        (
            10,
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w -1",
            "ply '-1' is not a number",
        ),
    ];
    for (size, text, expected) in cases {
        let e = AmazonsPosition::from_position_string(cfg(size), text).unwrap_err();
        assert!(
            e.to_string().contains(expected),
            "{text}: '{e}' does not contain '{expected}'"
        );
    }
    assert!(
        AmazonsPosition::from_position_string(cfg(8), "2b2b2/8/b6b/8/8/w6w/8/2w2w2 w 0")
            .unwrap_err()
            .to_string()
            .contains("White cannot be to move at ply 0: Black moves first")
    );
    let long = "1".repeat(2000);
    assert!(AmazonsPosition::from_position_string(cfg(10), &long).is_err());
}

// ----- accessors for the evaluator -----

#[test]
fn reach_and_mobility() {
    let pos = from_str(10, ARROWS_D2_H1);
    let d1 = sq(&pos, "d1");
    let reach: Vec<String> = pos
        .queen_reach(d1)
        .squares()
        .map(|s| pos.geometry().format_square(s))
        .collect();
    // West c1 b1 a1; east e1 f1 (g1 is a queen); north blocked by the d2 arrow;
    // north-west c2 b3 (a4 is a queen); north-east e2 f3 g4 h5 i6 (j7 is a queen).
    assert_eq!(
        reach,
        [
            "a1", "b1", "c1", "e1", "f1", "c2", "e2", "b3", "f3", "g4", "h5", "i6"
        ]
    );
    assert_eq!(pos.queen_mobility(d1), 12);
    // Every empty square's mobility equals its reach.
    for s in pos.board_squares().squares() {
        assert_eq!(pos.queen_mobility(s), pos.queen_reach(s).0.count_ones());
    }
    assert_eq!(pos.queen_mobility(Square(500)), 0);
    assert_eq!(pos.queen_reach(Square(500)).0, 0);
    // Move counts of both sides, and of single queens.
    assert_eq!(pos.move_count(Player::First), pos.count_moves());
    let total: u64 = pos
        .queen_squares(Player::Second)
        .iter()
        .map(|&q| pos.queen_move_count(q))
        .sum();
    assert_eq!(pos.move_count(Player::Second), total);
    assert_eq!(pos.queen_move_count(sq(&pos, "e5")), 0);
    // Neighbours, empties and blockers.
    assert_eq!(pos.neighbours(sq(&pos, "a1")).0.count_ones(), 3);
    assert_eq!(pos.neighbours(sq(&pos, "e5")).0.count_ones(), 8);
    assert_eq!(pos.empty_squares().0.count_ones(), 100 - 8 - 2);
    assert_eq!(pos.occupied().0.count_ones(), 10);
    let only_arrows = pos.arrows();
    assert!(pos.queen_reach_in(d1, only_arrows).has(sq(&pos, "g1")));
}

#[test]
fn start_counts() {
    assert_eq!(start(10).count_moves(), 2176);
    assert_eq!(start(8).count_moves(), 1232);
    assert_eq!(start(10).move_count(Player::Second), 2176);
}
