//! Shared by the fuzz targets: the games and the spec strings fuzzing plays them under.

#![allow(dead_code)]

/// Specs chosen by the first input byte: defaults, small boards (so playouts reach the end
/// game quickly) and odd parameters.
pub const SPECS: &[(&str, &str)] = &[
    ("fourshift", "fourshift"),
    ("fourshift", "fourshift:size=4,k=3,pieces=3,max_plies=40"),
    ("fourshift", "fourshift:size=5,pieces=12"),
    ("clamp", "clamp"),
    ("clamp", "clamp:size=6,zone=2,quiet_limit=12,adjudicate=true"),
    ("clamp", "clamp:max_on_board=4,quiet_limit=20"),
    ("amazons", "amazons"),
    ("amazons", "amazons:size=8"),
    ("gomoku", "gomoku"),
    ("gomoku", "gomoku:size=5"),
    ("gomoku", "gomoku:size=7,rule=exact5"),
    ("connect6", "connect6"),
    ("connect6", "connect6:size=6"),
    ("connect6", "connect6:size=7"),
];

/// The game ids, for targets that build their own spec text.
pub const GAMES: &[&str] = &["fourshift", "clamp", "amazons", "gomoku", "connect6"];

/// Calls `$f::<Position type>($args)` for the game id `$id`.
#[macro_export]
macro_rules! for_game {
    ($id:expr, $f:ident ( $($arg:expr),* )) => {
        match $id {
            "fourshift" => $f::<rules_fourshift::Fourshift>($($arg),*),
            "clamp" => $f::<rules_clamp::ClampPosition>($($arg),*),
            "amazons" => $f::<rules_amazons::AmazonsPosition>($($arg),*),
            "gomoku" => $f::<rules_gomoku::GomokuPosition>($($arg),*),
            "connect6" => $f::<rules_connect6::Connect6Position>($($arg),*),
            _ => unreachable!("unknown game id in SPECS"),
        }
    };
}
