//! Game spec strings: `id` or `id:key=value,key=value` (e.g. `gomoku:size=20,rule=exact5`).
//!
//! [`GameSpec::parse`] splits the string; a game's config then takes its keys one by one
//! through [`SpecReader`], which range-checks each value and finally rejects keys nobody took.
//! Every error names the offending part and what would have been allowed.

use std::{fmt, str::FromStr};

use thiserror::Error;

/// Why a game spec string was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// No game id at all (blank text, or text starting with `:`).
    #[error("empty game spec: expected a game id such as gomoku or gomoku:size=20")]
    Empty,
    /// The id names no game this program knows (or not the game asked for).
    #[error("unknown game '{id}': expected one of {known}")]
    UnknownGame {
        /// The id given (lower-case).
        id: String,
        /// The ids that would have been accepted, comma-separated.
        known: String,
    },
    /// A parameter that is not `key=value` (or a spec longer than 1 KiB).
    #[error("'{part}' in game spec is not key=value")]
    Syntax {
        /// The offending part (shortened to 40 characters).
        part: String,
    },
    /// The same key given twice.
    #[error("key '{key}' is given twice")]
    Duplicate {
        /// The key (lower-case).
        key: String,
    },
    /// A key the game does not have.
    #[error("unknown key '{key}' for {game}: expected one of {allowed}")]
    UnknownKey {
        /// The game id.
        game: String,
        /// The key given.
        key: String,
        /// The game's keys, comma-separated.
        allowed: String,
    },
    /// A key given to a game that has no parameters at all.
    #[error("unknown key '{key}': {game} has no parameters")]
    NoParameters {
        /// The game id.
        game: String,
        /// The key given.
        key: String,
    },
    /// A number outside its range (the range may depend on another key).
    #[error("{key}={value} is out of range: expected {expected}")]
    OutOfRange {
        /// The key.
        key: String,
        /// The value given (at most 24 characters).
        value: String,
        /// The allowed values, for people ("an integer from 5 to 26").
        expected: String,
    },
    /// A value of the wrong kind (a word for a number, an unknown choice).
    #[error("{key}={value} is not valid: expected {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value given (at most 24 characters).
        value: String,
        /// The allowed values, for people ("true or false").
        expected: String,
    },
}

/// A parsed but not yet interpreted game spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game id, lower-case (`gomoku`).
    pub id: String,
    /// The `key=value` parameters in the order given: keys lower-case, values as written
    /// (trimmed); no key twice.
    pub params: Vec<(String, String)>,
}

/// Longest spec string accepted; real ones are a few dozen bytes.
const MAX_SPEC_LEN: usize = 1024;

impl GameSpec {
    /// Splits `id:key=value,...`. Ids and keys are case-insensitive (stored lower-case);
    /// whitespace around every part is ignored.
    pub fn parse(s: &str) -> Result<GameSpec, SpecError> {
        let s = s.trim();
        if s.len() > MAX_SPEC_LEN {
            return Err(SpecError::Syntax {
                part: format!("{}...", truncate(s, 24)),
            });
        }
        let (id, rest) = match s.split_once(':') {
            Some((id, rest)) => (id.trim(), Some(rest)),
            None => (s, None),
        };
        if id.is_empty() {
            return Err(SpecError::Empty);
        }
        let mut params: Vec<(String, String)> = Vec::new();
        for part in rest.into_iter().flat_map(|r| r.split(',')) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (k, v) = part
                .split_once('=')
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
                .filter(|(k, v)| !k.is_empty() && !v.is_empty())
                .ok_or_else(|| SpecError::Syntax {
                    part: truncate(part, 40),
                })?;
            if params.iter().any(|(seen, _)| *seen == k) {
                return Err(SpecError::Duplicate { key: k });
            }
            params.push((k, v));
        }
        Ok(GameSpec {
            id: id.to_ascii_lowercase(),
            params,
        })
    }

    /// A reader that lets a game's config take its keys.
    pub fn reader(&self, allowed: &'static [&'static str]) -> SpecReader<'_> {
        SpecReader {
            spec: self,
            allowed,
            taken: vec![false; self.params.len()],
        }
    }
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

impl FromStr for GameSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<GameSpec, SpecError> {
        GameSpec::parse(s)
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// Takes typed, range-checked values out of a [`GameSpec`].
#[derive(Debug)]
pub struct SpecReader<'a> {
    spec: &'a GameSpec,
    allowed: &'static [&'static str],
    taken: Vec<bool>,
}

impl SpecReader<'_> {
    fn raw(&mut self, key: &str) -> Option<&str> {
        let i = self.spec.params.iter().position(|(k, _)| k == key)?;
        self.taken[i] = true;
        Some(self.spec.params[i].1.as_str())
    }

    /// An integer in `min..=max`, or `default` if the key is absent.
    pub fn int(&mut self, key: &str, default: u32, min: u32, max: u32) -> Result<u32, SpecError> {
        let Some(v) = self.raw(key) else {
            return Ok(default);
        };
        let out_of_range = || SpecError::OutOfRange {
            key: key.to_string(),
            value: truncate(v, 24),
            expected: format!("an integer from {min} to {max}"),
        };
        if !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SpecError::BadValue {
                key: key.to_string(),
                value: truncate(v, 24),
                expected: format!("an integer from {min} to {max}"),
            });
        }
        let n: u32 = v.parse().map_err(|_| out_of_range())?;
        if (min..=max).contains(&n) {
            Ok(n)
        } else {
            Err(out_of_range())
        }
    }

    /// `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`), or `default` if absent.
    pub fn bool(&mut self, key: &str, default: bool) -> Result<bool, SpecError> {
        let Some(v) = self.raw(key) else {
            return Ok(default);
        };
        match v.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Ok(true),
            "false" | "0" | "no" | "off" => Ok(false),
            _ => Err(SpecError::BadValue {
                key: key.to_string(),
                value: truncate(v, 24),
                expected: "true or false".into(),
            }),
        }
    }

    /// One of `choices` (case-insensitive, returned as its index), or `default` if absent.
    pub fn choice(
        &mut self,
        key: &str,
        default: usize,
        choices: &[&str],
    ) -> Result<usize, SpecError> {
        let Some(v) = self.raw(key) else {
            return Ok(default);
        };
        choices
            .iter()
            .position(|c| c.eq_ignore_ascii_case(v))
            .ok_or_else(|| SpecError::BadValue {
                key: key.to_string(),
                value: truncate(v, 24),
                expected: format!("one of {}", choices.join(", ")),
            })
    }

    /// Fails on the first key that no call took.
    pub fn finish(self) -> Result<(), SpecError> {
        match self.taken.iter().position(|t| !t) {
            None => Ok(()),
            Some(i) if self.allowed.is_empty() => Err(SpecError::NoParameters {
                game: self.spec.id.clone(),
                key: self.spec.params[i].0.clone(),
            }),
            Some(i) => Err(SpecError::UnknownKey {
                game: self.spec.id.clone(),
                key: self.spec.params[i].0.clone(),
                allowed: self.allowed.join(", "),
            }),
        }
    }
}

/// An error for a value that is in its own range but conflicts with another key
/// (e.g. `k` larger than `size`).
pub fn out_of_range(key: &str, value: impl fmt::Display, expected: String) -> SpecError {
    SpecError::OutOfRange {
        key: key.into(),
        value: value.to_string(),
        expected,
    }
}

/// Checks that a spec names `expected_id`.
pub fn expect_id(spec: &GameSpec, expected_id: &str) -> Result<(), SpecError> {
    if spec.id == expected_id {
        Ok(())
    } else {
        Err(SpecError::UnknownGame {
            id: spec.id.clone(),
            known: expected_id.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_reads() {
        let spec = GameSpec::parse(" Gomoku : size=20 , RULE=exact5 ").unwrap();
        assert_eq!(spec.id, "gomoku");
        assert_eq!(spec.to_string(), "gomoku:size=20,rule=exact5");
        let mut r = spec.reader(&["size", "rule"]);
        assert_eq!(r.int("size", 15, 5, 26), Ok(20));
        assert_eq!(r.choice("rule", 0, &["freestyle", "exact5"]), Ok(1));
        assert_eq!(r.finish(), Ok(()));
    }

    #[test]
    fn errors_name_the_part() {
        let spec = GameSpec::parse("gomoku:size=40,colour=red").unwrap();
        let mut r = spec.reader(&["size", "rule"]);
        let e = r.int("size", 15, 5, 26).unwrap_err();
        assert_eq!(
            e.to_string(),
            "size=40 is out of range: expected an integer from 5 to 26"
        );
        let e = r.finish().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown key 'colour' for gomoku: expected one of size, rule"
        );
        let spec = GameSpec::parse("gomoku:size=-3").unwrap();
        assert!(matches!(
            spec.reader(&["size"]).int("size", 15, 5, 26),
            Err(SpecError::BadValue { .. })
        ));
        let spec = GameSpec::parse("gomoku:size=99999999999999").unwrap();
        assert!(matches!(
            spec.reader(&["size"]).int("size", 15, 5, 26),
            Err(SpecError::OutOfRange { .. })
        ));
        assert!(matches!(
            GameSpec::parse("gomoku:size"),
            Err(SpecError::Syntax { .. })
        ));
        assert!(matches!(
            GameSpec::parse("gomoku:size=1,size=2"),
            Err(SpecError::Duplicate { .. })
        ));
        assert_eq!(GameSpec::parse(":a=1"), Err(SpecError::Empty));
        assert!(GameSpec::parse(&"x".repeat(5000)).is_err());
    }
}
