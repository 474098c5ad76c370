//! `boardlab connect` as people use it, end to end: real `serve` and `connect` processes
//! on 127.0.0.1, the clients driven line by line as a player would (a move only after
//! "your turn"), every wait bounded.

use std::{
    io::{BufRead, BufReader, Write},
    path::{Path, PathBuf},
    process::{Child, ChildStdin, Command, ExitStatus, Stdio},
    sync::mpsc::{Receiver, channel},
    time::{Duration, Instant},
};

const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");
/// The longest wait for any one line.
const WAIT: Duration = Duration::from_secs(10);

/// A fresh (removed) temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardlab-connect-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(data: &Path) -> Server {
        let mut child = Command::new(BOARDLAB)
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("server starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("listening line");
        let addr = first
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("'{first}'"))
            .to_string();
        Server { child, addr }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A `boardlab connect` process: its stdout and stderr lines (stderr prefixed `! `) in
/// the order read, all kept for the final checks.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Client {
    fn start(addr: &str, tokens: &Path, extra: &[&str]) -> Client {
        let mut child = Command::new(BOARDLAB)
            .args(["connect", addr, "--tokens"])
            .arg(tokens)
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("client starts");
        let (tx, rx) = channel();
        let out = child.stdout.take().expect("stdout");
        let err = child.stderr.take().expect("stderr");
        let tx2 = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx2.send(format!("! {line}"));
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the client");
        stdin.flush().expect("flush");
    }

    /// Reads lines up to the first that contains `needle` (that one included).
    fn until(&mut self, needle: &str) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!("no line with '{needle}' within {WAIT:?}; read: {:#?}", got)
            });
            self.seen.push(line.clone());
            got.push(line.clone());
            if line.contains(needle) {
                return got;
            }
        }
    }

    /// Plays `mv` as a bare move once the client says it is our turn.
    fn play_on_turn(&mut self, mv: &str) {
        self.until("your turn");
        self.send(mv);
        self.until(&format!(" {mv}"));
    }

    /// Waits (bounded) for the process to end by itself.
    fn exit_status(&mut self) -> ExitStatus {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                // The rest of its output.
                while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(200)) {
                    self.seen.push(l);
                }
                return status;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!(
            "the client did not exit within {WAIT:?}; read: {:#?}",
            self.seen
        );
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.kill();
    }
}

#[test]
fn two_players_play_with_bare_moves_one_rejoins_after_a_crash() {
    let dir = temp_dir("play");
    let server = Server::start(&dir.join("data"));
    let (tokens_a, tokens_b) = (dir.join("a").join("tokens"), dir.join("b-tokens"));
    let mut a = Client::start(&server.addr, &tokens_a, &[]);
    // Bad input before any game: a clear error, and the client goes on.
    a.send("c3");
    let e = a.until("! connect:");
    assert!(
        e.last()
            .is_some_and(|l| l.contains("'c3' is not a command")),
        "{e:?}"
    );
    a.send("create gomoku:size=5");
    a.until("created game 1 (gomoku:size=5,rule=freestyle)");
    a.send("join first");
    let joined = a.until("token saved in");
    assert!(
        joined
            .iter()
            .any(|l| l == "you play Black (first) in game 1"),
        "{joined:?}"
    );
    assert!(
        joined
            .last()
            .is_some_and(|l| l.contains(&format!("boardlab connect {} --rejoin 1", server.addr))),
        "{joined:?}"
    );
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(&tokens_a)
            .expect("tokens saved")
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    let mut b = Client::start(&server.addr, &tokens_b, &[]);
    b.send("join 1 second");
    b.until("you play the second seat in game 1");
    a.play_on_turn("a1");
    // The opponent's move arrives by itself, drawn with the last move marked.
    let board = b.until("your turn");
    assert!(
        board.iter().any(|l| l.starts_with("1[x]. . . .")),
        "{board:?}"
    );
    b.send("b1");
    // An illegal move is refused by the server; the client goes on.
    a.until("your turn");
    a.send("b1");
    a.until("error: illegal move 'b1'");
    a.send("a2");
    a.until(" a2");
    b.play_on_turn("b2");
    a.play_on_turn("a3");
    // Player A's client dies (kill -9) while B is to move; B moves meanwhile.
    a.kill();
    b.play_on_turn("b3");
    let mut a2 = Client::start(&server.addr, &tokens_a, &["--rejoin", "1"]);
    let back = a2.until("your turn");
    assert!(
        back.iter()
            .any(|l| l.starts_with("back in game 1: you play") && l.contains("first")),
        "{back:?}"
    );
    assert!(
        back.iter()
            .any(|l| l.starts_with("2 .[o]. . .") || l.contains("last b3")),
        "{back:?}"
    );
    a2.send("a4");
    a2.until(" a4");
    b.play_on_turn("b4");
    a2.play_on_turn("a5");
    let end_a = a2.until("game 1 is over");
    let end_b = b.until("game 1 is over");
    assert!(
        end_a
            .last()
            .is_some_and(|l| l == "game 1 is over: you win as Black (first)"),
        "{end_a:?}"
    );
    assert!(
        end_b
            .last()
            .is_some_and(|l| l == "game 1 is over: you lose: Black (first) wins"),
        "{end_b:?}"
    );
    for c in [&a2, &b] {
        assert!(
            c.seen
                .iter()
                .any(|l| l.contains("game over after 9 moves: Black (first) wins")),
            "{:#?}",
            c.seen
        );
    }
    // The finished game's tokens are forgotten: nothing left to rejoin.
    let left = std::fs::read_to_string(&tokens_a).expect("tokens file");
    assert!(!left.lines().any(|l| l.contains(" 1 first ")), "{left}");
    for c in [&mut a2, &mut b] {
        c.send("quit");
        c.until("bye");
        assert!(c.exit_status().success(), "{:#?}", c.seen);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_client_exits_non_zero_when_the_server_dies() {
    let dir = temp_dir("gone");
    let mut server = Server::start(&dir.join("data"));
    let mut c = Client::start(&server.addr, &dir.join("tokens"), &[]);
    c.send("list");
    c.until("games on the server");
    server.kill();
    let status = c.exit_status();
    assert!(!status.success(), "{:#?}", c.seen);
    assert!(
        c.seen.iter().any(|l| l.starts_with("! ")
            && l.contains("connect: the server at ")
            && l.contains("closed the connection")),
        "{:#?}",
        c.seen
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rejoin_without_a_saved_token_is_refused_before_connecting() {
    let dir = temp_dir("norejoin");
    let server = Server::start(&dir.join("data"));
    let mut c = Client::start(&server.addr, &dir.join("tokens"), &["--rejoin", "4"]);
    let status = c.exit_status();
    assert!(!status.success(), "{:#?}", c.seen);
    assert!(
        c.seen
            .iter()
            .any(|l| l.contains("no token saved for game 4 of 127.0.0.1:")),
        "{:#?}",
        c.seen
    );
    let _ = std::fs::remove_dir_all(&dir);
}
