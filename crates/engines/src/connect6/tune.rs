//! Fitting the evaluation weights ([`EvalWeights`]) to game results, Texel-style: every
//! quiet position of recorded games (`boardlab selfplay connect6` / `match --records
//! FILE`), with the terms the static value weighs ([`quiet_features`]) and the game's result
//! for the side to move, fitted with the generic tuner (`eval::tune::fit`: the logistic
//! scale is fitted to the starting weights first, so the fitted weights keep the
//! evaluation's units, which the candidates' pair values and the threat values are measured
//! in).
//!
//! Games that did not end on the board (a timeout, a crash, an illegal move of an external
//! engine, a stopped match) say nothing about their positions and are skipped, and counted;
//! a record that does not load is an error naming it.

use board_core::{Outcome, Player, Position as _, Rules as _, savefile};
use eval::tune::{Fit, Sample, fit};
use rules_connect6::Connect6Position;
use thiserror::Error;

use super::engine::{EvalWeights, quiet_features, wrap};

/// Why records cannot be turned into samples, or samples into weights.
#[derive(Debug, Error)]
pub enum TuneError {
    /// A game of a records file did not load.
    #[error("records game {game}: {error}")]
    Record {
        /// The game's number in the file, from 1.
        game: usize,
        /// What was wrong with it.
        error: String,
    },
    /// The fit refused the samples.
    #[error("fit: {0}")]
    Fit(#[from] eval::EvalError),
}

/// The samples of records files and what was skipped.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// One per quiet position, from the side to move's point of view.
    pub samples: Vec<Sample>,
    /// Games read (with an outcome on the board).
    pub games: usize,
    /// Games skipped: not ended on the board.
    pub unfinished: usize,
    /// Positions skipped: a threat decides their static value.
    pub forcing: usize,
}

/// Adds the quiet positions of the games of a records file (save files, one after another:
/// `arena::records_text`) to `out`. Every position of a game is a sample, after the first
/// `skip_plies` plies (the opening, when it was drawn at random or taken from a book rather
/// than played).
pub fn add_samples(text: &str, skip_plies: usize, out: &mut Samples) -> Result<(), TuneError> {
    for (i, game) in savefile::split_records(text).iter().enumerate() {
        if game.trim().is_empty() {
            continue;
        }
        let loaded =
            savefile::load::<Connect6Position>(game).map_err(|error| TuneError::Record {
                game: i + 1,
                error: error.to_string(),
            })?;
        let Some(outcome) = loaded.position.outcome() else {
            out.unfinished += 1;
            continue;
        };
        out.games += 1;
        let result_for = |p: Player| match outcome {
            Outcome::Win(w) if w == p => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        };
        let mut pos = wrap(&Connect6Position::new(*loaded.position.config()));
        for (ply, &mv) in loaded.moves.iter().enumerate() {
            if ply >= skip_plies {
                let me = pos.side_to_move();
                match quiet_features(pos.state(), me) {
                    Some(features) => out.samples.push(Sample {
                        features,
                        result: result_for(me),
                    }),
                    None => out.forcing += 1,
                }
            }
            pos.make_move(mv);
        }
    }
    Ok(())
}

/// Fits [`EvalWeights`] to `samples`, starting from `start` (the shipped weights started
/// from [`HAND_WEIGHTS`](super::engine::HAND_WEIGHTS)); deterministic.
pub fn fit_weights(
    samples: &[Sample],
    start: &EvalWeights,
) -> Result<(EvalWeights, Fit), TuneError> {
    let fitted = fit(samples, &start.to_vec())?;
    let weights = EvalWeights::from_slice(&fitted.weights)
        .expect("the fit returns one weight per starting weight");
    Ok((weights, fitted))
}
