//! Snapshots of board diagrams: start, mid-game, finished (win and draw).

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns unwrap too

use board_core::Position;
use board_core::View as _;
use board_core::{Notation as _, Rules as _};
use rules_gomoku::GomokuPosition;

fn game(spec: &str, moves: &str) -> GomokuPosition {
    let mut pos = GomokuPosition::new(spec.parse().unwrap());
    for text in moves.split_whitespace() {
        let mv = pos.parse_legal_move(text).unwrap();
        pos.make_move(mv);
    }
    pos
}

/// The diagram plus the facts a reader checks it against.
fn describe(pos: &GomokuPosition) -> String {
    format!(
        "{}position: {}\nto move: {}\nresult: {}\n",
        pos.diagram(),
        pos.to_position_string(),
        pos.player_name(pos.side_to_move()),
        pos.outcome_reason().unwrap_or_else(|| "ongoing".into())
    )
}

#[test]
fn start_15x15() {
    insta::assert_snapshot!(describe(&game("gomoku", "")));
}

#[test]
fn midgame_15x15() {
    insta::assert_snapshot!(describe(&game(
        "gomoku",
        "h8 i9 i8 g8 j7 h9 j9 k10 g10 j8 i7 h7 k8"
    )));
}

#[test]
fn finished_exact5_9x9() {
    // e5 makes an exact five on the diagonal a1-e5 and an overline on rank 5: Black wins.
    insta::assert_snapshot!(describe(&game(
        "gomoku:size=9,rule=exact5",
        "a1 i9 b2 i8 c3 i7 d4 i6 a5 h9 b5 h8 c5 h7 d5 h6 f5 g9 e5"
    )));
}

#[test]
fn drawn_5x5() {
    insta::assert_snapshot!(describe(&game(
        "gomoku:size=5",
        "a1 c1 b1 d1 e1 a2 c2 b2 d2 e2 a3 c3 b3 d3 e3 a4 c4 b4 d4 e4 a5 c5 b5 d5 e5"
    )));
}

#[test]
fn won_on_the_edge_20x20() {
    insta::assert_snapshot!(describe(&game(
        "gomoku:size=20",
        "t16 a1 t17 j10 t18 k11 t19 b2 t20"
    )));
}
