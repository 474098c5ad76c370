//! The rules of fourshift (连四占点棋), as `games.md` (section "fourshift") defines them:
//! on an empty `size × size` board (default 6×6) Black (`X`, [`Player::First`]) and White
//! (`O`) take turns placing their `pieces` (default 8 each); once both hands are empty each
//! move shifts one of the mover's pieces one step up, down, left or right onto an empty
//! square. After every move, in this order: the mover wins with `k` (default 4) **or more**
//! in an unbroken horizontal, vertical or diagonal line (so the last placement can win);
//! the game is drawn if the player now to move has no legal move; it is drawn once
//! `max_plies` (default 120, placements included) plies have been played.
//!
//! Two balance variants (`games.md`, "Balance variants") are rule parameters:
//! `moving_first=second` gives the first shift to White, who then moves twice in a row
//! (its last placement and its first shift); `centre_opening=false` refuses Black's first
//! placement on a centre square (the middle 2×2 on an even board, the middle square on an
//! odd one) with [`MoveError::CentreOpening`].
//!
//! ```
//! use board_core::{Outcome, Player, prelude::*, perft};
//! use rules_fourshift::{Fourshift, FourshiftConfig, Move};
//!
//! let mut pos = Fourshift::new(FourshiftConfig::default());
//! assert_eq!(perft(&mut pos, 3), 42_840);
//! for text in ["a1", "f6", "b2", "e6", "c3", "d6", "d4"] {
//!     let mv = pos.parse_legal_move(text).unwrap();
//!     pos.play(mv).unwrap();
//! }
//! assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
//! assert_eq!(pos.outcome_reason().unwrap(), "four in a row a1-d4");
//! assert_eq!(pos.count_moves(), 0);
//! ```
//!
//! # API
//! - [`FourshiftConfig`]: the rules (`size`, `k`, `pieces`, `max_plies`, `moving_first`,
//!   `centre_opening`), read from and printed as a game spec string
//!   (`fourshift:size=6,k=4,pieces=8,max_plies=120,moving_first=next,centre_opening=true`);
//!   [`MovingFirst`] is the `moving_first` value.
//! - [`Fourshift`]: a position; implements [`board_core::Position`] (move generation,
//!   `validate`, make/unmake, Zobrist hash, notation, position strings, diagram) and adds
//!   accessors for search and evaluation: [`Fourshift::piece_at`], [`Fourshift::stones`]
//!   (any size) and [`Fourshift::stones64`] (up to 8×8), [`Fourshift::occupied`],
//!   [`Fourshift::empty_squares`], [`Fourshift::in_hand`], [`Fourshift::on_board`],
//!   [`Fourshift::shift_count`] (mobility), [`Fourshift::lines_through64`],
//!   [`Fourshift::phase`], [`Fourshift::end_reason`], [`Fourshift::longest_line`],
//!   [`Fourshift::winning_line`], [`Fourshift::has_k_in_a_row`], [`Fourshift::geometry`],
//!   [`Fourshift::is_centre`], [`Fourshift::centre_squares`].
//! - [`Move`]: `Place(sq)` or `Shift { from, to }`, 6 bytes, `Copy + Ord + Hash`.
//! - [`MoveError`]: one variant per reason a move is illegal.
//!
//! # Notation
//! A placement is written `c3`, a shift `c3-c4`. Input is case-insensitive, ignores
//! surrounding whitespace, and also accepts `c3 c4` and `c3 - c4` for a shift.
//! [`Position::parse_move`](board_core::Notation::parse_move) checks only the syntax and that the squares are on the board.
//!
//! # Position strings
//! `board side black-in-hand white-in-hand ply`, fields separated by whitespace:
//! - `board`: the ranks from the top (rank `size`) to the bottom (rank 1), separated by `/`;
//!   in each rank, from column `a` rightwards, `X` for a Black piece, `O` for a White piece
//!   and a decimal number (`1`–`26`, may be two digits) for a run of empty squares;
//! - `side`: `x` (Black) or `o` (White) to move (under `moving_first=second` this is how the
//!   string says White is to shift right after its own last placement: `… o 0 0 16`; no
//!   further field is needed, since the variant is part of the config);
//! - the pieces Black and White still have in hand;
//! - the ply: moves played since the start (placements included).
//!
//! Pieces and side are printed as shown and read in either case. Examples (default rules):
//!
//! | position | string |
//! |---|---|
//! | start | `6/6/6/6/6/6 x 8 8 0` |
//! | after `c3 d4` | `6/6/3O2/2X3/6/6 x 7 7 2` |
//! | late in placement, Black to place their last piece | `1OX2X/1OO2O/4X1/4X1/O2X1X/1XOO2 x 1 1 14` |
//! | moving phase, ply 21, White to move | `OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21` |
//! | finished: Black won with a2-a5 | `1OO3/XOX1O1/X1O2X/XO4/X3OX/1O3X o 0 0 43` |
//!
//! ```
//! use board_core::{Outcome, Player, prelude::*};
//! use rules_fourshift::{Fourshift, FourshiftConfig, Phase};
//!
//! let config = FourshiftConfig::default();
//! let pos = Fourshift::from_position_string(config, "OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21")
//!     .unwrap();
//! assert_eq!((pos.phase(), pos.side_to_move(), pos.count_moves()), (Phase::Moving, Player::Second, 15));
//! let done = Fourshift::from_position_string(config, "1OO3/XOX1O1/X1O2X/XO4/X3OX/1O3X o 0 0 43")
//!     .unwrap();
//! assert_eq!(done.outcome(), Some(Outcome::Win(Player::First)));
//! assert_eq!(done.outcome_reason().unwrap(), "four in a row a2-a5");
//! assert!(Fourshift::from_position_string(config, "6/6/6/6/6/6 o 8 8 0").is_err());
//! ```
//!
//! A position string must describe a position reachable under the config, and reading
//! rejects, with a message naming the problem: a wrong number of ranks or squares in a
//! rank, an unknown character, more pieces on the board than `pieces`, in-hand counts that
//! are not `pieces` minus the pieces on the board, piece counts that break the alternation
//! (Black places first, so Black has as many pieces on the board as White or one more while
//! placing), a side to move that does not follow from the counts (while placing) or from the
//! ply parity (while moving, Black moves on even plies; under `moving_first=second` White
//! does), a ply that is not the number of
//! pieces placed (while placing) or is smaller than `2 × pieces` (while moving), a ply past
//! `max_plies`, a player who did not make the last move but already has `k` in a row, and,
//! under `centre_opening=false`, every Black piece on a centre square while Black has not
//! shifted yet (Black's first piece is then still where it was placed, off the centre;
//! after Black's first shift this is not checked).
//!
//! The outcome of a read position is derived by the same checks as after a move, taking the
//! player who made move `ply − 1` as the one who just moved (the player *not* to move,
//! except at ply `2 × pieces` under `moving_first=second`, where White is both; at ply 0
//! nobody has): that player wins
//! if they have `k` or more in a row; otherwise it is a draw if the player to move has no
//! legal move; otherwise a draw if the ply has reached `max_plies`. So the string of a
//! finished game reads back as the same finished game.
//!
//! # Choices where `games.md` is silent
//! - Rule 1 only ever concerns the mover: a move cannot complete the opponent's line
//!   (shifting a piece away never adds to another player's run), so no "both have a line"
//!   case arises in play; a position string where the side to move has `k` in a row is
//!   rejected as unreachable.
//! - The phase is per position, not per player: Black places first and the hands are equal,
//!   so both hands empty at ply `2 × pieces`. While the player to move has pieces in hand
//!   there is always an empty square (`pieces ≤ size²/2`), so "no legal move" can only
//!   happen in the moving phase: all pieces blocked, or the board full after placement
//!   (`pieces = size²/2` on an even board).
//! - If `max_plies` is smaller than `2 × pieces`, the game is drawn during placement.
//! - `validate` reports, in this order: game over; a square off the board; the wrong kind
//!   of move for the phase ([`MoveError::ShiftWhilePlacing`],
//!   [`MoveError::PlaceWhileMoving`]); an occupied placement square; then for a shift an
//!   empty or enemy origin, a destination that is not orthogonally adjacent (same square,
//!   diagonal, two away or wrapping around an edge), and an occupied destination.
//! - The Zobrist hash covers the pieces and the side to move, not the ply (the hands and
//!   the phase follow from the board).
//! - [`Position::outcome_reason`](board_core::Position::outcome_reason) reads "four in a row c1-f4" (the winner's longest line,
//!   lower square first; "five in a row …" for longer lines), "White has no legal moves", or
//!   "move limit of 120 plies reached".
//! - The position keeps no move history (no last move): every rule depends only on the
//!   board, the side to move and the ply. Who moves at a ply is
//!   [`FourshiftConfig::mover_at`]; `make_move` keeps the side to move across White's
//!   double move, and `unmake_move` knows from the ply that it was one.
//! - `moving_first=second` with `max_plies ≤ 2 × pieces` never reaches the double move
//!   (the game is drawn by the move limit first); with `max_plies = 2 × pieces + 1` White's
//!   first shift is the last move of the game.
//! - `centre_opening=false` restricts only ply 0 of the game: a position string read at a
//!   later ply is never restricted, and the hash does not depend on the variant (it is part
//!   of the config, like `k`).
//! - [`MoveError::CentreOpening`] is reported after the "occupied" check (at ply 0 nothing
//!   is occupied, so in practice it is the only error of a centre placement).
//!
//! # Perft of the balance variants
//! Pinned in `tests/variants.rs` and recomputed by the independent reference implementation
//! in `tests/reference.rs`. From the start `moving_first=second` changes nothing (the
//! placements are symmetric); `centre_opening=false` takes the centre squares from the first
//! move only.
//!
//! | rules | position | perft 1, 2, 3, 4 |
//! |---|---|---|
//! | default, `moving_first=second` | start | 36, 1,260, 42,840, 1,413,720 |
//! | `centre_opening=false` (with either `moving_first`) | start | 32, 1,120, 38,080, 1,256,640 |
//! | `size=5,centre_opening=false` | start | 24, 576, 13,248 |
//! | default | `1OX2X/1OO2O/4X1/4X1/O2X1X/1XOO2 x 1 1 14` (Black's last placement) | 22, 462, 7,640, 97,043 |
//! | `moving_first=second` | the same | 22, 462, 5,960, 98,870 |
//! | default | `OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 x 0 0 16` (moving phase, Black first) | 15, 168, 2,528, 32,817 |
//! | `moving_first=second` | `OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 o 0 0 16` (White's first shift) | 11, 169, 2,197, 33,535 |
//! | `centre_opening=false` | `OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21` (moving phase) | 15, 240, 3,902, 62,876 |

#![deny(missing_docs)]

mod bits;
mod board;
mod config;
mod moves;
mod notation;
mod position;
mod view;

pub use board_core::Player;
pub use config::{FourshiftConfig, KEYS, MAX_MAX_PLIES, MIN_K, MovingFirst, SIZE_RANGE};
pub use moves::{Move, MoveError};
pub use position::{EndReason, Fourshift, Line, Phase, Undo};

/// [`Fourshift`] under the `<Game>Position` name the other rules crates use
/// (`ClampPosition`, `AmazonsPosition`, `GomokuPosition`, `Connect6Position`).
pub type FourshiftPosition = Fourshift;
