//! The `connect-four` binary — `boardlab_cli::run_cli` with Connect Four registered beside
//! the bundled games — through every `boardlab` command, as real processes. Every wait is
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
        ["a1 7", "b1 7", "c1 7", "d1 7", "e1 7", "f1 7", "g1 7", "49"],
        "one line per landing square (in square order, as the moves are generated), then the total"
    );
    // Playing onto a taken square is refused, naming the move.
    let full = run(
        &["perft", "connect4", "1", "--moves", "d1 d2 d3 d4 d5 d6 d1"],
        "",
    );
    assert_eq!(full.code, Some(2));
    assert!(full.stderr.contains("move 7 'd1'"), "{}", full.stderr);
}

#[test]
fn show_prints_the_board_and_whose_turn_it_is() {
    let shown = run(&["show", "connect4", "--moves", "d1 d2"], "");
    let out = shown.ok();
    assert!(out.contains("game: connect4:k=4\n"), "{out}");
    assert!(out.contains("position: 7/7/7/7/3O3/3X3 first 2\n"), "{out}");
    assert!(out.contains("to move: First\n"), "{out}");
    assert!(out.contains("ply: 2\n"), "{out}");
    assert!(out.contains("result: ongoing\n"), "{out}");
    let json = run(
        &[
            "show",
            "connect4",
            "--moves",
            "d1 e1 d2 e2 d3 e3 d4",
            "--json",
        ],
        "",
    );
    let value: serde_json::Value = serde_json::from_str(json.ok()).expect("one JSON object");
    assert_eq!(value["result"], "first-wins");
    assert_eq!(value["to_move"], "none");
    assert_eq!(value["ply"], 7);
    // The result names the winner once: Connect Four gives no reason of its own.
    let won = run(&["show", "connect4", "--moves", "d1 e1 d2 e2 d3 e3 d4"], "");
    assert!(won.ok().contains("result: First wins\n"), "{}", won.stdout);
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
            "d1 e1 d2 e2 d3 e3",
        ],
        "",
    );
    let out = analyzed.ok();
    assert!(out.lines().any(|l| l.starts_with("info depth ")), "{out}");
    assert_eq!(out.lines().last(), Some("bestmove d4"), "{out}");
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
    assert_eq!(report["tournament"]["spec"], "connect4:k=4", "{report}");
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
        "d1\ne1\nd2\ne2\nd3\ne3\nd4\n",
    );
    let out = played.ok();
    assert!(out.contains("Game over: First wins."), "{out}");
    // Refused input names its reason and changes nothing.
    let refused = run(
        &["play", "connect4", "--human", "both", "--no-color"],
        "h1\nd2\nd1\nquit\n",
    );
    let out = refused.ok();
    assert!(out.contains("h1 is off the 7x6 board"), "{out}");
    assert!(
        out.contains("d2: a stone falls to the lowest empty square of its column"),
        "{out}"
    );
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
    engine.send("position connect4 startpos moves d1 e1 d2 e2 d3 e3");
    engine.send("go depth 6");
    let lines = engine.until("bestmove ");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove d4"),
        "{lines:?}"
    );
    engine.send("position connect4 startpos moves h1");
    let refused = engine.until("info string error");
    assert!(
        refused.concat().contains("h1 is off the 7x6 board"),
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
    assert_eq!(ask("create connect4"), "ok created 1 connect4:k=4");
    let joined = ask("join 1 first");
    let token = joined
        .strip_prefix("ok joined 1 first ")
        .unwrap_or_else(|| panic!("{joined}"))
        .to_string();
    assert_eq!(ask(&format!("move 1 {token} D1")), "ok moved 1 1 d1");
    let refused = ask(&format!("move 1 {token} h1"));
    assert!(refused.starts_with("error "), "{refused}");
    let shown = ask("show 1");
    assert!(shown.contains("ply 1 moves d1 ;"), "{shown}");
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
    client.until("created game 1 (connect4:k=4)");
    client.until_line(|l| l == "X First · O Second", "the legend");
    client.send("join first");
    client.until("you play First (first) in game 1");
    client.send("d1");
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
        &format!("d1\ne1\nsave {save_arg}\nquit\n"),
    )
    .ok();
    let replayed = run(&["replay", save_arg, "--no-color"], "\n\n\n");
    let out = replayed.ok();
    assert!(out.contains("1 . . . X[O]. .  1"), "{out}");
    assert!(
        out.contains("after 2 of 2 moves · move 3 · First to move · last move e1"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_fits_weights_and_checks_them_in_a_paired_match() {
    let args = [
        "tune",
        "connect4",
        "--k",
        "4",
        "--weights",
        "60,8,1",
        "--games",
        "10",
        "--depth",
        "2",
        "--pairs",
        "2",
    ];
    let tuned = run(&args, "");
    let out = tuned.ok();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("positions "), "{out}");
    assert_eq!(lines[1], "hand weights   60,8,1", "{out}");
    assert!(lines[2].starts_with("tuned weights  "), "{out}");
    assert!(
        lines[3].starts_with("tuned vs hand, 2 colour-swapped pairs at depth 2: "),
        "{out}"
    );
    // Reproducible from the seed.
    assert_eq!(run(&args, "").ok(), out);
    let bad = run(
        &[
            "tune",
            "connect4",
            "--k",
            "4",
            "--weights",
            "1",
            "--mobility",
            "x",
        ],
        "",
    );
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("bad --mobility 'x'"), "{}", bad.stderr);
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
