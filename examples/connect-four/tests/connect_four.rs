//! The tutorial game (`examples/connect-four`) through every generic tool: conformance,
//! perft, search, play and self-play.

use board_core::{
    GameConfig, Notation, Outcome, Player, Position, Rules, Square, View, perft,
    testing::check_random_playouts, view::Cell,
};
use boardlab_games::{Game, SpecKey};
use connect_four::game::{Config, ConnectFour};
use play::{Humans, Session, Settings};
use search::{Agent, AgentKind, Limits, ScoreKind, SearchOptions};

fn start() -> ConnectFour {
    ConnectFour::new(Config::default())
}

/// The square a stone dropped into column `col` lands on.
fn landing(pos: &ConnectFour, col: char) -> Square {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let in_col = |sq: &&Square| pos.format_move(**sq).starts_with(col);
    *moves.iter().find(in_col).expect("the column has room")
}

/// The position after stones dropped into the columns `cols` (`"dede"`), from `pos`.
fn drop_into(mut pos: ConnectFour, cols: &str) -> ConnectFour {
    for col in cols.chars() {
        let sq = landing(&pos, col.to_ascii_lowercase());
        pos.play(sq).expect("legal");
    }
    pos
}

fn after(cols: &str) -> ConnectFour {
    drop_into(start(), cols)
}

fn sq(name: &str) -> Square {
    start().parse_move(name).expect("a square")
}

fn computer(depth: u32) -> Box<dyn Agent<ConnectFour>> {
    let options = SearchOptions::default().with_limits(Limits::new().with_depth(depth));
    ConnectFour::engine(options).expect("options")
}

#[test]
fn rules_and_notation() {
    assert_eq!("connect4".parse::<Config>(), Ok(Config { k: 4 }));
    assert_eq!(Config::default().to_string(), "connect4:k=4");
    assert_eq!(
        "connect4:size=8"
            .parse::<Config>()
            .map_err(|e| e.to_string()),
        Err("unknown key 'size' for connect4: expected one of k".to_string())
    );
    let pos = after("dddddd");
    assert_eq!(
        pos.parse_legal_move(" D6 ").map_err(|e| e.to_string()),
        Err("d6: a stone falls to the lowest empty square of its column".to_string())
    );
    assert_eq!(
        pos.parse_legal_move("d7").map_err(|e| e.to_string()),
        Err("d7 is off the 7x6 board".to_string())
    );
    assert_eq!(
        after("d").parse_legal_move("e3").map_err(|e| e.to_string()),
        Err("e3: a stone falls to the lowest empty square of its column".to_string())
    );
    assert!(after("d").parse_legal_move("e1").is_ok());
    assert!(pos.parse_move("d").is_err(), "a move is a square");
    let won = after("dededed");
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(won.outcome_reason(), None, "the result alone says it");
    assert_eq!(
        won.parse_legal_move("a1").map_err(|e| e.to_string()),
        Err("the game is over".to_string())
    );
    assert!(
        won.diagram().contains("3 . . . X O . .  3"),
        "{}",
        won.diagram()
    );
}

#[test]
fn the_position_string_is_the_board_and_refuses_what_cannot_happen() {
    let won = after("dededed");
    let text = "7/7/3X3/3XO2/3XO2/3XO2 second 7";
    assert_eq!(won.to_position_string(), text);
    assert_eq!(
        ConnectFour::from_position_string(Config::default(), text),
        Ok(won)
    );
    assert_eq!(start().to_position_string(), "7/7/7/7/7/7 first 0");
    let read = |s: &str| {
        ConnectFour::from_position_string(Config::default(), s).map_err(|e| e.to_string())
    };
    let bad = |why: &str| Err(format!("bad position string: {why}"));
    assert_eq!(read("7/7/7/7/3X3/7 second 1"), bad("a stone floats"));
    assert_eq!(
        read("7/7/7/7/7/XX5 first 2"),
        bad("X has O's count or one more")
    );
    assert_eq!(
        read("7/7/3X3/3XO2/3XO2/3XOO1 first 8"),
        bad("the game ended a move earlier")
    );
    assert_eq!(
        read("7/7/7/7/7/X6 first 1"),
        bad("the board has second to move")
    );
    assert_eq!(read("7/7/7/7/7/X6 second 2"), bad("the board is at ply 1"));
}

#[test]
fn variants_change_the_row_length() {
    let five: Config = "connect4:k=5".parse().expect("k=5");
    assert_eq!(five, Config { k: 5 });
    // Four in a column wins the default game, not k=5's.
    assert!(after("dededed").outcome().is_some());
    let long = drop_into(ConnectFour::new(five), "dededed");
    assert_eq!(long.outcome(), None);
    assert_eq!(
        drop_into(long, "ed").outcome(),
        Some(Outcome::Win(Player::First))
    );
    let three = drop_into(ConnectFour::new(Config { k: 3 }), "ddeef");
    assert_eq!(three.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(
        "connect4:k=7".parse::<Config>().map_err(|e| e.to_string()),
        Err("k=7 is out of range: expected an integer from 3 to 6".to_string())
    );
    // The form's keys come from the config.
    assert_eq!(
        ConnectFour::spec_keys(),
        [SpecKey::int("k", 3, 6, 1, "3 to 6")]
    );
    assert_eq!(Config::INT_KEYS[0].default, 4);
}

#[test]
fn wins_along_every_line_and_draws_on_a_full_board() {
    let win = |moves: &str| after(moves).outcome();
    assert_eq!(win("aabbccd"), Some(Outcome::Win(Player::First)), "a row");
    assert_eq!(
        win("gaabbccd"),
        Some(Outcome::Win(Player::Second)),
        "a row, by Second"
    );
    assert_eq!(
        win("abbccdcddgd"),
        Some(Outcome::Win(Player::First)),
        "a diagonal"
    );
    assert_eq!(
        win("gffeededdad"),
        Some(Outcome::Win(Player::First)),
        "the other diagonal"
    );
    // First's a4 a5 a6 and b1 are next to each other in the bits, but not on one line.
    assert_eq!(win("bagagaagaca"), None);
    // A full board without four in a row (found by random play).
    let pos = after("edgabeffbbfabgabffbaegdcggaegfcaececccdddd");
    assert_eq!(pos.ply(), 42, "{}", pos.diagram());
    assert_eq!(pos.outcome(), Some(Outcome::Draw), "{}", pos.diagram());
}

#[test]
fn the_view_shows_the_stones_and_the_square_a_move_lands_on() {
    let pos = after("dd");
    assert_eq!(pos.cell(sq("d1")), Cell::stone(Player::First));
    assert_eq!(pos.cell(sq("d2")), Cell::stone(Player::Second));
    assert_eq!(pos.cell(sq("d3")), Cell::Empty);
    assert_eq!(pos.move_squares(sq("d3")), [sq("d3")]);
    assert_eq!(after("dddddd").move_squares(sq("d6")), []);
    assert!(pos.board_view().outcome.is_none());
    let won = after("dededed").board_view();
    let outcome = won.outcome.expect("over");
    assert_eq!(outcome.outcome, Outcome::Win(Player::First));
    assert_eq!(outcome.reason, "game over");
}

#[test]
fn conformance() {
    let stats = check_random_playouts(&start(), 7, 300, 42).expect("conformance");
    assert!(stats.finished > 0);
    for k in [3, 5, 6] {
        check_random_playouts(&ConnectFour::new(Config { k }), 7, 100, 42).expect("variant");
    }
}

#[test]
fn perft_counts() {
    // 7^n until the first wins at ply 7 (OEIS A212693).
    let expected = [1, 7, 49, 343, 2401, 16807, 117649, 823536];
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut start(), depth as u32), n, "perft({depth})");
    }
}

#[test]
fn search_wins_and_defends() {
    let mut agent = computer(4);
    // First has d1 d2 d3: d4 wins at once.
    let result = agent.think(&after("dedede"), &Limits::new().with_depth(4), &mut |_| {});
    assert_eq!(result.best_move, Some(sq("d4")));
    assert_eq!(result.score.kind(), ScoreKind::Win(1));
    // Second must block column d.
    let result = agent.think(&after("dedad"), &Limits::new().with_depth(4), &mut |_| {});
    assert_eq!(result.best_move, Some(sq("d4")));
}

#[test]
fn the_default_baseline_is_the_engine_two_plies_deep() {
    let mut baseline = ConnectFour::player(AgentKind::Baseline, SearchOptions::default())
        .expect("the default baseline builds");
    assert_eq!(baseline.name(), "baseline");
    let result = baseline.think(&start(), &Limits::new().with_depth(9), &mut |_| {});
    assert_eq!(result.depth, 2, "held to two plies whatever the limits");
    let result = baseline.think(&after("dedede"), &Limits::new().with_depth(9), &mut |_| {});
    assert_eq!(result.best_move, Some(sq("d4")));
}

#[test]
fn play_session_against_the_search() {
    let settings = Settings {
        humans: Humans::First,
        limits: Limits::new().with_depth(3),
        color: false,
        echo: true,
        ..Settings::default()
    };
    let mut session = Session::new(start(), Some(computer(3)), settings);
    let (mut out, mut progress) = (Vec::new(), Vec::new());
    let mut input: &[u8] = b"d1\nz\nhint\nundo\nd1\nquit\n";
    session
        .run(&mut input, &mut out, &mut progress)
        .expect("session");
    let out = String::from_utf8(out).expect("utf-8");
    assert!(out.contains("Second (computer) plays"), "{out}");
    assert!(out.contains("error: 'z' is not a square"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("Took back to move 1."), "{out}");
    assert_eq!(session.moves().len(), 2);
}

#[test]
fn a_finished_game_names_its_winner_once() {
    let settings = Settings {
        humans: Humans::Both,
        color: false,
        echo: true,
        ..Settings::default()
    };
    let mut session = Session::new(start(), None, settings);
    let (mut out, mut progress) = (Vec::new(), Vec::new());
    let mut input: &[u8] = b"d1\ne1\nd2\ne2\nd3\ne3\nd4\n";
    session
        .run(&mut input, &mut out, &mut progress)
        .expect("session");
    let out = String::from_utf8(out).expect("utf-8");
    assert!(out.contains("Game over: First wins."), "{out}");
    assert!(!out.contains("player wins"), "{out}");
}

#[test]
fn self_play() {
    let (mut a, mut b) = (computer(2), computer(4));
    let record = arena::play_game(
        start(),
        &[],
        [a.as_mut(), b.as_mut()],
        &Limits::new().with_depth(4),
        42,
    );
    assert!(record.last.outcome().is_some(), "{}", record.reason);
    assert!(record.moves.len() <= 42);
}

/// A `Write` whose bytes the test reads back.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn registered_it_is_a_game_like_the_bundled_ones() {
    let registry = boardlab_games::Registry::bundled().with::<ConnectFour>();
    assert_eq!(registry.ids().last(), Some(&"connect4"));
    let mut game = registry.start("connect4:k=5").expect("registered");
    assert_eq!(game.spec(), "connect4:k=5");
    assert_eq!(game.play("D1").expect("legal"), "d1");
    assert!(game.play("h1").is_err());
    let played = game.played();
    assert_eq!(played.len(), 1);
    assert_eq!((played[0].player, played[0].pass), (Player::First, false));
    let loaded = registry.load(&game.save()).expect("its save loads");
    assert_eq!(loaded.moves(), ["d1"]);
    assert_eq!(loaded.spec(), "connect4:k=5");
    assert_eq!(loaded.hash(), game.hash());
    // Connect Four gives no reason; the erased game still says the game is over, with the
    // result in words (what the protocols print after "the game is over: ").
    assert_eq!(game.outcome_reason(), None);
    for mv in ["e1", "d2", "e2", "d3", "e3", "d4", "e4", "d5"] {
        game.play(mv).expect("legal");
    }
    assert_eq!(game.outcome_reason().as_deref(), Some("first player wins"));
}

#[test]
fn the_engine_protocol_serves_it_once_registered() {
    let registry = boardlab_games::Registry::bundled().with::<ConnectFour>();
    let out = Captured::default();
    let input = "ugi\nposition connect4 startpos moves d1 d2\ngo depth 4\nquit\n";
    protocols::ugi::run_with(
        input.as_bytes(),
        protocols::ugi::Output::new(out.clone()),
        std::sync::Arc::new(registry),
    )
    .expect("runs");
    let text = String::from_utf8(out.0.lock().expect("lock").clone()).expect("utf-8");
    assert!(!text.contains("error"), "{text}");
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {text}"));
    assert!(after("dd").parse_legal_move(best).is_ok(), "{best}");
}
