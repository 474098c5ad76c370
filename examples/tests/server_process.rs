//! `boardlab serve` and `boardlab connect` end to end: real processes on 127.0.0.1.

mod protocols_common;

use std::{
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
}

impl Client {
    fn ask(&mut self, line: &str) -> String {
        self.out
            .write_all(format!("{line}\n").as_bytes())
            .expect("send");
        let mut reply = String::new();
        self.inp.read_line(&mut reply).expect("reply");
        reply.trim().to_string()
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
