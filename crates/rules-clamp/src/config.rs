//! The rule parameters of clamp and their spec string.

use std::{fmt, str::FromStr};

use board_core::{
    GameConfig, GameSpec, SpecError,
    spec::{expect_id, out_of_range},
};

/// The keys of a clamp spec string, in the order `Display` prints them.
pub const KEYS: [&str; 7] = [
    "size",
    "zone",
    "start",
    "max_on_board",
    "quiet_limit",
    "adjudicate",
    "supply",
];

/// The largest finite `supply`.
pub const MAX_SUPPLY: u32 = 1_000_000;

/// What a `supply` value may be, for error messages.
const SUPPLY_RANGE: &str = "an integer from 0 to 1000000, or unlimited";

/// The rules of a clamp game:
/// `clamp:size=8,zone=3,start=4,max_on_board=10,quiet_limit=80,adjudicate=false,supply=unlimited`
/// by default.
///
/// The fields are private so that every value is in range: build one from a spec string
/// (`"clamp:size=6,quiet_limit=20".parse()`), with [`ClampConfig::new`], or take the
/// [`Default`].
///
/// | key | default | range |
/// |---|---|---|
/// | `size` | 8 | even, 6–26 (the board is `size × size`) |
/// | `zone` | 3 | 1–`size/2` rows in each drop zone |
/// | `start` | 4 | 4 only (pieces each at the start) |
/// | `max_on_board` | 10 | 4–`size²`: no drop while a player has this many pieces on the board |
/// | `quiet_limit` | 80 | 1–1,000,000 half-moves without a capture end the game |
/// | `adjudicate` | false | at the quiet limit, more pieces wins instead of a draw (equal counts: more pieces on the centre 4×4 block wins; equal again: draw) |
/// | `supply` | `unlimited` | 0–1,000,000 or `unlimited`: pieces each player has in hand to drop, beside the `start` pieces |
///
/// ```
/// use rules_clamp::ClampConfig;
/// let c: ClampConfig = "clamp:size=6, Quiet_Limit=20".parse().unwrap();
/// assert_eq!(c.size(), 6);
/// assert_eq!(
///     c.to_string(),
///     "clamp:size=6,zone=3,start=4,max_on_board=10,quiet_limit=20,adjudicate=false,supply=unlimited"
/// );
/// let e = "clamp:size=6,zone=4".parse::<ClampConfig>().unwrap_err();
/// assert_eq!(e.to_string(), "zone=4 is out of range: expected an integer from 1 to 3 (size/2)");
/// let s: ClampConfig = "clamp:supply=12,adjudicate=true".parse().unwrap();
/// assert_eq!(s.supply(), Some(12));
/// let e = "clamp:supply=lots".parse::<ClampConfig>().unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "supply=lots is not valid: expected an integer from 0 to 1000000, or unlimited"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClampConfig {
    size: u8,
    zone: u8,
    max_on_board: u16,
    quiet_limit: u32,
    adjudicate: bool,
    /// Pieces in hand at the start, per player; `None` for unlimited.
    supply: Option<u32>,
}

impl ClampConfig {
    /// The only supported number of pieces each player starts with.
    pub const START: u32 = 4;

    /// A config from its values, range-checked as a spec string would be.
    pub fn new(
        size: u32,
        zone: u32,
        max_on_board: u32,
        quiet_limit: u32,
        adjudicate: bool,
    ) -> Result<ClampConfig, SpecError> {
        if !(6..=26).contains(&size) || !size.is_multiple_of(2) {
            return Err(out_of_range(
                "size",
                size,
                "an even integer from 6 to 26".into(),
            ));
        }
        if !(1..=size / 2).contains(&zone) {
            return Err(out_of_range(
                "zone",
                zone,
                format!("an integer from 1 to {} (size/2)", size / 2),
            ));
        }
        if !(4..=size * size).contains(&max_on_board) {
            return Err(out_of_range(
                "max_on_board",
                max_on_board,
                format!("an integer from 4 to {} (size²)", size * size),
            ));
        }
        if !(1..=1_000_000).contains(&quiet_limit) {
            return Err(out_of_range(
                "quiet_limit",
                quiet_limit,
                "an integer from 1 to 1000000".into(),
            ));
        }
        Ok(ClampConfig {
            size: size as u8,
            zone: zone as u8,
            max_on_board: max_on_board as u16,
            quiet_limit,
            adjudicate,
            supply: None,
        })
    }

    /// This config with `supply` pieces in hand for each player (`None`: unlimited), if the
    /// value is in range (0–1,000,000).
    pub fn with_supply(mut self, supply: Option<u32>) -> Result<ClampConfig, SpecError> {
        if let Some(n) = supply
            && n > MAX_SUPPLY
        {
            return Err(out_of_range("supply", n, SUPPLY_RANGE.into()));
        }
        self.supply = supply;
        Ok(self)
    }

    /// Pieces each player has in hand at the start (`None`: unlimited drops).
    pub fn supply(&self) -> Option<u32> {
        self.supply
    }

    /// The first and last column (and row), 0-based, of the centre block that breaks a tie
    /// of piece counts at the quiet limit under `adjudicate=true`: the middle 4×4,
    /// `size/2-2` to `size/2+1` (`c3`–`f6` on 8×8, `b2`–`e5` on 6×6).
    pub fn centre_span(&self) -> (u32, u32) {
        let half = self.size() / 2;
        (half - 2, half + 1)
    }

    /// Board side (the board is `size × size`).
    pub fn size(&self) -> u32 {
        self.size as u32
    }

    /// Rows in each player's drop zone.
    pub fn zone(&self) -> u32 {
        self.zone as u32
    }

    /// Pieces each player starts with (always 4).
    pub fn start(&self) -> u32 {
        Self::START
    }

    /// A player may drop only while they have fewer pieces than this on the board.
    pub fn max_on_board(&self) -> u32 {
        self.max_on_board as u32
    }

    /// Half-moves without a capture that end the game.
    pub fn quiet_limit(&self) -> u32 {
        self.quiet_limit
    }

    /// Whether the quiet limit is decided by piece count instead of being a draw.
    pub fn adjudicate(&self) -> bool {
        self.adjudicate
    }
}

impl Default for ClampConfig {
    fn default() -> ClampConfig {
        ClampConfig {
            size: 8,
            zone: 3,
            max_on_board: 10,
            quiet_limit: 80,
            adjudicate: false,
            supply: None,
        }
    }
}

impl GameConfig for ClampConfig {
    const GAME_ID: &'static str = "clamp";

    /// Reads `clamp` or `clamp:key=value,...`; absent keys take their defaults. Errors name
    /// the key and its allowed range (which for `zone` and `max_on_board` depends on `size`).
    fn from_spec(spec: &GameSpec) -> Result<ClampConfig, SpecError> {
        expect_id(spec, Self::GAME_ID)?;
        let d = ClampConfig::default();
        let mut r = spec.reader(&KEYS);
        let size = r.int("size", d.size(), 6, 26)?;
        if !size.is_multiple_of(2) {
            return Err(out_of_range(
                "size",
                size,
                "an even integer from 6 to 26".into(),
            ));
        }
        let zone = r.int("zone", d.zone(), 1, 26)?;
        if zone > size / 2 {
            return Err(out_of_range(
                "zone",
                zone,
                format!("an integer from 1 to {} (size/2)", size / 2),
            ));
        }
        let start = r.int("start", Self::START, 0, 1_000_000)?;
        if start != Self::START {
            return Err(out_of_range(
                "start",
                start,
                "4 (the only supported value)".into(),
            ));
        }
        let max_on_board = r.int("max_on_board", d.max_on_board(), 4, 26 * 26)?;
        if max_on_board > size * size {
            return Err(out_of_range(
                "max_on_board",
                max_on_board,
                format!("an integer from 4 to {} (size²)", size * size),
            ));
        }
        let quiet_limit = r.int("quiet_limit", d.quiet_limit(), 1, 1_000_000)?;
        let adjudicate = r.bool("adjudicate", d.adjudicate())?;
        let unlimited = spec
            .params
            .iter()
            .any(|(k, v)| k == "supply" && v.eq_ignore_ascii_case("unlimited"));
        let supply = if unlimited {
            r.choice("supply", 0, &["unlimited"])?;
            None
        } else if spec.params.iter().any(|(k, _)| k == "supply") {
            let n = r.int("supply", 0, 0, MAX_SUPPLY).map_err(|e| match e {
                SpecError::OutOfRange { key, value, .. } => SpecError::OutOfRange {
                    key,
                    value,
                    expected: SUPPLY_RANGE.into(),
                },
                SpecError::BadValue { key, value, .. } => SpecError::BadValue {
                    key,
                    value,
                    expected: SUPPLY_RANGE.into(),
                },
                other => other,
            })?;
            Some(n)
        } else {
            d.supply()
        };
        r.finish()?;
        ClampConfig::new(size, zone, max_on_board, quiet_limit, adjudicate)?.with_supply(supply)
    }
}

impl fmt::Display for ClampConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "clamp:size={},zone={},start={},max_on_board={},quiet_limit={},adjudicate={},supply=",
            self.size,
            self.zone,
            Self::START,
            self.max_on_board,
            self.quiet_limit,
            self.adjudicate
        )?;
        match self.supply {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("unlimited"),
        }
    }
}

impl FromStr for ClampConfig {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<ClampConfig, SpecError> {
        Self::parse_spec(s)
    }
}
