//! One focused test per rule of games.md's clamp section, and per edge named in the brief.

#![allow(clippy::unwrap_used)]

use board_core::{Coord, Direction, Notation, Outcome, Player, Position, Rules, Square, SquareSet};
use rules_clamp::{ClampConfig, ClampPosition, EndReason, Move, MoveError};

/// A position from piece lists, built through a position string written here by hand.
fn setup(
    spec: &str,
    black: &[&str],
    white: &[&str],
    side: Player,
    quiet: u32,
    ply: u32,
) -> ClampPosition {
    let config: ClampConfig = spec.parse().unwrap();
    let n = config.size() as usize;
    let mut grid = vec![vec!['.'; n]; n];
    for (list, ch) in [(black, 'X'), (white, 'O')] {
        for s in list.iter() {
            let c: Coord = s.parse().unwrap();
            grid[c.row() as usize][c.col() as usize] = ch;
        }
    }
    let ranks: Vec<String> = (0..n)
        .rev()
        .map(|r| {
            let mut out = String::new();
            let mut run = 0;
            for &cell in &grid[r] {
                if cell == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out.push(cell);
                }
            }
            if run > 0 {
                out += &run.to_string();
            }
            out
        })
        .collect();
    let s = format!(
        "{} {} {quiet} {ply}",
        ranks.join("/"),
        if side == Player::First { "x" } else { "o" }
    );
    ClampPosition::from_position_string(config, &s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn sq(pos: &ClampPosition, s: &str) -> Square {
    pos.geometry().parse_square(s).unwrap()
}

fn mv(pos: &ClampPosition, s: &str) -> Move {
    pos.parse_move(s).unwrap()
}

fn coord(s: &str) -> Coord {
    s.parse().unwrap()
}

fn legal(pos: &ClampPosition) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    v.sort();
    v
}

/// Plays `text` and checks that make/unmake and the hash stay consistent.
fn play(pos: &mut ClampPosition, text: &str) -> rules_clamp::Undo {
    let m = mv(pos, text);
    let before = pos.clone();
    let undo = pos.play(m).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(pos.hash(), pos.compute_hash(), "{text}");
    let mut back = pos.clone();
    back.unmake_move(m, undo);
    assert_eq!(back, before, "{text}");
    assert_eq!(back.hash(), before.hash(), "{text}");
    undo
}

/// Asserts that `text` is refused with `expected` and changes nothing.
fn refuse(pos: &mut ClampPosition, text: &str, expected: MoveError) {
    let m = mv(pos, text);
    let before = pos.clone();
    assert_eq!(pos.validate(&m), Err(expected.clone()), "{text}");
    assert_eq!(pos.play(m).map(|_| ()), Err(expected), "{text}");
    assert_eq!(*pos, before, "{text}");
    assert_eq!(pos.hash(), before.hash(), "{text}");
    assert!(!legal(pos).contains(&pos.format_move(m)), "{text}");
}

fn names(pos: &ClampPosition, squares: impl IntoIterator<Item = Square>) -> Vec<String> {
    let mut v: Vec<String> = squares
        .into_iter()
        .map(|s| pos.geometry().format_square(s))
        .collect();
    v.sort();
    v
}

// ---------------------------------------------------------------- start and zones

#[test]
fn start_position_default() {
    let pos = ClampPosition::new(ClampConfig::default());
    assert_eq!(pos.to_position_string(), "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0");
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(pos.player_name(Player::First), "Black");
    assert_eq!(pos.player_name(Player::Second), "White");
    assert_eq!(
        names(&pos, pos.pieces(Player::First).squares()),
        ["c6", "d6", "e6", "f6"]
    );
    assert_eq!(
        names(&pos, pos.pieces(Player::Second).squares()),
        ["c3", "d3", "e3", "f3"]
    );
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.quiet(), 0);
    assert_eq!(pos.ply(), 0);
}

#[test]
fn start_position_other_sizes_and_zones() {
    // Middle four columns (size-4)/2.. and the inner row of each zone.
    for (spec, black, white) in [
        (
            "clamp:size=6",
            ["b4", "c4", "d4", "e4"],
            ["b3", "c3", "d3", "e3"],
        ),
        (
            "clamp:size=6,zone=1",
            ["b6", "c6", "d6", "e6"],
            ["b1", "c1", "d1", "e1"],
        ),
        (
            "clamp:zone=4",
            ["c5", "d5", "e5", "f5"],
            ["c4", "d4", "e4", "f4"],
        ),
        (
            "clamp:size=10,zone=2",
            ["d9", "e9", "f9", "g9"],
            ["d2", "e2", "f2", "g2"],
        ),
        (
            "clamp:size=26,zone=1",
            ["l26", "m26", "n26", "o26"],
            ["l1", "m1", "n1", "o1"],
        ),
    ] {
        let pos = ClampPosition::new(spec.parse().unwrap());
        assert_eq!(
            names(&pos, pos.pieces(Player::First).squares()),
            black,
            "{spec}"
        );
        assert_eq!(
            names(&pos, pos.pieces(Player::Second).squares()),
            white,
            "{spec}"
        );
    }
}

#[test]
fn drop_zones() {
    let pos = ClampPosition::new(ClampConfig::default());
    let black = names(&pos, pos.drop_zone(Player::First).squares());
    assert_eq!(black.len(), 24);
    assert!(black.iter().all(|s| ["6", "7", "8"].contains(&&s[1..])));
    let white = names(&pos, pos.drop_zone(Player::Second).squares());
    assert!(white.iter().all(|s| ["1", "2", "3"].contains(&&s[1..])));
    assert!(pos.in_drop_zone(Player::First, sq(&pos, "a8")));
    assert!(!pos.in_drop_zone(Player::First, sq(&pos, "a5")));
    assert!(pos.in_drop_zone(Player::Second, sq(&pos, "h3")));
    assert!(!pos.in_drop_zone(Player::Second, sq(&pos, "h4")));
    assert!(!pos.in_drop_zone(Player::Second, Square(64)));
}

// ---------------------------------------------------------------- drops

#[test]
fn drop_in_own_zone_only() {
    let mut pos = ClampPosition::new(ClampConfig::default());
    let moves = legal(&pos);
    for s in ["a6", "b7", "h8", "g6"] {
        assert!(moves.contains(&s.to_string()), "{s}");
    }
    assert_eq!(moves.iter().filter(|m| !m.contains('-')).count(), 20);
    refuse(
        &mut pos,
        "d5",
        MoveError::OutsideZone {
            square: coord("d5"),
            first_rank: 6,
            last_rank: 8,
        },
    );
    refuse(
        &mut pos,
        "a1",
        MoveError::OutsideZone {
            square: coord("a1"),
            first_rank: 6,
            last_rank: 8,
        },
    );
    refuse(&mut pos, "d6", MoveError::Occupied(coord("d6")));
    play(&mut pos, "a8");
    assert_eq!(pos.piece_at(sq(&pos, "a8")), Some(Player::First));
    refuse(
        &mut pos,
        "a8",
        MoveError::OutsideZone {
            square: coord("a8"),
            first_rank: 1,
            last_rank: 3,
        },
    );
    refuse(&mut pos, "c3", MoveError::Occupied(coord("c3")));
    play(&mut pos, "a1");
    assert_eq!(pos.piece_count(Player::Second), 5);
}

#[test]
fn drop_refused_at_max_on_board() {
    let mut pos = setup(
        "clamp:max_on_board=5",
        &["a8", "b8", "c8", "d8", "e8"],
        &["a1"],
        Player::First,
        0,
        0,
    );
    assert!(!pos.can_drop(Player::First));
    assert!(pos.can_drop(Player::Second));
    refuse(&mut pos, "h8", MoveError::TooManyPieces { max: 5 });
    assert!(legal(&pos).iter().all(|m| m.contains('-')));
    // A step keeps the count at 5: still no drop.
    play(&mut pos, "a8-a7");
    play(&mut pos, "b1");
    refuse(&mut pos, "h8", MoveError::TooManyPieces { max: 5 });
    // max_on_board=4 at the start: no drops at all.
    let pos = ClampPosition::new("clamp:max_on_board=4".parse().unwrap());
    assert!(legal(&pos).iter().all(|m| m.contains('-')));
}

// ---------------------------------------------------------------- steps

#[test]
fn steps_one_or_two_in_eight_directions() {
    let pos = setup("clamp", &["d4"], &["h1"], Player::First, 0, 0);
    let moves = legal(&pos);
    let steps: Vec<&String> = moves.iter().filter(|m| m.contains('-')).collect();
    let expected = [
        "d4-d5", "d4-d6", "d4-e5", "d4-f6", "d4-e4", "d4-f4", "d4-e3", "d4-f2", "d4-d3", "d4-d2",
        "d4-c3", "d4-b2", "d4-c4", "d4-b4", "d4-c5", "d4-b6",
    ];
    assert_eq!(steps.len(), 16);
    for e in expected {
        assert!(moves.contains(&e.to_string()), "{e}");
    }
    assert_eq!(pos.mobility(Player::First), 16 + 24);
}

#[test]
fn steps_stop_at_the_edge_without_wrapping() {
    // a2 on the left edge: no westward steps (which would wrap to h1/h2/h3).
    let pos = setup("clamp", &["a2"], &["h8"], Player::First, 0, 0);
    let steps: Vec<String> = legal(&pos)
        .into_iter()
        .filter(|m| m.contains('-'))
        .collect();
    assert_eq!(
        steps,
        [
            "a2-a1", "a2-a3", "a2-a4", "a2-b1", "a2-b2", "a2-b3", "a2-c2", "a2-c4"
        ]
    );
    // h7 on the right edge near the top.
    let pos = setup("clamp", &["h7"], &["a1"], Player::First, 0, 0);
    let steps: Vec<String> = legal(&pos)
        .into_iter()
        .filter(|m| m.contains('-'))
        .collect();
    assert_eq!(
        steps,
        [
            "h7-f5", "h7-f7", "h7-g6", "h7-g7", "h7-g8", "h7-h5", "h7-h6", "h7-h8"
        ]
    );
}

#[test]
fn step_of_two_needs_an_empty_middle() {
    let mut pos = setup(
        "clamp",
        &["c6", "c5", "e6"],
        &["d6", "a1"],
        Player::First,
        0,
        0,
    );
    refuse(
        &mut pos,
        "c6-c4",
        MoveError::Blocked {
            from: coord("c6"),
            to: coord("c4"),
            over: coord("c5"),
        },
    );
    // Over an enemy piece too.
    refuse(&mut pos, "e6-c6", MoveError::Occupied(coord("c6")));
    let mut pos = setup("clamp", &["e6"], &["d6", "a1"], Player::First, 0, 0);
    refuse(
        &mut pos,
        "e6-c6",
        MoveError::Blocked {
            from: coord("e6"),
            to: coord("c6"),
            over: coord("d6"),
        },
    );
    play(&mut pos, "e6-e4");
}

#[test]
fn step_errors() {
    let mut pos = ClampPosition::new(ClampConfig::default());
    refuse(
        &mut pos,
        "c6-c3",
        MoveError::TooFar {
            from: coord("c6"),
            to: coord("c3"),
            distance: 3,
        },
    );
    refuse(
        &mut pos,
        "c6-f3",
        MoveError::TooFar {
            from: coord("c6"),
            to: coord("f3"),
            distance: 3,
        },
    );
    refuse(
        &mut pos,
        "c6-d4",
        MoveError::NotStraight {
            from: coord("c6"),
            to: coord("d4"),
        },
    );
    refuse(
        &mut pos,
        "c6-a5",
        MoveError::NotStraight {
            from: coord("c6"),
            to: coord("a5"),
        },
    );
    refuse(&mut pos, "c3-c4", MoveError::NotYourPiece(coord("c3")));
    refuse(&mut pos, "c5-c4", MoveError::NoPiece(coord("c5")));
    refuse(&mut pos, "c6-d6", MoveError::Occupied(coord("d6")));
    refuse(&mut pos, "c6-c6", MoveError::NullStep(coord("c6")));
    // Off-board squares in a move built by hand.
    for bad in [
        Move::Drop(Square(64)),
        Move::Step(Square(64), Square(0)),
        Move::Step(Square(42), Square(999)),
    ] {
        let before = pos.clone();
        let e = pos.validate(&bad).unwrap_err();
        assert!(matches!(e, MoveError::OffBoard { size: 8, .. }), "{e}");
        assert!(pos.play(bad).is_err());
        assert_eq!(pos, before);
    }
    assert_eq!(
        pos.validate(&Move::Drop(Square(64)))
            .unwrap_err()
            .to_string(),
        "square index 64 is off the 8x8 board"
    );
}

#[test]
fn error_messages_name_squares() {
    let cases = [
        (MoveError::GameOver, "the game is over"),
        (MoveError::Occupied(coord("e5")), "e5 is occupied"),
        (MoveError::NotYourPiece(coord("d4")), "d4 is not your piece"),
        (MoveError::NoPiece(coord("c5")), "there is no piece on c5"),
        (
            MoveError::OutsideZone {
                square: coord("d4"),
                first_rank: 6,
                last_rank: 8,
            },
            "d4 is outside your drop zone (ranks 6-8)",
        ),
        (
            MoveError::TooManyPieces { max: 10 },
            "you already have 10 pieces on the board: no drop until you have fewer",
        ),
        (
            MoveError::Blocked {
                from: coord("c6"),
                to: coord("c4"),
                over: coord("c5"),
            },
            "c6-c4 passes over c5, which is occupied",
        ),
        (
            MoveError::TooFar {
                from: coord("c6"),
                to: coord("c3"),
                distance: 3,
            },
            "c6-c3 is 3 squares: a step is 1 or 2 squares",
        ),
        (
            MoveError::NotStraight {
                from: coord("c6"),
                to: coord("d4"),
            },
            "c6-d4 is not a straight line (a step goes along a row, column or diagonal)",
        ),
        (
            MoveError::NullStep(coord("c6")),
            "c6-c6 does not move the piece",
        ),
    ];
    for (e, text) in cases {
        assert_eq!(e.to_string(), text);
    }
}

// ---------------------------------------------------------------- captures

#[test]
fn capture_in_each_of_the_eight_directions() {
    for d in Direction::ALL {
        let g = board_core::Geometry::square(8).unwrap();
        let at = g.parse_square("e4").unwrap();
        let enemy = g.step(at, d).unwrap();
        let partner = g.step(enemy, d).unwrap();
        // Step into e4 from the side (perpendicular to d), away from the clamp line.
        let side = Direction::ALL[(d.index() + 2) % 8];
        let origin = g.step(at, side).unwrap();
        let (e, p, o) = (
            g.format_square(enemy),
            g.format_square(partner),
            g.format_square(origin),
        );
        let mut pos = setup("clamp", &[&p, &o], &[&e, "a8"], Player::First, 5, 6);
        let m = format!("{o}-e4");
        assert_eq!(pos.capture_count(mv(&pos, &m)), 1, "{d:?}");
        let undo = play(&mut pos, &m);
        assert_eq!(undo.captures(), 1, "{d:?}");
        assert_eq!(pos.captured_squares(mv(&pos, &m), &undo), [enemy], "{d:?}");
        assert_eq!(pos.piece_at(enemy), None, "{d:?}");
        assert_eq!(pos.piece_count(Player::Second), 1, "{d:?}");
        assert_eq!(pos.quiet(), 0, "{d:?}");
        assert_eq!(pos.outcome(), None);
    }
}

#[test]
fn eight_captures_in_one_move_and_undo_restores_them() {
    // A White ring around e5 (in Black's zone with zone=4), Black pieces two squares away
    // on all 8 lines: a drop on e5 captures all eight.
    let black = ["c7", "e7", "g7", "c5", "g5", "c3", "e3", "g3"];
    let white = ["d6", "e6", "f6", "d5", "f5", "d4", "e4", "f4", "a1"];
    let mut pos = setup(
        "clamp:zone=4,max_on_board=12",
        &black,
        &white,
        Player::First,
        17,
        30,
    );
    let before = pos.clone();
    let m = mv(&pos, "e5");
    assert_eq!(pos.capture_count(m), 8);
    let undo = pos.play(m).unwrap();
    assert_eq!(undo.captures(), 8);
    assert_eq!(undo.previous_quiet(), 17);
    assert_eq!(pos.quiet(), 0);
    assert_eq!(pos.piece_count(Player::Second), 1);
    assert_eq!(pos.hash(), pos.compute_hash());
    assert_eq!(
        names(&pos, pos.captured_squares(m, &undo)),
        ["d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"]
    );
    pos.unmake_move(m, undo);
    assert_eq!(pos, before);
    assert_eq!(pos.hash(), before.hash());
    assert_eq!(pos.quiet(), 17);
    for s in white {
        assert_eq!(pos.piece_at(sq(&pos, s)), Some(Player::Second), "{s}");
    }
}

#[test]
fn landing_between_two_enemies_is_safe() {
    // Black steps to d5 between White c5 and e5 (and between c4/e6 diagonally).
    let mut pos = setup(
        "clamp",
        &["d7", "h8"],
        &["c5", "e5", "c4", "e6"],
        Player::First,
        0,
        0,
    );
    let undo = play(&mut pos, "d7-d5");
    assert_eq!(undo.captures(), 0);
    assert_eq!(pos.piece_at(sq(&pos, "d5")), Some(Player::First));
    assert_eq!(pos.piece_count(Player::Second), 4);
    // White then plays elsewhere: the clamp that already exists captures nothing.
    play(&mut pos, "c4-b3");
    assert_eq!(pos.piece_at(sq(&pos, "d5")), Some(Player::First));
}

#[test]
fn only_the_moved_piece_captures() {
    // White e5 is already between Black d5 and f5; Black playing elsewhere captures nothing,
    // and White moving into a clamp (d5 _ f5 with e5) is safe.
    let mut pos = setup(
        "clamp",
        &["d5", "f5", "a8"],
        &["e4", "h1"],
        Player::Second,
        0,
        1,
    );
    let undo = play(&mut pos, "e4-e5");
    assert_eq!(undo.captures(), 0);
    let undo = play(&mut pos, "a8-a7");
    assert_eq!(undo.captures(), 0);
    assert_eq!(pos.piece_at(sq(&pos, "e5")), Some(Player::Second));
}

#[test]
fn an_enemy_pair_is_not_captured() {
    // X lands on b4: c4 O, d4 O, e4 X. Beyond c4 is O, so nothing is captured.
    let mut pos = setup(
        "clamp",
        &["a5", "e4", "h8"],
        &["c4", "d4", "h1"],
        Player::First,
        0,
        0,
    );
    let undo = play(&mut pos, "a5-b4");
    assert_eq!(undo.captures(), 0);
    assert_eq!(pos.piece_count(Player::Second), 3);
}

#[test]
fn the_square_beyond_must_hold_the_movers_piece() {
    // a3-a4 lands next to White b4 (c4 beyond: empty) and b5 (c6 beyond: empty).
    let mut pos = setup(
        "clamp",
        &["a3", "h8"],
        &["b4", "b5", "h1"],
        Player::First,
        0,
        0,
    );
    let undo = play(&mut pos, "a3-a4");
    assert_eq!(undo.captures(), 0, "beyond is empty");
    assert_eq!(pos.piece_count(Player::Second), 3);
    // g5-g6 next to White g7: beyond is g8, empty.
    let mut pos = setup("clamp", &["g5", "a1"], &["g7", "h1"], Player::First, 0, 0);
    let undo = play(&mut pos, "g5-g6");
    assert_eq!(undo.captures(), 0, "beyond g7 is g8: empty");
    // f5-f6 next to White g7: beyond is h8, White.
    let mut pos = setup("clamp", &["f5", "a1"], &["g7", "h8"], Player::First, 0, 0);
    let undo = play(&mut pos, "f5-f6");
    assert_eq!(undo.captures(), 0, "beyond g7 is h8: White");
    // g6-g7 next to White h7: beyond is off the board (index 56 would be a8, Black).
    let mut pos = setup("clamp", &["g6", "a8"], &["h7", "h1"], Player::First, 0, 0);
    let undo = play(&mut pos, "g6-g7");
    assert_eq!(undo.captures(), 0, "beyond h7 is off the board");
}

#[test]
fn capture_after_a_drop_and_after_a_step() {
    // Black drops e7: White e6 sits between e7 and Black e5.
    let mut pos = setup("clamp", &["e5", "a8"], &["e6", "h1"], Player::First, 3, 4);
    let undo = play(&mut pos, "e7");
    assert_eq!(undo.captures(), 1);
    assert_eq!(pos.piece_at(sq(&pos, "e6")), None);
    assert_eq!(pos.quiet(), 0);
    // White steps c1-c3: Black c4 sits between c3 and White c5.
    let mut pos = setup(
        "clamp",
        &["c4", "a8"],
        &["c5", "c1", "h1"],
        Player::Second,
        2,
        3,
    );
    let undo = play(&mut pos, "c1-c3");
    assert_eq!(undo.captures(), 1);
    assert_eq!(pos.piece_at(sq(&pos, "c4")), None);
    // White drops d3: Black d4 between d3 and White d5.
    let mut pos = setup("clamp", &["d4", "a8"], &["d5", "h1"], Player::Second, 2, 3);
    let undo = play(&mut pos, "d3");
    assert_eq!(undo.captures(), 1);
    assert_eq!(pos.piece_count(Player::First), 1);
}

#[test]
fn a_step_captures_from_its_landing_square() {
    // e6-d5 lands next to White d4 with Black d3 beyond: captured.
    let mut pos = setup(
        "clamp",
        &["e6", "d3", "a8"],
        &["d4", "h1"],
        Player::First,
        0,
        0,
    );
    let undo = play(&mut pos, "e6-d5");
    assert_eq!(undo.captures(), 1);
    // d4-d6 lands with White e5 diagonally adjacent: captured only with Black on f4.
    let mut pos = setup("clamp", &["d4", "a8"], &["e5", "h1"], Player::First, 0, 0);
    let undo = play(&mut pos, "d4-d6");
    assert_eq!(undo.captures(), 0, "f4 is empty");
    let mut pos = setup(
        "clamp",
        &["d4", "f4", "a8"],
        &["e5", "h1"],
        Player::First,
        0,
        0,
    );
    let undo = play(&mut pos, "d4-d6");
    assert_eq!(undo.captures(), 1, "f4 clamps e5 with d6");
    // The origin can never be the far end of a clamp: that step would pass over the
    // enemy piece.
    let mut pos = setup("clamp", &["c4", "a8"], &["c5", "h1"], Player::First, 0, 0);
    assert!(matches!(
        pos.validate(&mv(&pos, "c4-c6")),
        Err(MoveError::Blocked { .. })
    ));
    let undo = play(&mut pos, "c4-c3");
    assert_eq!(undo.captures(), 0);
}

#[test]
fn captures_do_not_wrap_around_the_edge() {
    // Black lands on h4 (index 31). Index 32 is a5 and 33 is b5: a wrapping bug would see
    // "East of h4" = a5 (White) with b5 (Black) beyond.
    let mut pos = setup(
        "clamp",
        &["h2", "b5", "a8"],
        &["a5", "c1"],
        Player::First,
        0,
        0,
    );
    let undo = play(&mut pos, "h2-h4");
    assert_eq!(undo.captures(), 0);
    assert_eq!(pos.piece_count(Player::Second), 2);
    // And westwards from a-file: Black on a5 (index 32) - West would be h4 (31), g4 (30).
    let mut pos = setup(
        "clamp",
        &["a7", "g4", "a8"],
        &["h4", "c1"],
        Player::First,
        0,
        0,
    );
    let undo = play(&mut pos, "a7-a5");
    assert_eq!(undo.captures(), 0);
    // Diagonal wraps: landing on h5 (39), NE would be a7 (48)? 39+9 = 48 = a7, 57 = b8.
    let mut pos = setup("clamp", &["h3", "b8"], &["a7", "c1"], Player::First, 0, 0);
    let undo = play(&mut pos, "h3-h5");
    assert_eq!(undo.captures(), 0);
    // A real capture along the edge still works: h4 between h5 (lands) and h3.
    let mut pos = setup(
        "clamp",
        &["h7", "h3", "a8"],
        &["h4", "c1"],
        Player::First,
        0,
        0,
    );
    let undo = play(&mut pos, "h7-h5");
    assert_eq!(undo.captures(), 1);
}

#[test]
fn captures_on_a_small_board_edge() {
    // 6×6: f3 is index 17, a4 is 18, b4 is 19.
    let mut pos = setup(
        "clamp:size=6",
        &["f1", "b4", "a6"],
        &["a4", "c1"],
        Player::First,
        0,
        0,
    );
    let undo = play(&mut pos, "f1-f3");
    assert_eq!(undo.captures(), 0);
}

// ---------------------------------------------------------------- end of the game

#[test]
fn win_by_removing_the_last_enemy_piece() {
    let mut pos = setup("clamp", &["c6", "f3"], &["d5"], Player::First, 9, 20);
    play(&mut pos, "f3-e4");
    assert_eq!(pos.piece_count(Player::Second), 0);
    assert_eq!(pos.end_reason(), Some(EndReason::NoPieces));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.outcome_reason().unwrap(), "White has no pieces left");
    assert!(legal(&pos).is_empty());
    assert_eq!(pos.count_moves(), 0);
    // White could drop, but the game is over.
    assert!(pos.can_drop(Player::Second));
    refuse(&mut pos, "a1", MoveError::GameOver);
}

#[test]
fn win_by_blocking_at_max_on_board() {
    // White's six pieces in the corner at max_on_board=6 cannot drop; d5-d3 closes the cage.
    let mut pos = setup(
        "clamp:max_on_board=6",
        &["a3", "b3", "c3", "d1", "d2", "d5"],
        &["a1", "b1", "c1", "a2", "b2", "c2"],
        Player::First,
        0,
        0,
    );
    assert!(pos.has_move(Player::Second), "d3 is still open");
    assert!(!pos.can_drop(Player::Second));
    play(&mut pos, "d5-d3");
    assert!(!pos.has_move(Player::Second));
    assert_eq!(pos.mobility(Player::Second), 0);
    assert_eq!(pos.end_reason(), Some(EndReason::NoMoves));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.outcome_reason().unwrap(), "White has no legal move");
    assert_eq!(pos.count_moves(), 0);
    refuse(&mut pos, "a1-a2", MoveError::GameOver);
    // The same cage with max_on_board=7: White may still drop, so the game goes on.
    let mut pos = setup(
        "clamp:max_on_board=7",
        &["a3", "b3", "c3", "d1", "d2", "d5"],
        &["a1", "b1", "c1", "a2", "b2", "c2"],
        Player::First,
        0,
        0,
    );
    play(&mut pos, "d5-d3");
    assert_eq!(pos.outcome(), None);
    assert!(pos.can_drop(Player::Second));
    assert!(legal(&pos).iter().all(|m| !m.contains('-')), "only drops");
}

#[test]
fn win_by_blocking_with_a_full_zone() {
    // 6×6, zone=1: White fills its zone (rank 1); Black closes rank 2. White has fewer
    // than max_on_board pieces but nowhere to drop and nowhere to step.
    let mut pos = setup(
        "clamp:size=6,zone=1,max_on_board=20",
        &["a2", "b2", "c2", "d2", "e2", "f4"],
        &["a1", "b1", "c1", "d1", "e1", "f1"],
        Player::First,
        4,
        6,
    );
    assert!(!pos.can_drop(Player::Second));
    assert!(pos.has_move(Player::Second), "f1 can still step to f2");
    play(&mut pos, "f4-f2");
    assert_eq!(pos.end_reason(), Some(EndReason::NoMoves));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.count_moves(), 0);
}

#[test]
fn quiet_limit_draw_exactly_after_the_limit_move() {
    let mut pos = ClampPosition::new("clamp:quiet_limit=3".parse().unwrap());
    play(&mut pos, "a8");
    play(&mut pos, "a1");
    assert_eq!(pos.quiet(), 2);
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.quiet_remaining(), 1);
    play(&mut pos, "b8");
    assert_eq!(pos.quiet(), 3);
    assert_eq!(pos.end_reason(), Some(EndReason::QuietLimit));
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "3 half-moves without a capture"
    );
    assert!(legal(&pos).is_empty());
    refuse(&mut pos, "b1", MoveError::GameOver);
}

#[test]
fn default_game_without_captures_ends_after_ply_80() {
    let mut pos = ClampPosition::new(ClampConfig::default());
    let mut moves = Vec::new();
    let mut i = 0usize;
    while pos.outcome().is_none() {
        pos.generate_moves(&mut moves);
        // A quiet move that also leaves the opponent without a capture is not needed; any
        // quiet move keeps the counter rising.
        let quiet: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.capture_count(m) == 0)
            .collect();
        let m = quiet[i % quiet.len()];
        i = i.wrapping_mul(31).wrapping_add(7);
        pos.play(m).unwrap();
        assert_eq!(pos.quiet(), pos.ply());
    }
    assert_eq!(pos.ply(), 80);
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_capture_resets_the_quiet_counter() {
    let mut pos = setup(
        "clamp",
        &["c6", "f3", "a8"],
        &["d5", "h1"],
        Player::First,
        79,
        100,
    );
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "f3-e4");
    assert_eq!(pos.quiet(), 0);
    assert_eq!(pos.outcome(), None, "the capture reset the counter");
    play(&mut pos, "h1-h2");
    assert_eq!(pos.quiet(), 1);
}

#[test]
fn adjudication_win_and_draw() {
    // Black 5 pieces, White 4: the move that reaches the limit ends the game.
    let mut pos = setup(
        "clamp:quiet_limit=10,adjudicate=true",
        &["a8", "b8", "c8", "d8", "e8"],
        &["a1", "b1", "c1", "d1"],
        Player::First,
        9,
        20,
    );
    play(&mut pos, "a8-a7");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "10 half-moves without a capture, adjudicated: 5 pieces to 4"
    );
    // White reaches the limit with a drop that evens the count: adjudicated draw.
    let mut pos = setup(
        "clamp:quiet_limit=10,adjudicate=true",
        &["a8", "b8", "c8", "d8", "e8"],
        &["a1", "b1", "c1", "d1"],
        Player::Second,
        9,
        21,
    );
    play(&mut pos, "h1");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(
        pos.outcome_reason().unwrap(),
        "10 half-moves without a capture, adjudicated: 5 pieces each and 0 each on the centre squares"
    );
    // White ahead.
    let mut pos = setup(
        "clamp:quiet_limit=10,adjudicate=true",
        &["a8", "b8"],
        &["a1", "b1", "c1"],
        Player::First,
        9,
        20,
    );
    play(&mut pos, "a8-a7");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
    // Without adjudication the same is a draw.
    let mut pos = setup(
        "clamp:quiet_limit=10",
        &["a8", "b8"],
        &["a1", "b1", "c1"],
        Player::First,
        9,
        20,
    );
    play(&mut pos, "a8-a7");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

#[test]
fn end_checks_run_in_order() {
    // The move that reaches the quiet limit also leaves White without a move: rule 2
    // (Black wins) comes before rule 3 (draw).
    let mut pos = setup(
        "clamp:max_on_board=6,quiet_limit=5",
        &["a3", "b3", "c3", "d1", "d2", "d5"],
        &["a1", "b1", "c1", "a2", "b2", "c2"],
        Player::First,
        4,
        8,
    );
    play(&mut pos, "d5-d3");
    assert_eq!(pos.quiet(), 5);
    assert_eq!(pos.end_reason(), Some(EndReason::NoMoves));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn parsed_finished_positions_are_finished() {
    let c = ClampConfig::default();
    for (s, outcome) in [
        ("8/8/2XXXX2/8/8/8/8/8 o 0 5", Outcome::Win(Player::First)),
        ("8/8/8/8/8/2O5/8/8 x 0 6", Outcome::Win(Player::Second)),
        ("8/8/2XXXX2/8/8/2OOOO2/8/8 x 80 80", Outcome::Draw),
    ] {
        let pos = ClampPosition::from_position_string(c, s).unwrap();
        assert_eq!(pos.outcome(), Some(outcome), "{s}");
        assert_eq!(pos.count_moves(), 0, "{s}");
        assert_eq!(pos.to_position_string(), s);
    }
}

// ---------------------------------------------------------------- make/unmake, hash

#[test]
fn rejected_moves_leave_position_and_hash_untouched() {
    let mut pos = ClampPosition::new(ClampConfig::default());
    play(&mut pos, "c6-c4");
    play(&mut pos, "d3-d5");
    let before = pos.clone();
    let hash = pos.hash();
    for text in [
        "a1", "d5", "d6", "d5-d4", "c4-c3", "d6-d3", "c5-c4", "e6-e6", "e6-b6", "f6-h7", "c4-c2",
    ] {
        let m = mv(&pos, text);
        assert!(pos.play(m).is_err(), "{text}");
        assert_eq!(pos, before, "{text}");
        assert_eq!(pos.hash(), hash, "{text}");
    }
}

#[test]
fn hash_depends_on_pieces_and_side_only() {
    let a = ClampPosition::from_position_string(
        ClampConfig::default(),
        "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 2",
    )
    .unwrap();
    let b = ClampPosition::from_position_string(
        ClampConfig::default(),
        "8/8/2XXXX2/8/8/2OOOO2/8/8 x 2 2",
    )
    .unwrap();
    assert_ne!(a, b);
    assert_eq!(a.hash(), b.hash());
    let c = ClampPosition::from_position_string(
        ClampConfig::default(),
        "8/8/2XXXX2/8/8/2OOOO2/8/8 o 1 1",
    )
    .unwrap();
    assert_ne!(a.hash(), c.hash());
    // Transposition: the same position by two move orders has the same hash.
    let mut p = ClampPosition::new(ClampConfig::default());
    let mut q = p.clone();
    for m in ["a8", "a1", "b8", "b1"] {
        play(&mut p, m);
    }
    for m in ["b8", "b1", "a8", "a1"] {
        play(&mut q, m);
    }
    assert_eq!(p, q);
    assert_eq!(p.hash(), q.hash());
}

#[test]
fn make_move_of_garbage_does_not_panic() {
    let mut pos = ClampPosition::new(ClampConfig::default());
    let before = pos.clone();
    for m in [
        Move::Drop(Square(64)),
        Move::Drop(Square(u16::MAX)),
        Move::Step(Square(u16::MAX), Square(3)),
        Move::Step(Square(3), Square(1000)),
    ] {
        let undo = pos.make_move(m);
        pos.unmake_move(m, undo);
        assert_eq!(pos, before);
        assert_eq!(pos.hash(), before.hash());
        let _ = pos.capture_count(m);
        let _ = pos.format_move(m);
        assert_eq!(
            pos.piece_at(m.to()),
            if m.to().0 < 64 {
                pos.piece_at(m.to())
            } else {
                None
            }
        );
    }
}

// ---------------------------------------------------------------- notation, accessors

#[test]
fn move_notation() {
    let pos = ClampPosition::new(ClampConfig::default());
    let g = pos.geometry();
    let d7 = Move::Drop(g.parse_square("d7").unwrap());
    let step = Move::Step(g.parse_square("c6").unwrap(), g.parse_square("c4").unwrap());
    for (text, m) in [
        ("d7", d7),
        (" D7 ", d7),
        ("c6-c4", step),
        ("C6-C4", step),
        ("c6 c4", step),
        ("  c6   C4 ", step),
        ("c6 - c4", step),
    ] {
        assert_eq!(pos.parse_move(text), Ok(m), "{text}");
    }
    assert_eq!(pos.format_move(d7), "d7");
    assert_eq!(pos.format_move(step), "c6-c4");
    for bad in [
        "", "c6-", "-c4", "c6-c4-c2", "c6 c4 c2", "c6c4", "i9", "c6-z1", "x", "c6--c4",
    ] {
        assert!(pos.parse_move(bad).is_err(), "{bad}");
    }
    let e = pos.parse_move("c6-c9").unwrap_err().to_string();
    assert!(e.contains("c9"), "{e}");
    let e = pos.parse_move("c6 c4 c2").unwrap_err().to_string();
    assert!(e.contains("c6-c4"), "{e}");
    assert_eq!(step.from(), Some(g.parse_square("c6").unwrap()));
    assert_eq!(d7.from(), None);
    assert!(d7.is_drop());
    assert_eq!(step.to(), g.parse_square("c4").unwrap());
}

#[test]
fn accessors_for_evaluation() {
    let pos = ClampPosition::new(ClampConfig::default());
    assert_eq!(pos.piece_count(Player::First), 4);
    assert_eq!(pos.bitboard(Player::First).unwrap().0.count_ones(), 4);
    assert_eq!(
        pos.bitboard(Player::Second).unwrap().0,
        pos.pieces(Player::Second).0[0]
    );
    assert_eq!(pos.mobility(Player::First), pos.count_moves());
    assert_eq!(pos.mobility(Player::Second), pos.mobility(Player::First));
    assert!(pos.has_move(Player::Second));
    let big = ClampPosition::new("clamp:size=20".parse().unwrap());
    assert!(big.bitboard(Player::First).is_none());
    assert_eq!(big.pieces(Player::First).count(), 4);
    assert_eq!(
        names(&big, big.pieces(Player::Second).squares()),
        ["i3", "j3", "k3", "l3"]
    );
}
