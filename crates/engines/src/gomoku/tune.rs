//! Fitting the engine's weights to recorded games: the evaluation's and the candidate
//! order's.
//!
//! # The evaluation
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

use board_core::{Position as _, Rules as _};
use rules_gomoku::GomokuPosition;

use super::board::{ORDER_FEATURES, OrderWeights};
use super::engine::{quiet_features, wrap};
use eval::tune::{Choice, PolicyFit, fit_policy};

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

/// The choices of a candidate-order fit ([`add_choices`]) and what was skipped.
#[derive(Clone, Debug, Default)]
pub struct Choices {
    /// One per quiet move of a chosen player: the terms of every cell near the stones.
    pub choices: Vec<Choice>,
    /// Games read.
    pub games: usize,
    /// Quiet moves skipped: not on a cell near the stones (never a candidate).
    pub far: usize,
}

/// First ply whose move is a choice: the books' openings are 3-10 stones, and the first
/// moves after them are the least typical of a game.
pub const ORDER_SKIP: usize = 6;

/// Adds to `out`, as choices of a softmax policy over the cells near the stones (the quiet
/// candidates, `engine::candidates`), the moves of the records' players whose name (as the
/// `# game N: A (first) vs B (second)` line gives it) `chooser` accepts, from ply
/// [`ORDER_SKIP`] on, where the move is quiet: no five for either side to make and no
/// open three of the opponent's to answer (the candidates are then fixed by rule). A game
/// without that line, or that does not load, is an error naming it.
pub fn add_choices(
    text: &str,
    chooser: impl Fn(&str) -> bool,
    out: &mut Choices,
) -> Result<(), TuneError> {
    use super::board::K_FLEX4;
    for (i, game) in board_core::savefile::split_records(text).iter().enumerate() {
        if game.trim().is_empty() {
            continue;
        }
        let error = |error: String| TuneError::Record { game: i + 1, error };
        let players = game
            .lines()
            .find_map(|l| l.strip_prefix("# game "))
            .and_then(|l| {
                let (_, rest) = l.split_once(": ")?;
                let (first, rest) = rest.split_once(" (first) vs ")?;
                let (second, _) = rest.split_once(" (second)")?;
                Some([chooser(first), chooser(second)])
            })
            .ok_or_else(|| error("no '# game N: A (first) vs B (second)' line".into()))?;
        let loaded =
            board_core::savefile::load::<GomokuPosition>(game).map_err(|e| error(e.to_string()))?;
        out.games += 1;
        let mut pos = wrap(&GomokuPosition::new(*loaded.position.config()));
        for (ply, &mv) in loaded.moves.iter().enumerate() {
            let st = pos.state();
            let me = pos.side_to_move();
            let quiet = st.fives(me).is_empty()
                && st.fives(me.other()).is_empty()
                && st.kind_count(me.other(), K_FLEX4) == 0;
            if ply >= ORDER_SKIP && players[ply % 2] && quiet {
                let near = st.near_order_terms(me);
                match near.iter().position(|(sq, _)| *sq == mv.square()) {
                    Some(chosen) => out.choices.push(Choice {
                        features: near.iter().flat_map(|(_, f)| *f).collect(),
                        chosen,
                    }),
                    None => out.far += 1,
                }
            }
            pos.make_move(mv);
        }
    }
    Ok(())
}

/// Fits the candidate order's weights to `choices` (`eval::tune::fit_policy`), in
/// hundredths, rounded; a term that no candidate of the choices has keeps its weight in
/// `unseen` (the fit has nothing to say about it).
pub fn fit_order_weights(
    choices: &[Choice],
    unseen: &OrderWeights,
) -> Result<(OrderWeights, PolicyFit), TuneError> {
    let width = 2 * ORDER_FEATURES;
    let fitted = fit_policy(choices, width)?;
    let mut seen = vec![false; width];
    for c in choices {
        for f in c.features.chunks_exact(width) {
            for (s, &x) in seen.iter_mut().zip(f) {
                *s |= x != 0;
            }
        }
    }
    let weight = |i: usize, hand: i32| {
        if seen[i] {
            (fitted.weights[i] * 100.0).round() as i32
        } else {
            hand
        }
    };
    let mut w = *unseen;
    for i in 0..ORDER_FEATURES {
        w.attack[i] = weight(i, unseen.attack[i]);
        w.defence[i] = weight(ORDER_FEATURES + i, unseen.defence[i]);
    }
    Ok((w, fitted))
}
