//! Diagrams of a few positions (start, mid-game, finished), as insta snapshots.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use board_core::Position;
use board_core::View as _;
use board_core::{Notation as _, Rules as _};
use rules_amazons::{AmazonsConfig, AmazonsPosition};

fn played(config: AmazonsConfig, moves: &[&str]) -> AmazonsPosition {
    let mut pos = AmazonsPosition::new(config);
    for m in moves {
        let mv = pos.parse_legal_move(m).unwrap();
        pos.play(mv).unwrap();
    }
    pos
}

fn describe(pos: &AmazonsPosition) -> String {
    format!(
        "{}\n{}\n{} to move, outcome: {}\n",
        pos.diagram(),
        pos.to_position_string(),
        pos.player_name(pos.side_to_move()),
        pos.outcome_reason().unwrap_or_else(|| "none".into())
    )
}

#[test]
fn start_standard() {
    insta::assert_snapshot!(describe(&AmazonsPosition::new(AmazonsConfig::STANDARD)));
}

#[test]
fn start_small() {
    insta::assert_snapshot!(describe(&AmazonsPosition::new(AmazonsConfig::SMALL)));
}

#[test]
fn mid_game() {
    let pos = played(
        AmazonsConfig::STANDARD,
        &["d1-d7/g7", "j7-e2/b5", "g1-g6/j3", "a7-c9/a7", "a4-a5/a4"],
    );
    insta::assert_snapshot!(describe(&pos));
}

#[test]
fn finished() {
    let pos = AmazonsPosition::from_position_string(
        AmazonsConfig::STANDARD,
        "7xbb/7xbb/7xx1/10/10/10/10/10/10/w1w1w4w w 4",
    )
    .unwrap();
    let mv = pos.parse_legal_move("j1-j7/j8").unwrap();
    let mut pos = pos;
    pos.play(mv).unwrap();
    insta::assert_snapshot!(describe(&pos));
}
