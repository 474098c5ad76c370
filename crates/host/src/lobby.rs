//! The lobby: every hosted game as anyone may see it (no token), with the number of
//! spectators following it, so that a front end can list games with an open seat to
//! take and live games to watch.

use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use serde::Serialize;

use super::Table;
use crate::{HostError, Seat};

/// The spectators of one game: a count shared with each [`Watching`] guard.
#[derive(Clone, Debug, Default)]
pub(super) struct Watchers(Arc<AtomicUsize>);

/// One spectator following a game: counted in the lobby while this lives.
#[derive(Debug)]
pub struct Watching(Arc<AtomicUsize>);

impl Drop for Watching {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A game in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LobbyEntry {
    /// The game's id.
    pub id: u64,
    /// The canonical spec string.
    pub spec: String,
    /// The game id, the spec's part before `:`.
    pub game: String,
    /// The players' display names (first, second).
    pub names: [&'static str; 2],
    /// Who holds each seat: `human`, `engine` or `free` (open: anyone may take it).
    pub seats: [&'static str; 2],
    /// Each seat's label ("person", "engine 1000 ms", "free seat").
    pub labels: [String; 2],
    /// Moves played.
    pub moves: usize,
    /// The player to move (0 first, 1 second).
    pub to_move: u8,
    /// The result once the game is over: `Black wins: five in a row`, `Draw: drawn by
    /// agreement`.
    pub result: Option<String>,
    /// Spectators following it now.
    pub watchers: usize,
    /// The time control (`5m+3s`, `30s/move`); `None`: no clocks.
    pub time_control: Option<String>,
}

impl Table {
    /// Every hosted game, by id, as anyone may see it: no token is in it.
    pub fn lobby(&self) -> Vec<LobbyEntry> {
        self.games
            .iter()
            .map(|(&id, h)| {
                let names = h.game.player_names();
                let spec = h.game.spec();
                let kind = |s: &Seat| match s {
                    Seat::Free => "free",
                    Seat::Person(_) => "human",
                    Seat::Engine(_) => "engine",
                };
                let label = |s: &Seat| match s {
                    Seat::Free => "free seat".to_string(),
                    Seat::Person(_) => "person".to_string(),
                    Seat::Engine(l) => l.label(),
                };
                LobbyEntry {
                    id,
                    game: spec.split(':').next().unwrap_or("").to_string(),
                    spec,
                    names,
                    seats: [kind(&h.seats[0]), kind(&h.seats[1])],
                    labels: [label(&h.seats[0]), label(&h.seats[1])],
                    moves: h.game.ply(),
                    to_move: h.game.to_move().index() as u8,
                    result: h.ended().map(|e| match e.winner {
                        Some(p) => format!("{} wins: {}", names[p.index()], e.reason),
                        None => format!("Draw: {}", e.reason),
                    }),
                    watchers: h.watchers.0.load(Ordering::SeqCst),
                    time_control: h.clocks.as_ref().map(|c| c.control().to_string()),
                }
            })
            .collect()
    }

    /// A spectator follows game `id`: counted in [`Table::lobby`] until the guard is
    /// dropped (a door drops it when the follower leaves).
    pub fn watch(&self, id: u64) -> Result<Watching, HostError> {
        let count = &self.hosted(id)?.watchers.0;
        count.fetch_add(1, Ordering::SeqCst);
        Ok(Watching(Arc::clone(count)))
    }
}

#[cfg(test)]
mod tests {
    use board_core::Player;

    use super::*;
    use crate::{Level, table::SeatChoice};

    #[test]
    fn the_lobby_lists_seats_moves_results_and_watchers_without_tokens() {
        let (mut table, _) = Table::open(None).expect("table");
        let open = table
            .create("gomoku:size=7", [SeatChoice::Human, SeatChoice::Free])
            .expect("create");
        let engine = table
            .create(
                "fourshift",
                [SeatChoice::Engine(Level::Engine(100)), SeatChoice::Human],
            )
            .expect("create");
        table.play(open.id, [true, false], "d4").expect("move");
        let lobby = table.lobby();
        assert_eq!(lobby.len(), 2);
        let first = &lobby[0];
        assert_eq!(
            (first.id, first.game.as_str(), first.seats, first.moves),
            (open.id, "gomoku", ["human", "free"], 1)
        );
        assert_eq!(
            (first.to_move, first.result.as_ref(), first.watchers),
            (1, None, 0)
        );
        assert_eq!(lobby[1].seats, ["engine", "human"]);
        assert_eq!(lobby[1].labels[0], Level::Engine(100).label());
        let json = format!("{lobby:?}");
        for token in open.tokens.iter().chain(&engine.tokens).flatten() {
            assert!(!json.contains(token.as_str()), "no seat token in the lobby");
        }
        assert!(!json.contains(&open.owner), "no creator token in the lobby");

        // Spectators are counted while they follow.
        let w1 = table.watch(open.id).expect("watch");
        let w2 = table.watch(open.id).expect("watch");
        assert_eq!(table.lobby()[0].watchers, 2);
        drop(w1);
        assert_eq!(table.lobby()[0].watchers, 1);
        drop(w2);
        assert_eq!(table.lobby()[0].watchers, 0);
        assert!(table.watch(999).is_err(), "no game 999 to watch");

        // The free seat taken, then the game over: the lobby says so.
        let token = table.join(open.id, Player::Second).expect("join");
        let held = table.seats_of(open.id, &[token]).expect("token");
        table.resign(open.id, held).expect("resign");
        let first = &table.lobby()[0];
        assert_eq!(first.seats, ["human", "human"]);
        assert_eq!(first.result.as_deref(), Some("Black wins: White resigned"));
    }
}
