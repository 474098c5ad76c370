use super::*;

fn ok(reply: &str) -> Vec<String> {
    assert!(reply.starts_with("ok "), "{reply}");
    reply.split_whitespace().skip(1).map(String::from).collect()
}

fn err(reply: &str, needle: &str) {
    assert!(reply.starts_with("error "), "{reply}");
    assert!(reply.contains(needle), "'{reply}' lacks '{needle}'");
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardlab-server-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_game_is_played_saved_and_restored() {
    let dir = temp_dir("unit");
    let (mut s, warnings) = Server::open(Some(&dir)).expect("open");
    assert!(warnings.is_empty());
    let created = ok(&s.handle("create gomoku:size=5"));
    assert_eq!(created[0], "created");
    let id = created[1].clone();
    let first = ok(&s.handle(&format!("join {id} first")))[3].clone();
    err(&s.handle(&format!("join {id} first")), "taken");
    let second = ok(&s.handle(&format!("join {id} second")))[3].clone();
    assert_ne!(first, second);
    // Out of turn, wrong token, illegal, garbage.
    err(
        &s.handle(&format!("move {id} {second} b1")),
        "not your turn",
    );
    err(&s.handle(&format!("move {id} nottoken a1")), "wrong token");
    err(&s.handle(&format!("move {id} {first} z9")), "illegal move");
    err(&s.handle("fly away"), "unknown command");
    err(&s.handle("move 99 x a1"), "no game 99");
    err(&s.handle("show 99999999999999999999999"), "not a game id");
    err(&s.handle(""), "empty");
    ok(&s.handle(&format!("move {id} {first} a1")));
    err(&s.handle(&format!("move {id} {second} a1")), "illegal move");
    ok(&s.handle(&format!("move {id} {second} b1")));
    ok(&s.handle(&format!("move {id} {first} a2")));
    // Restart: the game resumes with its tokens.
    drop(s);
    let (mut s, warnings) = Server::open(Some(&dir)).expect("reopen");
    assert!(warnings.is_empty(), "{warnings:?}");
    let shown = s.handle(&format!("show {id}"));
    assert!(shown.contains("ply 3 moves a1 b1 a2"), "{shown}");
    assert!(shown.contains("to-move second"), "{shown}");
    assert_eq!(ok(&s.handle(&format!("rejoin {id} {second}")))[2], "second");
    err(&s.handle(&format!("rejoin {id} abc")), "wrong token");
    for (tok, mv) in [
        (&second, "b2"),
        (&first, "a3"),
        (&second, "b3"),
        (&first, "a4"),
        (&second, "b4"),
    ] {
        ok(&s.handle(&format!("move {id} {tok} {mv}")));
    }
    let last = ok(&s.handle(&format!("move {id} {first} a5")));
    assert!(last.contains(&"over".to_string()), "{last:?}");
    err(&s.handle(&format!("move {id} {second} b5")), "over");
    let created = ok(&s.handle("create gomoku:size=5"));
    assert_ne!(created[1], id);
    err(&s.handle("create chess"), "bad game spec");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_number_of_games_is_bounded() {
    let (s, _) = Server::open(None).expect("open");
    let mut s = s.with_max_games(2);
    ok(&s.handle("create gomoku:size=5"));
    ok(&s.handle("create amazons:size=8"));
    err(&s.handle("create gomoku"), "too many games");
    assert_eq!(ok(&s.handle("list")), vec!["games", "1", "2"]);
}
