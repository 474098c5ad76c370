//! The rule parameters of connect6 and their game spec string (`connect6:size=19`).

use std::{fmt, str::FromStr};

use board_core::{
    GameConfig, GameSpec, SpecError,
    spec::{expect_id, out_of_range},
};

/// The rule parameters of connect6: only the board size.
///
/// `Display` prints the canonical spec string with every key (`connect6:size=19`) and
/// `FromStr` reads any spec string for connect6, so the two round-trip.
///
/// ```
/// use rules_connect6::Connect6Config;
/// let c: Connect6Config = "Connect6 : SIZE = 13".parse().unwrap();
/// assert_eq!(c.size(), 13);
/// assert_eq!(c.to_string(), "connect6:size=13");
/// assert_eq!(Connect6Config::default().to_string(), "connect6:size=19");
/// let e = "connect6:size=5".parse::<Connect6Config>().unwrap_err();
/// assert_eq!(e.to_string(), "size=5 is out of range: expected an integer from 6 to 26");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Connect6Config {
    size: u8,
}

impl Connect6Config {
    /// The default board side (19×19).
    pub const DEFAULT_SIZE: u32 = 19;
    /// The smallest board side allowed.
    pub const MIN_SIZE: u32 = 6;
    /// The largest board side allowed.
    pub const MAX_SIZE: u32 = 26;
    /// Every key of the spec string, in the order `Display` prints them.
    pub const KEYS: [&'static str; 1] = ["size"];

    /// A `size × size` board; `size` must be 6–26.
    pub fn new(size: u32) -> Result<Connect6Config, SpecError> {
        if (Self::MIN_SIZE..=Self::MAX_SIZE).contains(&size) {
            Ok(Connect6Config { size: size as u8 })
        } else {
            Err(out_of_range(
                "size",
                size,
                format!("an integer from {} to {}", Self::MIN_SIZE, Self::MAX_SIZE),
            ))
        }
    }

    /// The board side.
    #[inline]
    pub fn size(&self) -> u32 {
        self.size as u32
    }

    /// The number of cells, `size²`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.size as usize * self.size as usize
    }
}

impl Default for Connect6Config {
    fn default() -> Self {
        Connect6Config {
            size: Self::DEFAULT_SIZE as u8,
        }
    }
}

impl GameConfig for Connect6Config {
    const GAME_ID: &'static str = "connect6";

    fn from_spec(spec: &GameSpec) -> Result<Connect6Config, SpecError> {
        expect_id(spec, Self::GAME_ID)?;
        let mut reader = spec.reader(&Self::KEYS);
        let size = reader.int("size", Self::DEFAULT_SIZE, Self::MIN_SIZE, Self::MAX_SIZE)?;
        reader.finish()?;
        Connect6Config::new(size)
    }
}

impl fmt::Display for Connect6Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:size={}", Self::GAME_ID, self.size)
    }
}

impl FromStr for Connect6Config {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Connect6Config, SpecError> {
        Self::parse_spec(s)
    }
}
