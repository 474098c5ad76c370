//! What a newcomer tripped on in the terminal, the command line and the protocols (issue
//! 25), one test per item, each run on the real binary: piped input, or a pseudo-terminal
//! from `script` where the item is about the terminal.
#![allow(clippy::unwrap_used)] // tests unwrap: a panic is the failure report

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

mod cli_common;

use cli_common::{Run, run, run_at_terminal};

/// A fresh, empty working directory for one test.
fn workdir(name: &str) -> PathBuf {
    cli_common::workdir("newcomer", name)
}

// ---- 1. play states the think time it really uses ---------------------------------------

#[test]
fn play_states_the_think_time_the_computer_really_gets() {
    let dir = workdir("think-time");
    for (args, said) in [
        (
            vec!["--time", "300"],
            "The computer: level 4, the engine at 0.3 s a move",
        ),
        (
            vec!["--level", "5", "--time", "200"],
            "The computer: level 5, the engine at 0.2 s a move",
        ),
        (
            vec!["--level", "3"],
            "The computer: level 3, the engine at 0.1 s a move",
        ),
        (
            vec!["--level", "5", "--depth", "3"],
            "The computer: level 5, the engine searching 3 plies a move",
        ),
        (
            vec!["--level", "4", "--nodes", "5000"],
            "The computer: level 4, the engine at 5000 nodes a move",
        ),
        (
            vec!["--level", "2", "--time", "200"],
            "level 2, the source article's simple AI",
        ),
    ] {
        let mut all = vec!["play", "fourshift", "--seed", "1"];
        all.extend(args);
        let out = run(&dir, &all, "quit\n");
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        assert!(
            out.stdout.contains(said),
            "expected '{said}' in:\n{}",
            out.stdout
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 2. restart asks, can be undone; quit after the game is over does not ask -----------

#[test]
fn undo_right_after_restart_brings_the_game_back() {
    let dir = workdir("restart-undo");
    let out = run(
        &dir,
        &["play", "fourshift", "--human", "both", "--no-color"],
        "a1\nb1\nrestart\nundo\nmoves\nrestart\na1\nundo\nundo\nquit\n",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("New game ('undo' brings the last one back)."),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("Back to the game before 'restart', at move 3.")
    );
    assert!(out.stdout.contains("1. a1  2. b1\n"), "{}", out.stdout);
    // Once a move is played in the new game, undo takes back that move, not the restart.
    assert_eq!(out.stdout.matches("Back to the game before").count(), 1);
    assert!(out.stdout.contains("error: nothing to undo"));
}

#[test]
fn at_a_terminal_restart_asks_and_quit_after_the_game_is_over_does_not() {
    let dir = workdir("restart-terminal");
    // Restart of an unsaved game in progress asks; "n" keeps it.
    let shown = run_at_terminal(
        &dir,
        &["play", "fourshift", "--human", "both", "--no-color"],
        &["a1", "restart", "n", "quit", "y"],
    )
    .shown;
    assert!(
        shown.contains("The game is not saved. Start a new one anyway? [y/N]"),
        "{shown}"
    );
    assert!(!shown.contains("New game"), "{shown}");
    assert!(
        shown.contains("The game is not saved. Quit anyway? [y/N]"),
        "{shown}"
    );
    // A finished game: nothing in progress is lost, so quit leaves at once.
    let shown = run_at_terminal(
        &dir,
        &["play", "gomoku", "--human", "both", "--no-color"],
        &["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8", "quit"],
    )
    .shown;
    assert!(shown.contains("Game over: Black wins"), "{shown}");
    assert!(!shown.contains("Quit anyway?"), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 3. sweeps check every value and the output paths before the first game -------------

#[test]
fn a_sweep_checks_every_value_and_the_plot_path_before_playing() {
    let dir = workdir("sweep");
    let base = ["selfplay", "fourshift", "--games", "2", "--depth", "1"];
    let started = Instant::now();
    let mut args = base.to_vec();
    args.extend(["--sweep", "pieces=6,99"]);
    let out = run(&dir, &args, "");
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("pieces=99"), "{}", out.stderr);
    // No tournament ran: its summary line ("N games in T s") never appeared.
    assert!(!out.stderr.contains("games in"), "{}", out.stderr);
    let mut args = base.to_vec();
    args.extend(["--sweep", "pieces=6,8", "--plot", "no/such/dir/chart.svg"]);
    let out = run(&dir, &args, "");
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("cannot write the chart to no/such/dir/chart.svg"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("games in"), "{}", out.stderr);
    // The same for --records, in selfplay and match.
    let out = run(
        &dir,
        &[&base[..], &["--records", "no/such/dir/r.txt"]].concat(),
        "",
    );
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr
            .contains("cannot write records to no/such/dir/r.txt"),
        "{}",
        out.stderr
    );
    let out = run(
        &dir,
        &[
            "match",
            "fourshift",
            "--games",
            "2",
            "--depth",
            "1",
            "--records",
            "no/such/r.txt",
        ],
        "",
    );
    assert_eq!(out.code, Some(2));
    assert!(!out.stderr.contains("game 1:"), "{}", out.stderr);
    assert!(started.elapsed() < Duration::from_secs(20));
    // A good path is written, and a check leaves no empty file behind on failure.
    assert!(!dir.join("no").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 4. external engines: a missing program fails at once -------------------------------

#[test]
fn a_missing_external_engine_fails_before_any_game() {
    let dir = workdir("missing-engine");
    let started = Instant::now();
    for player in [
        "ugi:/nonexistent",
        "pbrain:/nonexistent",
        "botzone:/nonexistent",
    ] {
        let spec = match player.split(':').next() {
            Some("pbrain") => "gomoku",
            Some("botzone") => "amazons:size=8",
            _ => "fourshift",
        };
        let out = run(
            &dir,
            &["match", spec, "--a", player, "--games", "2", "--depth", "1"],
            "",
        );
        assert_eq!(out.code, Some(2), "{player}: {}", out.stderr);
        assert!(
            out.stderr
                .contains(&format!("player A ({player}): cannot start '/nonexistent'")),
            "{}",
            out.stderr
        );
        assert!(!out.stderr.contains("game 1:"), "{}", out.stderr);
        assert!(!out.stdout.contains("score:"), "{}", out.stdout);
    }
    let out = run(
        &dir,
        &[
            "match",
            "fourshift",
            "--b",
            "ugi:no-such-engine-here",
            "--games",
            "2",
        ],
        "",
    );
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("player B (ugi:no-such-engine-here): cannot start 'no-such-engine-here': no such program on the PATH"),
        "{}",
        out.stderr
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 5. bestmove is the first move of the last PV printed -------------------------------

/// The first move of the last `pv` printed before `bestmove`, and the best move.
fn last_pv_and_bestmove(text: &str) -> (Option<String>, String) {
    let mut last_pv = None;
    for line in text.lines() {
        if let Some(at) = line.find(" pv ") {
            last_pv = line[at + 4..].split_whitespace().next().map(str::to_string);
        }
        if let Some(best) = line.strip_prefix("bestmove ") {
            return (last_pv, best.trim().to_string());
        }
    }
    panic!("no bestmove in:\n{text}");
}

#[test]
fn analyze_bestmove_starts_the_last_printed_pv_when_cut_off() {
    let dir = workdir("analyze-pv");
    let mut checked = 0;
    for spec in ["fourshift", "gomoku", "clamp"] {
        for nodes in [3_000, 7_000, 12_000, 20_000, 33_000, 50_000] {
            let nodes = nodes.to_string();
            let out = run(&dir, &["analyze", spec, "--nodes", &nodes], "");
            assert_eq!(out.code, Some(0), "{}", out.stderr);
            let (pv, best) = last_pv_and_bestmove(&out.stdout);
            if let Some(pv) = pv {
                assert_eq!(pv, best, "{spec} --nodes {nodes}:\n{}", out.stdout);
                checked += 1;
            }
        }
    }
    assert!(checked >= 12, "only {checked} searches printed a pv");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engine_protocol_bestmove_starts_the_last_info_pv() {
    let dir = workdir("engine-pv");
    let mut script = String::from("ugi\nisready\n");
    let cases = [
        ("fourshift", "a1 f6 b1"),
        ("gomoku", "h8 h9"),
        ("clamp", ""),
        ("amazons:size=8", ""),
    ];
    for (spec, moves) in cases {
        for nodes in [4_000, 9_000, 20_000] {
            let moves = if moves.is_empty() {
                String::new()
            } else {
                format!(" moves {moves}")
            };
            script.push_str(&format!(
                "position {spec} startpos{moves}\ngo nodes {nodes}\n"
            ));
        }
    }
    script.push_str("isready\nquit\n");
    let out = run(&dir, &["engine"], &script);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let (mut searches, mut with_pv) = (0, 0);
    let mut rest = out.stdout.as_str();
    while let Some(end) = rest.find("bestmove ") {
        let line_end = rest[end..].find('\n').map_or(rest.len(), |n| end + n);
        // A search stopped before its first iteration prints no pv at all: nothing to
        // contradict.
        if let (Some(pv), best) = last_pv_and_bestmove(&rest[..line_end]) {
            assert_eq!(pv, best, "{}", &rest[..line_end]);
            with_pv += 1;
        }
        searches += 1;
        rest = &rest[line_end..];
    }
    assert_eq!(searches, cases.len() * 3, "{}", out.stdout);
    assert!(with_pv >= 9, "{}", out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 7. redo, the level during a game, legal moves marked on the board ------------------

#[test]
fn redo_replays_what_undo_took_back_and_a_new_move_clears_it() {
    let dir = workdir("redo");
    let out = run(
        &dir,
        &["play", "fourshift", "--human", "both", "--no-color"],
        "redo\na1\nb1\nundo\nundo\nredo\nmoves\nredo\nmoves\nredo\nundo\nc1\nredo\nquit\n",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("error: nothing to redo: no move was taken back")
    );
    assert!(out.stdout.contains("Replayed to move 2."), "{}", out.stdout);
    assert!(out.stdout.contains("1. a1\n"), "{}", out.stdout);
    assert!(out.stdout.contains("Replayed to move 3."), "{}", out.stdout);
    assert!(out.stdout.contains("1. a1  2. b1\n"), "{}", out.stdout);
    // After the undo, c1 is a new move: b1 can no longer be replayed.
    assert_eq!(
        out.stdout.matches("error: nothing to redo").count(),
        3,
        "{}",
        out.stdout
    );
    // Against the computer, redo replays its reply too (no new search).
    let out = run(
        &dir,
        &[
            "play",
            "gomoku",
            "--depth",
            "1",
            "--seed",
            "2",
            "--no-color",
        ],
        "h8\nundo\nredo\nmoves\nquit\n",
    );
    assert_eq!(
        out.stdout.matches("White (computer) plays").count(),
        1,
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("Replayed to move 3."), "{}", out.stdout);
    assert!(out.stdout.contains("1. h8  2. "), "{}", out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn level_changes_the_computer_during_a_game() {
    let dir = workdir("level");
    let out = run(
        &dir,
        &[
            "play",
            "fourshift",
            "--level",
            "1",
            "--seed",
            "5",
            "--no-color",
        ],
        "level\na1\nlevel 9\nlevel x\nlevel 3\nlevel\nb1\nmoves\nquit\n",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("The computer: level 1, random moves. 'level N' changes it (1-5)."),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("error: level '9' is out of range: expected 1-5")
    );
    assert!(
        out.stdout
            .contains("error: level 'x' is out of range: expected 1-5")
    );
    assert!(
        out.stdout
            .contains("The computer is now level 3, the engine at 0.1 s a move."),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("The computer: level 3, the engine at 0.1 s a move.")
    );
    // The game went on: four moves, two of them the computer's.
    assert_eq!(out.stdout.matches("White (computer) plays").count(), 2);
    assert!(out.stdout.contains("3. b1  4. "), "{}", out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn legal_marks_where_moves_start_and_where_a_piece_can_go() {
    let dir = workdir("legal");
    let out = run(
        &dir,
        &["play", "amazons:size=8", "--human", "both", "--no-color"],
        "legal\nlegal a3\nlegal a3-a4\nlegal a3-a4-a3\nlegal z9\nlegal a4\nquit\n",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // White's... no: Black (a6 c8 f8 h6) moves first; its four queens are marked.
    assert!(
        out.stdout.contains("on the 4 marked squares: c8 f8 a6 h6")
            || out.stdout.contains("on the 4 marked squares: a6 h6 c8 f8"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("error: no legal move of Black starts with a3"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("error: z9 is off the 8x8 board"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("error: no legal move of Black starts with a4")
    );
    let out = run(
        &dir,
        &["play", "amazons:size=8", "--human", "both", "--no-color"],
        "legal a6\nlegal a6-a5\nquit\n",
    );
    // The queen on a6 reaches a5, a4 (a3 is White's), a7 and the diagonals and the row.
    assert!(out.stdout.contains("a6 goes on to the "), "{}", out.stdout);
    let targets = out
        .stdout
        .lines()
        .find(|l| l.starts_with("a6 goes on to the "))
        .unwrap();
    for sq in ["a5", "a4", "a7", "b6", "g6", "b7", "b5", "d3"] {
        assert!(
            targets.contains(&format!(" {sq}")),
            "{sq} missing in {targets}"
        );
    }
    for sq in ["a3", "a6", "h6", "c8"] {
        assert!(!targets.contains(&format!(" {sq}")), "{sq} in {targets}");
    }
    // The board marks them: a5, b5 and a4, c4 in brackets under a6.
    assert!(
        out.stdout.contains("\n5[.|.]. . . . . .  5\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("\n4[.].[.]. . . . .  4\n"),
        "{}",
        out.stdout
    );
    // The arrow's squares after a6-a5 include a6, which the queen left.
    let arrows = out
        .stdout
        .lines()
        .find(|l| l.starts_with("a6-a5 goes on to the "))
        .unwrap();
    assert!(arrows.contains(" a6"), "{arrows}");
    // Connect6: a pair is one move whichever stone is named first, so every empty point
    // partners k10 (361 less j10 and k10 itself).
    let out = run(
        &dir,
        &["play", "connect6", "--human", "both"],
        "j10\nlegal k10\nquit\n",
    );
    assert!(
        out.stdout.contains("k10 goes on to the 359 marked squares"),
        "{}",
        out.stdout
    );
    // Gomoku: every empty point; a placed stone is a whole move.
    let out = run(
        &dir,
        &["play", "gomoku", "--human", "both"],
        "legal\nlegal h8\nquit\n",
    );
    assert!(
        out.stdout
            .contains("Black's 225 legal moves start on the 225 marked squares"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("h8 is a whole move: play it as it is"),
        "{}",
        out.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 8. one word, one meaning: --threads is search threads, --concurrency games at once --

#[test]
fn threads_always_means_search_threads_and_concurrency_games_at_once() {
    let dir = workdir("flags");
    for command in ["analyze", "bench"] {
        let out = run(&dir, &[command, "--help"], "");
        let help = out.stdout;
        let at = help
            .find("--threads")
            .unwrap_or_else(|| panic!("{command}: {help}"));
        assert!(
            help[at..].to_lowercase().contains("search threads"),
            "{command}: {help}"
        );
        assert!(!help.contains("--concurrency <"), "{command}: {help}");
    }
    for command in ["match", "selfplay"] {
        let out = run(&dir, &[command, "--help"], "");
        let help = out.stdout;
        assert!(help.contains("--concurrency <"), "{command}: {help}");
        assert!(!help.contains("--threads <"), "{command}: {help}");
        let at = help.find("--concurrency").unwrap();
        assert!(
            help[at..].contains("Games played at once"),
            "{command}: {help}"
        );
    }
    let out = run(
        &dir,
        &[
            "selfplay",
            "fourshift",
            "--games",
            "2",
            "--depth",
            "1",
            "--concurrency",
            "2",
        ],
        "",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains("2 games at once"), "{}", out.stderr);
    let out = run(&dir, &["selfplay", "fourshift", "--threads", "2"], "");
    assert_eq!(out.code, Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 10. wording ---------------------------------------------------------------------------

#[test]
fn errors_and_texts_say_what_is_wrong_in_the_game_at_hand() {
    let dir = workdir("wording");
    let out = run(
        &dir,
        &["play", "fourshift", "--human", "both", "--no-color"],
        "b1-b2-b3\nhelp\nquit\n",
    );
    assert!(
        out.stdout.contains("error: 'b1-b2-b3' is not a move"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("'b2-b3' is not a square"));
    // Help names this game's notation only.
    assert!(
        out.stdout
            .contains("Enter a move as fourshift writes it, like a1."),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("d1-d7/g7"), "{}", out.stdout);
    // No line of the start (banner, board, legend, status) is wider than 120 columns.
    for spec in ["fourshift", "clamp", "amazons", "gomoku", "connect6"] {
        let out = run(
            &dir,
            &["play", spec, "--human", "both", "--no-color"],
            "quit\n",
        );
        for line in out.stdout.lines() {
            assert!(
                line.chars().count() <= 100,
                "{spec}: {} columns: {line}",
                line.len()
            );
        }
    }
    // A row past every board is off the board, as a column past this one is.
    let out = run(
        &dir,
        &["play", "gomoku", "--human", "both"],
        "d44\nz9\nquit\n",
    );
    assert!(
        out.stdout.contains("error: d44 is off the 15x15 board"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("error: z9 is off the 15x15 board"),
        "{}",
        out.stdout
    );
    // Replay errors name the file.
    std::fs::write(dir.join("broken.save"), "boardlab-save 1\ngame chess\n").unwrap();
    let out = run(&dir, &["replay", "broken.save"], "");
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.starts_with("error: broken.save: "),
        "{}",
        out.stderr
    );
    // Hints speak to players, not in centipawns.
    let out = run(
        &dir,
        &["play", "gomoku", "--depth", "2", "--no-color"],
        "hint\nquit\n",
    );
    let hint = out.stdout.lines().find(|l| l.contains("hint: ")).unwrap();
    assert!(!hint.contains("cp"), "{hint}");
    assert!(hint.contains("plies ahead"), "{hint}");
    // A clap error is one line, as every other error.
    for args in [
        &["play"][..],
        &["perft", "gomoku"],
        &["selfplay", "gomoku", "--bogus"],
    ] {
        let out = run(&dir, args, "");
        assert_eq!(out.code, Some(2));
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
        assert!(out.stderr.starts_with("error: "), "{}", out.stderr);
        assert!(out.stderr.contains("(usage: boardlab "), "{}", out.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 11. figures -----------------------------------------------------------------------------

#[test]
fn perft_gives_no_rate_for_a_run_too_quick_to_time() {
    let dir = workdir("perft");
    let out = run(&dir, &["perft", "connect6", "2"], "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout.trim(), "23327820");
    let line = out.stderr.lines().next().unwrap();
    assert!(line.starts_with("perft(2) = 23327820 in "), "{line}");
    // Either a rate from a measurable run, or none; never billions of leaves a second.
    if line.contains("leaves/s") {
        let rate: f64 = line
            .split('(')
            .nth(2)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|r| r.parse().ok())
            .unwrap();
        assert!(rate < 1e10, "{line}");
    } else {
        assert!(line.ends_with("(too quick to give a rate)"), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_names_each_position_once_and_says_what_the_label_means() {
    let dir = workdir("bench");
    let out = run(&dir, &["bench", "--depth-delta", "-20"], "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let labels: Vec<String> = out
        .stdout
        .lines()
        .filter(|l| l.contains(" depth "))
        .map(|l| l[..l.find(" depth ").unwrap()].trim().to_string())
        .collect();
    assert!(labels.len() >= 5, "{}", out.stdout);
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), labels.len(), "repeated labels: {labels:?}");
    for label in &labels {
        assert!(
            label.ends_with(", start") || label.contains(" moves in") || label.contains(" move in"),
            "{label}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_perfect_match_score_reports_an_unbounded_elo_with_its_lower_bound() {
    let dir = workdir("elo");
    let out = run(
        &dir,
        &[
            "selfplay", "gomoku", "--a", "engine", "--b", "random", "--games", "4", "--depth", "2",
        ],
        "",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("A won every game"), "{}", out.stdout);
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("Elo A-B:"))
        .unwrap();
    assert!(
        line.starts_with("Elo A-B: unbounded (A won every game); 95% CI: at least +"),
        "{line}"
    );
    let out = run(
        &dir,
        &[
            "match", "gomoku", "--a", "engine", "--b", "random", "--games", "4", "--depth", "2",
            "--json",
        ],
        "",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains(r#""elo":null"#), "{}", out.stdout);
    assert!(!out.stdout.contains("1000.0"), "{}", out.stdout);
    let key = r#""elo_ci95":["#;
    let at = out.stdout.find(key).unwrap() + key.len();
    let bound: f64 = out.stdout[at..].split(',').next().unwrap().parse().unwrap();
    // 4 wins in 4 games: the Wilson lower bound on the score is 4 / (4 + 1.96²) = 0.510,
    // +7 Elo; no finite upper bound.
    assert!((bound - 7.03).abs() < 0.1, "{bound}");
    assert!(out.stdout.contains(&format!(
        "{},null]",
        out.stdout[at..].split(',').next().unwrap()
    )));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 12. a long tournament shows its progress at a terminal, nothing on a pipe ------------

/// Runs `boardlab args` at a terminal, which must show each of `shown`, then on a pipe,
/// where it must succeed with no bar: none of `bar_only` and no carriage return on
/// stderr. Gives the run on the pipe.
fn progress_only_at_a_terminal(
    dir: &Path,
    args: &[&str],
    shown: &[&str],
    bar_only: &[&str],
) -> Run {
    let at_terminal = run_at_terminal(dir, args, &[]).shown;
    for text in shown {
        assert!(
            at_terminal.contains(text),
            "{args:?}: no '{text}' in {at_terminal}"
        );
    }
    let out = run(dir, args, "");
    assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
    for text in bar_only {
        assert!(!out.stderr.contains(text), "{args:?}: {}", out.stderr);
    }
    assert!(!out.stderr.contains('\r'), "{args:?}: {}", out.stderr);
    out
}

#[test]
fn selfplay_shows_games_and_moves_at_a_terminal_and_nothing_on_a_pipe() {
    let dir = workdir("progress");
    progress_only_at_a_terminal(
        &dir,
        &["selfplay", "clamp", "--games", "2", "--depth", "2"],
        &["0/2 games, ", " moves, "],
        &["moves, "],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn balance_shows_each_rounds_games_and_moves_at_a_terminal_and_nothing_on_a_pipe() {
    let dir = workdir("progress-balance");
    let args = [
        "balance",
        "clamp",
        "--vary",
        "adjudicate=true,false",
        "--depth",
        "1",
        "--round-pairs",
        "1",
        "--max-pairs",
        "1",
    ];
    let out = progress_only_at_a_terminal(&dir, &args, &["0/4 games, ", " moves, "], &["moves, "]);
    // On a pipe: the round's line only, then the report on stdout.
    assert_eq!(
        out.stderr.trim_end(),
        "round 1 of 1: 4 games of 2 variants",
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_and_book_show_progress_at_a_terminal_and_only_their_lines_on_a_pipe() {
    let dir = workdir("progress-match");
    // The game lines still show at a terminal, above the bar.
    let out = progress_only_at_a_terminal(
        &dir,
        &["match", "clamp", "--games", "2", "--depth", "2"],
        &["0/2 games, ", "game 1: "],
        &["games, "],
    );
    assert_eq!(
        out.stderr
            .lines()
            .filter(|l| l.starts_with("game "))
            .count(),
        2
    );
    let out = progress_only_at_a_terminal(
        &dir,
        &["book", "gomoku", "--count", "3", "--depth", "2"],
        &["/3 openings kept, "],
        &[],
    );
    // On a pipe: the summary line only, no line per kept opening.
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.starts_with("3 openings kept of "),
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
