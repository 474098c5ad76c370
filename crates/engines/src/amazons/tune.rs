//! Fitting the evaluation weights ([`EvalWeights`](super::engine::EvalWeights)) to game results, Texel-style: every
//! position of recorded games (`boardlab selfplay amazons:size=8` / `match --records FILE`)
//! before the players are separated, with the terms the static value weighs
//! ([`quiet_features`]) and the game's result for the side to move, fitted with the generic
//! tuner (`eval::tune::fit`: the logistic scale is fitted to the starting weights first, so
//! the fitted weights keep the evaluation's units, which the separated positions' filling
//! count, 100 cp a move, is measured in).
//!
//! A separated position is not a sample: its value is the exact count of the moves each
//! side has left, not the weighed terms (counted in [`Samples::forcing`]). Games that did
//! not end on the board (a timeout, a crash, an illegal move of an external engine, a
//! stopped match) say nothing about their positions and are skipped, and counted; a record
//! that does not load is an error naming it.

use board_core::Position as _;

use super::{Position, engine::quiet_features};

pub use crate::tune::{Samples, TuneError, fit_weights};

/// Adds the positions of the games of a records file (save files, one after another:
/// `arena::records_text`) to `out`: every position before the players are separated, after
/// the first `skip_plies` plies of each game (the opening, when it was drawn at random or
/// taken from a book rather than played).
pub fn add_samples(text: &str, skip_plies: usize, out: &mut Samples) -> Result<(), TuneError> {
    crate::tune::add_samples(
        text,
        skip_plies,
        out,
        |end: &Position| Position::new(*end.config()),
        |pos: &Position, _| quiet_features(pos),
    )
}
