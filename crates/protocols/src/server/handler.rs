//! The line protocol's codec over the host's game table: [`Server`] decodes one request
//! line into a request to the host's [`Table`] and encodes the result as one reply line
//! ([`Server::handle`], [`Server::request`]); the game's events ([`Event`]) become the
//! pushed `update` and `notice` lines of the connections that watch the game or play in
//! it. No sockets, so the whole protocol is unit tested. The games, seats, save files,
//! rules of conduct and engines are the host's ([`Host`]), shared with any other door of
//! the process (the browser board).
//!
//! A request is carried out under the table's lock and its reply queued before the lock
//! is released, so a reply and the pushes of later events (an engine's answer) reach the
//! client in the order they happened.

use std::{
    collections::{BTreeMap, BTreeSet},
    io,
    net::{IpAddr, TcpStream},
    path::Path,
    sync::{Arc, Mutex, Weak, mpsc::SyncSender},
    time::{Instant, SystemTime},
};

use board_core::Player;
use boardlab_games::Registry;
use boardlab_host::{
    Held, Host, HostError, Level, Offer, Table, TimeControl,
    clock::ClockView,
    game::{AnalysisJobs, Answer, Think},
    limits::{HINT_MS, analysis_ms_per_position},
    pool::Class,
    seat_name, seat_of,
    table::{Applied, Event, Proposal, SeatChoice, Watching},
};

use super::{DEFAULT_ENGINE_MS, ENGINE_MS, ServeOptions, lock, net::Backlog};
use crate::lines::{escape_controls, quote};

/// A connection known to the server (see [`Server::attach`]).
pub type ConnId = u64;

/// A connection's outgoing queue, drained by its writer thread.
struct Outbox {
    tx: SyncSender<String>,
    /// Shut down when the connection is dropped for a full queue.
    closer: Option<TcpStream>,
    /// The peer's address (games-per-peer bound).
    peer: Option<IpAddr>,
    /// Lines queued but not yet written (the network side's back-pressure).
    backlog: Option<Arc<Backlog>>,
}

/// Where the door's lines go: the connections, who watches which game, and each seat's
/// player's connection (the one that last joined, rejoined or moved for it). Reached by
/// the door and by the host's events (under the table's lock, from any thread): the door
/// locks it only after the table, never before.
#[derive(Default)]
struct Routes {
    conns: BTreeMap<ConnId, Outbox>,
    watchers: BTreeMap<u64, BTreeSet<ConnId>>,
    players: BTreeMap<u64, [Option<ConnId>; 2]>,
    /// Games whose events this door follows.
    followed: BTreeSet<u64>,
    /// The connection whose request is being carried out (under the table's lock): what
    /// it did reaches it as its reply, not pushed again (unless it watches).
    acting: Option<ConnId>,
    /// Connections waiting for a hint or an analysis (one at a time each).
    hinting: BTreeSet<ConnId>,
    /// The spectators among the watchers (watching connections that held no seat of the
    /// game when they asked): counted in the host's lobby, with the board's, while the
    /// guard lives.
    spectators: BTreeMap<(u64, ConnId), Watching>,
}

impl Routes {
    /// Queues `line` on `conn`; drops the connection if its queue is full or gone.
    fn send(&mut self, conn: ConnId, line: String) {
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

    /// Drops a connection that fell behind: forgets it and shuts its socket down.
    fn drop_conn(&mut self, conn: ConnId) {
        if let Some(Some(stream)) = self.forget(conn) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }

    fn forget(&mut self, conn: ConnId) -> Option<Option<TcpStream>> {
        let outbox = self.conns.remove(&conn);
        self.hinting.remove(&conn);
        self.spectators.retain(|&(_, c), _| c != conn);
        for w in self.watchers.values_mut() {
            w.remove(&conn);
        }
        for seats in self.players.values_mut() {
            for p in seats {
                if *p == Some(conn) {
                    *p = None;
                }
            }
        }
        outbox.map(|o| o.closer)
    }

    /// Pushes game `id`'s event to its watchers and its players' connections.
    fn deliver(&mut self, id: u64, event: &Event) {
        if let Event::Rematched { id: new, tokens } = event {
            self.deliver_rematch(id, *new, tokens);
        } else if let Some(line) = push_line(id, event) {
            let watchers = self.watchers.get(&id).cloned().unwrap_or_default();
            let mut to = watchers.clone();
            if let Some(seats) = self.players.get(&id) {
                to.extend(
                    seats
                        .iter()
                        .flatten()
                        .filter(|&&c| Some(c) != self.acting || watchers.contains(&c)),
                );
            }
            for conn in to {
                self.send(conn, line.clone());
            }
        }
        if let Event::Expired = event {
            self.watchers.remove(&id);
            self.spectators.retain(|&(g, _), _| g != id);
            self.players.remove(&id);
            self.followed.remove(&id);
        }
    }

    /// The rematch of finished game `id` was made (game `new`): each player's connection
    /// is told its own seat and token there (`update ID rematch NEW SEAT TOKEN`; the one
    /// whose request made it has them in its reply), the other watchers only the new
    /// game's id (`update ID rematch NEW`). A token reaches no one but its player.
    fn deliver_rematch(&mut self, id: u64, new: u64, tokens: &[Option<String>; 2]) {
        let mut told = BTreeSet::new();
        let seats = self.players.get(&id).copied().unwrap_or_default();
        for p in Player::BOTH {
            if let (Some(conn), Some(token)) = (seats[p.index()], &tokens[p.index()]) {
                if Some(conn) != self.acting {
                    let seat = seat_name(p.other());
                    self.send(conn, format!("update {id} rematch {new} {seat} {token}"));
                }
                told.insert(conn);
            }
        }
        let watchers = self.watchers.get(&id).cloned().unwrap_or_default();
        for conn in watchers.difference(&told) {
            self.send(*conn, format!("update {id} rematch {new}"));
        }
    }
}

/// The pushed line of a game's event, if the line protocol tells it.
fn push_line(id: u64, event: &Event) -> Option<String> {
    let kind = |o: &Offer| o.kind();
    Some(match event {
        Event::Moved {
            ply,
            mv,
            over,
            clock,
            ..
        } => match (over, clock) {
            (Some(reason), _) => format!("update {id} {ply} {mv} over {reason}"),
            (None, Some(c)) => format!("update {id} {ply} {mv} {}", clock_words(c)),
            (None, None) => format!("update {id} {ply} {mv}"),
        },
        Event::Flagged { seat, reason } => {
            format!("update {id} flag {} over {reason}", seat_name(*seat))
        }
        Event::TakenBack { ply } => format!("update {id} takeback {ply}"),
        Event::Resigned { seat, reason } => {
            format!("update {id} resign {} over {reason}", seat_name(*seat))
        }
        Event::Drawn => format!("update {id} draw over drawn by agreement"),
        // Without the tokens: each player is told their own ([`Routes::deliver_rematch`]).
        Event::Rematched { id: new, .. } => format!("update {id} rematch {new}"),
        Event::Offered(o) => format!("update {id} offer {} {}", kind(o), seat_name(o.by())),
        Event::Declined(o) => format!("update {id} declined {} {}", kind(o), seat_name(o.by())),
        Event::EngineFailed { message, .. } => {
            format!(
                "notice {id} the engine gave no move: {}",
                escape_controls(message)
            )
        }
        Event::Notice(text) => format!("notice {id} {}", escape_controls(text)),
        Event::Expired => format!("notice {id} expired: the game is archived and closed"),
        Event::Changed | Event::Thinking { .. } | Event::EngineMoved { .. } => return None,
    })
}

/// The clocks after a move, as the `moved` reply and the `update` push end:
/// `clock FIRST_MS SECOND_MS`.
fn clock_words(c: &ClockView) -> String {
    format!("clock {} {}", c.left_ms[0], c.left_ms[1])
}

/// A hint to think for connection `conn` in game `game`.
struct HintJob {
    conn: ConnId,
    game: u64,
    think: Box<dyn Think>,
}

/// The pushed line of a hint's answer (or why there is none), to the one who asked.
fn hint_line(game: u64, answer: Result<Answer, String>) -> String {
    match answer {
        Ok(a) => {
            let score = a
                .score
                .map_or_else(String::new, |s| format!(" score {}", s.text));
            let pv = if a.pv.is_empty() {
                String::new()
            } else {
                format!(" pv {}", a.pv)
            };
            format!("notice {game} hint {}{score}{pv}", a.mv)
        }
        Err(e) => format!("notice {game} no hint: {}", escape_controls(&e)),
    }
}

/// Thinks `job` on the host's engine queue and pushes its answer to the one who asked.
fn think_hint(host: &Host, routes: &Mutex<Routes>, job: HintJob) {
    let answer = host.think(Class::Person, job.game, job.think, &mut |_| {});
    let mut routes = lock(routes);
    routes.hinting.remove(&job.conn);
    routes.send(job.conn, hint_line(job.game, answer));
}

/// An analysis to think for connection `conn` in game `game`: each position's ply and
/// its engine job.
struct AnalysisJob {
    conn: ConnId,
    game: u64,
    jobs: AnalysisJobs,
}

/// The pushed line of one position's analysis: the score from the first player's side
/// (forced results at ±10000, as the browser board's graph), or why there is none.
fn analysis_line(game: u64, ply: usize, answer: Result<Answer, String>) -> String {
    match answer {
        Ok(Answer { score: Some(s), .. }) => format!("notice {game} analysis {ply} {}", s.first),
        Ok(Answer { score: None, .. }) => {
            format!("notice {game} no analysis of ply {ply}: the player gave no score")
        }
        Err(e) => format!(
            "notice {game} no analysis of ply {ply}: {}",
            escape_controls(&e)
        ),
    }
}

/// Thinks `job`'s positions in order on the host's engine queue (as a person waits for
/// them), pushing each answer to the one who asked, then `analysis done`; stops early
/// if that connection is gone.
fn think_analysis(host: &Host, routes: &Mutex<Routes>, job: AnalysisJob) {
    let n = job.jobs.len();
    for (ply, think) in job.jobs {
        if !lock(routes).conns.contains_key(&job.conn) {
            break;
        }
        let answer = host.think(Class::Person, job.game, think, &mut |_| {});
        lock(routes).send(job.conn, analysis_line(job.game, ply, answer));
    }
    let mut routes = lock(routes);
    routes.hinting.remove(&job.conn);
    routes.send(job.conn, format!("notice {} analysis done {n}", job.game));
}

/// An engine move that was thought but could not be saved: applied again at `due`
/// ([`Server::retry_saves`]; on the host's engine threads its thread does that itself).
struct Retry {
    due: Instant,
    game: u64,
    version: u64,
    seat: Player,
    answer: Answer,
}

/// The line protocol's door onto a host.
pub struct Server {
    host: Arc<Host>,
    routes: Arc<Mutex<Routes>>,
    /// The host's engine threads think engine moves (serving); else
    /// [`Server::think_pending`] does, on the calling thread (tests and tools).
    engine_threads: bool,
    /// The game the request being carried out names (its engine may be due).
    touched: Option<u64>,
    next_conn: ConnId,
    options: ServeOptions,
    retries: Vec<Retry>,
    /// Hints waiting for [`Server::think_pending`] (without engine threads).
    hints: Vec<HintJob>,
    /// Analyses waiting for [`Server::think_pending`] (without engine threads).
    analyses: Vec<AnalysisJob>,
}

impl Server {
    /// [`Server::open_with`] with the default [`ServeOptions`].
    pub fn open(data: Option<&Path>) -> io::Result<(Server, Vec<String>)> {
        Server::open_with(data, ServeOptions::default())
    }

    /// A server on a host of its own saving into `data`, with every game found there
    /// restored ([`Table::open`]: the directory private and locked, files that do not
    /// load skipped and named in the returned notes).
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
        let (table, notes) = Table::open_with_options(data, registry, options)?;
        Ok((Server::on(Host::new(table)), notes))
    }

    /// The line protocol's door onto `host`, which other doors may open too. Engine
    /// moves are thought by [`Server::think_pending`] until [`serve`](super::serve) hands
    /// them to the host's engine threads.
    pub fn on(host: Arc<Host>) -> Server {
        let options = host.table().options().clone();
        Server {
            host,
            routes: Arc::new(Mutex::new(Routes::default())),
            engine_threads: false,
            touched: None,
            next_conn: 1,
            options,
            retries: Vec::new(),
            hints: Vec::new(),
            analyses: Vec::new(),
        }
    }

    /// Limits the number of games (tests).
    pub fn with_max_games(self, n: usize) -> Server {
        self.host.table().options_mut().max_games = n;
        self
    }

    /// The host this door opens onto.
    pub fn host(&self) -> &Arc<Host> {
        &self.host
    }

    /// From now on engine moves are thought on the host's engine threads; the engines of
    /// the games whose engine seat is to move start.
    pub(super) fn start_engines(&mut self) {
        self.engine_threads = true;
        self.host.start_engines();
    }

    /// Takes the notes for the operator made while serving: games expired on `create`,
    /// game ids passed over, engine moves that failed or whose save failed.
    /// [`serve`](super::serve) prints them on stderr.
    pub fn take_notes(&mut self) -> Vec<String> {
        self.host.table().take_notes()
    }

    /// The limits and expiry times in force.
    pub fn options(&self) -> &ServeOptions {
        &self.options
    }

    /// Answers one request line with one reply line (`ok ...` or `error ...`), for a
    /// caller without a connection (`watch` is refused).
    pub fn handle(&mut self, line: &str) -> String {
        self.carry_out(None, line)
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

    /// [`Server::attach`] for a connection from `peer` (games per peer).
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
        lock(&self.routes).conns.insert(
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
        lock(&self.routes).forget(conn);
    }

    /// Whether connection `conn` is attached (not detached, nor dropped for falling
    /// behind).
    pub fn is_attached(&self, conn: ConnId) -> bool {
        lock(&self.routes).conns.contains_key(&conn)
    }

    /// Whether connection `conn` watches a game or holds a seat (gets pushes).
    pub fn follows_a_game(&self, conn: ConnId) -> bool {
        let routes = lock(&self.routes);
        routes.watchers.values().any(|w| w.contains(&conn))
            || routes.players.values().any(|p| p.contains(&Some(conn)))
    }

    /// Answers one request line of connection `conn`: the reply is queued on the
    /// connection (before any later push) and returned.
    pub fn request(&mut self, conn: ConnId, line: &str) -> String {
        self.carry_out(Some(conn), line)
    }

    /// Queues `line` on `conn`; drops the connection if its queue is full or gone.
    pub(super) fn send(&mut self, conn: ConnId, line: String) {
        lock(&self.routes).send(conn, line);
    }

    fn carry_out(&mut self, conn: Option<ConnId>, line: &str) -> String {
        let host = Arc::clone(&self.host);
        let mut table = host.table();
        // A connection dropped meanwhile is answered as one without a connection.
        let attached = conn.filter(|c| self.is_attached(*c));
        lock(&self.routes).acting = attached;
        self.touched = None;
        let reply = reply_line(self.command(&mut table, attached, line.trim()));
        {
            let mut routes = lock(&self.routes);
            routes.acting = None;
            if let Some(c) = conn {
                routes.send(c, reply.clone());
            }
        }
        drop(table);
        if let (true, Some(id)) = (self.engine_threads, self.touched) {
            self.host.kick(id);
        }
        reply
    }

    /// Whether an engine seat of some game is to move with no engine thinking for it.
    pub fn engine_work_pending(&self) -> bool {
        self.host.table().engine_work_waiting()
    }

    /// Thinks every engine move due on the calling thread, including the moves due
    /// meanwhile (an engine-vs-engine game is played to its end); the number of engine
    /// moves thought. For tests and tools; [`serve`](super::serve) thinks on the host's
    /// engine threads instead. Engine moves whose save failed wait for
    /// [`Server::retry_saves`].
    pub fn think_pending(&mut self) -> usize {
        let mut n = 0;
        loop {
            let job = {
                let mut table = self.host.table();
                let ids = table.ids();
                ids.into_iter().find_map(|id| table.engine_job(id))
            };
            let Some(job) = job else { break };
            let answer = job.think.think(&mut |_| {});
            self.engine_moved(job.game, job.version, job.seat, answer);
            n += 1;
        }
        for hint in std::mem::take(&mut self.hints) {
            think_hint(&self.host, &self.routes, hint);
            n += 1;
        }
        for analysis in std::mem::take(&mut self.analyses) {
            n += analysis.jobs.len();
            think_analysis(&self.host, &self.routes, analysis);
        }
        n
    }

    fn engine_moved(
        &mut self,
        game: u64,
        version: u64,
        seat: Player,
        answer: Result<Answer, String>,
    ) {
        let applied = self
            .host
            .table()
            .engine_moved(game, version, seat, answer.clone());
        if let (Applied::NotSaved { wait }, Ok(answer)) = (applied, answer) {
            self.retries.push(Retry {
                due: Instant::now() + wait,
                game,
                version,
                seat,
                answer,
            });
        }
    }

    /// When the next engine move whose save failed is due to be saved again.
    pub fn next_retry(&self) -> Option<Instant> {
        self.retries.iter().map(|r| r.due).min()
    }

    /// Saves again every engine move whose save failed and whose retry is due at `now`
    /// (a move that fails again waits twice as long, up to
    /// [`SAVE_RETRY_MAX`](super::SAVE_RETRY_MAX)); the number of attempts made.
    pub fn retry_saves(&mut self, now: Instant) -> usize {
        let (due, later): (Vec<Retry>, Vec<Retry>) = std::mem::take(&mut self.retries)
            .into_iter()
            .partition(|r| r.due <= now);
        self.retries = later;
        let attempts = due.len();
        for r in due {
            self.engine_moved(r.game, r.version, r.seat, Ok(r.answer));
        }
        attempts
    }

    /// Archives every game untouched for longer than its expiry at `now`
    /// ([`Table::expire`]): its players and watchers get `notice ID expired ...`. A note
    /// for each game.
    pub fn expire(&mut self, now: SystemTime) -> Vec<String> {
        self.host.table().expire(now)
    }

    /// This door follows game `id`'s events from now on (once per game).
    fn follow(&self, table: &Table, id: u64) -> Result<(), HostError> {
        if lock(&self.routes).followed.contains(&id) {
            return Ok(());
        }
        let routes: Weak<Mutex<Routes>> = Arc::downgrade(&self.routes);
        table.subscribe(
            id,
            Box::new(move |e| match routes.upgrade() {
                Some(r) => {
                    lock(&r).deliver(id, e);
                    true
                }
                None => false,
            }),
        )?;
        lock(&self.routes).followed.insert(id);
        Ok(())
    }

    /// Connection `conn` plays `seat` of game `id`: it gets the game's pushes.
    fn seated(
        &self,
        table: &Table,
        conn: Option<ConnId>,
        id: u64,
        seat: Player,
    ) -> Result<(), HostError> {
        if let Some(c) = conn {
            self.follow(table, id)?;
            lock(&self.routes).players.entry(id).or_default()[seat.index()] = Some(c);
        }
        Ok(())
    }

    fn game_id(&mut self, id: &str) -> Result<u64, String> {
        let n = id
            .parse()
            .map_err(|_| format!("'{}' is not a game id", quote(id, 20)))?;
        self.touched = Some(n);
        Ok(n)
    }

    fn command(
        &mut self,
        table: &mut Table,
        conn: Option<ConnId>,
        line: &str,
    ) -> Result<String, String> {
        let mut words = line.split_whitespace();
        let word = words.next().unwrap_or("").to_ascii_lowercase();
        let args: Vec<&str> = words.collect();
        let host = |e: HostError| e.to_string();
        match (word.as_str(), args.as_slice()) {
            ("", _) => Err("empty request: try 'help'".into()),
            ("help", _) => Ok(
                "commands: create SPEC [TIME] | join ID first|second | rejoin ID TOKEN \
                 | engine ID first|second [MS] | move ID TOKEN MOVE | takeback ID TOKEN \
                 | draw ID TOKEN | accept ID TOKEN | decline ID TOKEN | resign ID TOKEN \
                 | rematch ID TOKEN \
                 | assist ID TOKEN on|off | hint ID TOKEN | analyse ID [TOKEN] | watch ID \
                 | unwatch ID | show ID \
                 | list | quit"
                    .into(),
            ),
            ("create", [spec, time @ ..]) if time.len() <= 1 => {
                let time = match time {
                    [t] => TimeControl::parse_choice(t).map_err(|e| e.to_string())?,
                    _ => None,
                };
                let peer = conn.and_then(|c| lock(&self.routes).conns.get(&c).and_then(|o| o.peer));
                let c = table
                    .create_timed(spec, [SeatChoice::Free; 2], peer, time)
                    .map_err(host)?;
                match time {
                    Some(t) => Ok(format!("created {} {} time {t}", c.id, c.spec)),
                    None => Ok(format!("created {} {}", c.id, c.spec)),
                }
            }
            ("join", [id, seat]) => {
                let seat = seat_of(seat).ok_or("the seat must be first or second")?;
                let n = self.game_id(id)?;
                let token = table.join(n, seat).map_err(host)?;
                self.seated(table, conn, n, seat).map_err(host)?;
                Ok(format!("joined {n} {} {token}", seat_name(seat)))
            }
            ("engine", [id, seat]) => self.engine_seat(table, id, seat, None),
            ("engine", [id, seat, ms]) => self.engine_seat(table, id, seat, Some(ms)),
            ("rejoin", [id, token]) => {
                let n = self.game_id(id)?;
                let seat = table.seat_of_token(n, token).map_err(host)?;
                self.seated(table, conn, n, seat).map_err(host)?;
                Ok(format!("rejoined {n} {}", seat_name(seat)))
            }
            ("watch", [id]) => {
                let conn = conn.ok_or("watching needs a connection")?;
                let n = self.game_id(id)?;
                let ply = table.game(n).map_err(host)?.ply();
                let (per_game, per_conn) = (
                    self.options.max_watchers_per_game,
                    self.options.max_watches_per_connection,
                );
                {
                    let routes = lock(&self.routes);
                    let watchers = routes.watchers.get(&n);
                    if !watchers.is_some_and(|w| w.contains(&conn)) {
                        if watchers.map_or(0, BTreeSet::len) >= per_game {
                            return Err(format!(
                                "game {n} has too many watchers (at most {per_game})"
                            ));
                        }
                        let watched = routes.watchers.values().filter(|w| w.contains(&conn));
                        if watched.count() >= per_conn {
                            return Err(format!(
                                "this connection watches too many games (at most {per_conn})"
                            ));
                        }
                    }
                }
                self.follow(table, n).map_err(host)?;
                let mut routes = lock(&self.routes);
                routes.watchers.entry(n).or_default().insert(conn);
                let plays = routes
                    .players
                    .get(&n)
                    .is_some_and(|seats| seats.contains(&Some(conn)));
                if !plays && !routes.spectators.contains_key(&(n, conn)) {
                    let counted = table.watch(n).map_err(host)?;
                    routes.spectators.insert((n, conn), counted);
                }
                Ok(format!("watching {n} {ply}"))
            }
            ("unwatch", [id]) => {
                let n = self.game_id(id)?;
                table.game(n).map_err(host)?;
                let removed = conn.is_some_and(|c| {
                    let mut routes = lock(&self.routes);
                    routes.spectators.remove(&(n, c));
                    routes.watchers.get_mut(&n).is_some_and(|w| w.remove(&c))
                });
                if removed {
                    Ok(format!("unwatched {n}"))
                } else {
                    Err(format!("not watching game {n}"))
                }
            }
            ("move", [id, token, mv @ ..]) if !mv.is_empty() => {
                let (n, seat) = self.player(table, id, token)?;
                let canon = table.play(n, held(seat), &mv.join(" ")).map_err(host)?;
                self.seated(table, conn, n, seat).map_err(host)?;
                let state = table.state(n, held(seat)).map_err(host)?;
                let end = match (&state.ended, &state.clock) {
                    (Some(e), _) => format!(" over {}", e.reason),
                    (None, Some(c)) => format!(" {}", clock_words(c)),
                    (None, None) => String::new(),
                };
                Ok(format!("moved {n} {} {canon}{end}", state.moves.len()))
            }
            ("takeback", [id, token]) => {
                let (n, seat) = self.player(table, id, token)?;
                match table.undo(n, held(seat)).map_err(host)? {
                    Proposal::Done => Ok(format!(
                        "takeback {n} {}",
                        table.game(n).map_err(host)?.ply()
                    )),
                    Proposal::Asked => Ok(format!("asked {n} takeback")),
                }
            }
            ("draw", [id, token]) => {
                let (n, seat) = self.player(table, id, token)?;
                match table.offer_draw(n, held(seat)).map_err(host)? {
                    Proposal::Done => Ok(format!("drawn {n}")),
                    Proposal::Asked => Ok(format!("asked {n} draw")),
                }
            }
            (answer @ ("accept" | "decline"), [id, token]) => {
                let (n, seat) = self.player(table, id, token)?;
                let accept = answer == "accept";
                let waiting = table.state(n, held(seat)).map_err(host)?.offer;
                table.answer(n, held(seat), accept).map_err(host)?;
                let kind = waiting.map_or("offer", |o| o.kind);
                if !accept {
                    return Ok(format!("declined {n} {kind}"));
                }
                if kind == "rematch" {
                    let new = self.rematch_seat(table, conn, n, seat)?;
                    return Ok(format!("accepted {n} rematch {new}"));
                }
                Ok(format!("accepted {n} {kind}"))
            }
            ("rematch", [id, token]) => {
                let (n, seat) = self.player(table, id, token)?;
                match table.rematch(n, held(seat)).map_err(host)? {
                    Some(_) => {
                        let new = self.rematch_seat(table, conn, n, seat)?;
                        Ok(format!("rematch {n} {new}"))
                    }
                    None => Ok(format!("asked {n} rematch")),
                }
            }
            ("resign", [id, token]) => {
                let (n, seat) = self.player(table, id, token)?;
                let resigned = table.resign(n, held(seat)).map_err(host)?;
                let reason = table
                    .state(n, held(seat))
                    .map_err(host)?
                    .ended
                    .map(|e| e.reason)
                    .unwrap_or_default();
                Ok(format!(
                    "resigned {n} {} over {reason}",
                    seat_name(resigned)
                ))
            }
            ("hint", [id, token]) => {
                let conn = conn.ok_or("a hint needs a connection")?;
                let (n, seat) = self.player(table, id, token)?;
                if lock(&self.routes).hinting.contains(&conn) {
                    return Err("the engine is already working for this connection".into());
                }
                let think = table.hint_job(n, held(seat), HINT_MS).map_err(host)?;
                lock(&self.routes).hinting.insert(conn);
                let job = HintJob {
                    conn,
                    game: n,
                    think,
                };
                if self.engine_threads {
                    let (host, routes) = (Arc::clone(&self.host), Arc::clone(&self.routes));
                    let spawned = std::thread::Builder::new()
                        .name(format!("hint-game-{n}"))
                        .spawn(move || think_hint(&host, &routes, job));
                    if let Err(e) = spawned {
                        lock(&self.routes).hinting.remove(&conn);
                        return Err(format!("no hint: cannot start a thread: {e}"));
                    }
                } else {
                    self.hints.push(job);
                }
                Ok(format!("hint {n} thinking {HINT_MS}"))
            }
            ("analyse" | "analyze", [id, token @ ..]) if token.len() <= 1 => {
                let conn = conn.ok_or("an analysis needs a connection")?;
                // With a seat's token the player asks; without, a spectator.
                let (n, held) = match token {
                    [token] => {
                        let (n, seat) = self.player(table, id, token)?;
                        (n, held(seat))
                    }
                    _ => (self.game_id(id)?, [false; 2]),
                };
                if lock(&self.routes).hinting.contains(&conn) {
                    return Err("the engine is already working for this connection".into());
                }
                let ms = analysis_ms_per_position(table.game(n).map_err(host)?.ply());
                let jobs = table.analysis_jobs(n, held, ms).map_err(host)?;
                let positions = jobs.len();
                lock(&self.routes).hinting.insert(conn);
                let job = AnalysisJob {
                    conn,
                    game: n,
                    jobs,
                };
                if self.engine_threads {
                    let (host, routes) = (Arc::clone(&self.host), Arc::clone(&self.routes));
                    let spawned = std::thread::Builder::new()
                        .name(format!("analysis-game-{n}"))
                        .spawn(move || think_analysis(&host, &routes, job));
                    if let Err(e) = spawned {
                        lock(&self.routes).hinting.remove(&conn);
                        return Err(format!("no analysis: cannot start a thread: {e}"));
                    }
                } else {
                    self.analyses.push(job);
                }
                Ok(format!("analysing {n} {positions} {ms}"))
            }
            ("assist", [id, token, on @ ("on" | "off")]) => {
                let (n, seat) = self.player(table, id, token)?;
                table.set_help(n, held(seat), *on == "on").map_err(host)?;
                Ok(format!("assist {n} {} {on}", seat_name(seat)))
            }
            ("show", [id]) => {
                let n = self.game_id(id)?;
                describe(table, n).map_err(host)
            }
            ("list", []) => Ok(format!(
                "games {}",
                table
                    .ids()
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            )
            .trim_end()
            .to_string()),
            ("quit", []) => Ok("bye".into()),
            (
                "create" | "join" | "rejoin" | "engine" | "watch" | "unwatch" | "move" | "show"
                | "list" | "quit" | "takeback" | "draw" | "accept" | "decline" | "resign"
                | "assist" | "hint" | "analyse" | "analyze",
                _,
            ) => Err(format!("wrong arguments for '{word}': try 'help'")),
            _ => Err(format!(
                "unknown command '{}': try 'help'",
                quote(&word, 20)
            )),
        }
    }

    /// The rematch made of finished game `n` for the player of its seat `seat`, as a
    /// reply ends: `NEWID SEAT TOKEN`, the new game's id, this player's seat there (the
    /// other colour) and its secret token; connection `conn` plays that seat from now on
    /// (it gets the new game's pushes, as after `join`).
    fn rematch_seat(
        &mut self,
        table: &Table,
        conn: Option<ConnId>,
        n: u64,
        seat: Player,
    ) -> Result<String, String> {
        let host = |e: HostError| e.to_string();
        let made = table.state(n, held(seat)).map_err(host)?.rematch;
        // A person's seat of the finished game is a person's seat of its rematch, so
        // the view holds exactly this player's token.
        let Some((new, [token])) = made.map(|m| (m.id, m.tokens)).and_then(|(id, t)| {
            let token: [String; 1] = t.try_into().ok()?;
            Some((id, token))
        }) else {
            return Err(format!("game {n} has no rematch with a seat of yours"));
        };
        let new_seat = seat.other();
        self.seated(table, conn, new, new_seat).map_err(host)?;
        self.touched = Some(new);
        Ok(format!("{new} {} {token}", seat_name(new_seat)))
    }

    /// Game `id` and the seat whose token `token` is.
    fn player(&mut self, table: &Table, id: &str, token: &str) -> Result<(u64, Player), String> {
        let n = self.game_id(id)?;
        let seat = table.seat_of_token(n, token).map_err(|e| e.to_string())?;
        Ok((n, seat))
    }

    fn engine_seat(
        &mut self,
        table: &mut Table,
        id: &str,
        seat: &str,
        ms: Option<&str>,
    ) -> Result<String, String> {
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
        let n = self.game_id(id)?;
        table
            .seat_engine(n, seat, Level::Engine(ms))
            .map_err(|e| e.to_string())?;
        Ok(format!("engine {n} {} {ms}", seat_name(seat)))
    }
}

/// The seats a request with one seat's token holds.
fn held(seat: Player) -> Held {
    let mut held = [false; 2];
    held[seat.index()] = true;
    held
}

/// The `show` reply details: `game ID SPEC first=.. second=.. ply N moves .. ; STATUS`.
fn describe(table: &Table, n: u64) -> Result<String, HostError> {
    let state = table.state(n, [false; 2])?;
    let seats = Player::BOTH
        .map(|p| {
            let kind = match state.seats[p.index()].kind {
                "free" => "free",
                "engine" => "engine",
                _ => "taken",
            };
            format!("{}={kind}", seat_name(p))
        })
        .join(" ");
    let status = match &state.ended {
        Some(e) => format!("over {}", e.reason),
        None => format!("to-move {}", seat_name(table.game(n)?.to_move())),
    };
    // The clocks now: the running one has been charged up to this moment.
    let clock = state.clock.as_ref().map_or_else(String::new, |c| {
        let running = c
            .running
            .and_then(|p| Player::BOTH.get(usize::from(p)))
            .map_or("none", |&p| seat_name(p));
        format!(
            " ; clock {} first {} second {} running {running}",
            c.control, c.left_ms[0], c.left_ms[1]
        )
    });
    Ok(format!(
        "game {n} {} {seats} ply {} moves {}{clock} ; {status}",
        state.spec,
        state.moves.len(),
        state.moves.join(" ")
    ))
}

/// The reply line to a command's result; peer text echoed in an error has its control
/// characters escaped.
fn reply_line(result: Result<String, String>) -> String {
    match result {
        Ok(reply) => format!("ok {reply}"),
        Err(e) => format!("error {}", escape_controls(&e)),
    }
}
