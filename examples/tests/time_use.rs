//! Time use through the tournament protocols, measured from outside like a referee: from
//! writing a move request to reading the reply, engine against engine.
//!
//! The quick tests run in CI with generous margins (the machine is shared). The heavy ones
//! are `#[ignore]`d: they play bounded self-play sessions and print, per protocol, the mean
//! and the largest move time as a share of the turn budget, and fail on any move over the
//! limit or a mean below 75% over the moves the engine did not decide early (a forced
//! reply, a proven result). Run them with
//!
//! ```text
//! cargo test --release -p boardlab --test time_use -- --ignored --nocapture --test-threads 1
//! ```
//!
//! `GAMES` (default 2) and `MOVES` (default 20: plies per game, both sides) bound them.

mod protocols_common;

use board_core::Rules as _;
use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{Receiver, channel},
    time::{Duration, Instant},
};

use board_core::Position;
use protocols::botzone::{move_of_wire, wire_of_move};
use protocols::pbrain::{square_of, xy_of};
use protocols_common::Proc;
use rules_amazons::{AmazonsConfig, AmazonsPosition};
use rules_connect6::Connect6Position;
use rules_gomoku::{GomokuConfig, GomokuPosition, Move as GomokuMove, Rule};

const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic generator for the openings (no dependency needed).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// One answered request.
#[derive(Clone, Copy, Debug)]
struct Sample {
    elapsed: Duration,
    limit: Duration,
    /// The engine decided early: a forced reply (depth 1) or a proven result.
    early: bool,
}

impl Sample {
    fn share(&self) -> f64 {
        self.elapsed.as_secs_f64() / self.limit.as_secs_f64()
    }
}

/// Mean share over the moves not decided early, mean over all, max share, timeouts.
struct Summary {
    moves: usize,
    normal: usize,
    mean_normal: f64,
    mean_all: f64,
    max: f64,
    max_ms: f64,
    over: usize,
}

fn summarise(name: &str, samples: &[Sample]) -> Summary {
    let normal: Vec<&Sample> = samples.iter().filter(|s| !s.early).collect();
    let mean = |v: &[&Sample]| v.iter().map(|s| s.share()).sum::<f64>() / v.len().max(1) as f64;
    let all: Vec<&Sample> = samples.iter().collect();
    let max = samples.iter().map(Sample::share).fold(0.0, f64::max);
    let max_ms = samples
        .iter()
        .map(|s| s.elapsed.as_secs_f64() * 1000.0)
        .fold(0.0, f64::max);
    let s = Summary {
        moves: samples.len(),
        normal: normal.len(),
        mean_normal: mean(&normal),
        mean_all: mean(&all),
        max,
        max_ms,
        over: samples.iter().filter(|s| s.elapsed > s.limit).count(),
    };
    println!(
        "{name}: {} moves ({} not decided early): mean {:.1}% of the budget ({:.1}% over all \
         moves), max {:.1}% ({:.1} ms), over the limit: {}",
        s.moves,
        s.normal,
        s.mean_normal * 100.0,
        s.mean_all * 100.0,
        s.max * 100.0,
        s.max_ms,
        s.over
    );
    s
}

fn check(s: &Summary) {
    assert_eq!(s.over, 0, "a move exceeded the limit");
    assert!(s.normal > 0, "no move searched in full");
    assert!(
        s.mean_normal >= 0.75,
        "mean time use {:.1}% < 75%",
        s.mean_normal * 100.0
    );
}

// ---- pbrain (gomoku) ------------------------------------------------------------------

fn xy(pos: &GomokuPosition, mv: GomokuMove) -> String {
    let (x, y) = xy_of(pos.size(), mv.square());
    format!("{x},{y}")
}

/// Reads a brain's reply: the MESSAGE line (depth and score) and the move.
fn pbrain_reply(p: &Proc, pos: &GomokuPosition) -> (GomokuMove, bool) {
    let mut early = false;
    loop {
        let l = p.line();
        if let Some(msg) = l.strip_prefix("MESSAGE ") {
            let words: Vec<&str> = msg.split_whitespace().collect();
            let depth = words.get(1).and_then(|d| d.parse::<u32>().ok());
            let decisive = words.get(3).is_some_and(|w| *w == "win" || *w == "loss");
            early = decisive || depth == Some(1);
            continue;
        }
        if l.starts_with("DEBUG") {
            continue;
        }
        let (x, y) = l
            .split_once(',')
            .unwrap_or_else(|| panic!("'{l}' is not X,Y"));
        let sq = square_of(pos.size(), x.parse().expect("X"), y.parse().expect("Y"))
            .unwrap_or_else(|| panic!("'{l}' is off the board"));
        return (GomokuMove::new(sq), early);
    }
}

/// Engine against engine through two `boardlab pbrain` processes, Gomocup style: START,
/// the INFO lines, the opening by BOARD, then TURN; `time_left` before every request.
fn pbrain_session(games: usize, plies: usize, turn_ms: u64) -> Vec<Sample> {
    let limit = Duration::from_millis(turn_ms);
    let mut samples = Vec::new();
    let mut rng = Lcg(7);
    for _ in 0..games {
        let mut brains = [
            Proc::spawn(BOARDLAB, &["pbrain"]),
            Proc::spawn(BOARDLAB, &["pbrain"]),
        ];
        let mut time_left = [1_000_000i64; 2];
        for b in &mut brains {
            b.send("START 15");
            assert_eq!(b.line(), "OK");
            b.send(&format!("INFO timeout_turn {turn_ms}"));
            b.send("INFO timeout_match 1000000");
            b.send("INFO max_memory 367001600");
            b.send("INFO rule 0");
        }
        let config = GomokuConfig::new(15, Rule::Freestyle).expect("15x15");
        let mut pos = GomokuPosition::new(config);
        // A random opening of 2 to 4 stones within 3 of the centre.
        let mut opening = Vec::new();
        for _ in 0..2 + rng.below(3) {
            loop {
                let (x, y) = (4 + rng.below(7) as u32, 4 + rng.below(7) as u32);
                let mv = GomokuMove::new(square_of(15, x, y).expect("on board"));
                if pos.validate(&mv).is_ok() {
                    pos.make_move(mv);
                    opening.push(mv);
                    break;
                }
            }
        }
        let mut played = opening.clone();
        let mut first_request = [true, true];
        let mut last: Option<GomokuMove> = None;
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            let side = pos.side_to_move().index();
            let b = &mut brains[side];
            b.send(&format!("INFO time_left {}", time_left[side]));
            let t0;
            if first_request[side] {
                first_request[side] = false;
                b.send("BOARD");
                let mut replay = GomokuPosition::new(config);
                for &mv in &played {
                    let field = if replay.side_to_move() == pos.side_to_move() {
                        1
                    } else {
                        2
                    };
                    b.send(&format!("{},{field}", xy(&replay, mv)));
                    replay.make_move(mv);
                }
                t0 = Instant::now();
                b.send("DONE");
            } else {
                let mv = last.expect("the opponent moved");
                t0 = Instant::now();
                b.send(&format!("TURN {}", xy(&pos, mv)));
            }
            let (mv, early) = pbrain_reply(b, &pos);
            let elapsed = t0.elapsed();
            time_left[side] -= elapsed.as_millis() as i64;
            samples.push(Sample {
                elapsed,
                limit,
                early,
            });
            pos.play(mv).expect("a legal move");
            played.push(mv);
            last = Some(mv);
        }
        for b in &mut brains {
            b.send("END");
        }
    }
    samples
}

#[test]
fn pbrain_uses_most_of_a_turn_and_never_exceeds_it() {
    // Two plies of each side at 300 ms a turn: a CI-sized check with wide margins.
    let samples = pbrain_session(1, 4, 300);
    let s = summarise("pbrain 300 ms (quick)", &samples);
    assert!(s.max_ms < 300.0 + 250.0, "{} ms", s.max_ms);
    assert!(s.normal == 0 || s.mean_normal > 0.4);
}

#[test]
#[ignore = "heavy: self-play through pbrain at 500 ms a turn"]
fn pbrain_time_use_500ms() {
    let samples = pbrain_session(env_or("GAMES", 2), env_or("MOVES", 20), 500);
    check(&summarise("gomoku 15x15 pbrain 500 ms", &samples));
}

// ---- UGI (connect6) ---------------------------------------------------------------------

/// Engine against engine through two `boardlab engine` processes at `go movetime`, on the
/// game `P` of the spec `game`.
fn ugi_session<P: Position>(
    game: &str,
    games: usize,
    plies: usize,
    movetime_ms: u64,
) -> Vec<Sample> {
    let limit = Duration::from_millis(movetime_ms);
    let mut samples = Vec::new();
    let mut rng = Lcg(11);
    for _ in 0..games {
        let mut engines = [
            Proc::spawn(BOARDLAB, &["engine"]),
            Proc::spawn(BOARDLAB, &["engine"]),
        ];
        for e in &mut engines {
            e.send("ugi");
            e.until("ugiok");
            e.send("uginewgame");
            e.send("isready");
            e.until("readyok");
        }
        let spec: board_core::GameSpec = game.parse().expect("spec");
        let mut pos = P::new(board_core::GameConfig::from_spec(&spec).expect("config"));
        let mut moves: Vec<String> = Vec::new();
        // A random opening: two random legal moves (in connect6 the first stone and a pair).
        let mut legal = Vec::new();
        for _ in 0..2 {
            pos.generate_moves(&mut legal);
            let mv = legal[rng.below(legal.len())];
            moves.push(pos.format_move(mv));
            pos.make_move(mv);
        }
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            let e = &mut engines[pos.side_to_move().index()];
            e.send(&format!(
                "position {game} startpos moves {}",
                moves.join(" ")
            ));
            e.send("isready");
            e.until("readyok");
            let t0 = Instant::now();
            e.send(&format!("go movetime {movetime_ms}"));
            let lines = e.until("bestmove");
            let elapsed = t0.elapsed();
            let last_info = lines.iter().rev().find(|l| l.starts_with("info depth"));
            let early = last_info.is_some_and(|l| {
                l.contains(" score win ")
                    || l.contains(" score loss ")
                    || l.starts_with("info depth 1 ")
            });
            samples.push(Sample {
                elapsed,
                limit,
                early,
            });
            let best = lines
                .last()
                .and_then(|l| l.strip_prefix("bestmove "))
                .expect("bestmove")
                .to_string();
            let mv = pos.parse_legal_move(&best).expect("a legal move");
            pos.make_move(mv);
            moves.push(best);
        }
        for e in &mut engines {
            e.send("quit");
        }
    }
    samples
}

#[test]
fn ugi_uses_most_of_movetime_and_never_exceeds_it() {
    let samples = ugi_session::<Connect6Position>("connect6", 1, 2, 300);
    let s = summarise("connect6 ugi movetime 300 (quick)", &samples);
    assert!(s.max_ms < 300.0 + 250.0, "{} ms", s.max_ms);
    assert!(s.normal == 0 || s.mean_normal > 0.4);
}

#[test]
#[ignore = "heavy: self-play through UGI at movetime 1000"]
fn ugi_time_use_connect6_1s() {
    let samples =
        ugi_session::<Connect6Position>("connect6", env_or("GAMES", 2), env_or("MOVES", 20), 1000);
    check(&summarise("connect6 19x19 ugi movetime 1000", &samples));
}

#[test]
#[ignore = "heavy: self-play through UGI at movetime 100, each game"]
fn ugi_time_use_100ms() {
    let (games, plies) = (env_or("GAMES", 2), env_or("MOVES", 20));
    let summaries = [
        summarise(
            "fourshift ugi movetime 100",
            &ugi_session::<rules_fourshift::Fourshift>("fourshift", games, plies, 100),
        ),
        summarise(
            "clamp ugi movetime 100",
            &ugi_session::<rules_clamp::ClampPosition>("clamp", games, plies, 100),
        ),
        summarise(
            "amazons 8x8 ugi movetime 100",
            &ugi_session::<AmazonsPosition>("amazons:size=8", games, plies, 100),
        ),
        summarise(
            "gomoku 15x15 ugi movetime 100",
            &ugi_session::<GomokuPosition>("gomoku", games, plies, 100),
        ),
        summarise(
            "connect6 19x19 ugi movetime 100",
            &ugi_session::<Connect6Position>("connect6", games, plies, 100),
        ),
    ];
    summaries.iter().for_each(check);
}

// ---- Botzone (amazons) ------------------------------------------------------------------

/// A bot process whose stderr (one log line per move: depth and score) is read too.
struct Bot {
    child: Child,
    stdin: ChildStdin,
    out: Receiver<String>,
    log: Receiver<String>,
}

fn lines_of(r: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl Bot {
    fn spawn(keep_running: bool) -> Bot {
        let mut args = vec!["botzone"];
        if !keep_running {
            args.push("--no-keep-running");
        }
        let mut child = Command::new(BOARDLAB)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the bot starts");
        let stdin = child.stdin.take().expect("stdin");
        let out = lines_of(child.stdout.take().expect("stdout"));
        let log = lines_of(child.stderr.take().expect("stderr"));
        Bot {
            child,
            stdin,
            out,
            log,
        }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn line(&self) -> String {
        self.out
            .recv_timeout(Duration::from_secs(10))
            .expect("a reply within 10 s")
    }

    /// Whether the move's log line says it was decided early.
    fn early(&self) -> bool {
        let log = self
            .log
            .recv_timeout(Duration::from_secs(10))
            .expect("a log line");
        let words: Vec<&str> = log.split_whitespace().collect();
        let depth = words
            .iter()
            .position(|w| *w == "depth")
            .and_then(|i| words.get(i + 1))
            .and_then(|d| d.parse::<u32>().ok());
        let decisive = words
            .iter()
            .position(|w| *w == "score")
            .and_then(|i| words.get(i + 1))
            .is_some_and(|w| *w == "win" || *w == "loss");
        decisive || depth == Some(1)
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wire(mv: rules_amazons::AmazonsMove) -> String {
    wire_of_move(mv).map(|v| v.to_string()).join(" ")
}

/// Engine against engine through two keep-running `boardlab botzone` bots (simple
/// interaction), or with a fresh process every turn (restart mode: start-up counts). The
/// first game starts from the initial position (the bots' first turns get the 2 s limit),
/// the others after a random move of each side.
fn botzone_session(games: usize, plies: usize, keep_running: bool) -> Vec<Sample> {
    let mut samples = Vec::new();
    let mut rng = Lcg(5);
    for g in 0..games {
        let mut pos = AmazonsPosition::new(AmazonsConfig::SMALL);
        let mut history: Vec<String> = Vec::new();
        let mut legal = Vec::new();
        if g > 0 {
            for _ in 0..2 {
                pos.generate_moves(&mut legal);
                let mv = legal[rng.below(legal.len())];
                history.push(wire(mv));
                pos.make_move(mv);
            }
        }
        let mut bots: [Option<Bot>; 2] = [None, None];
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            let side = pos.side_to_move().index();
            // The bot's requests (the opponent's moves, Black's first being -1s) and
            // responses (its own), interleaved as in the full-turn format.
            let own: Vec<&String> = history.iter().skip(side).step_by(2).collect();
            let mut requests: Vec<String> = Vec::new();
            if side == 0 {
                requests.push("-1 -1 -1 -1 -1 -1".into());
            }
            requests.extend(history.iter().skip(1 - side).step_by(2).cloned());
            let restart = !keep_running || bots[side].is_none();
            let (text, limit) = if restart {
                let n = requests.len();
                let mut t = format!("{n}\n");
                for i in 0..n {
                    t.push_str(&requests[i]);
                    t.push('\n');
                    if i < own.len() {
                        t.push_str(own[i]);
                        t.push('\n');
                    }
                }
                let limit = if n == 1 { 2000 } else { 1000 };
                (t, Duration::from_millis(limit))
            } else {
                let last = requests.last().expect("an opponent move").clone();
                (format!("{last}\n"), Duration::from_millis(1000))
            };
            if restart {
                bots[side] = Some(Bot::spawn(keep_running));
            }
            let bot = bots[side].as_mut().expect("bot");
            // Restart mode: the process start is on the clock, as on the platform.
            let t0 = Instant::now();
            bot.send(&text);
            let reply = bot.line();
            let elapsed = t0.elapsed();
            if keep_running {
                assert_eq!(bot.line(), protocols::botzone::KEEP_RUNNING_MARKER);
            }
            let early = bot.early();
            samples.push(Sample {
                elapsed,
                limit,
                early,
            });
            let nums: Vec<i64> = reply
                .split_whitespace()
                .map(|v| v.parse().expect("a number"))
                .collect();
            let w: [i64; 6] = nums.try_into().expect("six numbers");
            let mv = move_of_wire(&w).expect("on board");
            assert!(pos.validate(&mv).is_ok(), "illegal {reply}");
            pos.make_move(mv);
            history.push(wire(mv));
            if !keep_running {
                bots[side] = None;
            }
        }
    }
    samples
}

#[test]
#[ignore = "heavy: self-play through Botzone keep-running bots at 1 s (2 s first turn)"]
fn botzone_time_use_keep_running() {
    let samples = botzone_session(env_or("GAMES", 2), env_or("MOVES", 20), true);
    check(&summarise("amazons 8x8 botzone keep-running", &samples));
}

#[test]
#[ignore = "heavy: self-play through Botzone restart-mode bots (a process per turn)"]
fn botzone_time_use_restart() {
    let samples = botzone_session(env_or("GAMES", 1), env_or("MOVES", 10), false);
    check(&summarise("amazons 8x8 botzone restart mode", &samples));
}

#[test]
fn botzone_first_turn_gets_its_longer_limit() {
    let samples = botzone_session(1, 1, true);
    let s = &samples[0];
    assert_eq!(s.limit, Duration::from_millis(2000));
    // Searched past the 1 s of a later turn, never past the 2 s.
    assert!(s.early || s.elapsed > Duration::from_millis(1000), "{s:?}");
    assert!(
        s.elapsed < Duration::from_millis(2000) + Duration::from_millis(250),
        "{s:?}"
    );
}
