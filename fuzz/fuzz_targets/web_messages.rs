//! The browser board's WebSocket door (`boardlab_web::request`) on arbitrary messages:
//! each input line is one byte choosing the sender (which game, which seats it holds,
//! whether it showed the creator's token) and one message. Every message is decoded
//! ([`request::decode`]: an error or a typed request, never a panic), and every action
//! is carried out on the host's in-memory game [`Table`] ([`request::apply`]) holding a
//! game between two people and one against the engine: a refused action leaves the game
//! exactly as it was (moves, board, outcome, waiting offer), whoever sent it.
//!
//! Engine moves are not thought (the table only makes their jobs; a think takes at
//! least 10 ms): the crates' tests cover them.
#![no_main]

use boardlab_host::{Level, Table, table::SeatChoice};
use boardlab_web::{
    request::{self, Sender},
    state::{GameState, board_at, game_state},
};
use libfuzzer_sys::fuzz_target;

const MAX_LINES: usize = 64;

/// What a refused action must leave unchanged.
fn snapshot(s: &GameState) -> (Vec<String>, String, Option<(&'static str, u8)>) {
    let view = serde_json::to_string(&s.view).unwrap_or_default();
    let offer = s.status.offer.as_ref().map(|o| (o.kind, o.by));
    (s.status.moves.clone(), view, offer)
}

fuzz_target!(|data: &[u8]| {
    let Ok((mut store, _)) = Table::open(None) else {
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
            let _ = board_at(&store, from.game, ply);
            continue;
        }
        if !req.is_action() {
            continue;
        }
        let before = game_state(&store, from.game, from.held, from.owner)
            .expect("the game is there");
        if let Some(Err(_)) = request::apply(&mut store, from, &req) {
            let after = game_state(&store, from.game, from.held, from.owner)
                .expect("the game is there");
            assert_eq!(snapshot(&before), snapshot(&after), "{req:?} refused but changed the game");
        }
    }
});
