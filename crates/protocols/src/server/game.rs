//! The hosted game behind a trait object: [`Game`] hides which rules crate a game uses,
//! so the server and the client hold games of every kind in one map. Created from a game
//! spec ([`create_game`]) or replayed from a save file ([`restore_game`]); an engine
//! move is a [`Think`] job, a snapshot of the position that is thought without the
//! server lock.
//!
//! Also the seat names of the protocol (`first`/`second`, [`seat_name`], [`seat_of`]),
//! shared by the server and the client.

use std::time::Duration;

use board_core::{GameSpec, Player, savefile};
use boardlab_games::{Game as TableGame, GameId, with_game};
use search::{AgentKind, Limits, SearchOptions};

use super::ENGINE_HASH_MB;
use crate::lines::quote;

/// One hosted game, whatever the rules.
pub(super) trait Game: Send {
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
pub(super) trait Think: Send {
    /// The engine's move in canonical notation, or why there is none (the game is over,
    /// the engine could not be built, panicked or broke the rules).
    fn think(self: Box<Self>) -> Result<String, String>;
}

struct Typed<P: TableGame> {
    pos: P,
    moves: Vec<String>,
    /// Hashes of every position from the start (repetition rules).
    hashes: Vec<u64>,
}

impl<P: TableGame> Typed<P> {
    fn start(pos: P) -> Typed<P> {
        let hashes = vec![pos.hash()];
        Typed {
            pos,
            moves: Vec::new(),
            hashes,
        }
    }
}

impl<P: TableGame> Game for Typed<P> {
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

/// An engine move to think: the position and its history, copied out of the game.
struct EngineJob<P: TableGame> {
    pos: P,
    hashes: Vec<u64>,
    ms: u64,
}

impl<P: TableGame> Think for EngineJob<P> {
    fn think(self: Box<Self>) -> Result<String, String> {
        let pos = &self.pos;
        let limits = Limits::new().with_move_time(Duration::from_millis(self.ms));
        // A panicking engine must not take the server down: it is reported like any other
        // engine failure, and no other move is played in its place.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let options = SearchOptions::default()
                .with_hash_mb(ENGINE_HASH_MB)
                .and_then(|o| o.with_threads(1))
                .map_err(|e| e.to_string())?;
            let mut agent = P::player(AgentKind::Engine, options).map_err(|e| e.to_string())?;
            agent.set_game_history(&self.hashes);
            let (mv, _) = search::think_checked(agent.as_mut(), pos, &limits, &mut |_| {})
                .map_err(|e| e.to_string())?;
            Ok(pos.format_move(mv))
        }))
        .unwrap_or_else(|_| Err("the engine panicked".to_string()))
    }
}

fn new_game<P: TableGame>(spec: &str) -> Result<Box<dyn Game>, String> {
    let config: P::Config = spec.parse().map_err(|e| format!("bad game spec: {e}"))?;
    Ok(Box::new(Typed::start(P::new(config))))
}

fn load_game<P: TableGame>(text: &str) -> Result<Box<dyn Game>, String> {
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

/// A new game from a game spec (`gomoku:size=15`).
pub(super) fn create_game(spec: &str) -> Result<Box<dyn Game>, String> {
    let id: GameId = game_id_of(spec)?
        .parse()
        .map_err(|e| format!("bad game spec: {e}"))?;
    with_game!(id, new_game(spec))
}

/// A game replayed from the text of its save file.
pub(super) fn restore_game(text: &str) -> Result<Box<dyn Game>, String> {
    let file = savefile::SaveFile::parse::<std::fmt::Error>(text).map_err(|e| e.to_string())?;
    let id = GameId::of_spec(&file.spec).map_err(|e| e.to_string())?;
    with_game!(id, load_game(text))
}

/// The protocol's name of a seat.
pub(super) fn seat_name(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

/// The seat a protocol word names (`first`/`1`, `second`/`2`, any case).
pub(super) fn seat_of(s: &str) -> Option<Player> {
    match s.to_ascii_lowercase().as_str() {
        "first" | "1" => Some(Player::First),
        "second" | "2" => Some(Player::Second),
        _ => None,
    }
}
