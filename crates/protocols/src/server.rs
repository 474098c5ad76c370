//! A TCP game server (`boardlab serve`): any number of games, two seats each, moves
//! validated by the server, every accepted move saved before it is acknowledged.
//!
//! The line protocol is documented in `docs/server-protocol.md`. [`Server::handle`] is the
//! whole protocol as a function from one request line to one reply line (no sockets: unit
//! tested); [`serve`] runs it with one thread per connection.
//!
//! # Persistence
//! With a data directory each game is one save file `<id>.save` in the
//! [`board_core::savefile`] format. A seat's token is recorded as a comment line
//! `# token <seat> <token>` when the seat is taken; each accepted move is appended (and
//! synced) before the `ok`. At start-up every `*.save` file is replayed, so games resume
//! where they were and players reconnect with their tokens.
//!
//! # Bounds
//! Lines are capped at [`MAX_REQUEST_BYTES`], games at [`MAX_GAMES`], connections at
//! [`MAX_CONNECTIONS`]; a connection idle for [`IDLE_TIMEOUT`] is closed, and a write that
//! blocks for [`WRITE_TIMEOUT`] drops the connection. The state lock is held only while a
//! request is processed (never during network I/O), so a slow client cannot stall others.

use std::{
    collections::BTreeMap,
    fs,
    io::{self, BufReader, Write},
    net::{TcpListener, TcpStream},
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use board_core::{GameSpec, Player, Position, savefile};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

/// One hosted game, whatever the rules.
trait Game: Send {
    fn spec(&self) -> String;
    fn to_move(&self) -> Player;
    fn over(&self) -> Option<String>;
    /// Validates and plays `text`; the canonical notation of the move.
    fn play(&mut self, text: &str) -> Result<String, String>;
    fn moves(&self) -> &[String];
}

struct Typed<P: Position> {
    pos: P,
    moves: Vec<String>,
}

impl<P: Position> Game for Typed<P> {
    fn spec(&self) -> String {
        self.pos.config().to_string()
    }
    fn to_move(&self) -> Player {
        self.pos.side_to_move()
    }
    fn over(&self) -> Option<String> {
        self.pos.outcome_reason()
    }
    fn play(&mut self, text: &str) -> Result<String, String> {
        let mv = self.pos.parse_legal_move(text).map_err(|e| e.to_string())?;
        let canon = self.pos.format_move(mv);
        self.pos.make_move(mv);
        self.moves.push(canon.clone());
        Ok(canon)
    }
    fn moves(&self) -> &[String] {
        &self.moves
    }
}

fn new_game<P: Position>(spec: &str) -> Result<Box<dyn Game>, String> {
    let config: P::Config = spec.parse().map_err(|e| format!("bad game spec: {e}"))?;
    Ok(Box::new(Typed::<P> {
        pos: P::new(config),
        moves: Vec::new(),
    }))
}

fn load_game<P: Position>(text: &str) -> Result<Box<dyn Game>, String> {
    let loaded = savefile::load::<P>(text).map_err(|e| e.to_string())?;
    let mut pos = P::new(loaded.position.config().clone());
    let mut moves = Vec::with_capacity(loaded.moves.len());
    for mv in loaded.moves {
        moves.push(pos.format_move(mv));
        pos.make_move(mv);
    }
    Ok(Box::new(Typed::<P> { pos, moves }))
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

struct Hosted {
    game: Box<dyn Game>,
    /// Tokens of the first and second seat.
    tokens: [Option<String>; 2],
}

fn idx(p: Player) -> usize {
    match p {
        Player::First => 0,
        Player::Second => 1,
    }
}

/// The server's state: the games and where they are saved.
pub struct Server {
    games: BTreeMap<u64, Hosted>,
    next_id: u64,
    data: Option<PathBuf>,
    rng: ChaCha8Rng,
    max_games: usize,
}

impl Server {
    /// A server saving into `data` (created if missing), with every game found there
    /// restored. Unreadable save files are skipped with a warning in the returned list.
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
                        let mut tokens = [None, None];
                        for line in text.lines() {
                            let mut w = line.split_whitespace();
                            if let (Some("#"), Some("token"), Some(seat), Some(tok)) =
                                (w.next(), w.next(), w.next(), w.next())
                                && let Some(p) = seat_of(seat)
                            {
                                tokens[idx(p)] = Some(tok.to_string());
                            }
                        }
                        server.games.insert(id, Hosted { game, tokens });
                        server.next_id = server.next_id.max(id.saturating_add(1));
                    }
                    Err(e) => warnings.push(format!("{}: {e}", path.display())),
                }
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

    /// Appends `text` to game `id`'s save file and syncs it.
    fn append(&self, id: u64, text: &str) -> Result<(), String> {
        let Some(path) = self.path(id) else {
            return Ok(());
        };
        let mut f = fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path)
            .map_err(|e| format!("cannot save: {e}"))?;
        f.write_all(text.as_bytes())
            .and_then(|()| f.sync_data())
            .map_err(|e| format!("cannot save: {e}"))
    }

    fn token(&mut self) -> String {
        let a: u64 = self.rng.random();
        let b: u64 = self.rng.random();
        format!("{a:016x}{b:016x}")
    }

    /// Answers one request line with one reply line (`ok ...` or `error ...`).
    pub fn handle(&mut self, line: &str) -> String {
        match self.command(line.trim()) {
            Ok(reply) => format!("ok {reply}"),
            Err(e) => format!("error {e}"),
        }
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

    fn command(&mut self, line: &str) -> Result<String, String> {
        let mut words = line.split_whitespace();
        let word = words.next().unwrap_or("").to_ascii_lowercase();
        let args: Vec<&str> = words.collect();
        match (word.as_str(), args.as_slice()) {
            ("", _) => Err("empty request: try 'help'".into()),
            ("help", _) => Ok(
                "commands: create SPEC | join ID first|second | rejoin ID TOKEN \
                 | move ID TOKEN MOVE | show ID | list | quit"
                    .into(),
            ),
            ("create", [spec]) => self.create(spec),
            ("join", [id, seat]) => self.join(id, seat),
            ("rejoin", [id, token]) => {
                let (n, h) = self.hosted(id)?;
                let seat = seat_of_token(h, token).ok_or("wrong token for this game")?;
                Ok(format!("rejoined {n} {}", seat_name(seat)))
            }
            ("move", [id, token, mv @ ..]) if !mv.is_empty() => self.play(id, token, &mv.join(" ")),
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
            ("create" | "join" | "rejoin" | "move" | "show" | "list" | "quit", _) => {
                Err(format!("wrong arguments for '{word}': try 'help'"))
            }
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
        self.games.insert(
            id,
            Hosted {
                game,
                tokens: [None, None],
            },
        );
        Ok(format!("created {id} {spec}"))
    }

    fn join(&mut self, id: &str, seat: &str) -> Result<String, String> {
        let seat = seat_of(seat).ok_or("the seat must be first or second")?;
        let token = self.token();
        let (n, h) = self.hosted(id)?;
        if h.tokens[idx(seat)].is_some() {
            return Err(format!(
                "seat {} of game {n} is taken (reconnect with rejoin and its token)",
                seat_name(seat)
            ));
        }
        self.append(n, &format!("# token {} {token}\n", seat_name(seat)))?;
        if let Some(h) = self.games.get_mut(&n) {
            h.tokens[idx(seat)] = Some(token.clone());
        }
        Ok(format!("joined {n} {} {token}", seat_name(seat)))
    }

    fn play(&mut self, id: &str, token: &str, mv: &str) -> Result<String, String> {
        let (n, h) = self.hosted(id)?;
        let seat = seat_of_token(h, token).ok_or("wrong token for this game")?;
        if let Some(reason) = h.game.over() {
            return Err(format!("the game is over: {reason}"));
        }
        let to_move = h.game.to_move();
        if to_move != seat {
            return Err(format!("not your turn: {} is to move", seat_name(to_move)));
        }
        // Validate on a copy first: the move must be on disk before it is played.
        let mut probe = restore_copy(h)?;
        let canon = probe
            .play(mv)
            .map_err(|e| format!("illegal move '{}': {e}", quote(mv, 32)))?;
        self.append(n, &format!("{canon}\n"))?;
        let (_, h) = self.hosted(id)?;
        h.game = probe;
        let ply = h.game.moves().len();
        let status = h
            .game
            .over()
            .map_or_else(String::new, |r| format!(" over {r}"));
        Ok(format!("moved {n} {ply} {canon}{status}"))
    }
}

/// A fresh copy of a hosted game (replayed from its move list).
fn restore_copy(h: &Hosted) -> Result<Box<dyn Game>, String> {
    let mut text = format!(
        "{} {}\ngame {}\n",
        savefile::MAGIC,
        savefile::VERSION,
        h.game.spec()
    );
    for m in h.game.moves() {
        text.push_str(m);
        text.push('\n');
    }
    restore_game(&text)
}

fn seat_of_token(h: &Hosted, token: &str) -> Option<Player> {
    [Player::First, Player::Second]
        .into_iter()
        .find(|&p| h.tokens[idx(p)].as_deref() == Some(token))
}

fn describe(n: u64, h: &Hosted) -> String {
    let seats = [Player::First, Player::Second]
        .map(|p| {
            format!(
                "{}={}",
                seat_name(p),
                if h.tokens[idx(p)].is_some() {
                    "taken"
                } else {
                    "free"
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

/// Accepts connections on `listener` forever, one thread each.
pub fn serve(listener: TcpListener, server: Server) -> io::Result<()> {
    let state = Arc::new(Mutex::new(server));
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
        let state = Arc::clone(&state);
        let done = Arc::clone(&live);
        let spawned = std::thread::Builder::new()
            .name("client".into())
            .spawn(move || {
                let _ = connection(stream, &state);
                done.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            live.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(())
}

fn connection(stream: TcpStream, state: &Mutex<Server>) -> io::Result<()> {
    stream.set_read_timeout(Some(IDLE_TIMEOUT))?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let mut out = stream.try_clone()?;
    let mut input = BufReader::new(stream);
    while let Some(line) = read_line_capped(&mut input, MAX_REQUEST_BYTES)? {
        let reply = match line {
            Line::TooLong => format!("error line longer than {MAX_REQUEST_BYTES} bytes"),
            Line::Text(t) if t.trim().is_empty() => continue,
            Line::Text(t) => {
                let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
                s.handle(&t)
            }
        };
        write_line(&mut out, &reply)?;
        if reply == "ok bye" {
            break;
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

/// The terminal client: request lines from `input` to the server, replies to `output`.
pub fn connect(addr: &str) -> io::Result<()> {
    let stream = TcpStream::connect(addr)?;
    let mut to_server = stream.try_clone()?;
    let mut from_server = BufReader::new(stream);
    let printer = std::thread::spawn(move || -> io::Result<()> {
        let mut out = io::stdout();
        while let Some(line) = read_line_capped(&mut from_server, 1 << 20)? {
            if let Line::Text(t) = line {
                write_line(&mut out, &t)?;
            }
        }
        Ok(())
    });
    let mut stdin = io::stdin().lock();
    while let Some(line) = read_line_capped(&mut stdin, MAX_REQUEST_BYTES)? {
        let Line::Text(t) = line else {
            eprintln!("connect: line too long, not sent");
            continue;
        };
        if write_line(&mut to_server, &t).is_err() {
            break;
        }
    }
    let _ = to_server.shutdown(std::net::Shutdown::Write);
    printer
        .join()
        .map_err(|_| io::Error::other("printer thread failed"))?
}

#[cfg(test)]
mod tests;
