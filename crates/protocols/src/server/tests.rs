use super::*;

/// The words of an `ok` reply after `ok` (shared with `hardening_tests`).
pub(super) fn ok(reply: &str) -> Vec<String> {
    assert!(reply.starts_with("ok "), "{reply}");
    reply.split_whitespace().skip(1).map(String::from).collect()
}

/// Asserts an `error` reply that mentions `needle`.
pub(super) fn err(reply: &str, needle: &str) {
    assert!(reply.starts_with("error "), "{reply}");
    assert!(reply.contains(needle), "'{reply}' lacks '{needle}'");
}

/// A fresh (removed) temporary directory path for one test.
pub(super) fn temp_dir(name: &str) -> PathBuf {
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

/// Tries every square of a `size`×`size` board in order until the server accepts one;
/// the reply's words.
fn play_any(s: &mut Server, id: &str, token: &str, size: u8) -> Vec<String> {
    for col in 0..size {
        for row in 1..=size {
            let sq = format!("{}{row}", char::from(b'a' + col));
            let reply = s.handle(&format!("move {id} {token} {sq}"));
            if reply.starts_with("ok ") {
                return ok(&reply);
            }
            err(&reply, "illegal move");
        }
    }
    panic!("no legal square");
}

#[test]
fn a_player_beats_or_loses_to_the_engine_seat() {
    let dir = temp_dir("engine");
    let (mut s, _) = Server::open(Some(&dir)).expect("open");
    let id = ok(&s.handle("create gomoku:size=7"))[1].clone();
    let token = ok(&s.handle(&format!("join {id} first")))[3].clone();
    // Refusals: bad seat, bad think time, unknown game, seat taken.
    err(&s.handle(&format!("engine {id} third")), "first or second");
    for ms in ["5", "10001", "abc", "-3", "99999999999999999999999"] {
        err(
            &s.handle(&format!("engine {id} second {ms}")),
            "bad think time",
        );
    }
    err(&s.handle("engine 42 second"), "no game 42");
    err(&s.handle("engine x second"), "not a game id");
    err(&s.handle(&format!("engine {id} first")), "taken");
    assert_eq!(
        ok(&s.handle(&format!("engine {id} second 10"))),
        vec!["engine", &id, "second", "10"]
    );
    err(
        &s.handle(&format!("engine {id} second")),
        "taken by the engine",
    );
    err(
        &s.handle(&format!("join {id} second")),
        "taken by the engine",
    );
    assert!(
        s.handle(&format!("show {id}"))
            .contains("first=taken second=engine")
    );
    // Nothing to think while the player is to move.
    assert_eq!(s.think_pending(), 0);
    let mut plies = 0;
    loop {
        let moved = play_any(&mut s, &id, &token, 7);
        plies += 1;
        assert_eq!(moved[2], plies.to_string(), "{moved:?}");
        if moved.contains(&"over".to_string()) {
            break;
        }
        // The engine answers exactly once, then it is the player's turn again.
        assert_eq!(s.think_pending(), 1);
        plies += 1;
        let shown = s.handle(&format!("show {id}"));
        assert!(shown.contains(&format!("ply {plies} ")), "{shown}");
        if shown.contains("; over") {
            break;
        }
        assert!(shown.ends_with("to-move first"), "{shown}");
        assert!(plies < 49, "{shown}");
    }
    assert_eq!(s.think_pending(), 0);
    err(&s.handle(&format!("move {id} {token} a1")), "over");
    let id2 = ok(&s.handle("create gomoku:size=7"))[1].clone();
    ok(&s.handle(&format!("engine {id2} first 10")));
    // An engine seat on the side to move thinks at once.
    assert!(s.engine_work_pending());
    assert_eq!(s.think_pending(), 1);
    assert!(s.handle(&format!("show {id2}")).contains("ply 1 "));
    // The save file holds the engine line and every move; a restart resumes both games.
    let save = fs::read_to_string(dir.join(format!("{id}.save"))).expect("save");
    assert!(save.contains("\n# engine second 10 #@"), "{save}");
    assert_eq!(
        save.lines().filter(|l| !l.starts_with('#')).count(),
        plies + 2,
        "{save}"
    );
    let before = s.handle(&format!("show {id}"));
    drop(s);
    let (mut s, warnings) = Server::open(Some(&dir)).expect("reopen");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(s.handle(&format!("show {id}")), before);
    err(&s.handle(&format!("engine {id} first")), "over");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_to_move_after_a_restart_moves() {
    let dir = temp_dir("engine-restart");
    let (mut s, _) = Server::open(Some(&dir)).expect("open");
    let id = ok(&s.handle("create gomoku:size=7"))[1].clone();
    let token = ok(&s.handle(&format!("join {id} first")))[3].clone();
    ok(&s.handle(&format!("engine {id} second 10")));
    ok(&s.handle(&format!("move {id} {token} d4")));
    // The server stops before the engine thought.
    assert!(s.engine_work_pending());
    drop(s);
    let (mut s, _) = Server::open(Some(&dir)).expect("reopen");
    assert!(s.engine_work_pending());
    assert_eq!(s.think_pending(), 1);
    let shown = s.handle(&format!("show {id}"));
    assert!(shown.contains("ply 2 moves d4 "), "{shown}");
    assert!(shown.contains("to-move first"), "{shown}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn two_engine_seats_play_a_whole_game() {
    let (mut s, _) = Server::open(None).expect("open");
    let id = ok(&s.handle("create fourshift:size=4,k=3,pieces=3"))[1].clone();
    ok(&s.handle(&format!("engine {id} first 10")));
    ok(&s.handle(&format!("engine {id} second 10")));
    let n = s.think_pending();
    assert!(n > 0);
    let shown = s.handle(&format!("show {id}"));
    assert!(shown.contains(&format!("ply {n} ")), "{shown}");
    assert!(shown.contains("; over"), "{shown}");
}

#[test]
fn a_stale_engine_move_is_dropped() {
    let (mut s, _) = Server::open(None).expect("open");
    let id = ok(&s.handle("create gomoku:size=7"))[1].clone();
    ok(&s.handle(&format!("engine {id} first 10")));
    let n: u64 = id.parse().expect("id");
    let job = s.host().table().engine_job(n).expect("due");
    // Thought for this version, applied as if the game had changed meanwhile: dropped;
    // the next one counts.
    let answer = job.think.think(&mut |_| {});
    let applied = s
        .host()
        .table()
        .engine_moved(n, job.version + 1, job.seat, answer);
    assert_eq!(applied, boardlab_host::table::Applied::Stale);
    assert!(s.handle(&format!("show {id}")).contains("ply 0 "));
    assert_eq!(s.think_pending(), 1);
    assert!(s.handle(&format!("show {id}")).contains("ply 1 "));
}

#[test]
fn an_engine_that_gives_no_move_is_reported_and_no_move_is_played_for_it() {
    use std::sync::mpsc::sync_channel;
    let (mut s, _) = Server::open(None).expect("open");
    let (tx, rx) = sync_channel(64);
    let watcher = s.attach(tx, None);
    let id = ok(&s.handle("create gomoku:size=7"))[1].clone();
    ok(&s.request(watcher, &format!("watch {id}")));
    ok(&s.handle(&format!("engine {id} first 10")));
    let n: u64 = id.parse().expect("id");
    let job = s.host().table().engine_job(n).expect("due");
    s.host()
        .table()
        .engine_moved(n, job.version, job.seat, Err("out of memory".into()));
    assert!(
        s.handle(&format!("show {id}")).contains("ply 0 "),
        "no stand-in move"
    );
    let told = drain(&rx);
    assert!(
        told.iter().any(
            |l| l.starts_with(&format!("notice {id} the engine gave no move"))
                && l.contains("out of memory")
        ),
        "{told:?}"
    );
}

fn drain(rx: &std::sync::mpsc::Receiver<String>) -> Vec<String> {
    rx.try_iter().collect()
}

#[test]
fn watchers_and_players_get_every_move_pushed() {
    use std::sync::mpsc::sync_channel;
    let (mut s, _) = Server::open(None).expect("open");
    let (tx_a, rx_a) = sync_channel(64);
    let (tx_b, rx_b) = sync_channel(64);
    let (tx_w, rx_w) = sync_channel(64);
    let (a, b, w) = (
        s.attach(tx_a, None),
        s.attach(tx_b, None),
        s.attach(tx_w, None),
    );
    let id = ok(&s.request(a, "create gomoku:size=7"))[1].clone();
    err(&s.request(w, "watch 9"), "no game 9");
    err(&s.request(w, &format!("unwatch {id}")), "not watching");
    err(&s.handle(&format!("watch {id}")), "needs a connection");
    assert_eq!(
        ok(&s.request(w, &format!("watch {id}"))),
        vec!["watching", &id, "0"]
    );
    let ta = ok(&s.request(a, &format!("join {id} first")))[3].clone();
    let tb = ok(&s.request(b, &format!("join {id} second")))[3].clone();
    s.request(a, &format!("move {id} {ta} d4"));
    s.request(b, &format!("move {id} {tb} a1"));
    s.request(b, &format!("move {id} {tb} a2")); // out of turn: no push
    // The replies come first, in order, then pushes; the mover gets no push of its move.
    let wa = drain(&rx_a);
    assert_eq!(wa.len(), 4, "{wa:?}");
    assert!(wa[2].starts_with("ok moved"), "{wa:?}");
    assert_eq!(wa[3], format!("update {id} 2 a1"));
    let wb = drain(&rx_b);
    assert_eq!(wb[1], format!("update {id} 1 d4"));
    assert!(wb[2].starts_with("ok moved"), "{wb:?}");
    assert!(wb[3].starts_with("error not your turn"), "{wb:?}");
    assert_eq!(
        drain(&rx_w),
        vec![
            "error no game 9".to_string(),
            format!("error not watching game {id}"),
            format!("ok watching {id} 0"),
            format!("update {id} 1 d4"),
            format!("update {id} 2 a1"),
        ]
    );
    assert_eq!(
        ok(&s.request(w, &format!("unwatch {id}"))),
        vec!["unwatched", &id]
    );
    s.request(a, &format!("move {id} {ta} e4"));
    assert_eq!(drain(&rx_w), vec![format!("ok unwatched {id}")]);
    // Engine moves are pushed to the players and watchers too.
    let id2 = ok(&s.request(a, "create gomoku:size=7"))[1].clone();
    ok(&s.request(w, &format!("watch {id2}")));
    let t2 = ok(&s.request(a, &format!("join {id2} first")))[3].clone();
    ok(&s.request(a, &format!("engine {id2} second 10")));
    s.request(a, &format!("move {id2} {t2} d4"));
    drain(&rx_a);
    drain(&rx_w);
    assert_eq!(s.think_pending(), 1);
    let pushed = drain(&rx_a);
    assert_eq!(pushed.len(), 1, "{pushed:?}");
    assert!(
        pushed[0].starts_with(&format!("update {id2} 2 ")),
        "{pushed:?}"
    );
    assert_eq!(drain(&rx_w), pushed);
    // A closed connection is forgotten.
    drop(rx_w);
    s.request(a, &format!("move {id2} {t2} d5"));
    assert!(!s.is_attached(w));
    assert!(!s.follows_a_game(w));
}

#[test]
fn a_watcher_that_falls_behind_is_dropped() {
    use std::sync::mpsc::sync_channel;
    let (mut s, _) = Server::open(None).expect("open");
    let (tx_w, rx_w) = sync_channel(3);
    let w = s.attach(tx_w, None);
    let id = ok(&s.handle("create gomoku:size=7"))[1].clone();
    let tok = ok(&s.handle(&format!("join {id} first")))[3].clone();
    ok(&s.handle(&format!("engine {id} second 10")));
    s.request(w, &format!("watch {id}"));
    // The watcher reads nothing: its queue (3 lines) fills, then it is dropped, and the
    // game goes on regardless.
    for _ in 0..4 {
        play_any(&mut s, &id, &tok, 7);
        s.think_pending();
    }
    assert!(!s.is_attached(w));
    assert!(!s.follows_a_game(w));
    assert_eq!(drain(&rx_w).len(), 3);
    // Its later requests are answered as from no connection (nobody reads them).
    assert!(
        s.request(w, &format!("watch {id}"))
            .contains("needs a connection")
    );
}

#[test]
fn replies_to_huge_lines_stay_short() {
    let (mut s, _) = Server::open(None).expect("open");
    let long = "x".repeat(1 << 20);
    let id = ok(&s.handle("create gomoku:size=5"))[1].clone();
    let tok = ok(&s.handle(&format!("join {id} first")))[3].clone();
    for line in [
        long.clone(),
        format!("create {long}"),
        format!("create gomoku:size={long}"),
        format!("create gomoku:{long}=1"),
        format!("join {long} first"),
        format!("join {id} {long}"),
        format!("engine {id} second {long}"),
        format!("move {id} {tok} {long}"),
        format!("move {id} {long} a1"),
        format!("show {long}"),
        format!("watch {long}"),
        format!("rejoin {id} {long}"),
    ] {
        let reply = s.handle(&line);
        assert!(
            reply.starts_with("error "),
            "{}",
            &reply[..80.min(reply.len())]
        );
        assert!(
            reply.len() < 300,
            "{} bytes: {}",
            reply.len(),
            &reply[..200]
        );
    }
}

/// The host's rules of conduct through the line protocol: between two remote people a
/// takeback and a draw are offers the opponent answers (pushed to them), never done
/// alone; against the engine a takeback is immediate and a draw refused; a resignation
/// ends the game for everyone; engine help needs both players' consent.
#[test]
fn takebacks_draws_and_resignations_follow_the_rules_of_conduct() {
    use std::sync::mpsc::sync_channel;
    let (mut s, _) = Server::open(None).expect("open");
    let (tx_a, rx_a) = sync_channel(256);
    let (tx_b, rx_b) = sync_channel(256);
    let (a, b) = (s.attach(tx_a, None), s.attach(tx_b, None));
    let id = ok(&s.request(a, "create gomoku:size=7"))[1].clone();
    let ta = ok(&s.request(a, &format!("join {id} first")))[3].clone();
    let tb = ok(&s.request(b, &format!("join {id} second")))[3].clone();
    ok(&s.request(a, &format!("move {id} {ta} d4")));
    ok(&s.request(b, &format!("move {id} {tb} e5")));
    drain(&rx_a);
    drain(&rx_b);
    // First asks to take back its move: nothing changes until Second agrees.
    assert_eq!(
        ok(&s.request(a, &format!("takeback {id} {ta}"))),
        ["asked", id.as_str(), "takeback"]
    );
    assert_eq!(drain(&rx_b), [format!("update {id} offer takeback first")]);
    assert!(s.handle(&format!("show {id}")).contains("ply 2 "));
    err(&s.request(a, &format!("accept {id} {ta}")), "no offer");
    err(
        &s.request(a, &format!("takeback {id} {ta}")),
        "waits for an answer",
    );
    assert_eq!(
        ok(&s.request(b, &format!("decline {id} {tb}"))),
        ["declined", id.as_str(), "takeback"]
    );
    assert!(
        drain(&rx_a).contains(&format!("update {id} declined takeback first")),
        "the asker hears the answer"
    );
    ok(&s.request(a, &format!("takeback {id} {ta}")));
    assert_eq!(
        ok(&s.request(b, &format!("accept {id} {tb}"))),
        ["accepted", id.as_str(), "takeback"]
    );
    assert!(drain(&rx_a).contains(&format!("update {id} takeback 0")));
    assert!(s.handle(&format!("show {id}")).contains("ply 0 "));
    // Engine help between two remote people: off until both turn it on.
    assert_eq!(
        ok(&s.request(a, &format!("assist {id} {ta} on"))),
        ["assist", id.as_str(), "first", "on"]
    );
    err(
        &s.request(a, &format!("assist {id} {ta} maybe")),
        "wrong arguments",
    );
    // A draw offered and agreed ends the game; then nothing more is played.
    ok(&s.request(a, &format!("move {id} {ta} d4")));
    assert_eq!(
        ok(&s.request(b, &format!("draw {id} {tb}"))),
        ["asked", id.as_str(), "draw"]
    );
    ok(&s.request(a, &format!("accept {id} {ta}")));
    assert!(drain(&rx_b).contains(&format!("update {id} draw over drawn by agreement")));
    assert!(
        s.handle(&format!("show {id}"))
            .contains("; over drawn by agreement")
    );
    err(
        &s.request(b, &format!("move {id} {tb} e5")),
        "the game is over",
    );
    err(
        &s.request(b, &format!("resign {id} {tb}")),
        "the game is over",
    );
    // Against the engine: a takeback is immediate, a draw refused, a resignation final.
    let id = ok(&s.request(a, "create gomoku:size=7"))[1].clone();
    let ta = ok(&s.request(a, &format!("join {id} first")))[3].clone();
    ok(&s.request(a, &format!("engine {id} second 10")));
    ok(&s.request(a, &format!("move {id} {ta} d4")));
    assert_eq!(s.think_pending(), 1);
    assert_eq!(
        ok(&s.request(a, &format!("takeback {id} {ta}"))),
        ["takeback", id.as_str(), "0"]
    );
    err(
        &s.request(a, &format!("draw {id} {ta}")),
        "does not agree to draws",
    );
    err(
        &s.request(a, &format!("resign {id} nottoken")),
        "wrong token",
    );
    let resigned = ok(&s.request(a, &format!("resign {id} {ta}")));
    assert_eq!(&resigned[..4], ["resigned", id.as_str(), "first", "over"]);
    assert!(resigned.join(" ").ends_with("resigned"), "{resigned:?}");
    assert_eq!(s.think_pending(), 0, "no engine move after a resignation");
}

/// Fair play on the line protocol: a hint in a live game between two people only once
/// both turned engine help on; its answer goes to the one who asked, no one else.
#[test]
fn hints_follow_the_fair_play_rule_and_go_to_the_asker_only() {
    use std::sync::mpsc::sync_channel;
    let (mut s, _) = Server::open(None).expect("open");
    let (tx_a, rx_a) = sync_channel(256);
    let (tx_b, rx_b) = sync_channel(256);
    let (a, b) = (s.attach(tx_a, None), s.attach(tx_b, None));
    let id = ok(&s.request(a, "create gomoku:size=7"))[1].clone();
    let ta = ok(&s.request(a, &format!("join {id} first")))[3].clone();
    let tb = ok(&s.request(b, &format!("join {id} second")))[3].clone();
    err(
        &s.request(a, &format!("hint {id} {ta}")),
        "engine help is off",
    );
    ok(&s.request(a, &format!("assist {id} {ta} on")));
    err(
        &s.request(a, &format!("hint {id} {ta}")),
        "engine help is off",
    );
    err(&s.handle(&format!("hint {id} {ta}")), "needs a connection");
    ok(&s.request(b, &format!("assist {id} {tb} on")));
    assert_eq!(
        ok(&s.request(a, &format!("hint {id} {ta}"))),
        ["hint", id.as_str(), "thinking", "1000"]
    );
    err(&s.request(a, &format!("hint {id} {ta}")), "already working");
    drain(&rx_a);
    drain(&rx_b);
    assert_eq!(s.think_pending(), 1);
    let told = drain(&rx_a);
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].starts_with(&format!("notice {id} hint ")),
        "{told:?}"
    );
    assert!(drain(&rx_b).is_empty(), "the opponent is not told");
    assert!(
        s.handle(&format!("show {id}")).contains("ply 0 "),
        "nothing played"
    );
}

/// Analysis on the line protocol follows the fair-play rule: in a live game between two
/// people only once both turned engine help on, for spectators only once the game is
/// over, against the server's engine at once; each position's score goes to the one who
/// asked, no one else, thought on the host's engine queue.
#[test]
fn analyses_follow_the_fair_play_rule_and_go_to_the_asker_only() {
    use std::sync::mpsc::sync_channel;
    let (mut s, _) = Server::open(None).expect("open");
    let (tx_a, rx_a) = sync_channel(256);
    let (tx_b, rx_b) = sync_channel(256);
    let (tx_w, rx_w) = sync_channel(256);
    let (a, b, w) = (
        s.attach(tx_a, None),
        s.attach(tx_b, None),
        s.attach(tx_w, None),
    );
    let id = ok(&s.request(a, "create gomoku:size=7"))[1].clone();
    let ta = ok(&s.request(a, &format!("join {id} first")))[3].clone();
    let tb = ok(&s.request(b, &format!("join {id} second")))[3].clone();
    ok(&s.request(a, &format!("move {id} {ta} d4")));
    ok(&s.request(b, &format!("move {id} {tb} c3")));
    ok(&s.request(w, &format!("watch {id}")));
    err(
        &s.request(a, &format!("analyse {id} {ta}")),
        "engine help is off",
    );
    err(
        &s.request(w, &format!("analyse {id}")),
        "spectators get the engine's analysis once the game is over",
    );
    err(
        &s.request(w, &format!("analyse {id} nottoken")),
        "wrong token",
    );
    err(
        &s.handle(&format!("analyse {id} {ta}")),
        "needs a connection",
    );
    err(
        &s.request(a, &format!("analyse {id} {ta} x")),
        "wrong arguments",
    );
    ok(&s.request(a, &format!("assist {id} {ta} on")));
    err(
        &s.request(a, &format!("analyse {id} {ta}")),
        "engine help is off",
    );
    ok(&s.request(b, &format!("assist {id} {tb} on")));
    // Three positions (the start and after each move), 200 ms each (4 s shared out,
    // at most 200 ms a position).
    assert_eq!(
        ok(&s.request(a, &format!("analyze {id} {ta}"))),
        ["analysing", id.as_str(), "3", "200"]
    );
    err(
        &s.request(a, &format!("analyse {id} {ta}")),
        "already working",
    );
    for rx in [&rx_a, &rx_b, &rx_w] {
        drain(rx);
    }
    assert_eq!(s.think_pending(), 3, "one engine job per position");
    let told = drain(&rx_a);
    assert_eq!(told.len(), 4, "{told:?}");
    for (ply, line) in told[..3].iter().enumerate() {
        let prefix = format!("notice {id} analysis {ply} ");
        let score = line
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{line}"));
        let score: i32 = score.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!((-10_000..=10_000).contains(&score), "{line}");
    }
    assert_eq!(told[3], format!("notice {id} analysis done 3"));
    assert!(drain(&rx_b).is_empty(), "the opponent is not told");
    assert!(drain(&rx_w).is_empty(), "the spectator is not told");
    // Once the game is over, the spectator may analyse it.
    ok(&s.request(b, &format!("resign {id} {tb}")));
    drain(&rx_w);
    assert_eq!(
        ok(&s.request(w, &format!("analyse {id}"))),
        ["analysing", id.as_str(), "3", "200"]
    );
    assert_eq!(s.think_pending(), 3);
    let told = drain(&rx_w);
    assert_eq!(told.last(), Some(&format!("notice {id} analysis done 3")));
    // Against the server's engine, help needs no consent.
    let vs = ok(&s.request(a, "create gomoku:size=7"))[1].clone();
    let tv = ok(&s.request(a, &format!("join {vs} first")))[3].clone();
    ok(&s.request(a, &format!("engine {vs} second 10")));
    assert_eq!(
        ok(&s.request(a, &format!("analyse {vs} {tv}"))),
        ["analysing", vs.as_str(), "1", "200"]
    );
}

/// The line protocol's spectators are counted in the host's lobby beside the browser
/// board's: a connection watching a game it holds no seat in, once however often it
/// asks, until it unwatches or goes.
#[test]
fn line_protocol_spectators_are_counted_in_the_lobby() {
    use std::sync::mpsc::sync_channel;
    let (mut s, _) = Server::open(None).expect("open");
    let (tx_a, _rx_a) = sync_channel(256);
    let (tx_v, _rx_v) = sync_channel(256);
    let (tx_w, _rx_w) = sync_channel(256);
    let (a, v, w) = (
        s.attach(tx_a, None),
        s.attach(tx_v, None),
        s.attach(tx_w, None),
    );
    let id = ok(&s.request(a, "create gomoku:size=7"))[1].clone();
    let n: u64 = id.parse().expect("id");
    let watchers = |s: &Server| {
        let lobby = s.host().table().lobby();
        lobby.iter().find(|e| e.id == n).map(|e| e.watchers)
    };
    assert_eq!(watchers(&s), Some(0));
    ok(&s.request(v, &format!("watch {id}")));
    ok(&s.request(v, &format!("watch {id}")));
    assert_eq!(watchers(&s), Some(1), "one connection, one spectator");
    ok(&s.request(w, &format!("watch {id}")));
    assert_eq!(watchers(&s), Some(2));
    // A player watching its own game is no spectator.
    ok(&s.request(a, &format!("join {id} first")));
    ok(&s.request(a, &format!("watch {id}")));
    assert_eq!(watchers(&s), Some(2));
    // A page's spectator is counted with them (one table).
    let page = s.host().table().watch(n).expect("watch");
    assert_eq!(watchers(&s), Some(3));
    drop(page);
    ok(&s.request(v, &format!("unwatch {id}")));
    assert_eq!(watchers(&s), Some(1));
    s.detach(w);
    assert_eq!(watchers(&s), Some(0), "a connection gone is no spectator");
}

#[test]
fn a_timed_game_shows_its_clocks_and_the_flag_reaches_the_watchers() {
    let (mut s, _) = Server::open(None).expect("open");
    err(
        &s.handle("create gomoku:size=9 5x"),
        "bad time control '5x': expected BASE[+INCREMENT]",
    );
    err(&s.handle("create gomoku 5m 3s"), "wrong arguments");
    assert!(s.host().table().ids().is_empty(), "nothing created");
    let untimed = ok(&s.handle("create gomoku:size=9 none"));
    assert_eq!(untimed.len(), 3, "no clocks: {untimed:?}");
    assert!(!s.handle(&format!("show {}", untimed[1])).contains("clock"));
    let created = ok(&s.handle("create gomoku:size=9 1m+2s"));
    assert_eq!(created[3..], ["time", "1m+2s"]);
    let id = created[1].clone();
    let shown = s.handle(&format!("show {id}"));
    assert!(
        shown
            .contains("moves  ; clock 1m+2s first 60000 second 60000 running none ; to-move first"),
        "the clock waits for both players: {shown}"
    );
    let first = ok(&s.handle(&format!("join {id} first")))[3].clone();
    let second = ok(&s.handle(&format!("join {id} second")))[3].clone();
    let moved = ok(&s.handle(&format!("move {id} {first} e5")));
    // Black's clock: a minute, less the moments the move took, plus 2 s.
    assert_eq!(moved[..4], ["moved", &id, "1", "e5"]);
    assert_eq!(moved[4], "clock");
    let black: u64 = moved[5].parse().expect("ms");
    assert!((61_000..=62_000).contains(&black), "{moved:?}");
    // White's clock runs from the move on.
    let white: u64 = moved[6].parse().expect("ms");
    assert!((59_000..=60_000).contains(&white), "{moved:?}");
    let shown = s.handle(&format!("show {id}"));
    assert!(shown.contains("running second ; to-move second"), "{shown}");
    ok(&s.handle(&format!("resign {id} {second}")));

    // A one-second clock that nobody moves on: the host flags it, and the watcher hears.
    let id = ok(&s.handle("create gomoku:size=9 1s"))[1].clone();
    let (tx, rx) = std::sync::mpsc::sync_channel(16);
    let watcher = s.attach(tx, None);
    ok(&s.request(watcher, &format!("watch {id}")));
    ok(&s.handle(&format!("join {id} first")));
    let second = ok(&s.handle(&format!("join {id} second")))[3].clone();
    // The watch reply comes first on the connection's queue, then the push.
    let wait = std::time::Duration::from_secs(30);
    let pushed = std::iter::from_fn(|| rx.recv_timeout(wait).ok())
        .find(|line| line.starts_with("update "))
        .expect("a push");
    assert_eq!(
        pushed,
        format!("update {id} flag first over Black lost on time")
    );
    err(
        &s.handle(&format!("move {id} {second} e5")),
        "the game is over: Black lost on time",
    );
    let shown = s.handle(&format!("show {id}"));
    assert!(
        shown.contains("clock 1s first 0 second 1000 running none ; over Black lost on time"),
        "{shown}"
    );
}

#[test]
fn a_rematch_between_two_people_is_offered_and_accepted_each_told_their_own_seat() {
    use std::sync::mpsc::sync_channel;
    let (mut s, _) = Server::open(None).expect("open");
    let (tx_a, rx_a) = sync_channel(64);
    let (tx_b, rx_b) = sync_channel(64);
    let (tx_w, rx_w) = sync_channel(64);
    let (a, b, w) = (
        s.attach(tx_a, None),
        s.attach(tx_b, None),
        s.attach(tx_w, None),
    );
    let id = ok(&s.request(a, "create gomoku:size=9 5m+3s"))[1].clone();
    let first = ok(&s.request(a, &format!("join {id} first")))[3].clone();
    let second = ok(&s.request(b, &format!("join {id} second")))[3].clone();
    ok(&s.request(w, &format!("watch {id}")));
    // Not while the game is played, and not with a wrong token.
    err(
        &s.request(a, &format!("rematch {id} {first}")),
        "a rematch follows a finished game",
    );
    err(
        &s.request(a, &format!("rematch {id} nottoken")),
        "wrong token",
    );
    ok(&s.request(a, &format!("resign {id} {first}")));
    let games = s.host().table().ids().len();
    // The first player asks: an offer the second player answers.
    assert_eq!(
        ok(&s.request(a, &format!("rematch {id} {first}"))),
        ["asked", id.as_str(), "rematch"]
    );
    assert_eq!(s.host().table().ids().len(), games, "only offered");
    drain(&rx_a);
    assert!(drain(&rx_b).contains(&format!("update {id} offer rematch first")));
    assert!(drain(&rx_w).contains(&format!("update {id} offer rematch first")));
    err(
        &s.request(a, &format!("accept {id} {first}")),
        "no offer of your opponent",
    );
    // Accepted: the reply names the new game, this player's seat there (the other
    // colour) and its token; the one who offered is told their own, the watcher no token.
    let accepted = ok(&s.request(b, &format!("accept {id} {second}")));
    assert_eq!(
        accepted[..4],
        ["accepted", id.as_str(), "rematch", &accepted[3]]
    );
    let new = accepted[3].clone();
    assert_eq!(accepted[4], "first", "the second player plays first now");
    let token_b = accepted[5].clone();
    assert_eq!(s.host().table().ids().len(), games + 1);
    let pushed_a = drain(&rx_a);
    let told: Vec<&String> = pushed_a
        .iter()
        .filter(|l| l.starts_with(&format!("update {id} rematch ")))
        .collect();
    assert_eq!(told.len(), 1, "{pushed_a:?}");
    let words: Vec<&str> = told[0].split_whitespace().collect();
    assert_eq!(
        words[..5],
        ["update", id.as_str(), "rematch", new.as_str(), "second"]
    );
    let token_a = words[5].to_string();
    assert_ne!(token_a, token_b);
    assert_eq!(
        drain(&rx_w),
        vec![format!("update {id} rematch {new}")],
        "a watcher learns the new game, not a token"
    );
    let pushed_b = drain(&rx_b);
    assert_eq!(
        pushed_b.iter().filter(|l| l.contains(&token_b)).count(),
        1,
        "the accepting player has the token in the reply only: {pushed_b:?}"
    );
    assert!(
        !pushed_b.iter().any(|l| l.contains(&token_a)),
        "{pushed_b:?}"
    );
    // The tokens hold the swapped seats; the time control is the same.
    assert_eq!(
        ok(&s.request(a, &format!("rejoin {new} {token_a}")))[2],
        "second"
    );
    let shown = s.handle(&format!("show {new}"));
    assert!(shown.contains("first=taken second=taken ply 0"), "{shown}");
    assert!(shown.contains("; clock 5m+3s first "), "{shown}");
    // The accepting player's connection plays the new game: it hears the moves there.
    ok(&s.request(b, &format!("move {new} {token_b} e5")));
    ok(&s.request(a, &format!("move {new} {token_a} a1")));
    assert!(
        drain(&rx_b)
            .iter()
            .any(|l| l.starts_with(&format!("update {new} 2 a1")))
    );
    // Asked again by either player: the same game, with that player's own seat.
    assert_eq!(
        ok(&s.request(a, &format!("rematch {id} {first}"))),
        [
            "rematch",
            id.as_str(),
            new.as_str(),
            "second",
            token_a.as_str()
        ]
    );
    assert_eq!(s.host().table().ids().len(), games + 1);
}

#[test]
fn a_rematch_offer_is_declined_or_made_at_once_against_the_engine() {
    let (mut s, _) = Server::open(None).expect("open");
    let id = ok(&s.handle("create gomoku:size=9"))[1].clone();
    let first = ok(&s.handle(&format!("join {id} first")))[3].clone();
    let second = ok(&s.handle(&format!("join {id} second")))[3].clone();
    ok(&s.handle(&format!("resign {id} {first}")));
    let n: u64 = id.parse().expect("id");
    // Offered on the other door, declined here.
    let offered = s.host().table().rematch(n, [true, false]).expect("offered");
    assert_eq!(offered, None);
    let games = s.host().table().ids().len();
    assert_eq!(
        ok(&s.handle(&format!("decline {id} {second}"))),
        ["declined", id.as_str(), "rematch"]
    );
    assert_eq!(s.host().table().ids().len(), games, "no game made");
    // Offered on the other door, accepted here.
    assert_eq!(s.host().table().rematch(n, [true, false]), Ok(None));
    let accepted = ok(&s.handle(&format!("accept {id} {second}")));
    assert_eq!(accepted[..3], ["accepted", id.as_str(), "rematch"]);
    assert_eq!(accepted[4], "first");
    // Against the engine: made at once, the engine keeping its level in the other seat.
    let id = ok(&s.handle("create fourshift"))[1].clone();
    let mine = ok(&s.handle(&format!("join {id} first")))[3].clone();
    ok(&s.handle(&format!("engine {id} second 10")));
    ok(&s.handle(&format!("resign {id} {mine}")));
    let made = ok(&s.handle(&format!("rematch {id} {mine}")));
    assert_eq!((made[0].as_str(), made[3].as_str()), ("rematch", "second"));
    let shown = s.handle(&format!("show {}", made[2]));
    assert!(shown.contains("first=engine second=taken"), "{shown}");
    assert_eq!(
        ok(&s.handle(&format!("rejoin {} {}", made[2], made[4])))[2],
        "second"
    );
}
