//! The request handler: [`Server`] holds every hosted game and every connection's
//! outgoing queue, and answers one request line with one reply line ([`Server::handle`],
//! [`Server::request`]); no sockets, so the whole protocol is unit tested.
//!
//! Moves of players and engines take the same path ([`Server::apply`]): validate, append
//! to the save file, play, push `update` to the watchers and the other player, and queue
//! the engine's answer if an engine seat is to move next ([`Server::kick`]). Queued
//! engine moves are thought by the network side's engine threads, or by
//! [`Server::think_pending`] on the calling thread.

use std::{
    collections::{BTreeMap, BTreeSet, VecDeque},
    fs, io,
    net::TcpStream,
    path::{Path, PathBuf},
    sync::mpsc::SyncSender,
    time::{SystemTime, UNIX_EPOCH},
};

use board_core::Player;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{
    DEFAULT_ENGINE_MS, ENGINE_MS, MAX_GAMES,
    game::{Think, create_game, restore_game, seat_name, seat_of},
    hosted::{Hosted, Seat, check_free, describe, idx, seat_of_token},
    save,
};
use crate::lines::quote;

/// A connection known to the server (see [`Server::attach`]).
pub type ConnId = u64;

/// A connection's outgoing queue, drained by its writer thread.
pub(super) struct Outbox {
    tx: SyncSender<String>,
    /// Shut down when the connection is dropped for a full queue.
    closer: Option<TcpStream>,
}

/// An engine move to think: game, ply it was asked at, seat, and the snapshot.
pub(super) struct Job {
    pub(super) game: u64,
    pub(super) ply: usize,
    pub(super) seat: Player,
    pub(super) think: Box<dyn Think>,
}

/// The server's state: the games and where they are saved.
pub struct Server {
    /// The hosted games by id (`pub(super)` for the tests, like `conns`).
    pub(super) games: BTreeMap<u64, Hosted>,
    next_id: u64,
    data: Option<PathBuf>,
    rng: ChaCha8Rng,
    max_games: usize,
    /// Engine moves waiting for a thinking thread, oldest first (at most one per game).
    pub(super) pending: VecDeque<Job>,
    /// Connections' outgoing queues.
    pub(super) conns: BTreeMap<ConnId, Outbox>,
    next_conn: ConnId,
}

impl Server {
    /// A server saving into `data` (created if missing), with every game found there
    /// restored. Unreadable save files are skipped with a warning in the returned list.
    /// Games whose engine seat is to move get their engine move queued.
    pub fn open(data: Option<&Path>) -> io::Result<(Server, Vec<String>)> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let seed = nanos ^ (u64::from(std::process::id()) << 32);
        let mut server = Server {
            games: BTreeMap::new(),
            next_id: 1,
            data: data.map(Path::to_path_buf),
            rng: ChaCha8Rng::seed_from_u64(seed),
            max_games: MAX_GAMES,
            pending: VecDeque::new(),
            conns: BTreeMap::new(),
            next_conn: 1,
        };
        let mut warnings = Vec::new();
        if let Some(dir) = data {
            fs::create_dir_all(dir)?;
            for entry in fs::read_dir(dir)? {
                let path = entry?.path();
                let Some(id) = save::id_of(&path) else {
                    continue;
                };
                let text = match fs::read_to_string(&path) {
                    Ok(t) => t,
                    Err(e) => {
                        warnings.push(format!("{}: {e}", path.display()));
                        continue;
                    }
                };
                match restore_game(&text) {
                    Ok(game) => {
                        let seats = save::seats_of_save(&text);
                        server.games.insert(id, Hosted::new(game, seats));
                        server.next_id = server.next_id.max(id.saturating_add(1));
                    }
                    Err(e) => warnings.push(format!("{}: {e}", path.display())),
                }
            }
            let ids: Vec<u64> = server.games.keys().copied().collect();
            for id in ids {
                server.kick(id);
            }
        }
        Ok((server, warnings))
    }

    /// Limits the number of games (tests).
    pub fn with_max_games(mut self, n: usize) -> Server {
        self.max_games = n;
        self
    }

    fn path(&self, id: u64) -> Option<PathBuf> {
        self.data.as_deref().map(|d| save::path(d, id))
    }

    fn token(&mut self) -> String {
        let a: u64 = self.rng.random();
        let b: u64 = self.rng.random();
        format!("{a:016x}{b:016x}")
    }

    /// Answers one request line with one reply line (`ok ...` or `error ...`), for a
    /// caller without a connection (`watch` is refused).
    pub fn handle(&mut self, line: &str) -> String {
        match self.command(None, line.trim()) {
            Ok(reply) => format!("ok {reply}"),
            Err(e) => format!("error {e}"),
        }
    }

    /// Registers a connection whose outgoing lines (replies and pushed `update`s) go to
    /// `tx`, a bounded queue: a connection whose queue is full when a line is due is
    /// dropped (detached, and `closer` shut down).
    pub fn attach(&mut self, tx: SyncSender<String>, closer: Option<TcpStream>) -> ConnId {
        let id = self.next_conn;
        self.next_conn += 1;
        self.conns.insert(id, Outbox { tx, closer });
        id
    }

    /// Forgets a connection: its queue (lines already queued are still written), watches
    /// and seats' pushes.
    pub fn detach(&mut self, conn: ConnId) {
        self.forget(conn);
    }

    /// Drops a connection that fell behind: forgets it and shuts its socket down.
    fn drop_conn(&mut self, conn: ConnId) {
        if let Some(Some(stream)) = self.forget(conn) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }

    fn forget(&mut self, conn: ConnId) -> Option<Option<TcpStream>> {
        let outbox = self.conns.remove(&conn);
        for h in self.games.values_mut() {
            h.watchers.remove(&conn);
            for p in &mut h.players {
                if *p == Some(conn) {
                    *p = None;
                }
            }
        }
        outbox.map(|o| o.closer)
    }

    /// Whether connection `conn` watches a game or holds a seat (gets pushes).
    pub fn follows_a_game(&self, conn: ConnId) -> bool {
        self.games
            .values()
            .any(|h| h.watchers.contains(&conn) || h.players.contains(&Some(conn)))
    }

    /// Answers one request line of connection `conn`: the reply is queued on the
    /// connection (before any later push) and returned.
    pub fn request(&mut self, conn: ConnId, line: &str) -> String {
        // A connection dropped meanwhile is answered as one without a connection.
        let attached = Some(conn).filter(|c| self.conns.contains_key(c));
        let reply = match self.command(attached, line.trim()) {
            Ok(reply) => format!("ok {reply}"),
            Err(e) => format!("error {e}"),
        };
        self.send(conn, reply.clone());
        reply
    }

    /// Queues `line` on `conn`; drops the connection if its queue is full or gone.
    fn send(&mut self, conn: ConnId, line: String) {
        let Some(outbox) = self.conns.get(&conn) else {
            return;
        };
        if outbox.tx.try_send(line).is_err() {
            self.drop_conn(conn);
        }
    }

    /// Pushes `update LINE` for game `n` to its watchers and to its players' connections
    /// (except `mover`, who got the reply).
    fn push(&mut self, n: u64, mover: Option<ConnId>, details: &str) {
        let Some(h) = self.games.get(&n) else {
            return;
        };
        let mut to: BTreeSet<ConnId> = h.watchers.clone();
        to.extend(h.players.iter().flatten().filter(|&&c| Some(c) != mover));
        for conn in to {
            self.send(conn, format!("update {details}"));
        }
    }

    /// Whether engine moves are waiting for a thinking thread.
    pub fn engine_work_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Thinks every queued engine move on the calling thread (holding `self`), including
    /// the moves queued meanwhile (an engine-vs-engine game is played to its end); the
    /// number of engine moves thought. For tests and tools; [`serve`](super::serve)
    /// thinks on background threads without the lock instead.
    pub fn think_pending(&mut self) -> usize {
        let mut n = 0;
        while let Some(job) = self.pending.pop_front() {
            let Job {
                game,
                ply,
                seat,
                think,
            } = job;
            let mv = think.think();
            self.engine_moved(game, ply, seat, mv);
            n += 1;
        }
        n
    }

    /// Queues an engine move for game `n` if an engine seat is to move (and none is
    /// queued yet).
    pub(super) fn kick(&mut self, n: u64) {
        let Some(h) = self.games.get_mut(&n) else {
            return;
        };
        if h.queued || h.game.over().is_some() {
            return;
        }
        let seat = h.game.to_move();
        if let Seat::Engine(ms) = h.seats[idx(seat)] {
            h.queued = true;
            self.pending.push_back(Job {
                game: n,
                ply: h.game.moves().len(),
                seat,
                think: h.game.engine_job(ms),
            });
        }
    }

    /// Applies the engine's move `mv` thought for game `n` at `ply`, if the game is still
    /// there, at that ply, with that engine seat to move.
    pub(super) fn engine_moved(&mut self, n: u64, ply: usize, seat: Player, mv: Option<String>) {
        let Some(h) = self.games.get_mut(&n) else {
            return;
        };
        h.queued = false;
        let current = h.game.moves().len() == ply
            && h.game.to_move() == seat
            && matches!(h.seats[idx(seat)], Seat::Engine(_));
        if let (true, Some(mv)) = (current, mv) {
            // An error here (the save file cannot be written) leaves the game as it was.
            let _ = self.apply(n, &mv, None);
        }
    }

    /// Validates `mv` for game `n`, appends it to the save file, plays it; the reply
    /// details `ID PLY MOVE [over REASON]`. Queues the engine's answer if it is due.
    fn apply(&mut self, n: u64, mv: &str, mover: Option<ConnId>) -> Result<String, String> {
        let path = self.path(n);
        let h = self
            .games
            .get_mut(&n)
            .ok_or_else(|| format!("no game {n}"))?;
        let canon = h.game.play(mv, &mut |canon| {
            save::append(path.as_deref(), &format!("{canon}\n"))
        })?;
        let ply = h.game.moves().len();
        let status = h
            .game
            .over()
            .map_or_else(String::new, |r| format!(" over {r}"));
        let details = format!("{n} {ply} {canon}{status}");
        self.push(n, mover, &details);
        self.kick(n);
        Ok(details)
    }

    fn hosted(&mut self, id: &str) -> Result<(u64, &mut Hosted), String> {
        let n: u64 = id
            .parse()
            .map_err(|_| format!("'{}' is not a game id", quote(id, 20)))?;
        self.games
            .get_mut(&n)
            .map(|h| (n, h))
            .ok_or_else(|| format!("no game {n}"))
    }

    fn command(&mut self, conn: Option<ConnId>, line: &str) -> Result<String, String> {
        let mut words = line.split_whitespace();
        let word = words.next().unwrap_or("").to_ascii_lowercase();
        let args: Vec<&str> = words.collect();
        match (word.as_str(), args.as_slice()) {
            ("", _) => Err("empty request: try 'help'".into()),
            ("help", _) => Ok(
                "commands: create SPEC | join ID first|second | rejoin ID TOKEN \
                 | engine ID first|second [MS] | move ID TOKEN MOVE | watch ID | unwatch ID \
                 | show ID | list | quit"
                    .into(),
            ),
            ("create", [spec]) => self.create(spec),
            ("join", [id, seat]) => self.join(conn, id, seat),
            ("engine", [id, seat]) => self.engine_seat(id, seat, None),
            ("engine", [id, seat, ms]) => self.engine_seat(id, seat, Some(ms)),
            ("rejoin", [id, token]) => {
                let (n, h) = self.hosted(id)?;
                let seat = seat_of_token(h, token).ok_or("wrong token for this game")?;
                h.players[idx(seat)] = conn;
                Ok(format!("rejoined {n} {}", seat_name(seat)))
            }
            ("watch", [id]) => {
                let conn = conn.ok_or("watching needs a connection")?;
                let (n, h) = self.hosted(id)?;
                h.watchers.insert(conn);
                Ok(format!("watching {n} {}", h.game.moves().len()))
            }
            ("unwatch", [id]) => {
                let (n, h) = self.hosted(id)?;
                match conn {
                    Some(c) if h.watchers.remove(&c) => Ok(format!("unwatched {n}")),
                    _ => Err(format!("not watching game {n}")),
                }
            }
            ("move", [id, token, mv @ ..]) if !mv.is_empty() => {
                self.play(conn, id, token, &mv.join(" "))
            }
            ("show", [id]) => {
                let (n, h) = self.hosted(id)?;
                Ok(describe(n, h))
            }
            ("list", []) => Ok(format!(
                "games {}",
                self.games
                    .keys()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            )
            .trim_end()
            .to_string()),
            ("quit", []) => Ok("bye".into()),
            (
                "create" | "join" | "rejoin" | "engine" | "watch" | "unwatch" | "move" | "show"
                | "list" | "quit",
                _,
            ) => Err(format!("wrong arguments for '{word}': try 'help'")),
            _ => Err(format!(
                "unknown command '{}': try 'help'",
                quote(&word, 20)
            )),
        }
    }

    fn create(&mut self, spec: &str) -> Result<String, String> {
        if self.games.len() >= self.max_games {
            return Err(format!("too many games (at most {})", self.max_games));
        }
        let game = create_game(spec)?;
        let id = self.next_id;
        if let Some(path) = self.path(id) {
            save::create(&path, &game.spec())?;
        }
        self.next_id += 1;
        let spec = game.spec();
        self.games
            .insert(id, Hosted::new(game, [Seat::Free, Seat::Free]));
        Ok(format!("created {id} {spec}"))
    }

    fn join(&mut self, conn: Option<ConnId>, id: &str, seat: &str) -> Result<String, String> {
        let seat = seat_of(seat).ok_or("the seat must be first or second")?;
        let token = self.token();
        let (n, h) = self.hosted(id)?;
        check_free(n, h, seat)?;
        save::append(
            self.path(n).as_deref(),
            &format!("# token {} {token}\n", seat_name(seat)),
        )?;
        if let Some(h) = self.games.get_mut(&n) {
            h.seats[idx(seat)] = Seat::Token(token.clone());
            h.players[idx(seat)] = conn;
        }
        Ok(format!("joined {n} {} {token}", seat_name(seat)))
    }

    fn engine_seat(&mut self, id: &str, seat: &str, ms: Option<&str>) -> Result<String, String> {
        let seat = seat_of(seat).ok_or("the seat must be first or second")?;
        let ms = match ms {
            None => DEFAULT_ENGINE_MS,
            Some(text) => text
                .parse::<u64>()
                .ok()
                .filter(|ms| ENGINE_MS.contains(ms))
                .ok_or_else(|| {
                    format!(
                        "bad think time '{}': milliseconds from {} to {}",
                        quote(text, 20),
                        ENGINE_MS.start(),
                        ENGINE_MS.end()
                    )
                })?,
        };
        let (n, h) = self.hosted(id)?;
        if let Some(reason) = h.game.over() {
            return Err(format!("the game is over: {reason}"));
        }
        check_free(n, h, seat)?;
        save::append(
            self.path(n).as_deref(),
            &format!("# engine {} {ms}\n", seat_name(seat)),
        )?;
        if let Some(h) = self.games.get_mut(&n) {
            h.seats[idx(seat)] = Seat::Engine(ms);
        }
        self.kick(n);
        Ok(format!("engine {n} {} {ms}", seat_name(seat)))
    }

    fn play(
        &mut self,
        conn: Option<ConnId>,
        id: &str,
        token: &str,
        mv: &str,
    ) -> Result<String, String> {
        let (n, h) = self.hosted(id)?;
        let seat = seat_of_token(h, token).ok_or("wrong token for this game")?;
        if let Some(reason) = h.game.over() {
            return Err(format!("the game is over: {reason}"));
        }
        let to_move = h.game.to_move();
        if to_move != seat {
            return Err(format!("not your turn: {} is to move", seat_name(to_move)));
        }
        let details = self.apply(n, mv, conn)?;
        if let (Some(c), Some(h)) = (conn, self.games.get_mut(&n)) {
            h.players[idx(seat)] = Some(c);
        }
        Ok(format!("moved {details}"))
    }
}
