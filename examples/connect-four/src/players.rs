//! Connect Four's entry for boardlab's tools: its players, so a `Registry` can open it
//! beside the bundled games (the engine protocol, the server, self-play).

use boardlab_games::Game;
use search::{Agent, Limits, OptionsError, SearchAgent, SearchOptions};

use crate::{eval, game::ConnectFour};

/// Depth of the baseline player.
const BASELINE_DEPTH: u32 = 4;

impl Game for ConnectFour {
    const TITLE: &'static str = "Connect Four";

    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Self>>, OptionsError> {
        Ok(Box::new(SearchAgent::new(
            "engine",
            eval::evaluate,
            options,
            Clone::clone,
        )?))
    }

    fn baseline() -> Result<Box<dyn Agent<Self>>, OptionsError> {
        search::baseline_agent(
            eval::evaluate,
            SearchOptions::plain_alpha_beta(),
            Clone::clone,
            BASELINE_DEPTH,
        )
    }
}

/// The computer player of the terminal game: the engine, searching `depth` plies.
pub fn computer(depth: u32) -> Result<Box<dyn Agent<ConnectFour>>, OptionsError> {
    ConnectFour::engine(SearchOptions::default().with_limits(Limits::new().with_depth(depth)))
}
