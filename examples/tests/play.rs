//! Scripted terminal tests of `boardlab play` and `boardlab replay`: the real binary with
//! piped stdin, for every game.

use std::{
    io::Write,
    path::PathBuf,
    process::{Command, Stdio},
};

mod cli_common;

use cli_common::{BIN, run, run_at_terminal};

/// A fresh, empty working directory for one test.
fn workdir(name: &str) -> PathBuf {
    cli_common::workdir("play", name)
}

/// The last board drawn before `marker` in a transcript (from its column-letter header).
fn board_before(transcript: &str, marker: &str) -> String {
    let end = transcript.find(marker).expect("marker in transcript");
    let head = &transcript[..end];
    let lines: Vec<&str> = head.lines().collect();
    // A board is: letters, rows, letters, then the status line.
    let mut last_header = None;
    let mut first_header = None;
    for (i, l) in lines.iter().enumerate().rev() {
        if l.trim_start().starts_with("a b") {
            if last_header.is_none() {
                last_header = Some(i);
            } else {
                first_header = Some(i);
                break;
            }
        }
    }
    let (a, b) = (
        first_header.expect("board start"),
        last_header.expect("board end"),
    );
    lines[a..=b + 1].join("\n")
}

/// Plays `moves` with both sides human after `illegal` (each line refused with the message
/// in `errors`), saves, undoes back to the start, loads and checks the position came back.
fn scripted(game: &str, spec: &str, illegal: &[(&str, &str)], moves: &[&str], result: &str) {
    let dir = workdir(game);
    let mut input = String::new();
    for (line, _) in illegal {
        input.push_str(line);
        input.push('\n');
    }
    for m in moves {
        input.push_str(m);
        input.push('\n');
    }
    input.push_str("save game.txt\n");
    for _ in 0..moves.len() {
        input.push_str("undo\n");
    }
    input.push_str("undo\nload game.txt\nquit\n");
    let out = run(
        &dir,
        &["play", spec, "--human", "both", "--no-color"],
        &input,
    );
    assert!(out.success(), "stderr: {}", out.stderr);
    for (line, error) in illegal {
        assert!(
            out.stdout.contains(&format!("error: {error}\n")),
            "missing error '{error}' for '{line}' in:\n{}",
            out.stdout
        );
    }
    assert!(
        out.stdout.contains(&format!("Game over: {result}.")),
        "no result '{result}' in:\n{}",
        out.stdout
    );
    assert!(out.stdout.contains("error: nothing to undo"));
    assert!(out.stdout.contains("Took back to move 1.\n"));
    let saved = std::fs::read_to_string(dir.join("game.txt")).expect("saved file");
    assert_eq!(saved.lines().count(), 2 + moves.len(), "{saved}");
    // The board at the end of the game and after loading the save are the same.
    let end = board_before(&out.stdout, "Game over:");
    let loaded = board_before(
        &out.stdout[out.stdout.find("Loaded").expect("loaded")..],
        "> ",
    );
    assert_eq!(
        end.lines()
            .take(end.lines().count() - 1)
            .collect::<Vec<_>>(),
        loaded
            .lines()
            .take(end.lines().count() - 1)
            .collect::<Vec<_>>()
    );
    insta::assert_snapshot!(format!("{game}_transcript"), out.stdout);
    // Replay steps through the saved game.
    let replay = run(
        &dir,
        &["replay", "game.txt", "--no-color"],
        "\n\nb\n999\n3\n",
    );
    assert!(replay.success(), "{}", replay.stderr);
    assert!(replay.stdout.contains("after 1 of"));
    assert!(replay.stdout.contains("error: no move 999"));
    assert!(replay.stdout.contains("after 3 of"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gomoku_scripted_game() {
    scripted(
        "gomoku",
        "gomoku",
        &[
            (
                "h8 h9",
                "'h8 h9' is not a move: expected one square, like h8",
            ),
            ("z99", "z99 is off the 15x15 board"),
        ],
        &["h8", "a1", "I8", "a2", " j8 ", "a3", "K8", "a4", "l8"],
        "Black wins: five in a row h8-l8",
    );
}

#[test]
fn fourshift_scripted_game() {
    scripted(
        "fourshift",
        "fourshift",
        &[(
            "a1-a2",
            "you still have 8 piece(s) in hand: place one before shifting",
        )],
        &["a1", "f6", "b1", "f5", "c1", "f3", "D1"],
        "Black wins: four in a row a1-d1",
    );
}

#[test]
fn clamp_scripted_game() {
    scripted(
        "clamp",
        "clamp:quiet_limit=4,adjudicate=true",
        &[("c3-c4", "c3 is not your piece"), ("c6", "c6 is occupied")],
        &["d7", "c3 c4", "e7", "c4-c3"],
        "Black wins: 4 half-moves without a capture, adjudicated: 6 pieces to 4",
    );
}

#[test]
fn connect6_scripted_game() {
    scripted(
        "connect6",
        "connect6",
        &[(
            "j10,k10",
            "the first move of the game places a single stone, not two",
        )],
        &[
            "j10", "a1 c1", "k10,l10", "e1,g1", "N10,m10", "h1,i1", "o10 p10",
        ],
        "Black wins: seven in a row j10-p10",
    );
}

#[test]
fn amazons_scripted_moves_and_engine_game() {
    // Scripted: an illegal move of each kind, two moves, save, undo to the start, load.
    let dir = workdir("amazons");
    let input =
        "d1-d7/g7\na6-a6/a5\na6 a5 a6\nA3-a4/B4\nsave a.txt\nundo\nundo\nundo\nload a.txt\nquit\n";
    let out = run(
        &dir,
        &["play", "amazons:size=8", "--human", "both", "--no-color"],
        input,
    );
    assert!(out.success());
    assert!(
        out.stdout
            .contains("error: d1 is empty: there is no queen to move\n")
    );
    assert!(
        out.stdout
            .contains("error: the queen on a6 must move to another square\n")
    );
    assert!(out.stdout.contains("error: nothing to undo"));
    assert!(out.stdout.contains("Loaded 2 moves from a.txt."));
    insta::assert_snapshot!("amazons_transcript", out.stdout);
    // A full game to a win: the engine plays both sides at depth 1.
    let out = run(
        &dir,
        &["play", "amazons:size=8", "--human", "none", "--depth", "1"],
        "",
    );
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stdout.contains("(computer) plays"));
    let over = out
        .stdout
        .lines()
        .find(|l| l.starts_with("Game over: "))
        .unwrap_or_else(|| panic!("no result in {}", out.stdout));
    assert!(
        over.contains("no legal move") || over.contains("wins"),
        "{over}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn human_against_engine_with_undo_and_hint() {
    let dir = workdir("engine");
    let input = "hint\nh8\nundo\nundo\nh8\nquit\n";
    let out = run(
        &dir,
        &[
            "play",
            "gomoku",
            "--human",
            "first",
            "--depth",
            "1",
            "--no-color",
        ],
        input,
    );
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stdout.contains("hint: "), "{}", out.stdout);
    assert_eq!(out.stdout.matches("White (computer) plays").count(), 2);
    // Undo took back the engine's reply and the human's move.
    assert!(out.stdout.contains("Took back to move 1."));
    assert!(out.stdout.contains("error: nothing to undo"));
    // Thinking is silent on a pipe: no search lines, no evaluation.
    assert!(!out.stderr.contains("thinking"), "{}", out.stderr);
    // Engine first: it moves at once, and undo cannot take its first move back for good.
    let out = run(
        &dir,
        &["play", "fourshift", "--human", "second", "--depth", "1"],
        "",
    );
    assert!(out.success());
    assert_eq!(out.stdout.matches("Black (computer) plays").count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_and_files_are_reported() {
    let dir = workdir("bad");
    std::fs::write(
        dir.join("bad.txt"),
        "boardlab-save 1\ngame gomoku\nh8\nh8\n",
    )
    .expect("write");
    let out = run(
        &dir,
        &["play", "gomoku", "--human", "both", "--load", "bad.txt"],
        "",
    );
    assert!(!out.success());
    assert!(
        out.stderr.contains("line 4: move 2 'h8': h8 is occupied"),
        "{}",
        out.stderr
    );
    let out = run(
        &dir,
        &["play", "gomoku", "--human", "both"],
        "h8\nhelp\nrestart\nundo\nload bad.txt\nload missing.txt\nsave\nload\n\u{0}\u{7f}garbage 99999999999999999999\n",
    );
    assert!(out.success());
    assert!(
        out.stdout
            .contains("error: bad.txt: line 4: move 2 'h8': h8 is occupied")
    );
    assert!(out.stdout.contains("error: cannot read missing.txt"));
    assert!(out.stdout.contains("error: save needs a file name"));
    assert!(
        out.stdout
            .contains("  undo, u      take back to your previous turn")
    );
    assert!(out.stdout.contains("New game"));
    // An undo straight after restart brings the game back.
    assert!(
        out.stdout
            .contains("Back to the game before 'restart', at move 2.")
    );
    let out = run(&dir, &["play", "chess"], "");
    assert!(!out.success());
    let out = run(&dir, &["replay", "missing.txt"], "");
    assert!(!out.success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts `boardlab` with piped stdin kept open, for tests that act while it runs.
fn spawn(dir: &PathBuf, args: &[&str]) -> std::process::Child {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start boardlab")
}

#[test]
fn levels_name_the_computer_and_a_random_seed_is_printed() {
    let dir = workdir("levels");
    let out = run(&dir, &["play", "fourshift", "--level", "1"], "a1\nquit\n");
    assert!(out.success(), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("The computer: level 1, random moves, seed ")
    );
    assert!(out.stdout.contains("White (computer) plays"));
    // The seed is drawn per game and printed so the game can be replayed.
    let seed = |text: &str| {
        let at = text.find("--seed ").expect("seed note") + 7;
        text[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .expect("digits")
            .to_string()
    };
    let (a, b) = (
        seed(&out.stdout),
        seed(&run(&dir, &["play", "fourshift", "--level", "1"], "quit\n").stdout),
    );
    assert_ne!(a, b, "two games drew the same seed");
    // The printed seed replays the same reply.
    let replay = |s: &str| {
        run(
            &dir,
            &["play", "fourshift", "--level", "1", "--seed", s],
            "a1\nquit\n",
        )
        .stdout
    };
    let (first, second) = (replay(&a), replay(&a));
    let reply = |t: &str| {
        t.lines()
            .find(|l| l.contains("(computer) plays"))
            .map(str::to_string)
    };
    assert_eq!(reply(&first), reply(&second));
    assert!(
        !first.contains("seed "),
        "a given seed is not announced again"
    );
    // Level 2 is the article's AI; the engine by name; levels are checked.
    let out = run(&dir, &["play", "gomoku", "--level", "2"], "quit\n");
    assert!(
        out.stdout
            .contains("level 2, the source article's simple AI")
    );
    let out = run(
        &dir,
        &["play", "gomoku", "--opponent", "engine", "--depth", "1"],
        "quit\n",
    );
    assert!(
        out.stdout
            .contains("The computer: the engine searching 1 ply a move"),
        "{}",
        out.stdout
    );
    let out = run(&dir, &["play", "gomoku", "--level", "6"], "");
    assert!(!out.success());
    assert!(out.stderr.contains("--level"), "{}", out.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_board_per_turn_and_verbose_thinking() {
    let dir = workdir("verbose");
    let args = [
        "play",
        "gomoku",
        "--depth",
        "2",
        "--seed",
        "3",
        "--no-color",
    ];
    let out = run(&dir, &args, "h8\nquit\n");
    // The start board, then one board after the computer's reply: not one after each move.
    assert_eq!(
        out.stdout
            .matches("   a b c d e f g h i j k l m n o\n15 ")
            .count(),
        2
    );
    assert!(!out.stderr.contains("score"), "{}", out.stderr);
    let mut verbose = args.to_vec();
    verbose.push("--verbose");
    let out = run(&dir, &verbose, "h8\nquit\n");
    assert!(
        out.stderr.contains("thinking: depth 2 score"),
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rules_moves_and_short_commands() {
    let dir = workdir("rules");
    let out = run(
        &dir,
        &[
            "play",
            "fourshift:pieces=6",
            "--human",
            "both",
            "--no-color",
        ],
        "rules\na1\nb1\nmoves\nu\nmoves\nr\nmoves\nq\nthis line is never read\n",
    );
    assert!(out.success(), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("Fourshift: Black (X) and White (O) each have 6 pieces")
    );
    assert!(
        out.stdout
            .contains("Parameters: fourshift:size=6,k=4,pieces=6")
    );
    assert!(out.stdout.contains("1. a1  2. b1\n"), "{}", out.stdout);
    assert!(out.stdout.contains("Took back to move 2."));
    assert!(out.stdout.contains("New game"));
    assert!(out.stdout.contains("No moves yet."));
    assert!(!out.stdout.contains("this line is never read"));
    let out = run(&dir, &["play", "clamp", "--human", "both"], "rules\nquit\n");
    assert!(
        out.stdout
            .contains("Clamp: each turn either drop a new piece")
    );
    let out = run(
        &dir,
        &["play", "connect6", "--human", "both"],
        "j10\nquit\n",
    );
    assert!(out.stdout.contains("Black to move · place one stone"));
    assert!(out.stdout.contains("White to move · place two stones"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn clamp_announces_captures() {
    let dir = workdir("captures");
    let out = run(
        &dir,
        &["play", "clamp", "--human", "both", "--no-color"],
        "d6-d4\nc3-c4\ng7\ne3-e4\nquit\n",
    );
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stdout.contains("e3-e4 captures d4\n"), "{}", out.stdout);
    assert!(out.stdout.contains("on board X 4, O 4"));
    assert!(
        out.stdout
            .contains("drop zones: Black ranks 6-8, White ranks 1-3")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Replacing a file is destructive: asked at a terminal (a pseudo-terminal from `script`),
/// refused on a pipe, where no one can answer.
#[test]
fn save_asks_before_replacing_a_file_at_a_terminal_and_refuses_on_a_pipe() {
    let dir = workdir("overwrite");
    std::fs::write(dir.join("keep.txt"), "precious").expect("write");
    let out = run(
        &dir,
        &["play", "gomoku", "--human", "both"],
        "h8\nsave keep.txt\ny\nquit\n",
    );
    assert!(
        out.stdout
            .contains("error: keep.txt exists: not replaced (save under another name)"),
        "{}",
        out.stdout
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("keep.txt")).expect("read"),
        "precious"
    );
    let out = run_at_terminal(
        &dir,
        &["play", "gomoku", "--human", "both", "--no-color"],
        &["h8", "save keep.txt", "n", "save keep.txt", "y", "quit"],
    );
    let text = out.shown;
    assert!(
        text.contains("keep.txt exists. Replace it? [y/N]"),
        "{text}"
    );
    assert!(text.contains("Not saved."), "{text}");
    assert!(text.contains("Saved 1 move to keep.txt."), "{text}");
    let saved = std::fs::read_to_string(dir.join("keep.txt")).expect("read");
    assert!(saved.starts_with("boardlab-save"), "{saved}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// At a terminal (a pseudo-terminal from `script`), quitting or restarting a game that is
/// not saved asks first; piped input is never asked.
#[test]
fn unsaved_games_ask_before_quit_and_restart_at_a_terminal() {
    let dir = workdir("confirm");
    let out = run_at_terminal(
        &dir,
        &["play", "fourshift", "--human", "both", "--no-color"],
        &["a1", "r", "n", "q", "n", "save g.txt", "q"],
    );
    let text = &out.shown;
    assert!(
        text.contains("The game is not saved. Start a new one anyway? [y/N]"),
        "{text}"
    );
    assert!(
        text.contains("The game is not saved. Quit anyway? [y/N]"),
        "{text}"
    );
    assert!(text.contains("Saved 1 move to g.txt."), "{text}");
    assert!(!text.contains("New game."), "{text}");
    assert_eq!(out.code, Some(0), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_saves_the_game_and_says_where() {
    let dir = workdir("sigint");
    let mut child = spawn(&dir, &["play", "fourshift", "--human", "both"]);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"a1\nf6\n").expect("type");
    stdin.flush().expect("flush");
    // Wait until both moves are played (the autosave is kept current after each): the
    // board after f6 says Black is to move at move 3. Read from the pipe, not timed, so
    // a loaded machine cannot send the signal too early.
    let path = dir.join("boardlab-autosave-fourshift.save");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    while !line.contains("move 3 · Black to move") {
        line.clear();
        let read = std::io::BufRead::read_line(&mut stdout, &mut line).expect("read");
        assert!(read > 0, "boardlab ended before the two moves were played");
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(status.success());
    let out = child.wait_with_output().expect("wait");
    drop(stdin);
    assert_eq!(out.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("boardlab-autosave-fourshift.save"),
        "{stderr}"
    );
    let saved = std::fs::read_to_string(&path).expect("autosave written");
    assert_eq!(saved.lines().skip(2).collect::<Vec<_>>(), ["a1", "f6"]);
    // And it loads without naming the game.
    let out = run(
        &dir,
        &[
            "play",
            "--load",
            path.to_str().expect("utf-8"),
            "--human",
            "both",
        ],
        "quit\n",
    );
    assert!(out.success(), "{}", out.stderr);
    assert!(
        out.stdout.contains("move 3 · Black to move"),
        "{}",
        out.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn load_takes_the_game_from_the_file_and_a_disagreeing_spec_is_an_error() {
    let dir = workdir("load");
    std::fs::write(
        dir.join("g.txt"),
        "boardlab-save 1\ngame fourshift:pieces=6\na1\n",
    )
    .expect("write");
    let out = run(
        &dir,
        &["play", "--load", "g.txt", "--human", "both"],
        "quit\n",
    );
    assert!(out.success(), "{}", out.stderr);
    assert!(
        out.stdout.starts_with("fourshift:size=6,k=4,pieces=6"),
        "{}",
        out.stdout
    );
    let out = run(&dir, &["play", "fourshift", "--load", "g.txt"], "quit\n");
    assert!(!out.success());
    assert!(
        out.stderr
            .contains("g.txt is a game of fourshift:size=6,k=4,pieces=6"),
        "{}",
        out.stderr
    );
    let out = run(
        &dir,
        &[
            "play",
            "fourshift:pieces=6",
            "--load",
            "g.txt",
            "--human",
            "both",
        ],
        "quit\n",
    );
    assert!(out.success(), "{}", out.stderr);
    // Without spec or file, clap names what is missing and shows the usage.
    let out = run(&dir, &["play"], "");
    assert!(!out.success());
    assert!(out.stderr.contains("<SPEC>"), "{}", out.stderr);
    assert!(
        out.stderr.contains("(usage: boardlab play"),
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_lists_and_opens_games_of_a_records_file() {
    let dir = workdir("records");
    let out = run(
        &dir,
        &[
            "selfplay",
            "fourshift",
            "--games",
            "4",
            "--depth",
            "1",
            "--records",
            "rec.txt",
        ],
        "",
    );
    assert!(out.success(), "{}", out.stderr);
    let out = run(&dir, &["replay", "rec.txt"], "");
    assert!(!out.success());
    assert!(
        out.stdout.contains("rec.txt holds 4 games:"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("   3  game 3:"), "{}", out.stdout);
    assert!(out.stderr.contains("--game N (1-4)"), "{}", out.stderr);
    let out = run(&dir, &["replay", "rec.txt", "--game", "3"], "e\nq\n");
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stdout.contains("game over"), "{}", out.stdout);
    let out = run(&dir, &["replay", "rec.txt", "--game", "5"], "");
    assert!(
        out.stderr.contains("game 5 is out of range"),
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
