//! The routes that keep notation out of the page and records in other programs' formats:
//! `POST /api/games/ID/pick` (the legal move that clicked squares name, or why none does),
//! `GET /api/games/ID/sgf` and `POST /api/sgf` (gomoku records).

mod support;

use serde_json::{Value, json};
use support::{Board, tokens};

/// Plays `moves` on a new two-person game of `spec`; its id.
async fn game_with(board: &Board, spec: &str, moves: &[&str]) -> u64 {
    let created = board.create(spec, ["human", "human"]).await;
    let id = created["id"].as_u64().expect("id");
    let t = tokens(&created);
    let mut page = board.socket().await;
    page.open(id, &[&t[0], &t[1]]).await;
    for (k, m) in moves.iter().enumerate() {
        page.play(m).await;
        page.state_with(k + 1, 10).await;
    }
    id
}

async fn pick(board: &Board, id: u64, squares: &[u16], ply: usize) -> (u16, Value) {
    board
        .post_json(
            &format!("/api/games/{id}/pick"),
            &json!({ "squares": squares, "ply": ply }),
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clicked_squares_name_a_legal_move_or_the_reason() {
    let board = Board::start(None).await;
    // Gomoku lists no moves: the server names the placement.
    let id = game_with(&board, "gomoku", &["h8"]).await;
    let h8 = 7 * 15 + 7;
    let (status, v) = pick(&board, id, &[h8 + 1], 1).await;
    assert_eq!((status, v["text"].as_str()), (200, Some("i8")), "{v}");
    assert_eq!(v["squares"], json!([h8 + 1]));
    let (status, v) = pick(&board, id, &[h8], 1).await;
    assert_eq!((status, v["error"].as_str()), (400, Some("h8 is occupied")));
    // The position moved on: nothing is named for an old one.
    let (status, v) = pick(&board, id, &[0], 0).await;
    assert_eq!(status, 400);
    assert!(
        v["error"].as_str().unwrap().contains("position changed"),
        "{v}"
    );
    // Connect6 pairs, either order.
    let id = game_with(&board, "connect6", &["j10"]).await;
    let (k11, l12) = (10 * 19 + 10, 11 * 19 + 11);
    let (_, a) = pick(&board, id, &[k11, l12], 1).await;
    let (_, b) = pick(&board, id, &[l12, k11], 1).await;
    assert_eq!(a, b);
    assert_eq!(a["text"], "k11,l12");
    // Amazons: a blocked queen; the opponent's queen.
    let id = game_with(&board, "amazons", &["d1-d7/g7"]).await;
    let (d10, d6) = (93, 53);
    let (status, v) = pick(&board, id, &[d10, d6], 1).await;
    assert_eq!(status, 400);
    assert_eq!(
        v["error"],
        "Black's piece on d10 cannot go to d6: d7 is in the way"
    );
    let (_, v) = pick(&board, id, &[3 + 60], 1).await;
    assert_eq!(
        v["error"],
        "d7 holds White's piece: Black moves one of its own"
    );
    // Clamp has drops as well as steps: the opponent's piece is still named as theirs.
    let id = game_with(&board, "clamp", &[]).await;
    let (_, v) = pick(&board, id, &[2 * 8 + 3], 0).await;
    assert_eq!(
        v["error"],
        "d3 holds White's piece: Black moves one of its own"
    );
    // Bad requests.
    let (status, v) = pick(&board, id, &[], 1).await;
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("not 0"), "{v}");
    let (status, _) = pick(&board, 999, &[1], 0).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gomoku_game_goes_out_as_sgf_and_comes_back_the_same() {
    let board = Board::start(None).await;
    let id = game_with(&board, "gomoku:size=15,rule=exact5", &["h8", "i9", "a1"]).await;
    let (status, sgf) = board.get(&format!("/api/games/{id}/sgf")).await;
    assert_eq!(status, 200);
    assert_eq!(
        sgf,
        "(;FF[4]GM[4]CA[UTF-8]AP[boardlab]SZ[15]RU[standard]PB[person]PW[person]\n\
         ;B[hh];W[ig];B[ao])\n",
        "the players named, the game going on (no RE)"
    );
    let (status, body) = board
        .post_raw("/api/sgf", "text/plain", sgf.into_bytes())
        .await;
    assert_eq!(status, 200, "{body}");
    let created: Value = serde_json::from_str(&body).expect("JSON");
    let copy = created["id"].as_u64().expect("id");
    assert_ne!(copy, id);
    let (_, state) = board.get(&format!("/api/games/{copy}")).await;
    let state: Value = serde_json::from_str(&state).expect("JSON");
    assert_eq!(state["moves"], json!(["h8", "i9", "a1"]));
    assert_eq!(state["spec"], "gomoku:size=15,rule=exact5");
    // Not gomoku, not SGF: the reason.
    let other = game_with(&board, "fourshift", &[]).await;
    let (status, body) = board.get(&format!("/api/games/{other}/sgf")).await;
    assert_eq!(status, 400);
    assert!(body.contains("gomoku games only"), "{body}");
    let (status, body) = board
        .post_raw("/api/sgf", "text/plain", b"(;GM[1]SZ[19];B[dd])".to_vec())
        .await;
    assert_eq!(status, 400);
    assert!(body.contains("GM[1]: not a gomoku record"), "{body}");
}
