//! Self-play: determinism across thread counts, the summary's arithmetic, records that load.
#![allow(clippy::unwrap_used)] // tests unwrap: a panic is the failure report

use arena::{Budget, SelfplaySettings, SelfplaySummary, records_text, run_selfplay, split_records};
use board_core::{Outcome, Player, Position, savefile};
use engines::AgentKind;
use rules_fourshift::{Fourshift, FourshiftConfig};

fn settings(threads: usize) -> SelfplaySettings {
    SelfplaySettings {
        games: 8,
        a: AgentKind::Engine,
        b: AgentKind::Random,
        budget: Budget::Depth(2),
        opening_plies: 2,
        seed: 7,
        threads,
        hash_mb: 1,
        max_plies: 500,
    }
}

fn config() -> FourshiftConfig {
    "fourshift:size=5,pieces=5".parse().unwrap()
}

#[test]
fn same_records_on_one_and_two_threads() {
    let one = run_selfplay::<Fourshift>(&config(), &settings(1), || {}).unwrap();
    let two = run_selfplay::<Fourshift>(&config(), &settings(2), || {}).unwrap();
    assert_eq!(records_text(&one), records_text(&two));
    assert_eq!(one.len(), 8);
    // Pairs share their opening and swap colours.
    for pair in one.chunks(2) {
        let [g0, g1] = pair else {
            panic!("games come in pairs")
        };
        assert_eq!(
            g0.record.moves[..g0.record.opening_plies],
            g1.record.moves[..g1.record.opening_plies]
        );
        assert_eq!(g0.a_side, Player::First);
        assert_eq!(g1.a_side, Player::Second);
    }
    // Different pairs start differently (2 random plies on 25 squares).
    assert_ne!(one[0].record.moves[..2], one[2].record.moves[..2]);
}

#[test]
fn records_split_and_load_back() {
    let games = run_selfplay::<Fourshift>(&config(), &settings(2), || {}).unwrap();
    let text = records_text(&games);
    let files = split_records(&text);
    assert_eq!(files.len(), games.len());
    for (file, game) in files.iter().zip(&games) {
        let loaded = savefile::load::<Fourshift>(file).unwrap();
        assert_eq!(loaded.moves, game.record.moves);
        assert_eq!(
            loaded.position.to_position_string(),
            game.record.last.to_position_string()
        );
    }
}

#[test]
fn summary_counts_and_json() {
    let games = run_selfplay::<Fourshift>(&config(), &settings(1), || {}).unwrap();
    let s = SelfplaySummary::new("engine", "random", &games);
    assert_eq!(s.games, 8);
    assert_eq!(s.first_wins + s.second_wins + s.draws, 8);
    assert_eq!(s.a_total.games(), 8);
    assert_eq!(s.a_first.games(), 4);
    let first_wins = games
        .iter()
        .filter(|g| g.record.outcome == Outcome::Win(Player::First))
        .count() as u32;
    assert_eq!(s.first_wins, first_wins);
    assert!(
        s.first_player_ci95.0 <= s.first_player_win_rate
            && s.first_player_win_rate <= s.first_player_ci95.1
    );
    assert!(s.balance.contains_key("decided_in_placing"));
    let json = s.to_json();
    for key in [
        "\"games\":8",
        "\"a_wins\":",
        "\"b_wins\":",
        "\"draws\":",
        "\"first_player_win_rate\":",
        "\"first_player_ci95\":[",
        "\"mean_length\":",
    ] {
        assert!(json.contains(key), "{key} missing in {json}");
    }
    // The engine beats a random player.
    assert!(s.a_total.wins > s.a_total.losses, "{s}");
}
