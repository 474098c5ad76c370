//! A TCP game server (`boardlab serve`): the line protocol's door onto the host's game
//! table ([`boardlab_host::Host`]): any number of games, two seats each (players or the
//! host's engine), moves validated by the host, every accepted move saved before it is
//! acknowledged and pushed to the game's watchers and players. The same table may be
//! open to the browser board in the same process, so a person in `boardlab connect` and
//! one in the browser play the same game.
//!
//! The line protocol is documented in `docs/server-protocol.md`. [`Server::handle`] and
//! [`Server::request`] are the whole protocol as functions from one request line to one
//! reply line (no sockets: unit tested); [`serve`] runs it with a reader and a writer
//! thread per connection.
//!
//! # What is the host's
//! The games, their ids, seats and tokens, the save files (checked records, fsync before
//! the reply, atomic rewrite, `0700`/`0600`, the data-directory lock, archive), the
//! limits and expiry, the rules of conduct (takebacks and draws by consent, engine help
//! by both players' consent) and the engine queue (fair between games, people first;
//! an engine move whose save fails is saved again with a doubling wait) are the host
//! crate's ([`boardlab_host`]). This module is the codec: request lines to typed
//! requests, typed replies and events ([`boardlab_host::Event`]) to lines.
//!
//! # Pushes
//! Each connection has a bounded outgoing queue ([`OUTBOX_LINES`]) that its writer thread
//! drains (with `TCP_NODELAY`, each line and its newline in one write); replies are
//! queued under the table's lock, so they and the pushed `update`/`notice` lines reach
//! the client in the order they happened. While the queue is full the connection's
//! requests are not read (back-pressure); a connection whose pushes overflow it is
//! dropped, never waited for.
//!
//! # Bounds
//! [`ServeOptions`] holds the limits: games (in all and per peer address), connections
//! (in all and per peer), the time to the first request and the idle time, watchers per
//! game and per connection, and the expiry of finished and abandoned games. Lines are
//! capped at [`MAX_REQUEST_BYTES`]; a write that blocks for [`WRITE_TIMEOUT`] drops the
//! connection. No lock is held during network I/O or thinking, so a slow client cannot
//! stall others.
//!
//! # Layout
//! - `handler`: [`Server`], the protocol as functions from a request line to a reply,
//!   and the routes of the pushes;
//! - `net`: the TCP server ([`serve`], [`run`], [`run_with`], [`run_with_games`],
//!   [`serve_host`]) and its janitor.
//!
//! The terminal client (`boardlab connect`) is the terminal front end's:
//! `boardlab_play::connect`.

use std::sync::{Mutex, MutexGuard};

mod handler;
mod net;

pub use handler::{ConnId, Server};
pub use net::{run, run_with, run_with_games, serve, serve_host};
// The limits and the save files' constants have one home, the host crate; re-exported
// here for the server's users.
pub use boardlab_host::{
    ServeOptions,
    limits::{
        DEFAULT_ENGINE_MS, ENGINE_HASH_MB, ENGINE_MS, ENGINE_THREADS, IDLE_TIMEOUT,
        MAX_CONNECTIONS, MAX_GAMES, MAX_REQUEST_BYTES, SAVE_RETRY_FIRST, SAVE_RETRY_MAX,
        WRITE_TIMEOUT,
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
