use std::{fs, os::unix::fs::PermissionsExt, path::PathBuf};

use super::*;

/// A fresh (removed) temporary directory path for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardlab-client-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

const GOMOKU5: &str = "gomoku:size=5,rule=freestyle";

#[test]
fn the_follower_draws_each_game_with_its_last_move_marked() {
    let mut f = Follower::new();
    let out = f.on_line(&format!("ok created 3 {GOMOKU5}"), false);
    assert!(out.ask.is_empty());
    assert_eq!(out.drawn, Some(3));
    assert_eq!(out.print.first().map(String::as_str), Some("  a b c d e"));
    assert_eq!(
        out.print.last().map(String::as_str),
        Some("game 3 · move 1 · Black (first) to move")
    );
    let out = f.on_line("ok moved 3 1 a1", false);
    assert!(
        out.print.iter().any(|l| l.starts_with("1[x]. . . .")),
        "{out:?}"
    );
    assert!(out.print.contains(&"last a1".to_string()), "{out:?}");
    assert_eq!(
        out.print.last().map(String::as_str),
        Some("game 3 · move 2 · White (second) to move")
    );
    assert_eq!(f.state(3), Some(Standing::ToMove(Player::Second)));
    // A repeat is ignored; a gap asks for the whole game; a game not followed is ignored.
    assert_eq!(f.on_line("update 3 1 a1", false), Followed::default());
    assert_eq!(f.on_line("update 3 5 c3", false).ask, vec!["show 3"]);
    assert_eq!(f.on_line("update 9 1 c3", false), Followed::default());
    // A takeback asks for the whole game again.
    assert_eq!(f.on_line("update 3 takeback 0", false).ask, vec!["show 3"]);
    assert_eq!(
        f.on_line("ok joined 4 first abc", false).ask,
        vec!["show 4"]
    );
    assert_eq!(f.on_line("ok watching 4 2", false).ask, vec!["show 4"]);
    let shown =
        format!("ok game 4 {GOMOKU5} first=taken second=free ply 2 moves a1 b2 ; to-move first");
    let out = f.on_line(&shown, true);
    assert!(
        out.print.iter().any(|l| l.starts_with("2 .[o]. . .")),
        "{out:?}"
    );
    // The client's own show of a board it already has draws nothing; the user's does.
    assert!(f.on_line(&shown, true).print.is_empty());
    assert!(!f.on_line(&shown, false).print.is_empty());
    for garbage in [
        "ok game 4 chess first=x ply 2 moves a1 ; to-move first",
        "ok game 4 gomoku:size=5 ply 2 moves a1 a1 ; to-move first",
        "ok moved x y z",
        "update 3 99999999999999999999999 a1",
        "error no game 4",
        "",
    ] {
        assert!(f.on_line(garbage, false).print.is_empty(), "{garbage}");
    }
    // The board is the client's own copy: its rules say whether the game is over.
    let out = f.on_line("update 4 3 a2 over whatever", false);
    assert_eq!(
        out.print.last().map(String::as_str),
        Some("game 4 · move 4 · White (second) to move")
    );
}

#[test]
fn the_follower_names_the_winner_and_clamp_captures() {
    let mut f = Follower::new();
    f.on_line(&format!("ok created 1 {GOMOKU5}"), false);
    let moves = ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"];
    let mut last = Followed::default();
    for (i, mv) in moves.iter().enumerate() {
        last = f.on_line(&format!("update 1 {} {mv}", i + 1), false);
    }
    assert_eq!(
        f.state(1),
        Some(Standing::Over(Outcome::Win(Player::First)))
    );
    let status = last.print.last().expect("status");
    assert!(
        status.starts_with("game 1 · game over after 9 moves: Black (first) wins: "),
        "{status}"
    );
    f.on_line("ok created 2 clamp", false);
    for (i, mv) in ["d6-d4", "c3-c4", "g7", "e3-e4"].iter().enumerate() {
        last = f.on_line(&format!("update 2 {} {mv}", i + 1), false);
    }
    assert!(
        last.print.contains(&"last e3-e4 captures d4".to_string()),
        "{last:?}"
    );
    assert!(
        last.print.iter().any(|l| l.contains("drop zones")),
        "the legend: {last:?}"
    );
}

/// A client that joined game 3 (gomoku 5×5) as `seat` with token `tok`, board known.
fn joined(seat: &str, tokens: Option<TokenFile>) -> Client {
    let mut s = Client::new("127.0.0.1:7", tokens, false);
    s.sent(&format!("create {GOMOKU5}"), false);
    s.on_line(&format!("ok created 3 {GOMOKU5}"));
    s.sent(&format!("join 3 {seat}"), false);
    let r = s.on_line(&format!("ok joined 3 {seat} tok"));
    assert_eq!(r.ask, vec!["show 3"]);
    s.sent("show 3", true);
    s
}

#[test]
fn bare_moves_need_a_seat_and_then_carry_its_token() {
    let s = Client::new("127.0.0.1:7", None, false);
    let e = s.request_for("c4").expect_err("no game");
    assert!(e.contains("'c4' is not a command"), "{e}");
    assert_eq!(s.request_for("   "), Ok(None));
    // Commands go through as typed, whatever their case.
    assert_eq!(s.request_for("LIST"), Ok(Some("LIST".into())));
    assert_eq!(
        s.request_for("join 1 first"),
        Ok(Some("join 1 first".into()))
    );
    let mut s = Client::new("127.0.0.1:7", None, false);
    s.sent("create gomoku", false);
    s.on_line("ok created 5 gomoku:size=15,rule=freestyle");
    // The game just created is the one `join SEAT`, `engine SEAT`, `show` name.
    assert_eq!(s.request_for("join first"), Ok(Some("join 5 first".into())));
    assert_eq!(
        s.request_for("engine second 50"),
        Ok(Some("engine 5 second 50".into()))
    );
    assert_eq!(s.request_for("show"), Ok(Some("show 5".into())));
    assert_eq!(s.request_for("show 2"), Ok(Some("show 2".into())));
    let e = s.request_for("h8").expect_err("no seat");
    assert!(e.contains("you hold no seat in game 5"), "{e}");
    let s = joined("second", None);
    assert_eq!(s.request_for(" c3 "), Ok(Some("move 3 tok c3".into())));
    assert_eq!(s.prompt(), "game 3 (White)> ");
}

#[test]
fn holding_both_seats_plays_the_side_to_move() {
    let mut s = joined("first", None);
    s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=free ply 0 moves  ; to-move first"
    ));
    s.sent("join 3 second", false);
    s.on_line("ok joined 3 second tok2");
    s.sent("show 3", true);
    s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    assert_eq!(s.request_for("a1"), Ok(Some("move 3 tok a1".into())));
    s.sent("move 3 tok a1", false);
    s.on_line("ok moved 3 1 a1");
    assert_eq!(s.request_for("b1"), Ok(Some("move 3 tok2 b1".into())));
}

#[test]
fn the_client_says_whose_turn_and_who_won() {
    let mut s = Client::new("127.0.0.1:7", None, false);
    s.sent("join 3 first", false);
    let r = s.on_line("ok joined 3 first tok");
    // Without a tokens file the token is shown, to rejoin by hand.
    assert_eq!(
        r.print,
        vec!["you play the first seat in game 3; your seat's token (keep it to rejoin): tok"]
    );
    s.sent("show 3", true);
    let r = s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    // The client's own `show`: not printed, but the board and the turn are.
    assert!(!r.print.iter().any(|l| l.starts_with("ok game")), "{r:?}");
    assert_eq!(
        r.print.last().map(String::as_str),
        Some("your turn: you play Black (first) in game 3; type your move")
    );
    // Shown again with nothing new: nothing printed, no second "your turn".
    s.sent("show 3", true);
    let r = s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    assert!(r.print.is_empty(), "{r:?}");
    // Joining a game whose board was drawn at `create`: the turn is said at once, the
    // board not drawn again.
    let mut c = Client::new("127.0.0.1:7", None, false);
    c.sent(&format!("create {GOMOKU5}"), false);
    c.on_line(&format!("ok created 4 {GOMOKU5}"));
    c.sent("join 4 first", false);
    let r = c.on_line("ok joined 4 first t");
    assert_eq!(
        r.print,
        vec![
            "you play Black (first) in game 4; your seat's token (keep it to rejoin): t",
            "your turn: you play Black (first) in game 4; type your move"
        ]
    );
    s.sent("move 3 tok a1", false);
    let r = s.on_line("ok moved 3 1 a1");
    // The board shows the move: no protocol line before it.
    assert!(!r.print.iter().any(|l| l.starts_with("ok ")), "{r:?}");
    assert!(!r.print.iter().any(|l| l.starts_with("your turn")), "{r:?}");
    let r = s.on_line("update 3 2 b1");
    assert_eq!(r.print[0], "game 3, move 2: b1");
    assert!(r.print.iter().any(|l| l.starts_with("your turn")), "{r:?}");
    for (ply, mv) in [
        (3, "a2"),
        (4, "b2"),
        (5, "a3"),
        (6, "b3"),
        (7, "a4"),
        (8, "b4"),
    ] {
        s.on_line(&format!("update 3 {ply} {mv}"));
    }
    s.sent("move 3 tok a5", false);
    let r = s.on_line("ok moved 3 9 a5 over five in a row a1-a5");
    assert_eq!(
        r.print.last().map(String::as_str),
        Some("game 3 is over: you win as Black (first)")
    );
    let mut other = joined("second", None);
    other.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 8 moves a1 b1 a2 b2 a3 b3 a4 b4 ; \
         to-move first"
    ));
    let r = other.on_line("update 3 9 a5 over five in a row a1-a5");
    assert_eq!(
        r.print.last().map(String::as_str),
        Some("game 3 is over: you lose: Black (first) wins")
    );
    // A watcher's boards say nothing about turns.
    let mut watcher = Client::new("127.0.0.1:7", None, false);
    watcher.sent("watch 3", false);
    watcher.on_line("ok watching 3 0");
    watcher.sent("show 3", true);
    let r = watcher.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    assert!(!r.print.iter().any(|l| l.contains("your turn")), "{r:?}");
}

#[test]
fn rejoined_seats_are_held_and_help_explains_bare_moves() {
    let mut s = Client::new("127.0.0.1:7", None, false);
    s.sent("rejoin 8 abcd", false);
    let r = s.on_line("ok rejoined 8 second");
    assert_eq!(r.ask, vec!["show 8"]);
    assert_eq!(s.request_for("c3"), Ok(Some("move 8 abcd c3".into())));
    s.sent("help", false);
    let r = s.on_line("ok commands: create SPEC | ...");
    assert!(r.print[1].contains("a move alone (c4) plays it"), "{r:?}");
    // A refused rejoin holds nothing.
    let mut s = Client::new("127.0.0.1:7", None, false);
    s.sent("rejoin 8 zzzz", false);
    s.on_line("error wrong token for this game");
    assert!(s.request_for("c3").is_err());
    s.sent("quit", false);
    assert!(!s.said_bye());
    s.on_line("ok bye");
    assert!(s.said_bye());
}

#[test]
fn tokens_are_saved_private_found_per_game_and_forgotten_at_the_end() {
    let dir = temp_dir("tokens");
    let path = dir.join("state").join("tokens");
    let file = TokenFile::at(&path);
    let mut s = joined("first", Some(file.clone()));
    let mode = |p: &std::path::Path| fs::metadata(p).expect("exists").permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&dir.join("state")), 0o700);
    let saved = file.find("127.0.0.1:7", 3).expect("read");
    assert_eq!(
        saved,
        vec![SavedSeat {
            addr: "127.0.0.1:7".into(),
            game: 3,
            seat: Player::First,
            token: "tok".into()
        }]
    );
    assert!(file.find("127.0.0.1:8", 3).expect("read").is_empty());
    assert!(file.find("127.0.0.1:7", 4).expect("read").is_empty());
    // A new token for the same seat replaces the old one; other games stay.
    let other = SavedSeat {
        addr: "example.org:9".into(),
        game: 3,
        seat: Player::Second,
        token: "t9".into(),
    };
    file.save(&other).expect("save");
    file.save(&SavedSeat {
        token: "tok-new".into(),
        ..saved[0].clone()
    })
    .expect("save");
    let found = file.find("127.0.0.1:7", 3).expect("read");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].token, "tok-new");
    // A file others may read is tightened, with a note.
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).expect("chmod");
    let notes = file.save(&other).expect("save");
    assert!(notes.iter().any(|n| n.contains("tightened")), "{notes:?}");
    assert_eq!(mode(&path), 0o600);
    assert!(
        file.save(&SavedSeat {
            token: "a b".into(),
            ..other.clone()
        })
        .is_err()
    );
    // The end of the game forgets its tokens (and only its).
    s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 8 moves a1 b1 a2 b2 a3 b3 a4 b4 ; \
         to-move first"
    ));
    s.on_line("ok moved 3 9 a5 over five in a row a1-a5");
    assert!(file.find("127.0.0.1:7", 3).expect("read").is_empty());
    assert_eq!(file.find("example.org:9", 3).expect("read"), vec![other]);
    // So does the server's notice that a game expired.
    let mut s = Client::new("127.0.0.1:7", Some(file.clone()), false);
    s.sent("join 6 second", false);
    s.on_line("ok joined 6 second t6");
    assert_eq!(file.find("127.0.0.1:7", 6).expect("read").len(), 1);
    let r = s.on_line("notice 6 expired: the game is archived and closed");
    assert_eq!(
        r.print,
        vec!["game 6: expired: the game is archived and closed"]
    );
    assert!(file.find("127.0.0.1:7", 6).expect("read").is_empty());
    assert!(s.request_for("c3").is_err());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn rejoin_takes_the_one_saved_seat_or_says_why_not() {
    let dir = temp_dir("rejoin");
    let file = TokenFile::at(dir.join("tokens"));
    let seat = |seat, token: &str| SavedSeat {
        addr: "h:1".into(),
        game: 2,
        seat,
        token: token.into(),
    };
    let e = rejoin_request(Some(&file), "h:1", 2, None).expect_err("none saved");
    assert!(
        e.to_string().contains("no token saved for game 2 of h:1"),
        "{e}"
    );
    file.save(&seat(Player::Second, "t2")).expect("save");
    assert_eq!(
        rejoin_request(Some(&file), "h:1", 2, None).expect("one"),
        "rejoin 2 t2"
    );
    file.save(&seat(Player::First, "t1")).expect("save");
    let e = rejoin_request(Some(&file), "h:1", 2, None).expect_err("two");
    assert!(e.to_string().contains("--seat first|second"), "{e}");
    assert_eq!(
        rejoin_request(Some(&file), "h:1", 2, Some(Player::First)).expect("chosen"),
        "rejoin 2 t1"
    );
    assert!(rejoin_request(None, "h:1", 2, None).is_err());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn server_lines_are_told_in_words_without_protocol_syntax() {
    let mut s = Client::new("127.0.0.1:7", None, false);
    // Before any game the prompt names the server.
    assert_eq!(s.prompt(), "127.0.0.1:7> ");
    s.sent("list", false);
    assert_eq!(
        s.on_line("ok games").print,
        vec!["no games on the server yet: 'create gomoku' starts one"]
    );
    s.sent("list", false);
    assert_eq!(
        s.on_line("ok games 1 2").print,
        vec!["games on the server: 1, 2"]
    );
    s.sent("join 3 first", false);
    s.on_line("ok joined 3 first tok");
    s.sent("show 3", true);
    s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    s.sent("move 3 tok a1", false);
    let r = s.on_line("ok moved 3 1 a1");
    assert!(!r.print.iter().any(|l| l.starts_with("ok ")), "{r:?}");
    let r = s.on_line("update 3 2 b1");
    assert_eq!(
        r.print.first().map(String::as_str),
        Some("game 3, move 2: b1")
    );
    s.sent("move 3 tok b2", false);
    let r = s.on_line("error not your turn: second is to move");
    assert_eq!(r.print, vec!["not your turn: White (second) is to move"]);
    s.sent("move 3 tok zz", false);
    let r = s.on_line("error illegal move 'zz': not a square");
    assert_eq!(r.print, vec!["error: illegal move 'zz': not a square"]);
}

#[test]
fn tokens_are_kept_under_the_address_the_server_resolves_to() {
    assert_eq!(token_key("127.0.0.1:4000"), "127.0.0.1:4000");
    assert_eq!(token_key("localhost:4000"), "127.0.0.1:4000");
    assert_eq!(token_key("no port"), "no port", "unresolvable: as typed");
}

#[test]
fn the_follower_draws_only_the_games_of_its_registry() {
    // A game the registry lacks is played without its board.
    let mut without = Follower::new().with_games(boardlab_games::Registry::empty());
    assert_eq!(
        without.on_line(&format!("ok created 3 {GOMOKU5}"), false),
        Followed::default()
    );
    assert_eq!(without.state(3), None);
    // Once registered, it is drawn.
    let mut with = Follower::new()
        .with_games(boardlab_games::Registry::empty().with::<boardlab_games::Gomoku>());
    let out = with.on_line(&format!("ok created 3 {GOMOKU5}"), false);
    assert_eq!(out.drawn, Some(3));
    assert_eq!(with.state(3), Some(Standing::ToMove(Player::First)));
}

#[test]
fn a_seats_requests_typed_alone_carry_the_game_and_the_token() {
    let s = Client::new("127.0.0.1:7", None, false);
    let e = s.request_for("takeback").expect_err("no game");
    assert!(e.contains("'takeback' needs a game"), "{e}");
    // Typed whole, they go as typed.
    assert_eq!(s.request_for("draw 4 abc"), Ok(Some("draw 4 abc".into())));
    let s = joined("second", None);
    for (typed, sent) in [
        ("takeback", "takeback 3 tok"),
        ("DRAW", "draw 3 tok"),
        ("accept", "accept 3 tok"),
        ("decline", "decline 3 tok"),
        ("resign", "resign 3 tok"),
        ("hint", "hint 3 tok"),
        ("analyze", "analyse 3 tok"),
        ("assist ON", "assist 3 tok on"),
    ] {
        assert_eq!(s.request_for(typed), Ok(Some(sent.into())), "{typed}");
    }
    // A spectator analyses without a token; a player's requests need a seat.
    let mut w = Client::new("127.0.0.1:7", None, false);
    w.sent("watch 5", false);
    w.on_line("ok watching 5 0");
    w.sent("show 5", true);
    w.on_line(&format!(
        "ok game 5 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    w.sent("create gomoku", false);
    w.on_line(&format!("ok created 5 {GOMOKU5}"));
    assert_eq!(w.request_for("analyse"), Ok(Some("analyse 5".into())));
    let e = w.request_for("resign").expect_err("no seat");
    assert!(e.contains("you hold no seat in game 5"), "{e}");
}

#[test]
fn offers_takebacks_resignations_and_draws_are_told_in_words() {
    let mut s = joined("first", None);
    s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    s.sent("move 3 tok a1", false);
    s.on_line("ok moved 3 1 a1");
    let r = s.on_line("update 3 2 b1");
    assert!(r.print.iter().any(|l| l.starts_with("your turn")), "{r:?}");
    // The opponent asks; this player answers.
    let r = s.on_line("update 3 offer takeback second");
    assert_eq!(
        r.print,
        vec![
            "game 3: White (second) asks to take back their last move: type 'accept' or 'decline'"
        ]
    );
    s.sent("decline 3 tok", false);
    assert_eq!(
        s.on_line("ok declined 3 takeback").print,
        vec!["you declined the takeback in game 3"]
    );
    let r = s.on_line("update 3 offer draw second");
    assert_eq!(
        r.print,
        vec!["game 3: White (second) offers a draw: type 'accept' or 'decline'"]
    );
    // This player asks; the opponent declines, then accepts a takeback: the board is
    // asked for again and redrawn without the moves taken back.
    s.sent("takeback 3 tok", false);
    assert_eq!(
        s.on_line("ok asked 3 takeback").print,
        vec!["you asked to take back your last move in game 3: waiting for your opponent's answer"]
    );
    assert_eq!(
        s.on_line("update 3 declined takeback first").print,
        vec!["game 3: the takeback Black (first) asked for was declined"]
    );
    let r = s.on_line("update 3 takeback 0");
    assert_eq!(
        r.print,
        vec!["game 3: moves taken back, the game is back to 0 moves played"]
    );
    assert_eq!(r.ask, vec!["show 3"]);
    s.sent("show 3", true);
    let r = s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    assert!(
        r.print.iter().any(|l| l == "1 . . . . .  1"),
        "the redrawn board has no stone: {r:?}"
    );
    assert!(r.print.iter().any(|l| l.starts_with("your turn")), "{r:?}");
    // A takeback done at once (against the engine) is redrawn too.
    s.sent("takeback 3 tok", false);
    let r = s.on_line("ok takeback 3 0");
    assert_eq!(
        r.print,
        vec!["taken back in game 3: the game is back to 0 moves played"]
    );
    assert_eq!(r.ask, vec!["show 3"]);
    // The opponent resigns: this player wins, and holds the seat no more.
    s.sent("show 3", true);
    s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    let r = s.on_line("update 3 resign second over White resigned");
    assert_eq!(
        r.print,
        vec!["game 3 is over: you win: White (second) resigned"]
    );
    let e = s.request_for("a1").expect_err("the seat is gone");
    assert!(e.contains("you hold no seat in game 3"), "{e}");
    // One's own resignation ends the game too; an agreed draw is told as such.
    let mut w = joined("first", None);
    w.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    w.sent("resign 3 tok", false);
    assert_eq!(
        w.on_line("ok resigned 3 first over Black resigned").print,
        vec!["game 3 is over: you resigned"]
    );
    assert_eq!(
        w.on_line("update 4 draw over drawn by agreement").print,
        vec!["game 4 is over: drawn by agreement"]
    );
}

#[test]
fn clocks_flags_and_rematch_offers_are_told_in_words() {
    let mut s = joined("first", None);
    s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; clock 5m+3s first \
         300000 second 300000 running first ; to-move first"
    ));
    s.sent("move 3 tok a1", false);
    s.on_line("ok moved 3 1 a1 clock 302000 300000");
    let r = s.on_line("update 3 2 b1 clock 302000 245300");
    assert!(
        r.print
            .iter()
            .any(|l| l == "game 3, move 2: b1 (Black (first) 5:02.0, White (second) 4:05.3 left)"),
        "{r:?}"
    );
    // A rematch offer is told as one (answered with 'accept' or 'decline'); its refusal
    // is told as a rematch's, not a takeback's.
    assert_eq!(
        s.on_line("update 3 offer rematch second").print,
        vec![
            "game 3: White (second) offers a rematch, colours swapped: type 'accept' or 'decline'"
        ]
    );
    assert_eq!(
        s.on_line("update 3 declined rematch first").print,
        vec!["game 3: the rematch Black (first) offered was declined"]
    );
    // The opponent's flag falls: this player wins and holds the seat no more.
    assert_eq!(
        s.on_line("update 3 flag second over White lost on time")
            .print,
        vec!["game 3 is over: you win: White (second) lost on time"]
    );
    let e = s.request_for("a3").expect_err("the seat is gone");
    assert!(e.contains("you hold no seat in game 3"), "{e}");
    // One's own flag.
    let mut w = joined("first", None);
    w.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    assert_eq!(
        w.on_line("update 3 flag first over Black lost on time")
            .print,
        vec!["game 3 is over: you lose: Black (first) lost on time"]
    );
}

#[test]
fn hints_and_analyses_are_told_in_words() {
    let mut s = joined("first", None);
    s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    s.sent("hint 3 tok", false);
    assert_eq!(
        s.on_line("ok hint 3 thinking 1000").print,
        vec!["the engine looks for a move in game 3 (1000 ms)"]
    );
    assert_eq!(
        s.on_line("notice 3 hint c3 score cp 12 pv c3 b2").print,
        vec!["game 3: the engine suggests c3 (score cp 12 for the side to move); line c3 b2"]
    );
    assert_eq!(
        s.on_line("notice 3 no hint: the game is over").print,
        vec!["game 3: no hint: the game is over"]
    );
    s.sent("analyse 3 tok", false);
    assert_eq!(
        s.on_line("ok analysing 3 2 200").print,
        vec!["the engine scores the 2 positions of game 3 (200 ms each)"]
    );
    for (line, told) in [
        ("notice 3 analysis 0 0", "game 3, after 0 moves: even"),
        (
            "notice 3 analysis 1 35",
            "game 3, after 1 moves: Black (first) ahead by 35",
        ),
        (
            "notice 3 analysis 1 -40",
            "game 3, after 1 moves: White (second) ahead by 40",
        ),
        (
            "notice 3 analysis 1 10000",
            "game 3, after 1 moves: Black (first) wins by force",
        ),
        (
            "notice 3 analysis done 2",
            "game 3: analysis done (2 positions)",
        ),
    ] {
        assert_eq!(s.on_line(line).print, vec![told], "{line}");
    }
}

#[test]
fn a_rematch_is_asked_and_accepted_typed_alone_and_its_new_seat_taken_and_saved() {
    let dir = temp_dir("rematch");
    let file = TokenFile::at(dir.join("tokens"));
    let mut s = joined("first", Some(file.clone()));
    s.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    // Not before the game is over: the server says so (the request goes as typed).
    assert_eq!(s.request_for("rematch"), Ok(Some("rematch 3 tok".into())));
    // The opponent resigns: the seat is played no more, but a rematch is still this
    // player's to ask for (and to answer) in this session.
    s.on_line("update 3 resign second over White resigned");
    assert!(file.find("127.0.0.1:7", 3).expect("read").is_empty());
    assert!(s.request_for("a1").is_err(), "no seat to play");
    assert_eq!(s.request_for("rematch"), Ok(Some("rematch 3 tok".into())));
    s.sent("rematch 3 tok", false);
    assert_eq!(
        s.on_line("ok asked 3 rematch").print,
        vec![
            "you asked for a rematch of game 3, colours swapped: waiting for your opponent's answer"
        ]
    );
    // The opponent accepts: the new seat is taken up on this connection and saved.
    let r = s.on_line("update 3 rematch 4 second tok4");
    assert_eq!(
        r.print,
        vec!["game 3: the rematch was made: game 4, colours swapped: you play White (second)"]
    );
    assert_eq!(r.ask, vec!["rejoin 4 tok4"]);
    s.sent("rejoin 4 tok4", true);
    let r = s.on_line("ok rejoined 4 second");
    assert_eq!(r.ask, vec!["show 4"]);
    let saved = file.find("127.0.0.1:7", 4).expect("read");
    assert_eq!(
        (saved.len(), saved[0].seat, saved[0].token.as_str()),
        (1, Player::Second, "tok4")
    );
    assert_eq!(s.prompt(), "game 4> ", "the new game is the current one");
    s.sent("show 4", true);
    s.on_line(&format!(
        "ok game 4 {GOMOKU5} first=taken second=taken ply 1 moves c3 ; to-move second"
    ));
    assert_eq!(s.request_for("b2"), Ok(Some("move 4 tok4 b2".into())));
    let _ = fs::remove_dir_all(&dir);

    // Offered by the opponent after the end: 'accept' alone answers it; the reply names
    // the new seat, which is taken at once (the server plays it on this connection).
    let mut w = joined("second", None);
    w.on_line(&format!(
        "ok game 3 {GOMOKU5} first=taken second=taken ply 0 moves  ; to-move first"
    ));
    w.on_line("update 3 flag first over Black lost on time");
    assert_eq!(
        w.on_line("update 3 offer rematch first").print,
        vec!["game 3: Black (first) offers a rematch, colours swapped: type 'accept' or 'decline'"]
    );
    assert_eq!(w.request_for("accept"), Ok(Some("accept 3 tok".into())));
    w.sent("accept 3 tok", false);
    let r = w.on_line("ok accepted 3 rematch 5 first tok5");
    assert_eq!(
        r.print,
        vec![
            "you accepted the rematch of game 3: game 5, colours swapped: you play Black \
             (first); your seat's token (keep it to rejoin): tok5"
        ]
    );
    assert_eq!(r.ask, vec!["show 5"]);
    assert_eq!(w.request_for("e5"), Ok(Some("move 5 tok5 e5".into())));
    // A watcher is told which game the rematch is.
    assert_eq!(
        w.on_line("update 7 rematch 8").print,
        vec!["game 7: the rematch is game 8 ('watch 8' follows it)"]
    );
}

/// A client on an in-process server through one connection: its requests go to the
/// server, and the replies and pushes queued on the connection come back to it (its own
/// requests too, as the terminal loop sends them).
struct Wired {
    client: Client,
    conn: protocols::server::ConnId,
    from_server: std::sync::mpsc::Receiver<String>,
    printed: Vec<String>,
}

impl Wired {
    fn new(server: &mut protocols::server::Server) -> Wired {
        let (tx, from_server) = std::sync::mpsc::sync_channel(256);
        Wired {
            client: Client::new("127.0.0.1:7", None, false),
            conn: server.attach(tx, None),
            from_server,
            printed: Vec::new(),
        }
    }

    /// Types `text`, then reads every line the server has for this client.
    fn typed(&mut self, server: &mut protocols::server::Server, text: &str) {
        let request = self.client.request_for(text).expect(text).expect(text);
        self.client.sent(&request, false);
        server.request(self.conn, &request);
        self.read(server);
    }

    fn read(&mut self, server: &mut protocols::server::Server) {
        loop {
            let lines: Vec<String> = self.from_server.try_iter().collect();
            if lines.is_empty() {
                return;
            }
            for line in lines {
                let r = self.client.on_line(&line);
                self.printed.extend(r.print);
                for ask in r.ask {
                    self.client.sent(&ask, true);
                    server.request(self.conn, &ask);
                }
            }
        }
    }

    fn said(&mut self, text: &str) -> bool {
        let said = self.printed.iter().any(|l| l == text);
        if !said {
            eprintln!("not said: {text:?}; said: {:#?}", self.printed);
        }
        self.printed.clear();
        said
    }
}

#[test]
fn two_clients_play_a_rematch_on_a_real_server_each_in_their_new_seat() {
    let (mut server, _) = protocols::server::Server::open(None).expect("server");
    let (mut a, mut b) = (Wired::new(&mut server), Wired::new(&mut server));
    a.typed(&mut server, "create gomoku:size=5");
    a.typed(&mut server, "join first");
    b.typed(&mut server, "join 1 second");
    a.typed(&mut server, "c3");
    b.read(&mut server);
    a.typed(&mut server, "resign");
    b.read(&mut server);
    assert!(b.said("game 1 is over: you win: Black (first) resigned"));
    b.typed(&mut server, "rematch");
    assert!(b.said(
        "you asked for a rematch of game 1, colours swapped: waiting for your opponent's answer"
    ));
    a.read(&mut server);
    assert!(a.said(
        "game 1: White (second) offers a rematch, colours swapped: type 'accept' or 'decline'"
    ));
    a.typed(&mut server, "accept");
    assert!(a.printed.iter().any(|l| l.starts_with(
        "you accepted the rematch of game 1: game 2, colours swapped: you play White (second)"
    )));
    b.read(&mut server);
    assert!(b.printed.iter().any(|l| l.starts_with(
        "game 1: the rematch was made: game 2, colours swapped: you play Black (first)"
    )));
    assert!(b.said("your turn: you play Black (first) in game 2; type your move"));
    // Bare moves go to the new game, each seat's moves reach the other player.
    b.typed(&mut server, "c3");
    a.read(&mut server);
    assert!(a.said("your turn: you play White (second) in game 2; type your move"));
    a.typed(&mut server, "b2");
    b.read(&mut server);
    assert!(b.said("your turn: you play Black (first) in game 2; type your move"));
    let shown = server.handle("show 2");
    assert!(shown.contains("ply 2 moves c3 b2"), "{shown}");
}
