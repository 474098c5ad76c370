//! One test per rule of games.md (connect6) and per edge named in the task, plus config
//! parsing, move notation, position strings and diagram snapshots.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use board_core::View as _;
use board_core::{
    BoardSet, Direction, Notation, NotationError, Outcome, Player, Position, Rules, SpecError,
    Square, SquareSet, perft,
};
use rules_connect6::{Connect6Config, Connect6Position, Move, MoveError};

// ----- helpers --------------------------------------------------------------------------

fn config(size: u32) -> Connect6Config {
    Connect6Config::new(size).unwrap()
}

fn start(size: u32) -> Connect6Position {
    Connect6Position::new(config(size))
}

fn sq(pos: &Connect6Position, s: &str) -> Square {
    pos.geometry().parse_square(s).unwrap()
}

fn mv(pos: &Connect6Position, text: &str) -> Move {
    pos.parse_move(text).unwrap()
}

/// Plays a legal move given as text.
fn play(pos: &mut Connect6Position, text: &str) {
    let m = pos
        .parse_legal_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    pos.make_move(m);
}

fn refused(pos: &Connect6Position, text: &str) -> MoveError {
    let m = mv(pos, text);
    let mut copy = pos.clone();
    let before = format!("{copy:?}");
    let e = copy.play(m).unwrap_err();
    assert_eq!(
        format!("{copy:?}"),
        before,
        "refused {text} changed the position"
    );
    assert_eq!(copy.hash(), pos.hash());
    e
}

/// A position with exactly these stones; the ply and side to move follow from the counts
/// (Black one more than White: White to move; White one more: Black to move).
fn setup(size: u32, black: &[&str], white: &[&str]) -> Connect6Position {
    let n = size as usize;
    let mut board = vec![vec!['.'; n]; n];
    let g = start(size);
    for (stones, c) in [(black, 'x'), (white, 'o')] {
        for s in stones {
            let co = g.geometry().coord(sq(&g, s)).unwrap();
            assert_eq!(
                board[co.row() as usize][co.col() as usize],
                '.',
                "{s} twice"
            );
            board[co.row() as usize][co.col() as usize] = c;
        }
    }
    let (b, w) = (black.len(), white.len());
    let (side, ply) = if b == 0 && w == 0 {
        ('x', 0)
    } else if b == w + 1 {
        ('o', b)
    } else if w == b + 1 {
        ('x', w)
    } else {
        panic!("{b} black and {w} white stones do not fit any ply");
    };
    let text = format!("{} {side} {ply}", board_string(&board));
    Connect6Position::from_position_string(config(size), &text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn board_string(board: &[Vec<char>]) -> String {
    let mut ranks = Vec::new();
    for row in board.iter().rev() {
        let mut s = String::new();
        let mut run = 0;
        for &c in row {
            if c == '.' {
                run += 1;
            } else {
                if run > 0 {
                    s += &run.to_string();
                    run = 0;
                }
                s.push(c);
            }
        }
        if run > 0 {
            s += &run.to_string();
        }
        ranks.push(s);
    }
    ranks.join("/")
}

/// White filler stones for a 6×6 or larger board, away from the lines being tested:
/// scattered so that they never make six themselves.
const WHITE_FILL: [&str; 8] = ["a6", "c6", "e6", "b5", "d5", "f5", "a4", "c4"];

// ----- the turn structure ---------------------------------------------------------------

#[test]
fn the_board_starts_empty_with_black_to_move() {
    for size in [6, 19, 26] {
        let pos = start(size);
        assert_eq!(pos.empty_count(), size * size);
        assert_eq!(pos.empty_squares().count(), size * size);
        assert!(pos.stones(Player::First).is_empty() && pos.stones(Player::Second).is_empty());
        assert_eq!(pos.side_to_move(), Player::First);
        assert_eq!(pos.player_name(pos.side_to_move()), "Black");
        assert_eq!(
            (pos.ply(), pos.outcome(), pos.outcome_reason()),
            (0, None, None)
        );
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}

#[test]
fn first_move_is_a_single_stone() {
    let pos = start(19);
    assert_eq!(pos.stones_to_place(), 1);
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert_eq!(moves.len(), 361);
    assert!(moves.iter().all(|m| !m.is_pair()));
    assert_eq!(refused(&pos, "j10,k11"), MoveError::FirstMoveIsSingle);
    assert_eq!(
        MoveError::FirstMoveIsSingle.to_string(),
        "the first move of the game places a single stone, not two"
    );
    let mut p = pos.clone();
    play(&mut p, "j10");
    assert_eq!(p.side_to_move(), Player::Second);
    assert_eq!(p.ply(), 1);
    assert_eq!(p.stone_at(sq(&p, "j10")), Some(Player::First));
}

#[test]
fn later_moves_are_pairs_and_a_single_is_refused() {
    let mut pos = start(19);
    play(&mut pos, "j10");
    assert_eq!(pos.stones_to_place(), 2);
    assert_eq!(refused(&pos, "a1"), MoveError::PairRequired);
    play(&mut pos, "a1,b2");
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(refused(&pos, "c3"), MoveError::PairRequired);
    play(&mut pos, "c3,d4");
    assert_eq!(pos.stone_count(Player::First), 3);
    assert_eq!(pos.stone_count(Player::Second), 2);
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert!(moves.iter().all(|m| m.is_pair()));
    assert_eq!(moves.len(), 356 * 355 / 2);
}

#[test]
fn a_pair_is_unordered_and_counted_once() {
    let mut pos = start(7);
    play(&mut pos, "d4");
    assert_eq!(mv(&pos, "e5,a1"), mv(&pos, "a1,e5"));
    assert_eq!(mv(&pos, "E5 A1"), mv(&pos, "a1,e5"));
    assert_eq!(pos.format_move(mv(&pos, "e5,a1")), "a1,e5");
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert_eq!(moves.len(), 48 * 47 / 2);
    let mut sorted = moves.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), moves.len());
    assert_eq!(sorted, moves, "generated in sorted order");
    for m in &moves {
        let (a, b) = m.stones();
        assert!(a < b.unwrap());
    }
    assert_eq!(perft(&mut pos, 1), 1128);
}

#[test]
fn both_stones_on_the_same_square_are_refused() {
    let mut pos = start(19);
    play(&mut pos, "j10");
    let e = refused(&pos, "k11,k11");
    assert_eq!(e, MoveError::SameSquare("k11".parse().unwrap()));
    assert_eq!(
        e.to_string(),
        "both stones are on k11: a pair needs two different squares"
    );
    // Even on an occupied square the reason given is the repeated square.
    assert!(matches!(refused(&pos, "j10 j10"), MoveError::SameSquare(_)));
}

#[test]
fn occupied_squares_are_refused() {
    let mut pos = start(19);
    play(&mut pos, "e5");
    let e = refused(&pos, "e5,f6");
    assert_eq!(e, MoveError::Occupied("e5".parse().unwrap()));
    assert_eq!(e.to_string(), "e5 is occupied");
    let e = refused(&pos, "a1,e5");
    assert_eq!(e.to_string(), "e5 is occupied");
    play(&mut pos, "a1,b1");
    assert_eq!(refused(&pos, "c1,b1").to_string(), "b1 is occupied");
    // Both occupied: the lower square is named.
    assert_eq!(refused(&pos, "e5,a1").to_string(), "a1 is occupied");
}

#[test]
fn a_finished_game_refuses_every_move() {
    let mut pos = setup(6, &["a1", "b1", "c1", "d1", "e1"], &WHITE_FILL[..6]);
    play(&mut pos, "f1,f3");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    let e = refused(&pos, "b2,b3");
    assert_eq!(e, MoveError::GameOver);
    assert_eq!(e.to_string(), "the game is over");
    assert_eq!(refused(&pos, "b2"), MoveError::GameOver);
    let mut moves = vec![Move::single(Square(0))];
    pos.generate_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(pos.count_moves(), 0);
    assert_eq!(pos.stones_to_place(), 0);
    assert_eq!(perft(&mut pos, 0), 1);
    assert_eq!(perft(&mut pos, 1), 0);
    assert_eq!(perft(&mut pos, 3), 0);
}

#[test]
fn off_board_squares_in_a_hand_built_move_are_refused_without_panic() {
    let mut pos = start(6);
    let far = Move::single(Square(36));
    assert_eq!(
        pos.validate(&far),
        Err(MoveError::OffBoard { index: 36, size: 6 })
    );
    assert_eq!(
        MoveError::OffBoard { index: 36, size: 6 }.to_string(),
        "square index 36 is off the 6x6 board"
    );
    assert_eq!(pos.format_move(far), "#36");
    let before = pos.clone();
    assert!(pos.play(far).is_err());
    assert_eq!(pos, before);
    play(&mut pos, "c3");
    let far_pair = Move::pair(Square(2), Square(u16::MAX));
    assert!(matches!(
        pos.validate(&far_pair),
        Err(MoveError::OffBoard {
            index: u16::MAX,
            ..
        })
    ));
    // make_move is only for legal moves, but even an off-board one must not panic.
    let before = format!("{pos:?}");
    let undo = pos.make_move(far_pair);
    pos.unmake_move(far_pair, undo);
    assert_eq!(format!("{pos:?}"), before);
    assert_eq!(pos.stone_at(Square(5000)), None);
    assert_eq!(
        pos.run_through(Player::First, Square(5000), Direction::East),
        0
    );
}

// ----- six in a row ---------------------------------------------------------------------

#[test]
fn the_lower_stone_of_the_pair_completes_six() {
    // Black a2-e2; f2 completes, the other stone is on a4's row above.
    let mut pos = setup(6, &["a2", "b2", "c2", "d2", "e2"], &WHITE_FILL[..6]);
    assert_eq!(pos.side_to_move(), Player::First);
    let m = mv(&pos, "f2,e4");
    assert_eq!(m.first(), sq(&pos, "f2"));
    pos.play(m).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.outcome_reason().unwrap(), "six in a row a2-f2");
}

#[test]
fn the_higher_stone_of_the_pair_completes_six() {
    let mut pos = setup(6, &["a2", "b2", "c2", "d2", "e2"], &WHITE_FILL[..6]);
    let m = mv(&pos, "f2,a1");
    assert_eq!(m.second(), Some(sq(&pos, "f2")));
    pos.play(m).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    let line = pos.winning_line().unwrap();
    assert_eq!(
        (line.start, line.end, line.direction, line.len),
        (sq(&pos, "a2"), sq(&pos, "f2"), Direction::East, 6)
    );
}

#[test]
fn a_pair_whose_first_stone_makes_six_is_still_a_whole_pair() {
    let pos = setup(6, &["a2", "b2", "c2", "d2", "e2"], &WHITE_FILL[..6]);
    // The second stone must be legal too: occupied, same square, or missing all fail.
    assert_eq!(
        refused(&pos, "f2,a6"),
        MoveError::Occupied("a6".parse().unwrap())
    );
    assert!(matches!(refused(&pos, "f2,f2"), MoveError::SameSquare(_)));
    assert_eq!(refused(&pos, "f2"), MoveError::PairRequired);
    let mut p = pos.clone();
    play(&mut p, "f2,f6");
    assert_eq!(p.ply(), pos.ply() + 1);
    assert_eq!(p.stone_at(sq(&p, "f6")), Some(Player::First));
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn six_made_only_by_the_two_new_stones_together() {
    // a1 b1 . d1 e1 . : c1 and f1 together make a1-f1; neither alone would.
    let pos = setup(6, &["a1", "b1", "d1", "e1", "a3"], &WHITE_FILL[..6]);
    assert_eq!(
        pos.run_through(Player::First, sq(&pos, "c1"), Direction::East),
        5
    );
    assert_eq!(
        pos.run_through(Player::First, sq(&pos, "f1"), Direction::East),
        3
    );
    let mut p = pos.clone();
    play(&mut p, "c1,b3");
    assert_eq!(p.outcome(), None);
    let mut p = pos.clone();
    play(&mut p, "f1,c1");
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(p.outcome_reason().unwrap(), "six in a row a1-f1");
}

#[test]
fn seven_in_a_row_wins() {
    let pos = setup(
        7,
        &["a1", "b1", "c1", "e1", "f1", "g1", "a3"],
        &["a7", "c7", "e7", "g7", "b6", "d6", "f6", "a5"],
    );
    let mut p = pos.clone();
    play(&mut p, "d1,b3");
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(p.outcome_reason().unwrap(), "seven in a row a1-g1");
    assert_eq!(p.winning_line().unwrap().len, 7);
}

#[test]
fn longer_lines_are_named() {
    // Eight on 8x8 made by one stone joining a three and a four.
    let mut pos = setup(
        8,
        &["a1", "b1", "c1", "e1", "f1", "g1", "h1", "a3", "c3"],
        &["a8", "c8", "e8", "g8", "b7", "d7", "f7", "h7", "a5", "e5"],
    );
    play(&mut pos, "d1,e3");
    assert_eq!(pos.outcome_reason().unwrap(), "eight in a row a1-h1");
}

#[test]
fn is_winning_move_looks_ahead() {
    // Black a1 b1 . d1 e1 . and c3; White scattered.
    let pos = setup(6, &["a1", "b1", "d1", "e1", "c3"], &WHITE_FILL[..6]);
    let m = |t: &str| mv(&pos, t);
    assert!(pos.is_winning_move(Player::First, m("c1,f1")));
    assert!(pos.is_winning_move(Player::First, m("f1,c1")));
    assert!(!pos.is_winning_move(Player::First, m("c1,a3")));
    assert!(!pos.is_winning_move(Player::First, m("c1")));
    assert!(!pos.is_winning_move(Player::Second, m("c1,f1")));
    assert!(!pos.is_winning_move(Player::First, m("c1,c1")));
    assert!(!pos.is_winning_move(Player::First, m("a1,c1")), "occupied");
    assert!(!pos.is_winning_move(Player::First, Move::pair(Square(2), Square(99))));
    // The same verdict as playing it.
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for &mv in &moves {
        let mut p = pos.clone();
        p.make_move(mv);
        assert_eq!(
            p.outcome().is_some(),
            pos.is_winning_move(Player::First, mv),
            "{}",
            pos.format_move(mv)
        );
    }
}

#[test]
fn five_in_a_row_does_not_win() {
    let mut pos = setup(6, &["a1", "b1", "c1"], &["a6", "c6", "e6", "b5"]);
    play(&mut pos, "d1,e1");
    assert_eq!(pos.outcome(), None);
    assert_eq!(
        pos.run_through(Player::First, sq(&pos, "c1"), Direction::East),
        5
    );
    // Two separate fives do not add up to a win either.
    let mut pos = setup(
        7,
        &["a1", "b1", "c1", "a2", "b2"],
        &["a7", "c7", "e7", "g7", "b6", "d6"],
    );
    play(&mut pos, "d1,c2");
    play(&mut pos, "f6,g6");
    play(&mut pos, "e1,d2");
    assert_eq!(pos.outcome(), None, "{}", pos.diagram());
    play(&mut pos, "a4,b4");
    play(&mut pos, "e2,g2");
    assert_eq!(
        pos.outcome(),
        None,
        "a1-e1 and a2-e2 are fives, g2 is apart"
    );
}

#[test]
fn wins_in_all_four_directions_at_the_edges() {
    // (five stones, completing stone, expected line): each along an edge or corner line.
    let cases: [(&[&str], &str, &str); 4] = [
        (&["a6", "b6", "c6", "d6", "e6"], "f6", "six in a row a6-f6"),
        (&["f1", "f2", "f3", "f4", "f5"], "f6", "six in a row f1-f6"),
        (&["a1", "b2", "c3", "d4", "e5"], "f6", "six in a row a1-f6"),
        (&["b5", "c4", "d3", "e2", "f1"], "a6", "six in a row a6-f1"),
    ];
    let white = ["a2", "a3", "b1", "c1", "e4", "d5"];
    for (black, last, reason) in cases {
        let mut pos = setup(6, black, &white);
        let extra = ["b3", "c2", "e3", "d2"]
            .into_iter()
            .find(|s| pos.stone_at(sq(&pos, s)).is_none())
            .unwrap();
        play(&mut pos, &format!("{last},{extra}"));
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)), "{reason}");
        assert_eq!(pos.outcome_reason().unwrap(), reason);
        let line = pos.winning_line().unwrap();
        let g = pos.geometry();
        // Stepping from start in the line's direction reaches the end after len - 1 steps.
        let mut at = line.start;
        for _ in 1..line.len {
            at = g.step(at, line.direction).unwrap();
            assert_eq!(pos.stone_at(at), Some(Player::First));
        }
        assert_eq!(at, line.end);
        assert!(Direction::AXES.contains(&line.direction));
    }
    // And for White, vertically on the a-file.
    let mut pos = setup(
        6,
        &["b1", "c2", "d3", "f4", "f2", "e6", "c6"],
        &["a1", "a2", "a3", "a4", "e1", "f6"],
    );
    play(&mut pos, "a5,a6");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(pos.outcome_reason().unwrap(), "six in a row a1-a6");
}

#[test]
fn lines_never_wrap_around_an_edge() {
    // Horizontal: e1 f1 | a2 b2 c2 d2 are six consecutive flat indices, not a line.
    let mut pos = setup(6, &["e1", "f1", "a2", "b2", "d4"], &WHITE_FILL[..6]);
    play(&mut pos, "c2,d2");
    assert_eq!(pos.outcome(), None);
    // Diagonal (NE, stride 9 on 8x8): d1 e2 f3 g4 h5 | a7.
    let white8 = ["a8", "c8", "e8", "g8", "b5", "d7"];
    let mut pos = setup(8, &["d1", "e2", "f3", "g4", "b3"], &white8);
    play(&mut pos, "h5,a7");
    assert_eq!(pos.outcome(), None, "{}", pos.diagram());
    // Anti-diagonal (NW, stride 7 on 8x8): c1 b2 a3 | h3 g4 f5.
    let mut pos = setup(8, &["c1", "b2", "a3", "h3", "e6"], &white8);
    play(&mut pos, "g4,f5");
    assert_eq!(pos.outcome(), None, "{}", pos.diagram());
    // The same shapes shifted onto the board do win.
    let mut pos = setup(8, &["c1", "d2", "e3", "f4", "b3"], &white8);
    play(&mut pos, "g5,h6");
    assert_eq!(pos.outcome_reason().unwrap(), "six in a row c1-h6");
    // Columns: e4 e5 e6 then f1 f2 f3 is not a line either.
    let mut pos = setup(
        6,
        &["e4", "e5", "e6", "f1", "c2"],
        &["a6", "c6", "a4", "b5", "d5", "a1"],
    );
    play(&mut pos, "f2,f3");
    assert_eq!(pos.outcome(), None);
}

// ----- the end of the board -------------------------------------------------------------

const LAST_SQUARE_DRAW: &str = "ooxoox/xxxoox/oooxox/xxoxxo/xoxoox/oxox1o x 18";
const LAST_SQUARE_WIN: &str = "oxoxxo/oooxoo/ooxoxo/xoxxoo/xxooxo/xxxxx1 x 18";
const SEVEN_FULL_DRAW: &str = "oxxooxx/xxoooox/xoxooox/x1ooxxo/xoxxxoo/xooooox/ooxxx1x x 24";

#[test]
fn the_last_empty_square_takes_a_single_stone() {
    let pos = Connect6Position::from_position_string(config(6), LAST_SQUARE_DRAW).unwrap();
    assert_eq!(pos.empty_count(), 1);
    assert_eq!(pos.stones_to_place(), 1);
    assert_eq!(pos.outcome(), None);
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert_eq!(moves, vec![Move::single(sq(&pos, "e1"))]);
    assert_eq!(pos.count_moves(), 1);
    let e = refused(&pos, "e1,a1");
    assert_eq!(e, MoveError::LastSquareIsSingle("e1".parse().unwrap()));
    assert_eq!(
        e.to_string(),
        "only e1 is empty: the last move places a single stone there"
    );
    assert!(matches!(
        refused(&pos, "e1,e1"),
        MoveError::LastSquareIsSingle(_)
    ));
    assert_eq!(
        refused(&pos, "a1"),
        MoveError::Occupied("a1".parse().unwrap())
    );
    let mut p = pos.clone();
    play(&mut p, "E1");
    assert_eq!(p.empty_count(), 0);
    assert_eq!(p.ply(), 19);
    assert_eq!(p.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_full_board_without_six_is_a_draw() {
    let mut pos = Connect6Position::from_position_string(config(6), LAST_SQUARE_DRAW).unwrap();
    play(&mut pos, "e1");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "the board is full with no six in a row"
    );
    assert_eq!(
        pos.to_position_string(),
        "ooxoox/xxxoox/oooxox/xxoxxo/xoxoox/oxoxxo o 19"
    );
    assert_eq!(perft(&mut pos, 1), 0);
    // The string of the finished game reads back finished.
    let back =
        Connect6Position::from_position_string(config(6), &pos.to_position_string()).unwrap();
    assert_eq!(back, pos);
    assert_eq!(back.outcome(), Some(Outcome::Draw));

    // 7x7 (odd number of cells): the last move is a pair that fills the board.
    let mut pos = Connect6Position::from_position_string(config(7), SEVEN_FULL_DRAW).unwrap();
    assert_eq!(pos.stones_to_place(), 2);
    assert_eq!(pos.count_moves(), 1);
    play(&mut pos, "b4,f1");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

#[test]
fn six_on_the_last_square_wins_rather_than_draws() {
    let mut pos = Connect6Position::from_position_string(config(6), LAST_SQUARE_WIN).unwrap();
    play(&mut pos, "f1");
    assert_eq!(pos.empty_count(), 0);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.outcome_reason().unwrap(), "six in a row a1-f1");
    let back =
        Connect6Position::from_position_string(config(6), &pos.to_position_string()).unwrap();
    assert_eq!(back.outcome(), Some(Outcome::Win(Player::First)));
}

// ----- make / unmake / hash -------------------------------------------------------------

#[test]
fn a_rejected_move_leaves_position_and_hash_untouched() {
    let mut pos = setup(6, &["a2", "b2", "c2", "d2", "e2"], &WHITE_FILL[..6]);
    for text in ["f2", "f2,f2", "f2,a6", "a6,f2", "a2,b3"] {
        let before = format!("{pos:?}");
        let hash = pos.hash();
        let m = mv(&pos, text);
        assert!(pos.play(m).is_err(), "{text}");
        assert_eq!(format!("{pos:?}"), before, "{text}");
        assert_eq!(pos.hash(), hash);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
    assert!(pos.play(Move::pair(Square(3), Square(900))).is_err());
    assert!(pos.parse_legal_move("f2").is_err());
    assert_eq!(pos.outcome(), None);
}

#[test]
fn make_unmake_restores_every_field() {
    let mut pos = setup(6, &["a2", "b2", "c2", "d2", "e2"], &WHITE_FILL[..6]);
    play(&mut pos, "a3,b3"); // a last move to restore
    play(&mut pos, "e3,f3"); // White's reply
    let before = format!("{pos:?}");
    let clone = pos.clone();
    for text in ["f2,f6", "b1,c1", "f2,a1"] {
        let m = mv(&pos, text);
        let undo = pos.make_move(m);
        assert_eq!(pos.hash(), pos.compute_hash());
        assert_eq!(pos.last_move(), Some(m));
        pos.unmake_move(m, undo);
        assert_eq!(format!("{pos:?}"), before, "{text}");
        assert_eq!(pos, clone);
        assert_eq!(pos.last_move(), Some(mv(&pos, "e3,f3")));
    }
}

#[test]
fn the_hash_depends_on_stones_and_side_only() {
    let mut a = start(19);
    let mut b = start(19);
    for t in ["j10", "a1,b2", "c3,d4"] {
        play(&mut a, t);
    }
    for t in ["j10", "b2,a1", "d4,c3"] {
        play(&mut b, t);
    }
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a, b);
    let mut c = start(19);
    for t in ["d4", "a1,b2", "c3,j10"] {
        play(&mut c, t);
    }
    assert_eq!(c.hash(), a.hash(), "transposition: same stones, same side");
    assert_ne!(start(19).hash(), start(18).hash() ^ 1);
    assert_ne!(a.hash(), start(19).hash());
}

// ----- counting ---------------------------------------------------------------------------

#[test]
fn count_moves_is_the_closed_form() {
    let mut pos = start(19);
    assert_eq!(pos.count_moves(), 361);
    play(&mut pos, "j10");
    assert_eq!(pos.count_moves(), 64_620);
    play(&mut pos, "a1,s19");
    assert_eq!(pos.count_moves(), 358 * 357 / 2);
    let pos = start(26);
    assert_eq!(pos.count_moves(), 676);
    let mut moves = Vec::new();
    let mut p = pos.clone();
    play(&mut p, "m13");
    p.generate_moves(&mut moves);
    assert_eq!(moves.len() as u64, p.count_moves());
    assert_eq!(p.count_moves(), 675 * 674 / 2);
}

// ----- accessors ----------------------------------------------------------------------------

#[test]
fn accessors_for_the_evaluator() {
    let mut pos = start(19);
    assert_eq!(pos.size(), 19);
    assert_eq!(pos.geometry().width(), 19);
    assert_eq!(pos.empty_count(), 361);
    assert_eq!(pos.empty_squares().count(), 361);
    assert_eq!(pos.last_move(), None);
    play(&mut pos, "j10");
    play(&mut pos, "k10,k11");
    assert_eq!(pos.stone_at(sq(&pos, "j10")), Some(Player::First));
    assert_eq!(pos.stone_at(sq(&pos, "k11")), Some(Player::Second));
    assert_eq!(pos.stone_at(sq(&pos, "a1")), None);
    assert!(pos.stones(Player::Second).contains(sq(&pos, "k10")));
    assert_eq!(pos.stones(Player::First).count(), 1);
    assert!(!pos.empty_squares().contains(sq(&pos, "k10")));
    assert_eq!(pos.empty_count(), 358);
    assert_eq!(pos.last_move(), Some(mv(&pos, "k10,k11")));
    assert_eq!(pos.winning_line(), None);
    assert_eq!(
        pos.run_through(Player::Second, sq(&pos, "k12"), Direction::North),
        3
    );
    // Lines as bits, runs and rays.
    let k = pos.line_through(sq(&pos, "k1"), Direction::South).unwrap();
    assert_eq!((k.axis, k.pos, k.len), (Direction::North, 0, 19));
    assert_eq!((k.black, k.white), (0, 0b11 << 9));
    assert_eq!(k.empty(), k.on_board() & !(0b11 << 9));
    let diag = pos
        .line_through(sq(&pos, "a19"), Direction::SouthEast)
        .unwrap();
    assert_eq!(
        (diag.axis, diag.pos, diag.len),
        (Direction::SouthEast, 0, 19)
    );
    let corner = pos
        .line_through(sq(&pos, "s1"), Direction::NorthWest)
        .unwrap();
    assert_eq!((corner.pos, corner.len), (18, 19));
    let short = pos
        .line_through(sq(&pos, "a2"), Direction::SouthEast)
        .unwrap();
    assert_eq!((short.pos, short.len), (0, 2));
    assert_eq!(pos.line_through(Square(361), Direction::East), None);
    assert_eq!(pos.run_length(sq(&pos, "k10"), Direction::North), 2);
    assert_eq!(pos.run_length(sq(&pos, "k12"), Direction::North), 0);
    assert_eq!(
        pos.ray_run(Player::Second, sq(&pos, "k9"), Direction::North),
        2
    );
    assert_eq!(
        pos.ray_run(Player::Second, sq(&pos, "k12"), Direction::South),
        2
    );
    assert_eq!(
        pos.ray_run(Player::Second, sq(&pos, "k10"), Direction::South),
        0
    );
    assert_eq!(
        pos.ray_run(Player::First, sq(&pos, "i10"), Direction::East),
        1
    );
    assert!(pos.is_empty_square(sq(&pos, "a1")));
    assert!(!pos.is_empty_square(sq(&pos, "j10")));
    assert!(!pos.is_empty_square(Square(361)));
    assert_eq!(pos.occupied().count(), 3);
    assert_eq!(pos.empty_squares() | pos.occupied(), BoardSet::first_n(361));
    assert_eq!(pos.player_name(Player::First), "Black");
    assert_eq!(pos.player_name(Player::Second), "White");
    assert_eq!(pos.config().to_string(), "connect6:size=19");
}

// ----- config --------------------------------------------------------------------------------

#[test]
fn config_keys_defaults_and_errors() {
    let d = Connect6Config::default();
    assert_eq!(d.size(), 19);
    assert_eq!(d.to_string(), "connect6:size=19");
    assert_eq!("connect6".parse::<Connect6Config>(), Ok(d));
    assert_eq!(
        " CONNECT6 : Size = 6 "
            .parse::<Connect6Config>()
            .unwrap()
            .size(),
        6
    );
    assert_eq!(
        "connect6:size=26".parse::<Connect6Config>().unwrap().size(),
        26
    );
    for size in 6..=26 {
        let c = config(size);
        assert_eq!(c.to_string().parse::<Connect6Config>(), Ok(c));
    }
    let err = |s: &str| s.parse::<Connect6Config>().unwrap_err().to_string();
    assert_eq!(
        err("connect6:size=5"),
        "size=5 is out of range: expected an integer from 6 to 26"
    );
    assert_eq!(
        err("connect6:size=27"),
        "size=27 is out of range: expected an integer from 6 to 26"
    );
    assert_eq!(
        err("connect6:size=big"),
        "size=big is not valid: expected an integer from 6 to 26"
    );
    assert_eq!(
        err("connect6:k=6"),
        "unknown key 'k' for connect6: expected one of size"
    );
    assert_eq!(
        err("gomoku:size=19"),
        "unknown game 'gomoku': expected one of connect6"
    );
    assert!(matches!(
        "connect6:size=7,size=8".parse::<Connect6Config>(),
        Err(SpecError::Duplicate { .. })
    ));
    assert!(matches!(
        Connect6Config::new(30),
        Err(SpecError::OutOfRange { .. })
    ));
    assert_eq!(
        Connect6Config::new(5).unwrap_err().to_string(),
        "size=5 is out of range: expected an integer from 6 to 26"
    );
}

// ----- notation ------------------------------------------------------------------------------

#[test]
fn move_notation_forms() {
    let pos = start(19);
    let j10 = Move::single(sq(&pos, "j10"));
    for t in ["j10", " J10 ", "\tj10\n"] {
        assert_eq!(pos.parse_move(t), Ok(j10), "{t:?}");
    }
    let pair = Move::pair(sq(&pos, "j11"), sq(&pos, "k12"));
    for t in [
        "j11,k12",
        "k12,j11",
        "J11,K12",
        "j11 k12",
        "k12   j11",
        " j11 , k12 ",
    ] {
        assert_eq!(pos.parse_move(t), Ok(pair), "{t:?}");
    }
    assert_eq!(pos.format_move(pair), "j11,k12");
    assert_eq!(pos.format_move(j10), "j10");
    // s19 is the top-right corner; t is off a 19x19 board.
    assert_eq!(pos.format_move(Move::single(Square(360))), "s19");
    for bad in [
        "",
        "   ",
        "j11,",
        ",j11",
        "j11,k12,l13",
        "j11 k12 l13",
        "j11,,k12",
    ] {
        assert!(
            matches!(pos.parse_move(bad), Err(NotationError::Syntax { .. })),
            "{bad:?}: {:?}",
            pos.parse_move(bad)
        );
    }
    for bad in ["z99", "a0", "11", "j10-j11", "jj", "j1o", "j 11"] {
        assert!(pos.parse_move(bad).is_err(), "{bad:?}");
    }
    let e = pos.parse_move("t1").unwrap_err();
    assert_eq!(e.to_string(), "t1 is off the 19x19 board");
    let e = pos.parse_move("a1,a20").unwrap_err();
    assert_eq!(e.to_string(), "a20 is off the 19x19 board");
    let e = pos.parse_move("j11,k12,l13").unwrap_err();
    assert!(e.to_string().contains("two squares like j11,k12"), "{e}");
    // Notation checks syntax only: same-square pairs parse, and validate explains.
    assert!(pos.parse_move("a1,a1").is_ok());
}

// ----- position strings ----------------------------------------------------------------------

#[test]
fn position_string_of_the_start() {
    let pos = start(19);
    let s = pos.to_position_string();
    assert_eq!(s, format!("{} x 0", vec!["19"; 19].join("/")));
    assert_eq!(
        Connect6Position::from_position_string(config(19), &s),
        Ok(pos)
    );
    assert_eq!(start(6).to_position_string(), "6/6/6/6/6/6 x 0");
}

#[test]
fn position_string_after_moves() {
    let mut pos = start(6);
    for t in ["c3", "d4,e5", "c4 c5"] {
        play(&mut pos, t);
    }
    assert_eq!(pos.to_position_string(), "6/2x1o1/2xo2/2x3/6/6 o 3");
    let back =
        Connect6Position::from_position_string(config(6), " 6/2X1O1/2XO2/2X3/6/6   O 3 ").unwrap();
    assert_eq!(back, pos);
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(back.last_move(), None);
}

#[test]
fn position_string_errors_name_the_problem() {
    let read = |size: u32, s: &str| {
        Connect6Position::from_position_string(config(size), s)
            .unwrap_err()
            .to_string()
    };
    let cases: &[(&str, &str)] = &[
        (
            "6/6/6/6/6/6 x",
            "expected 3 fields (board, side to move, ply), found 2",
        ),
        ("6/6/6/6/6/6 x 0 0", "found 4"),
        ("", "found 0"),
        ("6/6/6/6/6 x 0", "the board has 5 ranks, expected 6"),
        ("6/6/6/6/6/6/6 x 0", "the board has 7 ranks"),
        ("6/6/5/6/6/6 x 0", "rank 4 covers 5 squares, expected 6"),
        ("6/6/7/6/6/6 x 0", "rank 4 covers more than 6 squares"),
        ("6/6/6x/6/6/6 x 0", "rank 4 covers more than 6 squares"),
        ("6/6/6/6/6/3y2 x 0", "rank 1: bad character 'y'"),
        ("6/6/6/6/6/3é2 x 0", "rank 1: bad character 'é'"),
        (
            "6/6/6/6/6/0x5 x 0",
            "rank 1: a number of empty squares cannot start with 0",
        ),
        (
            "6/6/6/6/6/06 x 0",
            "rank 1: a number of empty squares cannot start with 0",
        ),
        (
            "6/6/6/6/6/99999999999999999999 x 0",
            "rank 1 covers more than 6 squares",
        ),
        (
            "6/6/6/6/6/6 b 0",
            "side to move 'b' is not x (Black) or o (White)",
        ),
        ("6/6/6/6/6/6 x -1", "ply '-1' is not a number"),
        ("6/6/6/6/6/6 x +0", "ply '+0' is not a number"),
        (
            "6/6/6/6/6/6 x 99999999999",
            "ply '99999999999' is not a number",
        ),
        (
            "6/6/6/6/6/6 x 2",
            "0 black and 0 white stones do not fit ply 2",
        ),
        (
            "6/6/6/6/6/x5 x 0",
            "1 black and 0 white stones do not fit ply 0",
        ),
        ("6/6/6/6/6/x5 o 2", "(these stones fit ply 1)"),
        (
            "6/6/6/6/6/xo4 o 1",
            "1 black and 1 white stones do not fit ply 1",
        ),
        (
            "6/6/6/6/6/o5 x 0",
            "0 black and 1 white stones do not fit ply 0",
        ),
        (
            "6/6/6/6/6/x5 x 1",
            "side to move is x (Black), but at ply 1 o (White) is to move",
        ),
        (
            "6/6/6/6/oo4/xxx3 x 3",
            "side to move is x (Black), but at ply 3 o (White)",
        ),
        (
            "6/6/6/6/oo4/xxx3 o 4",
            "3 black and 2 white stones do not fit ply 4",
        ),
        // A full board where a single stone is missing from the wrong player.
        (
            "oxoxxo/oooxoo/ooxoxo/xoxxoo/xxooxo/oxxxxo o 19",
            "do not fit ply 19",
        ),
    ];
    for &(s, want) in cases {
        let e = read(6, s);
        assert!(
            e.contains(want) && e.starts_with("bad position string: "),
            "{s}: got '{e}', want '{want}'"
        );
    }
    // The side to move already has six: the game would have ended when it was made.
    assert_eq!(
        read(6, "6/xx4/6/xxx1xx/6/oooooo o 7"),
        "bad position string: o (White) is to move but already has six in a row a1-f1: \
         the game ended when it was made"
    );
    assert!(
        read(6, "oooo2/oooo2/6/x5/6/xxxxxx x 8")
            .contains("x (Black) is to move but already has six in a row a1-f1")
    );
    // Both have six: refused the same way.
    assert!(
        read(6, "6/oo4/6/xxx3/oooooo/xxxxxx o 9")
            .contains("o (White) is to move but already has six in a row a2-f2")
    );
    assert!(read(6, &"x".repeat(5000)).contains("longer than 4096 bytes"));
}

// ----- diagrams ------------------------------------------------------------------------------

#[test]
fn diagram_of_the_start() {
    insta::assert_snapshot!("start_19x19", start(19).diagram());
}

#[test]
fn diagram_mid_game() {
    let mut pos = start(19);
    for t in ["j10", "k11,k9", "h10,l10", "j12,j8", "g10,h11"] {
        play(&mut pos, t);
    }
    assert_eq!(pos.outcome(), None);
    insta::assert_snapshot!("mid_game_19x19", pos.diagram());
}

#[test]
fn diagram_of_a_finished_game() {
    let mut pos = setup(6, &["a2", "b2", "c2", "d2", "e2"], &WHITE_FILL[..6]);
    play(&mut pos, "f2,e4");
    assert_eq!(pos.outcome_reason().unwrap(), "six in a row a2-f2");
    insta::assert_snapshot!("won_6x6", pos.diagram());
}
