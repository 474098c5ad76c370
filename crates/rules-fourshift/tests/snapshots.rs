//! Diagram snapshots (`tests/snapshots/`): start, mid-game, finished, and a two-digit board.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns unwrap too

use board_core::Position;
use board_core::View as _;
use rules_fourshift::{Fourshift, FourshiftConfig};

fn at(spec: &str, text: &str) -> Fourshift {
    Fourshift::from_position_string(spec.parse::<FourshiftConfig>().unwrap(), text).unwrap()
}

#[test]
fn start_diagram() {
    insta::assert_snapshot!("start", Fourshift::default().diagram());
}

#[test]
fn mid_game_diagram() {
    let pos = at("fourshift", "OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21");
    insta::assert_snapshot!("mid_game", pos.diagram());
}

#[test]
fn finished_diagram() {
    let pos = at("fourshift", "1OO3/XOX1O1/X1O2X/XO4/X3OX/1O3X o 0 0 43");
    assert_eq!(pos.outcome_reason().unwrap(), "four in a row a2-a5");
    insta::assert_snapshot!("finished", pos.diagram());
}

#[test]
fn large_board_diagram() {
    let pos = at(
        "fourshift:size=10,k=5",
        "O9/10/10/10/10/4X5/10/10/10/9X o 6 7 3",
    );
    insta::assert_snapshot!("size_10", pos.diagram());
}
