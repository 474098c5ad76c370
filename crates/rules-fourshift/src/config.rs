//! The rule parameters of fourshift and their game spec string.

use std::{fmt, str::FromStr};

use board_core::{GameConfig, GameSpec, SpecError, spec};

/// The spec keys, in the order [`FourshiftConfig`]'s `Display` prints them.
pub const KEYS: &[&str] = &[
    "size",
    "k",
    "pieces",
    "max_plies",
    "moving_first",
    "centre_opening",
];

/// Smallest and largest board side.
pub const SIZE_RANGE: (u32, u32) = (3, 26);
/// Smallest `k`; the largest is the board size.
pub const MIN_K: u32 = 2;
/// Largest `max_plies`.
pub const MAX_MAX_PLIES: u32 = 1_000_000;

/// Who makes the first shift of the moving phase (`moving_first`, a balance variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MovingFirst {
    /// Strict alternation: the player after the last placer (Black, since White always
    /// places last) shifts first.
    #[default]
    Next,
    /// White shifts first, right after its own last placement: White moves twice in a row.
    Second,
}

impl MovingFirst {
    /// The spec values, in the order of the variants.
    pub const NAMES: [&'static str; 2] = ["next", "second"];

    /// The spec value (`next` or `second`).
    pub const fn name(self) -> &'static str {
        match self {
            MovingFirst::Next => "next",
            MovingFirst::Second => "second",
        }
    }
}

impl fmt::Display for MovingFirst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules a fourshift game is played under (`games.md`, section "fourshift").
///
/// | key | default | range |
/// |---|---|---|
/// | `size` | 6 | 3–26 (the board is `size × size`) |
/// | `k` | 4 | 2–`size` (pieces in a row to win) |
/// | `pieces` | 8 | 1–`size²/2` (rounded down; pieces per player) |
/// | `max_plies` | 120 | 1–1,000,000 (placements count) |
/// | `moving_first` | `next` | `next` or `second` (who makes the first shift) |
/// | `centre_opening` | `true` | `true` or `false` (may Black's first placement be on a centre square) |
///
/// The fields are private so that every config in existence is in range: build one with
/// [`FourshiftConfig::new`] (and [`FourshiftConfig::with_moving_first`],
/// [`FourshiftConfig::with_centre_opening`] for the balance variants), `Default` or by
/// parsing a spec string.
///
/// ```
/// use rules_fourshift::{FourshiftConfig, MovingFirst};
/// let c: FourshiftConfig = "fourshift:pieces=6,k=3".parse().unwrap();
/// assert_eq!(
///     c.to_string(),
///     "fourshift:size=6,k=3,pieces=6,max_plies=120,moving_first=next,centre_opening=true"
/// );
/// assert!("fourshift:size=5,pieces=13".parse::<FourshiftConfig>().is_err());
/// let v: FourshiftConfig = "fourshift:moving_first=second,centre_opening=false".parse().unwrap();
/// assert_eq!((v.moving_first(), v.centre_opening()), (MovingFirst::Second, false));
/// let e = "fourshift:moving_first=first".parse::<FourshiftConfig>().unwrap_err();
/// assert_eq!(e.to_string(), "moving_first=first is not valid: expected one of next, second");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FourshiftConfig {
    size: u32,
    k: u32,
    pieces: u32,
    max_plies: u32,
    moving_first: MovingFirst,
    centre_opening: bool,
}

impl Default for FourshiftConfig {
    fn default() -> Self {
        FourshiftConfig {
            size: 6,
            k: 4,
            pieces: 8,
            max_plies: 120,
            moving_first: MovingFirst::Next,
            centre_opening: true,
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
            moving_first: MovingFirst::Next,
            centre_opening: true,
        })
    }

    /// This config with `moving_first` set (every value is in range).
    #[must_use]
    pub fn with_moving_first(mut self, moving_first: MovingFirst) -> Self {
        self.moving_first = moving_first;
        self
    }

    /// This config with `centre_opening` set (every value is in range).
    #[must_use]
    pub fn with_centre_opening(mut self, centre_opening: bool) -> Self {
        self.centre_opening = centre_opening;
        self
    }

    /// Who makes the first shift of the moving phase.
    #[inline]
    pub fn moving_first(&self) -> MovingFirst {
        self.moving_first
    }

    /// Whether Black's first placement may be on a centre square.
    #[inline]
    pub fn centre_opening(&self) -> bool {
        self.centre_opening
    }

    /// Whether `(col, row)` (0-based) is a centre square: the middle 2×2 on an even board
    /// (`c3 d3 c4 d4` on 6×6), the middle square on an odd one.
    #[inline]
    pub fn is_centre(&self, col: u32, row: u32) -> bool {
        let (lo, hi) = self.centre_span();
        (lo..=hi).contains(&col) && (lo..=hi).contains(&row)
    }

    /// The first and last column (and row) of the centre squares, 0-based.
    #[inline]
    pub fn centre_span(&self) -> (u32, u32) {
        let s = self.size;
        if s.is_multiple_of(2) {
            (s / 2 - 1, s / 2)
        } else {
            (s / 2, s / 2)
        }
    }

    /// The player who makes move number `ply` (0-based) of a game under these rules: Black
    /// on even plies while placing (plies `0..2 × pieces`); in the moving phase Black on even
    /// plies under `moving_first=next`, White on even plies under `moving_first=second`.
    #[inline]
    pub fn mover_at(&self, ply: u32) -> board_core::Player {
        let white_on_even = self.moving_first == MovingFirst::Second && ply >= self.placing_plies();
        if ply.is_multiple_of(2) != white_on_even {
            board_core::Player::First
        } else {
            board_core::Player::Second
        }
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

    /// Reads `fourshift` or `fourshift:key=value,...` (keys `size`, `k`, `pieces`,
    /// `max_plies`, `moving_first`, `centre_opening`, any order, absent keys take their
    /// defaults).
    fn from_spec(spec: &GameSpec) -> Result<FourshiftConfig, SpecError> {
        spec::expect_id(spec, Self::GAME_ID)?;
        let d = FourshiftConfig::default();
        let mut r = spec.reader(KEYS);
        let (min_size, max_size) = SIZE_RANGE;
        let size = r.int("size", d.size, min_size, max_size)?;
        let k = r.int("k", d.k, MIN_K, max_size)?;
        let pieces = r.int("pieces", d.pieces, 1, max_size * max_size / 2)?;
        let max_plies = r.int("max_plies", d.max_plies, 1, MAX_MAX_PLIES)?;
        let moving_first = match r.choice("moving_first", 0, &MovingFirst::NAMES)? {
            0 => MovingFirst::Next,
            _ => MovingFirst::Second,
        };
        let centre_opening = r.bool("centre_opening", d.centre_opening)?;
        r.finish()?;
        Ok(FourshiftConfig::new(size, k, pieces, max_plies)?
            .with_moving_first(moving_first)
            .with_centre_opening(centre_opening))
    }
}

impl fmt::Display for FourshiftConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:size={},k={},pieces={},max_plies={},moving_first={},centre_opening={}",
            Self::GAME_ID,
            self.size,
            self.k,
            self.pieces,
            self.max_plies,
            self.moving_first,
            self.centre_opening
        )
    }
}

impl FromStr for FourshiftConfig {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<FourshiftConfig, SpecError> {
        Self::parse_spec(s)
    }
}
