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
