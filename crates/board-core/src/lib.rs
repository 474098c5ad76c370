//! The shared vocabulary of boardlab: squares and their `a1` notation, board geometry and
//! ray tables, bitboards, line masks for the k-in-a-row games ([`lines`]), Zobrist keys,
//! game spec strings, the [`Position`] trait every game implements, perft, save files, and a
//! conformance harness ([`testing`]) for any implementation of the trait.
//!
//! # The game traits, and why four
//!
//! A game is described by four traits, one per concern, each a supertrait of the next:
//!
//! - [`Rules`]: the side to move, move generation, validation, make/unmake, the hash and
//!   the outcome. This is all that perft and the search need, and the only place a game's
//!   speed matters.
//! - [`Notation`]: reading and printing moves, which a search needs to print its
//!   principal variation and a protocol to talk to the world.
//! - [`Position`]: the config a game is built from ([`GameConfig`], built from an
//!   already-parsed [`GameSpec`]), position strings (serialisation, read in two steps
//!   through an unvalidated [`Setup`], see [`setup`]) and the few words a front end needs
//!   (player names, why the game ended).
//! - [`View`]: what the board shows, as typed values: the cells, the squares a move
//!   touches, regions and status, and the diagram drawn from them.
//!
//! Why split rather than give the later ones defaults: a wrapper that adds search state to
//! a game (`search::Incremental`) or a test game written to exercise the search has no
//! position strings or board of its own, and with one trait it had to forward or stub all
//! 21 methods. Now it implements `Rules` and `Notation` and nothing else; the search is
//! generic over `P: Notation`. A search benchmark or a fuzz target compiles against the
//! rules alone, and a game that only wants perft need not describe its board.
//!
//! # What a game writes, and what it gets
//!
//! A method has a default only where one answer is right for every game; where the answer
//! is the game's own, the method is required, because a default there could only be an
//! error or a guess, the silent fallback this crate avoids.
//!
//! | trait | the game writes | defaults |
//! |---|---|---|
//! | [`Rules`] | `side_to_move`, `ply`, `compute_hash`, `outcome`, `generate_moves`, `validate`, `make_move`, `unmake_move` | `hash` = `compute_hash`; `count_moves` (generate and count); `count_two_ply_sequences` (none: perft walks); `play` (validate, then make); `is_pass` (no move is a pass) |
//! | [`Notation`] | `parse_move`, `format_move` | `parse_legal_move` (parse, then validate); the whole impl from [`square_notation!`] for moves that are squares ([`moves`]) |
//! | [`Position`] | `new`, `config`, `to_position_string`, `from_position_string` | `player_name` (`First`, `Second`), `outcome_reason` (none: front ends show the result alone) |
//! | [`View`] | `geometry`, `cell` | `diagram` and `glyph` (drawn from the cells), `move_squares` (the cells a move changes), `board_view`; `regions`, `status`, `winning_line`, `rules_text` (none) |
//! | [`GameConfig`] | `GAME_ID`, `from_spec`, `Display`, `FromStr` | `parse_spec`; the whole config of a game without parameters from [`config_without_parameters!`] |
//!
//! The reasons, one by one:
//!
//! - **`hash` defaults to `compute_hash`.** Always correct (it is the definition), and
//!   fast enough for a small board kept in a few words, where a from-scratch hash costs a
//!   multiplication. A large board keeps its Zobrist hash incrementally and overrides
//!   `hash`; the conformance harness ([`testing`]) checks after every move and take-back
//!   that the two agree, so an override cannot drift unnoticed.
//! - **Only `geometry` and `cell` are required of a [`View`].** Everything a board shows
//!   follows from what stands where: the diagram draws the cells, and the squares a move
//!   touches are the cells it changes (a game whose moves name squares in an order, or
//!   capture, says so by overriding `move_squares`).
//! - **Position strings have no default.** Only the game knows which setups are positions
//!   of it, so a default could only accept too much or refuse everything. The game picks
//!   its format and gets the parsing: the board encoding every boardlab game shares
//!   ([`setup::write_board`], [`Setup::parse`]) for a FEN-like string, or the moves played
//!   ([`setup::write_moves`], [`setup::read_moves`]) for a game whose positions remember
//!   their moves and need no validation beyond the rules.
//! - **`validate` has no default** (say, "not among the generated moves"): the reason a
//!   move is refused is what a player reads, and only the game can name it.
//! - **A config has no default `from_spec`**, but a game without parameters declares its
//!   whole config in one line ([`config_without_parameters!`]).
//!
//! # A designer's first version: [`BoardGame`]
//!
//! A game described by its board alone implements [`BoardGame`] (the board and its cells,
//! the ply, the outcome, `validate`, `apply`, and which boards are positions) and gets the
//! four traits from blanket impls: square notation, copy-make, a hash from its own
//! `Hash`, moves by validation, a board-style position string, the default view. The
//! tutorial's Connect Four is 98 lines that way (`docs/adding-a-game.md`); a game that
//! needs speed later implements the four traits itself.
//!
//! Generic code bound by `P: View` sees every method of the four; code calling them on a
//! concrete type imports the traits that declare them (`use board_core::prelude::*`).
//!
//! ```
//! use board_core::{Geometry, Direction};
//! let g = Geometry::new(6, 6).unwrap();
//! let a2 = g.parse_square("a2").unwrap();
//! assert_eq!(g.step(a2, Direction::West), None); // never wraps to f1
//! assert_eq!(g.format_square(g.step(a2, Direction::North).unwrap()), "a3");
//! ```

#![deny(missing_docs)]

pub mod bitboard;
pub mod board_game;
pub mod diagram;
mod geometry;
pub mod lines;
pub mod moves;
pub mod perft;
/// The game traits, for code that calls their methods on a concrete type:
/// `use board_core::prelude::*;`.
pub mod prelude {
    pub use crate::{
        position::{Notation, Position, Rules},
        view::View,
    };
}
mod player;
mod position;
pub mod savefile;
pub mod setup;
pub mod spec;
mod square;
pub mod testing;
pub mod view;
pub mod zobrist;

pub use bitboard::{
    BitSet, Bitboard64, Bitboard128, BoardSet, OutOfCapacity, ShiftSet, SquareSet, StepMasks,
};
pub use board_game::{BoardGame, BoardSetup, Refused};
pub use geometry::{Direction, Geometry, GeometryError, Ray};
pub use perft::{divide, perft};
pub use player::{Outcome, Player};
pub use position::{GameConfig, IntKey, MoveInputError, Notation, NotationError, Position, Rules};
pub use setup::{InvalidKind, PositionStringError, Setup};
pub use spec::{GameSpec, SpecError, SpecReader};
pub use square::{Coord, MAX_CELLS, MAX_SIDE, Square, SquareError};
pub use view::View;
pub use zobrist::{Zobrist, zobrist};
