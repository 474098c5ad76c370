//! The rule parameters of amazons: only the board size (10, or 8 for the small variant).

use std::{fmt, str::FromStr};

use board_core::{
    GameConfig, GameSpec, Player, SpecError,
    spec::{expect_id, out_of_range},
};

/// The board sizes amazons is played on, as the error message names them.
const SIZES: &str = "8 or 10";

/// The rules of an amazons game: `amazons:size=10` (default) or `amazons:size=8`.
///
/// ```
/// use rules_amazons::AmazonsConfig;
/// let c: AmazonsConfig = "amazons:size=8".parse().unwrap();
/// assert_eq!(c.size(), 8);
/// assert_eq!(c.to_string(), "amazons:size=8");
/// assert_eq!(AmazonsConfig::default().to_string(), "amazons:size=10");
/// let e = "amazons:size=9".parse::<AmazonsConfig>().unwrap_err();
/// assert_eq!(e.to_string(), "size=9 is out of range: expected 8 or 10");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AmazonsConfig {
    size: u8,
}

impl AmazonsConfig {
    /// The standard 10×10 game (White moves first).
    pub const STANDARD: AmazonsConfig = AmazonsConfig { size: 10 };
    /// The 8×8 variant of the course bot platforms (Black moves first).
    pub const SMALL: AmazonsConfig = AmazonsConfig { size: 8 };

    /// The config for a `size × size` board: 10 or 8.
    pub fn new(size: u32) -> Result<AmazonsConfig, SpecError> {
        match size {
            8 => Ok(AmazonsConfig::SMALL),
            10 => Ok(AmazonsConfig::STANDARD),
            other => Err(out_of_range("size", other, SIZES.into())),
        }
    }

    /// The side of the board (10 or 8).
    #[inline]
    pub fn size(&self) -> u32 {
        self.size as u32
    }

    /// Display name of a player: on 10×10 `First` is White, on 8×8 `First` is Black.
    pub fn player_name(&self, player: Player) -> &'static str {
        if player == self.white() {
            "White"
        } else {
            "Black"
        }
    }

    /// The player who plays White (`First` on 10×10, `Second` on 8×8).
    #[inline]
    pub fn white(&self) -> Player {
        if self.size == 8 {
            Player::Second
        } else {
            Player::First
        }
    }

    /// The player who plays Black.
    #[inline]
    pub fn black(&self) -> Player {
        self.white().other()
    }
}

impl Default for AmazonsConfig {
    fn default() -> AmazonsConfig {
        AmazonsConfig::STANDARD
    }
}

impl GameConfig for AmazonsConfig {
    const GAME_ID: &'static str = "amazons";

    fn from_spec(spec: &GameSpec) -> Result<AmazonsConfig, SpecError> {
        expect_id(spec, Self::GAME_ID)?;
        let mut reader = spec.reader(&["size"]);
        // The generic range check would say "from 8 to 10"; name the two real sizes instead.
        let size = reader.int("size", 10, 8, 10).map_err(|e| match e {
            SpecError::OutOfRange { key, value, .. } => SpecError::OutOfRange {
                key,
                value,
                expected: SIZES.into(),
            },
            SpecError::BadValue { key, value, .. } => SpecError::BadValue {
                key,
                value,
                expected: SIZES.into(),
            },
            other => other,
        })?;
        reader.finish()?;
        AmazonsConfig::new(size)
    }
}

impl fmt::Display for AmazonsConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:size={}", Self::GAME_ID, self.size)
    }
}

impl FromStr for AmazonsConfig {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<AmazonsConfig, SpecError> {
        Self::parse_spec(s)
    }
}
