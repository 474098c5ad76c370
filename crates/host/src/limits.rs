//! The limits of a host, in one place: every door (the TCP line protocol, the browser
//! board) reads them from here.

use std::time::Duration;

/// Longest request line of the line protocol, and longest WebSocket message.
pub const MAX_REQUEST_BYTES: usize = 4096;
/// Most games one server hosts (default of [`ServeOptions::max_games`]).
pub const MAX_GAMES: usize = 1000;
/// Most simultaneous connections (default of [`ServeOptions::max_connections`]).
pub const MAX_CONNECTIONS: usize = 64;
/// A connection silent for this long is closed (default of
/// [`ServeOptions::idle_timeout`]), unless it watches a game or holds a seat.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(600);
/// A new connection that has not finished its first request within this is closed
/// (default of [`ServeOptions::first_request_timeout`]).
pub const FIRST_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// A reply that cannot be written within this time drops the connection.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Think time of a hint (milliseconds), on every door.
pub const HINT_MS: u64 = 1000;
/// Total think time of an analysis (milliseconds), on every door: shared out over the
/// game's positions ([`analysis_ms_per_position`]).
pub const ANALYSIS_MS: u64 = 4000;

/// Think time of each position of an analysis of a game of `moves` moves (milliseconds):
/// [`ANALYSIS_MS`] shared out over its `moves + 1` positions, each from 20 to 200 ms.
pub const fn analysis_ms_per_position(moves: usize) -> u64 {
    let share = ANALYSIS_MS / (moves as u64 + 1);
    if share < 20 {
        20
    } else if share > 200 {
        200
    } else {
        share
    }
}
/// Engine think time per move when none is given (milliseconds).
pub const DEFAULT_ENGINE_MS: u64 = 200;
/// The engine think times a seat accepts (milliseconds).
pub const ENGINE_MS: std::ops::RangeInclusive<u64> = 10..=10_000;
/// Most engines thinking at once (each on one thread); further engine moves wait.
pub const ENGINE_THREADS: usize = 2;
/// Most engines of games between engines (nobody waiting for each move) thinking at
/// once, so one thread is always left for people.
pub const ENGINE_GAME_THREADS: usize = if ENGINE_THREADS > 1 {
    ENGINE_THREADS - 1
} else {
    1
};
/// Hash table of an engine seat (MB).
pub const ENGINE_HASH_MB: usize = 16;
/// First wait before an engine move whose save failed is saved again; doubled on each
/// failure up to [`SAVE_RETRY_MAX`].
pub const SAVE_RETRY_FIRST: Duration = Duration::from_millis(100);
/// Longest wait between two attempts to save an engine move.
pub const SAVE_RETRY_MAX: Duration = Duration::from_secs(30);

/// A host's limits and expiry times; [`Default`] gives the documented defaults
/// (`docs/server-protocol.md`, "Limits").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeOptions {
    /// Most games hosted at once.
    pub max_games: usize,
    /// Most live games created by connections from one peer address.
    pub max_games_per_peer: usize,
    /// Most simultaneous connections.
    pub max_connections: usize,
    /// Most simultaneous connections from one peer address.
    pub max_connections_per_peer: usize,
    /// A new connection that has not sent a whole request within this is closed.
    pub first_request_timeout: Duration,
    /// A connection silent for this long is closed unless it watches or holds a seat.
    pub idle_timeout: Duration,
    /// Most connections watching one game.
    pub max_watchers_per_game: usize,
    /// Most games one connection watches.
    pub max_watches_per_connection: usize,
    /// A finished game untouched this long is archived.
    pub finished_expiry: Duration,
    /// An unfinished game untouched (no join, engine seat or move) this long is archived.
    pub abandoned_expiry: Duration,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            max_games: MAX_GAMES,
            max_games_per_peer: 50,
            max_connections: MAX_CONNECTIONS,
            max_connections_per_peer: 8,
            first_request_timeout: FIRST_REQUEST_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            max_watchers_per_game: 32,
            max_watches_per_connection: 16,
            finished_expiry: Duration::from_secs(60 * 60),
            abandoned_expiry: Duration::from_secs(7 * 24 * 60 * 60),
        }
    }
}
