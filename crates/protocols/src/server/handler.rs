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
    fs::{self, File},
    io,
    net::{IpAddr, TcpStream},
    path::{Path, PathBuf},
    sync::{Arc, mpsc::SyncSender},
    time::{Duration, Instant, SystemTime},
};

use board_core::Player;
use boardlab_games::Registry;
use boardlab_host::{Level, Token, save};

use super::{
    DEFAULT_ENGINE_MS, ENGINE_MS, ENGINE_THREADS_PER_OWNER, SAVE_RETRY_FIRST, SAVE_RETRY_MAX,
    ServeOptions,
    game::{self, Think, create_game, restore_game, seat_name, seat_of},
    hosted::{Hosted, Seat, check_free, describe, idx, seat_of_token},
    net::Backlog,
};
use crate::lines::{escape_controls, quote};

/// A connection known to the server (see [`Server::attach`]).
pub type ConnId = u64;

/// A connection's outgoing queue, drained by its writer thread.
pub(super) struct Outbox {
    tx: SyncSender<String>,
    /// Shut down when the connection is dropped for a full queue.
    closer: Option<TcpStream>,
    /// The peer's address (games-per-peer bound, engine fairness).
    peer: Option<IpAddr>,
    /// Lines queued but not yet written (the network side's back-pressure).
    backlog: Option<Arc<Backlog>>,
}

/// Whom an engine move is thought for: engine moves are queued fairly between owners.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Owner {
    /// The peer address that created the game.
    Peer(IpAddr),
    /// A game without a known creator (restored from disk, or in-process).
    Game(u64),
}

/// An engine move to think: game, ply it was asked at, seat, and the snapshot.
pub(super) struct Job {
    pub(super) game: u64,
    pub(super) ply: usize,
    pub(super) seat: Player,
    pub(super) think: Box<dyn Think>,
    pub(super) owner: Owner,
}

/// An engine move that was thought but could not be saved: saved again at `due`.
pub(super) struct Retry {
    pub(super) due: Instant,
    game: u64,
    ply: usize,
    seat: Player,
    mv: String,
    /// Failed attempts so far.
    attempt: u32,
}

/// Why a move was not played.
enum Refusal {
    /// Not legal here (or no such game): the player is told.
    Rejected(String),
    /// Legal, but its save file could not be written: nothing changed.
    Save(String),
}

impl From<Refusal> for String {
    fn from(r: Refusal) -> String {
        match r {
            Refusal::Rejected(e) | Refusal::Save(e) => e,
        }
    }
}

/// The wait before the `attempt`-th new try to save an engine move (1-based).
fn backoff(attempt: u32) -> Duration {
    let factor = 1u32 << attempt.saturating_sub(1).min(16);
    SAVE_RETRY_FIRST.saturating_mul(factor).min(SAVE_RETRY_MAX)
}

/// The server's state: the games and where they are saved.
pub struct Server {
    /// The hosted games by id (`pub(super)` for the tests, like `conns`).
    pub(super) games: BTreeMap<u64, Hosted>,
    next_id: u64,
    data: Option<PathBuf>,
    /// The data directory's lock, held as long as the server lives.
    _lock: Option<File>,
    pub(super) options: ServeOptions,
    /// The games `create` and the save files may name.
    registry: Registry,
    /// Engine moves waiting for a thinking thread (at most one per game); taken fairly
    /// between owners by [`Server::next_job`].
    pub(super) pending: VecDeque<Job>,
    /// Engine moves being thought, per owner.
    running: BTreeMap<Owner, usize>,
    /// When each owner with queued or running work last got a thread (a counter).
    served: BTreeMap<Owner, u64>,
    serve_clock: u64,
    /// Engine moves waiting to be saved again.
    pub(super) retries: Vec<Retry>,
    /// Connections' outgoing queues.
    pub(super) conns: BTreeMap<ConnId, Outbox>,
    next_conn: ConnId,
    /// Notes for the operator made while serving (see [`Server::take_notes`]).
    notes: Vec<String>,
}

impl Server {
    /// [`Server::open_with`] with the default [`ServeOptions`].
    pub fn open(data: Option<&Path>) -> io::Result<(Server, Vec<String>)> {
        Server::open_with(data, ServeOptions::default())
    }

    /// A server saving into `data`, with every game found there restored. The directory
    /// is created `0700` if missing (an existing one, and save files others can read, are
    /// tightened to `0700`/`0600`) and locked: a second server on it is refused with the
    /// first one's pid. Files that cannot be loaded are skipped, never touched, and their
    /// ids never reused; the returned notes name each with the reason, and each change
    /// made (modes tightened, a torn last record cut). Games whose engine seat is to
    /// move get their engine move queued.
    pub fn open_with(
        data: Option<&Path>,
        options: ServeOptions,
    ) -> io::Result<(Server, Vec<String>)> {
        Server::open_with_games(data, options, Registry::bundled())
    }

    /// [`Server::open_with`] hosting the games of `registry` (a user's own included)
    /// instead of the bundled ones.
    pub fn open_with_games(
        data: Option<&Path>,
        options: ServeOptions,
        registry: Registry,
    ) -> io::Result<(Server, Vec<String>)> {
        let mut notes = Vec::new();
        let lock = match data {
            Some(dir) => {
                notes.extend(save::private_dir(dir)?);
                Some(save::lock_dir(dir)?)
            }
            None => None,
        };
        let mut server = Server {
            games: BTreeMap::new(),
            next_id: 1,
            data: data.map(Path::to_path_buf),
            _lock: lock,
            options,
            registry,
            pending: VecDeque::new(),
            running: BTreeMap::new(),
            served: BTreeMap::new(),
            serve_clock: 0,
            retries: Vec::new(),
            conns: BTreeMap::new(),
            next_conn: 1,
            notes: Vec::new(),
        };
        if let Some(dir) = data {
            server.restore_all(dir, &mut notes)?;
            let ids: Vec<u64> = server.games.keys().copied().collect();
            for id in ids {
                server.kick(id);
            }
        }
        Ok((server, notes))
    }

    /// Loads every game file of `dir`; reserves the id of every `N.save` name there and
    /// in the archive, loaded or not.
    fn restore_all(&mut self, dir: &Path, notes: &mut Vec<String>) -> io::Result<()> {
        let scan = save::scan(dir)?;
        notes.extend(scan.notes);
        self.reserve(scan.next_id.saturating_sub(1));
        for (id, path) in scan.games {
            match self.restore(&path, id) {
                Ok(more) => notes.extend(more),
                Err(e) => notes.push(format!("{}: skipped: {e}", path.display())),
            }
        }
        Ok(())
    }

    /// Restores game `id` from its save file at `path`; notes of changes made.
    fn restore(&mut self, path: &Path, id: u64) -> Result<Vec<String>, String> {
        let (text, notes) = save::read_game(path)?;
        let game = restore_game(&self.registry, &text)?;
        let recorded = save::recorded(&text);
        let ended = match (recorded.resigned, recorded.drawn) {
            (Some(p), _) => Some(format!("{} resigned", game.player_name(p))),
            (None, true) => Some("drawn by agreement".to_string()),
            (None, false) => None,
        };
        let touched = fs::metadata(path)
            .and_then(|m| m.modified())
            .unwrap_or_else(|_| SystemTime::now());
        let mut hosted = Hosted::new(game, recorded.seats, None, touched);
        hosted.ended = ended;
        self.games.insert(id, hosted);
        Ok(notes)
    }

    fn reserve(&mut self, id: u64) {
        self.next_id = self.next_id.max(id.saturating_add(1));
    }

    /// Limits the number of games (tests).
    pub fn with_max_games(mut self, n: usize) -> Server {
        self.options.max_games = n;
        self
    }

    /// Takes the notes for the operator made while serving: games expired on `create`,
    /// game ids passed over, engine moves whose save failed. [`serve`](super::serve)
    /// prints them on stderr.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The limits and expiry times in force.
    pub fn options(&self) -> &ServeOptions {
        &self.options
    }

    fn path(&self, id: u64) -> Option<PathBuf> {
        self.data.as_deref().map(|d| save::path(d, id))
    }

    /// Answers one request line with one reply line (`ok ...` or `error ...`), for a
    /// caller without a connection (`watch` is refused).
    pub fn handle(&mut self, line: &str) -> String {
        reply_line(self.command(None, line.trim()))
    }

    /// Registers a connection whose outgoing lines (replies and pushed `update`s) go to
    /// `tx`, a bounded queue: a connection whose queue is full when a line is due is
    /// dropped (detached, and `closer` shut down). The peer address (for the per-peer
    /// bounds) is `closer`'s.
    pub fn attach(&mut self, tx: SyncSender<String>, closer: Option<TcpStream>) -> ConnId {
        let peer = closer
            .as_ref()
            .and_then(|s| s.peer_addr().ok())
            .map(|a| a.ip());
        self.attach_from(tx, closer, peer)
    }

    /// [`Server::attach`] for a connection from `peer` (games per peer, fair engines).
    pub fn attach_from(
        &mut self,
        tx: SyncSender<String>,
        closer: Option<TcpStream>,
        peer: Option<IpAddr>,
    ) -> ConnId {
        self.attach_counted(tx, closer, peer, None)
    }

    /// [`Server::attach_from`] with a count of lines queued and not yet written.
    pub(super) fn attach_counted(
        &mut self,
        tx: SyncSender<String>,
        closer: Option<TcpStream>,
        peer: Option<IpAddr>,
        backlog: Option<Arc<Backlog>>,
    ) -> ConnId {
        let id = self.next_conn;
        self.next_conn += 1;
        self.conns.insert(
            id,
            Outbox {
                tx,
                closer,
                peer,
                backlog,
            },
        );
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
        let reply = reply_line(self.command(attached, line.trim()));
        self.send(conn, reply.clone());
        reply
    }

    /// Queues `line` on `conn`; drops the connection if its queue is full or gone.
    pub(super) fn send(&mut self, conn: ConnId, line: String) {
        let Some(outbox) = self.conns.get(&conn) else {
            return;
        };
        // Counted before it is queued: the writer may take it at once.
        if let Some(b) = &outbox.backlog {
            b.queued(1);
        }
        if outbox.tx.try_send(line).is_err() {
            if let Some(b) = &outbox.backlog {
                b.written(1);
            }
            self.drop_conn(conn);
        }
    }

    /// Pushes `update LINE` for game `n` to its watchers and to its players' connections
    /// (except `mover`, who got the reply).
    fn push(&mut self, n: u64, mover: Option<ConnId>, details: &str) {
        self.push_line(n, mover, &format!("update {details}"));
    }

    /// Pushes `notice ID TEXT` about game `n` to its watchers and players.
    fn notice(&mut self, n: u64, text: &str) {
        self.push_line(n, None, &format!("notice {n} {text}"));
    }

    fn push_line(&mut self, n: u64, mover: Option<ConnId>, line: &str) {
        let Some(h) = self.games.get(&n) else {
            return;
        };
        let mut to: BTreeSet<ConnId> = h.watchers.clone();
        to.extend(h.players.iter().flatten().filter(|&&c| Some(c) != mover));
        for conn in to {
            self.send(conn, line.to_string());
        }
    }

    /// Whether engine moves are waiting for a thinking thread.
    pub fn engine_work_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Takes the next engine move to think, fairly: only owners with fewer than
    /// [`ENGINE_THREADS_PER_OWNER`] thinking now, and of those the one served least
    /// recently (round robin; the oldest job of a tie). `None` if nothing may start.
    /// The caller reports its end with [`Server::job_done`].
    pub(super) fn next_job(&mut self) -> Option<Job> {
        let best = self
            .pending
            .iter()
            .enumerate()
            .filter(|(_, j)| {
                self.running.get(&j.owner).copied().unwrap_or(0) < ENGINE_THREADS_PER_OWNER
            })
            .min_by_key(|(i, j)| (self.served.get(&j.owner).copied().unwrap_or(0), *i))
            .map(|(i, _)| i)?;
        let job = self.pending.remove(best)?;
        self.serve_clock += 1;
        self.served.insert(job.owner, self.serve_clock);
        *self.running.entry(job.owner).or_default() += 1;
        Some(job)
    }

    /// An engine move of `owner` taken by [`Server::next_job`] was thought (and
    /// applied): its thread is free.
    pub(super) fn job_done(&mut self, owner: Owner) {
        if let Some(n) = self.running.get_mut(&owner) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.running.remove(&owner);
            }
        }
        if !self.running.contains_key(&owner) && !self.pending.iter().any(|j| j.owner == owner) {
            self.served.remove(&owner);
        }
    }

    /// Thinks every queued engine move on the calling thread (holding `self`), including
    /// the moves queued meanwhile (an engine-vs-engine game is played to its end); the
    /// number of engine moves thought. For tests and tools; [`serve`](super::serve)
    /// thinks on background threads without the lock instead. Engine moves whose save
    /// failed wait for [`Server::retry_saves`].
    pub fn think_pending(&mut self) -> usize {
        let mut n = 0;
        while let Some(job) = self.next_job() {
            let Job {
                game,
                ply,
                seat,
                think,
                owner,
            } = job;
            let mv = think.think();
            self.engine_moved(game, ply, seat, mv);
            self.job_done(owner);
            n += 1;
        }
        n
    }

    /// When the next engine move whose save failed is due to be saved again.
    pub fn next_retry(&self) -> Option<Instant> {
        self.retries.iter().map(|r| r.due).min()
    }

    /// Saves again every engine move whose save failed and whose retry is due at `now`
    /// (a move that fails again waits twice as long, up to [`SAVE_RETRY_MAX`]); the
    /// number of attempts made.
    pub fn retry_saves(&mut self, now: Instant) -> usize {
        let (due, later): (Vec<Retry>, Vec<Retry>) = std::mem::take(&mut self.retries)
            .into_iter()
            .partition(|r| r.due <= now);
        self.retries = later;
        let attempts = due.len();
        for r in due {
            let Some(h) = self.games.get_mut(&r.game) else {
                continue;
            };
            h.queued = false;
            if self.engine_to_move(r.game, r.ply, r.seat) {
                self.engine_move(r.game, r.ply, r.seat, r.mv, r.attempt);
            } else {
                self.kick(r.game);
            }
        }
        attempts
    }

    /// Queues an engine move for game `n` if an engine seat is to move (and none is
    /// queued yet).
    pub(super) fn kick(&mut self, n: u64) {
        let Some(h) = self.games.get_mut(&n) else {
            return;
        };
        if h.queued || h.over().is_some() {
            return;
        }
        let seat = h.game.side_to_move();
        if let Seat::Engine(level) = h.seats[idx(seat)] {
            h.queued = true;
            let owner = h.creator.map_or(Owner::Game(n), Owner::Peer);
            self.pending.push_back(Job {
                game: n,
                ply: h.game.ply_count(),
                seat,
                think: game::engine_job(h.game.as_ref(), level),
                owner,
            });
        }
    }

    /// Whether game `n` is at `ply` with the engine seat `seat` to move.
    fn engine_to_move(&self, n: u64, ply: usize, seat: Player) -> bool {
        self.games.get(&n).is_some_and(|h| {
            h.game.ply_count() == ply
                && h.over().is_none()
                && h.game.side_to_move() == seat
                && matches!(h.seats[idx(seat)], Seat::Engine(_))
        })
    }

    /// Applies the engine's move `mv` thought for game `n` at `ply`, if the game is still
    /// there, at that ply, with that engine seat to move.
    pub(super) fn engine_moved(
        &mut self,
        n: u64,
        ply: usize,
        seat: Player,
        mv: Result<String, String>,
    ) {
        let Some(h) = self.games.get_mut(&n) else {
            return;
        };
        h.queued = false;
        if !self.engine_to_move(n, ply, seat) {
            return;
        }
        match mv {
            Ok(mv) => self.engine_move(n, ply, seat, mv, 0),
            // No stand-in move: the players and watchers are told, and the log keeps it.
            Err(e) => {
                self.notes.push(format!(
                    "game {n}: the engine gave no move at ply {}: {e}",
                    ply + 1
                ));
                self.notice(
                    n,
                    &format!("the engine gave no move (ply {}): {e}", ply + 1),
                );
            }
        }
    }

    /// Plays the engine's move; if it cannot be saved, the players and watchers are told
    /// (`notice`) and it is saved again later (no other engine move is queued meanwhile).
    fn engine_move(&mut self, n: u64, ply: usize, seat: Player, mv: String, failed: u32) {
        match self.apply(n, &mv, None) {
            Ok(_) => {}
            Err(Refusal::Save(e)) => {
                let attempt = failed.saturating_add(1);
                let wait = backoff(attempt);
                self.notes.push(format!(
                    "game {n}: engine move {mv} not saved (attempt {attempt}): {e}"
                ));
                if let Some(h) = self.games.get_mut(&n) {
                    h.queued = true;
                }
                self.notice(
                    n,
                    &format!(
                        "engine move {mv} (ply {}) not saved: {e}; retrying in {} ms",
                        ply + 1,
                        wait.as_millis()
                    ),
                );
                self.retries.push(Retry {
                    due: Instant::now() + wait,
                    game: n,
                    ply,
                    seat,
                    mv,
                    attempt,
                });
            }
            // The engine's move is validated before it is returned; a game changed
            // meanwhile is caught by `engine_to_move`.
            Err(Refusal::Rejected(_)) => {}
        }
    }

    /// Validates `mv` for game `n`, appends it to the save file, plays it; the reply
    /// details `ID PLY MOVE [over REASON]`. Queues the engine's answer if it is due.
    fn apply(&mut self, n: u64, mv: &str, mover: Option<ConnId>) -> Result<String, Refusal> {
        let path = self.path(n);
        let h = self
            .games
            .get_mut(&n)
            .ok_or_else(|| Refusal::Rejected(format!("no game {n}")))?;
        let mut save_error = None;
        let played = game::play(h.game.as_mut(), mv, &mut |canon| {
            save::append(path.as_deref(), &[canon]).inspect_err(|e| save_error = Some(e.clone()))
        });
        let canon = played.map_err(|e| match save_error.take() {
            Some(s) => Refusal::Save(s),
            None => Refusal::Rejected(e),
        })?;
        h.last_active = SystemTime::now();
        let ply = h.game.ply_count();
        let status = h
            .game
            .outcome_reason()
            .map_or_else(String::new, |r| format!(" over {r}"));
        let details = format!("{n} {ply} {canon}{status}");
        self.push(n, mover, &details);
        self.kick(n);
        Ok(details)
    }

    /// Archives every game untouched for longer than its expiry at `now` (finished:
    /// [`ServeOptions::finished_expiry`], unfinished: [`ServeOptions::abandoned_expiry`]):
    /// its save file moves to `archive/`, its players and watchers get `notice ID
    /// expired ...`, and it is gone from the server. A note for each game.
    pub fn expire(&mut self, now: SystemTime) -> Vec<String> {
        let (finished, abandoned) = (self.options.finished_expiry, self.options.abandoned_expiry);
        let due: Vec<u64> = self
            .games
            .iter()
            .filter(|(_, h)| {
                let idle = now.duration_since(h.last_active).unwrap_or(Duration::ZERO);
                idle >= if h.over().is_some() {
                    finished
                } else {
                    abandoned
                }
            })
            .map(|(&n, _)| n)
            .collect();
        let mut notes = Vec::new();
        for n in due {
            if let Some(dir) = &self.data {
                match save::archive(dir, n) {
                    Ok(to) => notes.push(format!("game {n} expired: archived as {}", to.display())),
                    Err(e) => {
                        notes.push(format!(
                            "game {n} expired but was kept: cannot archive: {e}"
                        ));
                        continue;
                    }
                }
            } else {
                notes.push(format!("game {n} expired"));
            }
            self.notice(n, "expired: the game is archived and closed");
            self.games.remove(&n);
            self.pending.retain(|j| j.game != n);
            self.retries.retain(|r| r.game != n);
        }
        notes
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
            ("create", [spec]) => self.create(conn, spec),
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
                let watched = self
                    .games
                    .values()
                    .filter(|h| h.watchers.contains(&conn))
                    .count();
                let per_game = self.options.max_watchers_per_game;
                let per_conn = self.options.max_watches_per_connection;
                let (n, h) = self.hosted(id)?;
                if !h.watchers.contains(&conn) {
                    if h.watchers.len() >= per_game {
                        return Err(format!(
                            "game {n} has too many watchers (at most {per_game})"
                        ));
                    }
                    if watched >= per_conn {
                        return Err(format!(
                            "this connection watches too many games (at most {per_conn})"
                        ));
                    }
                }
                h.watchers.insert(conn);
                Ok(format!("watching {n} {}", h.game.ply_count()))
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

    fn create(&mut self, conn: Option<ConnId>, spec: &str) -> Result<String, String> {
        let peer = conn.and_then(|c| self.conns.get(&c)).and_then(|o| o.peer);
        let mine = |s: &Server| {
            peer.map_or(0, |p| {
                s.games.values().filter(|h| h.creator == Some(p)).count()
            })
        };
        if self.games.len() >= self.options.max_games
            || mine(self) >= self.options.max_games_per_peer
        {
            // Expired games make room first.
            let notes = self.expire(SystemTime::now());
            self.notes.extend(notes);
        }
        if self.games.len() >= self.options.max_games {
            return Err(format!(
                "too many games (at most {})",
                self.options.max_games
            ));
        }
        if let Some(p) = peer
            && mine(self) >= self.options.max_games_per_peer
        {
            return Err(format!(
                "too many games from {p} (at most {})",
                self.options.max_games_per_peer
            ));
        }
        let game = create_game(&self.registry, spec)?;
        let spec = game.spec();
        let id = self.new_id(&spec)?;
        self.games.insert(
            id,
            Hosted::new(game, [Seat::Free, Seat::Free], peer, SystemTime::now()),
        );
        Ok(format!("created {id} {spec}"))
    }

    /// The next free game id, its save file created: a name that exists (a file the
    /// start-up skipped, a directory) is never overwritten but passed over.
    fn new_id(&mut self, spec: &str) -> Result<u64, String> {
        const ATTEMPTS: usize = 64;
        for _ in 0..ATTEMPTS {
            let id = self.next_id;
            self.next_id = id.checked_add(1).ok_or("no game id left")?;
            let Some(path) = self.path(id) else {
                return Ok(id);
            };
            match save::create(&path, spec) {
                Ok(()) => return Ok(id),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    self.notes.push(format!(
                        "{} exists: game id {id} passed over",
                        path.display()
                    ));
                }
                Err(e) => return Err(format!("cannot save: {e}")),
            }
        }
        Err(format!(
            "cannot save: {ATTEMPTS} game file names in a row exist"
        ))
    }

    fn join(&mut self, conn: Option<ConnId>, id: &str, seat: &str) -> Result<String, String> {
        let seat = seat_of(seat).ok_or("the seat must be first or second")?;
        let token = Token::generate()?;
        let (n, h) = self.hosted(id)?;
        check_free(n, h, seat)?;
        let taken = Seat::Person(token.clone());
        if let Some(record) = save::seat_record(seat, &taken) {
            save::append(self.path(n).as_deref(), &[&record])?;
        }
        let token = token.as_str().to_string();
        if let Some(h) = self.games.get_mut(&n) {
            h.seats[idx(seat)] = taken;
            h.players[idx(seat)] = conn;
            h.last_active = SystemTime::now();
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
        if let Some(reason) = h.over() {
            return Err(format!("the game is over: {reason}"));
        }
        check_free(n, h, seat)?;
        let taken = Seat::Engine(Level::Engine(ms));
        if let Some(record) = save::seat_record(seat, &taken) {
            save::append(self.path(n).as_deref(), &[&record])?;
        }
        if let Some(h) = self.games.get_mut(&n) {
            h.seats[idx(seat)] = taken;
            h.last_active = SystemTime::now();
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
        if let Some(reason) = h.over() {
            return Err(format!("the game is over: {reason}"));
        }
        let to_move = h.game.side_to_move();
        if to_move != seat {
            return Err(format!("not your turn: {} is to move", seat_name(to_move)));
        }
        let details = self.apply(n, mv, conn).map_err(String::from)?;
        if let (Some(c), Some(h)) = (conn, self.games.get_mut(&n)) {
            h.players[idx(seat)] = Some(c);
        }
        Ok(format!("moved {details}"))
    }
}

/// The reply line to a command's result; peer text echoed in an error has its control
/// characters escaped.
fn reply_line(result: Result<String, String>) -> String {
    match result {
        Ok(reply) => format!("ok {reply}"),
        Err(e) => format!("error {}", escape_controls(&e)),
    }
}
