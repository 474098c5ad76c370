//! Turning recorded games into Texel samples for the games whose evaluation weights are
//! fitted to results (`gomoku::tune`, `connect6::tune`, `amazons::tune`): every quiet position of recorded
//! games (`boardlab selfplay` / `match --records FILE`), with the terms the game's static
//! value weighs and the game's result for the side to move.
//!
//! Games that did not end on the board (a timeout, a crash, an illegal move of an external
//! engine, a stopped match) say nothing about their positions and are skipped, and
//! counted; a record that does not load is an error naming it.

use board_core::{Outcome, Player, Position, Rules, savefile};
use eval::tune::{Fit, Sample, fit};
use thiserror::Error;

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
    /// Positions skipped: something other than the weighed terms decides their static
    /// value (a forcing threat in gomoku and connect6; in amazons, once the players are
    /// separated, the exact count of the moves each has left).
    pub forcing: usize,
}

/// Adds the quiet positions of the games of a records file (save files, one after another:
/// `arena::records_text`) to `out`, after the first `skip_plies` plies of each game (the
/// opening, when it was drawn at random or taken from a book rather than played). Each game
/// is replayed on the engine's own position: `start` gives it for the start of a loaded game
/// (from its final rules position, which carries the configuration), and `features` the
/// terms the static value weighs for the side to move, or `None` when a forcing threat
/// decides it (not a sample).
pub(crate) fn add_samples<P, E>(
    text: &str,
    skip_plies: usize,
    out: &mut Samples,
    start: impl Fn(&P) -> E,
    features: impl Fn(&E, Player) -> Option<Vec<i64>>,
) -> Result<(), TuneError>
where
    P: Position,
    E: Rules<Move = P::Move>,
{
    for (i, game) in savefile::split_records(text).iter().enumerate() {
        if game.trim().is_empty() {
            continue;
        }
        let loaded = savefile::load::<P>(game).map_err(|error| TuneError::Record {
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
        let mut pos = start(&loaded.position);
        for (ply, &mv) in loaded.moves.iter().enumerate() {
            if ply >= skip_plies {
                let me = pos.side_to_move();
                match features(&pos, me) {
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

/// A game's evaluation weights as the generic tuner sees them: a flat list of integers in a
/// fixed order (the order of the game's features), and back.
pub trait TunedWeights: Sized {
    /// The weights in the order of the game's features.
    fn to_vec(&self) -> Vec<i32>;
    /// The weights [`to_vec`](TunedWeights::to_vec) wrote, or `None` for a slice of another
    /// length.
    fn from_slice(v: &[i32]) -> Option<Self>;
}

/// Fits weights to `samples`, starting from `start` (`eval::tune::fit`); deterministic.
pub fn fit_weights<W: TunedWeights>(samples: &[Sample], start: &W) -> Result<(W, Fit), TuneError> {
    let fitted = fit(samples, &start.to_vec())?;
    let weights =
        W::from_slice(&fitted.weights).expect("the fit returns one weight per starting weight");
    Ok((weights, fitted))
}
