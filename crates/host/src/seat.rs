//! Who holds a seat: a person by a secret [`Token`], or the server's engine at a
//! [`Level`]; and the seat names of the protocols (`first`/`second`).

use std::fmt;
use std::time::Duration;

use board_core::Player;
use rand::{TryRngCore, rngs::OsRng};
use search::{AgentKind, Limits};

use crate::limits::{DEFAULT_ENGINE_MS, ENGINE_MS};

/// A seat's secret: 128 bits from the operating system's CSPRNG, as 32 hex digits.
/// Compared in constant time ([`Token::matches`]); its `Debug` form hides it, so a log
/// line never leaks one.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A new token; an error if the operating system gives no randomness.
    pub fn generate() -> Result<Token, String> {
        let mut bytes = [0u8; 16];
        OsRng
            .try_fill_bytes(&mut bytes)
            .map_err(|e| format!("cannot draw a token: {e}"))?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// A token read back from a save file.
    pub fn from_saved(text: &str) -> Token {
        Token(text.to_string())
    }

    /// The token's text (for its holder, and the save file).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `text` is this token, in time that depends only on the lengths.
    pub fn matches(&self, text: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), text.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let diff = a
            .iter()
            .zip(b)
            .fold(0u8, |acc, (x, y)| acc | std::hint::black_box(x ^ y));
        diff == 0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

/// Who plays an engine seat: the engine at some strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The seeded random player.
    Random,
    /// The source article's fixed-depth AI.
    Baseline,
    /// The strong engine, thinking this many milliseconds per move.
    Engine(u64),
}

impl Level {
    /// The word in the save file's `# engine SEAT WORD` record: `random`, `baseline`, or
    /// the think time in milliseconds.
    pub fn word(self) -> String {
        match self {
            Level::Random => "random".into(),
            Level::Baseline => "baseline".into(),
            Level::Engine(ms) => ms.to_string(),
        }
    }

    /// Reads [`Level::word`]; think times outside [`ENGINE_MS`] are refused.
    pub fn from_word(w: &str) -> Option<Level> {
        match w {
            "random" => Some(Level::Random),
            "baseline" => Some(Level::Baseline),
            ms => ms
                .parse()
                .ok()
                .filter(|ms| ENGINE_MS.contains(ms))
                .map(Level::Engine),
        }
    }

    /// For people: "engine 1000 ms", "article baseline", "random player".
    pub fn label(self) -> String {
        match self {
            Level::Random => "random player".into(),
            Level::Baseline => "article baseline".into(),
            Level::Engine(ms) => format!("engine {ms} ms"),
        }
    }

    /// The player this level plays as, and the limits it thinks under: the random player
    /// and the baseline unlimited (each stops by itself), the engine for its think time.
    /// Every door (the TCP server, the browser board) builds its engine seat from this one
    /// mapping, so a level means the same player wherever a person meets it.
    pub fn player(self) -> (AgentKind, Limits) {
        match self {
            Level::Random => (AgentKind::Random, Limits::new()),
            Level::Baseline => (AgentKind::Baseline, Limits::new()),
            Level::Engine(ms) => (
                AgentKind::Engine,
                Limits::new().with_move_time(Duration::from_millis(ms)),
            ),
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::Engine(DEFAULT_ENGINE_MS)
    }
}

/// Who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Nobody yet: nobody can move for it.
    Free,
    /// A person, by the secret token.
    Person(Token),
    /// The server's engine.
    Engine(Level),
}

impl Seat {
    /// Whether a person holds this seat.
    pub fn is_person(&self) -> bool {
        matches!(self, Seat::Person(_))
    }

    /// Whether `text` is this seat's token.
    pub fn token_matches(&self, text: &str) -> bool {
        matches!(self, Seat::Person(t) if t.matches(text))
    }
}

/// The protocols' name of a seat.
pub fn seat_name(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

/// The seat a protocol word names (`first`/`1`, `second`/`2`, any case).
pub fn seat_of(s: &str) -> Option<Player> {
    match s.to_ascii_lowercase().as_str() {
        "first" | "1" => Some(Player::First),
        "second" | "2" => Some(Player::Second),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_is_its_player_under_its_limits() {
        let (kind, limits) = Level::Random.player();
        assert_eq!(kind, AgentKind::Random);
        assert_eq!((limits.depth(), limits.soft_time()), (None, None));
        let (kind, limits) = Level::Baseline.player();
        assert_eq!(kind, AgentKind::Baseline);
        assert_eq!((limits.depth(), limits.soft_time()), (None, None));
        let (kind, limits) = Level::Engine(750).player();
        assert_eq!(kind, AgentKind::Engine);
        assert_eq!(limits.soft_time(), Some(Duration::from_millis(750)));
        assert_eq!(limits.hard_time(), Some(Duration::from_millis(750)));
    }

    #[test]
    fn tokens_are_fresh_and_match_only_themselves() {
        let t = Token::generate().expect("randomness");
        assert_eq!(t.as_str().len(), 32);
        assert!(t.matches(t.as_str()));
        assert!(!t.matches(&t.as_str()[..31]));
        assert!(!t.matches(&format!("{}0", t.as_str())));
        assert!(!t.matches(&"0".repeat(32)));
        assert_ne!(t, Token::generate().expect("randomness"));
        assert_eq!(format!("{t:?}"), "Token(..)", "never logged");
    }

    #[test]
    fn levels_round_trip_through_their_save_file_word() {
        for l in [Level::Random, Level::Baseline, Level::Engine(100)] {
            assert_eq!(Level::from_word(&l.word()), Some(l));
        }
        assert_eq!(Level::from_word("99999999"), None);
        assert_eq!(Level::from_word("5"), None);
        assert_eq!(seat_of("SECOND"), Some(Player::Second));
        assert_eq!(seat_of("third"), None);
    }
}
