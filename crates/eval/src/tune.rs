//! Fitting an evaluator's weights to game results, Texel-style: positions from games,
//! each with its features (the terms an evaluator weighs, First's minus Second's) and the
//! game's result for First (1, ½, 0); the weights are chosen so that a logistic curve of
//! the score, `1 / (1 + e^(-scale · score))`, predicts the results with the least mean
//! squared error.
//!
//! [`fit`] first fits `scale` to the starting weights (so the fit measures the weights,
//! not the units of the score), then moves one weight at a time by a step, keeping a move
//! that lowers the error, and halves the step when no move does (local search on
//! integers, as the Texel method does). It is deterministic: the same samples and start
//! give the same weights.
//!
//! ```
//! use boardlab_eval::tune::{Sample, fit};
//! // One feature: the more of it First has, the more often First won.
//! let samples: Vec<Sample> = (-5..=5)
//!     .flat_map(|f| [Sample { features: vec![f], result: if f > 0 { 1.0 } else { 0.0 } }])
//!     .collect();
//! let fitted = fit(&samples, &[-10])?;
//! assert!(fitted.weights[0] > 0, "the sign is learnt: {fitted:?}");
//! assert!(fitted.error_after < fitted.error_before);
//! # Ok::<(), boardlab_eval::EvalError>(())
//! ```

use crate::EvalError;

/// One position of a game: its features and the game's result for First.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The evaluator's terms for this position, First's minus Second's.
    pub features: Vec<i64>,
    /// 1 if First won the game, 0.5 for a draw, 0 if Second won.
    pub result: f64,
}

/// The outcome of [`fit`].
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The fitted weights, one per feature.
    pub weights: Vec<i32>,
    /// The logistic scale fitted to the starting weights (kept for the fitted ones).
    pub scale: f64,
    /// The mean squared error of the starting weights.
    pub error_before: f64,
    /// The mean squared error of the fitted weights.
    pub error_after: f64,
}

/// Most passes over the weights at one step size.
const MAX_PASSES: usize = 200;

/// Fits weights to `samples`, starting from `start` (see the [module docs](self)).
/// Refuses an empty sample set, a feature vector of another length than `start`, and a
/// result outside 0..=1.
pub fn fit(samples: &[Sample], start: &[i32]) -> Result<Fit, EvalError> {
    if samples.is_empty() {
        return Err(EvalError::BadSamples("no positions to fit".into()));
    }
    if let Some(s) = samples.iter().find(|s| s.features.len() != start.len()) {
        return Err(EvalError::BadSamples(format!(
            "a position has {} features, the weights {}",
            s.features.len(),
            start.len()
        )));
    }
    if samples.iter().any(|s| !(0.0..=1.0).contains(&s.result)) {
        return Err(EvalError::BadSamples("a result outside 0..=1".into()));
    }
    let scale = fit_scale(samples, start);
    let error_before = error(samples, start, scale);
    let mut weights = start.to_vec();
    let mut best = error_before;
    let largest = start.iter().map(|w| w.unsigned_abs()).max().unwrap_or(1);
    let mut step = (largest / 4).max(1) as i32;
    loop {
        for _ in 0..MAX_PASSES {
            let mut improved = false;
            for i in 0..weights.len() {
                for delta in [step, -step] {
                    let mut tried = weights.clone();
                    tried[i] = tried[i].saturating_add(delta);
                    let e = error(samples, &tried, scale);
                    if e < best {
                        (weights, best, improved) = (tried, e, true);
                        break;
                    }
                }
            }
            if !improved {
                break;
            }
        }
        if step == 1 {
            break;
        }
        step /= 2;
    }
    Ok(Fit {
        weights,
        scale,
        error_before,
        error_after: best,
    })
}

/// The mean squared error of the logistic prediction of `weights` at `scale`.
pub fn error(samples: &[Sample], weights: &[i32], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let score: f64 = s
                .features
                .iter()
                .zip(weights)
                .map(|(&f, &w)| f as f64 * f64::from(w))
                .sum();
            let predicted = 1.0 / (1.0 + (-scale * score).exp());
            (s.result - predicted).powi(2)
        })
        .sum();
    total / samples.len() as f64
}

/// The scale that fits `weights` best, searched on a logarithmic grid from 1e-6 to 10
/// (ten steps per decade).
fn fit_scale(samples: &[Sample], weights: &[i32]) -> f64 {
    let grid = (-60..=10).map(|i| 10f64.powf(f64::from(i) / 10.0));
    grid.map(|scale| (error(samples, weights, scale), scale))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(1.0, |(_, scale)| scale)
}

/// One decision of a player, for fitting a move policy ([`fit_policy`]): the features of
/// every move it could choose from and the one it chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The candidates' features, `width` per candidate, one candidate after another.
    pub features: Vec<i16>,
    /// The index of the chosen candidate.
    pub chosen: usize,
}

/// The outcome of [`fit_policy`].
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyFit {
    /// The fitted weights, one per feature (a candidate's value is their dot product with
    /// its features; its probability is proportional to `e^value`).
    pub weights: Vec<f64>,
    /// Mean negative log-likelihood of the chosen moves, fitted choices, at weights 0.
    pub loss_before: f64,
    /// The same at the fitted weights.
    pub loss_after: f64,
    /// Of the held-out choices (every [`HELD_OUT`]th, not fitted), the share whose chosen
    /// move the fitted values rank within the first 1, 3, 9 and 16 (ties counted against it).
    pub held_out_top: [f64; 4],
}

/// Every `HELD_OUT`th choice (from the first) is held out of [`fit_policy`]'s fit and
/// measures it.
pub const HELD_OUT: usize = 5;
/// Iterations of [`fit_policy`]'s gradient descent.
const POLICY_ITERATIONS: usize = 400;
/// Its step size (Adam's learning rate).
const POLICY_STEP: f64 = 0.05;
/// Its L2 penalty on the weights.
const POLICY_L2: f64 = 1e-4;

/// Fits a softmax move policy to `choices`: the weights that make the chosen moves most
/// likely, with a small L2 penalty, by full-batch gradient descent (Adam) from zero weights.
/// Every [`HELD_OUT`]th choice is left out of the fit and measures it. Deterministic.
/// Refuses no choices (or none to fit), a width of 0, features that are not whole
/// candidates of `width`, and a chosen index past the candidates.
pub fn fit_policy(choices: &[Choice], width: usize) -> Result<PolicyFit, EvalError> {
    let bad = |why: String| Err(EvalError::BadSamples(why));
    if width == 0 {
        return bad("a policy of no features".into());
    }
    for (i, c) in choices.iter().enumerate() {
        if c.features.len() % width != 0 {
            return bad(format!("choice {i}: features are not whole candidates"));
        }
        if c.chosen >= c.features.len() / width {
            return bad(format!("choice {i}: the chosen move is not a candidate"));
        }
    }
    let fitted: Vec<&Choice> = choices
        .iter()
        .enumerate()
        .filter(|(i, _)| i % HELD_OUT != 0)
        .map(|(_, c)| c)
        .collect();
    if fitted.is_empty() {
        return bad("no choices to fit".into());
    }
    let mut w = vec![0.0; width];
    let loss_before = policy_loss(&fitted, &w, width, None);
    let (mut m, mut v) = (vec![0.0; width], vec![0.0; width]);
    let mut grad = vec![0.0; width];
    for it in 0..POLICY_ITERATIONS {
        policy_loss(&fitted, &w, width, Some(&mut grad));
        let t = (it + 1) as i32;
        for i in 0..width {
            let g = grad[i] / fitted.len() as f64 + POLICY_L2 * w[i];
            m[i] = 0.9 * m[i] + 0.1 * g;
            v[i] = 0.999 * v[i] + 0.001 * g * g;
            let (mh, vh) = (
                m[i] / (1.0 - 0.9f64.powi(t)),
                v[i] / (1.0 - 0.999f64.powi(t)),
            );
            w[i] -= POLICY_STEP * mh / (vh.sqrt() + 1e-8);
        }
    }
    let loss_after = policy_loss(&fitted, &w, width, None);
    let held: Vec<&Choice> = choices.iter().step_by(HELD_OUT).collect();
    let mut hits = [0usize; 4];
    for c in &held {
        let values = candidate_values(c, &w, width);
        let mine = values[c.chosen];
        let rank = 1 + values
            .iter()
            .enumerate()
            .filter(|&(j, &x)| x > mine || (x == mine && j < c.chosen))
            .count();
        for (hit, n) in hits.iter_mut().zip([1, 3, 9, 16]) {
            *hit += usize::from(rank <= n);
        }
    }
    let held_out_top = hits.map(|h| h as f64 / held.len().max(1) as f64);
    Ok(PolicyFit {
        weights: w,
        loss_before,
        loss_after,
        held_out_top,
    })
}

fn candidate_values(c: &Choice, w: &[f64], width: usize) -> Vec<f64> {
    c.features
        .chunks_exact(width)
        .map(|f| f.iter().zip(w).map(|(&f, &w)| f64::from(f) * w).sum())
        .collect()
}

/// The mean negative log-likelihood of the chosen moves; with `grad`, also its gradient
/// summed over the choices (not divided by their number).
fn policy_loss(
    choices: &[&Choice],
    w: &[f64],
    width: usize,
    mut grad: Option<&mut Vec<f64>>,
) -> f64 {
    if let Some(g) = grad.as_deref_mut() {
        g.iter_mut().for_each(|x| *x = 0.0);
    }
    let mut loss = 0.0;
    for c in choices {
        let values = candidate_values(c, w, width);
        let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = values.iter().map(|x| (x - top).exp()).collect();
        let total: f64 = exps.iter().sum();
        loss -= (exps[c.chosen] / total + 1e-12).ln();
        if let Some(g) = grad.as_deref_mut() {
            for (f, e) in c.features.chunks_exact(width).zip(&exps) {
                let p = e / total;
                for (gi, &fi) in g.iter_mut().zip(f) {
                    *gi += p * f64::from(fi);
                }
            }
            let chosen = &c.features[c.chosen * width..(c.chosen + 1) * width];
            for (gi, &fi) in g.iter_mut().zip(chosen) {
                *gi -= f64::from(fi);
            }
        }
    }
    loss / choices.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples whose results follow a known logistic model of two features.
    fn synthetic() -> Vec<Sample> {
        let mut samples = Vec::new();
        for a in -6i64..=6 {
            for b in -6i64..=6 {
                // The true model weighs a three times as much as b.
                let p = 1.0 / (1.0 + (-(0.3 * a as f64 + 0.1 * b as f64)).exp());
                samples.push(Sample {
                    features: vec![a, b],
                    result: p,
                });
            }
        }
        samples
    }

    #[test]
    fn the_fit_finds_the_ratio_of_the_weights() {
        let fitted = fit(&synthetic(), &[10, 10]).expect("fits");
        assert!(fitted.error_after < fitted.error_before, "{fitted:?}");
        let ratio = f64::from(fitted.weights[0]) / f64::from(fitted.weights[1]);
        assert!((2.5..=3.5).contains(&ratio), "{fitted:?}");
        // Deterministic.
        assert_eq!(fit(&synthetic(), &[10, 10]).expect("fits"), fitted);
    }

    /// Choices between three candidates of one feature each, where the chooser prefers the
    /// larger feature: the fit learns a positive weight and ranks the chosen ones first.
    #[test]
    fn the_policy_fit_learns_what_the_chooser_prefers() {
        let choices: Vec<Choice> = (0..50)
            .map(|i| {
                let chosen = i % 3;
                let features = (0..3)
                    .map(|j| if j == chosen { 2 } else { j as i16 % 2 })
                    .collect();
                Choice { features, chosen }
            })
            .collect();
        let fitted = fit_policy(&choices, 1).expect("fits");
        assert!(fitted.weights[0] > 0.5, "{fitted:?}");
        assert!(fitted.loss_after < fitted.loss_before, "{fitted:?}");
        assert_eq!(fitted.held_out_top[0], 1.0, "{fitted:?}");
        assert_eq!(fit_policy(&choices, 1).expect("fits"), fitted);
    }

    #[test]
    fn bad_choices_are_refused() {
        let ok = Choice {
            features: vec![1, 0],
            chosen: 1,
        };
        assert!(fit_policy(&[], 1).is_err());
        assert!(fit_policy(std::slice::from_ref(&ok), 0).is_err());
        assert!(
            fit_policy(
                &[Choice {
                    features: vec![1, 0, 1],
                    chosen: 0
                }],
                2
            )
            .is_err()
        );
        assert!(
            fit_policy(
                &[Choice {
                    features: vec![1, 0],
                    chosen: 2
                }],
                1
            )
            .is_err()
        );
        // One choice: it is held out, so nothing is left to fit.
        assert!(fit_policy(std::slice::from_ref(&ok), 1).is_err());
    }

    #[test]
    fn bad_samples_are_refused() {
        assert!(fit(&[], &[1]).is_err());
        let short = Sample {
            features: vec![1],
            result: 1.0,
        };
        assert!(fit(std::slice::from_ref(&short), &[1, 2]).is_err());
        let odd = Sample {
            features: vec![1],
            result: 2.0,
        };
        assert!(fit(&[odd], &[1]).is_err());
    }
}
