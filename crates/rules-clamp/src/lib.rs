//! The rules of **clamp** (十六子夹棋): drop or step, custodian capture.
//!
//! The rules are those of `games.md`, section "clamp". In short: Black (`X`, the `First`
//! player) moves first. A move is either a **drop** of a new piece on an empty square of
//! the mover's drop zone (Black: the top `zone` rows, White: the bottom ones), allowed while
//! the mover has fewer than `max_on_board` pieces on the board, or a **step** of one of the
//! mover's pieces 1 or 2 squares in a straight line in any of the 8 directions to an empty
//! square (for 2 squares the square in between must be empty). After the move, every enemy
//! piece adjacent to the landing square with a piece of the mover's directly beyond it is
//! removed (all 8 directions at once). The game ends after a move when, in this order: the
//! opponent has no piece (the mover wins); the opponent has no legal move (the mover wins);
//! `quiet_limit` half-moves have passed without a capture (a draw, or with
//! `adjudicate=true` more pieces wins, then more pieces on the centre 4×4 block, else a
//! draw).
//!
//! The balance variant `supply=N` (default `unlimited`) gives each player `N` pieces in
//! hand beside the four on the board; every drop uses one, captured pieces are gone, and a
//! player with an empty hand can only step ([`MoveError::NoPiecesInHand`]). An empty hand
//! and no step is no legal move, so a loss (end rule 2), even with room in the zone.
//!
//! ```
//! use board_core::{Outcome, Player, prelude::*, perft};
//! use rules_clamp::{ClampConfig, ClampPosition};
//!
//! let mut pos = ClampPosition::new(ClampConfig::default());
//! assert_eq!(perft(&mut pos, 2), 5_118);
//! // A White piece on d5 between Black's c6 and the square e4 that Black steps to:
//! let mut pos = ClampPosition::from_position_string(
//!     ClampConfig::default(),
//!     "8/8/2X5/3O4/8/5X2/8/8 x 0 0",
//! )
//! .unwrap();
//! let mv = pos.parse_legal_move("f3-e4").unwrap();
//! let undo = pos.play(mv).unwrap();
//! assert_eq!(undo.captures(), 1); // e4 and c6 clamp d5
//! assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First))); // White has no pieces left
//! assert_eq!(pos.outcome_reason().unwrap(), "White has no pieces left");
//! ```
//!
//! # API
//!
//! - [`ClampConfig`]: the rule parameters and their spec string
//!   (`clamp:size=8,zone=3,start=4,max_on_board=10,quiet_limit=80,adjudicate=false,supply=unlimited`);
//!   [`ClampConfig::supply`], [`ClampConfig::with_supply`], [`ClampConfig::centre_span`].
//! - [`ClampPosition`]: implements [`board_core::Position`] completely (move generation,
//!   counting, validation, make/unmake, incremental Zobrist hash, outcome, notation, position
//!   string, diagram), plus accessors for evaluation: [`ClampPosition::piece_at`],
//!   [`ClampPosition::piece_count`], [`ClampPosition::pieces`] (a `BoardSet`, any size),
//!   [`ClampPosition::bitboard`] (a `Bitboard64` on boards up to 8×8),
//!   [`ClampPosition::mobility`] and [`ClampPosition::has_move`] (for either player),
//!   [`ClampPosition::can_drop`], [`ClampPosition::drop_zone`], [`ClampPosition::quiet`] and
//!   [`ClampPosition::quiet_remaining`], [`ClampPosition::capture_count`] (for move
//!   ordering), [`ClampPosition::captured_squares`], [`ClampPosition::end_reason`],
//!   [`ClampPosition::in_hand`] (pieces in hand under a finite supply),
//!   [`ClampPosition::centre_count`] (the adjudication's tie-break).
//! - [`Move`]: `Drop(to)` or `Step(from, to)`, squares as flat indices; six bytes, `Copy`.
//! - [`MoveError`]: one variant per reason a move is illegal.
//! - [`Undo`]: what `make_move` returns; 16 bytes.
//!
//! Boards up to 8×8 use one `Bitboard64` per player, 10×10 a `Bitboard128`, larger boards
//! multi-word `BitSet`s (board-core's square sets); move generation shifts whole sets per
//! direction with board-core's edge-masked `StepMasks`, and counting (`count_moves`, used
//! by perft's last ply) is 16 shift-and-popcounts.
//!
//! # Notation
//!
//! A drop is the square (`d7`), a step `from-to` (`c6-c4`). Input is case-insensitive,
//! whitespace around squares is ignored, and a step may also be written `c6 c4`.
//!
//! # Position string
//!
//! Four fields separated by spaces, six under a finite `supply`:
//!
//! 1. the board, ranks from the top (rank `size`) to the bottom (rank 1) separated by `/`;
//!    in each rank from column `a` on, `X` is a Black piece, `O` a White piece, and a
//!    decimal number (`1`–`26`, no leading zero) a run of that many empty squares;
//! 2. the side to move, `x` (Black) or `o` (White);
//! 3. the quiet counter: half-moves since the last capture (0 at the start);
//! 4. the ply: half-moves played since the start;
//! 5. and 6. only with a finite `supply`: the pieces Black and White have in hand
//!    (`0`–`supply`). With the unlimited default these fields are absent, so the strings
//!    of the plain game are unchanged.
//!
//! ```text
//! 8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0          the 8×8 start
//! 8/8/3XXX2/8/2X5/2OOOO2/8/8 o 1 1         after c6-c4
//! 6/6/1XXXX1/1OOOO1/6/6 x 0 0              the 6×6 start (zone 3)
//! 8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0 12 12    the start under supply=12
//! 8/3X4/2XXXX2/8/8/2OOOO2/8/8 o 1 1 11 12  after d7 under supply=12
//! ```
//!
//! Reading is lenient about case (`x`/`X`, `o`/`O`) and about whitespace between fields;
//! writing is canonical. [`from_position_string`](board_core::Position::from_position_string)
//! rejects, with a message naming the problem: a wrong number of fields or of ranks, a rank
//! covering more or fewer than `size` squares, a bad character, a run starting with `0`, a
//! player with more than `max_on_board` pieces, a quiet counter above `quiet_limit` or above
//! the ply, a side to move that does not match the ply's parity (Black moves at even plies),

//! and (for ply > 0) a player who made the last move but has no piece on the board; under a
//! finite supply also missing or extra hand fields, a hand above `supply`, and more pieces
//! on the board than the four start pieces plus the pieces dropped (`supply` minus the
//! hand).
//!
//! The outcome is never stored: it is derived from the board, the side to move and the
//! quiet counter, applying games.md's checks as if the player *not* on move had just moved
//! (see [`ClampPosition::end_reason`]). So the string of a finished game reads back as the
//! same finished game.
//!
//! # Choices where games.md is silent
//!
//! - **Captures are resolved at once and never chain**: only the piece that moved captures,
//!   and removing a piece does not trigger further captures. A piece that lands between two
//!   enemy pieces is safe, and so is an enemy piece that is already between two of the
//!   mover's pieces none of which moved. (A step's origin can never be the far end of a
//!   clamp: a two-square step from there would pass over the enemy piece.)
//! - **Parsed positions** follow the rules above: Black moves at even plies, White at odd
//!   plies; the quiet counter is at most the ply and at most `quiet_limit`; a position at
//!   ply 0 need not be the start position (a setup), and its outcome is derived like any
//!   other's.
//! - **The Zobrist hash covers the pieces and the side to move**, not the quiet counter or
//!   the ply (like chess's halfmove clock). Positions that differ only in the counter share
//!   a hash; a search that cares about the quiet limit near its end should check
//!   [`ClampPosition::quiet_remaining`].
//! - **Validation order** (the first failing check is reported): game over; off-board
//!   square; for a drop: outside the zone, at `max_on_board`, occupied; for a step: same
//!   square, empty origin, enemy piece, not a straight line, more than 2 squares,
//!   destination occupied, middle square occupied.
//! - `Move`s built by hand with off-board squares are rejected by `validate`; `make_move`
//!   of such a move only passes the turn (it never panics).
//! - **Supply.** The hands are part of the position: in the position string (fields 5 and
//!   6), in [`PartialEq`], and in the hash (one key per player and count, mixed from
//!   board-core's auxiliary keys; under the unlimited default no hand key is added, so the
//!   plain game hashes as before). A drop's hand is restored by `unmake_move`. A drop that
//!   fails both "a piece in hand" and "fewer than `max_on_board` on the board" reports the
//!   hand ([`MoveError::NoPiecesInHand`], checked after the zone, before
//!   [`MoveError::TooManyPieces`]). `supply=0` is allowed: a game of steps only.
//! - **Adjudication.** The tie-break needs no key of its own: it is part of
//!   `adjudicate=true` (games.md). The reason names what decided: "80 half-moves without a
//!   capture, adjudicated: 10 pieces to 9", "…, 10 pieces each, 3 to 2 on the
//!   centre squares", or "…, adjudicated: 10 pieces each and 2 each on the centre
//!   squares". The tie-break changes outcomes, never move counts, so perft is unchanged.
//! - **Diagram.** Under a finite supply the diagram ends with a line
//!   `in hand: Black 12, White 11`.
//!
//! # Perft of the balance variants
//!
//! Pinned in `tests/variants.rs` and recomputed by the reference in
//! `tests/differential.rs`.
//!
//! | rules | position | perft 1, 2, 3, 4 |
//! |---|---|---|
//! | `supply=12` (and any supply ≥ 2) | start | 72, 5,118, 363,710, 25,655,092 (the default's) |
//! | `supply=1` | start | 72, 5,118, 336,350, 21,874,936 |
//! | `supply=0` | start | 52, 2,638, 127,736, 6,112,040 |
//! | `size=6,supply=0` | start | 26, 790, 23,942, 782,414 |
//! | `supply=5` (or `supply=12,adjudicate=true`) | `8/2X5/2XXXX2/8/8/2OOOO2/8/8 x 3 12 1 0` | 76, 3,885, 274,831 |

#![deny(missing_docs)]

mod board;
mod config;
mod moves;
mod position;
mod position_string;
mod tables;
mod view;

pub use config::{ClampConfig, KEYS, MAX_SUPPLY};
pub use moves::{Move, MoveError, Undo};
pub use position::{ClampPosition, EndReason};
pub use position_string::MAX_PLY;
