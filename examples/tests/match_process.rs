//! `boardlab match` with external engines (scripted fakes that time out, crash and play
//! illegal moves, through each protocol, and the real boardlab engines), `--sprt`,
//! `--records`; shards merged with `boardlab merge` against the one-process run, also as
//! separate processes under GNU parallel.
#![allow(clippy::unwrap_used)] // tests unwrap: a panic is the failure report

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Output},
    time::{Duration, Instant},
};

const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardlab-match-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn boardlab(args: &[&str]) -> Output {
    Command::new(BOARDLAB).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes a fake engine script and gives the player spec that runs it.
fn fake(dir: &Path, protocol: &str, name: &str, body: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    fs::write(&path, body).unwrap();
    format!("{protocol}:sh {}", path.display())
}

/// Plays 2 games of `spec` between the fake (A) and the random player; A must lose both
/// with `reason` in each game line. Gives stderr.
fn fake_loses_both(spec: &str, player: &str, budget: &[&str], reason: &str) -> String {
    let mut args = vec![
        "match", spec, "--a", player, "--b", "random", "--games", "2",
    ];
    args.extend_from_slice(budget);
    args.extend_from_slice(&["--tolerance", "150", "--timeout", "300"]);
    let out = boardlab(&args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("score: 0-0-2"),
        "{player}: {stdout}\n{stderr}"
    );
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    for line in lines {
        assert!(line.contains(reason), "expected '{reason}' in: {line}");
    }
    stderr
}

/// Runs `args`, which must fail at once with an error naming `who` and `reason`, and print
/// no game line.
fn fails_before_any_game(args: &[&str], who: &str, reason: &str) {
    let started = Instant::now();
    let out = boardlab(args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(who) && stderr.contains(reason), "{stderr}");
    assert!(!stderr.lines().any(|l| l.starts_with("game ")), "{stderr}");
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
    assert!(started.elapsed() < Duration::from_secs(10));
}

const UGI_HANDSHAKE: &str = r#"
while read -r line; do
  case "$line" in
    ugi) echo "id name fake"; echo ugiok ;;
    isready) echo readyok ;;
    go*) on_go ;;
    quit) exit 0 ;;
  esac
done
"#;

fn ugi_fake(dir: &Path, name: &str, on_go: &str) -> String {
    let body = format!(
        "echo $$ >> {}/pids\non_go() {{ {on_go}; }}\n{UGI_HANDSHAKE}",
        dir.display()
    );
    fake(dir, "ugi", name, &body)
}

#[test]
fn ugi_engines_that_time_out_crash_or_play_illegal_moves_lose() {
    let dir = temp_dir("ugi");
    let started = Instant::now();
    let timeout = ugi_fake(&dir, "timeout", ":");
    fake_loses_both(
        "gomoku",
        &timeout,
        &["--time", "50"],
        "timed out (no move within 200 ms)",
    );
    // Both timed-out processes were killed, not left running.
    for pid in fs::read_to_string(dir.join("pids"))
        .unwrap()
        .split_whitespace()
    {
        let alive = Command::new("kill")
            .args(["-0", pid])
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
            .success();
        assert!(!alive, "process {pid} still runs after its timeout");
    }
    // Under a depth budget the move limit is --timeout.
    fake_loses_both(
        "gomoku",
        &timeout,
        &["--depth", "2"],
        "no move within 300 ms",
    );
    let crash = ugi_fake(&dir, "crash", "exit 3");
    fake_loses_both(
        "gomoku",
        &crash,
        &["--time", "50"],
        "crashed (exit status: 3)",
    );
    let illegal = ugi_fake(&dir, "illegal", "echo 'info depth 1'; echo 'bestmove zz99'");
    fake_loses_both(
        "gomoku",
        &illegal,
        &["--time", "50"],
        "played an illegal move: 'zz99'",
    );
    let none = ugi_fake(&dir, "none", "echo 'bestmove none'");
    fake_loses_both("fourshift", &none, &["--time", "50"], "returned no move");
    // An engine that cannot get through the handshake stops the match before any game.
    let gone = fake(&dir, "ugi", "gone", "exit 0");
    fails_before_any_game(
        &[
            "match", "gomoku", "--a", &gone, "--games", "2", "--time", "50",
        ],
        "player A (",
        "crashed (exit status: 0) at the start: no game was played",
    );
    assert!(started.elapsed() < Duration::from_secs(60));
}

/// A pbrain brain that accepts START and runs `on_move` when asked for a move (after
/// `DONE` or `TURN`); `$stone` holds the last stone the manager sent in a BOARD.
fn pbrain_fake(dir: &Path, name: &str, on_start: &str, on_move: &str) -> String {
    let body = format!(
        r#"
while read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  case "$line" in
    START*) {on_start} ;;
    [0-9]*,[0-9]*,[12]) stone=${{line%,*}} ;;
    DONE|TURN*) {on_move} ;;
    END) exit 0 ;;
  esac
done
"#
    );
    fake(dir, "pbrain", name, &body)
}

#[test]
fn pbrain_brains_that_time_out_crash_refuse_or_play_illegal_moves_lose() {
    let dir = temp_dir("pbrain");
    let ok = "echo OK";
    let timeout = pbrain_fake(&dir, "timeout", ok, "echo 'MESSAGE thinking'");
    fake_loses_both(
        "gomoku",
        &timeout,
        &["--time", "50"],
        "timed out (no move within 200 ms)",
    );
    let crash = pbrain_fake(&dir, "crash", ok, "exit 7");
    fake_loses_both(
        "gomoku",
        &crash,
        &["--time", "50"],
        "crashed (exit status: 7)",
    );
    // A stone on an occupied point (the opening's last stone) and one off the board.
    let occupied = pbrain_fake(&dir, "occupied", ok, "echo \"$stone\"");
    fake_loses_both(
        "gomoku",
        &occupied,
        &["--time", "50"],
        "played an illegal move",
    );
    let off = pbrain_fake(&dir, "off", ok, "echo 15,3");
    fake_loses_both(
        "gomoku",
        &off,
        &["--time", "50"],
        "15,3 is off the 15x15 board",
    );
    let refuse = pbrain_fake(&dir, "refuse", "echo 'ERROR unsupported size'", "echo 7,7");
    fails_before_any_game(
        &[
            "match", "gomoku", "--a", &refuse, "--games", "2", "--time", "50",
        ],
        "player A (",
        "broke the protocol: refused START 15: ERROR unsupported size at the start",
    );
    // pbrain is gomoku's protocol: other games are refused before any game.
    let out = boardlab(&["match", "connect6", "--a", &timeout, "--games", "2"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("pbrain brains play gomoku only"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn botzone_bots_that_time_out_crash_or_play_illegal_moves_lose() {
    let dir = temp_dir("botzone");
    // The first turn has twice the time (Botzone: 2 s, then 1 s).
    let timeout = fake(&dir, "botzone", "timeout", "while read -r line; do :; done");
    fake_loses_both(
        "amazons:size=8",
        &timeout,
        &["--time", "50"],
        "timed out (no move within 250 ms)",
    );
    let crash = fake(&dir, "botzone", "crash", "read -r n; exit 9");
    fake_loses_both(
        "amazons:size=8",
        &crash,
        &["--time", "50"],
        "crashed (exit status: 9)",
    );
    let illegal = fake(&dir, "botzone", "illegal", "read -r n; echo '0 0 0 0 0 0'");
    fake_loses_both(
        "amazons:size=8",
        &illegal,
        &["--time", "50"],
        "played an illegal move",
    );
    let garbage = fake(&dir, "botzone", "garbage", "read -r n; echo 'hello'");
    fake_loses_both(
        "amazons:size=8",
        &garbage,
        &["--time", "50"],
        "'hello' is not a move x0 y0 x1 y1 x2 y2",
    );
    let out = boardlab(&["match", "amazons", "--a", &timeout, "--games", "2"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("amazons:size=8 only"),
        "{}",
        text(&out.stderr)
    );
}

/// The real boardlab engines through each protocol play whole games and are never
/// faulted (a generous tolerance: the machine may be loaded).
#[test]
fn boardlab_engines_play_through_every_protocol() {
    for (spec, a, b) in [
        (
            "gomoku:size=9",
            format!("pbrain:{BOARDLAB} pbrain"),
            format!("ugi:{BOARDLAB} engine"),
        ),
        (
            "fourshift:size=5,pieces=5",
            format!("ugi:{BOARDLAB} engine"),
            "baseline".to_string(),
        ),
        (
            "amazons:size=8",
            format!("botzone:{BOARDLAB} botzone --player random"),
            format!("botzone:{BOARDLAB} botzone --player random"),
        ),
    ] {
        let out = boardlab(&[
            "match",
            spec,
            "--a",
            &a,
            "--b",
            &b,
            "--games",
            "2",
            "--time",
            "50",
            "--tolerance",
            "5000",
        ]);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        for fault in [
            "timed out",
            "crashed",
            "illegal",
            "returned no move",
            "protocol",
        ] {
            assert!(!stderr.contains(fault), "{spec}: {stderr}");
        }
        assert_eq!(
            stderr.lines().filter(|l| l.starts_with("game ")).count(),
            2,
            "{stderr}"
        );
    }
}

#[test]
fn sprt_stops_a_lopsided_match_and_records_are_written() {
    let dir = temp_dir("sprt");
    let records = dir.join("games.txt");
    let out = boardlab(&[
        "match",
        "fourshift:size=5,pieces=5",
        "--a",
        "engine",
        "--b",
        "random",
        "--games",
        "400",
        "--depth",
        "2",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "--concurrency",
        "2",
        "--records",
        records.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sprt = stdout.lines().find(|l| l.starts_with("SPRT")).unwrap();
    assert!(sprt.contains("H1 accepted"), "{stdout}");
    let played = text(&out.stderr)
        .lines()
        .filter(|l| l.starts_with("game "))
        .count();
    assert!(played < 400 && played % 2 == 0, "{played} games");
    let saved = fs::read_to_string(&records).unwrap();
    assert_eq!(saved.matches("# game ").count(), played);
    assert_eq!(saved.matches("boardlab-save").count(), played);
    let bad = boardlab(&["match", "gomoku", "--sprt", "elo0=5,elo1=0"]);
    assert!(
        text(&bad.stderr).contains("must be below"),
        "{}",
        text(&bad.stderr)
    );
    let sharded = boardlab(&[
        "match",
        "gomoku",
        "--sprt",
        "elo0=0,elo1=5",
        "--shard",
        "1/2",
    ]);
    assert!(text(&sharded.stderr).contains("cannot run in shards"));
}

fn selfplay_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "selfplay",
        "fourshift:size=5,pieces=5",
        "--games",
        "14",
        "--depth",
        "2",
        "--b",
        "random",
        "--seed",
        "3",
        "--json",
    ];
    args.extend_from_slice(extra);
    args
}

/// A `--json` report without its wall-clock figures (each game's `time`, the summary's
/// `move_time`): what is deterministic under a fixed depth.
fn without_times(json: &[u8]) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove("time");
                map.remove("move_time");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value = serde_json::from_slice(json).expect("a JSON report");
    strip(&mut value);
    value
}

/// Merged shards give the one-process report: byte for byte in the records, and in the
/// JSON report all but the move times (wall times of other processes).
#[test]
fn merged_shards_are_byte_identical_to_the_one_process_run() {
    let dir = temp_dir("shards");
    let whole_records = dir.join("whole.txt");
    let whole = boardlab(&selfplay_args(&[
        "--records",
        whole_records.to_str().unwrap(),
    ]));
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    let mut json_files = Vec::new();
    let mut record_files = Vec::new();
    // Shards given to merge in a scrambled order.
    for k in [3, 1, 2] {
        let shard = format!("{k}/3");
        let rec = dir.join(format!("shard{k}.txt"));
        let out = boardlab(&selfplay_args(&[
            "--shard",
            &shard,
            "--records",
            rec.to_str().unwrap(),
        ]));
        assert!(out.status.success(), "{}", text(&out.stderr));
        let json = dir.join(format!("shard{k}.json"));
        fs::write(&json, &out.stdout).unwrap();
        json_files.push(json.to_str().unwrap().to_string());
        record_files.push(rec.to_str().unwrap().to_string());
    }
    let merge = |files: &[String]| {
        let mut args = vec!["merge"];
        args.extend(files.iter().map(String::as_str));
        boardlab(&args)
    };
    let merged = merge(&json_files);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert_eq!(without_times(&merged.stdout), without_times(&whole.stdout));
    // The shards' move times are kept: every answer of every game is counted once.
    let answers = |json: &[u8]| {
        let v: serde_json::Value = serde_json::from_slice(json).unwrap();
        v["move_time"]["a"]["moves"].as_u64().unwrap()
            + v["move_time"]["b"]["moves"].as_u64().unwrap()
    };
    assert_eq!(answers(&merged.stdout), answers(&whole.stdout));
    let merged_records = merge(&record_files);
    assert_eq!(
        text(&merged_records.stdout),
        fs::read_to_string(&whole_records).unwrap()
    );
    // A shard missing, or given twice: refused, naming it.
    let out = merge(&json_files[..2]);
    assert!(
        text(&out.stderr).contains("shards missing: 2/3"),
        "{}",
        text(&out.stderr)
    );
    let twice = vec![
        json_files[0].clone(),
        json_files[0].clone(),
        json_files[1].clone(),
    ];
    assert!(text(&merge(&twice).stderr).contains("shard 3/3 is given twice"));
    let out = merge(&record_files[..2]);
    assert!(
        text(&out.stderr).contains("game 2 is missing"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn sharded_sweeps_merge_too() {
    let dir = temp_dir("sweep-shards");
    let sweep = ["--sweep", "pieces=4,5", "--sweep", "k=3,4"];
    let whole = boardlab(&selfplay_args(&sweep));
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    let mut files = Vec::new();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let mut extra = sweep.to_vec();
        extra.extend_from_slice(&["--shard", &shard]);
        let out = boardlab(&selfplay_args(&extra));
        assert!(out.status.success(), "{}", text(&out.stderr));
        let path = dir.join(format!("{k}.json"));
        fs::write(&path, &out.stdout).unwrap();
        files.push(path.to_str().unwrap().to_string());
    }
    let merged = boardlab(&["merge", &files[0], &files[1]]);
    assert_eq!(without_times(&merged.stdout), without_times(&whole.stdout));
    let value: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    assert_eq!(
        value.as_array().unwrap().len(),
        4,
        "two keys, two values each"
    );
}

/// The docs/distributed.md recipe on one machine: GNU parallel runs the shards as separate
/// processes, `merge` joins them. CI installs parallel (`.ci/run`); a developer machine
/// without it skips this test with a note.
#[test]
fn shards_under_gnu_parallel_merge_to_the_one_process_run() {
    let has_parallel = Command::new("sh")
        .args(["-c", "command -v parallel"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_parallel {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install GNU parallel"
        );
        eprintln!("skipped: GNU parallel is not installed");
        return;
    }
    let dir = temp_dir("parallel");
    let whole = boardlab(&selfplay_args(&[]));
    let args = selfplay_args(&[]).join(" ");
    let script = format!(
        "cd {dir} && parallel --halt now,fail=1 '{BOARDLAB} {args} --shard {{}}/4 > shard{{}}.json' ::: 1 2 3 4 \
         && {BOARDLAB} merge shard1.json shard2.json shard3.json shard4.json",
        dir = dir.display()
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(without_times(&out.stdout), without_times(&whole.stdout));
}

/// `--openings book:FILE`: each pair plays a book line with both colours (the records mark
/// where the line ends), a line that does not fit the game stops the match before any game
/// with the line named, a missing file is named, and the shipped gomoku book loads.
#[test]
fn book_openings_from_a_file() {
    let dir = temp_dir("book");
    let book = dir.join("book.txt");
    fs::write(&book, "# two openings\nh8 i9 g9\nh8 h9\n").unwrap();
    let openings = format!("book:{}", book.display());
    let out = boardlab(&[
        "match",
        "gomoku",
        "--a",
        "engine",
        "--b",
        "random",
        "--games",
        "4",
        "--depth",
        "1",
        "--openings",
        &openings,
    ]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let games: Vec<&str> = stderr.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 4, "{stderr}");
    for (i, line) in games.iter().enumerate() {
        let opening = ["h8 i9 g9 |", "h8 h9 |"][i / 2];
        assert!(
            line.contains(&format!(": {opening} ")),
            "game {}: {line}",
            i + 1
        );
    }
    assert!(games[0].contains("engine (first) vs random (second)"));
    assert!(games[1].contains("random (first) vs engine (second)"));

    fs::write(&book, "h8 i9\n\nh8 q99\n").unwrap();
    let out = boardlab(&[
        "match",
        "gomoku",
        "--games",
        "2",
        "--depth",
        "1",
        "--openings",
        &openings,
    ]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains(&format!(
            "opening book {} line 3: move 2 'q99'",
            book.display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("game 1"), "{stderr}");

    let missing = format!("book:{}", dir.join("none.txt").display());
    let out = boardlab(&["match", "gomoku", "--openings", &missing]);
    assert!(
        text(&out.stderr).contains("cannot read opening book"),
        "{}",
        text(&out.stderr)
    );

    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/openings/gomoku15.txt");
    let out = boardlab(&[
        "match",
        "gomoku",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "2",
        "--openings",
        &format!("book:{shipped}"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let _ = fs::remove_dir_all(&dir);
}
