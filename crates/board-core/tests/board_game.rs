//! A game written as a `BoardGame` (the sample `Claim`, with passes) through the generic
//! tools: the conformance harness, perft against an independent count, notation, save
//! files and position strings.

use board_core::{
    Notation, Outcome, Player, Position, Rules, View,
    moves::PassOr,
    perft, savefile,
    testing::{
        check_random_playouts,
        claim::{Claim, ClaimConfig},
    },
};

fn start(size: u32) -> Claim {
    Claim::new(ClaimConfig { size })
}

fn after(size: u32, moves: &[&str]) -> Claim {
    let mut pos = start(size);
    for text in moves {
        let mv = pos.parse_legal_move(text).expect("legal");
        pos.make_move(mv);
    }
    pos
}

#[test]
fn conformance_with_passes() {
    for size in [2, 3, 4] {
        let stats = check_random_playouts(&start(size), 7, 200, 200).expect("conformance");
        assert_eq!(stats.finished, 200);
    }
}

/// Perft from a model of the game that knows only the number of empty squares `e` and the
/// passes in a row `p`: each unfinished position has `e` placements and one pass.
fn model(empty: u64, passes: u32, depth: u32) -> u64 {
    match depth {
        0 => 1,
        _ if passes >= 2 || empty == 0 => 0,
        _ => empty * model(empty - 1, 0, depth - 1) + model(empty, passes + 1, depth - 1),
    }
}

#[test]
fn perft_counts_passes_as_moves() {
    for size in [2u32, 3] {
        for depth in 0..=5 {
            let expected = model(u64::from(size * size), 0, depth);
            assert_eq!(
                perft(&mut start(size), depth),
                expected,
                "size {size} depth {depth}"
            );
        }
    }
    // Two passes end the game: nothing follows.
    assert_eq!(perft(&mut after(2, &["pass", "pass"]), 1), 0);
}

#[test]
fn a_pass_is_a_move_named_pass() {
    let pos = after(3, &["b2"]);
    let pass = pos.parse_legal_move(" PASS ").expect("a pass is legal");
    assert_eq!(pass, PassOr::Pass);
    assert!(pos.is_pass(&pass));
    assert_eq!(pos.format_move(pass), "pass");
    let b2 = pos.parse_move("b2").expect("a square");
    assert!(!pos.is_pass(&b2));
    assert_eq!(
        pos.parse_legal_move("b2").map_err(|e| e.to_string()),
        Err("b2: the square is taken".to_string())
    );
    // The pass changes no square: it touches none.
    assert_eq!(pos.move_squares(pass), []);
    // Turns still alternate: after First's pass, Second moves.
    let mut passed = pos.clone();
    passed.make_move(pass);
    assert_eq!(passed.side_to_move(), Player::First);
    assert_eq!(pos.side_to_move(), Player::Second);
}

#[test]
fn two_passes_end_the_game_with_a_reason_that_does_not_name_the_winner() {
    let pos = after(2, &["a1", "pass", "pass"]);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(
        pos.outcome_reason().as_deref(),
        Some("two passes in a row, the most stones")
    );
    assert_eq!(after(2, &["a1"]).outcome_reason(), None);
    assert_eq!(
        pos.parse_legal_move("b1").map_err(|e| e.to_string()),
        Err("the game is over".to_string())
    );
}

#[test]
fn save_files_keep_passes() {
    let pos = after(3, &["a1", "pass", "c3", "pass"]);
    let moves: Vec<_> = ["a1", "pass", "c3", "pass"]
        .iter()
        .map(|m| start(3).parse_move(m).expect("move"))
        .collect();
    let text = savefile::save::<Claim>(&ClaimConfig { size: 3 }, &moves);
    assert!(text.lines().any(|l| l == "pass"), "{text}");
    let loaded = savefile::load::<Claim>(&text).expect("loads");
    assert_eq!(loaded.position, pos);
    assert_eq!(loaded.moves, moves);
}

#[test]
fn position_strings_round_trip_with_the_games_own_field() {
    let pos = after(3, &["a1", "pass", "c3", "pass"]);
    assert_eq!(pos.to_position_string(), "2X/3/X2 first 4 1");
    let back = Claim::from_position_string(ClaimConfig { size: 3 }, "2X/3/X2 first 4 1");
    assert_eq!(back, Ok(pos));
    assert_eq!(start(2).to_position_string(), "2/2 first 0 0");
    let read = |s: &str| {
        Claim::from_position_string(ClaimConfig { size: 2 }, s).map_err(|e| e.to_string())
    };
    assert_eq!(
        read("2/2 first 0"),
        Err(
            "bad position string: expected 4 fields (board, side to move, ply and the \
             game's own fields), found 3"
                .to_string()
        )
    );
    assert_eq!(
        read("2/2 second 0 0"),
        Err("bad position string: the board has first to move".to_string())
    );
    assert_eq!(
        read("2/XX second 2 0"),
        Err("bad position string: more stones than turns".to_string())
    );
    assert_eq!(
        read("2/2 white 0 0"),
        Err("bad position string: side to move 'white' is not first or second".to_string())
    );
    assert_eq!(
        read("2/2 first 2 3"),
        Err("bad position string: passes '3' is not 0, 1 or 2".to_string())
    );
    assert!(read("2/Q1 first 0 0").is_err());
}

#[test]
fn the_view_draws_the_board() {
    let pos = after(2, &["a1", "b2"]);
    assert_eq!(pos.diagram(), board_core::view::diagram(&pos));
    assert!(pos.diagram().contains("1 X ."), "{}", pos.diagram());
    assert_eq!(
        pos.board_view()
            .cells
            .iter()
            .filter(|c| c.owner().is_some())
            .count(),
        2
    );
}
