//! The sequential probability ratio test over colour-swapped pairs, as fishtest runs it.
//!
//! Each pair of games (same opening, colours swapped) scores 0, ½, 1, 1½ or 2 points for A:
//! the **pentanomial** model counts pairs in these five bins, which captures the correlation
//! between the two games of a pair (a trinomial count of single games overstates the
//! variance when openings are unbalanced).
//!
//! The log-likelihood ratio is the *generalized* one (GSPRT): for each hypothesis the
//! maximum-likelihood distribution over the five bins is found whose expected score (the
//! logistic model) or whose t-value (the normalized model) the hypothesis fixes, and the
//! LLR is the log of the ratio of their likelihoods of the observed counts. This is
//! fishtest's `LLR_logistic` / `LLR_normalized` (Michel Van den Bergh's derivation: the
//! constrained maximum solves a one-dimensional secular equation). Empty bins are
//! regularised to 1e-3 as there.

use std::{fmt, str::FromStr};

/// `800 / ln 10`: a normalized Elo of this many points is a t-value of 1 per game.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// How `elo0`/`elo1` are to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo: an expected score `1 / (1 + 10^(-elo/400))`.
    Logistic,
    /// Normalized Elo: the t-value `(score - ½) / σ` per game, times `800 / ln 10`.
    Normalized,
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        })
    }
}

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0: A is stronger by this many Elo (below `elo1`).
    pub elo0: f64,
    /// H1: A is stronger by this many Elo (above `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds (0 < alpha < 0.5).
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds (0 < beta < 0.5).
    pub beta: f64,
    /// Whether `elo0`/`elo1` are logistic or normalized Elo.
    pub model: EloModel,
}

/// What the test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 accepted: A is stronger by at least about `elo1`.
    H1,
    /// H0 accepted: A is not stronger than about `elo0`.
    H0,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::H1 => "H1 accepted",
            SprtDecision::H0 => "H0 accepted",
        })
    }
}

/// A bad `--sprt` string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad --sprt '{text}': {why}")]
pub struct SprtParseError {
    /// The text given (its first 64 characters).
    pub text: String,
    /// What is wrong with it.
    pub why: String,
}

/// Pairs counted by A's points in the pair: `[0, ½, 1, 1½, 2]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts a pair in which A scored `half_points` half-points (0..=4).
    pub fn add(&mut self, half_points: u32) {
        self.0[half_points.min(4) as usize] += 1;
    }

    /// The number of pairs counted, over all five bins.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "[{a}, {b}, {c}, {d}, {e}]")
    }
}

impl Sprt {
    /// `ln(β / (1 - α))`: at or below it H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1 - β) / α)`: at or above it H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The generalized log-likelihood ratio of H1 against H0 for these pair counts
    /// (0 without pairs).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        llr_of_counts(&pairs.0.map(f64::from), self.elo0, self.elo1, self.model)
    }

    /// The decision at `llr`, if the test has one.
    pub fn decide(&self, llr: f64) -> Option<SprtDecision> {
        if llr >= self.upper_bound() {
            Some(SprtDecision::H1)
        } else if llr <= self.lower_bound() {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={}",
            self.elo0, self.elo1, self.alpha, self.beta, self.model
        )
    }
}

impl FromStr for Sprt {
    type Err = SprtParseError;

    /// Reads `elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=logistic|normalized]`; alpha and
    /// beta default to 0.05 and the model to logistic.
    fn from_str(text: &str) -> Result<Sprt, SprtParseError> {
        let err = |why: String| SprtParseError {
            text: text.chars().take(64).collect(),
            why,
        };
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta, mut model) = (0.05, 0.05, EloModel::Logistic);
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| err(format!("'{item}' is not key=value")))?;
            let number = || {
                value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| err(format!("{key}={value} is not a number")))
            };
            match key.trim() {
                "elo0" => elo0 = Some(number()?),
                "elo1" => elo1 = Some(number()?),
                "alpha" => alpha = number()?,
                "beta" => beta = number()?,
                "model" => {
                    model = match value.trim() {
                        "logistic" => EloModel::Logistic,
                        "normalized" => EloModel::Normalized,
                        other => {
                            return Err(err(format!(
                                "model={other}: expected logistic or normalized"
                            )));
                        }
                    }
                }
                other => {
                    return Err(err(format!(
                        "unknown key '{other}': expected elo0, elo1, alpha, beta or model"
                    )));
                }
            }
        }
        let elo0 = elo0.ok_or_else(|| err("elo0 is missing".into()))?;
        let elo1 = elo1.ok_or_else(|| err("elo1 is missing".into()))?;
        if elo0 >= elo1 {
            return Err(err(format!("elo0={elo0} must be below elo1={elo1}")));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(err(format!(
                    "{name}={v} is out of range: expected 0 < {name} < 0.5"
                )));
            }
        }
        if model == EloModel::Logistic && (elo0.abs() >= 1000.0 || elo1.abs() >= 1000.0) {
            return Err(err("elo0 and elo1 must lie within ±1000".into()));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }
}

/// The expected score of a logistic Elo difference.
fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A discrete distribution: `(value, probability)` per bin.
type Pdf = Vec<(f64, f64)>;

/// Mean and variance of `pdf`.
fn mean_var(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let var = pdf.iter().map(|(a, p)| p * (a - mean).powi(2)).sum();
    (mean, var)
}

/// Solves `Σ pᵢ aᵢ / (1 + x aᵢ) = 0` for `x` where every `1 + x aᵢ > 0` (the `aᵢ` take
/// both signs). The sum falls strictly in `x` there, so bisection finds the root.
fn secular(pdf: &[(f64, f64)]) -> f64 {
    let lo_a = pdf.iter().map(|(a, _)| *a).fold(f64::INFINITY, f64::min);
    let hi_a = pdf
        .iter()
        .map(|(a, _)| *a)
        .fold(f64::NEG_INFINITY, f64::max);
    debug_assert!(lo_a < 0.0 && hi_a > 0.0, "secular equation without a root");
    let f = |x: f64| pdf.iter().map(|(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    let (mut l, mut u) = (-1.0 / hi_a, -1.0 / lo_a);
    let eps = 1e-12 * (u - l);
    l += eps;
    u -= eps;
    for _ in 0..200 {
        let mid = 0.5 * (l + u);
        if f(mid) > 0.0 {
            l = mid;
        } else {
            u = mid;
        }
        if u - l <= 1e-15 * (1.0 + mid.abs()) {
            break;
        }
    }
    0.5 * (l + u)
}

/// The maximum-likelihood distribution on `observed`'s bins with expected value `s`.
fn mle_expected(observed: &[(f64, f64)], s: f64) -> Pdf {
    let shifted: Pdf = observed.iter().map(|(a, p)| (a - s, *p)).collect();
    let x = secular(&shifted);
    observed
        .iter()
        .map(|(a, p)| (*a, p / (1.0 + x * (a - s))))
        .collect()
}

/// The maximum-likelihood distribution on `observed`'s bins whose t-value
/// `(mean - reference) / σ` is `t` (fixed-point iteration as in fishtest).
fn mle_t_value(observed: &[(f64, f64)], reference: f64, t: f64) -> Pdf {
    let n = observed.len() as f64;
    let mut pdf: Pdf = observed.iter().map(|(a, _)| (*a, 1.0 / n)).collect();
    for _ in 0..100 {
        let (mean, var) = mean_var(&pdf);
        let sigma = var.sqrt();
        let shifted: Pdf = observed
            .iter()
            .map(|(a, p)| {
                let z = (mean - a) / sigma;
                (a - reference - t * sigma * (1.0 + z * z) / 2.0, *p)
            })
            .collect();
        let x = secular(&shifted);
        let next: Pdf = observed
            .iter()
            .zip(&shifted)
            .map(|((a, p), (b, _))| (*a, p / (1.0 + x * b)))
            .collect();
        let change = pdf
            .iter()
            .zip(&next)
            .map(|((_, p), (_, q))| (p - q).abs())
            .fold(0.0, f64::max);
        pdf = next;
        if change < 1e-12 {
            break;
        }
    }
    pdf
}

/// The GSPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for trinomial (3
/// bins: L, D, W) or pentanomial (5 bins) counts.
fn llr_of_counts(counts: &[f64], elo0: f64, elo1: f64, model: EloModel) -> f64 {
    let counts: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0.0 { 1e-3 } else { c })
        .collect();
    let total: f64 = counts.iter().sum();
    let last = (counts.len() - 1) as f64;
    let observed: Pdf = counts
        .iter()
        .enumerate()
        .map(|(i, c)| (i as f64 / last, c / total))
        .collect();
    let (pdf0, pdf1) = match model {
        EloModel::Logistic => (
            mle_expected(&observed, score_of_elo(elo0)),
            mle_expected(&observed, score_of_elo(elo1)),
        ),
        EloModel::Normalized => {
            // A pair's σ is the per-game σ over √2 (the pair score is the mean of two
            // games), so the per-pair t-value is √2 times the per-game one.
            let scale = if counts.len() == 5 {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            (
                mle_t_value(&observed, 0.5, scale * elo0 / NELO_PER_T),
                mle_t_value(&observed, 0.5, scale * elo1 / NELO_PER_T),
            )
        }
    };
    let per_item: f64 = observed
        .iter()
        .zip(pdf0.iter().zip(&pdf1))
        .map(|((_, p), ((_, p0), (_, p1)))| p * (p1.ln() - p0.ln()))
        .sum();
    total * per_item
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: EloModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    /// fastchess's `Stats(LL, LD, WL, DD, WD, WW)` pair counts in our five bins.
    fn penta(ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32) -> Pentanomial {
        Pentanomial([ll, ld, wl + dd, wd, ww])
    }

    fn assert_close(got: f64, want: f64) {
        // fastchess checks these to 1% relative.
        assert!(
            (got - want).abs() <= 0.01 * want.abs().max(0.5),
            "LLR {got:.4}, expected {want}"
        );
    }

    // Known values: the reference results of fastchess's SPRT tests (which follow
    // fishtest's LLRcalc), pentanomial and trinomial, both Elo models.
    #[test]
    fn normalized_pentanomial_matches_fastchess() {
        let s = sprt(0.0, 2.0, EloModel::Normalized);
        assert_close(s.llr(&penta(365, 16618, 36029, 200, 16974, 390)), 2.25);
        let s = sprt(-1.75, 0.25, EloModel::Normalized);
        assert_close(s.llr(&penta(127, 4883, 10311, 401, 5150, 104)), 3.01);
        let s = sprt(0.0, 5.0, EloModel::Normalized);
        assert_close(s.llr(&penta(0, 0, 0, 0, 0, 5550)), 111.82);
    }

    #[test]
    fn logistic_pentanomial_matches_fastchess() {
        let s = sprt(0.5, 2.5, EloModel::Logistic);
        assert_close(s.llr(&penta(223, 9863, 20279, 1000, 10037, 246)), -3.07);
        let s = sprt(0.0, 2.0, EloModel::Logistic);
        assert_close(s.llr(&penta(871, 26175, 55003, 980, 26678, 821)), -4.98);
    }

    #[test]
    fn trinomial_matches_fastchess() {
        // Stats(wins, losses, draws) there; our bins are L, D, W.
        let tri = |w: f64, l: f64, d: f64, e0, e1, m| llr_of_counts(&[l, d, w], e0, e1, m);
        assert_close(
            tri(36433.0, 36027.0, 68692.0, 0.0, 2.0, EloModel::Normalized),
            0.92,
        );
        assert_close(
            tri(10871.0, 10650.0, 20431.0, -1.75, 0.25, EloModel::Normalized),
            2.30,
        );
        assert_close(
            tri(4250.0, 0.0, 0.0, 0.0, 10.0, EloModel::Normalized),
            120.56,
        );
        assert_close(
            tri(21404.0, 21184.0, 40708.0, 0.5, 2.5, EloModel::Logistic),
            -1.57,
        );
        assert_close(
            tri(57433.0, 57030.0, 106593.0, 0.0, 2.0, EloModel::Logistic),
            -2.59,
        );
    }

    #[test]
    fn bounds_and_decisions() {
        let s = sprt(0.0, 5.0, EloModel::Logistic);
        assert!((s.lower_bound() + 2.944_438_979).abs() < 1e-6);
        assert!((s.upper_bound() - 2.944_438_979).abs() < 1e-6);
        assert_eq!(s.decide(3.0), Some(SprtDecision::H1));
        assert_eq!(s.decide(-3.0), Some(SprtDecision::H0));
        assert_eq!(s.decide(0.0), None);
        assert_eq!(s.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn llr_is_antisymmetric_under_swapping_players_and_hypotheses() {
        let s = sprt(0.0, 5.0, EloModel::Logistic);
        let mirrored = sprt(-5.0, 0.0, EloModel::Logistic);
        let p = Pentanomial([10, 40, 100, 45, 12]);
        let q = Pentanomial([12, 45, 100, 40, 10]);
        assert!((s.llr(&p) + mirrored.llr(&q)).abs() < 1e-9);
    }

    #[test]
    fn mle_keeps_the_constraint() {
        let observed: Pdf = [5.0, 20.0, 50.0, 22.0, 3.0]
            .iter()
            .enumerate()
            .map(|(i, c)| (i as f64 / 4.0, c / 100.0))
            .collect();
        let pdf = mle_expected(&observed, 0.55);
        let (mean, _) = mean_var(&pdf);
        assert!((mean - 0.55).abs() < 1e-9, "{mean}");
        assert!((pdf.iter().map(|(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-9);
        let pdf = mle_t_value(&observed, 0.5, 0.1);
        let (mean, var) = mean_var(&pdf);
        assert!(((mean - 0.5) / var.sqrt() - 0.1).abs() < 1e-6);
    }

    #[test]
    fn parses_and_rejects() {
        let s: Sprt = "elo0=0,elo1=5,alpha=0.05,beta=0.1".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.1));
        assert_eq!(s.model, EloModel::Logistic);
        let s: Sprt = "elo0=-1.75,elo1=0.25,model=normalized".parse().unwrap();
        assert_eq!(s.model, EloModel::Normalized);
        for (bad, why) in [
            ("elo0=5,elo1=0", "must be below"),
            ("elo1=5", "elo0 is missing"),
            ("elo0=0,elo1=5,alpha=0", "alpha=0 is out of range"),
            ("elo0=0,elo1=x", "elo1=x is not a number"),
            ("elo0=0,elo1=5,gamma=1", "unknown key 'gamma'"),
            ("elo0=0,elo1=5,model=bayes", "model=bayes"),
            ("elo0", "not key=value"),
        ] {
            let e = bad.parse::<Sprt>().unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
