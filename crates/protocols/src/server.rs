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
//! `engine ID SEAT [MS]` gives a seat to [`boardlab_games::Game::engine`] (one thread,
//! [`ENGINE_HASH_MB`] MB). When it is that seat's turn a job (a snapshot of the position)
//! is queued; an engine thread takes it, thinks without the state lock, re-locks and
//! applies the move only if the game is still at the same ply, through the same
//! validate-save-play path as a player's move. [`Server::think_pending`] does the same on
//! the calling thread (tests). Jobs are taken round robin between owners (the creating
//! peer address), at most [`ENGINE_THREADS_PER_OWNER`] of one owner at once. An engine
//! move whose save fails is kept and saved again with a doubling wait
//! ([`SAVE_RETRY_FIRST`] up to [`SAVE_RETRY_MAX`]); the players get a `notice` each time.
//!
//! # Pushes
//! Each connection has a bounded outgoing queue ([`OUTBOX_LINES`]) that its writer thread
//! drains (with `TCP_NODELAY`, each line and its newline in one write); replies are
//! queued under the state lock, so they and the pushed `update`/`notice` lines reach the
//! client in the order they happened. While the queue is full the connection's requests
//! are not read (back-pressure); a connection whose pushes overflow it is dropped, never
//! waited for.
//!
//! # Persistence
//! With a data directory each game is one save file `<id>.save` in the
//! [`board_core::savefile`] format, every line ending in a CRC-32 trailer comment. A
//! seat's token is recorded as a comment line `# token <seat> <token>` when the seat is
//! taken, an engine seat as `# engine <seat> <ms>`; each accepted move is appended (and
//! synced) before the `ok`. At start-up every `<id>.save` file is replayed, so games
//! resume where they were, players reconnect with their tokens and engines whose turn
//! it is move. The directory is `0700`, its files `0600`, locked by one server
//! ([`LOCK_FILE`]); files are created, never overwritten, and expired games move to
//! [`ARCHIVE_DIR`].
//!
//! # Bounds
//! [`ServeOptions`] holds the limits: games (in all and per peer address), connections
//! (in all and per peer), the time to the first request and the idle time, watchers per
//! game and per connection, and the expiry of finished and abandoned games. Thinking
//! engines are capped at [`ENGINE_THREADS`] ([`ENGINE_THREADS_PER_OWNER`] per owner,
//! taken round robin), lines at [`MAX_REQUEST_BYTES`]; a write that blocks for
//! [`WRITE_TIMEOUT`] drops the connection. The state lock is held only while a request
//! is processed (never during network I/O or thinking), so a slow client cannot stall
//! others.
//!
//! # Layout
//! - `game`: the `Game` trait object over the rules crates (create from a
//!   spec, restore from a save file, the engine's think job) and the seat names;
//! - `hosted`: one hosted game with its seats, watchers and players' connections;
//! - the save files (create, append, trailers, lock, modes, archive, seats recorded in
//!   comments), the seats and tokens and the limits are the host crate's
//!   (`boardlab_host`), shared with the browser board;
//! - `handler`: [`Server`], the protocol as functions from a request line to a reply;
//! - `net`: the TCP server ([`serve`], [`run`], [`run_with`], [`run_with_games`]), its
//!   engine threads and janitor;
//! - `client`: the terminal client ([`connect`], [`Session`], [`Follower`], [`TokenFile`]).

use std::sync::{Mutex, MutexGuard};

mod client;
mod game;
mod handler;
mod hosted;
mod net;

pub use client::{
    Boards, ConnectError, ConnectOptions, Followed, Follower, GameState, Reaction, SavedSeat, Sent,
    Session, TokenFile, connect,
};
pub use handler::{ConnId, Server};
pub use net::{run, run_with, run_with_games, serve};
// The limits and the save files' constants have one home, the host crate; re-exported
// here for the server's users.
pub use boardlab_host::{
    ServeOptions,
    limits::{
        DEFAULT_ENGINE_MS, ENGINE_HASH_MB, ENGINE_MS, ENGINE_THREADS, ENGINE_THREADS_PER_OWNER,
        IDLE_TIMEOUT, MAX_CONNECTIONS, MAX_GAMES, MAX_REQUEST_BYTES, SAVE_RETRY_FIRST,
        SAVE_RETRY_MAX, WRITE_TIMEOUT,
    },
    save::{ARCHIVE_DIR, DIR_MODE, FILE_MODE, LOCK_FILE},
};

/// Lines a connection's outgoing queue holds before the server stops reading its
/// requests (back-pressure); pushes get as much room again, then a watcher that falls
/// further behind is dropped.
pub const OUTBOX_LINES: usize = 1024;

/// Locks `m`, also when a thread panicked holding it (the state stays usable).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

// The tests (`use super::*`) read save files in temporary directories.
#[cfg(test)]
use std::{
    collections::BTreeSet,
    fs, io,
    path::{Path, PathBuf},
};

#[cfg(test)]
mod hardening_tests;
#[cfg(test)]
mod tests;
