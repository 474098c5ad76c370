//! One `boardlab serve --listen --web` process, one player in headless Chromium on its
//! page and one in the `boardlab connect` binary driven through its stdin and stdout as a
//! person types: a fourshift game played to the page's win. The page draws its targets
//! from the squares the server lists with each legal move.
//!
//! Needs chromedriver at `WEBDRIVER_URL` (default `http://127.0.0.1:9515`) and Debian's
//! `chromium`, as `crates/web/tests/browser.rs`:
//!
//! ```sh
//! chromedriver --port=9515 &
//! cargo test -p boardlab --features browser-tests --test serve_doors_browser
//! ```
#![cfg(feature = "browser-tests")]

mod doors_common;

use std::{
    io::{BufRead, BufReader, Write},
    path::Path,
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{Receiver, channel},
    time::{Duration, Instant},
};

use doors_common::{BOARDLAB, Doors, WAIT, temp_dir};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// A `boardlab connect` process: its stdout and stderr lines (stderr prefixed `! `) in
/// the order read.
struct Connect {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Connect {
    fn start(addr: &str, tokens: &Path) -> Connect {
        let mut child = Command::new(BOARDLAB)
            .args(["connect", addr, "--no-color", "--tokens"])
            .arg(tokens)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the client starts");
        let (tx, lines) = channel();
        let (out, err) = (
            child.stdout.take().expect("stdout"),
            child.stderr.take().expect("stderr"),
        );
        let tx_err = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx_err.send(format!("! {line}"));
            }
        });
        let stdin = child.stdin.take().expect("stdin");
        Connect {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Types `line` as a person would.
    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to the client");
        self.stdin.flush().expect("flush");
    }

    /// Reads lines up to the first that contains `needle` (that one included).
    fn until(&mut self, needle: &str) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!("no line with '{needle}' within {WAIT:?}; read: {got:#?}")
            });
            self.seen.push(line.clone());
            got.push(line.clone());
            if line.contains(needle) {
                return got;
            }
        }
    }
}

impl Drop for Connect {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh headless Chromium with its own profile.
async fn browser(profile: &Path) -> Client {
    let url = std::env::var("WEBDRIVER_URL").unwrap_or_else(|_| "http://127.0.0.1:9515".into());
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--window-size=1280,1000",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&url)
        .await
        .unwrap_or_else(|e| panic!("no browser through chromedriver at {url}: {e}"))
}

/// Polls the page until `expr` (JavaScript) is true.
async fn wait_for(c: &Client, expr: &str, what: &str) {
    let deadline = Instant::now() + WAIT;
    loop {
        let v = c.execute(&format!("return !!({expr});"), vec![]).await;
        if matches!(v, Ok(Value::Bool(true))) {
            return;
        }
        if Instant::now() > deadline {
            let message = c
                .execute(
                    "return document.getElementById('message').textContent;",
                    vec![],
                )
                .await;
            panic!("timed out waiting for {what} ({expr}); message: {message:?}");
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

async fn js(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return ({expr});"), vec![])
        .await
        .expect("script runs")
}

/// Clicks the board square `sq` (`c3`).
async fn square(c: &Client, sq: &str) {
    c.find(Locator::Css(&format!("#board rect[data-sq='{sq}']")))
        .await
        .unwrap_or_else(|e| panic!("{sq}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {sq}: {e}"));
}

/// The flat index (`a1` = 0, row by row) of `sq` on a board `width` wide.
fn index(sq: &str, width: usize) -> usize {
    let column = usize::from(sq.as_bytes()[0] - b'a');
    let row: usize = sq[1..].parse().expect("a row");
    (row - 1) * width + column
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_and_the_connect_binary_finish_a_game_through_one_serve_process() {
    let dir = temp_dir("browser");
    let doors = Doors::start(&dir.join("data"));
    let created = doors.request(
        "POST",
        "/api/games",
        &json!({ "spec": "fourshift", "seats": ["human", "free"] }),
    );
    let id = created["id"].as_u64().expect("an id");
    let page_token = created["tokens"][0].as_str().expect("the page's token");
    // The second seat: a person at `boardlab connect`, typing.
    let mut person = Connect::start(&doors.line, &dir.join("tokens"));
    person.send(&format!("join {id} second"));
    person.until(&format!("you play the second seat in game {id}"));
    let c = browser(&dir.join("profile")).await;
    c.goto(&format!("http://{}/#game={id}&t={page_token}", doors.board))
        .await
        .expect("page");
    wait_for(
        &c,
        "app.state && app.state.game === 'fourshift' && !document.getElementById('play').hidden",
        "the game on the page",
    )
    .await;
    // Eight placements each, Black (the page) first; then Black's shift d2-d1 makes
    // a1 b1 c1 d1.
    let placements = [
        "a1", "f1", "b1", "f2", "c1", "a6", "d2", "c6", "a3", "e6", "c3", "f4", "e4", "d4", "b5",
        "b4",
    ];
    for (ply, pair) in placements.chunks(2).enumerate() {
        let (mine, theirs) = (pair[0], pair[1]);
        // The page's move: a square the server listed as a legal move's square.
        wait_for(
            &c,
            &format!(
                "app.state.your_turn && app.state.moves.length === {} && \
                 app.state.legal.some(m => m.squares.length === 1 && m.squares[0] === {})",
                2 * ply,
                index(mine, 6)
            ),
            &format!("{mine} listed as a legal move's square"),
        )
        .await;
        square(&c, mine).await;
        // The person sees it drawn and types the answer on their turn.
        person.until("your turn");
        person.send(theirs);
        person.until(&format!(" {theirs}"));
    }
    // The shift: the page shows d2's targets from the squares of the server's moves.
    wait_for(
        &c,
        "app.state.your_turn && app.state.moves.length === 16",
        "Black to shift",
    )
    .await;
    square(&c, "d2").await;
    wait_for(
        &c,
        "document.querySelector(\"circle[data-target='d1']\")",
        "d1 as a target",
    )
    .await;
    let targets = js(
        &c,
        "[...document.querySelectorAll('circle[data-target]')].map(e => e.dataset.target)\
         .sort().join(' ')",
    )
    .await;
    assert_eq!(targets, "c2 d1 d3 e2");
    // Those targets are exactly the destinations of the server's moves from d2.
    let listed = js(
        &c,
        &format!(
            "app.state.legal.filter(m => m.squares.length === 2 && m.squares[0] === {})\
             .map(m => m.squares[1]).sort((a, b) => a - b).join(' ')",
            index("d2", 6)
        ),
    )
    .await;
    let mut expected: Vec<usize> = ["c2", "d1", "d3", "e2"]
        .iter()
        .map(|s| index(s, 6))
        .collect();
    expected.sort();
    let expected: Vec<String> = expected.iter().map(usize::to_string).collect();
    assert_eq!(listed, json!(expected.join(" ")));
    square(&c, "d1").await;
    wait_for(
        &c,
        "app.state.view.outcome && app.state.view.outcome.winner === 0",
        "the page's win",
    )
    .await;
    let end = person.until(&format!("game {id} is over"));
    assert!(
        end.last()
            .is_some_and(|l| l.contains("you lose") && l.contains("wins")),
        "{end:?}"
    );
    person.send("quit");
    person.until("bye");
    c.close().await.expect("close");
    drop(doors);
    let _ = std::fs::remove_dir_all(&dir);
}
