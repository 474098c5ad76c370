//! The HTTP and WebSocket API of `boardlab web` against a real server on 127.0.0.1:0,
//! for every game.

mod support;

use serde_json::{Value, json};
use support::{Board, temp_dir, tokens};

/// One legal first move per game, and one that is then illegal with the rules' reason.
fn first_moves(game: &str) -> (&'static str, &'static str, &'static str) {
    match game {
        "fourshift" => ("c3", "c3", "c3 is occupied"),
        "clamp" => ("c6-c4", "c4-c5", "c4 is not your piece"),
        "amazons" => ("d1-d7/g7", "d10-d6/d5", "d7 is in the way"),
        "gomoku" => ("h8", "h8", "h8 is occupied"),
        "connect6" => ("j10", "j10,k11", "j10 is occupied"),
        other => panic!("no moves for {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_assets_are_served_from_the_binary() {
    let board = Board::start(None).await;
    let (status, html) = board.get("/").await;
    assert_eq!(status, 200);
    assert!(html.contains("<svg id=\"board\""), "{html}");
    assert!(html.contains("/app.js") && html.contains("/app.css"));
    let (status, js) = board.get("/app.js").await;
    assert_eq!(status, 200);
    assert!(js.contains("function drawBoard"));
    // No CDN: the only URL in the script is the SVG namespace.
    let js_urls = js.replace("'http://www.w3.org/2000/svg'", "");
    assert!(
        !js_urls.contains("http://") && !js_urls.contains("https://"),
        "no CDN"
    );
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no CDN"
    );
    let (status, css) = board.get("/app.css").await;
    assert_eq!(status, 200);
    assert!(css.contains("#board"));
    assert_eq!(
        html.len() + js.len() + css.len(),
        boardlab_web::page_weight()
    );
    println!("page weight: {} bytes", boardlab_web::page_weight());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_table_lists_every_game_and_key_with_ranges() {
    let board = Board::start(None).await;
    let (status, text) = board.get("/api/games").await;
    assert_eq!(status, 200);
    let games: Value = serde_json::from_str(&text).expect("JSON");
    let ids: Vec<&str> = games
        .as_array()
        .expect("list")
        .iter()
        .map(|g| g["id"].as_str().expect("id"))
        .collect();
    let table: Vec<&str> = boardlab_games::GameId::ALL
        .iter()
        .map(|id| id.as_str())
        .collect();
    assert_eq!(ids, table);
    let gomoku = &games[3];
    assert_eq!(gomoku["options"][0]["key"], "size");
    assert_eq!(gomoku["options"][0]["kind"]["min"], 5);
    assert_eq!(gomoku["options"][0]["kind"]["max"], 26);
    assert_eq!(gomoku["options"][0]["default"], "15");
    assert_eq!(
        gomoku["options"][1]["kind"]["values"],
        json!(["freestyle", "exact5"])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_played_over_the_websocket() {
    let board = Board::start(None).await;
    for game in boardlab_games::GameId::ALL.iter().map(|id| id.as_str()) {
        let created = board.create(game, ["human", "human"]).await;
        let id = created["id"].as_u64().expect("id");
        let toks = tokens(&created);
        assert_eq!(toks.len(), 2, "{game}");
        let mut page = board.socket().await;
        let toks: Vec<&str> = toks.iter().map(String::as_str).collect();
        let state = page.open(id, &toks).await;
        assert_eq!(state["game"], game);
        assert_eq!(state["your_turn"], true);
        let view = &state["view"];
        let (w, h) = (
            view["width"].as_u64().expect("w"),
            view["height"].as_u64().expect("h"),
        );
        assert_eq!(
            view["cells"].as_array().expect("cells").len() as u64,
            w * h,
            "{game}"
        );
        let listed = !state["legal"].is_null();
        assert_eq!(
            listed,
            matches!(game, "fourshift" | "clamp" | "amazons"),
            "{game}"
        );
        let (good, bad, reason) = first_moves(game);
        if listed {
            let legal: Vec<&str> = state["legal"]
                .as_array()
                .expect("legal")
                .iter()
                .map(|m| m["text"].as_str().expect("move"))
                .collect();
            assert!(legal.contains(&good), "{game}: {good} not in {legal:?}");
            // Every listed move carries the squares it names: the page draws from them.
            for m in state["legal"].as_array().expect("legal") {
                let squares = m["squares"].as_array().expect("squares");
                assert!(!squares.is_empty(), "{game}: {m}");
            }
        }
        page.play(good).await;
        let after = page.state_with(1, 10).await;
        assert_eq!(after["moves"], json!([good]), "{game}");
        assert!(!after["view"]["last"].as_array().expect("last").is_empty());
        // An illegal move: the rules' reason, nothing changed.
        page.play(bad).await;
        let e = page.next_of("error", 10).await;
        let message = e["message"].as_str().expect("message");
        assert!(message.contains(reason), "{game}: {message}");
        let (_, shown) = board.get(&format!("/api/games/{id}")).await;
        let shown: Value = serde_json::from_str(&shown).expect("JSON");
        assert_eq!(shown["moves"], json!([good]), "{game}");
        // The watcher's view has no legal moves and no seat of its own.
        assert_eq!(shown["your_turn"], false);
        assert!(shown["legal"].is_null());
        // The download is a save file that loads back into a new game.
        let (status, save) = board.get(&format!("/api/games/{id}/save")).await;
        assert_eq!(status, 200);
        assert!(save.starts_with("boardlab-save 1\ngame "), "{save}");
        for t in &toks {
            assert!(!save.contains(t), "no token in a download");
        }
        let (status, loaded) = board
            .post_raw("/api/load", "text/plain", save.into_bytes())
            .await;
        assert_eq!(status, 200, "{loaded}");
        let loaded: Value = serde_json::from_str(&loaded).expect("JSON");
        let (_, again) = board
            .get(&format!(
                "/api/games/{}",
                loaded["id"].as_u64().expect("id")
            ))
            .await;
        let again: Value = serde_json::from_str(&again).expect("JSON");
        assert_eq!(again["moves"], json!([good]), "{game}");
        // Replay: the start position has no pieces of the first move.
        page.send(json!({"type": "view", "ply": 0})).await;
        let v = page.next_of("view", 10).await;
        assert!(v["view"]["last"].as_array().expect("last").is_empty());
        page.send(json!({"type": "view", "ply": 5})).await;
        let e = page.next_of("error", 10).await;
        assert!(e["message"].as_str().expect("m").contains("only 1 moves"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_new_game_requests_are_refused_with_the_reason() {
    let board = Board::start(None).await;
    let cases = [
        (
            json!({"spec": "gomoku:size=99", "seats": ["human", "human"]}),
            "size=99",
        ),
        (
            json!({"spec": "chess", "seats": ["human", "human"]}),
            "chess",
        ),
        (
            json!({"spec": "fourshift:k=9", "seats": ["human", "human"]}),
            "k",
        ),
        (
            json!({"spec": "gomoku", "seats": ["human", "engine:5"]}),
            "bad seat 'engine:5'",
        ),
        (
            json!({"spec": "gomoku", "seats": ["wizard", "human"]}),
            "bad seat 'wizard'",
        ),
        (json!({"spec": "gomoku"}), "bad request"),
    ];
    for (body, needle) in cases {
        let (status, v) = board.post_json("/api/games", &body).await;
        assert_eq!(status, 400, "{body}");
        let e = v["error"].as_str().expect("error");
        assert!(e.contains(needle), "{body}: {e}");
    }
    // Another site's page cannot create games from a visitor's browser.
    let (status, body) = board
        .request_with(
            "POST",
            "/api/load",
            &[
                ("content-type", "text/plain"),
                ("origin", "http://evil.example"),
            ],
            b"boardlab-save 1\ngame gomoku\n".to_vec(),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    let (status, _) = board
        .post_raw("/api/games", "application/json", b"{not json".to_vec())
        .await;
    assert_eq!(status, 400);
    let (status, _) = board
        .post_raw("/api/games", "application/json", vec![b' '; 10_000])
        .await;
    assert_eq!(status, 413, "bodies are bounded");
    // Nothing was created.
    let (status, _) = board.get("/api/games/1").await;
    assert_eq!(status, 404);
    let (status, _) = board.get("/api/games/x").await;
    assert_eq!(status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_save_file_names_its_first_bad_line_and_loads_nothing() {
    let board = Board::start(None).await;
    let text = "boardlab-save 1\ngame gomoku\nh8\n# a comment\nh8\n";
    let (status, body) = board
        .post_raw("/api/load", "text/plain", text.as_bytes().to_vec())
        .await;
    assert_eq!(status, 400);
    let v: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(v["error"], "line 5: move 2 'h8': h8 is occupied");
    let (status, body) = board
        .post_raw("/api/load", "text/plain", b"hello\n".to_vec())
        .await;
    assert_eq!(status, 400);
    assert!(body.contains("line 1: expected the header"), "{body}");
    let (status, _) = board.get("/api/games/1").await;
    assert_eq!(status, 404, "nothing loaded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_from_play_selfplay_records_and_the_server_open() {
    let board = Board::start(None).await;
    // `play` writes board_core::savefile::save; the server adds seat comments.
    let server_file = "boardlab-save 1\ngame fourshift:size=6,k=4,pieces=8,max_plies=120\n\
                       # token first 0123456789abcdef0123456789abcdef\n# engine second 200\n\
                       c3\nd4\n";
    let (status, body) = board
        .post_raw("/api/load", "text/plain", server_file.as_bytes().to_vec())
        .await;
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).expect("JSON");
    let (_, s) = board
        .get(&format!("/api/games/{}", v["id"].as_u64().expect("id")))
        .await;
    let s: Value = serde_json::from_str(&s).expect("JSON");
    assert_eq!(s["moves"], json!(["c3", "d4"]));
    // Loaded games are played by people here: the server's seat token is not taken over.
    assert_eq!(s["seats"][1]["kind"], "human");
    let records = "# game 1: engine (first) vs random (second): first player wins\n\
                   boardlab-save 1\ngame gomoku:size=15,rule=freestyle\nh8\nh9\n\n\
                   # game 2: random (first) vs engine (second): draw\n\
                   boardlab-save 1\ngame gomoku:size=15,rule=freestyle\na1\n\n";
    let (status, body) = board
        .post_raw(
            "/api/load?game=2",
            "text/plain",
            records.as_bytes().to_vec(),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(
        (v["games_in_file"].as_u64(), v["game_in_file"].as_u64()),
        (Some(2), Some(2))
    );
    let (_, s) = board
        .get(&format!("/api/games/{}", v["id"].as_u64().expect("id")))
        .await;
    let s: Value = serde_json::from_str(&s).expect("JSON");
    assert_eq!(s["moves"], json!(["a1"]));
    let (status, body) = board
        .post_raw(
            "/api/load?game=3",
            "text/plain",
            records.as_bytes().to_vec(),
        )
        .await;
    assert_eq!(status, 400);
    assert!(body.contains("holds 2 games"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_answers_with_live_progress_then_its_pv() {
    let board = Board::start(None).await;
    let created = board.create("gomoku", ["human", "engine:100"]).await;
    let id = created["id"].as_u64().expect("id");
    let toks = tokens(&created);
    assert_eq!(toks.len(), 1);
    let mut page = board.socket().await;
    page.open(id, &[&toks[0]]).await;
    page.play("h8").await;
    let thinking = page.next_of("thinking", 20).await;
    assert!(thinking["progress"]["depth"].as_u64().expect("depth") >= 1);
    assert!(thinking["progress"]["score"]["text"].is_string());
    let engine = page.next_of("engine", 20).await;
    assert_eq!(engine["seat"], 1);
    assert!(!engine["answer"]["pv"].as_str().expect("pv").is_empty());
    let state = page.state_with(2, 20).await;
    assert_eq!(state["your_turn"], true);
    assert_eq!(state["evals"].as_array().expect("evals").len(), 1);
    // Undo goes back to the human's turn: both moves.
    page.send(json!({"type": "undo"})).await;
    page.state_with(0, 10).await;
    // A hint: the engine's move drawn on the board, for this page only.
    page.send(json!({"type": "hint"})).await;
    let hint = page.next_of("hint", 20).await;
    assert_eq!(
        hint["answer"]["squares"].as_array().expect("squares").len(),
        1
    );
    // The analysis covers every position of the game.
    page.play("h8").await;
    page.state_with(2, 20).await;
    page.send(json!({"type": "analyse"})).await;
    let mut plies = Vec::new();
    loop {
        let a = page.next_of("analysis", 30).await;
        plies.push(a["ply"].as_u64().expect("ply"));
        if a["done"] == true {
            break;
        }
    }
    assert_eq!(plies, vec![0, 1, 2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_and_a_watcher_see_each_others_moves() {
    let board = Board::start(None).await;
    let created = board.create("connect6:size=13", ["human", "human"]).await;
    let id = created["id"].as_u64().expect("id");
    let toks = tokens(&created);
    let (mut a, mut b, mut w) = (
        board.socket().await,
        board.socket().await,
        board.socket().await,
    );
    let sa = a.open(id, &[&toks[0]]).await;
    assert_eq!(sa["seats"][0]["yours"], true);
    assert_eq!(sa["seats"][1]["yours"], false);
    let sb = b.open(id, &[&toks[1]]).await;
    assert_eq!(sb["your_turn"], false);
    let sw = w.open(id, &[]).await;
    assert_eq!(sw["your_turn"], false);
    // Out of turn.
    b.play("a1").await;
    let e = b.next_of("error", 10).await;
    assert!(e["message"].as_str().expect("m").contains("not your turn"));
    a.play("g7").await;
    let s = b.state_with(1, 10).await;
    assert_eq!(s["your_turn"], true);
    assert_eq!(s["view"]["stones_per_turn"], 2);
    w.state_with(1, 10).await;
    b.play("h8,a1").await;
    a.state_with(2, 10).await;
    let sw = w.state_with(2, 10).await;
    assert_eq!(sw["moves"], json!(["g7", "a1,h8"]));
    // The watcher cannot move, undo or resign.
    for m in [
        json!({"type": "move", "move": "b2,b3"}),
        json!({"type": "undo"}),
        json!({"type": "resign"}),
    ] {
        w.send(m).await;
        let e = w.next_of("error", 10).await;
        assert!(!e["message"].as_str().expect("m").is_empty());
    }
    // A wrong token opens nothing.
    let mut x = board.socket().await;
    x.send(json!({"type": "open", "game": id, "tokens": ["f".repeat(32)]}))
        .await;
    let e = x.next_of("error", 10).await;
    assert_eq!(e["message"], format!("wrong token for game {id}"));
    // Resign: the other player wins, and everyone sees it.
    b.send(json!({"type": "resign"})).await;
    let s = a.next_of("state", 10).await;
    assert_eq!(s["view"]["outcome"]["winner"], 0);
    assert!(
        s["view"]["outcome"]["reason"]
            .as_str()
            .expect("r")
            .contains("resigned")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_messages_get_an_error_and_change_nothing() {
    let board = Board::start(None).await;
    let created = board.create("fourshift", ["human", "human"]).await;
    let id = created["id"].as_u64().expect("id");
    let toks = tokens(&created);
    let mut page = board.socket().await;
    page.send(json!({"type": "move", "move": "c3"})).await;
    let e = page.next_of("error", 10).await;
    assert_eq!(e["message"], "open a game first");
    page.open(id, &[&toks[0], &toks[1]]).await;
    for bad in [
        "not json",
        "{\"type\": \"fly\"}",
        "{\"type\": \"move\"}",
        "{\"type\": \"view\", \"ply\": -1}",
        "{\"type\": \"open\", \"game\": \"one\"}",
    ] {
        page.send_text(bad).await;
        let e = page.next_of("error", 10).await;
        assert!(
            e["message"].as_str().expect("m").starts_with("bad message"),
            "{bad}: {e}"
        );
    }
    page.play(&"c".repeat(100)).await;
    let e = page.next_of("error", 10).await;
    assert!(e["message"].as_str().expect("m").contains("at most 64"));
    let (_, shown) = board.get(&format!("/api/games/{id}")).await;
    let shown: Value = serde_json::from_str(&shown).expect("JSON");
    assert_eq!(shown["moves"], json!([]));
    // A message over the limit closes that socket; the server goes on.
    page.send_text(&"x".repeat(boardlab_web::app::MAX_MESSAGE_BYTES + 10))
        .await;
    let closed = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        use futures_util::StreamExt;
        loop {
            match page.ws.next().await {
                None | Some(Err(_)) => break,
                Some(Ok(m)) if m.is_close() => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "an oversized message closes the socket");
    let mut again = board.socket().await;
    again.open(id, &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_a_server_restart_and_players_reconnect_with_their_tokens() {
    let dir = temp_dir("restart");
    let board = Board::start(Some(&dir)).await;
    let created = board.create("amazons:size=8", ["human", "human"]).await;
    let id = created["id"].as_u64().expect("id");
    let toks = tokens(&created);
    let mut page = board.socket().await;
    let state = page.open(id, &[&toks[0], &toks[1]]).await;
    let first = state["legal"][0]["text"]
        .as_str()
        .expect("a move")
        .to_string();
    page.play(&first).await;
    page.state_with(1, 10).await;
    drop(page);
    board.stop();
    // The save file is the server's format: tokens as comments, the move synced, each
    // record with its integrity trailer.
    let text = std::fs::read_to_string(dir.join(format!("{id}.save"))).expect("file");
    assert!(text.contains(&format!("# token first {} #@", toks[0])));
    let last = text.lines().last().expect("a record");
    assert!(last.starts_with(&format!("{first} #@")), "{last}");
    let board = Board::start(Some(&dir)).await;
    let mut page = board.socket().await;
    let state = page.open(id, &[&toks[1]]).await;
    assert_eq!(state["moves"], json!([first]));
    assert_eq!(state["your_turn"], true);
    let reply = state["legal"][0]["text"]
        .as_str()
        .expect("a move")
        .to_string();
    page.play(&reply).await;
    page.state_with(2, 10).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_whose_turn_it_is_moves_after_a_restart() {
    let dir = temp_dir("engine-restart");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(
        dir.join("7.save"),
        "boardlab-save 1\ngame gomoku:size=9\n# engine first random\n# engine second 50\n",
    )
    .expect("write");
    let board = Board::start(Some(&dir)).await;
    let mut page = board.socket().await;
    page.open(7, &[]).await;
    // Two engines play each other to the end.
    loop {
        let s = page.next_of("state", 60).await;
        if !s["view"]["outcome"].is_null() {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_do_not_lock_a_new_page_load_out() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let board = Board::start(None).await;
    // A page following a game: a WebSocket is never closed to make room.
    let created = board.create("gomoku:size=9", ["human", "human"]).await;
    let id = created["id"].as_u64().expect("id");
    let toks = tokens(&created);
    let mut page = board.socket().await;
    page.open(id, &[&toks[0], &toks[1]]).await;
    // More silent connections than there are slots, one of them half a request.
    let mut idle = Vec::new();
    for i in 0..(boardlab_web::listener::MAX_HTTP_CONNECTIONS + 72) {
        let mut s = tokio::net::TcpStream::connect(board.addr)
            .await
            .expect("connect");
        if i == 0 {
            s.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
                .await
                .expect("write");
        }
        idle.push(s);
    }
    let ask = |addr| async move {
        let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .expect("write");
        let mut reply = Vec::new();
        s.read_to_end(&mut reply).await.expect("read");
        String::from_utf8_lossy(&reply).into_owned()
    };
    let started = std::time::Instant::now();
    let reply = tokio::time::timeout(std::time::Duration::from_secs(2), ask(board.addr))
        .await
        .expect("a page load is served although idle connections fill every slot");
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    eprintln!(
        "page load behind {} idle connections: {:?}",
        idle.len(),
        started.elapsed()
    );
    // The oldest silent connection was closed for it; the page still follows its game.
    let mut first = idle.remove(0);
    let mut byte = [0u8; 1];
    let closed = tokio::time::timeout(std::time::Duration::from_secs(2), first.read(&mut byte))
        .await
        .expect("closed, not left hanging");
    assert!(matches!(closed, Ok(0) | Err(_)), "{closed:?}");
    page.send(json!({ "type": "move", "move": "e5" })).await;
    page.state_with(1, 10).await;
}

/// The lobby's first game, checked to show none of `secrets`.
async fn lobby_entry(board: &Board, secrets: &[String]) -> Value {
    let (status, text) = board.get("/api/lobby").await;
    assert_eq!(status, 200, "{text}");
    for t in secrets {
        assert!(!text.contains(t.as_str()), "no token in the lobby");
    }
    let v: Value = serde_json::from_str(&text).expect("JSON");
    v[0].clone()
}

/// The lobby: an open seat taken by POST .../join (its token for the caller only, once),
/// spectators counted while their page follows, no token anywhere in the listing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_open_seats_and_spectators_and_a_seat_is_taken_once() {
    let board = Board::start(None).await;
    let created = board.create("gomoku:size=7", ["human", "free"]).await;
    let id = created["id"].as_u64().expect("id");
    let mut secrets = tokens(&created);
    secrets.push(created["owner"].as_str().expect("owner").to_string());
    let entry = lobby_entry(&board, &secrets).await;
    assert_eq!(entry["id"], id);
    assert_eq!(entry["seats"], json!(["human", "free"]));
    assert_eq!(
        (entry["watchers"].as_u64(), entry["moves"].as_u64()),
        (Some(0), Some(0))
    );

    let mut watcher = board.socket().await;
    watcher.open(id, &[]).await;
    assert_eq!(lobby_entry(&board, &secrets).await["watchers"], 1);

    let (status, v) = board
        .post_json(&format!("/api/games/{id}/join"), &json!({ "seat": 2 }))
        .await;
    assert_eq!(
        (status, v["error"].as_str()),
        (400, Some("bad request: expected {\"seat\": 0 or 1}"))
    );
    let (status, v) = board
        .post_json(&format!("/api/games/{id}/join"), &json!({ "seat": 0 }))
        .await;
    assert_eq!(status, 400, "the first seat is a person's: {v}");
    let (status, joined) = board
        .post_json(&format!("/api/games/{id}/join"), &json!({ "seat": 1 }))
        .await;
    assert_eq!(status, 200, "{joined}");
    let token = joined["token"].as_str().expect("token").to_string();
    secrets.push(token.clone());
    let (status, again) = board
        .post_json(&format!("/api/games/{id}/join"), &json!({ "seat": 1 }))
        .await;
    assert_eq!(status, 400, "a seat is taken once: {again}");
    assert_eq!(
        lobby_entry(&board, &secrets).await["seats"],
        json!(["human", "human"])
    );

    // The joined token holds the second seat; the watcher leaving is counted.
    let mut second = board.socket().await;
    let state = second.open(id, &[token.as_str()]).await;
    assert_eq!(state["seats"][1]["yours"], true);
    drop(watcher);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while lobby_entry(&board, &secrets).await["watchers"] != 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the watcher was not uncounted"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (status, _) = board
        .post_json("/api/games/999/join", &json!({ "seat": 1 }))
        .await;
    assert_eq!(status, 404);
}

/// A rematch over the WebSocket: refused to a spectator, then made by the player; the
/// player's next state names it with the player's own token, which holds the other
/// colour, and the engine, now first, opens the new game by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_the_engine_swaps_colours_and_the_engine_opens_it() {
    let board = Board::start(None).await;
    let created = board.create("fourshift", ["human", "engine:100"]).await;
    let id = created["id"].as_u64().expect("id");
    let token = tokens(&created)[0].clone();
    let mut watcher = board.socket().await;
    watcher.open(id, &[]).await;
    let mut page = board.socket().await;
    page.open(id, &[token.as_str()]).await;
    page.send(json!({ "type": "rematch" })).await;
    let refused = page.next_of("error", 10).await;
    assert_eq!(
        refused["message"],
        "a rematch follows a finished game: this one is still being played"
    );
    page.send(json!({ "type": "resign" })).await;
    watcher.send(json!({ "type": "rematch" })).await;
    let refused = watcher.next_of("error", 10).await;
    assert_eq!(
        refused["message"],
        "a rematch needs a seat of yours in this game"
    );
    let rematch = loop {
        let s = page.next_of("state", 10).await;
        if s["can_rematch"] == true {
            page.send(json!({ "type": "rematch" })).await;
        }
        if !s["rematch"].is_null() {
            break s["rematch"].clone();
        }
    };
    let new = rematch["id"].as_u64().expect("the rematch's id");
    assert_ne!(new, id);
    let mine: Vec<&str> = rematch["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(mine.len(), 1, "the player's own token only: {rematch}");
    assert!(!mine.contains(&token.as_str()), "a new token");
    let mut next = board.socket().await;
    let state = next.open(new, &mine).await;
    assert_eq!(state["seats"][0]["kind"], "engine");
    assert_eq!(state["seats"][1]["yours"], true, "colours swapped");
    // The engine may have moved already before this page followed the game.
    if state["moves"].as_array().map(Vec::len) != Some(1) {
        next.state_with(1, 30).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_clocks_is_created_shown_and_lost_on_time_over_the_socket() {
    let board = Board::start(None).await;
    // A bad time control is refused with the reason; nothing is created.
    let body = json!({ "spec": "gomoku:size=9", "seats": ["human", "human"], "time": "5x" });
    let (status, v) = board.post_json("/api/games", &body).await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().expect("error");
    assert!(
        e.starts_with("bad time control '5x': expected BASE[+INCREMENT]"),
        "{e}"
    );
    let (_, lobby) = board.get("/api/lobby").await;
    assert_eq!(lobby, "[]");
    // No time (or `none`): no clocks, as before.
    let body = json!({ "spec": "gomoku:size=9", "seats": ["human", "human"], "time": "none" });
    let (status, plain) = board.post_json("/api/games", &body).await;
    assert_eq!(status, 200, "{plain}");
    // One second each: Black never moves and loses on time.
    let body = json!({ "spec": "gomoku:size=9", "seats": ["human", "human"], "time": "1s" });
    let (status, created) = board.post_json("/api/games", &body).await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_u64().expect("id");
    let toks = tokens(&created);
    let toks: Vec<&str> = toks.iter().map(String::as_str).collect();
    let mut page = board.socket().await;
    let state = page.open(id, &toks).await;
    assert_eq!(state["clock"]["control"], "1s");
    assert_eq!(state["clock"]["running"], 0);
    let (_, lobby) = board.get("/api/lobby").await;
    let lobby: Value = serde_json::from_str(&lobby).expect("JSON");
    let rows = lobby.as_array().expect("rows");
    let timed = rows.iter().find(|g| g["id"] == id).expect("listed");
    assert_eq!(timed["time_control"], "1s");
    let untimed = rows
        .iter()
        .find(|g| g["id"] == plain["id"])
        .expect("listed");
    assert_eq!(untimed["time_control"], Value::Null);
    let over = loop {
        let s = page.next_of("state", 30).await;
        if !s["view"]["outcome"].is_null() {
            break s;
        }
    };
    assert_eq!(over["view"]["outcome"]["reason"], "Black lost on time");
    assert_eq!(over["view"]["outcome"]["winner"], 1);
    assert_eq!(over["clock"]["left_ms"], json!([0, 1000]));
    assert_eq!(over["moves"], json!([]));
    // A move now is refused with the reason.
    page.play("e5").await;
    let e = page.next_of("error", 10).await;
    assert_eq!(e["message"], "the game is over: Black lost on time");
    // The SGF record names the players and the loss on time; a resignation too.
    let (status, sgf) = board.get(&format!("/api/games/{id}/sgf")).await;
    assert_eq!(status, 200, "{sgf}");
    assert!(sgf.contains("PB[person]PW[person]RE[W+T]"), "{sgf}");
    // Its save file loads as the same game lost on time, clocks and all.
    let (status, save) = board.get(&format!("/api/games/{id}/save")).await;
    assert_eq!(status, 200, "{save}");
    assert!(save.contains("# time 1s\n# flag first\n"), "{save}");
    let (status, body) = board
        .post_raw("/api/load", "text/plain", save.into_bytes())
        .await;
    assert_eq!(status, 200, "{body}");
    let loaded: Value = serde_json::from_str(&body).expect("JSON");
    let loaded_id = loaded["id"].as_u64().expect("id");
    let (_, s) = board.get(&format!("/api/games/{loaded_id}")).await;
    let s: Value = serde_json::from_str(&s).expect("JSON");
    assert_eq!(s["view"]["outcome"]["reason"], "Black lost on time", "{s}");
    assert_eq!(s["clock"]["control"], "1s", "{s}");
    assert_eq!(s["clock"]["left_ms"], json!([0, 1000]), "{s}");
    // A clock record that does not read loads nothing and says which line.
    let bad = "boardlab-save 1\ngame gomoku:size=9\ne5\n# time 5x\n";
    let (status, body) = board
        .post_raw("/api/load", "text/plain", bad.as_bytes().to_vec())
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("line 4: bad time control '5x'"), "{body}");
    let plain_id = plain["id"].as_u64().expect("id");
    let plain_tokens = tokens(&plain);
    let plain_tokens: Vec<&str> = plain_tokens.iter().map(String::as_str).collect();
    let mut other = board.socket().await;
    other.open(plain_id, &plain_tokens).await;
    other.play("e5").await;
    other.state_with(1, 10).await;
    other.send(json!({ "type": "resign" })).await;
    let resigned = loop {
        let s = other.next_of("state", 10).await;
        if !s["view"]["outcome"].is_null() {
            break s;
        }
    };
    assert_eq!(resigned["view"]["outcome"]["reason"], "White resigned");
    let (_, sgf) = board.get(&format!("/api/games/{plain_id}/sgf")).await;
    assert!(sgf.contains("RE[B+R]") && sgf.contains(";B[ee]"), "{sgf}");
}
