//! The one place that maps a game id to its rules type: every subcommand is written once,
//! generically over `board_core::Position`, and instantiated here for each game.

/// The ids of every game this binary knows, as spec strings start.
pub const GAME_IDS: [&str; 5] = ["fourshift", "clamp", "amazons", "gomoku", "connect6"];

/// Calls the generic function `$f::<P>($args...)` for the game `$id` names, or evaluates to
/// an error naming the unknown id.
#[macro_export]
macro_rules! with_game {
    ($id:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $id {
            "fourshift" => Ok($f::<rules_fourshift::FourshiftPosition>($($arg),*)),
            "clamp" => Ok($f::<rules_clamp::ClampPosition>($($arg),*)),
            "amazons" => Ok($f::<rules_amazons::AmazonsPosition>($($arg),*)),
            "gomoku" => Ok($f::<rules_gomoku::GomokuPosition>($($arg),*)),
            "connect6" => Ok($f::<rules_connect6::Connect6Position>($($arg),*)),
            other => Err($crate::cli_error::CliError::Spec(board_core::SpecError::UnknownGame {
                id: other.to_string(),
                known: $crate::games::GAME_IDS.join(", "),
            })),
        }
    };
}
