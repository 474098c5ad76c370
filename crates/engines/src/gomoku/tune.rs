//! Fitting the engine's evaluation weights ([`EvalWeights`](super::board::EvalWeights)) to game results, Texel-style:
//! every quiet position of recorded games (`boardlab selfplay` / `match --records FILE`),
//! with the terms the quiet value weighs ([`quiet_features`]) and the game's result for the
//! side to move, fitted with the generic tuner (`eval::tune::fit`: the logistic scale is
//! fitted to the starting weights first, so the fitted weights keep the evaluation's units,
//! which the search's margins and the threat values are measured in).
//!
//! Games that did not end on the board (a timeout, a crash, an illegal move of an external
//! engine, a stopped match) say nothing about their positions and are skipped, and
//! counted; a record that does not load is an error naming it.

use board_core::Position as _;
use rules_gomoku::GomokuPosition;

use super::engine::{quiet_features, wrap};

pub use crate::tune::{Samples, TuneError, fit_weights};

/// Adds the quiet positions of the games of a records file (save files, one after another:
/// `arena::records_text`) to `out`. Every position of a game is a sample, after the first
/// `skip_plies` plies (the opening, when it was drawn at random rather than played).
pub fn add_samples(text: &str, skip_plies: usize, out: &mut Samples) -> Result<(), TuneError> {
    crate::tune::add_samples(
        text,
        skip_plies,
        out,
        |end: &GomokuPosition| wrap(&GomokuPosition::new(*end.config())),
        |pos, me| quiet_features(pos.state(), me),
    )
}
