//! Engine fairness between games: with four games between engines at 2 s a move, a
//! person's "engine 100 ms" replies still come at once. Timed, so ignored by default
//! (timings on a shared machine are noisy); run with
//! `cargo test -p boardlab-web --test fairness -- --ignored --nocapture`.

mod support;

use std::time::{Duration, Instant};

use support::{Board, tokens};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "timed: run by hand, see the module docs"]
async fn a_persons_engine_reply_does_not_wait_behind_engine_games() {
    let board = Board::start(None).await;
    for _ in 0..4 {
        board
            .create("gomoku:size=15", ["engine:2000", "engine:2000"])
            .await;
    }
    // Let the engine games take their threads first.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut replies = Vec::new();
    while replies.len() < 20 {
        let created = board
            .create("amazons:size=8", ["human", "engine:100"])
            .await;
        let id = created["id"].as_u64().expect("id");
        let toks = tokens(&created);
        let mut page = board.socket().await;
        let mut state = page.open(id, &[&toks[0]]).await;
        while replies.len() < 20 && state["view"]["outcome"].is_null() {
            let n = state["moves"].as_array().map_or(0, Vec::len);
            let mv = state["legal"][0]["text"]
                .as_str()
                .expect("a legal move")
                .to_string();
            let sent = Instant::now();
            page.play(&mv).await;
            state = page.state_with(n + 2, 30).await;
            replies.push(sent.elapsed());
            // The engine's reply ends the game sometimes: no legal move is listed then.
            if state["legal"].is_null() {
                break;
            }
        }
    }
    replies.sort();
    let p95 = replies[(replies.len() * 95).div_ceil(100) - 1];
    eprintln!(
        "person's engine-100ms replies beside 4 engine games at 2 s: median {:?}, p95 {:?}, max {:?}",
        replies[replies.len() / 2],
        p95,
        replies[replies.len() - 1]
    );
    assert!(p95 < Duration::from_millis(500), "p95 {p95:?}");
}
