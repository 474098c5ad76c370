//! Integration tests of the search on toy games (one test binary).

mod agents;
mod differential;
mod games;
mod hooks;
mod limits;
mod measure;
mod play;

use board_core::{Position, testing};
use games::{Nim, NimConfig, Shuttle, ShuttleConfig, TicTacToe, TicTacToeConfig, Tree};

/// The fixtures are valid games by board-core's own conformance harness.
#[test]
fn toy_games_conform() {
    for seed in 0..4 {
        testing::check_random_playouts(&Tree::with(seed, 12), u64::from(seed), 20, 30).unwrap();
    }
    testing::check_random_playouts(&TicTacToe::new(TicTacToeConfig::default()), 1, 30, 10).unwrap();
    testing::check_random_playouts(&Nim::new(NimConfig::default()), 2, 30, 20).unwrap();
    // A shuttle game may go on for ever: check fixed-length playouts.
    for seed in 0..10u32 {
        let choices: Vec<u32> = (0..40)
            .map(|i| (games::mix(u64::from(seed * 100 + i)) % 7) as u32)
            .collect();
        testing::check_playout(&Shuttle::new(ShuttleConfig::default()), &choices).unwrap();
    }
}
