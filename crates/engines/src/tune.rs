//! Turning recorded games into Texel samples for the games whose evaluation weights are
//! fitted to results (`gomoku::tune`, `connect6::tune`, `amazons::tune`): every quiet position of recorded
//! games (`boardlab selfplay` / `match --records FILE`), with the terms the game's static
//! value weighs and the game's result for the side to move.
//!
//! Games that did not end on the board (a timeout, a crash, an illegal move of an external
//! engine, a stopped match) say nothing about their positions and are skipped, and
//! counted; a record that does not load is an error naming it.
//!
//! Positions can also be valued by another engine instead of a game's result
//! (`add_valued_samples`; for gomoku, `gomoku::tune::add_valued_samples`): a stronger
//! engine's search value for each position, turned into a win probability, is a target
//! with far less noise than the one result of a whole game (a game lost forty moves later
//! says little about its tenth position).

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
    /// A line of a valued-positions file did not read.
    #[error("valued positions line {line}: {error}")]
    Valued {
        /// The line's number in the file, from 1.
        line: usize,
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

impl Samples {
    /// Adds a position's sample: its weighed terms and its result for the side to move,
    /// or, with no terms (a forcing threat decides its value), counts it as skipped.
    fn add(&mut self, features: Option<Vec<i64>>, result: f64) {
        match features {
            Some(features) => self.samples.push(Sample { features, result }),
            None => self.forcing += 1,
        }
    }
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
                out.add(features(&pos, me), result_for(me));
            }
            pos.make_move(mv);
        }
    }
    Ok(())
}

/// Adds the quiet positions of a valued-positions file to `out`, each with the win
/// probability its value gives the side to move, `1 / (1 + e^(−value / scale))`.
///
/// The file has one game a line: its moves in the game's notation, separated by spaces,
/// a tab, then `ply=value` pairs separated by spaces, each the value of the position after
/// the game's first `ply` moves for the side to move there, in the valuing engine's units
/// (`scale` of them are one logistic unit). Lines that are empty or start with `#` are
/// comments. `initial` is the position the games start from; `start` and `features` are
/// [`add_samples`]'. A line that does not read (a move that is not legal there, a ply past
/// the game's end, a value that is not a number) is an error naming it, and then nothing
/// of the file is added. `out.games` counts the lines read.
pub(crate) fn add_valued_samples<P, E>(
    text: &str,
    initial: &P,
    scale: f64,
    out: &mut Samples,
    start: impl Fn(&P) -> E,
    features: impl Fn(&E, Player) -> Option<Vec<i64>>,
) -> Result<(), TuneError>
where
    P: Position,
    E: Rules<Move = P::Move>,
{
    let mut read = Samples::default();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |error: String| TuneError::Valued { line: i + 1, error };
        let (moves, values) = line
            .split_once('\t')
            .ok_or_else(|| bad("expected moves, a tab, then ply=value pairs".into()))?;
        let mut wanted = Vec::new();
        for pair in values.split_whitespace() {
            let parsed = pair.split_once('=').and_then(|(ply, value)| {
                Some((ply.parse::<usize>().ok()?, value.parse::<i32>().ok()?))
            });
            wanted.push(parsed.ok_or_else(|| bad(format!("{pair:?} is not ply=value")))?);
        }
        wanted.sort_unstable();
        let mut rules = initial.clone();
        let mut pos = start(initial);
        let mut next = wanted.iter().peekable();
        for (ply, text) in moves.split_whitespace().map(Some).chain([None]).enumerate() {
            while let Some(&(_, value)) = next.next_if(|(p, _)| *p == ply) {
                let me = pos.side_to_move();
                let result = 1.0 / (1.0 + (-f64::from(value) / scale).exp());
                read.add(features(&pos, me), result);
            }
            let Some(text) = text else { break };
            let mv = rules
                .parse_legal_move(text)
                .map_err(|e| bad(format!("move {} ({text}): {e}", ply + 1)))?;
            rules.make_move(mv);
            pos.make_move(mv);
        }
        if let Some((ply, _)) = next.next() {
            return Err(bad(format!("ply {ply} is past the game's end")));
        }
        read.games += 1;
    }
    out.samples.append(&mut read.samples);
    out.games += read.games;
    out.forcing += read.forcing;
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
