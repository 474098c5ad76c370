//! The `connect-four` binary's `web` command: the browser board serves Connect Four, a game
//! registered with `Registry::with`, beside the bundled games, as a real process.
//!
//! The browser test needs chromedriver at `WEBDRIVER_URL` (default
//! `http://127.0.0.1:9515`) and Debian's `chromium`, as `crates/web/tests/browser.rs`:
//!
//! ```sh
//! chromedriver --port=9515 &
//! cargo test -p connect-four --features browser-tests --test web
//! ```
//!
//! The `web` command exists only with the crate's `web` feature (`browser-tests` turns it on).
#![cfg(feature = "web")]

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    process::{Child, Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_connect-four");

/// The longest any one wait may take here.
const CAP: Duration = Duration::from_secs(60);

/// `connect-four web` on a free loopback port, in memory; killed when dropped.
struct Board {
    child: Child,
    /// `127.0.0.1:PORT`.
    addr: String,
}

impl Board {
    fn start() -> Board {
        let mut child = Command::new(BIN)
            .args(["web", "--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the first line");
        let addr = line
            .trim()
            .strip_prefix("board at http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not the board's address: {line:?}"))
            .to_string();
        Board { child, addr }
    }

    /// The JSON answer to one HTTP request (the board answers with a length, then closes).
    fn request(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        stream.set_read_timeout(Some(CAP)).expect("timeout");
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
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

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_board_offers_connect_four_and_its_engines_play_it_to_the_end() {
    let board = Board::start();
    let games = board.request("GET", "/api/games", None);
    let ids: Vec<&str> = games
        .as_array()
        .expect("a list")
        .iter()
        .map(|g| g["id"].as_str().expect("an id"))
        .collect();
    assert_eq!(
        ids,
        [
            "fourshift",
            "clamp",
            "amazons",
            "gomoku",
            "connect6",
            "connect4"
        ],
        "the bundled games, then the registered one"
    );
    let created = board.request(
        "POST",
        "/api/games",
        Some(json!({ "spec": "connect4", "seats": ["random", "baseline"] })),
    );
    let id = created["id"].as_u64().expect("a game id");
    let deadline = Instant::now() + CAP;
    let state = loop {
        let state = board.request("GET", &format!("/api/games/{id}"), None);
        if !state["view"]["outcome"].is_null() {
            break state;
        }
        assert!(Instant::now() < deadline, "not over in {CAP:?}: {state}");
        thread::sleep(Duration::from_millis(50));
    };
    let moves = state["moves"].as_array().expect("moves");
    assert!((7..=42).contains(&moves.len()), "{moves:?}");
    assert_eq!(
        (
            state["view"]["width"].clone(),
            state["view"]["height"].clone()
        ),
        (json!(7), json!(6))
    );
    // The board holds one stone per move.
    let stones = state["view"]["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .filter(|c| !c.is_null())
        .count();
    assert_eq!(stones, moves.len());
}

/// Two people at one page play Connect Four to a win by clicking the squares where their
/// stones land (the targets the page draws from the squares of the listed moves).
#[cfg(feature = "browser-tests")]
#[tokio::test(flavor = "multi_thread")]
async fn two_people_play_connect_four_to_a_win_on_the_page() {
    use fantoccini::{ClientBuilder, Locator};

    let board = Board::start();
    let profile = std::env::temp_dir().join(format!("connect-four-web-{}", std::process::id()));
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
    let c = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&url)
        .await
        .unwrap_or_else(|e| panic!("no browser through chromedriver at {url}: {e}"));
    let wait_for = async |expr: &str, what: &str| {
        let deadline = Instant::now() + CAP;
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
    };
    c.goto(&format!("http://{}/", board.addr))
        .await
        .expect("page");
    wait_for(
        "document.querySelector(\"#game-select option[value='connect4']\")",
        "Connect Four in the game table",
    )
    .await;
    c.find(Locator::Css("#new-btn"))
        .await
        .expect("new")
        .click()
        .await
        .expect("click");
    c.find(Locator::Css("#game-select"))
        .await
        .expect("select")
        .select_by_value("connect4")
        .await
        .expect("connect4");
    for seat in ["#seat0", "#seat1"] {
        c.find(Locator::Css(seat))
            .await
            .expect("seat")
            .select_by_value("human")
            .await
            .expect("human");
    }
    c.find(Locator::Css("#start"))
        .await
        .expect("start")
        .click()
        .await
        .expect("click");
    wait_for(
        "app.state && app.state.game === 'connect4' && !document.getElementById('play').hidden",
        "the new game",
    )
    .await;
    // First drops into a four times, Second into b three times: a1-a4 wins. Each stone is
    // clicked where it lands, the one square the server names for that column's move
    // (whatever the move's notation).
    let drops = [
        ("a1", 0),
        ("b1", 1),
        ("a2", 7),
        ("b2", 8),
        ("a3", 14),
        ("b3", 15),
        ("a4", 21),
    ];
    for (i, (square, index)) in drops.into_iter().enumerate() {
        wait_for(
            &format!(
                "app.state.your_turn && app.state.legal.some(m => \
                 m.squares.length === 1 && m.squares[0] === {index})"
            ),
            &format!("a move listed as landing on {square}"),
        )
        .await;
        c.find(Locator::Css(&format!("#board rect[data-sq='{square}']")))
            .await
            .expect("square")
            .click()
            .await
            .expect("click");
        wait_for(
            &format!(
                "document.querySelectorAll('#moves li').length === {}",
                i + 2
            ),
            &format!("{} moves in the list", i + 1),
        )
        .await;
    }
    wait_for(
        "!document.getElementById('banner').hidden",
        "the winner banner",
    )
    .await;
    let banner = c
        .find(Locator::Css("#banner"))
        .await
        .expect("banner")
        .text()
        .await
        .expect("text");
    let names = c
        .execute("return app.state.names[0];", vec![])
        .await
        .expect("names");
    let first = names.as_str().expect("a name");
    assert!(banner.starts_with(&format!("{first} wins")), "{banner}");
    let stones = c
        .execute(
            "return app.state.view.cells.map((c, i) => c ? i + ':' + c.owner : '')\
             .filter(x => x).join(' ');",
            vec![],
        )
        .await
        .expect("cells");
    assert_eq!(stones, json!("0:0 1:1 7:0 8:1 14:0 15:1 21:0"));
    c.close().await.expect("close");
    let _ = std::fs::remove_dir_all(&profile);
}
