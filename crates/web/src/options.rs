//! The game table the "new game" form is built from: every game, its players' names and
//! every key of its spec string with the range the rules crate accepts.
//!
//! The ranges here are shown and pre-checked by the page; the rules crate's own parser is
//! the authority (the server parses the spec and shows its error), and the tests check
//! that this table and the parsers agree at every bound.

use board_core::{GameConfig, GameSpec, Player};
use engines::EngineGame;
use serde::Serialize;

/// One game in the new-game form.
#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    /// The game id, the part of a spec before `:` (`clamp`).
    pub id: &'static str,
    /// The players' display names (first, second) under the default rules.
    pub players: [&'static str; 2],
    /// Every key of the game's spec, in the order of its canonical spec.
    pub options: Vec<OptionInfo>,
}

/// One key of a game spec.
#[derive(Clone, Debug, Serialize)]
pub struct OptionInfo {
    /// The key as the spec writes it (`size`, `quiet_limit`).
    pub key: &'static str,
    /// The values it takes, for the form's input.
    pub kind: OptionKind,
    /// The default value, as the canonical default spec prints it.
    pub default: String,
    /// The allowed values for people ("an integer from 2 to size").
    pub range: &'static str,
}

/// The kind of value a key takes.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum OptionKind {
    /// An integer from `min` to `max` (the bounds that do not depend on other keys) in
    /// steps of `step`.
    Int {
        /// The smallest value.
        min: u32,
        /// The largest value.
        max: u32,
        /// The step between allowed values from `min` (2 for clamp's even sizes).
        step: u32,
    },
    /// An integer from `min` to `max`, or the one word `word` (clamp's
    /// `supply=N|unlimited`).
    IntOr {
        /// The smallest number.
        min: u32,
        /// The largest number.
        max: u32,
        /// The word accepted instead of a number (`unlimited`).
        word: &'static str,
    },
    /// `true` or `false`.
    Bool,
    /// One word out of a fixed list.
    Choice {
        /// The allowed words, in the order the form lists them.
        values: Vec<&'static str>,
    },
}

fn int(key: &'static str, min: u32, max: u32, step: u32, range: &'static str) -> Key {
    (key, OptionKind::Int { min, max, step }, range)
}

type Key = (&'static str, OptionKind, &'static str);

/// The keys of each game, in the order of its canonical spec.
fn keys(id: &str) -> Vec<Key> {
    match id {
        "fourshift" => vec![
            int("size", 3, 26, 1, "3 to 26"),
            int("k", 2, 26, 1, "2 to size"),
            int("pieces", 1, 338, 1, "1 to size²/2"),
            int("max_plies", 1, 1_000_000, 1, "1 to 1000000"),
            (
                "moving_first",
                OptionKind::Choice {
                    values: vec!["next", "second"],
                },
                "next (alternate) or second (White shifts first)",
            ),
            (
                "centre_opening",
                OptionKind::Bool,
                "true, or false: Black may not open in the centre",
            ),
        ],
        "clamp" => vec![
            int("size", 6, 26, 2, "even, 6 to 26"),
            int("zone", 1, 13, 1, "1 to size/2"),
            int("start", 4, 4, 1, "4 only"),
            int("max_on_board", 4, 676, 1, "4 to size²"),
            int("quiet_limit", 1, 1_000_000, 1, "1 to 1000000"),
            ("adjudicate", OptionKind::Bool, "true or false"),
            (
                "supply",
                OptionKind::IntOr {
                    min: 0,
                    max: 1_000_000,
                    word: "unlimited",
                },
                "0 to 1000000 pieces in hand, or unlimited",
            ),
        ],
        "amazons" => vec![(
            "size",
            OptionKind::Choice {
                values: vec!["10", "8"],
            },
            "10 or 8",
        )],
        "gomoku" => vec![
            int("size", 5, 26, 1, "5 to 26"),
            (
                "rule",
                OptionKind::Choice {
                    values: vec!["freestyle", "exact5"],
                },
                "freestyle (five or more) or exact5",
            ),
        ],
        "connect6" => vec![int("size", 6, 26, 1, "6 to 26")],
        _ => Vec::new(),
    }
}

fn info<P: EngineGame>() -> GameInfo {
    let id = <P::Config as GameConfig>::GAME_ID;
    let default = P::Config::default();
    let start = P::new(default.clone());
    let defaults = GameSpec::parse(&default.to_string())
        .map(|s| s.params)
        .unwrap_or_default();
    let options = keys(id)
        .into_iter()
        .map(|(key, kind, range)| OptionInfo {
            key,
            kind,
            default: defaults
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .unwrap_or_default(),
            range,
        })
        .collect();
    GameInfo {
        id,
        players: [
            start.player_name(Player::First),
            start.player_name(Player::Second),
        ],
        options,
    }
}

/// Every game with players, in the order of [`engines::GAME_IDS`].
pub fn games() -> Vec<GameInfo> {
    engines::GAME_IDS
        .iter()
        .filter_map(|id| engines::with_game!(*id, info()).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepts(id: &str, key: &str, value: &str) -> bool {
        let spec = format!("{id}:{key}={value}");
        engines::with_game!(id, parses(&spec)).unwrap_or(false)
    }

    fn parses<P: EngineGame>(spec: &str) -> bool {
        spec.parse::<P::Config>().is_ok()
    }

    #[test]
    fn every_key_of_every_canonical_spec_is_in_the_table_with_its_default() {
        let games = games();
        assert_eq!(games.len(), engines::GAME_IDS.len());
        for g in &games {
            let canonical =
                engines::with_game!(g.id, default_spec()).unwrap_or_else(|e| panic!("{e}"));
            let params = GameSpec::parse(&canonical).expect("canonical spec").params;
            let keys: Vec<&str> = params.iter().map(|(k, _)| k.as_str()).collect();
            let table: Vec<&str> = g.options.iter().map(|o| o.key).collect();
            assert_eq!(keys, table, "{}", g.id);
            for o in &g.options {
                assert!(!o.default.is_empty(), "{} {}", g.id, o.key);
                assert!(accepts(g.id, o.key, &o.default), "{} {}", g.id, o.key);
            }
        }
    }

    fn default_spec<P: EngineGame>() -> String {
        P::Config::default().to_string()
    }

    #[test]
    fn the_static_bounds_are_the_parsers_bounds() {
        // Keys whose bound depends on another key are checked at the largest board.
        let context = |id: &str, key: &str| -> &'static str {
            match (id, key) {
                ("fourshift", "k" | "pieces") => "size=26,",
                ("fourshift", "size") => "k=2,pieces=1,",
                ("clamp", "zone" | "max_on_board") => "size=26,",
                _ => "",
            }
        };
        for g in games() {
            for o in &g.options {
                let ctx = context(g.id, o.key);
                let ok = |v: String| {
                    let spec = format!("{}:{ctx}{}={v}", g.id, o.key);
                    engines::with_game!(g.id, parses(&spec)).unwrap_or(false)
                };
                match &o.kind {
                    OptionKind::Int { min, max, step } => {
                        assert!(ok(min.to_string()), "{} {} min", g.id, o.key);
                        assert!(ok(max.to_string()), "{} {} max", g.id, o.key);
                        assert!(!ok((min - 1).to_string()), "{} {} below", g.id, o.key);
                        assert!(!ok((max + 1).to_string()), "{} {} above", g.id, o.key);
                        if *step > 1 {
                            assert!(!ok((min + 1).to_string()), "{} {} step", g.id, o.key);
                        }
                    }
                    OptionKind::IntOr { min, max, word } => {
                        assert!(ok(min.to_string()) && ok(max.to_string()) && ok(word.to_string()));
                        assert!(!ok((max + 1).to_string()), "{} {} above", g.id, o.key);
                        assert!(!ok("lots".into()), "{} {}", g.id, o.key);
                    }
                    OptionKind::Bool => {
                        assert!(ok("true".into()) && ok("false".into()));
                        assert!(!ok("maybe".into()));
                    }
                    OptionKind::Choice { values } => {
                        for v in values {
                            assert!(ok(v.to_string()), "{} {} {v}", g.id, o.key);
                        }
                        assert!(!ok("9".into()), "{} {}", g.id, o.key);
                    }
                }
            }
        }
    }
}
