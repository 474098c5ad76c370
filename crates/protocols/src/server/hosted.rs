//! One hosted game as the server keeps it: the [`Game`] itself, who holds each seat (a
//! player's token or the server's engine), who watches it and which connections get
//! its moves pushed; plus the checks and the `show` description that read only one
//! hosted game.

use std::{collections::BTreeSet, net::IpAddr, time::SystemTime};

use board_core::Player;
pub(super) use boardlab_host::Seat;
use boardlab_host::seat_name;

use super::{ConnId, game::Game};

/// A game with its seats, watchers and players' connections.
pub(super) struct Hosted {
    pub(super) game: Box<dyn Game>,
    /// The first and second seat.
    pub(super) seats: [Seat; 2],
    /// An engine move for this game is queued or being thought.
    pub(super) queued: bool,
    /// Connections watching this game.
    pub(super) watchers: BTreeSet<ConnId>,
    /// The connection that last joined, rejoined or moved for each seat (pushed the
    /// other side's moves).
    pub(super) players: [Option<ConnId>; 2],
    /// The peer address of the connection that created the game (games-per-peer bound,
    /// engine fairness); `None` for games restored from disk or created without one.
    pub(super) creator: Option<IpAddr>,
    /// When the game last changed (created, a seat taken, a move): the save file's
    /// modification time after a restart. Expiry counts from here.
    pub(super) last_active: SystemTime,
    /// How the players ended the game off the board, as its save file records it (a file
    /// of the browser board: `# resign SEAT`, `# draw`).
    pub(super) ended: Option<String>,
}

impl Hosted {
    pub(super) fn new(
        game: Box<dyn Game>,
        seats: [Seat; 2],
        creator: Option<IpAddr>,
        last_active: SystemTime,
    ) -> Hosted {
        Hosted {
            game,
            seats,
            queued: false,
            watchers: BTreeSet::new(),
            players: [None, None],
            creator,
            last_active,
            ended: None,
        }
    }

    /// Why the game is over, if it is: a resignation or draw agreed, or the rules.
    pub(super) fn over(&self) -> Option<String> {
        self.ended.clone().or_else(|| self.game.outcome_reason())
    }
}

/// The index of a seat in [`Hosted::seats`] and [`Hosted::players`].
pub(super) fn idx(p: Player) -> usize {
    match p {
        Player::First => 0,
        Player::Second => 1,
    }
}

/// Whether `seat` of game `n` is free; the refusal if not.
pub(super) fn check_free(n: u64, h: &Hosted, seat: Player) -> Result<(), String> {
    match &h.seats[idx(seat)] {
        Seat::Free => Ok(()),
        Seat::Person(_) => Err(format!(
            "seat {} of game {n} is taken (reconnect with rejoin and its token)",
            seat_name(seat)
        )),
        Seat::Engine(_) => Err(format!(
            "seat {} of game {n} is taken by the engine",
            seat_name(seat)
        )),
    }
}

/// The seat whose player holds `token` (compared in constant time).
pub(super) fn seat_of_token(h: &Hosted, token: &str) -> Option<Player> {
    [Player::First, Player::Second]
        .into_iter()
        .find(|&p| h.seats[idx(p)].token_matches(token))
}

/// The `show` reply details: `game ID SPEC first=.. second=.. ply N moves .. ; STATUS`.
pub(super) fn describe(n: u64, h: &Hosted) -> String {
    let seats = [Player::First, Player::Second]
        .map(|p| {
            format!(
                "{}={}",
                seat_name(p),
                match h.seats[idx(p)] {
                    Seat::Free => "free",
                    Seat::Person(_) => "taken",
                    Seat::Engine(_) => "engine",
                }
            )
        })
        .join(" ");
    let status = match h.over() {
        Some(r) => format!("over {r}"),
        None => format!("to-move {}", seat_name(h.game.side_to_move())),
    };
    format!(
        "game {n} {} {seats} ply {} moves {} ; {status}",
        h.game.spec(),
        h.game.ply_count(),
        h.game.moves().join(" ")
    )
}
