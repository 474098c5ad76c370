//! `boardlab balance`: arguments checked before any game, and a run sharded round by round
//! (`--shard K/N --json`, `boardlab merge`, `--after`) giving the one-process report.
#![allow(clippy::unwrap_used)] // tests unwrap: a panic is the failure report

use std::{fs, path::PathBuf, process::Command};

const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardlab-balance-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs boardlab; gives (success, stdout, stderr).
fn boardlab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BOARDLAB).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_variants_and_options_fail_before_any_game() {
    // The bad value comes last in the grid, behind variants that would take long to play
    // at this depth: the error must come first, and no round is reported.
    for (args, expected) in [
        (
            &["--vary", "pieces=6,8,99"][..],
            "--vary setting pieces=99: bad game spec: pieces=99 is out of range",
        ),
        (
            &["--vary", "colour=white,black"][..],
            "--vary setting colour=white: bad game spec: unknown key 'colour'",
        ),
        (
            &["--vary", "pieces"][..],
            "bad --vary 'pieces': expected key=v1,v2,...",
        ),
        (
            &["--vary", "pieces=6,8", "--vary", "pieces=4"][..],
            "--vary pieces is given twice",
        ),
        (
            &["--vary", "pieces=6"][..],
            "balance compares variants: --vary gives only one",
        ),
        (
            &["--vary", "pieces=6,8", "--confidence", "1"][..],
            "--confidence 1 is out of range",
        ),
        (
            &[
                "--vary",
                "pieces=6,8",
                "--round-pairs",
                "10",
                "--max-pairs",
                "4",
            ][..],
            "--max-pairs 4 is less than one round of --round-pairs 10",
        ),
        (
            &["--vary", "pieces=6,8", "--shard", "1/2"][..],
            "give --json with --shard",
        ),
    ] {
        let mut all = vec!["balance", "fourshift", "--depth", "30"];
        all.extend_from_slice(args);
        let (ok, stdout, stderr) = boardlab(&all);
        assert!(!ok, "{args:?} succeeded: {stdout}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(expected),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("round 1 of"), "{args:?} played: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
    }
}

#[test]
fn the_plot_path_is_checked_before_any_game_and_left_alone_on_an_early_error() {
    let dir = temp_dir("plot");
    let unwritable = dir.join("no-such-dir").join("chart.svg");
    let unwritable = unwritable.to_str().unwrap();
    let (ok, _, stderr) = boardlab(&[
        "balance",
        "fourshift",
        "--depth",
        "30",
        "--vary",
        "pieces=6,8",
        "--plot",
        unwritable,
    ]);
    assert!(!ok);
    assert!(
        stderr.starts_with(&format!("error: cannot write the chart to {unwritable}: ")),
        "{stderr}"
    );
    assert!(!stderr.contains("round 1 of"), "played: {stderr}");
    // A good path, then an error before any game (no --after file): the chart path is not
    // created, and an existing chart is not emptied.
    let fresh = dir.join("fresh.svg");
    let kept = dir.join("kept.svg");
    fs::write(&kept, "<svg/>").unwrap();
    let missing = dir.join("missing.json");
    for chart in [&fresh, &kept] {
        let (ok, _, stderr) = boardlab(&[
            "balance",
            "fourshift",
            "--depth",
            "30",
            "--vary",
            "pieces=6,8",
            "--plot",
            chart.to_str().unwrap(),
            "--after",
            missing.to_str().unwrap(),
        ]);
        assert!(!ok);
        assert!(stderr.contains("missing.json"), "{stderr}");
        assert!(!stderr.contains("round 1 of"), "played: {stderr}");
    }
    assert!(!fresh.exists(), "an empty chart was left behind");
    assert_eq!(fs::read_to_string(&kept).unwrap(), "<svg/>");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_run_sharded_round_by_round_gives_the_one_process_report() {
    let dir = temp_dir("shards");
    // Three rounds, and a drop in the last: pieces=8 is surely less fair than pieces=4.
    let run: Vec<&str> = vec![
        "balance",
        "fourshift",
        "--vary",
        "pieces=4,8",
        "--vary",
        "centre_opening=true,false",
        "--depth",
        "3",
        "--round-pairs",
        "20",
        "--max-pairs",
        "60",
        "--confidence",
        "0.2",
    ];
    let (ok, whole, stderr) = boardlab(&run);
    assert!(ok, "{stderr}");
    assert!(whole.contains("dropped after round"), "{whole}");
    assert!(
        whole.contains("games spent: 480 of the full grid's 480"),
        "{whole}"
    );

    let merged = dir.join("merged.json");
    let merged_arg = merged.display().to_string();
    for round in 0..4 {
        let mut shards = Vec::new();
        for k in 1..=3 {
            let shard = format!("{k}/3");
            let mut args = run.clone();
            args.extend_from_slice(&["--json", "--shard", &shard]);
            if round > 0 {
                args.extend_from_slice(&["--after", &merged_arg]);
            }
            let (ok, stdout, stderr) = boardlab(&args);
            assert!(ok, "round {round} shard {shard}: {stderr}");
            let path = dir.join(format!("shard{k}.json"));
            fs::write(&path, stdout).unwrap();
            shards.push(path.display().to_string());
        }
        let mut args = vec!["merge"];
        args.extend(shards.iter().map(String::as_str));
        let (ok, stdout, stderr) = boardlab(&args);
        assert!(ok, "merge after round {round}: {stderr}");
        // A fourth round of shards after the last plays nothing and merges to the same.
        if round == 3 {
            assert_eq!(fs::read_to_string(&merged).unwrap(), stdout);
        }
        fs::write(&merged, stdout).unwrap();
    }
    let mut args = run.clone();
    args.extend_from_slice(&["--after", &merged_arg]);
    let (ok, sharded, stderr) = boardlab(&args);
    assert!(ok, "{stderr}");
    assert!(
        !stderr.contains("round 1 of"),
        "the finished run played again: {stderr}"
    );
    assert_eq!(sharded, whole);

    // One shard's file alone is not the run's games.
    let mut args = run.clone();
    let shard = dir.join("shard1.json").display().to_string();
    args.extend_from_slice(&["--after", &shard]);
    let (ok, _, stderr) = boardlab(&args);
    assert!(!ok && stderr.contains("--after"), "{stderr}");
    let _ = fs::remove_dir_all(&dir);
}
