//! The `connect-four` binary — `boardlab::run_cli` with Connect Four registered beside the
//! bundled games — through every `boardlab` command, as real processes. Every wait is
//! capped: a command that hangs fails its test instead of the test run.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{Receiver, channel},
    thread,
    time::{Duration, Instant},
};

const BIN: &str = env!("CARGO_BIN_EXE_connect-four");

/// The longest any one command may take here.
const CAP: Duration = Duration::from_secs(60);

struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

impl Run {
    fn ok(&self) -> &str {
        assert_eq!(
            self.code,
            Some(0),
            "stderr: {}\nstdout: {}",
            self.stderr,
            self.stdout
        );
        &self.stdout
    }
}

/// Reads `from` to its end on a thread of its own; the text arrives on the receiver.
fn drain(mut from: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        let _ = tx.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    rx
}

/// Waits for `child` at most [`CAP`]; kills it and fails the test past that.
fn wait_capped(child: &mut Child, what: &str) -> Option<i32> {
    let deadline = Instant::now() + CAP;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {CAP:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `connect-four ARGS` with `input` on stdin.
fn run(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdout = drain(child.stdout.take().expect("stdout"));
    let stderr = drain(child.stderr.take().expect("stderr"));
    // A command that fails at once may exit before reading its input.
    let mut stdin = child.stdin.take().expect("stdin");
    if let Err(e) = stdin.write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    drop(stdin);
    let code = wait_capped(&mut child, &args.join(" "));
    Run {
        stdout: stdout.recv_timeout(CAP).expect("stdout"),
        stderr: stderr.recv_timeout(CAP).expect("stderr"),
        code,
    }
}

#[test]
fn perft_counts_connect_four_and_divides_by_column() {
    assert_eq!(run(&["perft", "connect4", "4"], "").ok(), "2401\n");
    let divided = run(&["perft", "connect4", "2", "--divide"], "");
    let lines: Vec<&str> = divided.ok().lines().collect();
    assert_eq!(
        lines,
        ["d 7", "c 7", "e 7", "b 7", "f 7", "a 7", "g 7", "49"],
        "one line per column (centre first, as the moves are generated), then the total"
    );
    // Playing into a full column is refused, naming the move.
    let full = run(&["perft", "connect4", "1", "--moves", "d d d d d d d"], "");
    assert_eq!(full.code, Some(2));
    assert!(full.stderr.contains("move 7 'd'"), "{}", full.stderr);
}

#[test]
fn show_prints_the_board_and_whose_turn_it_is() {
    let shown = run(&["show", "connect4", "--moves", "d d"], "");
    let out = shown.ok();
    assert!(out.contains("game: connect4\n"), "{out}");
    assert!(out.contains("position: d d\n"), "{out}");
    assert!(out.contains("to move: First\n"), "{out}");
    assert!(out.contains("ply: 2\n"), "{out}");
    assert!(out.contains("result: ongoing\n"), "{out}");
    let json = run(
        &["show", "connect4", "--moves", "d e d e d e d", "--json"],
        "",
    );
    let value: serde_json::Value = serde_json::from_str(json.ok()).expect("one JSON object");
    assert_eq!(value["result"], "first-wins");
    assert_eq!(value["to_move"], "none");
    assert_eq!(value["ply"], 7);
}

#[test]
fn analyze_finds_the_winning_drop() {
    let analyzed = run(
        &[
            "analyze",
            "connect4",
            "--depth",
            "6",
            "--moves",
            "d e d e d e",
        ],
        "",
    );
    let out = analyzed.ok();
    assert!(out.lines().any(|l| l.starts_with("info depth ")), "{out}");
    assert_eq!(out.lines().last(), Some("bestmove d"), "{out}");
}

#[test]
fn match_and_selfplay_play_their_games() {
    let matched = run(
        &[
            "match", "connect4", "--a", "engine", "--b", "random", "--games", "2", "--depth", "2",
        ],
        "",
    );
    let out = matched.ok();
    assert_eq!(
        matched
            .stderr
            .lines()
            .filter(|l| l.starts_with("game "))
            .count(),
        2,
        "{}",
        matched.stderr
    );
    assert!(out.starts_with("engine (A) vs random (B)\n"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("score: ")), "{out}");
    let selfplay = run(
        &[
            "selfplay", "connect4", "--games", "2", "--depth", "1", "--json",
        ],
        "",
    );
    let report: serde_json::Value = serde_json::from_str(selfplay.ok()).expect("one JSON report");
    assert_eq!(report["tournament"]["spec"], "connect4", "{report}");
    assert_eq!(report["games"], 2, "{report}");
    assert_eq!(
        report["results"].as_array().map(Vec::len),
        Some(2),
        "{report}"
    );
}

#[test]
fn play_two_people_to_a_vertical_four() {
    let played = run(
        &["play", "connect4", "--human", "both", "--no-color"],
        "d\ne\nd\ne\nd\ne\nd\n",
    );
    let out = played.ok();
    assert!(out.contains("First wins"), "{out}");
    // Refused input names its reason and changes nothing.
    let refused = run(
        &["play", "connect4", "--human", "both", "--no-color"],
        "h\nd\nquit\n",
    );
    let out = refused.ok();
    assert!(out.contains("there is no column h"), "{out}");
}

/// A process speaking a line protocol on stdin/stdout, every read capped.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the child");
        stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        self.until_line(|l| l.starts_with(prefix), prefix)
    }

    /// Lines up to and including the first that `done` accepts (`what` says which).
    fn until_line(&self, done: impl Fn(&str) -> bool, what: &str) -> Vec<String> {
        let deadline = Instant::now() + CAP;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let last = done(&line);
                    seen.push(line);
                    if last {
                        return seen;
                    }
                }
                Err(_) => panic!("no line '{what}' within {CAP:?}: {seen:?}"),
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_engine_protocol_plays_connect_four() {
    let mut engine = Session::start(&["engine"]);
    engine.send("ugi");
    engine.until("ugiok");
    engine.send("uginewgame");
    engine.send("position connect4 startpos moves d e d e d e");
    engine.send("go depth 6");
    let lines = engine.until("bestmove ");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove d"),
        "{lines:?}"
    );
    engine.send("position connect4 startpos moves h");
    let refused = engine.until("info string error");
    assert!(
        refused.concat().contains("there is no column h"),
        "{refused:?}"
    );
    engine.send("quit");
    assert_eq!(wait_capped(&mut engine.child, "engine after quit"), Some(0));
}

/// A `serve` on a free loopback port, and its address (the server stops when dropped).
fn serve() -> (Session, String) {
    let server = Session::start(&["serve", "--listen", "127.0.0.1:0"]);
    let listening = server.until("listening ");
    let addr = listening
        .last()
        .and_then(|l| l.strip_prefix("listening "))
        .expect("the address")
        .to_string();
    (server, addr)
}

#[test]
fn the_server_hosts_connect_four_games() {
    let (_server, addr) = serve();
    let stream = TcpStream::connect(&addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut out = stream.try_clone().expect("clone");
    let mut inp = BufReader::new(stream);
    let mut ask = |line: &str| {
        writeln!(out, "{line}").expect("send");
        let mut reply = String::new();
        inp.read_line(&mut reply).expect("a reply within 10 s");
        reply.trim_end().to_string()
    };
    assert_eq!(ask("create connect4"), "ok created 1 connect4");
    let joined = ask("join 1 first");
    let token = joined
        .strip_prefix("ok joined 1 first ")
        .unwrap_or_else(|| panic!("{joined}"))
        .to_string();
    assert_eq!(ask(&format!("move 1 {token} D")), "ok moved 1 1 d");
    let refused = ask(&format!("move 1 {token} h"));
    assert!(refused.starts_with("error "), "{refused}");
    let shown = ask("show 1");
    assert!(shown.contains("ply 1 moves d ;"), "{shown}");
    assert!(
        ask("create chess").contains("connect4"),
        "the error names the games"
    );
}

#[test]
fn the_terminal_client_draws_connect_four_boards() {
    let (_server, addr) = serve();
    let dir = std::env::temp_dir().join(format!("connect-four-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let tokens = dir.join("tokens");
    let tokens = tokens.to_str().expect("utf-8 path");
    let mut client = Session::start(&["connect", &addr, "--tokens", tokens, "--no-color"]);
    client.send("create connect4");
    client.until("created game 1 (connect4)");
    client.until_line(|l| l == "X First · O Second", "the legend");
    client.send("join first");
    client.until("you play First (first) in game 1");
    client.send("d");
    // The board drawn after the move marks it: d1 holds First's disc.
    let board = client.until_line(|l| l == "X First · O Second", "the legend");
    assert!(board.iter().any(|l| l == "1 . . .[X]. . .  1"), "{board:?}");
    client.send("quit");
    assert_eq!(
        wait_capped(&mut client.child, "connect after quit"),
        Some(0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bundled_games_stay_reachable_and_unknown_ones_list_connect_four() {
    assert_eq!(run(&["perft", "gomoku:size=7", "1"], "").ok(), "49\n");
    let unknown = run(&["perft", "chess", "1"], "");
    assert_eq!(unknown.code, Some(2));
    assert_eq!(
        unknown.stderr,
        "error: bad game spec: unknown game 'chess': expected one of fourshift, clamp, \
         amazons, gomoku, connect6, connect4\n"
    );
}

#[test]
fn a_saved_game_replays() {
    let dir = std::env::temp_dir().join(format!("connect-four-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let save = dir.join("game.save");
    let save_arg = save.to_str().expect("utf-8 path");
    run(
        &["play", "connect4", "--human", "both", "--no-color"],
        &format!("d\ne\nsave {save_arg}\nquit\n"),
    )
    .ok();
    let replayed = run(&["replay", save_arg, "--no-color"], "\n\n\n");
    let out = replayed.ok();
    assert!(out.contains("1 . . . X[O]. .  1"), "{out}");
    assert!(
        out.contains("after 2 of 2 moves · move 3 · First to move · last move e"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_searches_the_games_with_bench_positions() {
    let benched = run(&["bench", "--depth-delta", "-20"], "");
    let out = benched.ok();
    assert!(out.lines().any(|l| l.starts_with("gomoku")), "{out}");
    assert!(
        !out.lines().any(|l| l.starts_with("connect4")),
        "Connect Four has no bench positions: {out}"
    );
    assert!(out.contains(" nodes ") && out.contains(" nps"), "{out}");
}

#[test]
fn an_external_engine_plays_connect_four_over_the_engine_protocol() {
    // The binary's own `engine` command, driven as an external UGI engine by `match`.
    let a = format!("ugi:{BIN} engine");
    let matched = run(
        &[
            "match", "connect4", "--a", &a, "--b", "random", "--games", "2", "--depth", "2",
        ],
        "",
    );
    let out = matched.ok();
    assert!(
        out.starts_with(&format!("{a} (A) vs random (B)\n")),
        "{out}"
    );
    let faults = [
        "timed out",
        "crashed",
        "illegal move",
        "no move",
        "broke the protocol",
    ];
    assert!(
        !faults.iter().any(|f| matched.stderr.contains(f)),
        "the external engine plays legal moves in time: {}",
        matched.stderr
    );
}
