//! The rules of connect6 (六子棋) for boardlab: configuration, moves, validation,
//! make/unmake with an incremental Zobrist hash, outcome detection, notation, position
//! strings and diagrams, behind [`board_core::Position`].
//!
//! # Rules (games.md, "connect6")
//!
//! - A `size × size` board (`connect6:size=19` by default, 6–26), empty at the start.
//!   `First` is Black (`x`), `Second` is White (`o`).
//! - Black's first move places **one** stone; after that every move (White's first
//!   included) places **two** stones on two different empty squares. A pair is one move
//!   and is unordered: `j11,k12` and `k12,j11` are the same move, generated once.
//! - After both stones are down, a line of **six or more** of the mover's stones
//!   (horizontal, vertical or diagonal; lines never wrap around an edge) wins. Either stone
//!   may complete it, or the two new stones may complete it together.
//! - When only one empty square remains, the move places one stone there. A full board
//!   with no six is a draw. The six is checked first: a move that fills the board and
//!   makes six wins.
//!
//! # Choices where games.md is silent
//!
//! - **A pair is always a whole pair.** If the first stone of a pair already makes six,
//!   the move is still both stones: the second stone must be on a different empty square
//!   too, the win is declared once both are down, and it is one ply.
//! - **Single-stone turns** are exactly ply 0 and "one empty square left". A single stone
//!   on any other turn is refused ([`MoveError::PairRequired`]), and so is a pair on those
//!   turns ([`MoveError::FirstMoveIsSingle`], [`MoveError::LastSquareIsSingle`]). After
//!   ply `p ≥ 1` the board holds `2p − 1` stones, so the last-square rule happens only on
//!   boards with an even number of cells (6×6, 8×8, 20×20, …), and there it is always
//!   Black's move (`size²` is then a multiple of 4); on odd boards (19×19) the last move
//!   is a pair that fills the board.
//! - **Which reason is reported** when several apply: game over, then off-board squares
//!   (only hand-built moves), then the number of stones, then the same square twice, then
//!   occupied squares (lower square first).
//! - **Notation.** A single stone is `j10`; a pair `j11,k12`, printed with the lower flat
//!   index (row-major from `a1`) first. Input is case-insensitive, trimmed, accepts either
//!   order, spaces around the comma (`j11 , k12`) and the spaced form `j11 k12`.
//!   `j11,j11` is read as a pair on one square (so that `validate` can say why it is
//!   illegal: [`MoveError::SameSquare`]).
//! - **Outcome reasons**: `"six in a row c1-h1"` (`seven`, … for longer lines; the left
//!   end first, the bottom end for a vertical line; if a move makes several lines, the
//!   first found through the lower stone, axis order E, N, NE, SE), and
//!   `"the board is full with no six in a row"`.
//! - **Hash**: Zobrist key `piece(0, sq)` for a black stone, `piece(1, sq)` for a white
//!   one, plus `side(player)` for the side to move. The ply is not hashed (the stones
//!   determine it).
//! - **Equality** ([`PartialEq`]) compares what affects legality (rules, stones, side,
//!   ply, hash, outcome), not history: the last move and the reported winning line.
//! - **Diagram**: `X` Black, `O` White, `.` empty, via [`board_core::diagram::render`].
//!
//! # For search and evaluation
//!
//! [`Connect6Position`] keeps one [`board_core::BoardSet`] per player and every row,
//! column and diagonal as a `u32` bit mask per player (the shared numbering of
//! [`board_core::lines`]), so a move updates four words per
//! stone and the win test looks only at the lines through the new stones (a few shifts,
//! no board walk). Accessors (named as in `rules-gomoku`, so evaluators for the two
//! k-in-a-row games read alike): [`stone_at`](Connect6Position::stone_at),
//! [`is_empty_square`](Connect6Position::is_empty_square),
//! [`stones`](Connect6Position::stones), [`occupied`](Connect6Position::occupied),
//! [`empty_squares`](Connect6Position::empty_squares),
//! [`empty_count`](Connect6Position::empty_count),
//! [`stone_count`](Connect6Position::stone_count),
//! [`geometry`](Connect6Position::geometry), [`last_move`](Connect6Position::last_move),
//! [`stones_to_place`](Connect6Position::stones_to_place),
//! [`line_through`](Connect6Position::line_through) (a [`LineView`], re-exported from
//! [`board_core::lines`]: both players'
//! stones on a line through a square, as bits), [`run_through`](Connect6Position::run_through),
//! [`run_length`](Connect6Position::run_length), [`ray_run`](Connect6Position::ray_run),
//! [`is_winning_move`](Connect6Position::is_winning_move) (would these one or two stones
//! make six?) and [`winning_line`](Connect6Position::winning_line).
//!
//! # Position strings
//!
//! `<board> <side> <ply>`, the boardlab house convention:
//! - `<board>`: the ranks from the top (rank `size`) to the bottom (rank 1), separated by
//!   `/`; in each rank, from file `a` rightwards, `x` a black stone, `o` a white stone, and
//!   a decimal number (`1`–`size`, no leading zero, may be two digits) for a run of empty
//!   squares. Letters are read in either case and printed lower-case.
//! - `<side>`: `x` (Black) or `o` (White) to move.
//! - `<ply>`: the number of moves played.
//!
//! The start of the default game is `19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 x 0`.
//! On a 6×6 board, after `c3`, `d4,e5`, `c4,c5`:
//!
//! ```
//! use board_core::prelude::*;
//! use rules_connect6::{Connect6Config, Connect6Position};
//! let config = Connect6Config::new(6).unwrap();
//! let mut pos = Connect6Position::new(config);
//! for m in ["c3", "d4,e5", "c4 c5"] {
//!     let mv = pos.parse_legal_move(m).unwrap();
//!     pos.make_move(mv);
//! }
//! assert_eq!(pos.to_position_string(), "6/2x1o1/2xo2/2x3/6/6 o 3");
//! let back = Connect6Position::from_position_string(config, "6/2X1O1/2XO2/2X3/6/6 O 3").unwrap();
//! assert_eq!(back, pos);
//! ```
//!
//! Reading checks, with a message naming the problem:
//! - the number of ranks and of squares in each rank match the config's size; only `x`,
//!   `o`, and counts `1`–`size` appear; exactly three fields;
//! - **stone counts against the ply**: after ply `p`, Black has `2·⌈p/2⌉ − 1` stones
//!   (0 at ply 0) and White `2·⌊p/2⌋`; the only other accepted count is a full board
//!   where the last mover has one stone fewer (the single stone on the last square);
//! - **side to move against the ply**: Black after an even number of moves, White after
//!   an odd one;
//! - the side to move has no six in a row (its six would have ended the game already).
//!
//! The outcome is then derived from the board: if the player who moved last (the one not
//! to move) has a line of six or more, they have won; otherwise a full board is a draw;
//! otherwise the game goes on. So the string of a finished game reads back as a finished
//! game. (Whether the winning line could really have been completed by the last move is
//! not checked.)
//!
//! # Example
//!
//! ```
//! use board_core::{Outcome, Player, prelude::*, perft};
//! use rules_connect6::{Connect6Position, Move};
//! let mut pos = Connect6Position::new(Default::default());
//! assert_eq!(perft(&mut pos, 1), 361);
//! assert_eq!(perft(&mut pos, 2), 23_327_820);
//! let mv = pos.parse_legal_move("J10").unwrap();
//! pos.make_move(mv);
//! assert_eq!(pos.count_moves(), 360 * 359 / 2);
//! let pair = pos.parse_move("k12 j11").unwrap();
//! assert_eq!(pos.format_move(pair), "j11,k12");
//! assert_eq!(pos.validate(&Move::single(pos.geometry().parse_square("a1").unwrap()))
//!     .unwrap_err().to_string(),
//!     "this move places two stones (a single stone only on the first move or the last empty square)");
//! assert_eq!(pos.outcome(), None);
//! assert_eq!(pos.side_to_move(), Player::Second);
//! # let _ = Outcome::Draw;
//! ```

#![deny(missing_docs)]

mod bulk;
mod config;
mod error;
mod moves;
mod position;
mod position_string;
mod view;

pub use board_core::lines::LineView;
pub use config::Connect6Config;
pub use error::MoveError;
pub use moves::Move;
pub use position::{Connect6Position, Undo, WIN_LENGTH, WinningLine};
