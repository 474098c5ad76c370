//! One focused test per rule of `games.md` (gomoku), per edge named in the brief, per
//! `MoveError` variant, and for config strings, notation and position strings.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns unwrap too

use board_core::View as _;
use board_core::{
    Direction, Notation, Outcome, Player, Position, PositionStringError, Rules, Square, SquareSet,
    perft,
};
use rules_gomoku::{GomokuConfig, GomokuPosition, Move, MoveError, Rule, WinningLine};

fn cfg(spec: &str) -> GomokuConfig {
    spec.parse().unwrap()
}

/// Plays whitespace-separated moves from the start of `spec`.
fn game(spec: &str, moves: &str) -> GomokuPosition {
    let mut pos = GomokuPosition::new(cfg(spec));
    for text in moves.split_whitespace() {
        let mv = pos
            .parse_legal_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make_move(mv);
    }
    pos
}

/// Black plays `black` and White plays `white`, alternately (Black first), until both
/// lists are used up or the game ends (so White's list can be generous filler).
fn duel(spec: &str, black: &str, white: &str) -> GomokuPosition {
    let b: Vec<&str> = black.split_whitespace().collect();
    let w: Vec<&str> = white.split_whitespace().collect();
    let mut pos = GomokuPosition::new(cfg(spec));
    for i in 0..b.len().max(w.len()) {
        for text in [b.get(i), w.get(i)].into_iter().flatten() {
            if pos.outcome().is_some() {
                return pos;
            }
            let mv = pos
                .parse_legal_move(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.make_move(mv);
        }
    }
    pos
}

fn sq(pos: &GomokuPosition, text: &str) -> Square {
    pos.geometry().parse_square(text).unwrap()
}

fn mv(pos: &GomokuPosition, text: &str) -> Move {
    pos.parse_move(text).unwrap()
}

fn read(spec: &str, text: &str) -> Result<GomokuPosition, PositionStringError> {
    GomokuPosition::from_position_string(cfg(spec), text)
}

fn assert_finished(pos: &GomokuPosition, outcome: Outcome, reason: &str) {
    assert_eq!(pos.outcome(), Some(outcome), "{}", pos.diagram());
    assert_eq!(pos.outcome_reason().as_deref(), Some(reason));
    let mut moves = vec![mv(pos, "a1")];
    pos.generate_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(pos.count_moves(), 0);
    assert_eq!(perft(&mut pos.clone(), 1), 0);
    assert_eq!(perft(&mut pos.clone(), 0), 1);
    // The string of a finished game reads back as the same finished game.
    let back =
        GomokuPosition::from_position_string(*pos.config(), &pos.to_position_string()).unwrap();
    assert_eq!(&back, pos);
    assert_eq!(back.outcome_reason().as_deref(), Some(reason));
}

fn assert_ongoing(pos: &GomokuPosition) {
    assert_eq!(pos.outcome(), None, "{}", pos.diagram());
    assert_eq!(pos.outcome_reason(), None);
    let empty = pos.geometry().cells() as u64 - pos.ply() as u64;
    assert_eq!(pos.count_moves(), empty);
}

// ---------------------------------------------------------------- start and turns

#[test]
fn the_board_starts_empty_with_black_to_move() {
    for (spec, cells) in [
        ("gomoku", 225),
        ("gomoku:size=20", 400),
        ("gomoku:size=5", 25),
    ] {
        let pos = GomokuPosition::new(cfg(spec));
        assert_eq!(pos.side_to_move(), Player::First);
        assert_eq!(pos.player_name(Player::First), "Black");
        assert_eq!(pos.player_name(Player::Second), "White");
        assert_eq!(pos.ply(), 0);
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.count_moves(), cells);
        assert!(pos.occupied().is_empty());
        assert_eq!(pos.empty_squares().count() as u64, cells);
        assert_eq!(pos.last_move(), None);
        assert_eq!(pos.hash(), pos.compute_hash());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert_eq!(moves.len() as u64, cells);
        assert_eq!(pos.format_move(moves[0]), "a1");
        assert!(moves.windows(2).all(|w| w[0] < w[1]));
    }
    assert_eq!(
        GomokuPosition::default(),
        GomokuPosition::new(cfg("gomoku"))
    );
}

#[test]
fn players_alternate_placing_one_stone_on_an_empty_square() {
    let mut pos = GomokuPosition::new(GomokuConfig::default());
    let h8 = sq(&pos, "h8");
    let undo = pos.play(Move(h8)).unwrap();
    assert_eq!(pos.stone_at(h8), Some(Player::First));
    assert_eq!(pos.side_to_move(), Player::Second);
    assert_eq!((pos.ply(), pos.last_move()), (1, Some(h8)));
    assert_eq!(pos.count_moves(), 224);
    let i9 = sq(&pos, "i9");
    pos.play(Move(i9)).unwrap();
    assert_eq!(pos.stone_at(i9), Some(Player::Second));
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(pos.stone_count(Player::First), 1);
    assert_eq!(pos.stone_count(Player::Second), 1);
    assert!(pos.stones(Player::Second).contains(i9));
    assert!(!pos.empty_squares().contains(i9));
    // Unmaking restores everything, the last move included.
    let before = pos.clone();
    let undo2 = pos.make_move(mv(&pos, "a1"));
    pos.unmake_move(mv(&pos, "a1"), undo2);
    assert_eq!(pos, before);
    assert_eq!((pos.hash(), pos.last_move()), (before.hash(), Some(i9)));
    pos.unmake_move(Move(i9), {
        // Replay i9 to get its undo record, as a search would hold it.
        let mut p = GomokuPosition::new(GomokuConfig::default());
        p.make_move(Move(h8));
        p.make_move(Move(i9))
    });
    pos.unmake_move(Move(h8), undo);
    assert_eq!(pos, GomokuPosition::new(GomokuConfig::default()));
    assert_eq!(pos.last_move(), None);
    assert_eq!(pos.hash(), pos.compute_hash());
}

// ---------------------------------------------------------------- five in a row

/// White's harmless replies, far from every edge line used below.
const FILLER: &str = "g7 i9 g9 i7 h5 e8 k8 h11";

#[test]
fn five_wins_in_each_direction_at_edges_and_corners() {
    // (Black's stones, the last one winning; the reason).
    let cases = [
        // Horizontal, along the bottom edge into the corner o1, last stone in the middle.
        ("k1 l1 n1 o1 m1", "five in a row k1-o1"),
        // Horizontal along the top edge from the corner a15.
        ("b15 c15 d15 e15 a15", "five in a row a15-e15"),
        // Vertical along the left edge into the corner a15.
        ("a11 a12 a13 a14 a15", "five in a row a11-a15"),
        // Vertical along the right edge from the corner o1.
        ("o5 o4 o3 o2 o1", "five in a row o1-o5"),
        // Diagonal from the corner a1.
        ("b2 c3 d4 e5 a1", "five in a row a1-e5"),
        // Diagonal into the corner o15.
        ("k11 l12 m13 o15 n14", "five in a row k11-o15"),
        // Anti-diagonal into the corner o1 (printed from its left end).
        ("k5 l4 m3 n2 o1", "five in a row k5-o1"),
        // Anti-diagonal from the corner a15.
        ("e11 d12 c13 b14 a15", "five in a row a15-e11"),
        // In the middle of the board.
        ("f8 g8 i8 j8 h8", "five in a row f8-j8"),
    ];
    for (black, reason) in cases {
        let pos = duel("gomoku", black, FILLER);
        assert_eq!(pos.ply(), 9, "{black}");
        assert_finished(&pos, Outcome::Win(Player::First), reason);
        let line = pos.winning_line().unwrap();
        assert_eq!(line.len, 5);
        assert!(pos.last_move().is_some());
    }
}

#[test]
fn white_wins_with_five_too() {
    let pos = duel("gomoku", "a1 c1 e1 g1 i1 k1", "h8 h9 h10 h11 h12");
    assert_finished(&pos, Outcome::Win(Player::Second), "five in a row h8-h12");
    assert_eq!(pos.side_to_move(), Player::First);
}

#[test]
fn fives_are_checked_on_small_boards_edge_to_edge() {
    for (black, reason) in [
        ("a1 b1 c1 d1 e1", "five in a row a1-e1"),
        ("e1 e2 e3 e4 e5", "five in a row e1-e5"),
        ("a1 b2 c3 d4 e5", "five in a row a1-e5"),
        ("a5 b4 c3 d2 e1", "five in a row a5-e1"),
    ] {
        // White's filler avoids the four lines above.
        let pos = duel("gomoku:size=5", black, "b3 d3 a3 c2");
        assert_finished(&pos, Outcome::Win(Player::First), reason);
    }
}

#[test]
fn lines_never_wrap_from_one_row_to_the_next() {
    // Five consecutive square indices across the end of a rank, and diagonal steps of
    // width+1 and width-1 that cross the edge: none is a line.
    for (spec, black) in [
        ("gomoku", "l1 m1 n1 o1 a2"),        // indices 11..=15
        ("gomoku", "m1 n2 o3 a5 b6"),        // steps of 16
        ("gomoku", "c1 b2 a3 o3 n4"),        // steps of 14
        ("gomoku:size=5", "e1 a2 b2 c2 d2"), // indices 4..=8
        ("gomoku:size=5", "d1 e2 a4 b5 c2"),
    ] {
        let white = if spec == "gomoku" {
            FILLER
        } else {
            "a5 c4 e4 d5"
        };
        let pos = duel(spec, black, white);
        assert_ongoing(&pos);
        for dir in Direction::ALL {
            assert!(pos.run_length(pos.last_move().unwrap(), dir) < 5);
        }
    }
}

#[test]
fn four_does_not_win() {
    // An open four in the middle, and a four against the edge.
    let pos = duel("gomoku", "f8 g8 h8 i8", "a1 a3 a5");
    assert_ongoing(&pos);
    let pos = duel("gomoku", "a1 b1 c1 d1", "h8 h9 h10 h11");
    assert_ongoing(&pos);
    // Four plus one with a gap is not five either.
    let pos = duel("gomoku", "a1 b1 c1 d1 f1", "h8 h9 h10 j8 j10");
    assert_ongoing(&pos);
    // A four blocked by the opponent, then completed on the other side: five wins.
    let pos = duel("gomoku", "b1 c1 d1 e1 f1", "a1 h9 h10 j8");
    assert_finished(&pos, Outcome::Win(Player::First), "five in a row b1-f1");
}

#[test]
fn five_made_by_filling_a_gap_wins_under_both_rules() {
    for spec in ["gomoku", "gomoku:rule=exact5"] {
        let pos = duel(spec, "d4 e4 g4 h4 f4", FILLER);
        assert_finished(&pos, Outcome::Win(Player::First), "five in a row d4-h4");
    }
}

#[test]
fn six_wins_in_freestyle_but_not_in_exact5() {
    // Black a1-d1 and f1, then e1 makes a1-f1.
    let black = "a1 b1 c1 d1 f1 e1";
    let white = "h8 h9 h10 j8 j10";
    let free = duel("gomoku", black, white);
    assert_finished(&free, Outcome::Win(Player::First), "six in a row a1-f1");
    assert_eq!(free.winning_line().unwrap().len, 6);
    let exact = duel("gomoku:rule=exact5", black, white);
    assert_ongoing(&exact);
    assert_eq!(exact.side_to_move(), Player::Second);
    assert_eq!(exact.run_length(sq(&exact, "e1"), Direction::East), 6);
    assert!(!exact.is_winning_move(Player::First, sq(&exact, "g1")));
}

#[test]
fn overline_of_six_made_by_joining_three_and_two() {
    // a1 b1 c1 _ e1 f1: d1 joins them into six.
    let black = "a1 b1 c1 e1 f1 d1";
    let white = "h8 h9 h10 j8 j10";
    let free = duel("gomoku", black, white);
    assert_finished(&free, Outcome::Win(Player::First), "six in a row a1-f1");
    let exact = duel("gomoku:rule=exact5", black, white);
    assert_ongoing(&exact);
    // Joining four and two makes seven: the same.
    let black = "c5 d5 e5 f5 h5 i5 g5";
    let white = "a1 a3 a5 a7 a9 a11";
    assert_finished(
        &duel("gomoku", black, white),
        Outcome::Win(Player::First),
        "seven in a row c5-i5",
    );
    assert_ongoing(&duel("gomoku:rule=exact5", black, white));
}

#[test]
fn exact5_five_in_one_direction_wins_despite_an_overline_in_another() {
    // Black: e1 e2 e3 e4 e6 (e5 would make six on the e file) and a5 b5 c5 d5 (e5 would
    // make exactly five on rank 5).
    let black = "e1 e2 e3 e4 e6 a5 b5 c5 e5";
    let white = "h8 h9 h10 j8 j10 l8 l12 n14";
    let blocked = "e1 e2 e3 e4 e6 a5 b5 c5 d5";
    let mut pos = duel("gomoku:rule=exact5", blocked, white);
    assert_ongoing(&pos);
    assert!(pos.is_winning_move(Player::First, sq(&pos, "e5")));
    pos.play(mv(&pos, "n13")).unwrap(); // White passes time
    pos.play(mv(&pos, "e5")).unwrap();
    assert_finished(&pos, Outcome::Win(Player::First), "five in a row a5-e5");
    assert_eq!(pos.run_length(sq(&pos, "e5"), Direction::North), 6);
    // Without the rank-5 five (d5 not played), e5 is only an overline: no win.
    let pos = duel("gomoku:rule=exact5", black, white);
    assert_ongoing(&pos);
    // Under freestyle the same e5 wins too; the reason names the first winning line.
    let mut pos = duel("gomoku", blocked, white);
    pos.play(mv(&pos, "n13")).unwrap();
    pos.play(mv(&pos, "e5")).unwrap();
    assert_finished(&pos, Outcome::Win(Player::First), "six in a row e1-e6");
}

#[test]
fn exact5_overlines_do_not_count_for_white_either_and_play_goes_on() {
    let white = "a1 b1 c1 d1 f1 e1";
    let black = "h8 h9 h10 j8 j10 l3";
    let mut pos = duel("gomoku:rule=exact5", black, white);
    assert_ongoing(&pos);
    assert_eq!(pos.side_to_move(), Player::First);
    // Later, an exact five elsewhere still wins.
    for m in [
        "n1", "a2", "o15", "b2", "o14", "c2", "o13", "d2", "o12", "e2",
    ] {
        pos.play(mv(&pos, m)).unwrap();
    }
    assert_finished(&pos, Outcome::Win(Player::Second), "five in a row a2-e2");
}

#[test]
fn only_the_movers_stone_can_end_the_game() {
    // A White stone next to Black's four does not make anything for Black.
    let mut pos = duel("gomoku", "a1 b1 c1 d1", "h8 h9 h10");
    pos.play(mv(&pos, "e2")).unwrap();
    assert_ongoing(&pos);
    assert!(pos.is_winning_move(Player::First, sq(&pos, "e1")));
    assert!(!pos.is_winning_move(Player::Second, sq(&pos, "e1")));
}

// ---------------------------------------------------------------- full board

/// A 5x5 board with no five for either side (13 x, 12 o).
const DRAWN: &str = "xxoox/ooxxo/xxoox/ooxxo/xxoox o 25";

#[test]
fn a_full_board_with_no_winner_is_a_draw() {
    // Play the whole game: Black takes the x squares of DRAWN, White the o squares.
    let black = "a1 b1 e1 c2 d2 a3 b3 e3 c4 d4 a5 b5 e5";
    let white = "c1 d1 a2 b2 e2 c3 d3 a4 b4 e4 c5 d5";
    let pos = duel("gomoku:size=5", black, white);
    assert_eq!(pos.ply(), 25);
    assert_finished(
        &pos,
        Outcome::Draw,
        "the board is full and nobody has five in a row",
    );
    assert_eq!(pos.to_position_string(), DRAWN);
    assert_eq!(read("gomoku:size=5", DRAWN).unwrap(), pos);
    // Under exact5 too.
    assert_eq!(
        duel("gomoku:size=5,rule=exact5", black, white).outcome(),
        Some(Outcome::Draw)
    );
    // One move before the end the game goes on with exactly one move.
    let mut before = duel("gomoku:size=5", &black[..black.len() - 3], white);
    assert_ongoing(&before);
    assert_eq!(before.count_moves(), 1);
    assert_eq!(perft(&mut before, 1), 1);
    assert_eq!(perft(&mut before, 2), 0);
}

#[test]
fn a_five_on_the_last_empty_square_wins_rather_than_draws() {
    let mut pos = read("gomoku:size=5", "xoxox/oxoxo/xooox/oooox/xxxx1 x 24").unwrap();
    assert_ongoing(&pos);
    pos.play(mv(&pos, "e1")).unwrap();
    assert_eq!(pos.ply(), 25);
    assert_finished(&pos, Outcome::Win(Player::First), "five in a row a1-e1");
}

// ---------------------------------------------------------------- illegal moves

#[test]
fn an_occupied_square_is_refused() {
    let pos = game("gomoku", "h8 i9");
    for (text, name) in [("h8", "h8"), ("I9", "i9")] {
        let err = pos.validate(&mv(&pos, text)).unwrap_err();
        assert_eq!(
            err,
            MoveError::Occupied(pos.geometry().coord(sq(&pos, name)).unwrap())
        );
        assert_eq!(err.to_string(), format!("{name} is occupied"));
    }
    let err = pos.parse_legal_move("h8").unwrap_err();
    assert_eq!(err.to_string(), "h8 is occupied");
}

#[test]
fn a_finished_game_refuses_every_move() {
    let pos = duel("gomoku", "a1 b1 c1 d1 e1", "h8 h9 h10 h11");
    for text in ["o15", "h12", "a1"] {
        assert_eq!(pos.validate(&mv(&pos, text)), Err(MoveError::GameOver));
    }
    assert_eq!(pos.validate(&Move(Square(999))), Err(MoveError::GameOver));
    assert_eq!(MoveError::GameOver.to_string(), "the game is over");
    let drawn = read("gomoku:size=5", DRAWN).unwrap();
    assert_eq!(drawn.validate(&Move(Square(0))), Err(MoveError::GameOver));
}

#[test]
fn an_off_board_square_is_refused() {
    let pos = GomokuPosition::new(GomokuConfig::default());
    for index in [225u16, 226, 675, 676, u16::MAX] {
        let err = pos.validate(&Move(Square(index))).unwrap_err();
        assert_eq!(err, MoveError::OffBoard { index, size: 15 });
        assert_eq!(
            err.to_string(),
            format!("square index {index} is off the 15x15 board")
        );
    }
    assert!(pos.validate(&Move(Square(224))).is_ok());
    // Accessors are total too.
    assert_eq!(pos.stone_at(Square(u16::MAX)), None);
    assert_eq!(pos.run_length(Square(300), Direction::East), 0);
    assert_eq!(
        pos.run_through(Player::First, Square(300), Direction::East),
        0
    );
    assert_eq!(pos.ray_run(Player::First, Square(300), Direction::East), 0);
    assert!(!pos.is_winning_move(Player::First, Square(300)));
}

#[test]
fn a_rejected_move_leaves_position_and_hash_untouched() {
    let cases = [
        (game("gomoku", "h8 i9 h9"), Move(Square(7 * 15 + 7))), // h8 occupied
        (game("gomoku", "h8 i9 h9"), Move(Square(400))),        // off the board
        (
            duel("gomoku", "a1 b1 c1 d1 e1", "h8 h9 h10 h11"),
            Move(Square(200)),
        ), // over
    ];
    for (mut pos, bad) in cases {
        let before = pos.clone();
        let string = pos.to_position_string();
        assert!(pos.play(bad).is_err());
        assert_eq!(pos, before);
        assert_eq!(pos.hash(), before.hash());
        assert_eq!(pos.hash(), pos.compute_hash());
        assert_eq!(pos.last_move(), before.last_move());
        assert_eq!(pos.to_position_string(), string);
        assert_eq!(pos.diagram(), before.diagram());
    }
}

#[test]
fn make_move_of_an_illegal_move_is_harmless_and_undone_exactly() {
    // `make_move` skips validation; an illegal move must not panic or corrupt anything.
    let pos = game("gomoku", "h8 i9 h9");
    for bad in [
        Move(sq(&pos, "h8")),
        Move(Square(225)),
        Move(Square(u16::MAX)),
    ] {
        let mut p = pos.clone();
        let undo = p.make_move(bad);
        assert_eq!(p.stone_at(sq(&pos, "h8")), Some(Player::First));
        assert_eq!(p.occupied(), pos.occupied());
        assert_eq!(p.hash(), p.compute_hash());
        p.unmake_move(bad, undo);
        assert_eq!(p, pos);
        assert_eq!((p.hash(), p.last_move()), (pos.hash(), pos.last_move()));
        assert_eq!(p.count_moves(), pos.count_moves());
    }
}

#[test]
fn make_and_unmake_of_a_winning_move_restore_everything() {
    let mut pos = duel("gomoku:rule=exact5", "a1 b1 c1 d1", "h8 h9 h10 h11");
    let before = pos.clone();
    let e1 = mv(&pos, "e1");
    let undo = pos.make_move(e1);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake_move(e1, undo);
    assert_eq!(pos, before);
    assert_eq!(pos.hash(), before.hash());
    assert_eq!(pos.last_move(), before.last_move());
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.count_moves(), before.count_moves());
}

// ---------------------------------------------------------------- hashing

#[test]
fn transpositions_hash_alike_and_the_side_to_move_counts() {
    let a = game("gomoku", "h8 i9 j10 k11");
    let b = game("gomoku", "j10 k11 h8 i9");
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    let c = game("gomoku", "h8 j10 i9 k11");
    assert_ne!(a, c);
    assert_ne!(a.hash(), c.hash());
    let start = GomokuPosition::new(GomokuConfig::default());
    let one = game("gomoku", "h8");
    assert_ne!(start.hash(), one.hash());
    assert_eq!(one.hash(), one.compute_hash());
}

// ---------------------------------------------------------------- accessors

#[test]
fn accessors_for_evaluators() {
    // Black: f8 g8 h8 (a three on rank 8) and h9; White: a1 a2 a3.
    let pos = duel("gomoku", "f8 g8 h8 h9", "a1 a2 a3");
    let s = |t| sq(&pos, t);
    assert_eq!(pos.geometry().width(), 15);
    assert_eq!((pos.size(), pos.rule()), (15, Rule::Freestyle));
    assert_eq!(pos.last_move(), Some(s("h9")));
    assert_eq!(pos.stone_at(s("g8")), Some(Player::First));
    assert_eq!(pos.stone_at(s("a2")), Some(Player::Second));
    assert_eq!(pos.stone_at(s("o15")), None);
    assert!(pos.is_empty_square(s("o15")) && !pos.is_empty_square(s("a1")));
    assert_eq!(pos.stones(Player::First).count(), 4);
    assert_eq!(pos.occupied().count(), 7);
    assert_eq!(pos.empty_squares().count(), 218);
    assert_eq!(
        (*pos.stones(Player::First) | *pos.stones(Player::Second) | *pos.empty_squares()).count(),
        225
    );
    // Run lengths along each line through a square.
    assert_eq!(pos.run_length(s("g8"), Direction::East), 3);
    assert_eq!(pos.run_length(s("g8"), Direction::West), 3);
    assert_eq!(pos.run_length(s("h8"), Direction::North), 2);
    assert_eq!(pos.run_length(s("h8"), Direction::NorthEast), 1);
    assert_eq!(pos.run_length(s("a2"), Direction::South), 3);
    assert_eq!(pos.run_length(s("o15"), Direction::East), 0);
    // What placing a stone would make, and one-sided rays.
    assert_eq!(pos.run_through(Player::First, s("i8"), Direction::East), 4);
    assert_eq!(pos.run_through(Player::First, s("e8"), Direction::West), 4);
    assert_eq!(
        pos.run_through(Player::Second, s("a4"), Direction::North),
        4
    );
    assert_eq!(pos.ray_run(Player::First, s("i8"), Direction::West), 3);
    assert_eq!(pos.ray_run(Player::First, s("i8"), Direction::East), 0);
    assert_eq!(pos.ray_run(Player::Second, s("a4"), Direction::South), 3);
    assert_eq!(pos.ray_run(Player::Second, s("a1"), Direction::South), 0);
    assert!(!pos.is_winning_move(Player::First, s("i8")));
    assert_eq!(pos.winning_line(), None);

    // Whole lines as bits: rank 8 from a8, with f8 g8 h8 Black.
    let rank = pos.line_through(s("g8"), Direction::West).unwrap();
    assert_eq!(rank.axis, Direction::East);
    assert_eq!(
        (rank.black, rank.white, rank.pos, rank.len),
        (0b111 << 5, 0, 6, 15)
    );
    assert_eq!(rank.empty(), 0x7fff & !(0b111 << 5));
    // The a file from a1: White a1 a2 a3.
    let file = pos.line_through(s("a2"), Direction::North).unwrap();
    assert_eq!(
        (file.stones(Player::Second), file.pos, file.len),
        (0b111, 1, 15)
    );
    // The long diagonal a1-o15 through h8.
    let diag = pos.line_through(s("h8"), Direction::SouthWest).unwrap();
    assert_eq!(
        (diag.axis, diag.black, diag.pos, diag.len),
        (Direction::NorthEast, 1 << 7, 7, 15)
    );
    let anti = pos.line_through(s("g10"), Direction::SouthEast).unwrap();
    // The anti-diagonal through g10 starts at b15 and holds h9.
    assert_eq!(
        (anti.axis, anti.pos, anti.len),
        (Direction::SouthEast, 5, 14)
    );
    assert_eq!(anti.black, 1 << 6); // h9
    // Corner lines have one square.
    let corner = pos.line_through(s("a15"), Direction::NorthEast).unwrap();
    assert_eq!((corner.pos, corner.len, corner.empty()), (0, 1, 1));
    assert_eq!(pos.line_through(Square(225), Direction::East), None);

    let won = duel("gomoku", "f8 g8 h8 i8 j8", "a1 a2 a3 a4");
    assert_eq!(
        won.winning_line(),
        Some(WinningLine {
            start: sq(&won, "f8"),
            end: sq(&won, "j8"),
            direction: Direction::East,
            len: 5,
        })
    );
}

// ---------------------------------------------------------------- notation

#[test]
fn moves_are_read_case_insensitively_and_printed_lower_case() {
    let pos = GomokuPosition::new(GomokuConfig::default());
    let h8 = Move(sq(&pos, "h8"));
    for text in ["h8", "H8", "  h8\t", "\nH8 "] {
        assert_eq!(pos.parse_move(text), Ok(h8), "{text:?}");
    }
    assert_eq!(pos.format_move(h8), "h8");
    assert_eq!(pos.format_move(Move(Square(224))), "o15");
    assert_eq!(pos.format_move(Move(Square(0))), "a1");
    let big = GomokuPosition::new(cfg("gomoku:size=26"));
    assert_eq!(big.parse_move("Z26"), Ok(Move(Square(675))));
    assert_eq!(big.format_move(Move(Square(675))), "z26");
}

#[test]
fn bad_move_text_is_a_notation_error() {
    let pos = GomokuPosition::new(GomokuConfig::default());
    for (text, message) in [
        ("p1", "p1 is off the 15x15 board"),
        ("a16", "a16 is off the 15x15 board"),
        (
            "a0",
            "'a0' is not a square: expected a column letter a-z and a row number, like c3",
        ),
        (
            "",
            "'' is not a square: expected a column letter a-z and a row number, like c3",
        ),
        (
            "h8 i9",
            "'h8 i9' is not a move: expected one square, like h8",
        ),
        (
            "h8-h9",
            "'h8-h9' is not a move: expected one square, like h8",
        ),
        (
            "h8,i9",
            "'h8,i9' is not a move: expected one square, like h8",
        ),
        (
            "88",
            "'88' is not a square: expected a column letter a-z and a row number, like c3",
        ),
    ] {
        let err = pos.parse_move(text).unwrap_err();
        assert_eq!(err.to_string(), message, "{text:?}");
    }
}

// ---------------------------------------------------------------- config

#[test]
fn config_defaults_and_every_key() {
    let c = GomokuConfig::default();
    assert_eq!((c.size(), c.rule()), (15, Rule::Freestyle));
    assert_eq!(c.to_string(), "gomoku:size=15,rule=freestyle");
    assert_eq!(cfg("gomoku"), c);
    assert_eq!(cfg(" GOMOKU "), c);
    let c = cfg("gomoku:size=20");
    assert_eq!((c.size(), c.rule()), (20, Rule::Freestyle));
    let c = cfg("gomoku:rule=exact5");
    assert_eq!((c.size(), c.rule()), (15, Rule::Exact5));
    let c = cfg("gomoku: Rule = EXACT5 , SIZE = 5 ");
    assert_eq!((c.size(), c.rule()), (5, Rule::Exact5));
    assert_eq!(c.to_string(), "gomoku:size=5,rule=exact5");
    assert_eq!(cfg("gomoku:size=26,rule=freestyle").size(), 26);
    assert_eq!(
        GomokuConfig::new(19, Rule::Exact5).unwrap(),
        cfg("gomoku:size=19,rule=exact5")
    );
}

#[test]
fn config_errors_name_the_key_and_the_range() {
    for (spec, message) in [
        (
            "gomoku:size=4",
            "size=4 is out of range: expected an integer from 5 to 26",
        ),
        (
            "gomoku:size=27",
            "size=27 is out of range: expected an integer from 5 to 26",
        ),
        (
            "gomoku:size=0",
            "size=0 is out of range: expected an integer from 5 to 26",
        ),
        (
            "gomoku:size=big",
            "size=big is not valid: expected an integer from 5 to 26",
        ),
        (
            "gomoku:size=-5",
            "size=-5 is not valid: expected an integer from 5 to 26",
        ),
        (
            "gomoku:rule=renju",
            "rule=renju is not valid: expected one of freestyle, exact5",
        ),
        (
            "gomoku:colour=red",
            "unknown key 'colour' for gomoku: expected one of size, rule",
        ),
        (
            "gomoku:k=5",
            "unknown key 'k' for gomoku: expected one of size, rule",
        ),
        ("gomoku:size=15,size=15", "key 'size' is given twice"),
        ("gomoku:size", "'size' in game spec is not key=value"),
        (
            "connect6:size=19",
            "unknown game 'connect6': expected one of gomoku",
        ),
        (
            "",
            "empty game spec: expected a game id such as gomoku or gomoku:size=20",
        ),
    ] {
        let err = spec.parse::<GomokuConfig>().unwrap_err();
        assert_eq!(err.to_string(), message, "{spec}");
    }
    assert_eq!(
        GomokuConfig::new(4, Rule::Freestyle)
            .unwrap_err()
            .to_string(),
        "size=4 is out of range: expected an integer from 5 to 26"
    );
}

// ---------------------------------------------------------------- position strings

#[test]
fn position_strings_list_ranks_from_the_top() {
    let pos = game("gomoku", "h8 a1 o15");
    assert_eq!(
        pos.to_position_string(),
        "14x/15/15/15/15/15/15/7x7/15/15/15/15/15/15/o14 o 3"
    );
    let pos = game("gomoku:size=20", "a20 t1");
    let text = pos.to_position_string();
    assert!(text.starts_with("x19/20/"), "{text}");
    assert!(text.ends_with("/19o x 2"), "{text}");
    assert_eq!(read("gomoku:size=20", &text).unwrap(), pos);
    // Upper case and extra spaces are accepted.
    let back = read("gomoku:size=20", &format!("  {} ", text.to_uppercase())).unwrap();
    assert_eq!(back, pos);
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(back.last_move(), None);
}

#[test]
fn position_strings_with_wrong_shape_are_rejected() {
    let five = "gomoku:size=5";
    for (text, message) in [
        ("", "expected 3 fields (board, side to move, ply), found 0"),
        (
            "5/5/5/5/5 x",
            "expected 3 fields (board, side to move, ply), found 2",
        ),
        (
            "5/5/5/5/5 x 0 0",
            "expected 3 fields (board, side to move, ply), found 4",
        ),
        ("5/5/5/5 x 0", "the board has 4 ranks, expected 5"),
        ("5/5/5/5/5/5 x 0", "the board has 6 ranks, expected 5"),
        ("5/5/4/5/5 x 0", "rank 3 covers 4 squares, expected 5"),
        ("5/5/6/5/5 x 0", "rank 3 covers more than 5 squares"),
        ("5/5/x5/5/5 x 0", "rank 3 covers more than 5 squares"),
        ("5/5/5/5/xxoxoo o 0", "rank 1 covers more than 5 squares"),
        (
            "5/5/5/5/99999999999 x 0",
            "rank 1 covers more than 5 squares",
        ),
        ("5//5/5/5 x 0", "rank 4 covers 0 squares, expected 5"),
        (
            "5/5/05/5/5 x 0",
            "rank 3: a number of empty squares cannot start with 0",
        ),
        (
            "5/5/2.2/5/5 x 0",
            "rank 3: bad character '.': expected x, o or a number of empty squares",
        ),
        (
            "5/5/2b2/5/5 x 0",
            "rank 3: bad character 'b': expected x, o or a number of empty squares",
        ),
        ("5/5/5/5/5 b 0", "side to move 'b' is not x or o"),
        ("5/5/5/5/5 x -1", "ply '-1' is not a number"),
        ("5/5/5/5/5 x +0", "ply '+0' is not a number"),
        (
            "5/5/5/5/5 x 99999999999",
            "ply '99999999999' is not a number",
        ),
    ] {
        let err = read(five, text).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("bad position string: {message}"),
            "{text:?}"
        );
    }
    // A string for another board size.
    let err = read("gomoku", "5/5/5/5/5 x 0").unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad position string: the board has 5 ranks, expected 15"
    );
}

#[test]
fn position_strings_with_impossible_counts_are_rejected() {
    let five = "gomoku:size=5";
    for (text, message) in [
        (
            "5/5/5/5/xx3 o 2",
            "x has 2 stones and o has 0: Black moves first, so x must have as many stones as o or one more",
        ),
        (
            "5/5/5/5/o4 x 1",
            "x has 0 stones and o has 1: Black moves first, so x must have as many stones as o or one more",
        ),
        (
            "5/5/5/5/x4 x 1",
            "x is to move, but with 1 x and 0 o stones it is o's turn",
        ),
        (
            "5/5/5/5/xo3 o 2",
            "o is to move, but with 1 x and 1 o stones it is x's turn",
        ),
        (
            "5/5/5/5/5 o 0",
            "o is to move, but with 0 x and 0 o stones it is x's turn",
        ),
        (
            "5/5/5/5/xo3 x 3",
            "ply 3 does not match the 2 stones on the board (each move places one stone)",
        ),
        (
            "5/5/5/5/5 x 1",
            "ply 1 does not match the 0 stones on the board (each move places one stone)",
        ),
    ] {
        let err = read(five, text).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("bad position string: {message}"),
            "{text:?}"
        );
    }
}

#[test]
fn position_strings_with_impossible_wins_are_rejected() {
    for (spec, text, message) in [
        (
            "gomoku:size=5",
            "ooooo/5/5/5/xxxxx x 10",
            "both x (a1-e1) and o (a5-e5) have a winning line",
        ),
        (
            "gomoku:size=5",
            "oooo1/o4/5/5/xxxxx x 10",
            "x has five in a row (a1-e1) but it is x's turn: the game ended with that line, so o cannot have moved since",
        ),
        (
            "gomoku:size=5",
            "xxxxx/5/ooooo/5/5 x 10",
            "both x (a5-e5) and o (a3-e3) have a winning line",
        ),
        (
            // Two separate fives: the first would have ended the game.
            "gomoku:size=7",
            "7/xxxxx2/7/ooo1oo1/ooo4/xxxxx2/o6 o 19",
            "x's winning lines (a2-e2, a6-e6) cannot all have been made by one last move: the game would have ended earlier",
        ),
        (
            "gomoku:size=7,rule=exact5",
            "7/xxxxx2/7/ooo1oo1/ooo4/xxxxx2/o6 o 19",
            "x's winning lines (a2-e2, a6-e6) cannot all have been made by one last move: the game would have ended earlier",
        ),
        (
            // A freestyle line of ten cannot be made by one stone (nine at most).
            "gomoku:size=10",
            "10/10/10/10/10/10/oooo6/oooo6/o9/xxxxxxxxxx o 19",
            "x's winning lines (a1-j1) cannot all have been made by one last move: the game would have ended earlier",
        ),
    ] {
        let err = read(spec, text).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("bad position string: {message}"),
            "{spec} {text}"
        );
    }
}

#[test]
fn position_strings_of_finished_games_read_back_finished() {
    // A freestyle nine made by the middle stone: legal, Black wins.
    let pos = read("gomoku:size=9", "9/9/9/9/9/oooo5/oooo5/9/xxxxxxxxx o 17").unwrap();
    assert_finished(&pos, Outcome::Win(Player::First), "nine in a row a1-i1");
    // Two fives crossing at the last stone: legal.
    let pos = read("gomoku:size=7", "x6/x6/x6/x6/xxxxx2/oooo3/oooo3 o 17").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    // Exact5: an exact five next to an overline of the same player; and overlines of both
    // players with no exact five: the game goes on.
    let pos = read(
        "gomoku:size=7,rule=exact5",
        "xxxxxx1/oooo3/7/ooo1ooo/o6/xxxxx1x/7 o 23",
    )
    .unwrap();
    assert_finished(&pos, Outcome::Win(Player::First), "five in a row a2-e2");
    let pos = read(
        "gomoku:size=7,rule=exact5",
        "7/7/7/7/oooooo1/7/xxxxxx1 x 12",
    )
    .unwrap();
    assert_ongoing(&pos);
    assert_eq!(pos.side_to_move(), Player::First);
    // Under exact5 a line of ten is no win, so this board is a game in progress.
    let ten = "10/10/10/10/10/10/oooo6/oooo6/o9/xxxxxxxxxx o 19";
    assert_ongoing(&read("gomoku:size=10,rule=exact5", ten).unwrap());
    // The same board under freestyle: both have six, rejected.
    assert!(read("gomoku:size=7", "7/7/7/7/oooooo1/7/xxxxxx1 x 12").is_err());
    // A full board without a five is a draw.
    let pos = read("gomoku:size=5", DRAWN).unwrap();
    assert_finished(
        &pos,
        Outcome::Draw,
        "the board is full and nobody has five in a row",
    );
}
