//! `boardlab show SPEC [--moves ...] --json` prints one JSON object for every game: the
//! canonical spec, the ply, who is to move, the result, the reason and the position string.
//! Outcomes are checked the way a script would check them.
#![allow(clippy::unwrap_used)]

use std::process::Command;

use serde_json::Value;

fn show(spec: &str, moves: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["show", spec, "--moves", moves, "--json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{spec} {moves}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().count(), 1, "one line: {stdout}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        ["ply", "position", "reason", "result", "spec", "to_move"],
        "{stdout}"
    );
    v
}

/// (to_move, result, reason, ply) of a show.
fn status(v: &Value) -> (String, String, Option<String>, u64) {
    (
        v["to_move"].as_str().unwrap().to_string(),
        v["result"].as_str().unwrap().to_string(),
        v["reason"].as_str().map(str::to_string),
        v["ply"].as_u64().unwrap(),
    )
}

fn ongoing(to_move: &str, ply: u64) -> (String, String, Option<String>, u64) {
    (to_move.into(), "ongoing".into(), None, ply)
}

#[test]
fn fourshift_json() {
    let v = show("fourshift:k=4", "");
    assert_eq!(
        v["spec"],
        "fourshift:size=6,k=4,pieces=8,max_plies=120,moving_first=next,centre_opening=true"
    );
    assert_eq!(v["position"], "6/6/6/6/6/6 x 8 8 0");
    assert_eq!(status(&v), ongoing("first", 0));
    assert!(v["reason"].is_null());
    let won = show("fourshift", "a1 f6 b2 e6 c3 d6 d4");
    assert_eq!(
        status(&won),
        (
            "none".into(),
            "first-wins".into(),
            Some("four in a row a1-d4".into()),
            7
        )
    );
}

#[test]
fn fourshift_json_white_moves_twice() {
    // 16 placements without a line; under moving_first=second White is still to move.
    let placements = "a4 c4 b4 d4 c3 a3 d3 b3 a2 c2 b2 d2 c1 a1 d1 b1";
    let v = show(
        "fourshift:size=4,k=4,pieces=8,moving_first=second",
        placements,
    );
    assert_eq!(
        status(&v),
        (
            "none".into(),
            "draw".into(),
            Some("White has no legal moves".into()),
            16
        )
    );
    let v = show(
        "fourshift:moving_first=second",
        "a1 f6 b3 e5 c5 d2 f1 a6 e3 b6 c1 f4 d5 a3 e1 a4",
    );
    assert_eq!(status(&v), ongoing("second", 16));
    assert!(v["position"].as_str().unwrap().ends_with(" o 0 0 16"));
    let v = show(
        "fourshift:moving_first=second",
        "a1 f6 b3 e5 c5 d2 f1 a6 e3 b6 c1 f4 d5 a3 e1 a4 a4-a5",
    );
    assert_eq!(status(&v), ongoing("first", 17));
}

#[test]
fn fourshift_json_centre_opening_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([
            "show",
            "fourshift:centre_opening=false",
            "--moves",
            "c3",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("centre square"), "{err}");
}

#[test]
fn clamp_json() {
    let v = show("clamp:supply=12,adjudicate=true", "d7");
    assert_eq!(
        v["spec"],
        "clamp:size=8,zone=3,start=4,max_on_board=10,quiet_limit=80,adjudicate=true,supply=12"
    );
    assert_eq!(v["position"], "8/3X4/2XXXX2/8/8/2OOOO2/8/8 o 1 1 11 12");
    assert_eq!(status(&v), ongoing("second", 1));
    // Quiet limit 2, adjudicated: 4 pieces each, Black c6 leaves the centre block.
    let v = show("clamp:quiet_limit=2,adjudicate=true", "c6-b7 c3-c4");
    assert_eq!(
        status(&v),
        (
            "none".into(),
            "second-wins".into(),
            Some(
                "2 half-moves without a capture: White wins on adjudication, 4 pieces each, 4 to 3 on the centre squares"
                    .into()
            ),
            2
        )
    );
    let v = show("clamp:quiet_limit=2,adjudicate=true", "c6-c5 c3-c4");
    assert_eq!(v["result"], "draw");
    let v = show("clamp:quiet_limit=2", "c6-b7 c3-c4");
    assert_eq!(v["result"], "draw");
}

#[test]
fn amazons_json() {
    let v = show("amazons:size=8", "");
    assert_eq!(v["spec"], "amazons:size=8");
    assert_eq!(status(&v), ongoing("first", 0));
    let v = show("amazons", "d1-d7/g7");
    assert_eq!(status(&v), ongoing("second", 1));
}

#[test]
fn gomoku_json() {
    let v = show("gomoku:size=5", "a1 a2 b1 b2 c1 c2 d1 d2 e1");
    assert_eq!(
        v["spec"].as_str().unwrap().split(':').next(),
        Some("gomoku")
    );
    let (to_move, result, reason, ply) = status(&v);
    assert_eq!(
        (to_move.as_str(), result.as_str(), ply),
        ("none", "first-wins", 9)
    );
    assert!(reason.is_some());
    assert_eq!(status(&show("gomoku", "h8")), ongoing("second", 1));
}

#[test]
fn connect6_json() {
    let v = show("connect6", "j10 k10,k11");
    assert_eq!(v["spec"], "connect6:size=19");
    assert_eq!(status(&v), ongoing("first", 2));
}
