//! `boardlab web --data` killed with SIGKILL while a page plays: every move the page saw
//! acknowledged is there after the restart. The server runs in a child process (this
//! test binary started again with `BOARDLAB_WEB_CHILD` set, serving through
//! [`boardlab_web::run`] as `boardlab web` does), so the kill is a real `kill -9`.

mod support;

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

use serde_json::{Value, json};
use support::{Board, Page, temp_dir, tokens};

const CHILD: &str = "BOARDLAB_WEB_CHILD";

/// Not a test of its own: the server of the child process (it only runs with `CHILD`).
#[test]
fn child_server() {
    let Ok(data) = std::env::var(CHILD) else {
        return;
    };
    let served = boardlab_web::run(
        "127.0.0.1:0",
        Some(Path::new(&data)),
        false,
        boardlab_games::Registry::bundled(),
    );
    panic!("the board stopped: {served:?}");
}

struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    /// Starts the child server on `data`; a refusal of the directory's lock (the killed
    /// server's lock is released by the kernel at once, so none is expected) fails.
    fn start(data: &Path) -> Server {
        let mut child = Command::new(std::env::current_exe().expect("test binary"))
            .args(["--exact", "child_server", "--nocapture", "--test-threads=1"])
            .env(CHILD, data)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("child server starts");
        let stdout = child.stdout.take().expect("stdout");
        // The harness of the child writes its own words first (`test child_server ...`
        // without a newline): the address is found inside the line. Read on a thread so
        // a child that never prints fails the test instead of hanging it.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(at) = line.find("board at http://") {
                    let url = &line[at + "board at http://".len()..];
                    let _ = tx.send(url.trim().trim_end_matches('/').to_string());
                }
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the child prints its address")
            .parse()
            .expect("address");
        Server { child, addr }
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_kill_9() {
    if std::env::var(CHILD).is_ok() {
        return;
    }
    let data = temp_dir("crash");
    let mut server = Server::start(&data);
    let board = Board::at(server.addr);
    // Amazons at 8x8 lists its moves and lasts long enough for several kills.
    let created = board.create("amazons:size=8", ["human", "human"]).await;
    let id = created["id"].as_u64().expect("id");
    let toks = tokens(&created);
    let both = [toks[0].as_str(), toks[1].as_str()];
    let mut acknowledged: Vec<String> = Vec::new();
    for kill in 0..4 {
        let board = Board::at(server.addr);
        let mut page: Page = board.socket().await;
        let mut state: Value = page.open(id, &both).await;
        assert_eq!(
            state["moves"],
            json!(acknowledged),
            "after kill {kill}: every acknowledged move, nothing else"
        );
        for _ in 0..6 {
            if !state["view"]["outcome"].is_null() {
                break;
            }
            let mv = state["legal"][0]["text"]
                .as_str()
                .expect("a move")
                .to_string();
            page.play(&mv).await;
            state = page.state_with(acknowledged.len() + 1, 10).await;
            acknowledged.push(mv);
        }
        // One more move in flight when the server dies: it may or may not have been
        // saved, but it was never acknowledged, so the next check allows it only if the
        // restart shows it.
        if let Some(mv) = state["legal"][0]["text"].as_str() {
            page.play(mv).await;
        }
        server.kill();
        server = Server::start(&data);
        let board = Board::at(server.addr);
        let mut check = board.socket().await;
        let after = check.open(id, &[]).await;
        let moves: Vec<String> = serde_json::from_value(after["moves"].clone()).expect("moves");
        assert!(
            moves.starts_with(&acknowledged) && moves.len() <= acknowledged.len() + 1,
            "kill {kill}: {moves:?} against {acknowledged:?}"
        );
        acknowledged = moves;
    }
    eprintln!(
        "web crash test: 4 kills, {} acknowledged moves, none lost",
        acknowledged.len()
    );
    // The files stay private through it all.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode(&data), 0o700);
    assert_eq!(mode(&data.join(format!("{id}.save"))), 0o600);
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
