//! `boardlab serve --listen 127.0.0.1:0 --web 127.0.0.1:0` as a real process for the
//! tests of both doors: its two addresses as it prints them, and plain HTTP requests.

#![allow(dead_code)]

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::Duration,
};

use serde_json::Value;

pub const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");

/// The longest wait for any one line or message.
pub const WAIT: Duration = Duration::from_secs(20);

/// A fresh (removed) temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardlab-doors-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// One `boardlab serve` process with both doors; killed when dropped.
pub struct Doors {
    child: Child,
    /// The line protocol's `127.0.0.1:PORT`.
    pub line: String,
    /// The board's `127.0.0.1:PORT`.
    pub board: String,
}

impl Doors {
    /// Starts the server keeping its games in `data`; both addresses are read from the
    /// two lines it prints first.
    pub fn start(data: &Path) -> Doors {
        let mut child = Command::new(BOARDLAB)
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--web",
                "127.0.0.1:0",
                "--data",
            ])
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut next = || {
            let mut line = String::new();
            out.read_line(&mut line).expect("a line");
            line.trim().to_string()
        };
        let (listening, board) = (next(), next());
        let line = listening
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("not the line door's address: {listening:?}"))
            .to_string();
        let board = board
            .strip_prefix("board at http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not the board's address: {board:?}"))
            .to_string();
        Doors { child, line, board }
    }

    /// The JSON answer (status 200) to one HTTP request to the board; `Value::Null`: no
    /// body.
    pub fn request(&self, method: &str, path: &str, body: &Value) -> Value {
        let mut stream = TcpStream::connect(&self.board).expect("connect");
        stream.set_read_timeout(Some(WAIT)).expect("timeout");
        let body = if body.is_null() {
            String::new()
        } else {
            body.to_string()
        };
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.board,
            body.len()
        )
        .expect("send");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("answer");
        let (head, json) = answer.split_once("\r\n\r\n").expect("a head and a body");
        assert!(head.starts_with("HTTP/1.1 200"), "{head}\n{json}");
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"))
    }
}

impl Drop for Doors {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
