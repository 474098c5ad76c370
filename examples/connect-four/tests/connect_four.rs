//! The tutorial game (`examples/connect-four`) through every generic tool: conformance,
//! perft, search, play and self-play.

use board_core::{
    Notation, Outcome, Player, Position, Rules, View, perft, testing::check_random_playouts,
    view::Cell,
};
use boardlab_games::Game;
use connect_four::game::{Config, ConnectFour};
use play::{Humans, Session, Settings};
use search::{Agent, Limits, ScoreKind, SearchOptions};

fn start() -> ConnectFour {
    ConnectFour::new(Config)
}

fn after(moves: &str) -> ConnectFour {
    let mut pos = start();
    for m in moves.chars() {
        let mv = pos.parse_legal_move(&m.to_string()).expect("legal move");
        pos.make_move(mv);
    }
    pos
}

fn computer(depth: u32) -> Box<dyn Agent<ConnectFour>> {
    let options = SearchOptions::default().with_limits(Limits::new().with_depth(depth));
    ConnectFour::engine(options).expect("options")
}

#[test]
fn rules_and_notation() {
    assert_eq!("connect4".parse::<Config>(), Ok(Config));
    assert_eq!(
        "connect4:size=8"
            .parse::<Config>()
            .map_err(|e| e.to_string()),
        Err("unknown key 'size': connect4 has no parameters".to_string())
    );
    let pos = after("dddddd");
    assert_eq!(
        pos.parse_legal_move(" D ").map_err(|e| e.to_string()),
        Err("column d is full".to_string())
    );
    assert!(pos.parse_move("h8").is_err());
    assert_eq!(
        pos.parse_legal_move("h").map_err(|e| e.to_string()),
        Err("there is no column h".to_string())
    );
    let won = after("dededeD");
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(won.to_position_string(), "d e d e d e d");
    let back = ConnectFour::from_position_string(Config, "d e d e d e d").expect("position");
    assert_eq!(back, won);
    assert_eq!(start().to_position_string(), "-");
    assert_eq!(ConnectFour::from_position_string(Config, "-"), Ok(start()));
    let err = ConnectFour::from_position_string(Config, "d d d d d d d").unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad position string: move 7 'd': column d is full"
    );
    assert!(
        won.diagram().contains("3 . . . X O . .  3"),
        "{}",
        won.diagram()
    );
}

#[test]
fn wins_along_every_line_and_draws_on_a_full_board() {
    let win = |moves: &str| after(moves).outcome();
    assert_eq!(win("aabbccd"), Some(Outcome::Win(Player::First)), "a row");
    assert_eq!(
        win("gaabbccd"),
        Some(Outcome::Win(Player::Second)),
        "a row, by Yellow"
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
    // Red's a4 a5 a6 and b1 are next to each other in the bits, but not on one line.
    assert_eq!(win("bagagaagaca"), None);
    // A full board without four in a row (found by random play).
    let pos = after("edgabeffbbfabgabffbaegdcggaegfcaececccdddd");
    assert_eq!(pos.ply(), 42, "{}", pos.diagram());
    assert_eq!(pos.outcome(), Some(Outcome::Draw), "{}", pos.diagram());
}

#[test]
fn the_view_shows_the_stones_and_the_square_a_move_lands_on() {
    let pos = after("dd");
    let g = pos.geometry();
    let sq = |s: &str| g.parse_square(s).expect("square");
    assert_eq!(pos.cell(sq("d1")), Cell::stone(Player::First));
    assert_eq!(pos.cell(sq("d2")), Cell::stone(Player::Second));
    assert_eq!(pos.cell(sq("d3")), Cell::Empty);
    assert_eq!(pos.move_squares(3), [sq("d3")]);
    assert_eq!(after("dddddd").move_squares(3), []);
    assert!(pos.board_view().outcome.is_none());
}

#[test]
fn conformance() {
    let stats = check_random_playouts(&start(), 7, 300, 42).expect("conformance");
    assert!(stats.finished > 0);
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
    // Red has d1 d2 d3: d wins at once.
    let result = agent.think(&after("dedede"), &Limits::new().with_depth(4), &mut |_| {});
    assert_eq!(result.best_move, Some(3));
    assert_eq!(result.score.kind(), ScoreKind::Win(1));
    // Yellow must block column d.
    let result = agent.think(&after("dedad"), &Limits::new().with_depth(4), &mut |_| {});
    assert_eq!(result.best_move, Some(3));
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
    let mut input: &[u8] = b"d\nz\nhint\nundo\nd\nquit\n";
    session
        .run(&mut input, &mut out, &mut progress)
        .expect("session");
    let out = String::from_utf8(out).expect("utf-8");
    assert!(out.contains("Second (computer) plays"), "{out}");
    assert!(out.contains("error: there is no column z"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("Took back to move 1."), "{out}");
    assert_eq!(session.moves().len(), 2);
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
    let mut game = registry.start("connect4").expect("registered");
    assert_eq!(game.play("D").expect("legal"), "d");
    assert!(game.play("h").is_err());
    let loaded = registry.load(&game.save()).expect("its save loads");
    assert_eq!(loaded.moves(), ["d"]);
    assert_eq!(loaded.hash(), game.hash());
}

#[test]
fn the_engine_protocol_serves_it_once_registered() {
    let registry = boardlab_games::Registry::bundled().with::<ConnectFour>();
    let out = Captured::default();
    let input = "ugi\nposition connect4 startpos moves d d\ngo depth 4\nquit\n";
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
