//! Snapshots of board diagrams (rank 1 at the bottom, `X` Black, `O` White, `.` empty).

#![allow(clippy::unwrap_used)]

use board_core::Position;
use board_core::View as _;
use board_core::{Notation as _, Rules as _};
use rules_clamp::{ClampConfig, ClampPosition};

fn after(spec: &str, moves: &str) -> ClampPosition {
    let mut pos = ClampPosition::new(spec.parse::<ClampConfig>().unwrap());
    for text in moves.split_whitespace() {
        let mv = pos.parse_legal_move(text).unwrap();
        pos.play(mv).unwrap();
    }
    pos
}

#[test]
fn start_default() {
    insta::assert_snapshot!(after("clamp", "").diagram());
}

#[test]
fn start_six_by_six_zone_one() {
    insta::assert_snapshot!(after("clamp:size=6,zone=1", "").diagram());
}

#[test]
fn mid_game_after_a_capture() {
    let mut pos = after("clamp", "c6-c4 d3-d5 a8 a1 f6-f4 h1");
    assert_eq!(pos.quiet(), 6);
    // c4-d4 lands below White d5, with Black d6 beyond: d5 is captured.
    let mv = pos.parse_legal_move("c4-d4").unwrap();
    let undo = pos.play(mv).unwrap();
    assert_eq!(undo.captures(), 1);
    assert_eq!(pos.quiet(), 0);
    insta::assert_snapshot!(format!("{}\n{}", pos.to_position_string(), pos.diagram()));
}

#[test]
fn finished_game() {
    let config: ClampConfig = "clamp:max_on_board=6".parse().unwrap();
    let pos =
        ClampPosition::from_position_string(config, "8/8/8/8/8/XXXX4/OOOX4/OOOX4 o 3 3").unwrap();
    insta::assert_snapshot!(format!(
        "{}\n{}",
        pos.diagram(),
        pos.outcome_reason().unwrap()
    ));
}

#[test]
fn large_board() {
    insta::assert_snapshot!(after("clamp:size=12,zone=2", "f11-f9 g2-g4").diagram());
}
