//! Connect Four's entry for boardlab's tools: its evaluator and players, so a `Registry` can
//! open it beside the bundled games (the command line, the engine protocol, the server,
//! self-play).

use board_core::BoardGame as _;
use boardlab_eval::CellEvaluator;
use boardlab_games::Game;
use search::{Agent, OptionsError, SearchAgent, SearchOptions};

use crate::game::ConnectFour;

/// For the side to move: every window of k squares in a line that the opponent has no
/// stone in counts for it, the more the closer it is to full (one stone short 48, two
/// short 25, three short 9); every window it has no stone in counts against it. The
/// weights were fitted by `boardlab tune` from the hand weights 60, 8, 1
/// (`docs/adding-a-game.md`, "Tuning the evaluator").
pub fn evaluate(pos: &ConnectFour) -> i32 {
    CellEvaluator::windows(pos.config().k, &[48, 25, 9]).evaluate(pos)
}

/// The engine is the generic search with the evaluator; the baseline is the library's
/// default (this engine held to two plies), the spec's keys come from the config.
impl Game for ConnectFour {
    const TITLE: &'static str = "Connect Four";

    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Self>>, OptionsError> {
        let engine = SearchAgent::new("engine", evaluate, options, Clone::clone)?;
        Ok(Box::new(engine))
    }
}
