//! What the "new game" form is built from: every game of the registry, its players'
//! names and every key of its spec string ([`boardlab_games::Game::spec_keys`]) with the
//! range the rules crate accepts.
//!
//! The ranges here are shown and pre-checked by the page; the rules crate's own parser is
//! the authority (the server parses the spec and shows its error), and the tests check
//! that this table and the parsers agree at every bound.

use board_core::{GameSpec, Player};
use boardlab_games::{GameEntry, KeyKind, Registry, SpecKey};
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
    pub kind: KeyKind,
    /// The default value, as the canonical default spec prints it.
    pub default: String,
    /// The allowed values for people ("an integer from 2 to size").
    pub range: &'static str,
}

fn info(entry: &dyn GameEntry) -> GameInfo {
    let start = entry.start_default();
    let defaults = GameSpec::parse(&start.spec())
        .map(|s| s.params)
        .unwrap_or_default();
    let options = entry
        .spec_keys()
        .into_iter()
        .map(|SpecKey { key, kind, range }| OptionInfo {
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
        id: entry.id(),
        players: [
            start.player_name(Player::First),
            start.player_name(Player::Second),
        ],
        options,
    }
}

/// Every game of `registry`, in its order (the bundled games in the order of the games
/// table, [`GameId::ALL`](boardlab_games::GameId::ALL), then a user's own).
pub fn games(registry: &Registry) -> Vec<GameInfo> {
    registry.entries().map(info).collect()
}

#[cfg(test)]
mod tests {
    use boardlab_games::{Game, GameId, with_game};

    use super::*;

    fn accepts(id: &str, key: &str, value: &str) -> bool {
        let spec = format!("{id}:{key}={value}");
        let id: GameId = id.parse().expect("a bundled game");
        with_game!(id, parses(&spec))
    }

    fn parses<P: Game>(spec: &str) -> bool {
        spec.parse::<P::Config>().is_ok()
    }

    #[test]
    fn every_key_of_every_canonical_spec_is_in_the_table_with_its_default() {
        let games = games(&Registry::bundled());
        assert_eq!(games.len(), GameId::ALL.len());
        for g in &games {
            let id: GameId = g.id.parse().expect("a bundled game");
            let canonical = with_game!(id, default_spec());
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

    fn default_spec<P: Game>() -> String {
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
        for g in games(&Registry::bundled()) {
            for o in &g.options {
                let ctx = context(g.id, o.key);
                let ok = |v: String| {
                    let spec = format!("{}:{ctx}{}={v}", g.id, o.key);
                    let id: GameId = g.id.parse().expect("a bundled game");
                    with_game!(id, parses(&spec))
                };
                match &o.kind {
                    KeyKind::Int { min, max, step } => {
                        assert!(ok(min.to_string()), "{} {} min", g.id, o.key);
                        assert!(ok(max.to_string()), "{} {} max", g.id, o.key);
                        assert!(!ok((min - 1).to_string()), "{} {} below", g.id, o.key);
                        assert!(!ok((max + 1).to_string()), "{} {} above", g.id, o.key);
                        if *step > 1 {
                            assert!(!ok((min + 1).to_string()), "{} {} step", g.id, o.key);
                        }
                    }
                    KeyKind::IntOr { min, max, word } => {
                        assert!(ok(min.to_string()) && ok(max.to_string()) && ok(word.to_string()));
                        assert!(!ok((max + 1).to_string()), "{} {} above", g.id, o.key);
                        assert!(!ok("lots".into()), "{} {}", g.id, o.key);
                    }
                    KeyKind::Bool => {
                        assert!(ok("true".into()) && ok("false".into()));
                        assert!(!ok("maybe".into()));
                    }
                    KeyKind::Choice { values } => {
                        for v in values.iter() {
                            assert!(ok(v.to_string()), "{} {} {v}", g.id, o.key);
                        }
                        assert!(!ok("9".into()), "{} {}", g.id, o.key);
                    }
                }
            }
        }
    }
}
