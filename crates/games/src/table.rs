//! The table: one entry per bundled game. [`GameId`], its [`GameId::ALL`], the position type
//! aliases and the [`with_game!`](crate::with_game) arms are all generated from the list in
//! the `bundled_games!` call below; each game's [`Game`] impl follows it.

use board_core::{Outcome, Player, Position, Rules};
use engines::EngineGame;
use search::{Agent, OptionsError, SearchOptions};

use crate::{Game, KeyKind, SpecKey};

/// Generates the id enum, the type aliases and `with_game!` from the table. `$d` is a `$`
/// token passed in so the generated macro can have metavariables of its own.
macro_rules! bundled_games {
    ($d:tt $( $(#[$doc:meta])* $variant:ident = $id:literal, $rules:ty; )*) => {
        /// A bundled game.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameId {
            $( $(#[$doc])* $variant, )*
        }

        impl GameId {
            /// Every bundled game, in the table's order.
            pub const ALL: &'static [GameId] = &[$(GameId::$variant),*];

            /// The id game specs start with (`gomoku` in `gomoku:size=20`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(GameId::$variant => $id,)*
                }
            }
        }

        $(
            $(#[$doc])*
            pub type $variant = $rules;
        )*

        /// `with_game!(id, f(args...))` calls the generic `f::<G>(args...)` with `G` the
        /// position type ([`Game`](crate::Game)) of the bundled game `id` (a
        /// [`GameId`](crate::GameId)) and gives its result.
        ///
        /// ```
        /// use boardlab_games::{Game, GameId, with_game};
        /// fn title<G: Game>() -> &'static str {
        ///     G::TITLE
        /// }
        /// assert_eq!(with_game!(GameId::Connect6, title()), "Connect6");
        /// ```
        #[macro_export]
        macro_rules! with_game {
            ($d game:expr, $d f:ident ( $d($d arg:expr),* $d(,)? )) => {
                match $d game {
                    $( $crate::GameId::$variant => $d f::<$crate::$variant>($d($d arg),*), )*
                }
            };
        }
    };
}

bundled_games! {$
    /// Fourshift: place, then shift, to make k in a row.
    Fourshift = "fourshift", rules_fourshift::Fourshift;
    /// Clamp: custodian captures with drops from hand.
    Clamp = "clamp", rules_clamp::ClampPosition;
    /// The Game of the Amazons.
    Amazons = "amazons", rules_amazons::AmazonsPosition;
    /// Gomoku: five in a row.
    Gomoku = "gomoku", rules_gomoku::GomokuPosition;
    /// Connect6: six in a row, two stones a turn.
    Connect6 = "connect6", rules_connect6::Connect6Position;
}

/// The items every bundled game takes from its `engines` module: the bench positions and
/// depth, and the engine and baseline players of its [`EngineGame`] impl.
macro_rules! engine_players {
    ($module:ident) => {
        const BENCH_POSITIONS: &'static [(&'static str, &'static str)] =
            engines::$module::BENCH_POSITIONS;
        const BENCH_DEPTH: u32 = engines::$module::BENCH_DEPTH;

        fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Self>>, OptionsError> {
            <Self as EngineGame>::engine(options)
        }

        fn baseline() -> Result<Box<dyn Agent<Self>>, OptionsError> {
            <Self as EngineGame>::baseline()
        }
    };
}

impl Game for Fourshift {
    const TITLE: &'static str = "Fourshift";
    const SAMPLE_SPECS: &'static [&'static str] = &[
        "fourshift",
        "fourshift:size=4,k=3,pieces=3,max_plies=40",
        "fourshift:size=5,pieces=12",
    ];
    engine_players!(fourshift);

    /// Whether a win came during the placing phase (the last placement included).
    fn balance_stats(
        config: &Self::Config,
        moves: &[Self::Move],
        outcome: Outcome,
    ) -> Vec<(&'static str, f64)> {
        let placing = moves.len() as u32 <= config.placing_plies();
        let decided = matches!(outcome, Outcome::Win(_)) && placing;
        vec![("decided_in_placing", f64::from(u8::from(decided)))]
    }

    fn spec_keys() -> Vec<SpecKey> {
        vec![
            SpecKey::int("size", 3, 26, 1, "3 to 26"),
            SpecKey::int("k", 2, 26, 1, "2 to size"),
            SpecKey::int("pieces", 1, 338, 1, "1 to size²/2"),
            SpecKey::int("max_plies", 1, 1_000_000, 1, "1 to 1000000"),
            SpecKey {
                key: "moving_first",
                kind: KeyKind::Choice {
                    values: &["next", "second"],
                },
                range: "next (alternate) or second (White shifts first)",
            },
            SpecKey {
                key: "centre_opening",
                kind: KeyKind::Bool,
                range: "true, or false: Black may not open in the centre",
            },
        ]
    }
}

impl Game for Clamp {
    const TITLE: &'static str = "Clamp";
    const SAMPLE_SPECS: &'static [&'static str] = &[
        "clamp",
        "clamp:size=6,zone=2,quiet_limit=12,adjudicate=true",
        "clamp:max_on_board=4,quiet_limit=20",
    ];
    engine_players!(clamp);

    /// Pieces captured in the game (both sides).
    fn balance_stats(
        config: &Self::Config,
        moves: &[Self::Move],
        _outcome: Outcome,
    ) -> Vec<(&'static str, f64)> {
        let mut pos = Self::new(*config);
        let mut captures = 0u32;
        for &mv in moves {
            let victim = pos.side_to_move().other();
            let before = pos.piece_count(victim);
            pos.make_move(mv);
            captures += before.saturating_sub(pos.piece_count(victim));
        }
        vec![("captures", f64::from(captures))]
    }

    fn spec_keys() -> Vec<SpecKey> {
        vec![
            SpecKey::int("size", 6, 26, 2, "even, 6 to 26"),
            SpecKey::int("zone", 1, 13, 1, "1 to size/2"),
            SpecKey::int("start", 4, 4, 1, "4 only"),
            SpecKey::int("max_on_board", 4, 676, 1, "4 to size²"),
            SpecKey::int("quiet_limit", 1, 1_000_000, 1, "1 to 1000000"),
            SpecKey {
                key: "adjudicate",
                kind: KeyKind::Bool,
                range: "true or false",
            },
            SpecKey {
                key: "supply",
                kind: KeyKind::IntOr {
                    min: 0,
                    max: 1_000_000,
                    word: "unlimited",
                },
                range: "0 to 1000000 pieces in hand, or unlimited",
            },
        ]
    }
}

impl Game for Amazons {
    const TITLE: &'static str = "Amazons";
    const SAMPLE_SPECS: &'static [&'static str] = &["amazons", "amazons:size=8"];
    engine_players!(amazons);

    /// How many moves the game lasted.
    fn balance_stats(
        _config: &Self::Config,
        moves: &[Self::Move],
        _outcome: Outcome,
    ) -> Vec<(&'static str, f64)> {
        vec![("moves_to_end", moves.len() as f64)]
    }

    fn spec_keys() -> Vec<SpecKey> {
        vec![SpecKey {
            key: "size",
            kind: KeyKind::Choice {
                values: &["10", "8"],
            },
            range: "10 or 8",
        }]
    }
}

impl Game for Gomoku {
    const TITLE: &'static str = "Gomoku";
    const SAMPLE_SPECS: &'static [&'static str] =
        &["gomoku", "gomoku:size=5", "gomoku:size=7,rule=exact5"];
    const LISTS_MOVES: bool = false;
    engine_players!(gomoku);

    fn spec_keys() -> Vec<SpecKey> {
        vec![
            SpecKey::int("size", 5, 26, 1, "5 to 26"),
            SpecKey {
                key: "rule",
                kind: KeyKind::Choice {
                    values: &["freestyle", "exact5"],
                },
                range: "freestyle (five or more) or exact5",
            },
        ]
    }
}

impl Game for Connect6 {
    const TITLE: &'static str = "Connect6";
    const SAMPLE_SPECS: &'static [&'static str] =
        &["connect6", "connect6:size=6", "connect6:size=7"];
    const LISTS_MOVES: bool = false;
    engine_players!(connect6);

    fn spec_keys() -> Vec<SpecKey> {
        vec![SpecKey::int("size", 6, 26, 1, "6 to 26")]
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for GameId {
    type Err = board_core::SpecError;

    /// Parses a game id (case-insensitive, surrounding space ignored, as specs are).
    fn from_str(s: &str) -> Result<GameId, board_core::SpecError> {
        let wanted = s.trim();
        GameId::ALL
            .iter()
            .copied()
            .find(|id| id.as_str().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| board_core::SpecError::UnknownGame {
                id: wanted.chars().take(32).collect(),
                known: GameId::known(),
            })
    }
}

impl GameId {
    /// The id of a parsed spec's game.
    pub fn of_spec(spec: &board_core::GameSpec) -> Result<GameId, board_core::SpecError> {
        spec.id.parse()
    }

    /// The game's name for people.
    pub fn title(self) -> &'static str {
        fn title<G: Game>() -> &'static str {
            G::TITLE
        }
        with_game!(self, title())
    }

    /// The players' display names (first, second) under the game's default rules.
    pub fn player_names(self) -> [&'static str; 2] {
        fn names<G: Game>() -> [&'static str; 2] {
            let start = G::new(G::Config::default());
            [
                start.player_name(Player::First),
                start.player_name(Player::Second),
            ]
        }
        with_game!(self, names())
    }

    /// Every id, comma-separated (for error messages and help texts).
    pub fn known() -> String {
        GameId::ALL
            .iter()
            .map(|id| id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use board_core::{GameConfig, SpecError};

    use super::*;

    fn config_id<G: Game>() -> &'static str {
        <G::Config as GameConfig>::GAME_ID
    }

    #[test]
    fn every_id_is_its_rules_crates_id_and_parses_back() {
        for &id in GameId::ALL {
            assert_eq!(with_game!(id, config_id()), id.as_str());
            assert_eq!(id.to_string().parse::<GameId>(), Ok(id));
            assert_eq!(id.as_str().to_uppercase().parse::<GameId>(), Ok(id));
        }
    }

    #[test]
    fn an_unknown_id_names_itself_and_the_known_ones() {
        let err = "chess".parse::<GameId>().unwrap_err();
        assert_eq!(
            err,
            SpecError::UnknownGame {
                id: "chess".into(),
                known: "fourshift, clamp, amazons, gomoku, connect6".into(),
            }
        );
    }

    #[test]
    fn every_bundled_game_has_bench_positions_that_load() {
        fn check<G: Game>() {
            assert!(!G::BENCH_POSITIONS.is_empty(), "{}", G::TITLE);
            for (spec, moves) in G::BENCH_POSITIONS {
                let config: G::Config = spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"));
                let mut pos = G::new(config);
                for mv in moves.split_whitespace() {
                    let m = pos
                        .parse_legal_move(mv)
                        .unwrap_or_else(|e| panic!("{mv}: {e}"));
                    pos.make_move(m);
                }
            }
        }
        for &id in GameId::ALL {
            with_game!(id, check());
        }
    }

    #[test]
    fn every_sample_spec_parses() {
        fn check<G: Game>() {
            assert!(!G::SAMPLE_SPECS.is_empty(), "{}", G::TITLE);
            for spec in G::SAMPLE_SPECS {
                spec.parse::<G::Config>()
                    .unwrap_or_else(|e| panic!("{spec}: {e}"));
            }
        }
        for &id in GameId::ALL {
            with_game!(id, check());
        }
    }

    #[test]
    fn every_player_kind_builds_for_every_game() {
        fn build_all<G: Game>() {
            for kind in search::AgentKind::ALL {
                let agent = G::player(kind, SearchOptions::default().with_hash_mb(1).unwrap());
                assert_eq!(agent.unwrap().name(), kind.to_string(), "{}", G::TITLE);
            }
        }
        for &id in GameId::ALL {
            with_game!(id, build_all());
        }
    }

    #[test]
    fn every_spec_key_is_one_the_parser_knows() {
        fn check<G: Game>() {
            for key in G::spec_keys() {
                let spec = format!("{}:{}=nonsense", config_id::<G>(), key.key);
                // A key the parser knows refuses the value, not the key.
                let err = spec.parse::<G::Config>().unwrap_err();
                assert!(
                    !matches!(err, SpecError::UnknownKey { .. }),
                    "{spec:?}: {err}"
                );
            }
        }
        for &id in GameId::ALL {
            with_game!(id, check());
        }
    }

    #[test]
    fn balance_statistics_of_a_short_amazons_game_count_its_moves() {
        let config = <Amazons as Position>::Config::default();
        let mut pos = Amazons::new(config);
        let mut moves = Vec::new();
        for _ in 0..3 {
            let mut legal = Vec::new();
            pos.generate_moves(&mut legal);
            pos.make_move(legal[0]);
            moves.push(legal[0]);
        }
        assert_eq!(
            Amazons::balance_stats(&config, &moves, Outcome::Draw),
            vec![("moves_to_end", 3.0)]
        );
    }

    #[test]
    fn a_fourshift_win_counts_as_decided_in_placing_up_to_the_last_placement() {
        let config = <Fourshift as Position>::Config::default();
        let placing = config.placing_plies() as usize;
        let mut legal = Vec::new();
        Fourshift::new(config).generate_moves(&mut legal);
        // The statistic looks only at how many moves were played.
        let moves = vec![legal[0]; placing + 1];
        let win = Outcome::Win(Player::First);
        let decided = |n: usize, outcome| Fourshift::balance_stats(&config, &moves[..n], outcome);
        assert_eq!(decided(placing, win), vec![("decided_in_placing", 1.0)]);
        assert_eq!(decided(placing + 1, win), vec![("decided_in_placing", 0.0)]);
        assert_eq!(
            decided(placing, Outcome::Draw),
            vec![("decided_in_placing", 0.0)]
        );
    }
}
