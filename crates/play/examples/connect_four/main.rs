//! Play the tutorial's Connect Four in the terminal against boardlab's generic search:
//! `cargo run -p boardlab-play --example connect_four` (moves are column letters: `d`).

mod eval;
mod game;
mod players;

use std::io::{self, IsTerminal};

use board_core::Position;
use boardlab_games::Game;
use boardlab_play::{Humans, Session, Settings};
use search::{Limits, SearchOptions};

fn main() -> io::Result<()> {
    let settings = Settings {
        humans: Humans::First,
        limits: Limits::new().with_depth(8),
        color: boardlab_play::use_color(false, io::stdout().is_terminal()),
        echo: !io::stdin().is_terminal(),
        ..Settings::default()
    };
    let start = game::ConnectFour::new(game::Config);
    let options = SearchOptions::default().with_limits(settings.limits.clone());
    let computer = game::ConnectFour::engine(options).map_err(io::Error::other)?;
    let mut session = Session::new(start, Some(computer), settings);
    session.run(
        &mut io::stdin().lock(),
        &mut io::stdout(),
        &mut io::stderr(),
    )
}
