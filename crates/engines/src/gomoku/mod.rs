//! gomoku players. PLACEHOLDER until the gomoku engine lands: material-blind search.

use search::{OptionsError, SearchOptions};

use crate::{Agent, EngineGame, SearchAgent};

/// The game's position type.
pub type Position = rules_gomoku::GomokuPosition;

fn neutral(_: &Position) -> i32 {
    0
}

impl EngineGame for Position {
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Position>>, OptionsError> {
        Ok(Box::new(SearchAgent::new(
            "engine",
            neutral,
            options,
            Position::clone,
        )?))
    }

    fn baseline() -> Box<dyn Agent<Position>> {
        Box::new(
            SearchAgent::new(
                "baseline",
                neutral,
                SearchOptions::plain_alpha_beta(),
                Position::clone,
            )
            .expect("default options are valid")
            .with_fixed_depth(2),
        )
    }
}
