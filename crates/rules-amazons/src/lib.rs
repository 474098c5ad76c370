//! The rules of the Game of the Amazons (`games.md`, section "amazons") for boardlab.
//!
//! ```
//! use board_core::{Player, Position, perft};
//! use rules_amazons::{AmazonsConfig, AmazonsPosition};
//!
//! let mut pos = AmazonsPosition::new(AmazonsConfig::default());
//! assert_eq!(pos.player_name(pos.side_to_move()), "White");
//! assert_eq!(pos.count_moves(), 2176);
//! let mv = pos.parse_legal_move("d1-d7/g7").unwrap();
//! pos.play(mv).unwrap();
//! assert_eq!(pos.to_position_string(), "3b2b3/10/10/b2w3xb/10/10/w8w/10/10/6w3 b 1");
//! assert_eq!(perft(&mut AmazonsPosition::new("amazons:size=8".parse().unwrap()), 1), 1232);
//! ```
//!
//! # Rules
//!
//! - `size=10` (default): White queens `a4 d1 g1 j4`, Black `a7 d10 g10 j7`; `First` is White
//!   and moves first. `size=8`: Black `a6 c8 f8 h6`, White `a3 c1 f1 h3`; `First` is Black
//!   and moves first. Other sizes are rejected ([`AmazonsConfig`]).
//! - A move: one of your queens moves like a chess queen through empty squares to an empty
//!   square, then shoots an arrow from its new square the same way onto an empty square.
//!   The square the queen left is empty for the arrow (it may fly over it or land on it).
//!   Arrows are permanent.
//! - The player to move with no legal move loses. There are no draws. A player has a legal
//!   move exactly when one of their queens has an empty neighbour (step there, shoot back),
//!   which is how [`AmazonsPosition::has_legal_move`] decides it cheaply.
//! - Notation: `d1-d7/g7` (queen `d1` to `d7`, arrow on `g7`); input also accepts
//!   `d1 d7 g7`, any case, surrounding whitespace ignored, spaces around `-` and `/`.
//!
//! # Position string
//!
//! The ranks from the top (rank `size`) to rank 1, separated by `/`; in each rank, from
//! column `a`: `w` a White queen, `b` a Black queen, `x` an arrow, a decimal number for a
//! run of empty squares (`10` is one run of ten). Then, separated by spaces, the side to
//! move (`w` or `b`) and the ply (moves played). Letters are read in either case.
//!
//! ```text
//! 3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w 0     10x10 start (White to move)
//! 2b2b2/8/b6b/8/8/w6w/8/2w2w2 b 0               8x8 start (Black to move)
//! 3b2b3/10/10/b2w3xb/10/10/w8w/10/10/6w3 b 1    after g1-d7/g7... written d1-d7/g7 (see above)
//! ```
//!
//! Reading checks that the board has exactly `size` ranks of `size` squares, only the
//! characters above, exactly four queens per player, and — since every move shoots exactly
//! one arrow and turns alternate from `First` — that the ply equals the number of arrows and
//! the side to move is `First` at even plies and `Second` at odd ones. Anything else is
//! refused with a message naming what is wrong.
//!
//! The outcome is not stored: it is derived from the board and the side to move exactly as
//! during play (the player to move loses if none of their queens has an empty neighbour),
//! so the string of a finished game reads back as a finished game, e.g. on 8×8
//! `bxbx4/xxxx4/8/8/8/8/xwwww3/xxxxx3 b 10`-like positions where Black's queens are walled in.
//!
//! # Choices where `games.md` is silent
//!
//! - Player names follow colour: on 10×10 `First` = White; on 8×8 `First` = Black. In the
//!   position string and the diagram `w`/`b` always mean the White/Black queens.
//! - A position string must be consistent with a real game (ply = arrows, side by ply
//!   parity, four queens each) but is otherwise free: any placement of queens and arrows is
//!   accepted, so puzzles and endgames can be set up.
//! - [`MoveError`] reports the first failed check in this order: game over, off-board
//!   square, the `from` square (empty / arrow / opponent's queen), queen not moving, not a
//!   queen line, destination occupied, queen path blocked, arrow on the queen's own new
//!   square, arrow not on a queen line, arrow target occupied, arrow path blocked.
//! - The Zobrist hash covers queens (per player), arrows and the side to move; the ply is
//!   not hashed (it is implied by the arrow count).
//!
//! # How it is fast
//!
//! Besides bitboards (`u128`), the position keeps each row, column, diagonal and
//! anti-diagonal's occupancy as a 10-bit integer (a "rotated" board; 58 lines on 10×10).
//! Tables indexed by (position on the line, line occupancy) give the reachable squares,
//! their number, and — for the line a queen moved along — the arrows along that same line
//! summed over every destination with the origin vacated. So
//! [`count_moves`](board_core::Position::count_moves) costs, per queen, four lookups per
//! line plus three lookups per destination, and never mutates the board. Make and unmake
//! toggle three squares in four lines each. `perft(3)` from the 10×10 start
//! (8,348,949,100... see the tests) runs in well under 5 s on one core.

mod config;
mod error;
mod moves;
mod position;
mod position_string;
mod rules;
mod tables;

pub use config::AmazonsConfig;
pub use error::MoveError;
pub use moves::AmazonsMove;
pub use position::{AmazonsPosition, AmazonsUndo, Piece};
