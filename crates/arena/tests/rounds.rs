//! A tournament played in rounds of game indices (`play_games`, as `boardlab balance`
//! plays it) is the tournament played at once.
#![allow(clippy::unwrap_used)] // tests unwrap: a panic is the failure report

use arena::{
    Budget, Openings, SelfplaySettings, play_games, records_text, run_tournament,
    sequential::{ScoreInterval, pair_scores},
};
use rules_fourshift::{Fourshift, FourshiftConfig};
use search::AgentKind;

#[test]
fn rounds_of_indices_replay_the_whole_tournament() {
    let config: FourshiftConfig = "fourshift:size=5,pieces=5".parse().unwrap();
    let settings = SelfplaySettings {
        games: 12,
        a: AgentKind::Engine.into(),
        b: AgentKind::Engine.into(),
        budget: Budget::Depth(2),
        openings: Openings::Random(2),
        seed: 3,
        threads: 2,
        hash_mb: 1,
        max_plies: 500,
        ..SelfplaySettings::default()
    };
    let whole = run_tournament::<Fourshift>(&config, &settings, |_| {})
        .unwrap()
        .games;
    settings.check::<Fourshift>(&config).unwrap();
    let mut rounds = Vec::new();
    for range in [0..4, 4..8, 8..12] {
        let indices: Vec<usize> = range.collect();
        rounds.extend(
            play_games::<Fourshift>(&config, &settings, &indices, |_| {})
                .unwrap()
                .games,
        );
    }
    assert_eq!(records_text(&rounds), records_text(&whole));
    // The statistics see the same pairs.
    let results = |games: &[arena::PlayedGame<Fourshift>]| {
        games.iter().map(arena::GameResult::of).collect::<Vec<_>>()
    };
    let (a, b) = (results(&whole), results(&rounds));
    assert_eq!(pair_scores(&a).len(), 6);
    assert_eq!(
        ScoreInterval::of_pairs(&pair_scores(&a), 2.0),
        ScoreInterval::of_pairs(&pair_scores(&b), 2.0)
    );
}
