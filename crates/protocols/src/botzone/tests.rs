use std::io::Cursor;

use super::*;

const EXAMPLE: &str = "3\n-1 -1 -1 -1 -1 -1\n5 0 3 2 6 5\n0 5 4 5 3 4\n0 2 0 3 3 0\n2 7 2 5 1 4\n";

/// A fast bot (random player, short budgets) for protocol tests.
fn quick(keep_running: bool) -> BotzoneBot {
    BotzoneBot::new(AgentKind::Random, keep_running)
        .expect("bot")
        .with_turn_limits(Duration::from_millis(200), Duration::from_millis(100))
}

fn algebraic(moves: &[&str]) -> AmazonsPosition {
    let mut pos = AmazonsPosition::new(AmazonsConfig::SMALL);
    for m in moves {
        let mv = pos.parse_legal_move(m).expect("legal move");
        pos.make_move(mv);
    }
    pos
}

fn legal_wire(pos: &AmazonsPosition, line: &str) -> AmazonsMove {
    let w = parse_wire_line(line).expect("six integers");
    let mv = move_of_wire(&w).expect("on the board");
    assert!(pos.validate(&mv).is_ok(), "'{line}' is illegal");
    mv
}

#[test]
fn coordinates() {
    let sq = |s: &str| {
        let pos = AmazonsPosition::new(AmazonsConfig::SMALL);
        pos.parse_move(&format!("{s}-{s}/{s}"))
            .expect("square")
            .from
    };
    assert_eq!(square_of(0, 0), Some(sq("a8")));
    assert_eq!(square_of(7, 7), Some(sq("h1")));
    assert_eq!(square_of(2, 0), Some(sq("c8")));
    assert_eq!(square_of(0, 5), Some(sq("a3")));
    assert_eq!(square_of(8, 0), None);
    assert_eq!(square_of(-1, 3), None);
    assert_eq!(square_of(i64::MAX, i64::MIN), None);
    for i in 0..64u16 {
        let (x, y) = xy_of(Square::new(i));
        assert_eq!(square_of(i64::from(x), i64::from(y)), Some(Square::new(i)));
    }
}

#[test]
fn the_spec_example_parses_to_the_right_position() {
    let turn = parse_turn(EXAMPLE).expect("parses");
    assert_eq!(turn.format, Format::Simple);
    assert_eq!(turn.requests.len(), 3);
    assert_eq!(turn.responses.len(), 2);
    let pos = replay(&turn).expect("legal history");
    let expected = algebraic(&["f8-d6/g3", "a3-e3/d4", "a6-a5/d8", "c1-c3/b4"]);
    assert_eq!(pos, expected);
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(pos.player_name(pos.side_to_move()), "Black");
    assert_eq!(pos.ply(), 4);
}

#[test]
fn simple_turn_answers_a_legal_move_line() {
    let mut bot = quick(false);
    let reply = bot.handle(EXAMPLE, Instant::now()).expect("reply");
    assert_eq!(reply.lines.len(), 1, "{:?}", reply.lines);
    let pos = replay(&parse_turn(EXAMPLE).expect("parses")).expect("legal");
    let mv = legal_wire(&pos, &reply.lines[0]);
    assert_eq!(pos.format_move(mv), reply.notation);
    assert!(!bot.started());
}

#[test]
fn the_engine_answers_within_budget() {
    let mut bot = BotzoneBot::new(AgentKind::Engine, false)
        .expect("bot")
        .with_turn_limits(Duration::from_millis(400), Duration::from_millis(300));
    let start = Instant::now();
    let reply = bot.handle(EXAMPLE, start).expect("reply");
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_millis(600), "{elapsed:?}");
    let pos = replay(&parse_turn(EXAMPLE).expect("parses")).expect("legal");
    legal_wire(&pos, &reply.lines[0]);
}

#[test]
fn white_first_turn_and_black_first_turn() {
    let mut bot = quick(false);
    let reply = bot
        .handle("1\n-1 -1 -1 -1 -1 -1\n", Instant::now())
        .expect("black");
    let start = AmazonsPosition::new(AmazonsConfig::SMALL);
    legal_wire(&start, &reply.lines[0]);
    // White: Black's move f8-d6/g3 is the first request.
    let mut bot = quick(false);
    let reply = bot.handle("1\n5 0 3 2 6 5", Instant::now()).expect("white");
    let pos = algebraic(&["f8-d6/g3"]);
    legal_wire(&pos, &reply.lines[0]);
    assert_eq!(pos.side_to_move(), Player::Second);
    assert_eq!(pos.player_name(pos.side_to_move()), "White");
}

#[test]
fn data_lines_after_the_history_are_ignored() {
    let mut bot = quick(false);
    let text = format!("{EXAMPLE}some data\nglobal data\n");
    assert!(bot.handle(&text, Instant::now()).is_ok());
}

#[test]
fn json_in_and_out() {
    let input = r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1,"x2":-1,"y2":-1},{"x0":0,"y0":5,"x1":4,"y1":5,"x2":3,"y2":4},{"x0":2,"y0":7,"x1":2,"y1":5,"x2":1,"y2":4}],"responses":[{"x0":5,"y0":0,"x1":3,"y1":2,"x2":6,"y2":5},{"x0":0,"y0":2,"x1":0,"y1":3,"x2":3,"y2":0}],"data":"","globaldata":"","time_limit":1,"memory_limit":256}"#;
    let turn = parse_turn(input).expect("parses");
    assert_eq!(turn.format, Format::Json);
    assert_eq!(turn.time_limit, Some(1.0));
    assert_eq!(
        turn,
        TurnInput {
            format: Format::Json,
            time_limit: Some(1.0),
            ..parse_simple(EXAMPLE).expect("simple")
        }
    );
    let mut bot = quick(false);
    let reply = bot.handle(input, Instant::now()).expect("reply");
    assert_eq!(reply.lines.len(), 1);
    let out: Value = serde_json::from_str(&reply.lines[0]).expect("one JSON line");
    let w = wire_of_json(&out["response"]).expect("move object");
    let pos = replay(&turn).expect("legal");
    let mv = move_of_wire(&w).expect("on board");
    assert!(pos.validate(&mv).is_ok());
    assert!(
        out["debug"]
            .as_str()
            .expect("debug")
            .starts_with(&reply.notation)
    );
    // time_limit lowers the limit (the quick bot's 100 ms stay).
    assert_eq!(bot.turn_limit(&turn), Duration::from_millis(100));
    let eng = BotzoneBot::new(AgentKind::Random, false).expect("bot");
    assert_eq!(eng.turn_limit(&turn), TURN_LIMIT);
    let one = TurnInput {
        time_limit: Some(0.5),
        requests: vec![FIRST_MOVE],
        responses: vec![],
        format: Format::Json,
    };
    assert_eq!(eng.turn_limit(&one), Duration::from_millis(500));
    let one = TurnInput {
        time_limit: None,
        ..one
    };
    assert_eq!(eng.turn_limit(&one), FIRST_TURN_LIMIT);
}

#[test]
fn turn_budgets_keep_the_reserve() {
    let ms = Duration::from_millis;
    let us = Duration::from_micros;
    // 1 s turns and 2 s on the first: searched to the limit less the reserve (50 ms and
    // a 32nd).
    let later = turn_budget(TURN_LIMIT);
    assert_eq!((later.target, later.hard), (us(918_750), us(918_750)));
    assert!(!later.saves_time);
    assert_eq!(turn_budget(FIRST_TURN_LIMIT).hard, us(1_887_500));
    // A tiny limit keeps an eighth and a 32nd of it back, not the whole 50 ms.
    assert_eq!(turn_budget(ms(20)).hard, us(16_875));
}

#[test]
fn keep_running_sequence_repeats_the_marker() {
    // Black: the bot plays against a scripted opponent that answers with its first legal move.
    let mut bot = quick(true);
    let mut shadow = AmazonsPosition::new(AmazonsConfig::SMALL);
    let mut input = "1\n-1 -1 -1 -1 -1 -1".to_string();
    let mut turns = 0;
    loop {
        let reply = bot.handle(&input, Instant::now()).expect("reply");
        assert_eq!(reply.lines.len(), 2);
        assert_eq!(reply.lines[1], KEEP_RUNNING_MARKER);
        let mv = legal_wire(&shadow, &reply.lines[0]);
        shadow.make_move(mv);
        assert!(bot.started());
        assert_eq!(bot.position(), Some(&shadow));
        turns += 1;
        let mut legal = Vec::new();
        shadow.generate_moves(&mut legal);
        let Some(&answer) = legal.first() else { break };
        shadow.make_move(answer);
        input = wire_of_move(answer).map(|v| v.to_string()).join(" ");
        if shadow.outcome().is_some() {
            let err = bot.handle(&input, Instant::now()).expect_err("game over");
            assert!(matches!(err, BotzoneError::GameOver(_)), "{err}");
            break;
        }
        if turns == 6 {
            // An illegal request in the middle: refused, the state is unchanged.
            let before = bot.position().cloned();
            let err = bot
                .handle("0 0 0 0 0 0", Instant::now())
                .expect_err("illegal");
            assert!(matches!(err, BotzoneError::History { .. }), "{err}");
            assert!(bot.handle("-1 -1 -1 -1 -1 -1", Instant::now()).is_err());
            assert!(bot.handle("1 2 3", Instant::now()).is_err());
            assert_eq!(bot.position().cloned(), before);
        }
    }
    assert!(turns > 6, "{turns}");
}

#[test]
fn keep_running_json_requests() {
    let mut bot = quick(true);
    let first = r#"{"requests":[{"x0":5,"y0":0,"x1":3,"y1":2,"x2":6,"y2":5}],"responses":[]}"#;
    let reply = bot.handle(first, Instant::now()).expect("white's first");
    assert_eq!(reply.lines[1], KEEP_RUNNING_MARKER);
    let out: Value = serde_json::from_str(&reply.lines[0]).expect("json");
    let mut pos = algebraic(&["f8-d6/g3"]);
    let mv = move_of_wire(&wire_of_json(&out["response"]).expect("w")).expect("m");
    pos.play(mv).expect("legal");
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    let w = wire_of_move(legal[0]);
    let req = format!(
        r#"{{"x0":{},"y0":{},"x1":{},"y1":{},"x2":{},"y2":{}}}"#,
        w[0], w[1], w[2], w[3], w[4], w[5]
    );
    pos.make_move(legal[0]);
    let reply = bot.handle(&req, Instant::now()).expect("second");
    assert!(reply.lines[0].starts_with('{'), "{:?}", reply.lines);
    let out: Value = serde_json::from_str(&reply.lines[0]).expect("json");
    let mv = move_of_wire(&wire_of_json(&out["response"]).expect("w")).expect("m");
    assert!(pos.validate(&mv).is_ok());
}

#[test]
fn a_finished_game_is_reported() {
    // A whole game (always the last generated move) replayed from the loser's side: the
    // history is legal but there is nothing left to play.
    let mut pos = AmazonsPosition::new(AmazonsConfig::SMALL);
    let mut plies: Vec<[u32; 6]> = Vec::new();
    let mut moves = Vec::new();
    loop {
        pos.generate_moves(&mut moves);
        let Some(&mv) = moves.last() else { break };
        plies.push(wire_of_move(mv));
        pos.make_move(mv);
    }
    let loser_is_black = pos.side_to_move() == Player::First;
    // Build the input from the loser's point of view.
    let line = |w: &[u32; 6]| w.map(|v| v.to_string()).join(" ");
    let mut lines = Vec::new();
    if loser_is_black {
        lines.push("-1 -1 -1 -1 -1 -1".to_string());
        for w in &plies {
            lines.push(line(w));
        }
    } else {
        for w in &plies {
            lines.push(line(w));
        }
    }
    let n = lines.len().div_ceil(2);
    assert_eq!(lines.len(), 2 * n - 1);
    let text = format!("{n}\n{}", lines.join("\n"));
    let err = quick(false)
        .handle(&text, Instant::now())
        .expect_err("over");
    assert!(matches!(err, BotzoneError::GameOver(_)), "{err}");
    assert!(err.to_string().contains("no legal move"), "{err}");
}

#[test]
fn illegal_histories_are_reported() {
    let cases = [
        // Our own recorded move is illegal (a8 is empty).
        ("2\n-1 -1 -1 -1 -1 -1\n0 0 0 1 0 2\n0 5 4 5 3 4", 2),
        // The opponent moves a Black queen.
        ("2\n-1 -1 -1 -1 -1 -1\n5 0 3 2 6 5\n0 2 0 3 3 0", 3),
        // The "first move" marker in the middle.
        ("2\n5 0 3 2 6 5\n0 5 4 5 3 4\n-1 -1 -1 -1 -1 -1", 3),
        // Off the board.
        ("1\n5 0 3 9 6 5", 1),
        // White's first request is not a Black move.
        ("1\n0 5 4 5 3 4", 1),
    ];
    for (text, index) in cases {
        match quick(false).handle(text, Instant::now()) {
            Err(BotzoneError::History { index: i, .. }) => assert_eq!(i, index, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn malformed_inputs_are_errors_not_panics() {
    let huge = "9".repeat(100);
    for text in [
        "",
        "   \n\n",
        "x",
        "0\n",
        "-3\n",
        &huge,
        "2\n-1 -1 -1 -1 -1 -1\n5 0 3 2 6 5\n",
        "1\n-1 -1 -1 -1 -1",
        "1\n-1 -1 -1 -1 -1 -1 -1",
        "1\na b c d e f",
        "1\n99999999999999999999999 0 0 0 0 0",
        "{",
        "{}",
        "[]",
        r#"{"requests":[]}"#,
        r#"{"requests":{"x0":1}}"#,
        r#"{"requests":[{"x0":1}],"responses":[]}"#,
        r#"{"requests":[{"x0":"a","y0":0,"x1":0,"y1":0,"x2":0,"y2":0}],"responses":[]}"#,
        r#"{"requests":[{"x0":1.5,"y0":0,"x1":0,"y1":0,"x2":0,"y2":0}],"responses":[]}"#,
        r#"{"requests":[{"x0":1e300,"y0":0,"x1":0,"y1":0,"x2":0,"y2":0}],"responses":[]}"#,
        r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1,"x2":-1,"y2":-1}],"responses":[{"x0":5,"y0":0,"x1":3,"y1":2,"x2":6,"y2":5}]}"#,
    ] {
        let err = quick(false).handle(text, Instant::now()).expect_err(text);
        assert!(!err.to_string().is_empty());
    }
}

fn run_on(bot: &mut BotzoneBot, input: &str) -> (Result<(), BotzoneError>, String) {
    let mut out = Vec::new();
    let mut log = Vec::new();
    let r = run(
        bot,
        Cursor::new(input.as_bytes().to_vec()),
        &mut out,
        &mut log,
    );
    (r, String::from_utf8_lossy(&out).into_owned())
}

#[test]
fn the_loop_reads_exactly_one_turn_in_restart_mode() {
    let mut bot = quick(false);
    let (r, out) = run_on(&mut bot, &format!("{EXAMPLE}data\n"));
    r.expect("ok");
    assert_eq!(out.lines().count(), 1, "{out}");
    // Keep-running: full turn, then single request lines (blank lines skipped).
    let mut bot = quick(true);
    let (r, out) = run_on(&mut bot, "1\n-1 -1 -1 -1 -1 -1\n\n");
    r.expect("ok");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1], KEEP_RUNNING_MARKER);
    // A bad request ends the loop with an error after the moves already written.
    let mut bot = quick(true);
    let (r, out) = run_on(&mut bot, "1\n-1 -1 -1 -1 -1 -1\nhello\n");
    assert!(matches!(r, Err(BotzoneError::Input(_))), "{r:?}");
    assert_eq!(out.lines().count(), 2);
    // A huge line.
    let mut bot = quick(false);
    let (r, out) = run_on(&mut bot, &"7".repeat(MAX_LINE_BYTES + 10));
    assert!(r.is_err());
    assert!(out.is_empty());
    // An empty input: nothing to do.
    let (r, out) = run_on(&mut quick(false), "");
    r.expect("ok");
    assert!(out.is_empty());
}
