//! Game id → position type, in one place.

/// The ids of every game with players, as game spec strings start.
pub const GAME_IDS: [&str; 5] = ["fourshift", "clamp", "amazons", "gomoku", "connect6"];

/// `with_game!(id, f(args...))` calls the generic `f::<P>(args...)` with `P` the position
/// type of the game `id` names, giving `Ok(result)`, or
/// `Err(board_core::SpecError::UnknownGame)` for an id no game has.
#[macro_export]
macro_rules! with_game {
    ($id:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $id {
            "fourshift" => Ok($f::<$crate::fourshift::Position>($($arg),*)),
            "clamp" => Ok($f::<$crate::clamp::Position>($($arg),*)),
            "amazons" => Ok($f::<$crate::amazons::Position>($($arg),*)),
            "gomoku" => Ok($f::<$crate::gomoku::Position>($($arg),*)),
            "connect6" => Ok($f::<$crate::connect6::Position>($($arg),*)),
            other => Err(board_core::SpecError::UnknownGame {
                id: other.to_string(),
                known: $crate::GAME_IDS.join(", "),
            }),
        }
    };
}
