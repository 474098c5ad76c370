//! `boardlab serve` and `boardlab connect` end to end: real processes on 127.0.0.1.

mod protocols_common;

use std::{
    collections::VecDeque,
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::PathBuf,
    process::{Child, Command, Stdio},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use protocols_common::Proc;

const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");

struct ServerProc {
    child: Child,
    addr: String,
}

impl ServerProc {
    fn start(data: &PathBuf) -> ServerProc {
        ServerProc::start_with(data, &[])
    }

    /// A server on `data` with extra `serve` flags.
    fn start_with(data: &PathBuf, extra: &[&str]) -> ServerProc {
        let mut child = Command::new(BOARDLAB)
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(data)
            .args(extra)
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
    // The terminal client tells the replies in words.
    let mut c = Proc::spawn(BOARDLAB, &["connect", &server.addr]);
    c.send("list");
    assert_eq!(c.line(), format!("games on the server: {id}"));
    c.send("quit");
    assert_eq!(c.line(), "bye");
    assert!(c.exits_within(Duration::from_secs(5)));
    drop(server);
    // The save file (integrity trailers and all) replays in `boardlab replay`.
    let mut replay = Command::new(BOARDLAB)
        .args(["replay", "--no-color"])
        .arg(data.join(format!("{id}.save")))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("replay starts");
    replay
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"e\nq\n")
        .expect("keys");
    let out = replay.wait_with_output().expect("replay ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("after 9 of 9 moves"), "{text}");
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
    let tokens = data.with_extension("tokens");
    let tokens = tokens.to_str().expect("a UTF-8 path");
    let mut c = Proc::spawn(BOARDLAB, &["connect", &server.addr, "--tokens", tokens]);
    c.send("create gomoku:size=5");
    let created = c.until("game 1 · move 1");
    assert!(
        created[0].starts_with("created game 1 (gomoku:size=5,rule=freestyle): take a seat"),
        "{created:?}"
    );
    assert_eq!(created[1], "  a b c d e");
    assert_eq!(
        created.last().map(String::as_str),
        Some("game 1 · move 1 · Black (first) to move")
    );
    c.send("join 1 first");
    assert_eq!(c.line(), "you play Black (first) in game 1");
    // The client fetched the game itself (its reply is not shown); the board it drew at
    // `create` is unchanged, so it only says whose turn it is.
    let board = c.until("your turn");
    assert!(board[0].starts_with("token saved in "), "{board:?}");
    assert_eq!(board.len(), 2, "{board:?}");
    c.send("engine 1 second 50");
    assert_eq!(
        c.line(),
        "the engine plays White (second) in game 1 (50 ms a move)"
    );
    // A bare move goes to the seat held; the board shows it (no protocol line).
    c.send("c3");
    let after = c.until("game 1 · move 2");
    assert!(after.contains(&"3 . .[x]. .  3".to_string()), "{after:?}");
    assert_eq!(
        after.last().map(String::as_str),
        Some("game 1 · move 2 · White (second) to move")
    );
    // The engine's answer is pushed and drawn.
    let pushed = c.line();
    assert!(pushed.starts_with("game 1, move 2: "), "{pushed}");
    let after = c.until("game 1 · move 3");
    assert!(after.iter().any(|l| l.contains("[o]")), "{after:?}");
    assert_eq!(
        c.line(),
        "your turn: you play Black (first) in game 1; type your move"
    );
    assert!(!after.iter().chain(&board).any(|l| l.starts_with("ok ")));
    c.send("quit");
    assert_eq!(c.line(), "bye");
    // The client exits when the server closes, without waiting for the end of stdin.
    assert!(c.has_exited_within(Duration::from_secs(5)));
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
    let _ = std::fs::remove_file(data.with_extension("tokens"));
    let _ = std::fs::remove_file(data.with_extension("tokens.lock"));
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

#[test]
fn a_second_server_on_the_same_data_is_refused_with_the_holders_pid() {
    let data = std::env::temp_dir().join(format!("boardlab-serve-lock-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let first = ServerProc::start(&data);
    let mut a = first.client();
    let id = a.ok("create gomoku:size=5")[1].clone();
    let mut second = Command::new(BOARDLAB)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(&data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("second server starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = second.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < deadline, "the second server keeps running");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    second
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    assert!(!status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "in use by another server (pid {};",
            first.child.id()
        )),
        "{stderr}"
    );
    // The first one's game is intact, and a restart after a kill -9 gets the lock.
    a.ok(&format!("join {id} first"));
    drop(a);
    first.kill();
    let again = ServerProc::start(&data);
    let mut b = again.client();
    assert_eq!(b.ok("list"), vec!["games", &id]);
    drop(again);
    let _ = std::fs::remove_dir_all(&data);
}

/// One player thread of the crash test: plays both seats of gomoku games over one
/// connection as fast as the server answers, reconnecting whenever the server is killed.
/// Returns every game it created whose seats it holds, with its acknowledged moves.
fn crash_player(seed: u64, addr: &Mutex<String>, stop: &AtomicBool) -> Vec<(String, Vec<String>)> {
    let mut rng = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move |n: u64| {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) % n
    };
    let mut done: Vec<(String, Vec<String>)> = Vec::new();
    // The game being played: id, tokens, acknowledged moves, over.
    let mut game: Option<(String, [String; 2], Vec<String>)> = None;
    // A move sent whose reply was lost with the server.
    let mut in_flight: Option<String> = None;
    let mut conn: Option<Client> = None;
    while !stop.load(Ordering::SeqCst) {
        let c = match conn.as_mut() {
            Some(c) => c,
            None => {
                let Ok(s) = TcpStream::connect(addr.lock().expect("addr").as_str()) else {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                s.set_read_timeout(Some(Duration::from_secs(10)))
                    .expect("timeout");
                let mut c = Client {
                    out: s.try_clone().expect("clone"),
                    inp: BufReader::new(s),
                    updates: VecDeque::new(),
                };
                // Catch up: the server has every acknowledged move, in order, and at
                // most the one in flight besides.
                if let Some((id, _, moves)) = game.as_mut() {
                    let Some(shown) = try_ask(&mut c, &format!("show {id}")) else {
                        continue;
                    };
                    let have: Vec<String> = shown
                        .split(" moves ")
                        .nth(1)
                        .and_then(|m| m.split(" ;").next())
                        .unwrap_or("")
                        .split_whitespace()
                        .map(String::from)
                        .collect();
                    assert!(
                        have.starts_with(moves),
                        "game {id}: {have:?} lost some of {moves:?}"
                    );
                    assert!(
                        have.len() <= moves.len() + 1,
                        "game {id}: {have:?} vs {moves:?}"
                    );
                    if have.len() == moves.len() + 1 {
                        assert_eq!(Some(&have[moves.len()]), in_flight.as_ref(), "game {id}");
                        moves.push(have[moves.len()].clone());
                    }
                    if shown.contains("; over") {
                        let (id, _, moves) = game.take().expect("game");
                        done.push((id, moves));
                    }
                }
                in_flight = None;
                conn.insert(c)
            }
        };
        let Some((id, tokens, moves)) = game.as_mut() else {
            // A new game; one whose set-up is cut by a kill is left alone.
            let created = try_ask(c, "create gomoku:size=15");
            let id = created
                .as_deref()
                .and_then(|r| r.split_whitespace().nth(2))
                .map(String::from);
            let mut tokens = Vec::new();
            for seat in ["first", "second"] {
                let joined = match &id {
                    Some(id) => try_ask(c, &format!("join {id} {seat}")),
                    None => None,
                };
                match joined.as_deref().and_then(|r| r.split_whitespace().nth(4)) {
                    Some(t) => tokens.push(t.to_string()),
                    None => break,
                }
            }
            match (id, <[String; 2]>::try_from(tokens)) {
                (Some(id), Ok(tokens)) => game = Some((id, tokens, Vec::new())),
                _ => conn = None,
            }
            continue;
        };
        let square = loop {
            let sq = format!("{}{}", char::from(b'a' + next(15) as u8), 1 + next(15));
            if !moves.contains(&sq) {
                break sq;
            }
        };
        let token = &tokens[moves.len() % 2];
        in_flight = Some(square.clone());
        let Some(reply) = try_ask(c, &format!("move {id} {token} {square}")) else {
            conn = None;
            continue;
        };
        let w: Vec<&str> = reply.split_whitespace().collect();
        assert_eq!(w[..2], ["ok", "moved"], "{reply}");
        assert_eq!(w[3], (moves.len() + 1).to_string(), "{reply}");
        assert_eq!(w[4], square, "{reply}");
        moves.push(square);
        in_flight = None;
        if reply.contains(" over ") {
            let (id, _, moves) = game.take().expect("game");
            done.push((id, moves));
        }
    }
    done.extend(game.map(|(id, _, moves)| (id, moves)));
    done
}

/// The reply to `line`, or `None` if the connection broke (the server was killed).
fn try_ask(c: &mut Client, line: &str) -> Option<String> {
    c.out.write_all(format!("{line}\n").as_bytes()).ok()?;
    let mut reply = String::new();
    match c.inp.read_line(&mut reply) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(reply.trim().to_string()),
    }
}

/// Load and crash: 8 players each play gomoku games on their own connection at full
/// speed while the server is killed with SIGKILL 4 times and restarted on the same data;
/// after every restart each player finds every acknowledged move, in order, plus at most
/// the one whose reply was lost; at the end a last restart holds exactly what was
/// acknowledged. Bounded: about 5 s of play.
#[test]
fn acknowledged_moves_survive_repeated_kill_9() {
    const PLAYERS: u64 = 8;
    const KILLS: usize = 4;
    let data = std::env::temp_dir().join(format!("boardlab-serve-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let flags = [
        "--max-connections-per-peer",
        "64",
        "--max-games-per-peer",
        "1000",
    ];
    let mut server = ServerProc::start_with(&data, &flags);
    let addr = Arc::new(Mutex::new(server.addr.clone()));
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = (0..PLAYERS)
        .map(|seed| {
            let (addr, stop) = (Arc::clone(&addr), Arc::clone(&stop));
            std::thread::spawn(move || crash_player(seed, &addr, &stop))
        })
        .collect();
    for _ in 0..KILLS {
        std::thread::sleep(Duration::from_millis(900));
        server.kill();
        server = ServerProc::start_with(&data, &flags);
        *addr.lock().expect("addr") = server.addr.clone();
    }
    std::thread::sleep(Duration::from_millis(600));
    stop.store(true, Ordering::SeqCst);
    let played: Vec<(String, Vec<String>)> = players
        .into_iter()
        .flat_map(|p| p.join().expect("a player thread"))
        .collect();
    server.kill();
    let server = ServerProc::start_with(&data, &flags);
    let mut c = server.client();
    let mut total = 0;
    for (id, moves) in &played {
        // The words between `moves` and `;` (none for a game whose first move was lost).
        let shown = c.ok(&format!("show {id}"));
        let have = shown
            .iter()
            .skip_while(|w| *w != "moves")
            .skip(1)
            .take_while(|w| *w != ";")
            .map(String::as_str)
            .collect::<Vec<_>>();
        assert_eq!(have, *moves, "game {id}");
        total += moves.len();
    }
    eprintln!(
        "crash test: {} games, {total} acknowledged moves, {KILLS} kills, none lost",
        played.len()
    );
    assert!(total > 100, "only {total} moves were played");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
