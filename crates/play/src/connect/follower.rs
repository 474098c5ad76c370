//! The client's own copy of every game it follows: [`Follower`] replays the moves the
//! server sends (canonical notation) on an erased game ([`DynGame`]) of its
//! [`Registry`], so each line about a game is followed by that game's board drawn from
//! the typed view ([`PlyView`](boardlab_games::PlyView)), the last move marked, and its
//! status; [`Follower::state`] tells the session whose turn it is and who won, as typed
//! values. A game the server hosts but the registry lacks is played all the same, without
//! its board.

use std::collections::BTreeMap;

use crate::render;
use board_core::{Outcome, Player, Square};
use boardlab_games::{DynGame, Registry};

use boardlab_host::seat_name;

/// Most games the terminal client keeps boards for.
const MAX_FOLLOWED: usize = 1000;

/// Where a followed game stands, as the client's copy has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Going on, with this seat to move.
    ToMove(Player),
    /// Over.
    Over(Outcome),
}

/// The terminal client's view of the games it follows (created, joined, watched or
/// shown): it turns server lines into board diagrams.
#[derive(Default)]
pub struct Follower {
    games: BTreeMap<u64, Box<dyn DynGame>>,
    /// Boards in colour (a terminal).
    color: bool,
    /// The games it can draw (by default the bundled ones).
    registry: Registry,
}

/// What the client does with one server line.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Followed {
    /// Lines to print after the server's line (a board diagram and whose turn it is).
    pub print: Vec<String>,
    /// Requests to send on the client's own behalf (`show ID` to catch up); the
    /// client does not print their replies, only the board they bring.
    pub ask: Vec<String>,
    /// The game whose board was drawn, if one was.
    pub drawn: Option<u64>,
}

impl Follower {
    /// A follower drawing plain boards.
    pub fn new() -> Follower {
        Follower::default()
    }

    /// A follower drawing boards in colour when `color` is set.
    pub fn with_color(color: bool) -> Follower {
        Follower {
            color,
            ..Follower::default()
        }
    }

    /// The same follower drawing the games of `registry` (instead of the bundled ones).
    pub fn with_games(mut self, registry: Registry) -> Follower {
        self.registry = registry;
        self
    }

    /// Where game `n` stands, if it is followed.
    pub fn state(&self, n: u64) -> Option<Standing> {
        self.games.get(&n).map(|g| state(g.as_ref()))
    }

    /// The display name of player `p` in game `n` ("Black"), if it is followed.
    pub fn player_name(&self, n: u64, p: Player) -> Option<&'static str> {
        self.games.get(&n).map(|g| g.player_name(p))
    }

    /// Reads one line from the server: a reply to the user's request, or to the
    /// client's own when `auto` (its board is drawn only if it shows something new), or a
    /// pushed `update`.
    pub fn on_line(&mut self, line: &str, auto: bool) -> Followed {
        let w: Vec<&str> = line.split_whitespace().collect();
        let mut out = Followed::default();
        let id = |i: usize| w.get(i).and_then(|t| t.parse::<u64>().ok());
        match w.as_slice() {
            ["ok", "created", _, spec, ..] => {
                if let (Some(n), Ok(game)) = (id(2), self.registry.start(spec)) {
                    self.follow(n, game, &mut out);
                }
            }
            ["ok", "joined" | "rejoined" | "watching" | "engine", ..] => {
                // A fresh copy from the server, drawn only if it differs from the board
                // known (already drawn).
                if let Some(n) = id(2) {
                    out.ask.push(format!("show {n}"));
                }
            }
            ["ok", "game", _, spec, ..] => {
                let moves = line
                    .split_once(" moves ")
                    .and_then(|(_, m)| m.split_once(" ;"))
                    .map_or("", |(m, _)| m);
                if let (Some(n), Ok(mut game)) = (id(2), self.registry.start(spec)) {
                    let replayed = moves.split_whitespace().all(|mv| game.play(mv).is_ok());
                    let known = self
                        .games
                        .get(&n)
                        .is_some_and(|g| g.spec() == game.spec() && g.moves() == game.moves());
                    if replayed && !(auto && known) {
                        self.follow(n, game, &mut out);
                    }
                }
            }
            ["update", _, "takeback", ..] => {
                // Moves were taken back: a fresh copy from the server.
                if let Some(n) = id(1) {
                    out.ask.push(format!("show {n}"));
                }
            }
            ["ok", "takeback", ..] | ["ok", "accepted", _, "takeback"] => {
                // This client's own takeback (done at once, or the opponent's accepted):
                // the server pushes it to the others only, so a fresh copy is asked for.
                if let Some(n) = id(2) {
                    out.ask.push(format!("show {n}"));
                }
            }
            ["ok", "moved", _, ply, mv, ..] | ["update", _, ply, mv, ..] => {
                let at = usize::from(w[0] == "ok") + 1;
                if let (Some(n), Ok(ply)) = (id(at), ply.parse::<usize>()) {
                    self.moved(n, ply, mv, &mut out);
                }
            }
            _ => {}
        }
        out
    }

    fn follow(&mut self, n: u64, game: Box<dyn DynGame>, out: &mut Followed) {
        if self.games.len() >= MAX_FOLLOWED && !self.games.contains_key(&n) {
            return;
        }
        self.games.insert(n, game);
        out.print = self.board_lines(n);
        out.drawn = Some(n);
    }

    fn moved(&mut self, n: u64, ply: usize, mv: &str, out: &mut Followed) {
        let Some(game) = self.games.get_mut(&n) else {
            return;
        };
        let have = game.ply_count();
        if ply <= have {
            // Already seen (a player who also watches gets both).
            return;
        }
        if ply == have + 1 && game.play(mv).is_ok() {
            out.print = self.board_lines(n);
            out.drawn = Some(n);
        } else {
            out.ask.push(format!("show {n}"));
        }
    }

    /// Game `n`'s board (the last move marked), legend and status line:
    /// `game 3 · move 5 · last c4 · Black (first) to move`, or
    /// `game 3 · game over after 9 moves: Black (first) wins: five in a row a1-a5`.
    fn board_lines(&self, n: u64) -> Vec<String> {
        let Some(game) = self.games.get(&n) else {
            return Vec::new();
        };
        let at = game.ply_view();
        let marked: Vec<Square> = at.last.iter().map(|&sq| Square(sq)).collect();
        let glyph = |cell| game.glyph(cell);
        let mut lines: Vec<String> = render::board_of(&at.board, &glyph, &marked, self.color)
            .lines()
            .map(String::from)
            .collect();
        lines.push(render::legend_of(&at.board, &glyph, &|p| {
            game.player_name(p)
        }));
        let ply = game.ply_count();
        let mut status = match state(game.as_ref()) {
            Standing::Over(outcome) => {
                let reason = game.outcome_reason().unwrap_or_else(|| outcome.to_string());
                let result = match outcome {
                    Outcome::Win(p) => {
                        format!("{} ({}) wins: {reason}", game.player_name(p), seat_name(p))
                    }
                    Outcome::Draw => format!("draw: {reason}"),
                };
                format!("game {n} · game over after {ply} moves: {result}")
            }
            Standing::ToMove(p) => format!(
                "game {n} · move {} · {} ({}) to move",
                ply + 1,
                game.player_name(p),
                seat_name(p)
            ),
        };
        if let Some(last) = game.moves().last() {
            let captures: Vec<String> = at
                .captured
                .iter()
                .filter_map(|&sq| game.square_name(sq))
                .collect();
            let played = if captures.is_empty() {
                format!("last {last}")
            } else {
                format!("last {last} captures {}", captures.join(" "))
            };
            lines.push(played);
        }
        if game.outcome().is_none() {
            for d in render::details_of(&at.board, &glyph) {
                status.push_str(" · ");
                status.push_str(&d);
            }
        }
        lines.push(status);
        lines
    }
}

/// Where `game` stands.
fn state(game: &dyn DynGame) -> Standing {
    match game.outcome() {
        Some(outcome) => Standing::Over(outcome),
        None => Standing::ToMove(game.side_to_move()),
    }
}
