//! Fitting the engine's evaluation weights ([`EvalWeights`](super::board::EvalWeights)) to game results, Texel-style:
//! every quiet position of recorded games (`boardlab selfplay` / `match --records FILE`),
//! with the terms the quiet value weighs ([`quiet_features`]) and the game's result for the
//! side to move, fitted with the generic tuner (`eval::tune::fit`: the logistic scale is
//! fitted to the starting weights first, so the fitted weights keep the evaluation's units,
//! which the search's margins and the threat values are measured in).
//!
//! The weights can also be fitted to the values a stronger engine (Rapfi) gives quiet
//! positions of our games, each turned into a win probability on [`RAPFI_SCALE`]
//! ([`add_valued_samples`]; `docs/rapfi_values.py` values the positions). Session 20 fitted
//! the shipped weights so to 35,624 positions of 3,745 games: the fit's error fell by 5%,
//! and the weights lost an SPRT to these (`docs/strength.md`), so the shipped weights are
//! still the fit to game results.
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

/// How many units of a valuing engine's score are one logistic unit of the win probability
/// of [`add_valued_samples`], for Rapfi's (classical) values at 5,000 nodes: the scale at
/// which they predicted the results of the shipped games best on the first 1,401 positions
/// valued (of 100 to 600). On all 6,041 valued positions of those games 130 predicts a
/// little better (mean squared error 0.1641 against 0.1663): session 20,
/// `docs/strength.md`.
pub const RAPFI_SCALE: f64 = 175.0;

/// Adds the quiet positions of a valued-positions file (see
/// `crate::tune::add_valued_samples`: one game a line, its moves, a tab, then
/// `ply=value` pairs) of games played under `config`, each valued `value` for the side
/// to move on a scale of `scale` units (such as [`RAPFI_SCALE`]) to one logistic unit.
pub fn add_valued_samples(
    text: &str,
    config: rules_gomoku::GomokuConfig,
    scale: f64,
    out: &mut Samples,
) -> Result<(), TuneError> {
    crate::tune::add_valued_samples(
        text,
        &GomokuPosition::new(config),
        scale,
        out,
        wrap,
        |pos, me| quiet_features(pos.state(), me),
    )
}
