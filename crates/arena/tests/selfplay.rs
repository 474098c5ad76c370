//! Self-play: determinism across thread counts, the summary's arithmetic, records that load.
#![allow(clippy::unwrap_used)] // tests unwrap: a panic is the failure report

use arena::{
    Budget, GameResult, OpeningBook, Openings, PlayerSpec, SelfplaySettings, SelfplaySummary,
    Shard,
    external::Protocol,
    merge, plot, records_text, run_selfplay, run_tournament, split_records,
    sprt::{Sprt, SprtDecision},
};
use board_core::{Outcome, Player, prelude::*, savefile};
use rules_fourshift::{Fourshift, FourshiftConfig};
use rules_gomoku::{GomokuConfig, GomokuPosition};
use search::AgentKind;
use std::time::Duration;

fn settings(threads: usize) -> SelfplaySettings {
    SelfplaySettings {
        games: 8,
        a: AgentKind::Engine.into(),
        b: AgentKind::Random.into(),
        budget: Budget::Depth(2),
        openings: Openings::Random(2),
        seed: 7,
        threads,
        hash_mb: 1,
        max_plies: 500,
        ..SelfplaySettings::default()
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

/// A book's pairs: pair k plays line k (wrapping round), both games from the same line with
/// A first in one and second in the other; the records mark where the book line ends.
#[test]
fn book_pairs_play_the_same_line_with_colours_swapped() {
    let book = OpeningBook::parse("test-book", "e5 d4 # two\n\ne5 e4 d5\n").unwrap();
    let settings = SelfplaySettings {
        games: 6,
        a: AgentKind::Engine.into(),
        b: AgentKind::Random.into(),
        budget: Budget::Depth(1),
        openings: Openings::Book(book),
        seed: 3,
        hash_mb: 1,
        ..SelfplaySettings::default()
    };
    let config: GomokuConfig = "gomoku:size=9".parse().unwrap();
    let games = run_selfplay::<GomokuPosition>(&config, &settings, || {}).unwrap();
    assert_eq!(games.len(), 6);
    let lines: [&[&str]; 3] = [&["e5", "d4"], &["e5", "e4", "d5"], &["e5", "d4"]];
    for (pair, line) in games.chunks(2).zip(lines) {
        let [g0, g1] = pair else {
            panic!("games come in pairs")
        };
        for g in [g0, g1] {
            let mut pos = GomokuPosition::new(config);
            let opening: Vec<String> = g.record.moves[..g.record.opening_plies]
                .iter()
                .map(|&mv| {
                    let text = pos.format_move(mv);
                    pos.make_move(mv);
                    text
                })
                .collect();
            assert_eq!(opening, line);
        }
        assert_eq!((g0.a_side, g1.a_side), (Player::First, Player::Second));
        // The players after the book line: A moves first in one game, B in the other.
        assert_eq!(
            g0.record.players,
            ["engine".to_string(), "random".to_string()]
        );
        assert_eq!(
            g1.record.players,
            ["random".to_string(), "engine".to_string()]
        );
    }
}

/// A book whose line does not fit the game stops the tournament before any game, naming
/// the line.
#[test]
fn a_bad_book_line_is_an_error_before_any_game() {
    let book = OpeningBook::parse("test-book", "e5 d4\ne5 e5\n").unwrap();
    let settings = SelfplaySettings {
        games: 2,
        openings: Openings::Book(book),
        ..SelfplaySettings::default()
    };
    let config: GomokuConfig = "gomoku:size=9".parse().unwrap();
    let err = run_selfplay::<GomokuPosition>(&config, &settings, || panic!("no game"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("opening book test-book line 2: move 2 'e5'"),
        "{err}"
    );
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
    // Both players' thinking times are summed over the games.
    let answers: u32 = games
        .iter()
        .map(|g| g.record.timing[0].moves + g.record.timing[1].moves)
        .sum();
    assert_eq!(s.move_times[0].moves + s.move_times[1].moves, answers);
    assert!(s.move_times[0].moves > 0 && s.move_times[0].max > Duration::ZERO);
    let json = s.to_json();
    for key in [
        "\"move_time\":{\"a\":{\"moves\":",
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

#[test]
fn an_sprt_stops_at_the_same_pair_on_any_thread_count() {
    let sprt: Sprt = "elo0=0,elo1=50".parse().unwrap();
    let run = |threads| {
        let settings = SelfplaySettings {
            games: 400,
            sprt: Some(sprt),
            ..settings(threads)
        };
        run_tournament::<Fourshift>(&config(), &settings, |_| {}).unwrap()
    };
    let (one, three) = (run(1), run(3));
    let status = one.sprt.unwrap();
    assert_eq!(status.decision, Some(SprtDecision::H1), "{status}");
    assert!(status.llr >= sprt.upper_bound());
    assert_eq!(status.pairs.pairs() as usize * 2, one.games.len());
    assert!(one.games.len() < 400);
    assert_eq!(records_text(&one.games), records_text(&three.games));
    assert_eq!(three.sprt.unwrap().pairs, status.pairs);
}

/// The tournament of [`settings`] on [`config`] as a report names it.
fn info(openings: &str, games: usize, shard: Shard) -> merge::TournamentInfo {
    merge::TournamentInfo {
        spec: config().to_string(),
        a: "engine".into(),
        b: "random".into(),
        budget: "depth 2".into(),
        openings: openings.into(),
        seed: 7,
        games,
        shard,
        sprt: None,
    }
}

#[test]
fn shards_partition_the_games_and_merge_back() {
    let whole = run_selfplay::<Fourshift>(&config(), &settings(1), || {}).unwrap();
    let info = |shard| info("random:2", 8, shard);
    let results = |games: &[arena::PlayedGame<Fourshift>]| -> Vec<GameResult> {
        games.iter().map(GameResult::of).collect()
    };
    let mut parts = Vec::new();
    let mut shard_games = Vec::new();
    for index in 1..=3 {
        let shard = Shard { index, count: 3 };
        let games = run_selfplay::<Fourshift>(
            &config(),
            &SelfplaySettings {
                shard,
                ..settings(1)
            },
            || {},
        )
        .unwrap();
        let expected: Vec<usize> = (index as usize - 1..8).step_by(3).collect();
        assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), expected);
        for g in &games {
            assert_eq!(
                records_text(std::slice::from_ref(g)),
                records_text(&whole[g.index..=g.index])
            );
        }
        parts.push(merge::report_json(&info(shard), &results(&games)));
        shard_games.extend(games);
    }
    parts.reverse();
    let merged = merge::merge_json(&parts).unwrap();
    // The shards played the whole tournament's games (checked above, move for move); their
    // move times are their own wall times, so the merge is compared with their results.
    shard_games.sort_by_key(|g| g.index);
    assert_eq!(
        merged,
        merge::report_json(&info(Shard::ALL), &results(&shard_games))
    );
    assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
    assert!("x".parse::<Shard>().is_err());
}

#[test]
fn the_sweep_chart_is_an_svg_with_its_axes_and_rows() {
    let games = run_selfplay::<Fourshift>(&config(), &settings(1), || {}).unwrap();
    let s = SelfplaySummary::new("engine", "random", &games);
    let rows = vec![
        ("pieces=5".to_string(), s.clone()),
        ("pieces=6".to_string(), s),
    ];
    let svg = plot::sweep_svg("fourshift sweep", "pieces", &rows).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
    for text in [
        "fourshift sweep",
        "% of games",
        "mean game length (plies)",
        "pieces=5",
        "pieces=6",
        "50%: balanced",
        "first player wins (95% interval)",
        "draws",
    ] {
        assert!(svg.contains(text), "{text} missing");
    }
    assert!(plot::sweep_svg("empty", "pieces", &[]).is_err());
}

/// A report names a book's openings as a string and random plies as the bare count (as
/// reports always have), and reads both back.
#[test]
fn reports_name_their_openings_and_read_them_back() {
    for (openings, written) in [
        ("random:2", r#""openings":2,"#),
        ("book:b.txt", r#""openings":"book:b.txt","#),
    ] {
        let info = info(openings, 2, Shard::ALL);
        let json = merge::report_json(&info, &[]);
        assert!(json.contains(written), "{json}");
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(merge::parse_report(&value).unwrap().0, info);
    }
}

/// A report keeps each game's thinking times (what `match` prints as "move time") and reads
/// them back exactly; a report written before they were kept reads as no times, and a
/// malformed one is refused with the game named.
#[test]
fn reports_keep_the_move_times_of_each_game() {
    let games = run_selfplay::<Fourshift>(&config(), &settings(1), || {}).unwrap();
    let results: Vec<GameResult> = games.iter().map(GameResult::of).collect();
    let info = info("random:2", 8, Shard::ALL);
    let json = merge::report_json(&info, &results);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let (_, read) = merge::parse_report(&value).unwrap();
    for (r, g) in read.iter().zip(&games) {
        let [a, b] = &r.move_times;
        let (a_time, b_time) = match g.a_side {
            Player::First => (&g.record.timing[0], &g.record.timing[1]),
            Player::Second => (&g.record.timing[1], &g.record.timing[0]),
        };
        assert_eq!(a.moves, a_time.moves);
        assert_eq!(b.moves, b_time.moves);
        assert_eq!(a.max.as_micros(), a_time.max.as_micros());
        assert_eq!(b.total.as_micros(), b_time.total.as_micros());
    }
    let mut old = value.clone();
    for r in old["results"].as_array_mut().unwrap() {
        r.as_object_mut().unwrap().remove("time");
    }
    let (_, read) = merge::parse_report(&old).unwrap();
    assert!(read.iter().all(|r| r.move_times == [Default::default(); 2]));
    let mut bad = value;
    bad["results"][2]["time"]["b"]["max_us"] = serde_json::json!("slow");
    let e = merge::parse_report(&bad).unwrap_err().to_string();
    assert!(e.contains("game 3") && e.contains("b.max_us"), "{e}");
}

/// More pairs than book lines under a depth budget: in-process players are seeded per pair,
/// so pairs that share a line still play different games; two external engines get no seed
/// and replay them move for move, which `replayed_openings` reports so that `match` warns.
/// A time budget or a book with a line for every pair is not reported.
#[test]
fn more_pairs_than_book_lines_are_reported_for_unseeded_engines() {
    let book = OpeningBook::parse("test-book", "e5 d4\ne5 e4 d5\n").unwrap();
    let in_process = SelfplaySettings {
        games: 8,
        a: AgentKind::Engine.into(),
        b: AgentKind::Engine.into(),
        budget: Budget::Depth(2),
        openings: Openings::Book(book),
        seed: 3,
        hash_mb: 1,
        ..SelfplaySettings::default()
    };
    let config: GomokuConfig = "gomoku:size=9".parse().unwrap();
    let games = run_selfplay::<GomokuPosition>(&config, &in_process, || {}).unwrap();
    assert_ne!(
        games[0].record.moves, games[4].record.moves,
        "a line's second pair is seeded differently"
    );
    assert_eq!(in_process.replayed_openings(), None);

    let external = |command: &str| PlayerSpec::External {
        protocol: Protocol::Ugi,
        command: command.to_string(),
    };
    let settings = SelfplaySettings {
        a: external("new-engine"),
        b: external("old-engine"),
        ..in_process.clone()
    };
    let replayed = settings.replayed_openings().expect("4 pairs, 2 lines");
    assert_eq!((replayed.book_lines, replayed.pairs), (2, 4));
    let text = replayed.to_string();
    assert!(text.contains("replay pairs 3 to 4"), "{text}");
    assert!(text.contains("at most 4 games"), "{text}");

    let clocked = SelfplaySettings {
        budget: Budget::Time(Duration::from_millis(10)),
        ..settings.clone()
    };
    assert_eq!(clocked.replayed_openings(), None);
    let a_line_a_pair = SelfplaySettings {
        games: 4,
        ..settings.clone()
    };
    assert_eq!(a_line_a_pair.replayed_openings(), None);
    let random = SelfplaySettings {
        openings: Openings::Random(2),
        ..settings
    };
    assert_eq!(random.replayed_openings(), None);
}
