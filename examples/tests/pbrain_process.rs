//! The Piskvork brain spoken end to end with the real binaries (`pbrain-boardlab` and
//! `boardlab pbrain`).

mod protocols_common;

use std::{
    collections::HashSet,
    time::{Duration, Instant},
};

use protocols_common::Proc;

const PBRAIN: &str = env!("CARGO_BIN_EXE_pbrain-boardlab");
const BOARDLAB: &str = env!("CARGO_BIN_EXE_boardlab");

fn parse_move(line: &str) -> (u32, u32) {
    let (x, y) = line
        .split_once(',')
        .unwrap_or_else(|| panic!("'{line}' is not X,Y"));
    (x.trim().parse().expect("X"), y.trim().parse().expect("Y"))
}

/// Reads the reply to a move request: optional MESSAGE/DEBUG lines, then `X,Y`.
fn move_reply(p: &Proc) -> (u32, u32) {
    loop {
        let l = p.line();
        if l.starts_with("MESSAGE") || l.starts_with("DEBUG") {
            continue;
        }
        return parse_move(&l);
    }
}

fn expect_error(p: &Proc, what: &str) {
    let l = p.line();
    assert!(l.starts_with("ERROR "), "{what}: got '{l}'");
}

#[test]
fn a_session_with_malformed_lines_keeps_the_brain_running() {
    let mut p = Proc::spawn(PBRAIN, &[]);
    p.send("START 15");
    assert_eq!(p.line(), "OK");
    p.send("INFO timeout_turn 300");
    p.send("INFO timeout_match 60000");
    p.send("INFO max_memory 83886080");
    p.send("INFO rule 0");
    p.send("INFO game_type 1");
    p.send("INFO folder /tmp");
    p.send("INFO time_left 60000");
    p.send("BEGIN");
    let first = move_reply(&p);
    assert!(first.0 < 15 && first.1 < 15);
    // The opponent on our stone: refused, the brain keeps going.
    p.send(&format!("TURN {},{}", first.0, first.1));
    expect_error(&p, "occupied");
    for bad in [
        "TURN 15,3",
        "TURN -1,-1",
        "TURN 4000000000,1",
        "TURN x,y",
        "START 4",
        "START 27",
        "START 4000000000",
        "START -20",
        "RECTSTART 15,20",
    ] {
        p.send(bad);
        expect_error(&p, bad);
    }
    for unknown in ["HELLO", "SWAP2BOARD", "!!"] {
        p.send(unknown);
        let l = p.line();
        assert!(l.starts_with("UNKNOWN"), "{unknown}: '{l}'");
    }
    // A 10 MB line is refused without a crash.
    let mut huge = vec![b'9'; 10 << 20];
    huge.extend_from_slice(b"\r\n");
    p.send_raw(&huge);
    expect_error(&p, "huge line");
    // Garbage bytes.
    p.send_raw(b"\xff\xfe\x00garbage\r\n");
    assert!(p.line().starts_with("UNKNOWN"));
    p.send("TURN 0,0");
    let reply = move_reply(&p);
    assert_ne!(reply, (0, 0));
    assert_ne!(reply, first);
    p.send("ABOUT");
    let about = p.line();
    assert!(about.starts_with("name=\"boardlab\""), "{about}");
    // BOARD in any order, then RESTART, TAKEBACK.
    p.send("RESTART");
    assert_eq!(p.line(), "OK");
    for l in ["BOARD", "9,9,2", "7,7,2", "8,8,1", "DONE"] {
        p.send(l);
    }
    let m = move_reply(&p);
    assert!(![(9, 9), (7, 7), (8, 8)].contains(&m), "{m:?}");
    p.send(&format!("TAKEBACK {},{}", m.0, m.1));
    assert_eq!(p.line(), "OK");
    for l in ["BOARD", "1,1,1", "1,1,2", "DONE"] {
        p.send(l);
    }
    expect_error(&p, "duplicate stone");
    p.send("INFO rule 4");
    p.send("TURN 3,3");
    expect_error(&p, "renju");
    p.send("INFO rule 1");
    p.send("TURN 3,3");
    move_reply(&p);
    p.send("END");
    assert!(
        p.has_exited_within(Duration::from_millis(500)),
        "END exits quickly"
    );
}

#[test]
fn boardlab_pbrain_subcommand_speaks_the_same_protocol() {
    let mut p = Proc::spawn(BOARDLAB, &["pbrain"]);
    p.send("start 20");
    assert_eq!(p.line(), "OK");
    p.send("INFO timeout_turn 200");
    p.send("BOARD");
    p.send("DONE");
    let m = move_reply(&p);
    assert!(m.0 < 20 && m.1 < 20);
    p.send("END");
    assert!(p.has_exited_within(Duration::from_millis(500)));
    // End of input also ends the brain.
    let p = Proc::spawn(BOARDLAB, &["pbrain", "--player", "random"]);
    assert!(p.exits_within(Duration::from_secs(2)));
}

/// 20 moves with `INFO timeout_turn 200`, as GomocupJudge drives a brain (BOARD first,
/// then TURN, `time_left` before each request). Records the longest reply.
#[test]
fn twenty_moves_with_a_200_ms_turn_limit() {
    let mut p = Proc::spawn(PBRAIN, &[]);
    let size = 20u32;
    p.send(&format!("START {size}"));
    p.send("INFO timeout_turn 200");
    p.send("INFO timeout_match 100000");
    p.send("INFO max_memory 367001600");
    p.send("INFO game_type 1");
    p.send("INFO rule 0");
    assert_eq!(p.line(), "OK");
    let mut occupied: HashSet<(u32, u32)> = HashSet::new();
    // The opponent walks a spiral around the centre, skipping occupied points.
    let mut spiral = Vec::new();
    for r in 0i32..10 {
        for dx in -r..=r {
            for dy in -r..=r {
                if dx.abs().max(dy.abs()) == r {
                    spiral.push(((10 + dx) as u32, (10 + dy) as u32));
                }
            }
        }
    }
    let mut times = Vec::new();
    let mut time_left: i64 = 100_000;
    let mut moves = 0;
    let mut first = true;
    while moves < 20 {
        p.send(&format!("INFO time_left {time_left}"));
        let start = Instant::now();
        let ours;
        if first {
            let opp = spiral[0];
            occupied.insert(opp);
            p.send("BOARD");
            p.send(&format!("{},{},2", opp.0, opp.1));
            p.send("DONE");
            ours = move_reply(&p);
            first = false;
        } else {
            let opp = spiral
                .iter()
                .copied()
                .find(|sq| !occupied.contains(sq))
                .expect("a free point");
            occupied.insert(opp);
            p.send(&format!("TURN {},{}", opp.0, opp.1));
            let l = loop {
                let l = p.line();
                if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") {
                    break l;
                }
            };
            if l.starts_with("ERROR") {
                // The game ended (the brain won): a new game, same limits.
                assert!(l.contains("game is over"), "{l}");
                p.send("RESTART");
                assert_eq!(p.line(), "OK");
                occupied.clear();
                first = true;
                continue;
            }
            ours = parse_move(&l);
        }
        let elapsed = start.elapsed();
        time_left -= elapsed.as_millis() as i64;
        times.push(elapsed);
        assert!(
            occupied.insert(ours),
            "the brain played on an occupied point {ours:?}"
        );
        moves += 1;
    }
    let longest = times.iter().max().copied().unwrap_or_default();
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    eprintln!(
        "pbrain timing: {} replies with timeout_turn 200: longest {} ms, mean {} ms",
        times.len(),
        longest.as_millis(),
        mean.as_millis()
    );
    assert!(
        longest < Duration::from_millis(1000),
        "longest reply {longest:?}"
    );
    p.send("END");
    assert!(p.has_exited_within(Duration::from_millis(500)));
}

/// A brain driven like GomocupJudge does: BOARD for its first move, TURN afterwards.
struct Brain {
    p: Proc,
    first: bool,
    longest: Duration,
}

impl Brain {
    fn new(exe: &str, args: &[&str], turn_ms: u32) -> Brain {
        let mut p = Proc::spawn(exe, args);
        p.send("START 15");
        assert_eq!(p.line(), "OK");
        p.send(&format!("INFO timeout_turn {turn_ms}"));
        p.send("INFO rule 0");
        Brain {
            p,
            first: true,
            longest: Duration::ZERO,
        }
    }

    /// Asks for a move; `history` is every stone so far, Black first.
    fn ask(&mut self, history: &[(u32, u32)]) -> (u32, u32) {
        let start = Instant::now();
        if self.first {
            self.first = false;
            let me = history.len() % 2;
            self.p.send("BOARD");
            for (i, (x, y)) in history.iter().enumerate() {
                let field = if i % 2 == me { 1 } else { 2 };
                self.p.send(&format!("{x},{y},{field}"));
            }
            self.p.send("DONE");
        } else if let Some((x, y)) = history.last() {
            self.p.send(&format!("TURN {x},{y}"));
        }
        let m = move_reply(&self.p);
        self.longest = self.longest.max(start.elapsed());
        m
    }
}

fn five_through(stones: &HashSet<(u32, u32)>, (x, y): (u32, u32)) -> bool {
    [(1i32, 0i32), (0, 1), (1, 1), (1, -1)]
        .iter()
        .any(|&(dx, dy)| {
            let run = |sign: i32| {
                (1..5)
                    .take_while(|k| {
                        let (i, j) = (x as i32 + sign * k * dx, y as i32 + sign * k * dy);
                        i >= 0 && j >= 0 && stones.contains(&(i as u32, j as u32))
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= 5
        })
}

/// Engine against the article baseline through the protocol (15×15 freestyle, 200 ms
/// turns, each two-stone opening played with both colours). Run with
/// `cargo test -p boardlab --test pbrain_process -- --ignored --nocapture`.
#[test]
#[ignore = "a match: about a minute"]
fn engine_against_baseline_through_pbrain() {
    let openings = [
        [(8, 6), (6, 8)],
        [(5, 8), (6, 5)],
        [(7, 7), (8, 8)],
        [(6, 7), (9, 6)],
    ];
    let (mut engine_points, mut games, mut engine_longest) = (0.0, 0, Duration::ZERO);
    for opening in openings {
        for engine_black in [true, false] {
            let mut engine = Brain::new(PBRAIN, &[], 200);
            let mut baseline = Brain::new(BOARDLAB, &["pbrain", "--player", "baseline"], 200);
            let mut history: Vec<(u32, u32)> = opening.to_vec();
            let mut stones = [HashSet::new(), HashSet::new()];
            for (i, s) in history.iter().enumerate() {
                stones[i % 2].insert(*s);
            }
            let result = loop {
                if history.len() == 225 {
                    break 0.5;
                }
                let side = history.len() % 2;
                let engine_to_move = (side == 0) == engine_black;
                let m = if engine_to_move {
                    engine.ask(&history)
                } else {
                    baseline.ask(&history)
                };
                let free = m.0 < 15 && m.1 < 15 && !history.contains(&m);
                if !free {
                    break if engine_to_move { 0.0 } else { 1.0 };
                }
                history.push(m);
                stones[side].insert(m);
                if five_through(&stones[side], m) {
                    break if engine_to_move { 1.0 } else { 0.0 };
                }
            };
            engine_points += result;
            games += 1;
            engine_longest = engine_longest.max(engine.longest);
            eprintln!(
                "opening {opening:?}, engine {}: engine scores {result} in {} plies",
                if engine_black { "black" } else { "white" },
                history.len()
            );
            engine.p.send("END");
            baseline.p.send("END");
        }
    }
    eprintln!(
        "engine vs baseline through pbrain: {engine_points}/{games}; engine's longest reply {} ms",
        engine_longest.as_millis()
    );
    assert!(
        engine_points * 2.0 > f64::from(games),
        "the engine should beat the baseline"
    );
}
