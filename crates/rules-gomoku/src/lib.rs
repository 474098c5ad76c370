//! The rules of gomoku (五子棋) for boardlab, as `docs/games.md` defines them.
//!
//! The board (`size × size`, 5–26, default 15) starts empty. Black (`First`, `x`) moves
//! first; the players alternate putting one stone of their colour on an empty square
//! (written `h8`). Under [`Rule::Freestyle`] (the default) a line of five **or more** of the
//! mover's stones — horizontal, vertical or diagonal — wins; under [`Rule::Exact5`] exactly
//! five win and an overline (six or more) does not, but a move that makes an exact five
//! along one line wins even if it also makes an overline along another. A full board with
//! no winner is a draw.
//!
//! ```
//! use board_core::{Outcome, Player, prelude::*, perft};
//! use rules_gomoku::{GomokuConfig, GomokuPosition};
//!
//! let mut pos = GomokuPosition::new(GomokuConfig::default());
//! assert_eq!(perft(&mut pos, 2), 50_400);
//! for text in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"] {
//!     let mv = pos.parse_legal_move(text).unwrap();
//!     pos.make_move(mv);
//! }
//! assert_eq!(pos.outcome(), None); // four does not win
//! let mv = pos.parse_legal_move("l8").unwrap();
//! pos.make_move(mv);
//! assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
//! assert_eq!(pos.outcome_reason().unwrap(), "five in a row h8-l8");
//! assert_eq!(pos.count_moves(), 0);
//! ```
//!
//! # Position strings
//!
//! `<board> <side to move> <ply>`, the house format shared by every boardlab game:
//! - the board lists the ranks from the top (rank `size`) down to rank 1, separated by `/`;
//!   within a rank, from column `a` rightwards, `x` is a Black stone, `o` a White stone and a
//!   decimal number (1–`size`, no leading zero) a run of that many empty squares;
//! - the side to move is `x` (Black) or `o` (White);
//! - the ply is the number of moves played, which is the number of stones on the board.
//!
//! Strings are printed lower-case; reading accepts `X`/`O` too.
//!
//! ```
//! use board_core::{Outcome, Player, prelude::*};
//! use rules_gomoku::{GomokuConfig, GomokuPosition};
//!
//! let start = GomokuPosition::new(GomokuConfig::default());
//! assert_eq!(
//!     start.to_position_string(),
//!     "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x 0"
//! );
//!
//! // 5x5, Black has just completed the diagonal a1-e5.
//! let config = "gomoku:size=5".parse().unwrap();
//! let won = GomokuPosition::from_position_string(config, "oooox/3x1/2x2/1x3/x4 o 9").unwrap();
//! assert_eq!(won.outcome(), Some(Outcome::Win(Player::First)));
//! assert_eq!(won.outcome_reason().unwrap(), "five in a row a1-e5");
//!
//! // Errors name what is wrong.
//! let err = GomokuPosition::from_position_string(config, "5/5/5/5/xx3 o 2").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "bad position string: x has 2 stones and o has 0: Black moves first, so x must have \
//!      as many stones as o or one more"
//! );
//! ```
//!
//! Reading a string checks everything that a real game guarantees and that can be checked
//! without replaying it, and rejects with a message naming the problem:
//! - the number of ranks and the width of each rank match the config; only `x`, `o` and
//!   digits appear in the board;
//! - Black has as many stones as White (then Black is to move) or one more (then White is to
//!   move), and the side-to-move field agrees;
//! - the ply equals the number of stones;
//! - at most one player has a winning line (five or more in freestyle, exactly five under
//!   `exact5`; an `exact5` overline is not a winning line); the winner must be the player
//!   who moved last, and one of the winner's stones must be the move that ended the game:
//!   without it, the winner would have no winning line (so two separate fives, or a
//!   freestyle line of ten or more, are rejected: the game would have ended earlier).
//!
//! The outcome is then derived from the board alone: a winning line is a win for its owner;
//! otherwise a full board is a draw; otherwise the game goes on. So the string of a finished
//! game reads back as the same finished game. The last move is not part of the string
//! ([`GomokuPosition::last_move`] is `None` after reading) and position equality ignores it.
//!
//! # Choices where the rules are silent
//!
//! - Only the mover can win, and only through the stone just placed: the win test after a
//!   move scans the four lines through it. The win is tested before the full board, so a
//!   five made by the move that fills the board wins.
//! - `exact5` applies to both colours (there is no renju-style asymmetry).
//! - A finished game refuses every move with [`MoveError::GameOver`], whatever the square;
//!   then an off-board square (possible only for a hand-made [`Move`]) is
//!   [`MoveError::OffBoard`], then [`MoveError::Occupied`].
//! - [`make_move`](board_core::Rules::make_move) does not validate (search calls it
//!   with generated moves); given an off-board or occupied square it puts no stone down but
//!   still passes the turn, and `unmake_move` restores the position exactly. Nothing panics.
//! - Move input is one square (`h8`, ` H8 `); text with spaces, commas, dashes or slashes is a
//!   syntax error naming the expected form.
//! - [`outcome_reason`](board_core::Position::outcome_reason) reads
//!   `"five in a row h8-l12"` (`six in a row …` for a freestyle overline; the
//!   line runs from its left end, or bottom end if vertical; if several lines win, the one
//!   starting at the lowest square) or `"the board is full and nobody has five in a
//!   row"`.
//! - Diagrams use the letters of the position string: `x` Black, `o` White, `.` empty.
//! - The Zobrist hash covers the stones and the side to move (the outcome follows from
//!   them).
//!
//! # Game records
//!
//! [`sgf`] reads and writes gomoku games in SGF (`GM[4]`), the format gomoku programs
//! exchange: points as column and row from the top (`h8` on 15×15 is `hh`), the rule in
//! `RU`, the main line read and every move checked against the rules.
//!
//! # For evaluators and search
//!
//! [`GomokuPosition`] exposes [`stone_at`](GomokuPosition::stone_at), per-player
//! [`stones`](GomokuPosition::stones) and [`empty_squares`](GomokuPosition::empty_squares)
//! as [`board_core::BoardSet`]s, the [`geometry`](GomokuPosition::geometry),
//! [`last_move`](GomokuPosition::last_move), whole lines through a square as bits for
//! pattern tables ([`line_through`](GomokuPosition::line_through), a [`LineView`] from
//! [`board_core::lines`], re-exported here), run
//! lengths along a line ([`run_length`](GomokuPosition::run_length),
//! [`run_through`](GomokuPosition::run_through), [`ray_run`](GomokuPosition::ray_run)), an
//! immediate-win test
//! ([`is_winning_move`](GomokuPosition::is_winning_move)) and the
//! [`winning_line`](GomokuPosition::winning_line) of a finished game.

#![deny(missing_docs)]

mod config;
mod fives;
mod moves;
mod position;
mod position_string;
pub mod sgf;
mod view;

pub use board_core::lines::LineView;
pub use config::{GomokuConfig, Rule};
pub use moves::{Move, MoveError};
pub use position::{GomokuPosition, Undo, WinningLine};
