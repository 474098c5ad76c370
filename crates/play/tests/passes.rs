//! Passes in the terminal: a pass is announced ("Second passes"), not shown as a move.

use board_core::{
    Position, View,
    testing::claim::{Claim, ClaimConfig},
    view::Cell,
};
use boardlab_play::{Humans, Session, Settings};
use search::{Limits, SearchAgent, SearchOptions};

/// For the side to move, empty squares are bad: a one-ply search passes rather than fill
/// one (after a pass the board keeps its empty squares, and the reply's value is negated).
fn pass_loving(pos: &Claim) -> i32 {
    let empty = pos
        .geometry()
        .squares()
        .filter(|&sq| pos.cell(sq) == Cell::Empty);
    -100 * empty.count() as i32
}

#[test]
fn passes_are_announced_for_people_and_the_computer() {
    let settings = Settings {
        humans: Humans::First,
        limits: Limits::new().with_depth(1),
        color: false,
        echo: true,
        ..Settings::default()
    };
    let computer = SearchAgent::new(
        "passer",
        pass_loving,
        SearchOptions::default(),
        Clone::clone,
    )
    .expect("options");
    let start = Claim::new(ClaimConfig { size: 3 });
    let mut session = Session::new(start, Some(Box::new(computer)), settings);
    let (mut out, mut progress) = (Vec::new(), Vec::new());
    let mut input: &[u8] = b"b2\npass\n";
    session
        .run(&mut input, &mut out, &mut progress)
        .expect("session");
    let out = String::from_utf8(out).expect("utf-8");
    assert!(out.contains("Second (computer) passes"), "{out}");
    assert!(out.contains("First passes"), "{out}");
    assert!(!out.contains("plays pass"), "{out}");
    assert!(
        out.contains("Game over: First wins: two passes in a row, the most stones."),
        "{out}"
    );
    assert_eq!(session.moves().len(), 3);
}
