//! The browser board's WebSocket door (`boardlab_web::request`) on arbitrary messages:
//! each input line is one byte choosing the sender (which game, which seats it holds,
//! whether it showed the creator's token) and one message. Every message is decoded
//! ([`request::decode`]: an error or a typed request, never a panic), and every action
//! is carried out on an in-memory [`Store`] ([`request::apply`]) holding a game between
//! two people and one against the engine: a refused action leaves the game exactly as
//! it was (moves, board, outcome, waiting offer), whoever sent it.
//!
//! Engine moves are not thought (the store only queues them; a think takes at least
//! 10 ms): the crate's tests cover them.
#![no_main]

use boardlab_web::{
    game::Level,
    request::{self, Sender},
    store::{GameState, SeatChoice, Store},
};
use libfuzzer_sys::fuzz_target;

const MAX_LINES: usize = 64;

/// What a refused action must leave unchanged.
fn snapshot(s: &GameState) -> (Vec<String>, String, Option<(&'static str, u8)>) {
    let view = serde_json::to_string(&s.view).unwrap_or_default();
    (s.moves.clone(), view, s.offer.as_ref().map(|o| (o.kind, o.by)))
}

fuzz_target!(|data: &[u8]| {
    let Ok((mut store, _)) = Store::open(None) else {
        return;
    };
    let Ok(people) = store.create("fourshift", [SeatChoice::Human; 2]) else {
        return;
    };
    let Ok(engine) = store.create(
        "amazons:size=8",
        [SeatChoice::Human, SeatChoice::Engine(Level::Random)],
    ) else {
        return;
    };
    for line in data.split(|&b| b == b'\n').take(MAX_LINES) {
        let Some((&who, text)) = line.split_first() else {
            continue;
        };
        let Ok(text) = std::str::from_utf8(text) else {
            continue;
        };
        let from = Sender {
            game: if who & 1 == 0 { people.id } else { engine.id },
            held: [who & 2 != 0, who & 4 != 0],
            owner: who & 8 != 0,
        };
        let Ok(req) = request::decode(text) else {
            continue;
        };
        if let request::Request::View { ply } = req {
            let _ = store.view_at(from.game, ply);
            continue;
        }
        if !req.is_action() {
            continue;
        }
        let before = store
            .state_for(from.game, from.held, from.owner)
            .expect("the game is there");
        if request::apply(&mut store, from, &req).is_err() {
            let after = store
                .state_for(from.game, from.held, from.owner)
                .expect("the game is there");
            assert_eq!(snapshot(&before), snapshot(&after), "{req:?} refused but changed the game");
        }
    }
});
