//! The rule parameters of gomoku and their spec strings (`gomoku:size=15,rule=freestyle`).

use std::{fmt, str::FromStr};

use board_core::{
    GameConfig, GameSpec, SpecError,
    spec::{expect_id, out_of_range},
};

/// Which lines win.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// A line of five **or more** stones wins.
    #[default]
    Freestyle,
    /// Exactly five stones win; an overline (six or more) does not. A move that makes an
    /// exact five along one line wins even if it also makes an overline along another.
    Exact5,
}

impl Rule {
    /// Both rules, in the order their spec names are listed.
    pub const ALL: [Rule; 2] = [Rule::Freestyle, Rule::Exact5];

    /// The name used in spec strings: `freestyle` or `exact5`.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Exact5 => "exact5",
        }
    }

    /// Whether a run of `len` stones of one colour in one line wins under this rule.
    #[inline]
    pub const fn wins(self, len: u32) -> bool {
        match self {
            Rule::Freestyle => len >= 5,
            Rule::Exact5 => len == 5,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules of one gomoku game: board side (5–26, default 15) and [`Rule`]
/// (default freestyle).
///
/// ```
/// use rules_gomoku::{GomokuConfig, Rule};
/// let c: GomokuConfig = "gomoku:size=20".parse().unwrap();
/// assert_eq!((c.size(), c.rule()), (20, Rule::Freestyle));
/// assert_eq!(c.to_string(), "gomoku:size=20,rule=freestyle");
/// assert_eq!(GomokuConfig::default().to_string(), "gomoku:size=15,rule=freestyle");
/// let err = "gomoku:size=30".parse::<GomokuConfig>().unwrap_err();
/// assert_eq!(err.to_string(), "size=30 is out of range: expected an integer from 5 to 26");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GomokuConfig {
    size: u8,
    rule: Rule,
}

impl GomokuConfig {
    /// Smallest board side.
    pub const MIN_SIZE: u32 = 5;
    /// Largest board side.
    pub const MAX_SIZE: u32 = 26;
    /// Default board side.
    pub const DEFAULT_SIZE: u32 = 15;
    /// The spec keys, in the order `Display` prints them.
    pub const KEYS: [&'static str; 2] = ["size", "rule"];

    /// A config for a `size × size` board, or an error naming the allowed range.
    pub fn new(size: u32, rule: Rule) -> Result<GomokuConfig, SpecError> {
        if !(Self::MIN_SIZE..=Self::MAX_SIZE).contains(&size) {
            return Err(out_of_range(
                "size",
                size,
                format!("an integer from {} to {}", Self::MIN_SIZE, Self::MAX_SIZE),
            ));
        }
        Ok(GomokuConfig {
            size: size as u8,
            rule,
        })
    }

    /// Board side (the board is `size × size`).
    #[inline]
    pub const fn size(&self) -> u32 {
        self.size as u32
    }

    /// Which lines win.
    #[inline]
    pub const fn rule(&self) -> Rule {
        self.rule
    }
}

impl Default for GomokuConfig {
    fn default() -> Self {
        GomokuConfig {
            size: Self::DEFAULT_SIZE as u8,
            rule: Rule::Freestyle,
        }
    }
}

impl GameConfig for GomokuConfig {
    const GAME_ID: &'static str = "gomoku";

    /// Reads `gomoku`, `gomoku:size=20`, `gomoku:rule=exact5,size=19`, … (keys in any order,
    /// case-insensitive; absent keys take their defaults).
    fn from_spec(spec: &GameSpec) -> Result<GomokuConfig, SpecError> {
        expect_id(spec, Self::GAME_ID)?;
        let mut reader = spec.reader(&Self::KEYS);
        let size = reader.int("size", Self::DEFAULT_SIZE, Self::MIN_SIZE, Self::MAX_SIZE)?;
        let names = Rule::ALL.map(Rule::name);
        let rule = Rule::ALL[reader.choice("rule", 0, &names)?];
        reader.finish()?;
        GomokuConfig::new(size, rule)
    }
}

impl fmt::Display for GomokuConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:size={},rule={}", Self::GAME_ID, self.size, self.rule)
    }
}

impl FromStr for GomokuConfig {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<GomokuConfig, SpecError> {
        Self::parse_spec(s)
    }
}
