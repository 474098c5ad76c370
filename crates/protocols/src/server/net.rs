//! The TCP side of the server: [`serve`] accepts connections (at most
//! [`ServeOptions::max_connections`], and [`ServeOptions::max_connections_per_peer`] from
//! one address), each with a reader thread that feeds request lines to the shared
//! [`Server`] and a writer thread that drains the connection's outgoing queue to the
//! socket; the host's engine threads think the engine moves (and save again the ones
//! whose save failed), and a janitor thread archives expired games. The locks are held
//! only while a request is processed or a move applied, never during network I/O or
//! thinking, so a slow client or a thinking engine cannot stall others.
//!
//! Replies go out with `TCP_NODELAY` and each batch of lines in one write, so a reply is
//! never held back by Nagle's algorithm waiting for the client's delayed ACK. A reader
//! stops reading requests while its connection has [`OUTBOX_LINES`] lines waiting to be
//! written (back-pressure), so pipelined requests are answered, never dropped.

use std::{
    collections::HashMap,
    io::{self, BufReader, Read, Write},
    net::{IpAddr, Shutdown, TcpListener, TcpStream},
    path::Path,
    sync::{
        Arc, Condvar, Mutex, MutexGuard,
        mpsc::{Receiver, sync_channel},
    },
    time::{Duration, Instant, SystemTime},
};

use boardlab_games::Registry;
use boardlab_host::Host;

use super::{
    MAX_REQUEST_BYTES, OUTBOX_LINES, ServeOptions, WRITE_TIMEOUT,
    handler::{ConnId, Server},
    lock,
};
use crate::lines::{Line, read_line_capped, write_line};

/// The state shared by the connection threads.
struct Shared {
    state: Mutex<Server>,
    options: ServeOptions,
    /// Live connections: in all, and per peer address.
    live: Mutex<Live>,
}

#[derive(Default)]
struct Live {
    total: usize,
    per_peer: HashMap<IpAddr, usize>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Server> {
        lock(&self.state)
    }

    /// Counts a new connection from `peer` in; the refusal if a limit is reached.
    fn admit(&self, peer: Option<IpAddr>) -> Result<(), String> {
        let mut live = lock(&self.live);
        if live.total >= self.options.max_connections {
            return Err("error too many connections".into());
        }
        if let Some(p) = peer {
            let mine = live.per_peer.entry(p).or_default();
            if *mine >= self.options.max_connections_per_peer {
                return Err(format!(
                    "error too many connections from {p} (at most {})",
                    self.options.max_connections_per_peer
                ));
            }
            *mine += 1;
        }
        live.total += 1;
        Ok(())
    }

    fn release(&self, peer: Option<IpAddr>) {
        let mut live = lock(&self.live);
        live.total = live.total.saturating_sub(1);
        if let Some(p) = peer
            && let Some(n) = live.per_peer.get_mut(&p)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                live.per_peer.remove(&p);
            }
        }
    }
}

/// The lines queued on a connection and not yet written, shared by the server (which
/// counts them in), the writer (which counts them out) and the reader (which waits for
/// room before it reads the next request).
pub(super) struct Backlog {
    state: Mutex<BacklogState>,
    changed: Condvar,
}

#[derive(Default)]
struct BacklogState {
    queued: usize,
    /// The writer has stopped: nothing will be written any more.
    closed: bool,
}

impl Backlog {
    fn new() -> Backlog {
        Backlog {
            state: Mutex::new(BacklogState::default()),
            changed: Condvar::new(),
        }
    }

    pub(super) fn queued(&self, n: usize) {
        lock(&self.state).queued += n;
    }

    pub(super) fn written(&self, n: usize) {
        let mut s = lock(&self.state);
        s.queued = s.queued.saturating_sub(n);
        self.changed.notify_all();
    }

    fn close(&self) {
        lock(&self.state).closed = true;
        self.changed.notify_all();
    }

    /// Waits until fewer than `cap` lines wait to be written; `false` if the writer has
    /// stopped.
    fn wait_below(&self, cap: usize) -> bool {
        let mut s = lock(&self.state);
        while s.queued >= cap && !s.closed {
            s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        !s.closed
    }
}

/// Serves the line protocol onto `host` (a table other doors may share) on `listener`
/// forever.
pub fn serve_host(listener: TcpListener, host: Arc<Host>) -> io::Result<()> {
    serve(listener, Server::on(host))
}

/// Accepts connections on `listener` forever, one thread each; engine moves are thought
/// on the host's engine threads, without any lock. The limits are the host's
/// [`ServeOptions`].
pub fn serve(listener: TcpListener, mut server: Server) -> io::Result<()> {
    let options = server.options().clone();
    server.start_engines();
    let shared = Arc::new(Shared {
        state: Mutex::new(server),
        options,
        live: Mutex::new(Live::default()),
    });
    {
        let shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("janitor".into())
            .spawn(move || janitor(&shared))?;
    }
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else {
            // Out of descriptors or similar: do not spin.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let peer = stream.peer_addr().ok().map(|a| a.ip());
        if let Err(refusal) = shared.admit(peer) {
            let _ = stream.set_nodelay(true);
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = write_line(&mut stream, &refusal);
            continue;
        }
        let conn_shared = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("client".into())
            .spawn(move || {
                let _ = connection(stream, peer, &conn_shared);
                conn_shared.release(peer);
            });
        if spawned.is_err() {
            shared.release(peer);
        }
    }
    Ok(())
}

/// Archives expired games now and then, and prints the server's notes on stderr.
fn janitor(shared: &Shared) {
    let shortest = shared
        .options
        .finished_expiry
        .min(shared.options.abandoned_expiry);
    let every = (shortest / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    loop {
        std::thread::sleep(every);
        let notes = {
            let mut s = shared.lock();
            let mut notes = s.take_notes();
            notes.extend(s.expire(SystemTime::now()));
            notes
        };
        for note in notes {
            eprintln!("serve: {note}");
        }
    }
}

/// One client: this thread reads requests; a writer thread drains the connection's
/// outgoing queue (replies and pushes) to the socket, so neither a slow reader nor a
/// blocked write ever holds the state lock.
fn connection(stream: TcpStream, peer: Option<IpAddr>, shared: &Shared) -> io::Result<()> {
    stream.set_nodelay(true)?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let out = stream.try_clone()?;
    let closer = stream.try_clone().ok();
    let backlog = Arc::new(Backlog::new());
    // Room for the replies (at most OUTBOX_LINES, by back-pressure) and as many pushes.
    let (tx, rx) = sync_channel::<String>(2 * OUTBOX_LINES + 1);
    let writer_backlog = Arc::clone(&backlog);
    let writer = std::thread::Builder::new()
        .name("client-writer".into())
        .spawn(move || write_lines(out, &rx, &writer_backlog))?;
    let conn = shared
        .lock()
        .attach_counted(tx, closer, peer, Some(Arc::clone(&backlog)));
    let result = read_requests(stream, shared, conn, &backlog);
    // Dropping the connection's queue ends the writer once it has written the rest.
    shared.lock().detach(conn);
    let _ = writer.join();
    result
}

/// Writes the queued lines, as many as are waiting in one write (one line and its
/// newline at the least: never a separate write for the newline).
fn write_lines(mut out: TcpStream, rx: &Receiver<String>, backlog: &Backlog) {
    let mut buf = Vec::new();
    while let Ok(first) = rx.recv() {
        buf.clear();
        let mut lines = 0;
        let mut bye = false;
        let mut next = Some(first);
        while let Some(line) = next {
            buf.extend_from_slice(line.as_bytes());
            buf.push(b'\n');
            lines += 1;
            if line == "ok bye" {
                bye = true;
                break;
            }
            if buf.len() >= 64 << 10 {
                break;
            }
            next = rx.try_recv().ok();
        }
        let written = out.write_all(&buf).is_ok();
        backlog.written(lines);
        if !written || bye {
            break;
        }
    }
    backlog.close();
    let _ = out.shutdown(Shutdown::Both);
}

/// A socket read with a deadline for the whole of the next request (not per read, so a
/// line sent a byte at a time cannot keep a connection).
struct Deadline {
    stream: TcpStream,
    until: Instant,
}

impl Read for Deadline {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "no request in time",
            ));
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

fn read_requests(
    stream: TcpStream,
    shared: &Shared,
    conn: ConnId,
    backlog: &Backlog,
) -> io::Result<()> {
    let options = &shared.options;
    let mut input = BufReader::new(Deadline {
        stream,
        until: Instant::now() + options.first_request_timeout,
    });
    loop {
        // Back-pressure: no new request while the outgoing queue is full.
        if !backlog.wait_below(OUTBOX_LINES) {
            break;
        }
        let line = match read_line_capped(&mut input, MAX_REQUEST_BYTES) {
            Ok(Some(line)) => line,
            Ok(None) => break,
            // Silent: closed, unless it is following a game (watching or seated).
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                if shared.lock().follows_a_game(conn) {
                    input.get_mut().until = Instant::now() + options.idle_timeout;
                    continue;
                }
                break;
            }
            Err(e) => return Err(e),
        };
        match line {
            Line::TooLong => {
                let e = format!("error line longer than {MAX_REQUEST_BYTES} bytes");
                shared.lock().send(conn, e);
            }
            // Blank lines are no requests: they do not keep a connection open.
            Line::Text(t) if t.trim().is_empty() => {}
            Line::Text(t) => {
                input.get_mut().until = Instant::now() + options.idle_timeout;
                let reply = shared.lock().request(conn, &t);
                if reply == "ok bye" {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// [`run_with`] with the default [`ServeOptions`].
pub fn run(addr: &str, data: Option<&Path>) -> io::Result<()> {
    run_with(addr, data, ServeOptions::default())
}

/// Restores the games in `data` (notes of skipped files and changes made on stderr),
/// binds `addr`, prints `listening <addr>` on stdout and serves forever.
pub fn run_with(addr: &str, data: Option<&Path>, options: ServeOptions) -> io::Result<()> {
    run_with_games(addr, data, options, Registry::bundled())
}

/// [`run_with`] hosting the games of `registry` (a user's own included) instead of the
/// bundled ones.
pub fn run_with_games(
    addr: &str,
    data: Option<&Path>,
    options: ServeOptions,
    registry: Registry,
) -> io::Result<()> {
    let (server, notes) = Server::open_with_games(data, options, registry)?;
    for note in notes {
        eprintln!("serve: {note}");
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
