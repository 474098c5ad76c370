use super::*;
use board_core::Notation as _;

fn random_brain() -> PbrainSession {
    PbrainSession::new(AgentKind::Random)
}

/// Sends each line and returns all replies.
fn send(s: &mut PbrainSession, lines: &[&str]) -> Vec<String> {
    lines.iter().flat_map(|l| s.handle(l)).collect()
}

/// The move line of a reply (the last line, `X,Y`).
fn move_of(replies: &[String]) -> (u32, u32) {
    let last = replies.last().expect("a reply");
    let (x, y) = last.split_once(',').expect("X,Y");
    (
        x.parse().expect("X is a number"),
        y.parse().expect("Y is a number"),
    )
}

fn is_error(replies: &[String]) -> bool {
    replies.len() == 1 && replies[0].starts_with("ERROR ")
}

#[test]
fn coordinates_map_x_to_columns_and_y_to_rows_from_the_top() {
    let pos = GomokuPosition::new(GomokuConfig::default());
    let name = |x, y| pos.format_move(Move::new(square_of(15, x, y).expect("on board")));
    assert_eq!(name(0, 0), "a15");
    assert_eq!(name(7, 7), "h8");
    assert_eq!(name(14, 14), "o1");
    assert_eq!(name(14, 0), "o15");
    assert_eq!(name(0, 14), "a1");
    assert_eq!(name(1, 2), "b13");
    assert_eq!(square_of(15, 15, 0), None);
    assert_eq!(square_of(15, 0, 15), None);
    for size in MIN_SIZE..=MAX_SIZE {
        let mut seen = std::collections::HashSet::new();
        for x in 0..size {
            for y in 0..size {
                let sq = square_of(size, x, y).expect("on board");
                assert!(sq.index() < (size * size) as usize);
                assert_eq!(xy_of(size, sq), (x, y));
                assert!(seen.insert(sq));
            }
        }
    }
}

#[test]
fn turn_places_the_opponent_stone_where_the_manager_said() {
    let mut s = random_brain();
    assert_eq!(send(&mut s, &["START 15"]), ["OK"]);
    let r = send(&mut s, &["TURN 1,2"]);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r[0].starts_with("MESSAGE depth "), "{r:?}");
    let pos = s.position().expect("a game");
    let b13 = pos.parse_move("b13").expect("square").square();
    assert_eq!(pos.stone_at(b13), Some(Player::First));
    let (x, y) = move_of(&r);
    let ours = square_of(15, x, y).expect("on board");
    assert_eq!(pos.stone_at(ours), Some(Player::Second));
    assert_eq!(pos.ply(), 2);
}

#[test]
fn a_full_session_with_every_command() {
    let mut s = random_brain();
    assert_eq!(send(&mut s, &["START 15"]), ["OK"]);
    assert!(
        send(
            &mut s,
            &[
                "INFO timeout_turn 1000",
                "INFO rule 0",
                "INFO max_memory 83886080"
            ]
        )
        .is_empty()
    );
    let r = send(&mut s, &["BEGIN"]);
    let first = move_of(&r);
    assert_eq!(s.position().expect("game").ply(), 1);
    // The opponent may not play on our stone: ERROR, nothing changes, still running.
    let r = send(&mut s, &[&format!("TURN {},{}", first.0, first.1)]);
    assert!(is_error(&r), "{r:?}");
    assert!(r[0].contains("occupied"), "{r:?}");
    assert_eq!(s.position().expect("game").ply(), 1);
    let theirs = if first == (0, 0) { (1, 1) } else { (0, 0) };
    let r = send(&mut s, &[&format!("TURN {},{}", theirs.0, theirs.1)]);
    let reply = move_of(&r);
    assert_eq!(s.position().expect("game").ply(), 3);
    // Take back our reply and the opponent's stone.
    assert_eq!(
        send(&mut s, &[&format!("TAKEBACK {},{}", reply.0, reply.1)]),
        ["OK"]
    );
    let takeback = format!("TAKEBACK {},{}", theirs.0, theirs.1);
    assert_eq!(send(&mut s, &[&takeback]), ["OK"]);
    assert_eq!(s.position().expect("game").ply(), 1);
    assert!(is_error(&send(&mut s, &[&takeback])));
    assert_eq!(send(&mut s, &["RESTART"]), ["OK"]);
    assert_eq!(s.position().expect("game").ply(), 0);
    // PLAY echoes and places our stone.
    assert_eq!(send(&mut s, &["PLAY 3,4"]), ["3,4"]);
    assert_eq!(s.position().expect("game").ply(), 1);
    let about = send(&mut s, &["ABOUT"]);
    assert_eq!(about.len(), 1);
    assert!(
        about[0].starts_with("name=\"boardlab\", version=\""),
        "{about:?}"
    );
    for key in ["author=\"", "country=\"", "www=\""] {
        assert!(about[0].contains(key), "{about:?}");
    }
    assert!(send(&mut s, &["END"]).is_empty());
    assert!(s.ended());
    assert!(send(&mut s, &["ABOUT", "BEGIN", "START 15"]).is_empty());
}

#[test]
fn start_sizes_and_garbage() {
    let mut s = random_brain();
    for bad in [
        "START 4",
        "START 27",
        "START 4000000000",
        "START 99999999999999999999999999",
        "START -5",
        "START abc",
        "START",
        "START 15 15",
        "RECTSTART 10,12",
        "RECTSTART 20",
        "RECTSTART a,b",
        "RECTSTART -1,-1",
    ] {
        let r = send(&mut s, &[bad]);
        assert!(is_error(&r), "{bad}: {r:?}");
    }
    assert!(s.position().is_none());
    assert_eq!(send(&mut s, &["RECTSTART 12,12"]), ["OK"]);
    assert_eq!(s.position().expect("game").size(), 12);
    for size in [5, 15, 20, 26] {
        assert_eq!(send(&mut s, &[&format!("start {size}")]), ["OK"]);
        assert_eq!(s.position().expect("game").size(), size);
    }
}

#[test]
fn commands_before_start_are_errors() {
    let mut s = random_brain();
    for cmd in ["BEGIN", "TURN 7,7", "TAKEBACK 7,7", "RESTART", "PLAY 1,1"] {
        assert!(is_error(&send(&mut s, &[cmd])), "{cmd}");
    }
    assert!(send(&mut s, &["BOARD", "7,7,1"]).is_empty());
    assert!(is_error(&send(&mut s, &["DONE"])));
    assert_eq!(send(&mut s, &["START 15"]), ["OK"]);
    let r = send(&mut s, &["BEGIN"]);
    assert_eq!(r.len(), 2, "{r:?}");
}

#[test]
fn unknown_commands_and_odd_lines() {
    let mut s = random_brain();
    for cmd in [
        "FOO",
        "SWAP2BOARD",
        "DONE",
        "7,7",
        "\u{fffd}\u{fffd}",
        "SUGGEST 1,1",
    ] {
        let r = send(&mut s, &[cmd]);
        assert_eq!(r.len(), 1, "{cmd}: {r:?}");
        assert!(r[0].starts_with("UNKNOWN"), "{cmd}: {r:?}");
    }
    assert!(send(&mut s, &["", "   ", "\r"]).is_empty());
    // Case-insensitive commands, surrounding blanks and CR ignored.
    assert_eq!(send(&mut s, &["  start 15\r"]), ["OK"]);
    assert_eq!(send(&mut s, &["Begin"]).len(), 2);
    // Unknown INFO keys are silent; known keys with garbage get a DEBUG line.
    assert!(
        send(
            &mut s,
            &["INFO whatever 12", "INFO folder C:\\x", "INFO evaluate 1,1"]
        )
        .is_empty()
    );
    let r = send(&mut s, &["INFO timeout_turn soon"]);
    assert_eq!(r.len(), 1);
    assert!(r[0].starts_with("DEBUG "), "{r:?}");
    for bad in [
        "TURN",
        "TURN 1",
        "TURN 1,2,3",
        "TURN a,b",
        "TURN -1,3",
        "TURN 15,0",
        "TURN 4000000000,1",
    ] {
        assert!(is_error(&send(&mut s, &[bad])), "{bad}");
    }
    assert_eq!(s.position().expect("game").ply(), 1);
}

#[test]
fn board_accepts_any_order_and_infers_the_side() {
    // 2 opponent stones, 1 own: we are White.
    let mut s = random_brain();
    send(&mut s, &["START 15"]);
    let r = send(&mut s, &["BOARD", "8,8,2", "7,7,1", "9,9,2", "DONE"]);
    assert_eq!(r.len(), 2, "{r:?}");
    let pos = s.position().expect("game");
    assert_eq!(pos.ply(), 4);
    let at = |x, y| pos.stone_at(square_of(15, x, y).expect("on board"));
    assert_eq!(at(8, 8), Some(Player::First));
    assert_eq!(at(9, 9), Some(Player::First));
    assert_eq!(at(7, 7), Some(Player::Second));
    let (x, y) = move_of(&r);
    assert_eq!(at(x, y), Some(Player::Second));

    // Equal counts, own stones first: we are Black.
    send(&mut s, &["RESTART"]);
    let r = send(&mut s, &["BOARD", "1,1,1", "2,2,2", "DONE"]);
    let pos = s.position().expect("game");
    let (x, y) = move_of(&r);
    assert_eq!(
        pos.stone_at(square_of(15, x, y).expect("on")),
        Some(Player::First)
    );
    assert_eq!(
        pos.stone_at(square_of(15, 1, 1).expect("on")),
        Some(Player::First)
    );

    // An empty BOARD: we are Black and move first.
    send(&mut s, &["RESTART"]);
    let r = send(&mut s, &["BOARD", "DONE"]);
    assert_eq!(r.len(), 2);
    assert_eq!(s.position().expect("game").ply(), 1);
}

#[test]
fn bad_boards_are_refused_and_change_nothing() {
    let mut s = random_brain();
    send(&mut s, &["START 15", "BEGIN"]);
    let before = s.position().expect("game").clone();
    for lines in [
        &["BOARD", "1,1,1", "2,2,1", "3,3,2", "DONE"][..],
        &["BOARD", "1,1,1", "1,1,2", "DONE"],
        &["BOARD", "1,1,3", "DONE"],
        &["BOARD", "1,1,7", "DONE"],
        &["BOARD", "15,1,1", "DONE"],
        &["BOARD", "-1,1,1", "DONE"],
        &["BOARD", "99999999999999999999,1,1", "DONE"],
        &["BOARD", "1,1", "DONE"],
        &["BOARD", "1;1;1", "DONE"],
        &["BOARD", "1,1,2", "2,2,2", "3,3,2", "DONE"],
        // A finished game: Black has five and White is to move... then it is over.
        &[
            "BOARD", "0,0,1", "0,1,2", "1,0,1", "1,1,2", "2,0,1", "2,1,2", "3,0,1", "3,1,2",
            "4,0,1", "9,9,2", "DONE",
        ],
    ] {
        let r = send(&mut s, lines);
        assert!(is_error(&r), "{lines:?}: {r:?}");
        assert_eq!(s.position().expect("game"), &before, "{lines:?}");
    }
    // A command inside BOARD abandons it and is still obeyed.
    let r = send(&mut s, &["BOARD", "1,1,1", "ABOUT"]);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r[0].starts_with("ERROR BOARD abandoned"), "{r:?}");
    assert!(r[1].starts_with("name="), "{r:?}");
    assert_eq!(s.position().expect("game"), &before);
    // Too many stone lines: refused without growing without bound.
    s.handle("BOARD");
    for _ in 0..10_000 {
        assert!(s.handle("1,1,1").is_empty());
    }
    assert!(is_error(&s.handle("DONE")));
}

#[test]
fn rules_other_than_freestyle_and_exact_five_are_refused_at_the_move_request() {
    let mut s = random_brain();
    for rule in ["2", "4", "8", "9", "-1", "99999999999999999999"] {
        send(&mut s, &["START 15"]);
        assert!(send(&mut s, &[&format!("INFO rule {rule}")]).is_empty());
        for cmd in ["BEGIN", "TURN 7,7"] {
            let r = send(&mut s, &[cmd]);
            assert!(is_error(&r), "rule {rule} {cmd}: {r:?}");
            assert!(r[0].contains("not supported"), "{r:?}");
        }
        assert!(is_error(&send(&mut s, &["BOARD", "DONE"])));
    }
    send(&mut s, &["INFO rule 1"]);
    assert_eq!(send(&mut s, &["TURN 7,7"]).len(), 2);
    assert_eq!(s.position().expect("game").rule(), Rule::Exact5);
    // The rule may arrive after START with stones already down.
    send(&mut s, &["INFO rule 0"]);
    assert_eq!(send(&mut s, &["TURN 1,1"]).len(), 2);
    assert_eq!(s.position().expect("game").rule(), Rule::Freestyle);
    assert_eq!(s.position().expect("game").ply(), 4);
}

#[test]
fn time_budget_respects_turn_and_match_limits() {
    let us = Duration::from_micros;
    let mut s = random_brain();
    // Never announced: 5 s a turn, less the reserve (50 ms and a 32nd); nothing to save.
    let b = s.move_budget();
    assert_eq!(
        (b.target, b.hard, b.saves_time),
        (us(4_793_750), us(4_793_750), false)
    );
    // A short turn keeps an eighth of it and a 32nd back (25 + 6.25 ms), not 50 ms.
    s.handle("INFO timeout_turn 200");
    assert_eq!(s.move_budget().hard, us(168_750));
    // Gomocup's league: 30 s a turn, 180 s a match. The match clock sets the target (a
    // twentieth of what is left after the reserve), the turn the hard stop; time is saved.
    s.handle("INFO timeout_turn 30000");
    s.handle("INFO timeout_match 180000");
    s.handle("INFO time_left 180000");
    let b = s.move_budget();
    assert_eq!(
        (b.target, b.hard, b.saves_time),
        (us(8_716_250), us(29_012_500), true)
    );
    // Nearly out of match time: the clock caps the hard stop far below the turn limit.
    s.handle("INFO time_left 1000");
    let b = s.move_budget();
    assert_eq!(
        (b.target, b.hard),
        (Duration::from_nanos(45_937_500), us(183_750))
    );
    // An exhausted (negative) clock: answer at once.
    s.handle("INFO time_left -5000");
    assert_eq!(s.move_budget().hard, Duration::ZERO);
    // "Unlimited", or no match limit: the turn alone.
    s.handle("INFO time_left 2147483647");
    assert_eq!(s.move_budget().hard, us(29_012_500));
    assert!(!s.move_budget().saves_time);
    s.handle("INFO timeout_match 0");
    s.handle("INFO time_left 1000");
    assert_eq!(s.move_budget().hard, us(29_012_500));
    // timeout_turn 0: play at once.
    s.handle("INFO timeout_turn 0");
    assert_eq!(s.move_budget().hard, Duration::ZERO);
    s.handle("INFO timeout_turn 99999999999999999999999");
    assert!(s.move_budget().hard > Duration::from_secs(1_000_000));
}

#[test]
fn hash_follows_max_memory() {
    let mut s = random_brain();
    assert_eq!(s.hash_mb(), DEFAULT_HASH_MB);
    s.handle("INFO max_memory 367001600");
    assert_eq!(s.hash_mb(), 64);
    s.handle("INFO max_memory 83886080");
    assert_eq!(s.hash_mb(), 20);
    s.handle("INFO max_memory 1000");
    assert_eq!(s.hash_mb(), 1);
    s.handle("INFO max_memory 0");
    assert_eq!(s.hash_mb(), DEFAULT_HASH_MB);
}

#[test]
fn the_table_is_rebuilt_when_the_info_arrives_not_on_the_first_move() {
    let mut s = random_brain();
    let built = |s: &PbrainSession| s.game.as_ref().map(|g| g.built);
    send(&mut s, &["START 15"]);
    assert_eq!(built(&s), Some((DEFAULT_HASH_MB, 1)));
    // Gomocup sends the limits after START: the agent follows at once.
    assert!(send(&mut s, &["INFO max_memory 83886080"]).is_empty());
    assert_eq!(built(&s), Some((20, 1)));
    assert!(send(&mut s, &["INFO thread_num 2"]).is_empty());
    assert_eq!(built(&s), Some((20, 2)));
    // An unchanged value keeps the agent; before START there is nothing to rebuild.
    send(&mut s, &["INFO max_memory 83886080"]);
    assert_eq!(built(&s), Some((20, 2)));
    let mut fresh = random_brain();
    assert!(send(&mut fresh, &["INFO max_memory 83886080"]).is_empty());
    assert_eq!(built(&fresh), None);
}

#[test]
fn the_engine_answers_within_a_short_turn_and_takes_a_win() {
    let mut s = PbrainSession::new(AgentKind::Engine);
    send(
        &mut s,
        &[
            "START 15",
            "INFO timeout_turn 300",
            "INFO max_memory 83886080",
        ],
    );
    // Our four (own stones 3..6 on row 7) with an open end: the engine completes five.
    let start = Instant::now();
    let r = send(
        &mut s,
        &[
            "BOARD", "3,7,1", "4,7,1", "5,7,1", "6,7,1", "3,9,2", "4,9,2", "5,9,2", "9,12,2",
            "DONE",
        ],
    );
    assert!(
        start.elapsed() < Duration::from_millis(300),
        "{:?}",
        start.elapsed()
    );
    let (x, y) = move_of(&r);
    assert!((x, y) == (2, 7) || (x, y) == (7, 7), "{r:?}");
    assert!(s.position().expect("game").outcome().is_some());
    // The game is over: a further move request is an error.
    assert!(is_error(&send(&mut s, &["TURN 0,0"])));
    // timeout_turn 0: an instant answer.
    send(&mut s, &["START 20", "INFO timeout_turn 0"]);
    let start = Instant::now();
    let r = send(&mut s, &["BEGIN"]);
    assert_eq!(r.len(), 2);
    assert!(
        start.elapsed() < Duration::from_millis(200),
        "{:?}",
        start.elapsed()
    );
}

/// A tiny deterministic generator for the garbage test (no dependency needed).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() as usize) % items.len()]
    }
}

#[test]
fn random_garbage_never_panics_and_replies_stay_well_formed() {
    let mut rng = Lcg(7);
    let words = [
        "START",
        "RECTSTART",
        "RESTART",
        "BEGIN",
        "TURN",
        "BOARD",
        "DONE",
        "INFO",
        "END",
        "ABOUT",
        "TAKEBACK",
        "PLAY",
        "SWAP2BOARD",
        "x",
        "",
        "timeout_turn",
        "rule",
        "max_memory",
        "time_left",
    ];
    let numbers = [
        "0",
        "1",
        "2",
        "4",
        "5",
        "7",
        "14",
        "15",
        "19",
        "20",
        "26",
        "27",
        "-1",
        "4000000000",
        "99999999999999999999",
        ",",
        "a",
        "1,1",
        "7,7",
        "3,4,1",
        "2,2,2",
        "0,0,3",
    ];
    for round in 0..300 {
        let mut s = random_brain();
        for _ in 0..40 {
            let mut line = String::new();
            for _ in 0..(rng.next() % 4) {
                let part = if rng.next().is_multiple_of(2) {
                    rng.pick(&words)
                } else {
                    rng.pick(&numbers)
                };
                line.push_str(part);
                line.push(if rng.next().is_multiple_of(3) {
                    ','
                } else {
                    ' '
                });
            }
            for reply in s.handle(&line) {
                let ok = ["OK", "ERROR ", "UNKNOWN", "MESSAGE ", "DEBUG ", "name="]
                    .iter()
                    .any(|p| reply.starts_with(p))
                    || reply
                        .split_once(',')
                        .is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok());
                assert!(ok, "round {round}: '{line}' -> '{reply}'");
                assert!(!reply.contains('\n'));
            }
        }
    }
}

#[test]
fn run_loop_refuses_huge_lines_and_stops_at_end() {
    let mut input = b"START 10\r\n".to_vec();
    input.extend(std::iter::repeat_n(b'A', 10 << 20));
    input.extend_from_slice(b"\r\nABOUT\r\nEND\r\nABOUT\r\n");
    let mut out = Vec::new();
    let mut s = random_brain();
    run(&mut s, &input[..], &mut out).expect("in-memory I/O");
    let text = String::from_utf8(out).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "OK");
    assert!(lines[1].starts_with("ERROR line longer than"));
    assert!(lines[2].starts_with("name="));
}
