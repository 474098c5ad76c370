//! Play the tutorial's Connect Four in the terminal against boardlab's generic search:
//! `cargo run -p play --example connect_four` (moves are column letters: `d`).

mod eval;
mod game;

use std::io::{self, IsTerminal};

use board_core::Position;
use play::{Humans, Session, Settings};
use search::{Agent, Limits, SearchAgent, SearchOptions};

/// The computer player: the generic alpha-beta search with the tutorial's evaluator.
pub fn computer(depth: u32) -> Box<dyn Agent<game::ConnectFour>> {
    let options = SearchOptions::default().with_limits(Limits::new().with_depth(depth));
    match SearchAgent::new("connect4", eval::evaluate, options, Clone::clone) {
        Ok(agent) => Box::new(agent),
        Err(_) => Box::new(search::RandomAgent::new(1)),
    }
}

fn main() -> io::Result<()> {
    let settings = Settings {
        humans: Humans::First,
        limits: Limits::new().with_depth(8),
        color: play::use_color(false, io::stdout().is_terminal()),
        echo: !io::stdin().is_terminal(),
        ..Settings::default()
    };
    let start = game::ConnectFour::new(game::Config);
    let mut session = Session::new(start, Some(computer(8)), settings);
    session.run(
        &mut io::stdin().lock(),
        &mut io::stdout(),
        &mut io::stderr(),
    )
}
