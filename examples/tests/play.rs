//! Scripted terminal tests of `boardlab play` and `boardlab replay`: the real binary with
//! piped stdin, for every game.

use std::{
    io::Write,
    path::PathBuf,
    process::{Command, Stdio},
};

const BIN: &str = env!("CARGO_BIN_EXE_boardlab");

/// A fresh, empty working directory for one test (save files are written relative to it).
fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardlab-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

struct Run {
    stdout: String,
    stderr: String,
    success: bool,
}

fn run(dir: &PathBuf, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start boardlab");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait for boardlab");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
    }
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
    assert!(out.success, "stderr: {}", out.stderr);
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
    assert!(replay.success, "{}", replay.stderr);
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
            (
                "z99",
                "'z99' is not a square: expected a column letter a-z and a row number, like c3",
            ),
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
        "Black wins: 4 half-moves without a capture: Black wins on adjudication, 6 pieces to 4",
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
    assert!(out.success);
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
    assert!(out.success, "{}", out.stderr);
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
    assert!(out.success, "{}", out.stderr);
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
    assert!(out.success);
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
    assert!(!out.success);
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
    assert!(out.success);
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
    assert!(out.stdout.contains("New game."));
    assert!(out.stdout.contains("error: nothing to undo"));
    let out = run(&dir, &["play", "chess"], "");
    assert!(!out.success);
    let out = run(&dir, &["replay", "missing.txt"], "");
    assert!(!out.success);
    let _ = std::fs::remove_dir_all(&dir);
}
