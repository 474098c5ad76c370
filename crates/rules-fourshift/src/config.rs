//! The rule parameters of fourshift and their game spec string.

use std::{fmt, str::FromStr};

use board_core::{GameConfig, GameSpec, SpecError, spec};

/// The spec keys, in the order [`FourshiftConfig`]'s `Display` prints them.
pub const KEYS: &[&str] = &["size", "k", "pieces", "max_plies"];

/// Smallest and largest board side.
pub const SIZE_RANGE: (u32, u32) = (3, 26);
/// Smallest `k`; the largest is the board size.
pub const MIN_K: u32 = 2;
/// Largest `max_plies`.
pub const MAX_MAX_PLIES: u32 = 1_000_000;

/// The rules a fourshift game is played under (`games.md`, section "fourshift").
///
/// | key | default | range |
/// |---|---|---|
/// | `size` | 6 | 3–26 (the board is `size × size`) |
/// | `k` | 4 | 2–`size` (pieces in a row to win) |
/// | `pieces` | 8 | 1–`size²/2` (rounded down; pieces per player) |
/// | `max_plies` | 120 | 1–1,000,000 (placements count) |
///
/// The fields are private so that every config in existence is in range: build one with
/// [`FourshiftConfig::new`], `Default` or by parsing a spec string.
///
/// ```
/// use rules_fourshift::FourshiftConfig;
/// let c: FourshiftConfig = "fourshift:pieces=6,k=3".parse().unwrap();
/// assert_eq!(c.to_string(), "fourshift:size=6,k=3,pieces=6,max_plies=120");
/// assert!("fourshift:size=5,pieces=13".parse::<FourshiftConfig>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FourshiftConfig {
    size: u32,
    k: u32,
    pieces: u32,
    max_plies: u32,
}

impl Default for FourshiftConfig {
    fn default() -> Self {
        FourshiftConfig {
            size: 6,
            k: 4,
            pieces: 8,
            max_plies: 120,
        }
    }
}

impl FourshiftConfig {
    /// A config, if every value is in its range (the error names the first one that is not).
    pub fn new(size: u32, k: u32, pieces: u32, max_plies: u32) -> Result<Self, SpecError> {
        let (min_size, max_size) = SIZE_RANGE;
        if !(min_size..=max_size).contains(&size) {
            return Err(spec::out_of_range(
                "size",
                size,
                format!("an integer from {min_size} to {max_size}"),
            ));
        }
        if !(MIN_K..=size).contains(&k) {
            return Err(spec::out_of_range(
                "k",
                k,
                format!("an integer from {MIN_K} to {size} (at most size={size})"),
            ));
        }
        let max_pieces = size * size / 2;
        if !(1..=max_pieces).contains(&pieces) {
            return Err(spec::out_of_range(
                "pieces",
                pieces,
                format!("an integer from 1 to {max_pieces} (size²/2 for size={size})"),
            ));
        }
        if !(1..=MAX_MAX_PLIES).contains(&max_plies) {
            return Err(spec::out_of_range(
                "max_plies",
                max_plies,
                format!("an integer from 1 to {MAX_MAX_PLIES}"),
            ));
        }
        Ok(FourshiftConfig {
            size,
            k,
            pieces,
            max_plies,
        })
    }

    /// The side of the (square) board.
    #[inline]
    pub fn size(&self) -> u32 {
        self.size
    }

    /// How many pieces in an unbroken line win.
    #[inline]
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Pieces each player places before the moving phase.
    #[inline]
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// After this many plies (placements included) the game is drawn.
    #[inline]
    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// `size * size`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.size as usize * self.size as usize
    }

    /// The ply at which the moving phase starts (`2 * pieces`), if the game lasts that long.
    #[inline]
    pub fn placing_plies(&self) -> u32 {
        2 * self.pieces
    }
}

impl GameConfig for FourshiftConfig {
    const GAME_ID: &'static str = "fourshift";
}

impl fmt::Display for FourshiftConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:size={},k={},pieces={},max_plies={}",
            Self::GAME_ID,
            self.size,
            self.k,
            self.pieces,
            self.max_plies
        )
    }
}

impl FromStr for FourshiftConfig {
    type Err = SpecError;

    /// Reads `fourshift` or `fourshift:key=value,...` (keys `size`, `k`, `pieces`,
    /// `max_plies`, any order, absent keys take their defaults).
    fn from_str(s: &str) -> Result<Self, SpecError> {
        let spec = GameSpec::parse(s)?;
        spec::expect_id(&spec, Self::GAME_ID)?;
        let d = FourshiftConfig::default();
        let mut r = spec.reader(KEYS);
        let (min_size, max_size) = SIZE_RANGE;
        let size = r.int("size", d.size, min_size, max_size)?;
        let k = r.int("k", d.k, MIN_K, max_size)?;
        let pieces = r.int("pieces", d.pieces, 1, max_size * max_size / 2)?;
        let max_plies = r.int("max_plies", d.max_plies, 1, MAX_MAX_PLIES)?;
        r.finish()?;
        FourshiftConfig::new(size, k, pieces, max_plies)
    }
}
