//! `boardlab serve --listen ADDR --web ADDR` as a real process: both doors onto one game
//! table. A game created over HTTP has its free seat joined over the line protocol, a
//! move goes each way (the page's WebSocket to the line player, the line player's to the
//! page), and a second server on the same data directory is refused with a clear error.
//! With the `browser-tests` feature, the same process carries a game between headless
//! Chromium and the `boardlab connect` binary (`tests/serve_doors_browser.rs`).

mod doors_common;

use std::{
    io::{BufRead, BufReader, Write},
    net::TcpStream,
    process::{Command, Stdio},
    time::Instant,
};

use doors_common::{BOARDLAB, Doors, WAIT, temp_dir};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{self, Message};

/// A line-protocol connection: requests one per line, replies and pushes one per line.
struct Line {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Line {
    fn connect(addr: &str) -> Line {
        let stream = TcpStream::connect(addr).expect("the line door answers");
        stream.set_read_timeout(Some(WAIT)).expect("timeout");
        Line {
            reader: BufReader::new(stream.try_clone().expect("clone")),
            writer: stream,
        }
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.reader
            .read_line(&mut line)
            .expect("a line within the wait");
        line.trim_end().to_string()
    }

    /// The reply to `request` (pushes read before it are skipped: they start `update`).
    fn ask(&mut self, request: &str) -> String {
        writeln!(self.writer, "{request}").expect("send");
        loop {
            let line = self.line();
            if !line.starts_with("update ") {
                return line;
            }
        }
    }
}

/// The page's WebSocket, as the page speaks it.
struct Socket(tungstenite::WebSocket<TcpStream>);

impl Socket {
    fn connect(board: &str) -> Socket {
        let stream = TcpStream::connect(board).expect("the board answers");
        stream.set_read_timeout(Some(WAIT)).expect("timeout");
        let (socket, _) = tungstenite::client(format!("ws://{board}/ws"), stream)
            .unwrap_or_else(|e| panic!("WebSocket handshake: {e}"));
        Socket(socket)
    }

    fn send(&mut self, message: Value) {
        self.0
            .send(Message::Text(message.to_string().into()))
            .expect("send");
    }

    /// The next `state` message with `moves` moves played.
    fn state_with(&mut self, moves: usize) -> Value {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            let Message::Text(text) = self.0.read().expect("a message within the wait") else {
                continue;
            };
            let v: Value = serde_json::from_str(&text).expect("JSON");
            if v["type"] == "state" && v["moves"].as_array().map(Vec::len) == Some(moves) {
                return v;
            }
        }
        panic!("no state with {moves} moves within {WAIT:?}");
    }
}

#[test]
fn one_process_two_doors_one_game_and_the_data_directory_is_its_alone() {
    let dir = temp_dir("doors");
    let data = dir.join("data");
    let doors = Doors::start(&data);
    let created = doors.request(
        "POST",
        "/api/games",
        &json!({ "spec": "gomoku:size=7", "seats": ["human", "free"] }),
    );
    let id = created["id"].as_u64().expect("an id");
    let page_token = created["tokens"][0].as_str().expect("the page's token");
    // The free seat, taken on the other door.
    let mut line = Line::connect(&doors.line);
    let joined = line.ask(&format!("join {id} second"));
    let words: Vec<&str> = joined.split_whitespace().collect();
    assert_eq!(
        words.get(..4),
        Some(&["ok", "joined", &id.to_string(), "second"][..]),
        "{joined}"
    );
    let line_token = words[4].to_string();
    // The page's move reaches the line player as a push ...
    let mut page = Socket::connect(&doors.board);
    page.send(json!({ "type": "open", "game": id, "tokens": [page_token] }));
    let state = page.state_with(0);
    assert_eq!(state["seats"][1]["kind"], "human", "the line player's seat");
    page.send(json!({ "type": "move", "move": "d4" }));
    assert_eq!(line.line(), format!("update {id} 1 d4"));
    // ... and the line player's move reaches the page.
    assert_eq!(
        line.ask(&format!("move {id} {line_token} c3")),
        format!("ok moved {id} 2 c3")
    );
    let state = page.state_with(2);
    assert_eq!(state["your_turn"], true);
    assert_eq!(state["moves"][1], "c3", "{state}");
    // A second server on the same data directory is refused, whatever its doors.
    let second = Command::new(BOARDLAB)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--web",
            "127.0.0.1:0",
            "--data",
        ])
        .arg(&data)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("the second server runs");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is in use by another server"),
        "the error names the cause: {stderr}"
    );
    // The first goes on serving the game.
    assert!(
        doors.request("GET", &format!("/api/games/{id}"), &Value::Null)["moves"]
            .as_array()
            .is_some_and(|m| m.len() == 2)
    );
    drop(doors);
    let _ = std::fs::remove_dir_all(&dir);
}
