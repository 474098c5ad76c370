//! Connect Four's entry for boardlab's tools: its players, so a `Registry` can open it
//! beside the bundled games (the command line, the engine protocol, the server, self-play).

use boardlab_games::Game;
use search::{Agent, OptionsError, SearchAgent, SearchOptions};

use crate::{eval::evaluate, game::ConnectFour};

impl Game for ConnectFour {
    const TITLE: &'static str = "Connect Four";

    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Self>>, OptionsError> {
        let engine = SearchAgent::new("engine", evaluate, options, Clone::clone)?;
        Ok(Box::new(engine))
    }

    /// A plain alpha-beta search, 4 plies deep.
    fn baseline() -> Result<Box<dyn Agent<Self>>, OptionsError> {
        let plain = SearchOptions::plain_alpha_beta();
        search::baseline_agent(evaluate, plain, Clone::clone, 4)
    }
}
