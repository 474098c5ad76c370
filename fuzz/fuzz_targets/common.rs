//! Shared by the fuzz targets: the spec strings fuzzing plays the games under.

#![allow(dead_code)]

use std::sync::OnceLock;

use boardlab_games::{Game, GameId, with_game};

/// Specs chosen by the first input byte: every game's sample specs from the games table
/// (defaults, small boards so playouts reach the end game quickly, odd parameters), in the
/// table's order.
pub fn specs() -> &'static [(GameId, &'static str)] {
    static SPECS: OnceLock<Vec<(GameId, &'static str)>> = OnceLock::new();
    fn samples<G: Game>() -> &'static [&'static str] {
        G::SAMPLE_SPECS
    }
    SPECS.get_or_init(|| {
        GameId::ALL
            .iter()
            .flat_map(|&id| {
                with_game!(id, samples())
                    .iter()
                    .map(move |&spec| (id, spec))
            })
            .collect()
    })
}

/// The spec picked by input byte `pick`.
pub fn spec_of(pick: u8) -> (GameId, &'static str) {
    let specs = specs();
    specs[usize::from(pick) % specs.len()]
}
