//! The terminal client (`boardlab connect`): [`connect`] sends the user's request lines
//! to the server and prints the replies and pushed updates; [`Follower`] keeps its own
//! copy of every game it follows (replaying the moves with the rules crates) so that
//! each line about a game is followed by that game's board.

use std::{
    collections::{BTreeMap, VecDeque},
    io::{self, BufReader},
    net::TcpStream,
    sync::{Arc, Mutex},
};

use super::{
    MAX_REQUEST_BYTES,
    game::{self, Game, create_game, seat_name},
    lock,
};
use crate::lines::{Line, read_line_capped, write_line};

/// Most games the terminal client keeps boards for.
const MAX_FOLLOWED: usize = 1000;

/// The terminal client's view of the games it follows (created, joined, watched or
/// shown): it turns server lines into board diagrams.
#[derive(Default)]
pub struct Follower {
    games: BTreeMap<u64, Box<dyn Game>>,
}

/// What the client does with one server line.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Followed {
    /// Lines to print after the server's line (a board diagram and whose turn it is).
    pub print: Vec<String>,
    /// Requests to send on the client's own behalf (`show ID` to catch up); the
    /// client does not print their replies, only the board they bring.
    pub ask: Vec<String>,
}

impl Follower {
    pub fn new() -> Follower {
        Follower::default()
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
                if let (Some(n), Ok(game)) = (id(2), create_game(spec)) {
                    self.follow(n, game, &mut out);
                }
            }
            ["ok", "joined" | "rejoined" | "watching" | "engine", ..] => {
                // The board as known now, and a fresh copy from the server (drawn only
                // if it differs).
                if let Some(n) = id(2) {
                    if let Some(game) = self.games.get(&n) {
                        out.print = board_lines(n, game.as_ref());
                    }
                    out.ask.push(format!("show {n}"));
                }
            }
            ["ok", "game", _, spec, ..] => {
                let moves = line
                    .split_once(" moves ")
                    .and_then(|(_, m)| m.split_once(" ;"))
                    .map_or("", |(m, _)| m);
                if let (Some(n), Ok(mut game)) = (id(2), create_game(spec)) {
                    let replayed = moves
                        .split_whitespace()
                        .all(|mv| game::play(game.as_mut(), mv, &mut |_| Ok(())).is_ok());
                    let known = self
                        .games
                        .get(&n)
                        .is_some_and(|g| g.spec() == game.spec() && g.moves() == game.moves());
                    if replayed && !(auto && known) {
                        self.follow(n, game, &mut out);
                    }
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

    fn follow(&mut self, n: u64, game: Box<dyn Game>, out: &mut Followed) {
        if self.games.len() >= MAX_FOLLOWED && !self.games.contains_key(&n) {
            return;
        }
        out.print = board_lines(n, game.as_ref());
        self.games.insert(n, game);
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
        if ply == have + 1 && game::play(game.as_mut(), mv, &mut |_| Ok(())).is_ok() {
            out.print = board_lines(n, game.as_ref());
        } else {
            out.ask.push(format!("show {n}"));
        }
    }
}

/// A game's diagram and a status line: `game 3 · ply 4 · Black (first) to move`.
fn board_lines(n: u64, game: &dyn Game) -> Vec<String> {
    let mut lines: Vec<String> = game.diagram().lines().map(String::from).collect();
    let ply = game.ply_count();
    lines.push(match game.outcome_reason() {
        Some(reason) => format!("game {n} · ply {ply} · game over: {reason}"),
        None => {
            let p = game.side_to_move();
            format!(
                "game {n} · ply {ply} · {} ({}) to move",
                game.player_name(p),
                seat_name(p)
            )
        }
    });
    lines
}

/// The request side of the client: the socket and, in the order sent, whether each
/// request was the client's own (its reply is not printed).
struct ClientOut {
    stream: TcpStream,
    origins: VecDeque<bool>,
}

impl ClientOut {
    fn send(&mut self, line: &str, auto: bool) -> io::Result<()> {
        write_line(&mut self.stream, line)?;
        self.origins.push_back(auto);
        Ok(())
    }
}

/// The terminal client: request lines from stdin to the server; replies and pushed
/// updates to stdout, each followed by the board of the game it concerns (see
/// [`Follower`]).
pub fn connect(addr: &str) -> io::Result<()> {
    let stream = TcpStream::connect(addr)?;
    let out = Arc::new(Mutex::new(ClientOut {
        stream: stream.try_clone()?,
        origins: VecDeque::new(),
    }));
    let mut from_server = BufReader::new(stream);
    // Requests from stdin on their own thread; this one prints until the server closes
    // the connection (after `quit`, or once stdin ended), then returns at once.
    let requests = Arc::clone(&out);
    std::thread::Builder::new()
        .name("connect-stdin".into())
        .spawn(move || {
            let mut stdin = io::stdin().lock();
            while let Ok(Some(line)) = read_line_capped(&mut stdin, MAX_REQUEST_BYTES) {
                let Line::Text(t) = line else {
                    eprintln!("connect: line too long, not sent");
                    continue;
                };
                // The server answers blank lines with nothing: do not send them.
                if t.trim().is_empty() {
                    continue;
                }
                if lock(&requests).send(&t, false).is_err() {
                    break;
                }
            }
            let _ = lock(&requests).stream.shutdown(std::net::Shutdown::Write);
        })?;
    let mut stdout = io::stdout();
    let mut follower = Follower::new();
    while let Some(line) = read_line_capped(&mut from_server, 1 << 20)? {
        let Line::Text(t) = line else { continue };
        let pushed = t.starts_with("update ") || t.starts_with("notice ");
        let auto = !pushed && lock(&out).origins.pop_front() == Some(true);
        if !auto {
            write_line(&mut stdout, &t)?;
        }
        let followed = follower.on_line(&t, auto);
        for l in &followed.print {
            write_line(&mut stdout, l)?;
        }
        for a in &followed.ask {
            // The request side may be closed already.
            let _ = lock(&out).send(a, true);
        }
    }
    Ok(())
}
