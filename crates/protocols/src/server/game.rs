//! The hosted game behind a trait object: [`Game`] hides which rules crate a game uses,
//! so the server and the client hold games of every kind in one map. Created from a game
//! spec ([`create_game`]) or replayed from a save file ([`restore_game`]); an engine
//! move is a [`Think`] job, a snapshot of the position that is thought without the
//! server lock.
//!
//! The seat names of the protocol (`first`/`second`, [`seat_name`], [`seat_of`]) are
//! the host crate's, shared by the server, the client and the browser board.

use boardlab_games::{OpenError, PlayError, Registry};
use boardlab_host::{Level, limits::ENGINE_HASH_MB};
pub(super) use boardlab_host::{seat_name, seat_of};
use search::SearchOptions;

use crate::lines::quote;

/// One hosted game, whatever the rules: the erased game of the games crate.
pub(super) use boardlab_games::DynGame as Game;

/// The engine's work for one move, run without the server lock.
pub(super) trait Think: Send {
    /// The engine's move in canonical notation, or why there is none (the game is over,
    /// the engine could not be built, panicked or broke the rules).
    fn think(self: Box<Self>) -> Result<String, String>;
}

/// Checks `text` on the hosted game; when it is legal, calls `commit` with its canonical
/// notation and plays it only if `commit` succeeds. A refused move (illegal, or `commit`
/// failed) changes nothing.
pub(super) fn play(
    game: &mut dyn Game,
    text: &str,
    commit: &mut dyn FnMut(&str) -> Result<(), String>,
) -> Result<String, String> {
    let refused = |e: PlayError| format!("illegal move '{}': {}", quote(text, 32), e.reason());
    let canonical = game.check_move(text).map_err(refused)?;
    commit(&canonical)?;
    game.play(&canonical).map_err(refused)
}

/// A snapshot of the position for the engine at `level` to think on.
pub(super) fn engine_job(game: &dyn Game, level: Level) -> Box<dyn Think> {
    Box::new(EngineJob {
        game: game.snapshot(),
        level,
    })
}

/// An engine move to think: the position and its history, copied out of the game.
struct EngineJob {
    game: Box<dyn Game>,
    level: Level,
}

impl Think for EngineJob {
    fn think(mut self: Box<Self>) -> Result<String, String> {
        let (kind, limits) = self.level.player();
        // A panicking engine must not take the server down: it is reported like any other
        // engine failure, and no other move is played in its place.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let options = SearchOptions::default()
                .with_hash_mb(ENGINE_HASH_MB)
                .and_then(|o| o.with_threads(1))
                .map_err(|e| e.to_string())?;
            self.game
                .set_player(kind, options)
                .map_err(|e| e.to_string())?;
            let thought = self
                .game
                .think(&limits, &mut |_| {})
                .map_err(|e| e.to_string())?;
            Ok(thought.mv)
        }))
        .unwrap_or_else(|_| Err("the engine panicked".to_string()))
    }
}

/// A new game of `registry` from a game spec (`gomoku:size=15`).
pub(super) fn create_game(registry: &Registry, spec: &str) -> Result<Box<dyn Game>, String> {
    registry
        .start(spec)
        .map_err(|e| format!("bad game spec: {e}"))
}

/// A game of `registry` replayed from the text of its save file.
pub(super) fn restore_game(registry: &Registry, text: &str) -> Result<Box<dyn Game>, String> {
    registry.load(text).map_err(|e| match e {
        OpenError::Spec(e) => e.to_string(),
        OpenError::Save(e) => e,
    })
}
