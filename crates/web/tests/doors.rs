//! Both doors onto one game table in one process (`boardlab serve --web`): a person on
//! the browser board's WebSocket and a person speaking the line protocol of `boardlab
//! connect` play one game to its end, each seeing the other's moves, and the rules of
//! conduct hold across the doors (a takeback asked on one door is answered on the
//! other).

mod support;

use boardlab_web::{Host, Table};
use serde_json::json;
use support::{Board, LinePlayer, line_door, tokens};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_and_a_line_protocol_player_finish_a_game_through_one_host() {
    let (table, _) = Table::open(None).expect("in memory");
    let host = Host::new(table);
    let board = Board::start_on(host.clone()).await;
    let mut line = LinePlayer::connect(line_door(host)).await;
    // The page creates the game with its own seat and a free one the other door joins.
    let created = board.create("gomoku:size=7", ["human", "free"]).await;
    let id = created["id"].as_u64().expect("id");
    let page_token = tokens(&created)[0].clone();
    let mut page = board.socket().await;
    let state = page.open(id, &[&page_token]).await;
    assert_eq!(state["seats"][1]["kind"], "free");
    let joined = line.ask(&format!("join {id} second")).await;
    let words: Vec<&str> = joined.split_whitespace().collect();
    assert_eq!(
        &words[..4],
        ["ok", "joined", &id.to_string(), "second"],
        "{joined}"
    );
    let token = words[4].to_string();
    let state = page.next_of("state", 10).await;
    assert_eq!(state["seats"][1]["kind"], "human", "the page sees the join");
    // Four moves each; the line player hears each of the page's moves pushed.
    for (i, (mine, theirs)) in [("a1", "a2"), ("b1", "b2"), ("c1", "c2"), ("d1", "d2")]
        .into_iter()
        .enumerate()
    {
        page.play(mine).await;
        let pushed = line
            .pushed_starting(&format!("update {id} {} ", 2 * i + 1), 10)
            .await;
        assert_eq!(pushed, format!("update {id} {} {mine}", 2 * i + 1));
        let reply = line.ask(&format!("move {id} {token} {theirs}")).await;
        assert_eq!(reply, format!("ok moved {id} {} {theirs}", 2 * i + 2));
        let state = page.state_with(2 * i + 2, 10).await;
        assert_eq!(state["your_turn"], true);
    }
    // The line player asks to take its last move back: the page answers, and it is done.
    assert_eq!(
        line.ask(&format!("takeback {id} {token}")).await,
        format!("ok asked {id} takeback")
    );
    let asked = loop {
        let s = page.next_of("state", 10).await;
        if !s["offer"].is_null() {
            break s;
        }
    };
    assert_eq!(asked["offer"]["kind"], "takeback");
    assert_eq!(asked["offer"]["yours_to_answer"], true);
    page.send(json!({ "type": "answer", "accept": true })).await;
    line.pushed_starting(&format!("update {id} takeback 7"), 10)
        .await;
    page.state_with(7, 10).await;
    assert_eq!(
        line.ask(&format!("move {id} {token} e2")).await,
        format!("ok moved {id} 8 e2")
    );
    page.state_with(8, 10).await;
    // Five in a row on the page wins; the line player is told the game is over.
    page.play("e1").await;
    let over = line.pushed_starting(&format!("update {id} 9 e1"), 10).await;
    assert!(over.contains(" over "), "{over}");
    let state = page.state_with(9, 10).await;
    assert_eq!(state["view"]["outcome"]["winner"], 0);
    let shown = line.ask(&format!("show {id}")).await;
    assert!(
        shown.contains("ply 9 ") && shown.contains("; over "),
        "{shown}"
    );
    assert!(
        line.ask(&format!("move {id} {token} f2"))
            .await
            .starts_with("error the game is over")
    );
}

/// The host's guarantees hold whichever door a request comes through: the data
/// directory is private and held by one host, wrong tokens are refused on both doors,
/// engine help between the two remote people needs both consents (one given on each
/// door), and a takeback asked on the line is only an offer the page may decline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rules_and_the_files_hold_across_the_doors() {
    use std::os::unix::fs::PermissionsExt;
    let dir = support::temp_dir("doors");
    let (table, _) = Table::open(Some(&dir)).expect("open");
    let refused = Table::open(Some(&dir))
        .err()
        .expect("a second host is refused");
    assert!(
        refused.to_string().contains("in use by another server"),
        "{refused}"
    );
    let host = Host::new(table);
    let board = Board::start_on(host.clone()).await;
    let mut line = LinePlayer::connect(line_door(host)).await;
    let created = board.create("gomoku:size=7", ["human", "free"]).await;
    let id = created["id"].as_u64().expect("id");
    let page_token = tokens(&created)[0].clone();
    let joined = line.ask(&format!("join {id} second")).await;
    let token = joined.split_whitespace().nth(4).expect("token").to_string();
    let mode =
        |p: &std::path::Path| std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join(format!("{id}.save"))), 0o600);
    let saved = std::fs::read_to_string(dir.join(format!("{id}.save"))).expect("file");
    assert!(
        saved.contains(&format!("# token second {token}")),
        "{saved}"
    );
    // Wrong tokens: refused on both doors.
    let wrong = "0".repeat(32);
    assert_eq!(
        line.ask(&format!("move {id} {wrong} a1")).await,
        format!("error wrong token for game {id}")
    );
    let mut stranger = board.socket().await;
    stranger
        .send(json!({ "type": "open", "game": id, "tokens": [wrong] }))
        .await;
    let e = stranger.next_of("error", 10).await;
    assert_eq!(e["message"], format!("wrong token for game {id}"));
    // Engine help between the two: off until both consent, one on each door.
    let mut page = board.socket().await;
    page.open(id, &[&page_token]).await;
    page.send(json!({ "type": "hint" })).await;
    let e = page.next_of("error", 10).await;
    assert!(
        e["message"]
            .as_str()
            .expect("text")
            .contains("engine help is off"),
        "{e}"
    );
    assert_eq!(
        line.ask(&format!("assist {id} {token} on")).await,
        format!("ok assist {id} second on")
    );
    page.send(json!({ "type": "hint" })).await;
    page.next_of("error", 10).await;
    page.send(json!({ "type": "help", "on": true })).await;
    let on = loop {
        let s = page.next_of("state", 10).await;
        if s["can_hint"] == true {
            break s;
        }
    };
    assert_eq!(on["seats"][1]["help"], true);
    page.send(json!({ "type": "hint" })).await;
    let hint = page.next_of("hint", 30).await;
    assert!(hint["answer"]["move"].is_string(), "{hint}");
    // A takeback asked on the line changes nothing until the page answers; declined.
    page.play("d4").await;
    line.pushed_starting(&format!("update {id} 1 d4"), 10).await;
    line.ask(&format!("move {id} {token} e5")).await;
    page.state_with(2, 10).await;
    assert_eq!(
        line.ask(&format!("takeback {id} {token}")).await,
        format!("ok asked {id} takeback")
    );
    assert!(line.ask(&format!("show {id}")).await.contains("ply 2 "));
    page.send(json!({ "type": "answer", "accept": false }))
        .await;
    line.pushed_starting(&format!("update {id} declined takeback second"), 10)
        .await;
    assert!(line.ask(&format!("show {id}")).await.contains("ply 2 "));
    let _ = std::fs::remove_dir_all(&dir);
}
