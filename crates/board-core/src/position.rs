//! The [`Position`] trait every game implements, and the errors its parsers share.

use std::{fmt, hash::Hash, str::FromStr};

use thiserror::Error;

use crate::{
    player::{Outcome, Player},
    setup::PositionStringError,
    spec::{GameSpec, SpecError},
    square::SquareError,
};

/// A game's rule parameters, named by a game spec string.
///
/// `Display` prints the canonical spec string (`gomoku:size=20,rule=exact5`, keys in a fixed
/// order, defaults included); [`from_spec`](GameConfig::from_spec) interprets an
/// already-parsed [`GameSpec`], and `FromStr` reads spec text (parse, then `from_spec`:
/// [`GameConfig::parse_spec`] is that wrapper, ready to call from a `FromStr` impl).
///
/// Why a required `from_spec` rather than `TryFrom<&GameSpec>`: code that holds a parsed
/// spec (a registry that looked up its id, a save file's header) names the constructor as
/// `P::Config::from_spec(&spec)` under a plain `P: Position` bound, where `TryFrom` would
/// need a higher-ranked `for<'a> TryFrom<&'a GameSpec>` bound repeated at every use and an
/// error type pinned beside it; and the contract (check the id, take keys through a
/// [`SpecReader`](crate::SpecReader), finish) is written here once. `FromStr` stays a
/// supertrait so that generic code holding text keeps writing `text.parse::<P::Config>()`.
///
/// A game without parameters declares its config in one line with
/// [`config_without_parameters!`](crate::config_without_parameters).
pub trait GameConfig:
    Clone
    + fmt::Debug
    + Default
    + PartialEq
    + Eq
    + Send
    + Sync
    + fmt::Display
    + FromStr<Err = SpecError>
{
    /// The game id that starts its spec strings (`"gomoku"`).
    const GAME_ID: &'static str;

    /// The integer keys of the spec, in canonical order, as [`int_config!`](crate::int_config)
    /// declares them: for tools that list a game's keys (the web's new-game form, through
    /// `boardlab_games::Game::spec_keys`). Empty by default: a config written by hand
    /// lists its keys there.
    const INT_KEYS: &'static [IntKey] = &[];

    /// The config a parsed spec names: checks that `spec.id` is [`GAME_ID`](Self::GAME_ID)
    /// ([`crate::spec::expect_id`]), reads every key with its default and range through
    /// [`GameSpec::reader`], and refuses keys nobody took.
    fn from_spec(spec: &GameSpec) -> Result<Self, SpecError>;

    /// Parses spec text, then [`from_spec`](GameConfig::from_spec): what a config's
    /// `FromStr` impl calls.
    fn parse_spec(text: &str) -> Result<Self, SpecError> {
        Self::from_spec(&GameSpec::parse(text)?)
    }
}

/// Declares the config of a game without parameters: a unit struct whose spec string is
/// just the game id, with every trait [`GameConfig`] needs.
///
/// ```
/// board_core::config_without_parameters!(
///     /// The rules of noughts and crosses: none to choose.
///     pub struct TicTacToeConfig = "tictactoe"
/// );
/// use board_core::GameConfig;
/// assert_eq!("TicTacToe".parse::<TicTacToeConfig>(), Ok(TicTacToeConfig));
/// assert_eq!(TicTacToeConfig.to_string(), "tictactoe");
/// let e = "tictactoe:size=4".parse::<TicTacToeConfig>().unwrap_err();
/// assert_eq!(e.to_string(), "unknown key 'size': tictactoe has no parameters");
/// assert!(TicTacToeConfig::parse_spec("gomoku").is_err());
/// ```
#[macro_export]
macro_rules! config_without_parameters {
    ($(#[$meta:meta])* $vis:vis struct $name:ident = $id:literal $(;)?) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name;

        impl $crate::GameConfig for $name {
            const GAME_ID: &'static str = $id;

            fn from_spec(spec: &$crate::GameSpec) -> ::std::result::Result<Self, $crate::SpecError> {
                $crate::spec::expect_id(spec, $id)?;
                spec.reader(&[]).finish()?;
                Ok($name)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($id)
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::SpecError;

            fn from_str(text: &str) -> ::std::result::Result<Self, $crate::SpecError> {
                <$name as $crate::GameConfig>::parse_spec(text)
            }
        }
    };
}

/// One integer key of a game spec: its name, default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntKey {
    /// The key as the spec writes it (`k`).
    pub key: &'static str,
    /// The value when the spec leaves the key out.
    pub default: u32,
    /// The smallest value.
    pub min: u32,
    /// The largest value.
    pub max: u32,
    /// The range for people (`3 to 6`).
    pub range: &'static str,
}

/// Declares the config of a game whose parameters are integers: a struct with one `u32`
/// field per key, its default, range and documentation, and every trait [`GameConfig`]
/// needs. The spec string names the keys in the order declared, defaults included
/// (`connect4:k=4`); reading checks each key's range and refuses unknown keys. A game with
/// other kinds of values (a choice, a flag, a key whose range depends on another) writes
/// [`GameConfig::from_spec`] with a [`SpecReader`](crate::SpecReader) instead.
///
/// ```
/// board_core::int_config!(
///     /// The rules of m,n,k-games.
///     pub struct MnkConfig = "mnk" {
///         /// Columns.
///         m: 3 in 3..=15,
///         /// Rows.
///         n: 3 in 3..=15,
///         /// Stones in a row that win.
///         k: 3 in 3..=15,
///     }
/// );
/// use board_core::GameConfig;
/// let config: MnkConfig = "mnk:k=4,m=5".parse()?;
/// assert_eq!(config, MnkConfig { m: 5, n: 3, k: 4 });
/// assert_eq!(config.to_string(), "mnk:m=5,n=3,k=4");
/// assert_eq!(MnkConfig::default().to_string(), "mnk:m=3,n=3,k=3");
/// let e = MnkConfig::parse_spec("mnk:k=2").unwrap_err();
/// assert_eq!(e.to_string(), "k=2 is out of range: expected an integer from 3 to 15");
/// assert!(MnkConfig::parse_spec("mnk:size=4").is_err());
/// assert_eq!(MnkConfig::INT_KEYS[2].key, "k");
/// assert_eq!(MnkConfig::INT_KEYS[2].range, "3 to 15");
/// # Ok::<(), board_core::SpecError>(())
/// ```
#[macro_export]
macro_rules! int_config {
    (
        $(#[$meta:meta])* $vis:vis struct $name:ident = $id:literal {
            $( $(#[$key_meta:meta])* $key:ident : $default:literal in $min:literal ..= $max:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis struct $name {
            $( $(#[$key_meta])* pub $key: u32, )+
        }

        impl ::std::default::Default for $name {
            fn default() -> Self {
                $name { $( $key: $default, )+ }
            }
        }

        impl $crate::GameConfig for $name {
            const GAME_ID: &'static str = $id;
            const INT_KEYS: &'static [$crate::IntKey] = &[$(
                $crate::IntKey {
                    key: stringify!($key),
                    default: $default,
                    min: $min,
                    max: $max,
                    range: concat!(stringify!($min), " to ", stringify!($max)),
                }
            ),+];

            fn from_spec(spec: &$crate::GameSpec) -> ::std::result::Result<Self, $crate::SpecError> {
                $crate::spec::expect_id(spec, $id)?;
                let mut reader = spec.reader(&[$(stringify!($key)),+]);
                let config = $name { $( $key: reader.int(stringify!($key), $default, $min, $max)?, )+ };
                reader.finish()?;
                Ok(config)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                let values: &[(&str, u32)] = &[$((stringify!($key), self.$key)),+];
                f.write_str($id)?;
                for (i, (key, value)) in values.iter().enumerate() {
                    write!(f, "{}{key}={value}", if i == 0 { ':' } else { ',' })?;
                }
                Ok(())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::SpecError;

            fn from_str(text: &str) -> ::std::result::Result<Self, $crate::SpecError> {
                <$name as $crate::GameConfig>::parse_spec(text)
            }
        }
    };
}

/// Why a move's text could not be read (before any question of legality).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// A square that does not read or is off the board.
    #[error(transparent)]
    Square(#[from] SquareError),
    /// Text that is not a move of this game's shape.
    #[error("'{text}' is not a move: expected {expected}")]
    Syntax {
        /// The text (at most 32 characters of it, trimmed).
        text: String,
        /// What a move looks like, for people ("a column letter, like d").
        expected: &'static str,
    },
}

impl NotationError {
    /// A syntax error quoting (at most 32 characters of) the text.
    pub fn syntax(text: &str, expected: &'static str) -> NotationError {
        NotationError::Syntax {
            text: text.trim().chars().take(32).collect(),
            expected,
        }
    }
}

/// Why a move given as text was refused: unreadable, or readable but illegal.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveInputError<E> {
    /// The text is no move of the game's notation.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A move that reads, but the rules refuse here (the game's reason).
    #[error(transparent)]
    Illegal(E),
}

/// The rules of a game, as search and perft see it: the side to move, the legal moves,
/// make and unmake, the hash and the outcome.
///
/// The contract search, perft and the conformance harness ([`crate::testing`]) rely on:
/// - the side to move is part of the position, and turns need not alternate: after a move
///   the same player may be on move again;
/// - [`generate_moves`](Rules::generate_moves) lists every legal move exactly once, and
///   nothing at all once the game is over;
/// - [`validate`](Rules::validate) accepts exactly the generated moves;
/// - [`make_move`](Rules::make_move) followed by [`unmake_move`](Rules::unmake_move)
///   restores the position and its hash bit for bit;
/// - [`hash`](Rules::hash) always equals [`compute_hash`](Rules::compute_hash) (by default
///   it *is* `compute_hash`; a game that keeps its hash incrementally overrides it).
pub trait Rules: Clone + PartialEq + fmt::Debug + Send + Sync + Sized + 'static {
    /// A move: small, `Copy`, comparable (moves are kept in tables and sorted in tests).
    type Move: Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync + 'static;
    /// What `make_move` returns and `unmake_move` needs to restore the position.
    type Undo: fmt::Debug;
    /// Why a move is illegal here: one variant per reason.
    type MoveError: std::error::Error + Clone + PartialEq + Send + Sync + 'static;

    /// The player to move (in a finished game: the player who would move next).
    fn side_to_move(&self) -> Player;

    /// Moves played since the start position.
    fn ply(&self) -> u32;

    /// The position's 64-bit hash, as the search's transposition table and repetition
    /// checks read it (once per node). Equal positions hash equal.
    ///
    /// Defaults to [`compute_hash`](Rules::compute_hash), which is right for a game whose
    /// hash is cheap to compute from scratch (a few bitboard words). A game with a large
    /// board keeps the hash incrementally in `make_move`/`unmake_move` (Zobrist keys from
    /// [`crate::zobrist()`]) and returns it here; the conformance harness
    /// ([`crate::testing`]) then checks the two agree after every move and take-back.
    fn hash(&self) -> u64 {
        self.compute_hash()
    }

    /// The hash computed from scratch from what the position holds.
    fn compute_hash(&self) -> u64;

    /// `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Replaces the contents of `moves` with every legal move (none if the game is over).
    /// The buffer is the caller's, so a search reuses its capacity instead of allocating.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// The number of legal moves; games override it with a counting shortcut (perft's
    /// last ply calls only this).
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }

    /// The number of two-move sequences from here, perft(2), when the game can count them
    /// without playing the first ply; `None` (the default) has [`crate::perft()`] play each
    /// first move and count the second ply with [`count_moves`](Rules::count_moves).
    ///
    /// A game overrides it when the successors of a move can be counted from the position
    /// alone (connect6: every pair of empty squares is legal, and a pair has no successors
    /// exactly when it wins). An override must equal that generate-make-count walk exactly:
    /// 0 for a finished game, and a first move that ends the game adds nothing.
    /// [`crate::testing`] checks it against the walk on every position of its playouts.
    fn count_two_ply_sequences(&self) -> Option<u64> {
        None
    }

    /// `Ok` exactly when `mv` is legal here; otherwise the reason.
    fn validate(&self, mv: &Self::Move) -> Result<(), Self::MoveError>;

    /// Plays a legal move (one that was generated or validated) and returns the undo record.
    /// Given an illegal move the resulting position is meaningless, but memory-safe.
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back `mv`, which must be the last move made, with the record `make_move` gave.
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// Whether `mv` is a pass: a move that changes nothing on the board and hands the turn
    /// to the opponent. `false` by default (a game without passes).
    ///
    /// Passes are moves like any other to the generic tools: generated when the rules allow
    /// them, validated, made and unmade, counted by perft, searched (a pass is scored like
    /// any move; the search does no null-move pruning that could confuse it with one), and
    /// written by the notation (`pass` for [`PassOr`](crate::moves::PassOr)) and so in save
    /// files and position strings of moves. This method only lets front ends say "White
    /// passes" instead of showing a move. A game that skips a player without a move instead
    /// (the same side to move again) gets no such line: it is a turn that does not
    /// alternate, not a pass.
    fn is_pass(&self, mv: &Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// Validates, then plays. A refused move changes nothing.
    fn play(&mut self, mv: Self::Move) -> Result<Self::Undo, Self::MoveError> {
        self.validate(&mv)?;
        Ok(self.make_move(mv))
    }
}

/// Moves as text: what a search needs beside the rules to print its principal variation.
///
/// [`format_move`](Notation::format_move) and [`parse_move`](Notation::parse_move)
/// round-trip.
pub trait Notation: Rules {
    /// Reads a move in the game's notation (case-insensitive, surrounding whitespace
    /// ignored, squares also accepted separated by spaces). Checks only the syntax and that
    /// the squares are on the board; legality is [`validate`](Rules::validate)'s job.
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;

    /// Prints a move in the canonical notation of `games.md`.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads and validates a move given as text.
    fn parse_legal_move(&self, text: &str) -> Result<Self::Move, MoveInputError<Self::MoveError>> {
        let mv = self.parse_move(text)?;
        self.validate(&mv).map_err(MoveInputError::Illegal)?;
        Ok(mv)
    }
}

/// A whole game: its [`Rules`] and [`Notation`], plus construction from a config,
/// position strings (serialisation) and the few words a front end needs (player names,
/// why the game ended; both have defaults). The board's picture is [`View`](crate::View)'s.
///
/// Code generic over `P: Position` sees every method of the supertraits; code that calls
/// them on a concrete type imports the trait that declares them
/// ([`crate::prelude`] brings all three).
pub trait Position: Notation {
    /// The rule parameters.
    type Config: GameConfig;

    /// The start position of a game under `config`.
    fn new(config: Self::Config) -> Self;

    /// The rules this position is played under.
    fn config(&self) -> &Self::Config;

    /// Why the game ended, for people ("four in a row c1-f4", "no legal moves", …),
    /// without the winner, whom front ends name beside it ("First wins: four in a row
    /// c1-f4"). `None` while the game goes on, and by default: a game that gives no reason
    /// is shown with its result alone ("First wins"), rather than with the result said
    /// twice.
    fn outcome_reason(&self) -> Option<String> {
        None
    }

    /// The compact position string (FEN-like) documented in the game's crate.
    fn to_position_string(&self) -> String;

    /// Reads a position string for a game under `config`: parse it into a
    /// [`Setup`](crate::Setup), then validate that into a position.
    fn from_position_string(config: Self::Config, s: &str) -> Result<Self, PositionStringError>;

    /// Display name of a player ("Black", "White"); `First` and `Second` by default.
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "First",
            Player::Second => "Second",
        }
    }
}
