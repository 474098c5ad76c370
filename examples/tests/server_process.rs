//! `boardlab serve` and `boardlab connect` end to end: real processes on 127.0.0.1.

mod protocols_common;

use std::{
    collections::VecDeque,
    io::{BufRead, BufReader, Write},
    net::TcpStream,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

use protocols_common::Proc;

const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");

struct ServerProc {
    child: Child,
    addr: String,
}

impl ServerProc {
    fn start(data: &PathBuf) -> ServerProc {
        let mut child = Command::new(BOARDLAB)
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("server starts");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("listening line");
        let addr = first
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("'{first}'"))
            .to_string();
        ServerProc { child, addr }
    }

    fn client(&self) -> Client {
        let s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        Client {
            out: s.try_clone().expect("clone"),
            inp: BufReader::new(s),
            updates: VecDeque::new(),
        }
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ServerProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client {
    out: TcpStream,
    inp: BufReader<TcpStream>,
    /// Pushed `update` lines read while waiting for a reply, oldest first.
    updates: VecDeque<String>,
}

impl Client {
    fn read(&mut self) -> String {
        let mut line = String::new();
        self.inp.read_line(&mut line).expect("a line");
        assert!(!line.is_empty(), "the server closed the connection");
        line.trim().to_string()
    }

    /// The reply to `line` (pushed updates read meanwhile are kept for `update`).
    fn ask(&mut self, line: &str) -> String {
        self.out
            .write_all(format!("{line}\n").as_bytes())
            .expect("send");
        loop {
            let reply = self.read();
            if reply.starts_with("update ") {
                self.updates.push_back(reply);
            } else {
                return reply;
            }
        }
    }

    /// The next pushed update (10 s at most).
    fn update(&mut self) -> String {
        match self.updates.pop_front() {
            Some(u) => u,
            None => {
                let u = self.read();
                assert!(u.starts_with("update "), "{u}");
                u
            }
        }
    }

    fn ok(&mut self, line: &str) -> Vec<String> {
        let r = self.ask(line);
        assert!(r.starts_with("ok "), "{line}: {r}");
        r.split_whitespace().skip(1).map(String::from).collect()
    }

    fn err(&mut self, line: &str, needle: &str) {
        let r = self.ask(line);
        assert!(r.starts_with("error ") && r.contains(needle), "{line}: {r}");
    }

    /// Plays the first square of a `size`×`size` board the server accepts; the reply.
    fn play_any(&mut self, id: &str, token: &str, size: u8) -> Vec<String> {
        for col in 0..size {
            for row in 1..=size {
                let sq = format!("{}{row}", char::from(b'a' + col));
                let r = self.ask(&format!("move {id} {token} {sq}"));
                if r.starts_with("ok ") {
                    return r.split_whitespace().skip(1).map(String::from).collect();
                }
                assert!(r.contains("illegal move"), "{r}");
            }
        }
        panic!("no legal square");
    }
}

#[test]
fn two_clients_play_through_a_server_restart() {
    let data = std::env::temp_dir().join(format!("boardlab-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let server = ServerProc::start(&data);
    let mut a = server.client();
    let mut b = server.client();
    let id = a.ok("create gomoku:size=5")[1].clone();
    let ta = a.ok(&format!("join {id} first"))[3].clone();
    let tb = b.ok(&format!("join {id} second"))[3].clone();
    b.err(&format!("join {id} first"), "taken");
    b.err(&format!("move {id} {tb} b1"), "not your turn");
    b.err(&format!("move {id} 0123 a1"), "wrong token");
    a.err(&format!("move {id} {ta} a9"), "illegal move");
    a.err("hello world", "unknown command");
    a.err(&"x".repeat(10_000), "longer than");
    a.ok(&format!("move {id} {ta} a1"));
    b.err(&format!("move {id} {tb} a1"), "illegal move");
    b.ok(&format!("move {id} {tb} b1"));
    a.ok(&format!("move {id} {ta} a2"));
    // Kill the server mid-game and start it again on the same data.
    drop(a);
    drop(b);
    server.kill();
    let server = ServerProc::start(&data);
    let mut a = server.client();
    let mut b = server.client();
    a.ok(&format!("rejoin {id} {ta}"));
    b.ok(&format!("rejoin {id} {tb}"));
    b.err(&format!("rejoin {id} 42"), "wrong token");
    let shown = a.ok(&format!("show {id}")).join(" ");
    assert!(shown.contains("ply 3 moves a1 b1 a2"), "{shown}");
    b.ok(&format!("move {id} {tb} b2"));
    a.ok(&format!("move {id} {ta} a3"));
    b.ok(&format!("move {id} {tb} b3"));
    a.ok(&format!("move {id} {ta} a4"));
    b.ok(&format!("move {id} {tb} b4"));
    let last = a.ok(&format!("move {id} {ta} a5")).join(" ");
    assert!(last.contains("over"), "{last}");
    let shown = b.ok(&format!("show {id}")).join(" ");
    assert!(shown.contains("over"), "{shown}");
    // The terminal client relays lines.
    let mut c = Proc::spawn(BOARDLAB, &["connect", &server.addr]);
    c.send("list");
    assert_eq!(c.line(), format!("ok games {id}"));
    c.send("quit");
    assert_eq!(c.line(), "ok bye");
    assert!(c.exits_within(Duration::from_secs(5)));
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// The plies and moves of `update ID PLY MOVE [over ...]` lines.
fn plies(updates: &[String]) -> Vec<(usize, String)> {
    updates
        .iter()
        .map(|u| {
            let w: Vec<&str> = u.split_whitespace().collect();
            (w[2].parse().expect("ply"), w[3].to_string())
        })
        .collect()
}

#[test]
fn a_client_plays_the_engine_seat_through_a_restart_while_watched() {
    let data = std::env::temp_dir().join(format!("boardlab-serve-engine-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let server = ServerProc::start(&data);
    let mut p = server.client();
    let mut w = server.client();
    let id = p.ok("create gomoku:size=7")[1].clone();
    assert_eq!(w.ok(&format!("watch {id}")), vec!["watching", &id, "0"]);
    let tok = p.ok(&format!("join {id} first"))[3].clone();
    p.err(&format!("engine {id} first"), "taken");
    p.err(&format!("engine {id} second 5"), "bad think time");
    p.err(&format!("engine {id} north"), "first or second");
    p.err("engine 77 second", "no game 77");
    assert_eq!(
        p.ok(&format!("engine {id} second 300")),
        vec!["engine", &id, "second", "300"]
    );
    // Two moves each, then the server is killed right after the player's third move is
    // saved, before the engine (300 ms) answers it.
    let mut seen = Vec::new();
    for _ in 0..2 {
        p.play_any(&id, &tok, 7);
        let reply = p.update();
        assert!(reply.starts_with(&format!("update {id} ")), "{reply}");
    }
    let third = p.play_any(&id, &tok, 7);
    assert_eq!(third[2], "5", "{third:?}");
    for _ in 0..5 {
        seen.push(w.update());
    }
    drop(p);
    drop(w);
    server.kill();
    let server = ServerProc::start(&data);
    let mut w = server.client();
    let mut p = server.client();
    let watching = w.ok(&format!("watch {id}"));
    let from: usize = watching[2].parse().expect("ply");
    assert!(from == 5 || from == 6, "{watching:?}");
    assert_eq!(p.ok(&format!("rejoin {id} {tok}"))[2], "first");
    // The engine resumes: its answer to the fifth ply comes (pushed, or already there).
    if from == 5 {
        let u = p.update();
        assert!(u.starts_with(&format!("update {id} 6 ")), "{u}");
    }
    let mut over = false;
    for _ in 0..40 {
        let moved = p.play_any(&id, &tok, 7);
        if moved.contains(&"over".to_string()) {
            over = true;
            break;
        }
        let u = p.update();
        if u.contains(" over ") {
            over = true;
            break;
        }
    }
    assert!(over, "the game finishes");
    let shown = p.ok(&format!("show {id}")).join(" ");
    assert!(
        shown.contains("second=engine") && shown.contains("; over"),
        "{shown}"
    );
    let moves: Vec<String> = shown
        .split(" moves ")
        .nth(1)
        .and_then(|m| m.split(" ;").next())
        .expect("moves")
        .split_whitespace()
        .map(String::from)
        .collect();
    // The watchers together saw every move in order, exactly once.
    let mut rest = Vec::new();
    while rest.len() + from < moves.len() {
        rest.push(w.update());
    }
    assert!(
        rest.last().is_some_and(|u| u.contains(" over ")),
        "{rest:?}"
    );
    let before = plies(&seen);
    let after = plies(&rest);
    for (i, (ply, mv)) in before.iter().chain(after.iter()).enumerate() {
        let i = if i < 5 { i } else { i - 5 + from };
        assert_eq!((*ply, mv), (i + 1, &moves[i]), "{seen:?} {rest:?}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn the_terminal_client_shows_the_board() {
    let data = std::env::temp_dir().join(format!("boardlab-serve-connect-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let server = ServerProc::start(&data);
    let mut c = Proc::spawn(BOARDLAB, &["connect", &server.addr]);
    c.send("create gomoku:size=5");
    let created = c.until("game 1 · ply 0");
    assert_eq!(created[0], "ok created 1 gomoku:size=5,rule=freestyle");
    assert_eq!(created[1], "  a b c d e");
    assert_eq!(
        created.last().map(String::as_str),
        Some("game 1 · ply 0 · Black (first) to move")
    );
    c.send("join 1 first");
    let joined = c.line();
    assert!(joined.starts_with("ok joined 1 first "), "{joined}");
    let token = joined.rsplit(' ').next().expect("token").to_string();
    // The client fetched the game itself (its reply is not shown), then drew it.
    let board = c.until("game 1 · ply 0");
    assert_eq!(board[0], "  a b c d e", "{board:?}");
    c.send("engine 1 second 50");
    assert_eq!(c.line(), "ok engine 1 second 50");
    c.until("game 1 · ply 0");
    c.send(&format!("move 1 {token} c3"));
    assert_eq!(c.line(), "ok moved 1 1 c3");
    let after = c.until("game 1 · ply 1");
    assert!(after.contains(&"3 . . x . .  3".to_string()), "{after:?}");
    assert_eq!(
        after.last().map(String::as_str),
        Some("game 1 · ply 1 · White (second) to move")
    );
    // The engine's answer is pushed and drawn.
    let pushed = c.line();
    assert!(pushed.starts_with("update 1 2 "), "{pushed}");
    let after = c.until("game 1 · ply 2");
    assert!(after.iter().any(|l| l.contains(" o ")), "{after:?}");
    assert!(!after.iter().chain(&board).any(|l| l.starts_with("ok game")));
    c.send("quit");
    assert_eq!(c.line(), "ok bye");
    // The client exits when the server closes, without waiting for the end of stdin.
    assert!(c.has_exited_within(Duration::from_secs(5)));
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn engines_play_each_other_watched_while_the_server_stays_responsive() {
    let data = std::env::temp_dir().join(format!("boardlab-serve-eve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let server = ServerProc::start(&data);
    let mut c = server.client();
    let mut w = server.client();
    // A small engine-vs-engine game, watched to its end.
    let id = c.ok("create fourshift:size=4,k=3,pieces=3")[1].clone();
    w.ok(&format!("watch {id}"));
    c.ok(&format!("engine {id} first 10"));
    c.ok(&format!("engine {id} second 10"));
    let mut seen = Vec::new();
    loop {
        let u = w.update();
        assert!(u.starts_with(&format!("update {id} ")), "{u}");
        let over = u.contains(" over ");
        seen.push(u);
        if over {
            break;
        }
        assert!(seen.len() < 200, "{seen:?}");
    }
    let got = plies(&seen);
    for (i, (ply, _)) in got.iter().enumerate() {
        assert_eq!(*ply, i + 1, "{seen:?}");
    }
    let shown = c.ok(&format!("show {id}")).join(" ");
    assert!(shown.contains(&format!("ply {} ", seen.len())), "{shown}");
    // Four engine-vs-engine games at 2 s a move: engines never think under the lock, so
    // requests are answered meanwhile (well under the 2 s a lock held while thinking
    // would cost; the bound is loose because the machine is shared).
    let mut ids = Vec::new();
    for _ in 0..4 {
        let id = c.ok("create gomoku:size=7")[1].clone();
        c.ok(&format!("engine {id} first 2000"));
        c.ok(&format!("engine {id} second 2000"));
        ids.push(id);
    }
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        let t = std::time::Instant::now();
        c.ok("list");
        slowest = slowest.max(t.elapsed());
        std::thread::sleep(Duration::from_millis(25));
    }
    for id in &ids {
        c.ok(&format!("show {id}"));
    }
    assert!(
        slowest < Duration::from_millis(1000),
        "slowest reply {slowest:?}"
    );
    eprintln!("slowest reply while 4 engine games run: {slowest:?}");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
