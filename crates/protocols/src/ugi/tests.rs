use std::time::Instant;

use super::*;

/// Collects everything the engine writes.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Capture {
    /// The lines written since the last call.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        String::from_utf8(bytes)
            .expect("utf-8")
            .lines()
            .map(str::to_string)
            .collect()
    }
}

fn engine() -> (EngineSession, Capture) {
    let cap = Capture::default();
    (EngineSession::new(Output::new(cap.clone())), cap)
}

/// Sends lines, stopping any search at the end, and returns the output.
fn run_lines(s: &mut EngineSession, cap: &Capture, lines: &[&str]) -> Vec<String> {
    for l in lines {
        s.handle(l);
    }
    s.shutdown();
    cap.take()
}

fn position_line(s: &mut EngineSession, cap: &Capture) -> String {
    run_lines(s, cap, &["d"])
        .into_iter()
        .find(|l| l.starts_with("position: "))
        .expect("a position line")
}

#[test]
fn handshake() {
    let (mut s, cap) = engine();
    let out = run_lines(&mut s, &cap, &["ugi", "isready"]);
    assert!(out[0].starts_with("id name boardlab "), "{out:?}");
    assert!(out[1].starts_with("id author "), "{out:?}");
    for name in ["Hash", "Threads", "Seed"] {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("option name {name} type spin default "))),
            "{out:?}"
        );
    }
    assert_eq!(out[out.len() - 2], "ugiok");
    assert_eq!(out[out.len() - 1], "readyok");
}

#[test]
fn every_game_plays_a_legal_move() {
    for (spec, moves) in [
        ("fourshift", ""),
        ("clamp", ""),
        ("amazons", ""),
        ("gomoku:size=20", "k10"),
        ("connect6", "j10"),
    ] {
        let (mut s, cap) = engine();
        let pos = if moves.is_empty() {
            format!("position {spec} startpos")
        } else {
            format!("position {spec} startpos moves {moves}")
        };
        let out = run_lines(&mut s, &cap, &[&pos, "go depth 2"]);
        let best = out.last().expect("output");
        assert!(best.starts_with("bestmove "), "{spec}: {out:?}");
        assert_ne!(best, "bestmove none", "{spec}");
        // The move is legal: it can be appended to the position.
        let mv = &best["bestmove ".len()..];
        let again = format!("{pos}{} {mv}", if moves.is_empty() { " moves" } else { "" });
        let out = run_lines(&mut s, &cap, &[&again]);
        assert!(out.is_empty(), "{spec}: {again}: {out:?}");
    }
}

#[test]
fn bad_positions_keep_the_previous_one_and_name_the_move() {
    let (mut s, cap) = engine();
    run_lines(&mut s, &cap, &["position gomoku startpos moves h8 i9"]);
    let before = position_line(&mut s, &cap);
    for (line, needle) in [
        ("position gomoku startpos moves h8 h8", "move 2 'h8'"),
        ("position gomoku startpos moves h8 i9 zz9", "move 3 'zz9'"),
        ("position gomoku startpos moves a99", "move 1 'a99'"),
        ("position chess startpos", "unknown game 'chess'"),
        ("position gomoku:size=99 startpos", "size=99"),
        ("position gomoku:foo=1 startpos", "unknown key 'foo'"),
        ("position gomoku", "expected 'position <spec>"),
        ("position gomoku fen x", "expected 'startpos'"),
        ("position gomoku startpos h8", "expected 'moves'"),
        ("position amazons startpos moves h8", "move 1 'h8'"),
        ("position", "expected 'position <spec>"),
    ] {
        let out = run_lines(&mut s, &cap, &[line]);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(out[0].starts_with("info string error: "), "{line}: {out:?}");
        assert!(out[0].contains(needle), "{line}: {out:?}");
        assert_eq!(position_line(&mut s, &cap), before, "{line}");
    }
}

#[test]
fn finished_games_give_bestmove_none() {
    let (mut s, cap) = engine();
    let out = run_lines(
        &mut s,
        &cap,
        &[
            "position gomoku startpos moves h8 a1 i8 a2 j8 a3 k8 a4 l8",
            "go depth 3",
        ],
    );
    assert_eq!(
        out.last().map(String::as_str),
        Some("bestmove none"),
        "{out:?}"
    );
    assert!(out[0].starts_with("info string game over: "), "{out:?}");
}

#[test]
fn go_needs_a_position_and_good_arguments() {
    let (mut s, cap) = engine();
    let out = run_lines(&mut s, &cap, &["go depth 1"]);
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with("info string error: go: no position"),
        "{out:?}"
    );
    run_lines(&mut s, &cap, &["position gomoku startpos"]);
    for bad in [
        "go depth",
        "go depth x",
        "go depth -3",
        "go nodes 1.5",
        "go movetime -1",
        "go sideways 3",
        "go wtime",
    ] {
        let out = run_lines(&mut s, &cap, &[bad]);
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(
            out[0].starts_with("info string error: go"),
            "{bad}: {out:?}"
        );
    }
    // Huge numbers saturate instead of failing.
    let out = run_lines(
        &mut s,
        &cap,
        &[
            "go depth 1 nodes 99999999999999999999999 movetime 99999999999999999999 wtime -5 btime 7",
        ],
    );
    assert!(
        out.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{out:?}"
    );
}

#[test]
fn go_params_pick_the_clock_of_the_side_to_move() {
    let p = GoParams::parse("wtime 60000 btime 1000 winc 0 binc 0").expect("parses");
    let first = p.limits(Player::First).hard_time().expect("timed");
    let second = p.limits(Player::Second).hard_time().expect("timed");
    assert!(first > second, "{first:?} {second:?}");
    assert!(second < Duration::from_millis(1000));
    // movetime with a large clock: the movetime binds, less its reserve (an eighth of it
    // below 400 ms, and a 32nd), and nothing is saved.
    let p = GoParams::parse("movetime 250 wtime 600000").expect("parses");
    let b = p.limits(Player::First).budget().expect("managed");
    assert_eq!(
        (b.target, b.hard, b.saves_time),
        (
            Duration::from_nanos(210_937_500),
            Duration::from_nanos(210_937_500),
            false
        )
    );
    // movetime 1000 alone (connect6's tournament setting).
    let p = GoParams::parse("movetime 1000").expect("parses");
    assert_eq!(
        p.limits(Player::Second).hard_time(),
        Some(Duration::from_micros(918_750))
    );
    // A clock alone: a share of it as the target, time saved, the increment counted.
    let p =
        GoParams::parse("wtime 10000 btime 10000 winc 1000 binc 0 movestogo 10").expect("parses");
    let w = p.limits(Player::First).budget().expect("managed");
    let b = p.limits(Player::Second).budget().expect("managed");
    assert!(w.saves_time && b.saves_time);
    // (10 s − 362.5 ms reserve) / 10, plus ¾ of White's increment.
    assert_eq!(b.target, Duration::from_micros(963_750));
    assert_eq!(w.target, Duration::from_micros(963_750 + 750_000));
    assert!(w.hard > w.target && w.hard < Duration::from_millis(10_000) / 3);
    let p = GoParams::parse("infinite movetime 5").expect("parses");
    assert_eq!(p.limits(Player::First).hard_time(), None);
    assert!(
        GoParams::parse("")
            .expect("parses")
            .is_infinite(Player::First)
    );
    assert!(
        !GoParams::parse("depth 3")
            .expect("parses")
            .is_infinite(Player::First)
    );
    // The opponent's clock alone does not limit us.
    assert!(
        GoParams::parse("btime 5")
            .expect("parses")
            .is_infinite(Player::First)
    );
}

#[test]
fn infinite_search_stops_promptly_and_refuses_state_changes_meanwhile() {
    let (mut s, cap) = engine();
    s.handle("position gomoku startpos moves h8 i9 g9");
    s.handle("go infinite");
    assert!(s.searching());
    std::thread::sleep(Duration::from_millis(200));
    s.handle("isready");
    s.handle("position gomoku startpos");
    s.handle("go depth 1");
    s.handle("uci");
    let t = Instant::now();
    s.handle("stop");
    let stop_time = t.elapsed();
    assert!(stop_time < Duration::from_millis(500), "{stop_time:?}");
    assert!(!s.searching());
    let out = cap.take();
    assert!(out.contains(&"readyok".to_string()), "{out:?}");
    let refused = out
        .iter()
        .filter(|l| l.contains("ignored: an infinite search is running"))
        .count();
    assert_eq!(refused, 2, "{out:?}");
    assert!(out.contains(&"info string unknown command: uci".to_string()));
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove ")).count(), 1);
    assert!(
        out.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{out:?}"
    );
    // The session still works and still has the searched position.
    assert!(position_line(&mut s, &cap).ends_with(" o 3"));
}

#[test]
fn infinite_search_waits_for_stop_even_when_proven() {
    let (mut s, cap) = engine();
    // Black wins at once with l8: a proven result, yet bestmove waits for stop.
    s.handle("position gomoku startpos moves h8 a1 i8 a2 j8 a3 k8 a4");
    s.handle("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!cap.take().iter().any(|l| l.starts_with("bestmove")));
    s.handle("stop");
    let out = cap.take();
    assert!(
        out.last()
            .is_some_and(|l| l == "bestmove l8" || l == "bestmove g8"),
        "{out:?}"
    );
}

#[test]
fn finite_searches_queue_the_next_commands() {
    let (mut s, cap) = engine();
    let out = run_lines(
        &mut s,
        &cap,
        &[
            "position gomoku startpos moves h8",
            "go movetime 100",
            "position gomoku startpos moves h8 i9",
            "go depth 1",
        ],
    );
    assert_eq!(
        out.iter().filter(|l| l.starts_with("bestmove ")).count(),
        2,
        "{out:?}"
    );
    assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
}

#[test]
fn options_are_checked_and_applied() {
    let (mut s, cap) = engine();
    run_lines(&mut s, &cap, &["position clamp startpos"]);
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value 65537",
        "setoption name Hash value big",
        "setoption name Threads value 0",
        "setoption name Threads value 99999999999999999999",
        "setoption name Seed value -1",
        "setoption name Colour value red",
        "setoption Hash 3",
    ] {
        let out = run_lines(&mut s, &cap, &[bad]);
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(
            out[0].starts_with("info string error: setoption"),
            "{bad}: {out:?}"
        );
    }
    let out = run_lines(
        &mut s,
        &cap,
        &[
            "setoption name hash value 4",
            "setoption name Threads value 2",
            "setoption name Seed value 18446744073709551615",
            "uginewgame",
            "go depth 2",
        ],
    );
    assert!(
        out.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{out:?}"
    );
    assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
    assert_eq!(
        s.options,
        EngineOptions {
            hash_mb: 4,
            threads: 2,
            seed: u64::MAX
        }
    );
}

#[test]
fn unknown_and_empty_lines() {
    let (mut s, cap) = engine();
    let out = run_lines(&mut s, &cap, &["", "  ", "hello world", "UGI", "go\u{0}"]);
    assert_eq!(
        out,
        [
            "info string unknown command: hello world",
            "info string unknown command: UGI",
            "info string unknown command: go\u{0}",
        ]
    );
    assert_eq!(s.handle("quit"), Flow::Quit);
}

#[test]
fn run_loop_survives_huge_lines_and_ends_at_eof() {
    let mut input = b"isready\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 10 << 20));
    input.extend_from_slice(b"\nposition gomoku startpos\ngo infinite\n");
    let cap = Capture::default();
    let t = Instant::now();
    run(&input[..], Output::new(cap.clone())).expect("in-memory I/O");
    assert!(t.elapsed() < Duration::from_secs(5));
    let out = cap.take();
    assert_eq!(out[0], "readyok");
    assert!(
        out[1].starts_with("info string error: line longer than"),
        "{out:?}"
    );
    // End of input stops the infinite search, which still prints its move.
    assert!(
        out.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{out:?}"
    );
}

#[test]
fn replies_stay_on_one_line_whatever_the_input() {
    let (mut s, cap) = engine();
    for line in [
        "setoption name Ha\rsh value 3",
        "setoption name Hash value 1\r2",
        "foo\rbar",
        "go depth 1\nquit",
        "position gomoku\r fen",
    ] {
        s.handle(line);
        s.shutdown();
        let bytes = std::mem::take(&mut *cap.0.lock().unwrap_or_else(|e| e.into_inner()));
        let text = String::from_utf8(bytes).expect("utf-8");
        assert!(!text.contains('\r'), "{line:?}: {text:?}");
        assert!(
            text.ends_with('\n') && text.matches('\n').count() == 1,
            "{line:?}: {text:?}"
        );
    }
}

/// fourshift under `moving_first=second`: White places the last piece and makes the first
/// shift too. The engine answers `go` for White at both turns, and the GUI appends both.
#[test]
fn fourshift_double_move_under_moving_first_second() {
    let spec = "fourshift:moving_first=second";
    // Fifteen placements without a line: White places the sixteenth.
    let placed = "a1 f6 b3 e5 c5 d2 f1 a6 e3 b6 c1 f4 d5 a3 e1";
    let (mut s, cap) = engine();
    let pos = format!("position {spec} startpos moves {placed}");
    let out = run_lines(&mut s, &cap, &[&pos, "go depth 2"]);
    let last = &out.last().expect("output")["bestmove ".len()..];
    assert!(!last.contains('-'), "White's last placement: {out:?}");
    // White is to move again after it: the position string says so.
    let pos = format!("{pos} {last}");
    let out = run_lines(&mut s, &cap, &[&pos]);
    assert!(out.is_empty(), "{out:?}");
    assert!(
        position_line(&mut s, &cap).ends_with(" o 0 0 16"),
        "White to shift at ply 16"
    );
    // White's clock is btime (the second player's) at both of its turns.
    let out = run_lines(&mut s, &cap, &["go wtime 1 btime 60000 depth 2"]);
    let shift = out.last().expect("output")["bestmove ".len()..].to_string();
    let (from, _) = shift.split_once('-').expect("a shift");
    let white: Vec<&str> = "f6 e5 d2 a6 b6 f4 a3".split(' ').chain([last]).collect();
    assert!(
        white.contains(&from),
        "{shift} moves a White piece: {out:?}"
    );
    let pos = format!("{pos} {shift}");
    let out = run_lines(&mut s, &cap, &[&pos]);
    assert!(out.is_empty(), "{out:?}");
    assert!(
        position_line(&mut s, &cap).ends_with(" x 0 0 17"),
        "then Black"
    );
    // Two White moves in a row given by the GUI are accepted; a Black move at ply 16 is
    // refused and names the move.
    let bad = format!("position {spec} startpos moves {placed} a4 b3-b2");
    let out = run_lines(&mut s, &cap, &[&bad]);
    assert!(out[0].contains("move 17 'b3-b2'"), "{out:?}");
    let good = format!("position {spec} startpos moves {placed} a4 a4-a5 b3-b2");
    let out = run_lines(&mut s, &cap, &[&good]);
    assert!(out.is_empty(), "{out:?}");
}
