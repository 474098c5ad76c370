//! A TCP game server (`boardlab serve`): any number of games, two seats each (players or
//! the server's engine), moves validated by the server, every accepted move saved before
//! it is acknowledged and pushed to the game's watchers.
//!
//! The line protocol is documented in `docs/server-protocol.md`. [`Server::handle`] and
//! [`Server::request`] are the whole protocol as functions from one request line to one
//! reply line (no sockets: unit tested); [`serve`] runs it with a reader and a writer
//! thread per connection and [`ENGINE_THREADS`] engine threads.
//!
//! # Engine seats
//! `engine ID SEAT [MS]` gives a seat to [`engines::EngineGame::engine`] (one thread,
//! [`ENGINE_HASH_MB`] MB). When it is that seat's turn a job (a snapshot of the position)
//! is queued; an engine thread takes it, thinks without the state lock, re-locks and
//! applies the move only if the game is still at the same ply, through the same
//! validate-save-play path as a player's move. [`Server::think_pending`] does the same on
//! the calling thread (tests).
//!
//! # Pushes
//! Each connection has a bounded outgoing queue ([`OUTBOX_LINES`]) that its writer thread
//! drains; replies are queued under the state lock, so they and the pushed `update` lines
//! reach the client in the order they happened. A connection whose queue is full is
//! dropped, never waited for.
//!
//! # Persistence
//! With a data directory each game is one save file `<id>.save` in the
//! [`board_core::savefile`] format. A seat's token is recorded as a comment line
//! `# token <seat> <token>` when the seat is taken, an engine seat as
//! `# engine <seat> <ms>`; each accepted move is appended (and synced) before the `ok`.
//! At start-up every `*.save` file is replayed, so games resume where they were, players
//! reconnect with their tokens and engines whose turn it is move.
//!
//! # Bounds
//! Lines are capped at [`MAX_REQUEST_BYTES`], games at [`MAX_GAMES`], connections at
//! [`MAX_CONNECTIONS`], thinking engines at [`ENGINE_THREADS`]; a connection idle for
//! [`IDLE_TIMEOUT`] is closed (unless it watches or holds a seat), and a write that blocks
//! for [`WRITE_TIMEOUT`] drops the connection. The state lock is held only while a request
//! is processed (never during network I/O or thinking), so a slow client cannot stall
//! others.

use std::{
    collections::{BTreeMap, BTreeSet, VecDeque},
    fs,
    io::{self, BufReader, Write},
    net::{TcpListener, TcpStream},
    path::{Path, PathBuf},
    sync::{
        Arc, Condvar, Mutex, MutexGuard,
        atomic::{AtomicUsize, Ordering},
        mpsc::{SyncSender, sync_channel},
    },
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use board_core::{GameSpec, Player, savefile};
use engines::{AgentKind, EngineGame};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::{Limits, SearchOptions};

use crate::lines::{Line, quote, read_line_capped, write_line};

/// Longest request line.
pub const MAX_REQUEST_BYTES: usize = 4096;
/// Most games one server hosts.
pub const MAX_GAMES: usize = 1000;
/// Most simultaneous connections.
pub const MAX_CONNECTIONS: usize = 64;
/// A connection silent for this long is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(600);
/// A reply that cannot be written within this time drops the connection.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Engine think time per move when `engine` is not given one (milliseconds).
pub const DEFAULT_ENGINE_MS: u64 = 200;
/// The think times `engine ID SEAT MS` accepts (milliseconds).
pub const ENGINE_MS: std::ops::RangeInclusive<u64> = 10..=10_000;
/// Most engines thinking at once (each on one thread); further engine moves wait.
pub const ENGINE_THREADS: usize = 2;
/// Lines a connection's outgoing queue holds; a watcher that falls further behind is
/// dropped.
pub const OUTBOX_LINES: usize = 1024;
/// Hash table of the engine seats (MB).
pub const ENGINE_HASH_MB: usize = 16;

/// One hosted game, whatever the rules.
trait Game: Send {
    fn spec(&self) -> String;
    fn to_move(&self) -> Player;
    fn over(&self) -> Option<String>;
    /// Validates `text` on the hosted position; when it is legal, calls `commit` with its
    /// canonical notation and plays it only if `commit` succeeds. A refused move (illegal,
    /// or `commit` failed) changes nothing.
    fn play(
        &mut self,
        text: &str,
        commit: &mut dyn FnMut(&str) -> Result<(), String>,
    ) -> Result<String, String>;
    fn moves(&self) -> &[String];
    /// The board diagram.
    fn diagram(&self) -> String;
    /// Display name of a player ("Black", "White").
    fn player_name(&self, p: Player) -> &'static str;
    /// A snapshot of the position for the engine to think on, `ms` milliseconds.
    fn engine_job(&self, ms: u64) -> Box<dyn Think>;
}

/// The engine's work for one move, run without the server lock.
trait Think: Send {
    /// The engine's move in canonical notation; `None` only when the game is over.
    fn think(self: Box<Self>) -> Option<String>;
}

struct Typed<P: EngineGame> {
    pos: P,
    moves: Vec<String>,
    /// Hashes of every position from the start (repetition rules).
    hashes: Vec<u64>,
}

impl<P: EngineGame> Typed<P> {
    fn start(pos: P) -> Typed<P> {
        let hashes = vec![pos.hash()];
        Typed {
            pos,
            moves: Vec::new(),
            hashes,
        }
    }
}

impl<P: EngineGame> Game for Typed<P> {
    fn spec(&self) -> String {
        self.pos.config().to_string()
    }
    fn to_move(&self) -> Player {
        self.pos.side_to_move()
    }
    fn over(&self) -> Option<String> {
        self.pos.outcome_reason()
    }
    fn play(
        &mut self,
        text: &str,
        commit: &mut dyn FnMut(&str) -> Result<(), String>,
    ) -> Result<String, String> {
        let mv = self
            .pos
            .parse_legal_move(text)
            .map_err(|e| format!("illegal move '{}': {e}", quote(text, 32)))?;
        let canon = self.pos.format_move(mv);
        commit(&canon)?;
        self.pos
            .play(mv)
            .map_err(|e| format!("illegal move '{}': {e}", quote(text, 32)))?;
        self.moves.push(canon.clone());
        self.hashes.push(self.pos.hash());
        Ok(canon)
    }
    fn moves(&self) -> &[String] {
        &self.moves
    }
    fn diagram(&self) -> String {
        self.pos.diagram()
    }
    fn player_name(&self, p: Player) -> &'static str {
        self.pos.player_name(p)
    }
    fn engine_job(&self, ms: u64) -> Box<dyn Think> {
        Box::new(EngineJob {
            pos: self.pos.clone(),
            hashes: self.hashes.clone(),
            ms,
        })
    }
}

struct EngineJob<P: EngineGame> {
    pos: P,
    hashes: Vec<u64>,
    ms: u64,
}

impl<P: EngineGame> Think for EngineJob<P> {
    fn think(self: Box<Self>) -> Option<String> {
        let pos = &self.pos;
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        let fallback = legal.first().copied()?;
        let limits = Limits::new().with_move_time(Duration::from_millis(self.ms));
        // An engine that fails (or panics) still answers: the first legal move.
        let chosen = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let options = SearchOptions::default()
                .with_hash_mb(ENGINE_HASH_MB)
                .and_then(|o| o.with_threads(1))
                .ok()?;
            let mut agent = AgentKind::Engine.build::<P>(options).ok()?;
            agent.set_game_history(&self.hashes);
            agent.think(pos, &limits, &mut |_| {}).best_move
        }))
        .ok()
        .flatten()
        .filter(|m| pos.validate(m).is_ok());
        Some(pos.format_move(chosen.unwrap_or(fallback)))
    }
}

fn new_game<P: EngineGame>(spec: &str) -> Result<Box<dyn Game>, String> {
    let config: P::Config = spec.parse().map_err(|e| format!("bad game spec: {e}"))?;
    Ok(Box::new(Typed::start(P::new(config))))
}

fn load_game<P: EngineGame>(text: &str) -> Result<Box<dyn Game>, String> {
    let loaded = savefile::load::<P>(text).map_err(|e| e.to_string())?;
    let mut game = Typed::start(P::new(loaded.position.config().clone()));
    for mv in loaded.moves {
        game.moves.push(game.pos.format_move(mv));
        game.pos.make_move(mv);
        game.hashes.push(game.pos.hash());
    }
    Ok(Box::new(game))
}

fn game_id_of(spec: &str) -> Result<String, String> {
    GameSpec::parse(spec)
        .map(|s| s.id)
        .map_err(|e| format!("bad game spec: {e}"))
}

fn create_game(spec: &str) -> Result<Box<dyn Game>, String> {
    let id = game_id_of(spec)?;
    engines::with_game!(id.as_str(), new_game(spec)).map_err(|e| format!("bad game spec: {e}"))?
}

fn restore_game(text: &str) -> Result<Box<dyn Game>, String> {
    let file = savefile::SaveFile::parse::<std::fmt::Error>(text).map_err(|e| e.to_string())?;
    let id = file.spec.id;
    engines::with_game!(id.as_str(), load_game(text)).map_err(|e| e.to_string())?
}

fn seat_name(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

fn seat_of(s: &str) -> Option<Player> {
    match s.to_ascii_lowercase().as_str() {
        "first" | "1" => Some(Player::First),
        "second" | "2" => Some(Player::Second),
        _ => None,
    }
}

/// Who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seat {
    Free,
    /// A player, by the secret token.
    Token(String),
    /// The server's engine, thinking this many milliseconds per move.
    Engine(u64),
}

struct Hosted {
    game: Box<dyn Game>,
    /// The first and second seat.
    seats: [Seat; 2],
    /// An engine move for this game is queued or being thought.
    queued: bool,
    /// Connections watching this game.
    watchers: BTreeSet<ConnId>,
    /// The connection that last joined, rejoined or moved for each seat (pushed the
    /// other side's moves).
    players: [Option<ConnId>; 2],
}

impl Hosted {
    fn new(game: Box<dyn Game>, seats: [Seat; 2]) -> Hosted {
        Hosted {
            game,
            seats,
            queued: false,
            watchers: BTreeSet::new(),
            players: [None, None],
        }
    }
}

/// A connection known to the server (see [`Server::attach`]).
pub type ConnId = u64;

/// A connection's outgoing queue, drained by its writer thread.
struct Outbox {
    tx: SyncSender<String>,
    /// Shut down when the connection is dropped for a full queue.
    closer: Option<TcpStream>,
}

fn idx(p: Player) -> usize {
    match p {
        Player::First => 0,
        Player::Second => 1,
    }
}

/// An engine move to think: game, ply it was asked at, seat, and the snapshot.
struct Job {
    game: u64,
    ply: usize,
    seat: Player,
    think: Box<dyn Think>,
}

/// The server's state: the games and where they are saved.
pub struct Server {
    games: BTreeMap<u64, Hosted>,
    next_id: u64,
    data: Option<PathBuf>,
    rng: ChaCha8Rng,
    max_games: usize,
    /// Engine moves waiting for a thinking thread, oldest first (at most one per game).
    pending: VecDeque<Job>,
    /// Connections' outgoing queues.
    conns: BTreeMap<ConnId, Outbox>,
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
                let Some(id) = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_suffix(".save"))
                    .and_then(|n| n.parse::<u64>().ok())
                else {
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
                        let seats = seats_of_save(&text);
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
        self.data.as_ref().map(|d| d.join(format!("{id}.save")))
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
    /// number of engine moves thought. For tests and tools; [`serve`] thinks on
    /// background threads without the lock instead.
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
    fn kick(&mut self, n: u64) {
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
    fn engine_moved(&mut self, n: u64, ply: usize, seat: Player, mv: Option<String>) {
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
            append(path.as_deref(), &format!("{canon}\n"))
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
        let header = format!(
            "{} {}\ngame {}\n",
            savefile::MAGIC,
            savefile::VERSION,
            game.spec()
        );
        if let Some(path) = self.path(id) {
            fs::write(&path, header).map_err(|e| format!("cannot save: {e}"))?;
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
        append(
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
        append(
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

/// Appends `text` to the save file at `path` (none: in memory only) and syncs it.
fn append(path: Option<&Path>, text: &str) -> Result<(), String> {
    let Some(path) = path else {
        return Ok(());
    };
    let mut f = fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot save: {e}"))?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_data())
        .map_err(|e| format!("cannot save: {e}"))
}

fn check_free(n: u64, h: &Hosted, seat: Player) -> Result<(), String> {
    match &h.seats[idx(seat)] {
        Seat::Free => Ok(()),
        Seat::Token(_) => Err(format!(
            "seat {} of game {n} is taken (reconnect with rejoin and its token)",
            seat_name(seat)
        )),
        Seat::Engine(_) => Err(format!(
            "seat {} of game {n} is taken by the engine",
            seat_name(seat)
        )),
    }
}

/// The seats recorded in a save file's `# token` and `# engine` comment lines.
fn seats_of_save(text: &str) -> [Seat; 2] {
    let mut seats = [Seat::Free, Seat::Free];
    for line in text.lines() {
        let mut w = line.split_whitespace();
        match (w.next(), w.next(), w.next().and_then(seat_of), w.next()) {
            (Some("#"), Some("token"), Some(p), Some(tok)) => {
                seats[idx(p)] = Seat::Token(tok.to_string());
            }
            (Some("#"), Some("engine"), Some(p), Some(ms)) => {
                let ms = ms
                    .parse()
                    .ok()
                    .filter(|ms| ENGINE_MS.contains(ms))
                    .unwrap_or(DEFAULT_ENGINE_MS);
                seats[idx(p)] = Seat::Engine(ms);
            }
            _ => {}
        }
    }
    seats
}

fn seat_of_token(h: &Hosted, token: &str) -> Option<Player> {
    [Player::First, Player::Second]
        .into_iter()
        .find(|&p| matches!(&h.seats[idx(p)], Seat::Token(t) if t == token))
}

fn describe(n: u64, h: &Hosted) -> String {
    let seats = [Player::First, Player::Second]
        .map(|p| {
            format!(
                "{}={}",
                seat_name(p),
                match h.seats[idx(p)] {
                    Seat::Free => "free",
                    Seat::Token(_) => "taken",
                    Seat::Engine(_) => "engine",
                }
            )
        })
        .join(" ");
    let status = match h.game.over() {
        Some(r) => format!("over {r}"),
        None => format!("to-move {}", seat_name(h.game.to_move())),
    };
    format!(
        "game {n} {} {seats} ply {} moves {} ; {status}",
        h.game.spec(),
        h.game.moves().len(),
        h.game.moves().join(" ")
    )
}

/// The state shared by the connection and engine threads.
struct Shared {
    state: Mutex<Server>,
    /// Signalled when engine moves are queued.
    work: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Server> {
        lock(&self.state)
    }
}

/// Accepts connections on `listener` forever, one thread each; engine moves are thought
/// by [`ENGINE_THREADS`] background threads, without the state lock.
pub fn serve(listener: TcpListener, server: Server) -> io::Result<()> {
    let shared = Arc::new(Shared {
        state: Mutex::new(server),
        work: Condvar::new(),
    });
    for i in 0..ENGINE_THREADS {
        let shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name(format!("engine-{i}"))
            .spawn(move || engine_worker(&shared))?;
    }
    let live = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else {
            // Out of descriptors or similar: do not spin.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        if live.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            live.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
            let _ = write_line(&mut stream, "error too many connections");
            continue;
        }
        let shared = Arc::clone(&shared);
        let done = Arc::clone(&live);
        let spawned = std::thread::Builder::new()
            .name("client".into())
            .spawn(move || {
                let _ = connection(stream, &shared);
                done.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            live.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(())
}

/// Takes queued engine moves one at a time: snapshot under the lock, think without it,
/// then re-lock and apply (if the game is still at that ply) like any other move.
fn engine_worker(shared: &Shared) {
    let mut s = shared.lock();
    loop {
        match s.pending.pop_front() {
            Some(Job {
                game,
                ply,
                seat,
                think,
            }) => {
                drop(s);
                let mv = think.think();
                s = shared.lock();
                s.engine_moved(game, ply, seat, mv);
                if s.engine_work_pending() {
                    shared.work.notify_all();
                }
            }
            None => s = shared.work.wait(s).unwrap_or_else(|e| e.into_inner()),
        }
    }
}

/// One client: this thread reads requests; a writer thread drains the connection's
/// outgoing queue (replies and pushes) to the socket, so neither a slow reader nor a
/// blocked write ever holds the state lock.
fn connection(stream: TcpStream, shared: &Shared) -> io::Result<()> {
    stream.set_read_timeout(Some(IDLE_TIMEOUT))?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let mut out = stream.try_clone()?;
    let closer = stream.try_clone().ok();
    let (tx, rx) = sync_channel::<String>(OUTBOX_LINES);
    let writer = std::thread::Builder::new()
        .name("client-writer".into())
        .spawn(move || {
            for line in rx {
                if write_line(&mut out, &line).is_err() || line == "ok bye" {
                    break;
                }
            }
            let _ = out.shutdown(std::net::Shutdown::Both);
        })?;
    let conn = shared.lock().attach(tx.clone(), closer);
    let result = read_requests(stream, shared, conn, &tx);
    shared.lock().detach(conn);
    drop(tx);
    let _ = writer.join();
    result
}

fn read_requests(
    stream: TcpStream,
    shared: &Shared,
    conn: ConnId,
    tx: &SyncSender<String>,
) -> io::Result<()> {
    let mut input = BufReader::new(stream);
    loop {
        let line = match read_line_capped(&mut input, MAX_REQUEST_BYTES) {
            Ok(Some(line)) => line,
            Ok(None) => break,
            // Idle: closed, unless it is following a game (watching or seated).
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) && shared.lock().follows_a_game(conn) =>
            {
                continue;
            }
            Err(e) => return Err(e),
        };
        match line {
            Line::TooLong => {
                let e = format!("error line longer than {MAX_REQUEST_BYTES} bytes");
                if tx.try_send(e).is_err() {
                    break;
                }
            }
            Line::Text(t) if t.trim().is_empty() => {}
            Line::Text(t) => {
                let mut s = shared.lock();
                let reply = s.request(conn, &t);
                if s.engine_work_pending() {
                    shared.work.notify_all();
                }
                if reply == "ok bye" {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Binds `addr`, prints `listening <addr>` on stdout, restores the games in `data` and
/// serves forever.
pub fn run(addr: &str, data: Option<&Path>) -> io::Result<()> {
    let (server, warnings) = Server::open(data)?;
    for w in warnings {
        eprintln!("serve: skipped {w}");
    }
    let listener = TcpListener::bind(addr)?;
    let mut stdout = io::stdout().lock();
    write_line(
        &mut stdout,
        &format!("listening {}", listener.local_addr()?),
    )?;
    drop(stdout);
    serve(listener, server)
}

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
                        .all(|mv| game.play(mv, &mut |_| Ok(())).is_ok());
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
        let have = game.moves().len();
        if ply <= have {
            // Already seen (a player who also watches gets both).
            return;
        }
        if ply == have + 1 && game.play(mv, &mut |_| Ok(())).is_ok() {
            out.print = board_lines(n, game.as_ref());
        } else {
            out.ask.push(format!("show {n}"));
        }
    }
}

/// A game's diagram and a status line: `game 3 · ply 4 · Black (first) to move`.
fn board_lines(n: u64, game: &dyn Game) -> Vec<String> {
    let mut lines: Vec<String> = game.diagram().lines().map(String::from).collect();
    let ply = game.moves().len();
    lines.push(match game.over() {
        Some(reason) => format!("game {n} · ply {ply} · game over: {reason}"),
        None => {
            let p = game.to_move();
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

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
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
        let auto = !t.starts_with("update ") && lock(&out).origins.pop_front() == Some(true);
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

#[cfg(test)]
mod tests;
