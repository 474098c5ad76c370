//! The TCP side of the server: [`serve`] accepts connections (at most
//! [`MAX_CONNECTIONS`]), each with a reader thread that feeds request lines to the
//! shared [`Server`] and a writer thread that drains the connection's outgoing queue to
//! the socket; [`ENGINE_THREADS`] engine threads think the queued engine moves. The
//! state lock is held only while a request is processed or a move applied, never during
//! network I/O or thinking, so a slow client or a thinking engine cannot stall others.

use std::{
    io::{self, BufReader},
    net::{TcpListener, TcpStream},
    path::Path,
    sync::{
        Arc, Condvar, Mutex, MutexGuard,
        atomic::{AtomicUsize, Ordering},
        mpsc::{SyncSender, sync_channel},
    },
    time::Duration,
};

use super::{
    ENGINE_THREADS, IDLE_TIMEOUT, MAX_CONNECTIONS, MAX_REQUEST_BYTES, OUTBOX_LINES, WRITE_TIMEOUT,
    handler::{ConnId, Job, Server},
    lock,
};
use crate::lines::{Line, read_line_capped, write_line};

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
