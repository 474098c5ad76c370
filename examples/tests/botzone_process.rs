//! The Botzone Amazons bot spoken end to end with the real binary (`boardlab botzone`).

mod protocols_common;

use board_core::{Notation as _, Rules as _};
use std::{
    io::Write,
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

use board_core::Position;
use protocols::botzone::{KEEP_RUNNING_MARKER, move_of_wire, parse_wire_line, wire_of_move};
use protocols_common::Proc;
use rules_amazons::{AmazonsConfig, AmazonsMove, AmazonsPosition};

const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");

const EXAMPLE: &str = "3\n-1 -1 -1 -1 -1 -1\n5 0 3 2 6 5\n0 5 4 5 3 4\n0 2 0 3 3 0\n2 7 2 5 1 4\n";

/// Runs the bot once with `input` on stdin (closed afterwards).
fn run_once(args: &[&str], input: &str) -> (Output, Duration) {
    let mut child = Command::new(BOARDLAB)
        .arg("botzone")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let start = Instant::now();
    if let Some(mut stdin) = child.stdin.take() {
        // The bot may exit before reading everything (bad input): ignore a broken pipe.
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("the bot exits");
    (out, start.elapsed())
}

fn legal(pos: &AmazonsPosition, line: &str) -> AmazonsMove {
    let w = parse_wire_line(line).unwrap_or_else(|e| panic!("'{line}': {e}"));
    let mv = move_of_wire(&w).unwrap_or_else(|e| panic!("'{line}': {e}"));
    assert!(pos.validate(&mv).is_ok(), "'{line}' is illegal");
    mv
}

fn example_position() -> AmazonsPosition {
    let mut pos = AmazonsPosition::new(AmazonsConfig::SMALL);
    for m in ["f8-d6/g3", "a3-e3/d4", "a6-a5/d8", "c1-c3/b4"] {
        let mv = pos.parse_legal_move(m).expect("legal");
        pos.make_move(mv);
    }
    pos
}

#[test]
fn restart_mode_answers_the_spec_example_in_time() {
    let (out, elapsed) = run_once(&["--no-keep-running"], &format!("{EXAMPLE}\n\n"));
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    legal(&example_position(), lines[0]);
    // A 1 s limit from the input (searched to 1/16 before it); generous slack for a debug
    // build on a busy machine.
    assert!(elapsed < Duration::from_millis(1500), "{elapsed:?}");
}

#[test]
fn json_mode_restart() {
    let input = r#"{"requests":[{"x0":5,"y0":0,"x1":3,"y1":2,"x2":6,"y2":5}],"responses":[],"data":"","globaldata":"","time_limit":1,"memory_limit":256}"#;
    let (out, _) = run_once(&["--no-keep-running", "--player", "random"], input);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(
        lines[0].starts_with('{') && lines[0].contains(r#""response":{"x0":"#),
        "{}",
        lines[0]
    );
}

#[test]
fn keep_running_plays_a_whole_game() {
    let mut p = Proc::spawn(BOARDLAB, &["botzone"]);
    let mut pos = AmazonsPosition::new(AmazonsConfig::SMALL);
    // The bot is Black: a full first turn, then only the new requests.
    p.send("1\n-1 -1 -1 -1 -1 -1");
    let mut turns = 0;
    let mut moves = Vec::new();
    loop {
        let start = Instant::now();
        let line = p.line();
        let elapsed = start.elapsed();
        let limit = if turns == 0 { 2500 } else { 1500 };
        assert!(
            elapsed < Duration::from_millis(limit),
            "turn {turns}: {elapsed:?}"
        );
        let mv = legal(&pos, &line);
        pos.make_move(mv);
        assert_eq!(p.line(), KEEP_RUNNING_MARKER);
        turns += 1;
        // The opponent: the last generated move (weak, so the game ends soon).
        pos.generate_moves(&mut moves);
        let Some(&reply) = moves.last() else { break };
        pos.make_move(reply);
        if pos.outcome().is_some() || turns == 12 {
            break;
        }
        p.send(&wire_of_move(reply).map(|v| v.to_string()).join(" "));
    }
    assert!(turns >= 2, "{turns}");
    assert!(
        p.exits_within(Duration::from_secs(5)),
        "exits when stdin closes"
    );
}

#[test]
fn bad_input_is_reported_on_stderr_without_a_panic() {
    for (input, needle) in [
        ("hello\n", "turn number"),
        (
            "2\n-1 -1 -1 -1 -1 -1\n0 0 0 1 0 2\n0 5 4 5 3 4\n",
            "bad history",
        ),
        ("1\n0 5 4 5 3 4\n", "bad history"),
        ("{\"requests\":", "JSON"),
        ("1\n-1 -1 -1\n", "x0 y0"),
        ("", ""),
    ] {
        let (out, _) = run_once(&["--player", "random"], input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{input}: {stderr}");
        if needle.is_empty() {
            // No input at all: nothing to answer, a clean exit.
            assert!(out.status.success(), "{out:?}");
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{input}: {stderr}");
        assert!(out.stdout.is_empty(), "{input}");
        assert!(stderr.contains(needle), "{input}: {stderr}");
    }
    // A 1 MB garbage line.
    let (out, _) = run_once(&[], &"9".repeat(1 << 20));
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

/// One turn's first input for a bot joining after `history` (moves from the start, Black
/// first): the Botzone simple-interaction transcript from this bot's side.
fn first_input(history: &[AmazonsMove], bot_is_black: bool) -> String {
    let wire = |m: &AmazonsMove| wire_of_move(*m).map(|v| v.to_string()).join(" ");
    // Requests are the opponent's moves (Black's first request is all -1), responses the
    // bot's own, alternating and ending with a request.
    let mut lines = Vec::new();
    let (mut requests, mut i) = (0, 0);
    if bot_is_black {
        lines.push("-1 -1 -1 -1 -1 -1".to_string());
        requests += 1;
        while i + 1 < history.len() {
            lines.push(wire(&history[i]));
            lines.push(wire(&history[i + 1]));
            requests += 1;
            i += 2;
        }
    } else {
        lines.push(wire(&history[0]));
        requests += 1;
        i = 1;
        while i + 1 < history.len() {
            lines.push(wire(&history[i]));
            lines.push(wire(&history[i + 1]));
            requests += 1;
            i += 2;
        }
    }
    format!("{requests}\n{}", lines.join("\n"))
}

/// The engine bot against the baseline bot, both real `boardlab botzone` processes in
/// keep-running mode, each two-ply opening played with both colours (1 s turns). Run with
/// `cargo test --release -p boardlab --test botzone_process -- --ignored --nocapture`.
#[test]
#[ignore = "a match: a few minutes"]
fn engine_against_baseline_through_botzone() {
    let openings = [
        ["f8-f3/g4", "c1-c7/f4"],
        ["c8-c3/e5", "f1-f7/d5"],
        ["a6-d3/d1", "h3-e6/e8"],
        ["h6-e3/c5", "c1-c2/e4"],
    ];
    let (mut engine_points, mut games, mut longest) = (0u32, 0u32, Duration::ZERO);
    for opening in openings {
        for engine_black in [true, false] {
            let mut pos = AmazonsPosition::new(AmazonsConfig::SMALL);
            let mut history = Vec::new();
            for m in opening {
                let mv = pos.parse_legal_move(m).expect("opening move");
                pos.make_move(mv);
                history.push(mv);
            }
            let args = |engine: bool| -> Vec<&str> {
                if engine {
                    vec!["botzone"]
                } else {
                    vec!["botzone", "--player", "baseline"]
                }
            };
            // bots[0] plays Black.
            let mut bots = [
                Proc::spawn(BOARDLAB, &args(engine_black)),
                Proc::spawn(BOARDLAB, &args(!engine_black)),
            ];
            let mut started = [false, false];
            let engine_seat = if engine_black { 0 } else { 1 };
            let winner = loop {
                if pos.outcome().is_some() {
                    // The side to move has no move: the other side won.
                    break 1 - history.len() % 2;
                }
                let seat = history.len() % 2;
                if started[seat] {
                    let last = history.last().expect("a move was played");
                    bots[seat].send(&wire_of_move(*last).map(|v| v.to_string()).join(" "));
                } else {
                    bots[seat].send(&first_input(&history, seat == 0));
                    started[seat] = true;
                }
                let start = Instant::now();
                let line = bots[seat].line();
                let took = start.elapsed();
                let mv = legal(&pos, &line);
                assert_eq!(bots[seat].line(), KEEP_RUNNING_MARKER);
                if seat == engine_seat {
                    longest = longest.max(took);
                }
                pos.make_move(mv);
                history.push(mv);
            };
            games += 1;
            if winner == engine_seat {
                engine_points += 1;
            }
            eprintln!(
                "opening {opening:?}, engine {}: {} wins in {} plies",
                if engine_black { "black" } else { "white" },
                if winner == engine_seat {
                    "engine"
                } else {
                    "baseline"
                },
                history.len()
            );
        }
    }
    eprintln!(
        "engine vs baseline through botzone: {engine_points}/{games}; engine's longest turn {} ms",
        longest.as_millis()
    );
    assert!(
        engine_points * 2 > games,
        "the engine should beat the baseline"
    );
}
