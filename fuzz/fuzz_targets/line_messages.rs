//! The line protocol's door (`protocols::server`) driving the host's game table, on
//! arbitrary requests from the players of two games: each input line is one byte choosing
//! the game (bit 0: a game between two people, or one against the engine) and the sender
//! (bit 1: the first or the second seat's connection; bit 2: no connection), then one
//! request line in which `@G` stands for the chosen game's id and `@T` for the sender's
//! token in it (a wrong token for the engine's seat). Every line gets one `ok`/`error`
//! reply and never a panic, and the host's rules hold whoever sent what:
//! - a refused request (`error ...`) leaves both games exactly as they were (moves,
//!   outcome, waiting offer);
//! - between two people no move is taken back and no draw agreed unless the reply is the
//!   opponent's acceptance (`ok accepted ID takeback|draw`);
//! - every line queued on a connection is a reply or an `update`/`notice` push.
//!
//! Engine moves are not thought (a think takes at least 10 ms): the crates' tests cover
//! them.
#![no_main]

use std::sync::mpsc::{Receiver, sync_channel};

use libfuzzer_sys::fuzz_target;
use protocols::server::Server;

const MAX_LINES: usize = 64;
const MAX_REPLY: usize = 16 << 10;

/// What a refused request must leave unchanged.
type Snapshot = (Vec<String>, Option<String>, Option<(&'static str, u8)>);

fn snapshot(s: &Server, id: u64) -> Snapshot {
    let state = s.host().table().state(id, [false; 2]).expect("the game is there");
    (
        state.moves,
        state.ended.map(|e| e.reason),
        state.offer.map(|o| (o.kind, o.by)),
    )
}

fn checked_pushes(rx: &Receiver<String>) {
    for line in rx.try_iter() {
        assert!(
            ["ok ", "error ", "update ", "notice "]
                .iter()
                .any(|p| line.starts_with(p)),
            "{line}"
        );
        assert!(!line.contains('\n') && line.len() <= MAX_REPLY, "{line:?}");
    }
}

fn token(reply: &str) -> String {
    reply.split_whitespace().nth(4).unwrap_or_default().to_string()
}

fuzz_target!(|data: &[u8]| {
    let Ok((server, _)) = Server::open(None) else {
        return;
    };
    let mut s = server.with_max_games(8);
    let (tx_a, rx_a) = sync_channel(4096);
    let (tx_b, rx_b) = sync_channel(4096);
    let (a, b) = (s.attach(tx_a, None), s.attach(tx_b, None));
    let people: u64 = match s.request(a, "create gomoku:size=7").split_whitespace().nth(2) {
        Some(id) => id.parse().expect("an id"),
        None => return,
    };
    let ta = token(&s.request(a, &format!("join {people} first")));
    let tb = token(&s.request(b, &format!("join {people} second")));
    let engine: u64 = match s.request(a, "create fourshift").split_whitespace().nth(2) {
        Some(id) => id.parse().expect("an id"),
        None => return,
    };
    let te = token(&s.request(a, &format!("join {engine} first")));
    assert!(s.request(a, &format!("engine {engine} second 10")).starts_with("ok "));
    let wrong = "0".repeat(32);
    for line in data.split(|&c| c == b'\n').take(MAX_LINES) {
        let Some((&who, text)) = line.split_first() else {
            continue;
        };
        let text = String::from_utf8_lossy(text);
        let (game, second) = (if who & 1 == 0 { people } else { engine }, who & 2 != 0);
        let tok = match (game == people, second) {
            (true, false) => &ta,
            (true, true) => &tb,
            (false, false) => &te,
            (false, true) => &wrong,
        };
        let request = text
            .replace("@G", &game.to_string())
            .replace("@T", tok);
        let before = [snapshot(&s, people), snapshot(&s, engine)];
        let reply = match (who & 4 != 0, second) {
            (true, _) => s.handle(&request),
            (false, false) => s.request(a, &request),
            (false, true) => s.request(b, &request),
        };
        assert!(
            (reply.starts_with("ok ") || reply.starts_with("error "))
                && !reply.contains('\n')
                && reply.len() <= MAX_REPLY,
            "{reply:?}"
        );
        let after = [snapshot(&s, people), snapshot(&s, engine)];
        if reply.starts_with("error ") {
            assert_eq!(before, after, "{request:?} refused but changed a game");
        }
        let (was, now) = (&before[0], &after[0]);
        if now.0.len() < was.0.len() {
            assert!(
                reply.starts_with(&format!("ok accepted {people} takeback")),
                "moves taken back without the opponent's consent: {request:?} -> {reply}"
            );
        }
        if was.1.is_none() && now.1.as_deref() == Some("drawn by agreement") {
            assert!(
                reply.starts_with(&format!("ok accepted {people} draw")),
                "a draw without the opponent's consent: {request:?} -> {reply}"
            );
        }
        checked_pushes(&rx_a);
        checked_pushes(&rx_b);
    }
});
