//! Helpers shared by the engine test modules: a game's engine with default options, a
//! search to a fixed depth, and a move from its notation.

use board_core::Position;
use search::{Agent, Limits, SearchOptions, SearchResult};

use crate::EngineGame;

/// The game's engine under the default search options.
pub(crate) fn engine<P: EngineGame>() -> Box<dyn Agent<P>> {
    P::engine(SearchOptions::default()).expect("default options are valid")
}

/// `agent`'s search of `pos` to exactly `depth`.
pub(crate) fn think<P: Position>(
    agent: &mut dyn Agent<P>,
    pos: &P,
    depth: u32,
) -> SearchResult<P::Move> {
    agent.think(pos, &Limits::new().with_depth(depth), &mut |_| {})
}

/// The legal move `text` in `pos` (the test is wrong if it is not legal).
pub(crate) fn mv<P: Position>(pos: &P, text: &str) -> P::Move {
    pos.parse_legal_move(text).expect("legal move")
}
