//! The UCI-style engine protocol spoken end to end with `boardlab engine`.

mod protocols_common;

use std::time::{Duration, Instant};

use protocols_common::Proc;

const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");

fn engine() -> Proc {
    Proc::spawn(BOARDLAB, &["engine"])
}

fn expect_error(p: &Proc, what: &str, needle: &str) {
    let l = p.line();
    assert!(
        l.starts_with("info string error: ") && l.contains(needle),
        "{what}: got '{l}'"
    );
}

#[test]
fn a_session_with_malformed_lines_keeps_the_engine_running() {
    let mut p = engine();
    p.send("ugi");
    let lines = p.until("ugiok");
    assert!(lines[0].starts_with("id name boardlab"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin"))
    );
    p.send("isready");
    assert_eq!(p.line(), "readyok");
    p.send("position gomoku:size=15 startpos moves h8 i9");
    p.send("position gomoku startpos moves h8 i9 h8");
    expect_error(&p, "occupied", "move 3 'h8'");
    p.send("position gomoku startpos moves h8 i9 q99");
    expect_error(&p, "off board", "move 3 'q99'");
    p.send("position gomoku:size=-5 startpos");
    expect_error(&p, "negative size", "size");
    p.send("position gomoku:size=4000000000 startpos");
    expect_error(&p, "huge size", "size");
    p.send("position nonsense startpos");
    expect_error(&p, "unknown game", "unknown game");
    p.send("setoption name Hash value 99999999999999999999");
    expect_error(&p, "huge hash", "Hash");
    p.send("setoption name Threads value -1");
    expect_error(&p, "negative threads", "Threads");
    p.send("go depth banana");
    expect_error(&p, "bad go", "go");
    p.send("xyzzy");
    assert_eq!(p.line(), "info string unknown command: xyzzy");
    let mut huge = vec![b'p'; 10 << 20];
    huge.push(b'\n');
    p.send_raw(&huge);
    expect_error(&p, "huge line", "line longer");
    p.send_raw(b"\xff\xfe\x00\n");
    assert!(p.line().starts_with("info string unknown command"));
    // The previous position survived every refusal.
    p.send("d");
    let d = p.until("hash: ");
    assert!(
        d.iter()
            .any(|l| l == "position: 15/15/15/15/15/15/8o6/7x7/15/15/15/15/15/15/15 x 2"),
        "{d:?}"
    );
    p.send("go depth 3");
    let out = p.until("bestmove ");
    assert!(out.iter().any(|l| l.starts_with("info depth ")), "{out:?}");
    let best = out.last().expect("bestmove");
    assert_ne!(best, "bestmove none");
    // The finished game gives bestmove none.
    p.send("position gomoku startpos moves h8 a1 i8 a2 j8 a3 k8 a4 l8");
    p.send("go movetime 100");
    let out = p.until("bestmove ");
    assert_eq!(out.last().map(String::as_str), Some("bestmove none"));
    p.send("isready");
    assert_eq!(p.line(), "readyok");
    p.send("quit");
    assert!(p.has_exited_within(Duration::from_secs(2)));
}

#[test]
fn go_infinite_then_stop_returns_a_bestmove_promptly() {
    let mut p = engine();
    for spec in [
        "gomoku:size=20 startpos moves k10",
        "amazons startpos",
        "connect6 startpos moves j10",
    ] {
        p.send(&format!("position {spec}"));
        p.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        p.send("isready");
        let l = loop {
            let l = p.line();
            if !l.starts_with("info depth") {
                break l;
            }
        };
        assert_eq!(l, "readyok", "isready is answered during the search");
        let start = Instant::now();
        p.send("stop");
        let out = p.until("bestmove ");
        let took = start.elapsed();
        eprintln!("{spec}: stop -> bestmove in {} ms", took.as_millis());
        assert!(took < Duration::from_millis(1000), "{spec}: {took:?}");
        assert_ne!(out.last().map(String::as_str), Some("bestmove none"));
    }
    // Quit during an infinite search exits.
    p.send("position gomoku startpos");
    p.send("go");
    std::thread::sleep(Duration::from_millis(100));
    p.send("quit");
    assert!(p.has_exited_within(Duration::from_secs(2)));
}

#[test]
fn clocks_are_respected() {
    let mut p = engine();
    p.send("position gomoku startpos moves h8 i9 g9");
    // White (second player) to move with 500 ms left: must answer well within it.
    let start = Instant::now();
    p.send("go wtime 600000 btime 500 winc 0 binc 0");
    p.until("bestmove ");
    let took = start.elapsed();
    eprintln!("go btime 500 answered in {} ms", took.as_millis());
    assert!(took < Duration::from_millis(500), "{took:?}");
    let start = Instant::now();
    p.send("go movetime 300");
    p.until("bestmove ");
    let took = start.elapsed();
    eprintln!("go movetime 300 answered in {} ms", took.as_millis());
    assert!(took < Duration::from_millis(1000), "{took:?}");
    // End of input ends the engine.
    assert!(p.exits_within(Duration::from_secs(2)));
}
