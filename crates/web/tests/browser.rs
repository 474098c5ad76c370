//! The board in a real browser: headless Chromium driven over chromedriver (fantoccini).
//!
//! Needs chromedriver listening at `WEBDRIVER_URL` (default `http://127.0.0.1:9515`) and
//! Debian's `chromium`; `.ci/run` installs both and runs this in its own step:
//!
//! ```sh
//! chromedriver --port=9515 &
//! cargo test -p boardlab-web --features browser-tests --test browser -- --nocapture
//! ```
//!
//! Without a browser this test fails (it never skips). It also writes the screenshots of
//! `docs/web.md` into `docs/web/`.

#![cfg(feature = "browser-tests")]

mod support;

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use support::{Board, LinePlayer, ThreadedBoard, line_door, temp_dir};

/// A fresh headless Chromium with its own profile (so two of them are two separate
/// people) that saves downloads into `downloads`.
async fn browser(profile: &Path, downloads: &Path) -> Client {
    browser_with(profile, downloads, &[]).await
}

/// [`browser`] with more command-line flags (`--force-dark-mode`).
async fn browser_with(profile: &Path, downloads: &Path, extra: &[&str]) -> Client {
    let url = std::env::var("WEBDRIVER_URL").unwrap_or_else(|_| "http://127.0.0.1:9515".into());
    let mut caps = serde_json::Map::new();
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1000",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    args.extend(extra.iter().map(|a| a.to_string()));
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
            "args": args,
            "prefs": {
                "download.default_directory": downloads.display().to_string(),
                "download.prompt_for_download": false,
            },
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&url)
        .await
        .unwrap_or_else(|e| {
            panic!(
                "no browser: cannot start Chromium through chromedriver at {url} ({e}); \
                 install chromium and chromium-driver and start `chromedriver --port=9515`"
            )
        })
}

/// Polls the page until `expr` (JavaScript) is true.
async fn wait_for(c: &Client, expr: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let v = c
            .execute(&format!("return !!({expr});"), vec![])
            .await
            .unwrap_or(Value::Bool(false));
        if v == Value::Bool(true) {
            return;
        }
        if Instant::now() > deadline {
            let msg = js(c, "document.getElementById('message').textContent").await;
            if let Ok(png) = c.screenshot().await {
                let _ = std::fs::write(
                    std::env::temp_dir().join("boardlab-browser-failure.png"),
                    png,
                );
            }
            let dump = js(c, "JSON.stringify({hash: location.hash, sel: app.sel, your: app.state && app.state.your_turn, moves: app.state && app.state.moves})").await;
            eprintln!("page: {dump}");
            panic!("timed out waiting for {what} ({expr}); message: {msg}");
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

async fn js(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return ({expr});"), vec![])
        .await
        .expect("script runs")
}

async fn text_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .expect("text")
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Clicks the board square `sq` (`c3`).
async fn square(c: &Client, sq: &str) {
    click(c, &format!("#board rect[data-sq='{sq}']")).await;
}

async fn move_count(c: &Client) -> usize {
    // The list holds "start" and one item per move.
    js(c, "document.querySelectorAll('#moves li').length")
        .await
        .as_u64()
        .expect("count") as usize
        - 1
}

async fn wait_moves(c: &Client, n: usize) {
    wait_for(
        c,
        &format!(
            "document.querySelectorAll('#moves li').length === {}",
            n + 1
        ),
        &format!("{n} moves in the list"),
    )
    .await;
}

/// Starts a game from the new-game form.
async fn new_game(c: &Client, base: &str, game: &str, options: &[(&str, &str)], seats: [&str; 2]) {
    new_timed_game(c, base, game, options, seats, "").await;
}

/// [`new_game`] under the time control `time` (typed into the form; empty: none).
async fn new_timed_game(
    c: &Client,
    base: &str,
    game: &str,
    options: &[(&str, &str)],
    seats: [&str; 2],
    time: &str,
) {
    c.goto(base).await.expect("page");
    wait_for(
        c,
        "document.querySelectorAll('#game-select option').length > 0",
        "the game table",
    )
    .await;
    click(c, "#new-btn").await;
    c.find(Locator::Css("#game-select"))
        .await
        .expect("select")
        .select_by_value(game)
        .await
        .expect("game");
    for (key, value) in options {
        let input = c
            .find(Locator::Css(&format!("#opt-{key}")))
            .await
            .expect("option");
        input.clear().await.expect("clear");
        input.send_keys(value).await.expect("type");
    }
    for (i, s) in seats.iter().enumerate() {
        c.find(Locator::Css(&format!("#seat{i}")))
            .await
            .expect("seat")
            .select_by_value(s)
            .await
            .expect("seat value");
    }
    if !time.is_empty() {
        let input = c
            .find(Locator::Css("#time-control"))
            .await
            .expect("time control");
        input.clear().await.expect("clear");
        input.send_keys(time).await.expect("type");
    }
    let before = c.current_url().await.expect("url").to_string();
    click(c, "#start").await;
    wait_for(
        c,
        &format!(
            "location.href !== {} && app.state && !document.getElementById('play').hidden",
            json!(before)
        ),
        "the new game",
    )
    .await;
}

/// Clocks run out on a person who never moves and on an engine seat whose fixed think
/// is longer than its time per move: the host flags both (nothing is injected), and the
/// banner says who lost on time.
async fn clocks_run_out(c: &Client, base: &str) {
    // Two people at one screen, two seconds each, nobody moves.
    new_timed_game(c, base, "gomoku", &[], ["human", "human"], "2s").await;
    wait_for(
        c,
        "!document.getElementById('clocks').hidden && app.state.clock.control === '2s'",
        "the clocks",
    )
    .await;
    let started = Instant::now();
    let shown = text_of(c, "#clock0").await;
    assert!(shown.contains("Black") && shown.contains("0:0"), "{shown}");
    // Counting down locally between the server's states.
    wait_for(
        c,
        "document.getElementById('clock0').textContent.includes('0:01.')",
        "Black's clock counting down",
    )
    .await;
    wait_for(
        c,
        "!document.getElementById('banner').hidden && document.getElementById('banner').textContent.includes('lost on time')",
        "the loss on time",
    )
    .await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "flagged within the clock and a tick"
    );
    assert_eq!(
        text_of(c, "#banner").await,
        "White wins — Black lost on time"
    );
    assert_eq!(move_count(c).await, 0, "nobody moved");
    assert!(text_of(c, "#clock0").await.ends_with("0:00.0"));
    assert_eq!(js(c, "app.state.clock.running").await, Value::Null);
    screenshot(c, "clock-flag").await;

    // The article's amazons baseline searches a fixed depth whatever its clock: its
    // first move (some 2,000 moves, each answered) takes a good part of a second, longer
    // than a tenth of a second a move.
    new_timed_game(c, base, "amazons", &[], ["baseline", "human"], "100ms/move").await;
    wait_for(
        c,
        "!document.getElementById('banner').hidden && document.getElementById('banner').textContent.includes('lost on time')",
        "the engine's loss on time",
    )
    .await;
    let names = js(c, "app.state.names").await;
    assert_eq!(
        text_of(c, "#banner").await,
        format!(
            "{} wins — {} lost on time",
            names[1].as_str().expect("name"),
            names[0].as_str().expect("name")
        )
    );
    assert_eq!(
        move_count(c).await,
        0,
        "the engine's late move is not played"
    );
    assert_eq!(js(c, "app.state.seats[0].kind").await, "engine");
}

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/web")
}

async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::create_dir_all(docs_dir()).expect("docs/web");
    std::fs::write(docs_dir().join(format!("{name}.png")), png).expect("write screenshot");
}

/// A whole fourshift game by clicks, two people at one board: sixteen placements, then
/// Black's shift d2-d1 makes a1-b1-c1-d1. On the way, a click on an occupied square;
/// at the end, undo back to the start.
async fn fourshift_by_clicks(c: &Client, base: &str) {
    new_game(c, base, "fourshift", &[], ["human", "human"]).await;
    let placements = [
        "a1", "f1", "b1", "f2", "c1", "a6", "d2", "c6", "a3", "e6", "c3", "f4", "e4", "d4", "b5",
        "b4",
    ];
    for (i, sq) in placements.iter().enumerate() {
        square(c, sq).await;
        wait_moves(c, i + 1).await;
        if i == 2 {
            // White clicks Black's a1: the rules' reason, nothing changes.
            square(c, "a1").await;
            wait_for(
                c,
                "document.getElementById('message').textContent.includes('a1 is occupied')",
                "the reason",
            )
            .await;
            assert_eq!(move_count(c).await, 3);
        }
    }
    assert!(text_of(c, "#status").await.contains("phase: moving"));
    // The shift: the piece, its legal targets shown, then the target.
    square(c, "d2").await;
    wait_for(
        c,
        "document.querySelector(\"circle[data-target='d1']\")",
        "d1 as a target",
    )
    .await;
    let targets = js(c, "[...document.querySelectorAll('circle[data-target]')].map(e => e.dataset.target).sort().join(' ')").await;
    assert_eq!(targets, "c2 d1 d3 e2");
    square(c, "d1").await;
    wait_moves(c, 17).await;
    wait_for(
        c,
        "!document.getElementById('banner').hidden",
        "the winner banner",
    )
    .await;
    let banner = text_of(c, "#banner").await;
    assert!(banner.starts_with("Black wins"), "{banner}");
    assert!(
        banner.contains("four in a row") || banner.contains("a1"),
        "{banner}"
    );
    assert_eq!(
        js(c, "document.querySelectorAll('#board .winline').length").await,
        1
    );
    screenshot(c, "fourshift").await;
    // Undo back to the start (two people here: one move each time).
    for n in (0..17).rev() {
        click(c, "#undo-btn").await;
        wait_moves(c, n).await;
    }
    assert_eq!(
        js(
            c,
            "document.querySelectorAll('#board circle[data-piece]').length"
        )
        .await,
        0
    );
    assert_eq!(
        js(c, "document.getElementById('undo-btn').disabled").await,
        true
    );
    // Redo brings the first move back.
    click(c, "#redo-btn").await;
    wait_moves(c, 1).await;
}

/// Amazons: queen, target, arrow, with targets at each stage, backing out by clicking the
/// queen again and by Escape.
async fn amazons_three_clicks(c: &Client, base: &str) {
    new_game(c, base, "amazons", &[], ["human", "human"]).await;
    square(c, "d1").await;
    wait_for(
        c,
        "document.querySelector(\"circle[data-target='d7']\")",
        "queen targets",
    )
    .await;
    square(c, "d1").await;
    wait_for(
        c,
        "app.sel.length === 0 && !document.querySelector(\"circle[data-target='d7']\")",
        "backed out",
    )
    .await;
    // The targets come from the squares the server sends with each legal move, never
    // from its text: a state whose only move says d1-d7/g7 but names d1, d8, g7 must
    // draw its target on d8 (a page that parsed the notation would draw d7).
    js(
        c,
        "(window.savedState = app.state, onMessage({ ...app.state, type: 'state', \
         legal: [{ text: 'd1-d7/g7', squares: [3, 73, 66] }] }), true)",
    )
    .await;
    square(c, "d1").await;
    wait_for(
        c,
        "document.querySelector(\"circle[data-target='d8']\") && \
         !document.querySelector(\"circle[data-target='d7']\")",
        "the target on the server's square",
    )
    .await;
    square(c, "d1").await;
    js(c, "(onMessage(window.savedState), true)").await;
    wait_for(c, "app.sel.length === 0", "the real state back").await;
    square(c, "g1").await;
    square(c, "g5").await;
    wait_for(c, "app.sel.length === 2", "the arrow stage").await;
    c.find(Locator::Css("#board"))
        .await
        .expect("board")
        .send_keys("\u{e00c}")
        .await
        .expect("Escape");
    wait_for(c, "app.sel.length === 1", "Escape backs out one stage").await;
    square(c, "g1").await;
    wait_for(c, "app.sel.length === 0", "backed out").await;
    square(c, "d1").await;
    square(c, "d7").await;
    wait_for(
        c,
        "document.querySelector(\"circle[data-target='g7']\")",
        "arrow targets",
    )
    .await;
    square(c, "g7").await;
    wait_moves(c, 1).await;
    assert_eq!(text_of(c, "#moves li:nth-child(2)").await, "1. d1-d7/g7");
    // A blocked queen: the rules' reason.
    square(c, "d10").await;
    square(c, "d6").await;
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('d10 cannot go to d6: d7 is in the way')",
        "the reason",
    )
    .await;
    assert_eq!(move_count(c).await, 1);
    screenshot(c, "amazons").await;
}

/// Connect6: the first move is one stone, then a pair is two clicks and a confirm.
async fn connect6_pair(c: &Client, base: &str) {
    new_game(c, base, "connect6", &[], ["human", "human"]).await;
    square(c, "j10").await;
    wait_moves(c, 1).await;
    assert!(text_of(c, "#turn").await.contains("place two stones"));
    square(c, "k11").await;
    square(c, "l12").await;
    wait_for(c, "!document.getElementById('pair-bar').hidden && !document.getElementById('pair-confirm').disabled", "the confirm").await;
    assert_eq!(move_count(c).await, 1, "a pair waits for its confirm");
    click(c, "#pair-confirm").await;
    wait_moves(c, 2).await;
    assert_eq!(text_of(c, "#moves li:nth-child(3)").await, "2. k11,l12");
    square(c, "k10").await;
    square(c, "j9").await;
    click(c, "#pair-confirm").await;
    wait_moves(c, 3).await;
    screenshot(c, "connect6").await;
}

/// Gomoku against the engine until it answers; then save, and load the saved file.
async fn gomoku_engine_save_load(c: &Client, base: &str, downloads: &Path) {
    new_game(c, base, "gomoku", &[], ["human", "engine:100"]).await;
    square(c, "h8").await;
    wait_moves(c, 2).await;
    wait_for(
        c,
        "document.getElementById('engine').textContent.includes('played')",
        "the engine's PV",
    )
    .await;
    assert!(text_of(c, "#engine").await.contains("pv "));
    square(c, "a1").await;
    wait_moves(c, 4).await;
    click(c, "#hint-btn").await;
    wait_for(
        c,
        "document.querySelector('#board .hint')",
        "the hint on the board",
    )
    .await;
    screenshot(c, "gomoku").await;
    let moves = js(c, "app.state.moves.join(' ')").await;
    // Save: the browser downloads the save file.
    click(c, "#save-btn").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let saved = loop {
        let found = std::fs::read_dir(downloads)
            .expect("downloads")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "save"));
        if let Some(p) = found {
            break p;
        }
        assert!(
            Instant::now() < deadline,
            "no download in {}",
            downloads.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let text = std::fs::read_to_string(&saved).expect("saved file");
    assert!(text.starts_with("boardlab-save 1\ngame gomoku"), "{text}");
    // Load it: a new game with the same moves.
    let id = js(c, "app.game").await;
    c.find(Locator::Css("#load-file"))
        .await
        .expect("file input")
        .send_keys(&saved.display().to_string())
        .await
        .expect("upload");
    wait_for(
        c,
        &format!("app.game !== {id} && app.state && app.state.id !== {id}"),
        "the loaded game",
    )
    .await;
    assert_eq!(js(c, "app.state.moves.join(' ')").await, moves);
    // A bad file: the first bad line and its reason, nothing loaded.
    let bad = downloads.join("bad.txt");
    std::fs::write(&bad, "boardlab-save 1\ngame gomoku\nh8\nh8\n").expect("bad file");
    let id = js(c, "app.game").await;
    c.find(Locator::Css("#load-file"))
        .await
        .expect("file input")
        .send_keys(&bad.display().to_string())
        .await
        .expect("upload");
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('line 4')",
        "the bad line",
    )
    .await;
    assert!(text_of(c, "#message").await.contains("h8 is occupied"));
    assert_eq!(js(c, "app.game").await, id);
}

/// Clamp: drop zones shaded; a step by clicks.
async fn clamp_step(c: &Client, base: &str) {
    new_game(c, base, "clamp", &[], ["human", "human"]).await;
    assert_eq!(
        js(c, "document.querySelectorAll('#board .zone0').length").await,
        24
    );
    square(c, "c6").await;
    wait_for(
        c,
        "document.querySelector(\"circle[data-target='c4']\")",
        "step targets",
    )
    .await;
    square(c, "c4").await;
    wait_moves(c, 1).await;
    square(c, "d3").await;
    square(c, "d5").await;
    wait_moves(c, 2).await;
    screenshot(c, "clamp").await;
}

/// The form checks ranges on the page and shows the server's refusal.
async fn new_game_form_errors(c: &Client, base: &str) {
    c.goto(base).await.expect("page");
    wait_for(
        c,
        "document.querySelectorAll('#game-select option').length > 0",
        "the game table",
    )
    .await;
    click(c, "#new-btn").await;
    c.find(Locator::Css("#game-select"))
        .await
        .expect("select")
        .select_by_value("gomoku")
        .await
        .expect("gomoku");
    let size = c.find(Locator::Css("#opt-size")).await.expect("size");
    assert!(text_of(c, "#options").await.contains("5 to 26"));
    size.clear().await.expect("clear");
    size.send_keys("40").await.expect("type");
    click(c, "#start").await;
    wait_for(
        c,
        "document.getElementById('setup-error').textContent.includes('out of range')",
        "the range error",
    )
    .await;
    c.find(Locator::Css("#game-select"))
        .await
        .expect("select")
        .select_by_value("fourshift")
        .await
        .expect("fourshift");
    let k = c.find(Locator::Css("#opt-k")).await.expect("k");
    k.clear().await.expect("clear");
    k.send_keys("9").await.expect("type");
    click(c, "#start").await;
    // k=9 passes the page's static bound (2 to 26) but not the rules (k <= size=6).
    wait_for(
        c,
        "document.getElementById('setup-error').textContent.includes('at most size=6')",
        "the server's error",
    )
    .await;
}

/// The game controls under `#play` that a person can see (their ids or tags): none may
/// show while the new-game form is up.
const VISIBLE_CONTROLS: &str = "[...document.querySelectorAll('#play button, #play input, #play select, #play a, #play svg, #play form')].filter(e => e.getClientRects().length > 0 && !e.disabled).map(e => e.id || e.tagName).join(' ')";

/// A first visit shows the form and nothing of a game; New game mid-game closes the
/// game's panel (nothing under the form plays on it), and "Back to the game" reopens it.
async fn no_ghost_controls(c: &Client, base: &str) {
    c.goto(base).await.expect("page");
    wait_for(
        c,
        "document.querySelectorAll('#game-select option').length > 0",
        "the game table",
    )
    .await;
    assert_eq!(js(c, VISIBLE_CONTROLS).await, "", "a first visit");
    assert_eq!(
        js(c, "document.getElementById('setup').hidden").await,
        false
    );
    new_game(c, base, "fourshift", &[], ["human", "human"]).await;
    square(c, "c3").await;
    wait_moves(c, 1).await;
    let id = js(c, "app.game").await;
    click(c, "#new-btn").await;
    wait_for(c, "!document.getElementById('setup').hidden", "the form").await;
    assert_eq!(js(c, VISIBLE_CONTROLS).await, "", "New game mid-game");
    assert_eq!(
        js(c, "app.ws === null && app.state === null && !location.hash").await,
        true
    );
    // Keys reach no game either.
    c.find(Locator::Css("body"))
        .await
        .expect("body")
        .send_keys("\u{e007}")
        .await
        .expect("Enter");
    click(c, "#back-btn").await;
    wait_for(
        c,
        &format!("app.state && app.state.id === {id}"),
        "the game again",
    )
    .await;
    assert_eq!(move_count(c).await, 1);
}

/// The page sends only texts the server named: the listed move whose squares were
/// clicked (a state whose move is written `Q!` is sent as `Q!`, which no page building
/// notation from squares would write), and for gomoku the text of the server's `pick`.
async fn the_page_never_writes_notation(c: &Client, base: &str) {
    new_game(c, base, "fourshift", &[], ["human", "human"]).await;
    js(
        c,
        "(window.sent = [], window.picked = [], \
          app.ws.send = ((send) => function (m) { window.sent.push(JSON.parse(m)); return send.call(this, m); })(app.ws.send), \
          true)",
    )
    .await;
    js(
        c,
        "(onMessage({ ...app.state, type: 'state', legal: [{ text: 'Q!', squares: [14] }] }), true)",
    )
    .await;
    square(c, "c3").await;
    wait_for(c, "window.sent.length === 1", "the move sent").await;
    assert_eq!(js(c, "window.sent[0].move").await, "Q!");
    // The server refuses it; the real state comes back with the next move.
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('Q!')",
        "the server's refusal",
    )
    .await;
    new_game(c, base, "gomoku", &[], ["human", "human"]).await;
    js(
        c,
        "(window.sent = [], window.picked = [], \
          app.ws.send = ((send) => function (m) { window.sent.push(JSON.parse(m)); return send.call(this, m); })(app.ws.send), \
          window.fetch = ((f) => async (...a) => { const r = await f(...a); \
            if (String(a[0]).endsWith('/pick')) window.picked.push(await r.clone().json()); return r; })(window.fetch), \
          true)",
    )
    .await;
    square(c, "h8").await;
    wait_moves(c, 1).await;
    assert_eq!(js(c, "window.picked.length").await, 1);
    assert_eq!(
        js(
            c,
            "window.sent[0].move === window.picked[0].text && window.picked[0].text === 'h8'"
        )
        .await,
        true
    );
    // An occupied point: the server's reason, nothing sent.
    square(c, "h8").await;
    wait_for(
        c,
        "document.getElementById('message').textContent === 'h8 is occupied'",
        "the reason",
    )
    .await;
    assert_eq!(js(c, "window.sent.length").await, 1);
}

/// Messages say what applies now: the opponent's piece in fourshift's moving phase, a
/// stale message cleared on going back to the game, the keyboard cursor only after keys.
async fn messages_and_cursor(c: &Client, base: &str) {
    new_game(c, base, "fourshift", &[], ["human", "human"]).await;
    for (i, sq) in [
        "a1", "f1", "b1", "f2", "c1", "a6", "d2", "c6", "a3", "e6", "c3", "f4", "e4", "d4", "b5",
        "b4",
    ]
    .iter()
    .enumerate()
    {
        square(c, sq).await;
        wait_moves(c, i + 1).await;
    }
    square(c, "f1").await;
    wait_for(
        c,
        "document.getElementById('message').textContent === \"f1 holds White's piece: Black moves one of its own\"",
        "the opponent's piece",
    )
    .await;
    click(c, "#moves button[data-ply='3']").await;
    wait_for(c, "app.replay && app.replay.ply === 3", "the replay").await;
    square(c, "a1").await;
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('earlier position')",
        "the replay's message",
    )
    .await;
    click(c, "#live-btn").await;
    wait_for(
        c,
        "!app.replay && document.getElementById('message').textContent === ''",
        "the message cleared",
    )
    .await;
    // A click shows no cursor; an arrow key does, under the last move's outline.
    square(c, "e1").await;
    assert_eq!(
        js(c, "document.querySelectorAll('#board .cursor').length").await,
        0
    );
    c.find(Locator::Css("#board"))
        .await
        .expect("board")
        .send_keys("\u{e014}")
        .await
        .expect("ArrowRight");
    wait_for(c, "document.querySelector('#board .cursor')", "the cursor").await;
    assert_eq!(
        js(c, "[...document.querySelectorAll('#board > *')].findIndex(e => e.classList.contains('cursor')) < [...document.querySelectorAll('#board > *')].findIndex(e => e.classList.contains('last'))").await,
        true,
        "the cursor is drawn under the last move's outline"
    );
    // A pass (a game of one's own may have them) shows as one, never as its notation.
    js(
        c,
        "(window.savedState = app.state, onMessage({ ...app.state, type: 'state', \
         view: { ...app.state.view, passes: [{ index: 15, player: 1 }] } }), true)",
    )
    .await;
    assert_eq!(
        text_of(c, "#moves button[data-ply='16']").await,
        "16. White passes"
    );
    assert!(
        text_of(c, "#status")
            .await
            .contains("last move: White passes")
    );
    js(c, "(onMessage(window.savedState), true)").await;
    assert_eq!(text_of(c, "#moves button[data-ply='16']").await, "16. b4");
    // During Amazons' arrow step the queen stands on its new square.
    new_game(c, base, "amazons", &[], ["human", "human"]).await;
    square(c, "d1").await;
    square(c, "d7").await;
    wait_for(c, "app.sel.length === 2", "the arrow step").await;
    let at = |sq: &str| {
        format!(
            "(() => {{ const r = document.querySelector(\"#board rect[data-sq='{sq}']\"); \
             const x = +r.getAttribute('x') + 20, y = +r.getAttribute('y') + 20; \
             return [...document.querySelectorAll('#board circle[data-piece]')].some(c => +c.getAttribute('cx') === x && +c.getAttribute('cy') === y); }})()"
        )
    };
    assert_eq!(js(c, &at("d7")).await, true, "the queen on d7");
    assert_eq!(js(c, &at("d1")).await, false, "nothing on d1");
}

/// A watcher's click says they are watching.
async fn watcher_click(c: &Client) {
    square(c, "a2").await;
    wait_for(
        c,
        "document.getElementById('message').textContent.startsWith('you are watching')",
        "the watcher's message",
    )
    .await;
}

/// SGF export then import gives the same game.
async fn sgf_round_trip(c: &Client, base: &str, downloads: &Path) {
    new_game(c, base, "gomoku", &[("size", "13")], ["human", "human"]).await;
    for (i, sq) in ["g7", "h8", "a1", "m13"].iter().enumerate() {
        square(c, sq).await;
        wait_moves(c, i + 1).await;
    }
    let moves = js(c, "app.state.moves.join(' ')").await;
    click(c, "#sgf-btn").await;
    let saved = wait_download(downloads, "sgf").await;
    let text = std::fs::read_to_string(&saved).expect("sgf");
    assert!(
        text.starts_with("(;FF[4]GM[4]") && text.contains("SZ[13]"),
        "{text}"
    );
    let id = js(c, "app.game").await;
    c.find(Locator::Css("#load-file"))
        .await
        .expect("file input")
        .send_keys(&saved.display().to_string())
        .await
        .expect("upload");
    wait_for(
        c,
        &format!("app.game !== {id} && app.state && app.state.id !== {id}"),
        "the imported game",
    )
    .await;
    assert_eq!(js(c, "app.state.moves.join(' ')").await, moves);
    assert_eq!(
        js(c, "app.state.spec").await,
        "gomoku:size=13,rule=freestyle"
    );
    // The image of the board and the move list as text.
    let svg = js(c, "boardImage()").await;
    let svg = svg.as_str().expect("svg");
    assert!(svg.starts_with("<svg") && svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(
        svg.contains("fill:") && !svg.contains("class="),
        "colours travel inline"
    );
    assert_eq!(
        js(c, "movesText()").await,
        "gomoku:size=13,rule=freestyle\n1. g7\n2. h8\n3. a1\n4. m13\n"
    );
}

/// Waits for a downloaded file ending in `.ext`.
async fn wait_download(downloads: &Path, ext: &str) -> PathBuf {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let found = std::fs::read_dir(downloads)
            .expect("downloads")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == ext));
        if let Some(p) = found {
            return p;
        }
        assert!(
            Instant::now() < deadline,
            "no .{ext} download in {}",
            downloads.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// At phone width a 19×19 board's squares measure at least 32 CSS px (the board scrolls
/// inside its column) and the page does not scroll sideways.
async fn phone_tap_targets(c: &Client, base: &str) {
    c.set_window_size(390, 844).await.expect("phone size");
    new_game(c, base, "connect6", &[], ["human", "human"]).await;
    let width = js(
        c,
        "document.querySelector(\"#board rect[data-sq='j10']\").getBoundingClientRect().width",
    )
    .await
    .as_f64()
    .expect("width");
    println!("19x19 tap target at 390 px: {width:.1} px");
    assert!(width >= 32.0, "a 19x19 square is {width} px wide");
    assert_eq!(
        js(
            c,
            "document.documentElement.scrollWidth <= window.innerWidth + 1"
        )
        .await,
        true,
        "no sideways scrolling of the page"
    );
    // The board's column scrolls; a tap on a square still plays it.
    square(c, "j10").await;
    wait_moves(c, 1).await;
    screenshot(c, "phone-connect6").await;
    c.set_window_size(1280, 1000).await.expect("desktop size");
}

/// Opens a game of a save file (both seats this page's) and returns its id.
async fn open_saved(c: &Client, base: &str, board: &support::Board, save: &str) -> u64 {
    let (status, body) = board
        .post_raw("/api/load", "text/plain", save.as_bytes().to_vec())
        .await;
    assert_eq!(status, 200, "{body}");
    let created: Value = serde_json::from_str(&body).expect("JSON");
    let id = created["id"].as_u64().expect("id");
    let tokens: Vec<String> = created["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .filter_map(|t| t.as_str().map(|t| format!("&t={t}")))
        .collect();
    c.goto(&format!("{base}?game={id}#game={id}{}", tokens.join("")))
        .await
        .expect("game page");
    wait_for(
        c,
        &format!("app.state && app.state.id === {id}"),
        "the saved game",
    )
    .await;
    id
}

/// Every game mid-play, light and dark, into docs/web/: `<game>-light.png` and
/// `<game>-dark.png`, each with a move under way where the game has one.
async fn screenshots(c: &Client, base: &str, board: &support::Board, scheme: &str) {
    let games: [(&str, &str, &[&str]); 5] = [
        (
            "fourshift",
            "a1 f1 b1 f2 c1 a6 d2 c6 a3 e6 c3 f4 e4 d4 b5 b4",
            &["d2"],
        ),
        ("clamp", "c6-c4 d3-d5 a8 a1 f6-f4", &["e3"]),
        ("amazons", "d1-d7/g7 d10-d8/b8 j4-f4/f7", &["a7", "a5"]),
        ("gomoku", "h8 i9 h9 h10 i8 g10 j10 j8 k9", &[]),
        ("connect6", "j10 k11,l12 k10,j9 l10,i10 m10,h10", &["k9"]),
    ];
    for (game, moves, clicks) in games {
        let save = format!(
            "boardlab-save 1\ngame {game}\n{}\n",
            moves.split(' ').collect::<Vec<_>>().join("\n")
        );
        open_saved(c, base, board, &save).await;
        for sq in clicks {
            square(c, sq).await;
        }
        wait_for(
            c,
            &format!("app.sel.length === {}", clicks.len()),
            "the move under way",
        )
        .await;
        // The board comes with the status: scroll nothing, the page's top is the shot.
        screenshot(c, &format!("{game}-{scheme}")).await;
    }
}

/// Click-to-redraw latency: from the pointer press on a square to the board drawn with
/// the move (the page's `app.renderedAt`), over `n` gomoku moves (a pick and a move: two
/// round trips). Returns the figures in ms, sorted.
async fn click_to_redraw(c: &Client, base: &str, n: usize) -> Vec<f64> {
    new_game(c, base, "gomoku", &[("size", "19")], ["human", "human"]).await;
    js(
        c,
        "(document.getElementById('board').addEventListener('pointerdown', () => { window.clickAt = performance.now(); }, true), true)",
    )
    .await;
    let mut ms = Vec::new();
    for k in 0..n {
        let col = (b'a' + (k % 19) as u8) as char;
        let row = 1 + 2 * (k / 19) + (k % 2);
        square(c, &format!("{col}{row}")).await;
        wait_moves(c, k + 1).await;
        let v = js(c, "app.renderedAt - window.clickAt").await;
        ms.push(v.as_f64().expect("ms"));
    }
    ms.sort_by(f64::total_cmp);
    ms
}

/// The page's own bytes as the browser loaded them (HTML, script, stylesheet).
async fn page_bytes(c: &Client) -> u64 {
    js(
        c,
        "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')) \
         .filter(e => /\\/(app\\.js|app\\.css)?(\\?.*)?$/.test(new URL(e.name).pathname + new URL(e.name).search)) \
         .reduce((n, e) => n + e.decodedBodySize, 0)",
    )
    .await
    .as_u64()
    .expect("bytes")
}

/// The page's player against a player of the line protocol (`boardlab connect`) on the
/// same host, as `boardlab serve --web` runs them: gomoku 7×7 played to the page's win,
/// each side seeing the other's moves.
async fn against_a_line_protocol_player(c: &Client) {
    let (table, _) = boardlab_web::Table::open(None).expect("in memory");
    let host = boardlab_web::Host::new(table);
    let board = Board::start_on(host.clone()).await;
    let mut line = LinePlayer::connect(line_door(host)).await;
    new_game(
        c,
        &board.url("/"),
        "gomoku",
        &[("size", "7")],
        ["human", "remote"],
    )
    .await;
    let link = js(c, "document.querySelector('.seat-link').value").await;
    let link = link.as_str().expect("seat link").to_string();
    let (_, hash) = link.split_once("#game=").expect("a game link");
    let (id, token) = hash.split_once("&t=").expect("a seat link");
    assert_eq!(
        line.ask(&format!("rejoin {id} {token}")).await,
        format!("ok rejoined {id} second")
    );
    for (i, (mine, theirs)) in [("a1", "a2"), ("b1", "b2"), ("c1", "c2"), ("d1", "d2")]
        .into_iter()
        .enumerate()
    {
        square(c, mine).await;
        line.pushed_starting(&format!("update {id} {} {mine}", 2 * i + 1), 10)
            .await;
        assert_eq!(
            line.ask(&format!("move {id} {token} {theirs}")).await,
            format!("ok moved {id} {} {theirs}", 2 * i + 2)
        );
        wait_moves(c, 2 * i + 2).await;
    }
    square(c, "e1").await;
    let over = line.pushed_starting(&format!("update {id} 9 e1"), 10).await;
    assert!(over.contains(" over "), "{over}");
    wait_for(
        c,
        "app.state && app.state.view.outcome && app.state.view.outcome.winner === 0",
        "the page's win",
    )
    .await;
    board.stop();
}

/// Requests between two people at two browsers: a takeback declined then one accepted,
/// a draw agreed, a rematch offered, declined, offered again and accepted, with the
/// colours swapped (both players go to it with their own seat), the board flipped at one
/// page only, and a resignation that needs a second click to confirm.
async fn requests_and_rematch(a: &Client, b: &Client, base: &str) {
    new_game(a, base, "fourshift", &[], ["human", "remote"]).await;
    let link = js(a, "document.querySelector('.seat-link').value").await;
    let link = link.as_str().expect("seat link").to_string();
    b.goto(&link).await.expect("seat link");
    wait_for(
        b,
        "app.state && app.state.seats[1].yours",
        "the second seat",
    )
    .await;
    let first_game = js(a, "app.state.id").await;
    square(a, "c3").await;
    wait_moves(b, 1).await;
    square(b, "d4").await;
    wait_moves(a, 2).await;

    assert_eq!(text_of(a, "#undo-btn").await, "Ask to take back");
    click(a, "#undo-btn").await;
    wait_for(
        b,
        "app.state.offer && app.state.offer.yours_to_answer && !document.getElementById('offer-bar').hidden",
        "the takeback request at the opponent",
    )
    .await;
    assert_eq!(text_of(b, "#offer-text").await, "Black asks for a takeback");
    assert!(
        text_of(a, "#offer-text")
            .await
            .contains("waiting for the answer"),
        "the asker sees the request waiting"
    );
    assert_eq!(
        js(a, "document.getElementById('offer-accept').hidden").await,
        true,
        "the asker cannot answer their own request"
    );
    click(b, "#offer-decline").await;
    wait_for(
        a,
        "app.state && !app.state.offer && document.getElementById('offer-bar').hidden",
        "the request declined",
    )
    .await;
    assert_eq!(
        move_count(a).await,
        2,
        "a declined takeback takes nothing back"
    );

    click(a, "#undo-btn").await;
    wait_for(
        b,
        "app.state.offer && app.state.offer.yours_to_answer",
        "the second request",
    )
    .await;
    click(b, "#offer-accept").await;
    // Back to the asker's previous turn: the start.
    wait_moves(a, 0).await;
    wait_moves(b, 0).await;
    square(a, "c3").await;
    wait_moves(b, 1).await;

    click(b, "#draw-btn").await;
    wait_for(
        a,
        "app.state.offer && app.state.offer.kind === 'draw' && app.state.offer.yours_to_answer",
        "the draw offer",
    )
    .await;
    assert_eq!(text_of(a, "#offer-text").await, "White asks for a draw");
    click(a, "#offer-accept").await;
    for c in [a, b] {
        wait_for(
            c,
            "!document.getElementById('banner').hidden && document.getElementById('banner').textContent.startsWith('Draw')",
            "the agreed draw",
        )
        .await;
    }
    assert!(text_of(b, "#banner").await.contains("drawn by agreement"));

    // The rematch: offered by one player, declined, offered again and accepted; then
    // both are offered it with their own seat.
    assert_eq!(
        text_of(b, "#rematch-btn").await,
        "Rematch (colours swapped)"
    );
    let offered = "!document.getElementById('offer-bar').hidden && document.getElementById('offer-text').textContent.includes('asks for a rematch')";
    click(b, "#rematch-btn").await;
    wait_for(a, offered, "the rematch offer").await;
    wait_for(
        b,
        "document.getElementById('offer-text').textContent.includes('offered a rematch (colours swapped): waiting') && document.getElementById('rematch-btn').hidden",
        "the offer waiting",
    )
    .await;
    click(a, "#offer-decline").await;
    wait_for(
        b,
        "app.state.offer === null && !document.getElementById('rematch-btn').hidden",
        "the rematch declined",
    )
    .await;
    assert_eq!(
        js(a, "app.state.rematch").await,
        Value::Null,
        "no game made"
    );
    click(b, "#rematch-btn").await;
    wait_for(a, offered, "the rematch offered again").await;
    click(a, "#offer-accept").await;
    for c in [a, b] {
        wait_for(c, "app.state.rematch && document.getElementById('rematch-btn').textContent.startsWith('Go to the rematch')", "the rematch made").await;
    }
    click(a, "#rematch-btn").await;
    click(b, "#rematch-btn").await;
    wait_for(a, "app.state && app.state.moves.length === 0 && app.state.seats[1].yours && !app.state.seats[0].yours", "the first player seated second").await;
    wait_for(
        b,
        "app.state && app.state.seats[0].yours && !app.state.seats[1].yours",
        "the second player seated first",
    )
    .await;
    let (id_a, id_b) = (js(a, "app.state.id").await, js(b, "app.state.id").await);
    assert_eq!(id_a, id_b, "both in the same rematch");
    assert_ne!(id_a, first_game, "the rematch is a new game");
    let hash = js(a, "location.hash").await;
    assert!(
        hash.as_str()
            .is_some_and(|h| h.contains(&format!("game={id_a}&t="))),
        "the rematch's seat in the address: {hash}"
    );
    square(b, "c3").await;
    wait_moves(a, 1).await;

    // Flip: a1 goes from the bottom left to the top right, at this page only.
    let corner = "(() => { const r = document.querySelector(\"#board rect[data-sq='a1']\"); return [Number(r.getAttribute('x')), Number(r.getAttribute('y'))]; })()";
    let before = js(a, corner).await;
    click(a, "#flip-btn").await;
    let after = js(a, corner).await;
    assert!(
        after[0].as_f64() > before[0].as_f64() && after[1].as_f64() < before[1].as_f64(),
        "a1 moves from bottom left ({before}) to top right ({after})"
    );
    assert_eq!(js(b, corner).await, before, "the other page is not flipped");
    square(a, "d4").await;
    wait_moves(b, 2).await;
    assert_eq!(
        js(b, "app.state.moves[1]").await,
        "d4",
        "a click on the flipped board plays the square clicked"
    );

    // Resigning needs a second click.
    click(a, "#resign-btn").await;
    assert_eq!(text_of(a, "#resign-btn").await, "Really resign?");
    assert_eq!(js(a, "app.state.view.outcome").await, Value::Null);
    click(a, "#resign-btn").await;
    wait_for(
        b,
        "app.state.view.outcome && app.state.view.outcome.winner === 0",
        "the resignation",
    )
    .await;
    assert!(text_of(b, "#banner").await.contains("White resigned"));
}

/// The lobby between two browsers: a game made with an open seat in one, seen and taken
/// in the other, played to the end; both lobbies then list it with its result among
/// their own games (the seat's token kept by the browser: it resumes from the lobby
/// after leaving the page). Writes `docs/web/lobby.png`.
async fn lobby_between_two_browsers(a: &Client, b: &Client, base: &str) {
    new_game(a, base, "gomoku", &[("size", "7")], ["human", "lobby"]).await;
    let id = js(a, "app.state.id").await;
    assert_eq!(js(a, "app.state.seats[1].kind").await, "free");
    b.goto(base).await.expect("page");
    let row = format!("#lobby-open li[data-game='{id}']");
    wait_for(
        b,
        &format!("document.querySelector(\"{row} button.take\")"),
        "the open seat in the second browser's lobby",
    )
    .await;
    assert!(text_of(b, &row).await.contains("White: free seat"));
    click(b, &format!("{row} button.take")).await;
    wait_for(b, "app.state && app.state.seats[1].yours", "the seat taken").await;
    wait_for(
        a,
        "app.state.seats[1].kind === 'human'",
        "the opponent seated",
    )
    .await;
    for (i, (mine, theirs)) in [("a1", "a2"), ("b1", "b2"), ("c1", "c2"), ("d1", "d2")]
        .into_iter()
        .enumerate()
    {
        square(a, mine).await;
        wait_moves(b, 2 * i + 1).await;
        square(b, theirs).await;
        wait_moves(a, 2 * i + 2).await;
    }
    square(a, "e1").await;
    for c in [a, b] {
        wait_for(
            c,
            "app.state.view.outcome && app.state.view.outcome.winner === 0",
            "the end",
        )
        .await;
    }
    // Leaving the page loses no seat: both lobbies list the game with its result.
    b.goto(base).await.expect("page");
    click(a, "#lobby-btn").await;
    let mine = format!("#lobby-mine li[data-game='{id}']");
    for c in [a, b] {
        wait_for(
            c,
            &format!("document.querySelector(\"{mine}\") && document.querySelector(\"{mine}\").textContent.includes('Black wins')"),
            "the finished game in the lobby",
        )
        .await;
        assert_eq!(
            js(c, &format!("document.querySelector(\"#lobby-live li[data-game='{id}'], #lobby-open li[data-game='{id}']\")")).await,
            Value::Null,
            "a finished game is neither open nor live"
        );
    }
    // A spectator (a third browser) is counted in the lobby.
    let live = js(b, "document.querySelector('#lobby-live li').dataset.game").await;
    let live = live.as_str().expect("a live game").to_string();
    let profile = temp_dir("browser-spectator");
    std::fs::create_dir_all(&profile).expect("dir");
    let spectator = browser(&profile, &profile).await;
    spectator
        .goto(&format!("{base}#game={live}"))
        .await
        .expect("watch link");
    wait_for(
        &spectator,
        "app.state && app.tokens.length === 0",
        "watching",
    )
    .await;
    wait_for(
        b,
        "[...document.querySelectorAll('#lobby-live li')].some((li) => li.textContent.includes('· 1 watching'))",
        "the spectator counted in the lobby",
    )
    .await;
    js(
        b,
        "document.getElementById('lobby').scrollIntoView() || true",
    )
    .await;
    screenshot(b, "lobby").await;
    click(b, &format!("{mine} button.resume")).await;
    wait_for(
        b,
        "app.state && app.state.seats[1].yours && app.state.view.outcome",
        "the game resumed with its seat",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_in_a_real_browser() {
    let started = Instant::now();
    let root = temp_dir("browser");
    let data = root.join("data");
    let (profile_a, profile_b) = (root.join("profile-a"), root.join("profile-b"));
    let (downloads_a, downloads_b) = (root.join("downloads-a"), root.join("downloads-b"));
    for d in [&data, &profile_a, &profile_b, &downloads_a, &downloads_b] {
        std::fs::create_dir_all(d).expect("dir");
    }
    let board = ThreadedBoard::start("127.0.0.1:0", &data);
    let addr = board.addr;
    let base = board.url("/");
    let a = browser(&profile_a, &downloads_a).await;

    let step = |name: &str| println!("[{:>6.1} s] {name}", started.elapsed().as_secs_f64());
    step("no ghost controls");
    no_ghost_controls(&a, &base).await;
    step("the page never writes notation");
    the_page_never_writes_notation(&a, &base).await;
    step("messages and the keyboard cursor");
    messages_and_cursor(&a, &base).await;
    step("SGF export and import");
    sgf_round_trip(&a, &base, &downloads_a).await;
    step("phone tap targets");
    phone_tap_targets(&a, &base).await;
    step("click-to-redraw latency and page weight");
    let ms = click_to_redraw(&a, &base, 20).await;
    let bytes = page_bytes(&a).await;
    println!(
        "click-to-redraw over {} gomoku moves: median {:.1} ms, max {:.1} ms; page {bytes} bytes as loaded",
        ms.len(),
        ms[ms.len() / 2],
        ms[ms.len() - 1]
    );
    assert!(bytes > 0 && bytes < 100_000, "page weight {bytes} bytes");
    step("new-game form errors");
    new_game_form_errors(&a, &base).await;
    step("fourshift by clicks");
    fourshift_by_clicks(&a, &base).await;
    step("amazons");
    amazons_three_clicks(&a, &base).await;
    step("connect6");
    connect6_pair(&a, &base).await;
    step("clamp");
    clamp_step(&a, &base).await;
    step("gomoku against the engine, save, load");
    gomoku_engine_save_load(&a, &base, &downloads_a).await;
    step("against a line-protocol player on the same host");
    against_a_line_protocol_player(&a).await;
    let b = browser(&profile_b, &downloads_b).await;
    step("requests, rematch, flip");
    requests_and_rematch(&a, &b, &base).await;
    step("lobby");
    lobby_between_two_browsers(&a, &b, &base).await;
    step("clocks run out");
    clocks_run_out(&a, &base).await;

    step("network play");
    new_game(&a, &base, "fourshift", &[], ["human", "remote"]).await;
    let link = js(&a, "document.querySelector('.seat-link').value").await;
    let link = link.as_str().expect("seat link").to_string();
    let watch = js(&a, "document.getElementById('watch-link').value").await;
    let watch = watch.as_str().expect("watch link").to_string();
    assert!(link.contains("&t="), "{link}");
    assert!(!watch.contains("t="), "no token in the watch link: {watch}");
    b.goto(&link).await.expect("seat link");
    wait_for(
        &b,
        "app.state && app.state.seats[1].yours",
        "the second seat",
    )
    .await;
    square(&a, "c3").await;
    wait_moves(&b, 1).await;
    square(&b, "d4").await;
    wait_moves(&a, 2).await;
    assert!(text_of(&a, "#turn").await.contains("(you)"));

    step("reload mid-game");
    a.refresh().await.expect("reload");
    wait_for(&a, "app.state", "the state after reload").await;
    wait_moves(&a, 2).await;
    square(&a, "c4").await;
    wait_moves(&b, 3).await;

    step("restart the server mid-game");
    board.stop();
    wait_for(
        &a,
        "document.getElementById('message').textContent.includes('reconnecting')",
        "the lost connection",
    )
    .await;
    let board = ThreadedBoard::start(&addr.to_string(), &data);
    wait_for(&b, "app.ws && app.ws.readyState === 1 && app.state && app.state.moves.length === 3 && !document.getElementById('message').textContent", "reconnected").await;
    square(&b, "d3").await;
    wait_moves(&a, 4).await;
    wait_moves(&b, 4).await;

    step("watcher and phone width");
    b.goto(&watch).await.expect("watch link");
    wait_for(
        &b,
        "app.state && app.tokens.length === 0 && app.state.moves.length === 4",
        "the watched game",
    )
    .await;
    assert_eq!(
        js(&b, "app.state.your_turn || app.state.seats[1].yours").await,
        false
    );
    watcher_click(&b).await;
    b.set_window_size(390, 844).await.expect("phone size");
    b.refresh().await.expect("reload");
    wait_moves(&b, 4).await;
    let overflow = js(
        &b,
        "document.documentElement.scrollWidth <= window.innerWidth + 1",
    )
    .await;
    assert_eq!(overflow, true, "no sideways scrolling at phone width");
    let png = b.screenshot().await.expect("screenshot");
    std::fs::write(docs_dir().join("phone.png"), png).expect("write");

    step("screenshots, light and dark");
    let client = support::Board::at(board.addr);
    b.set_window_size(1280, 1000).await.expect("desktop size");
    screenshots(&b, &base, &client, "light").await;
    let profile_dark = root.join("profile-dark");
    std::fs::create_dir_all(&profile_dark).expect("dir");
    let dark = browser_with(&profile_dark, &downloads_b, &["--force-dark-mode"]).await;
    dark.goto(&base).await.expect("page");
    assert_eq!(
        js(&dark, "matchMedia('(prefers-color-scheme: dark)').matches").await,
        true,
        "the dark browser prefers dark"
    );
    assert_eq!(
        js(&dark, "getComputedStyle(document.body).backgroundColor").await,
        "rgb(21, 25, 29)",
        "the page follows the system's dark scheme"
    );
    screenshots(&dark, &base, &client, "dark").await;
    dark.goto(&base).await.expect("page");
    wait_for(
        &dark,
        "!document.getElementById('setup').hidden",
        "the form",
    )
    .await;
    screenshot(&dark, "form-dark").await;
    dark.close().await.expect("close dark");

    a.close().await.expect("close a");
    b.close().await.expect("close b");
    board.stop();
    let _ = std::fs::remove_dir_all(&root);
    println!(
        "browser tests: {:.1} s; page weight {} bytes",
        started.elapsed().as_secs_f64(),
        boardlab_web::page_weight()
    );
}
