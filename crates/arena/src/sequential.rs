//! Sequential search for the fairest variant of a game's rules: successive elimination on
//! the first player's score.
//!
//! Every variant plays rounds of colour-swapped pairs. The unit of the statistics is the
//! **pair**, not the game: both games of a pair start from the same opening, so they are
//! not independent (between two copies of the same engine they are often the same game).
//! A variant's first-player score is the mean over its pairs of the pair's first-player
//! points (each game: 1 for a first-player win, ½ for a draw, 0 for a loss; the pair: the
//! mean of its two games).
//!
//! The interval of that mean is Wilson's score interval applied to the pair scores: a
//! score in `[0, 1]` with mean `μ` has a variance of at most `μ(1 − μ)`, the variance of a
//! win/loss outcome, so the interval that inverts `|mean − μ| ≤ z √(μ(1 − μ)/n)` covers
//! `μ` at least as often as Wilson's interval for a proportion; draws only make it
//! conservative. Unlike the normal interval it never has zero width (a row of draws).
//!
//! After each round, a variant is dropped when it is **surely less fair than another**:
//! its unfairness `|score − ½|` is at least `lower` (the distance from ½ to its interval)
//! and another variant's unfairness is at most `upper` (the farther end of its interval
//! from ½); a variant whose `lower` exceeds some survivor's `upper` is dropped. This is
//! successive elimination (Even-Dar, Mannor and Mansour, 2006) on the distance from ½.
//! With every interval of every round at confidence `1 − α/(variants × rounds)`
//! (Bonferroni), all of them hold at once with probability at least `1 − α`, and then the
//! fairest variant is never dropped, however many rounds are looked at.

use board_core::{Outcome, Player};

use crate::selfplay::GameResult;

/// The quantile of the standard normal distribution at `p` (0 < p < 1), by Acklam's
/// rational approximations (off by under 2e-5 from the tables in the tests, far below what
/// an interval's width can notice); ±infinity at 0 and 1, NaN outside.
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_671_010_149_264,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const P_LOW: f64 = 0.024_25;
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < P_LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - P_LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// The `z` of intervals that hold all at once with probability at least `confidence`
/// when `intervals` of them are looked at (Bonferroni: each two-sided at
/// `1 − (1 − confidence)/intervals`). `None` unless `0 < confidence < 1` and
/// `intervals >= 1`.
pub fn simultaneous_z(confidence: f64, intervals: usize) -> Option<f64> {
    if !(confidence > 0.0 && confidence < 1.0) || intervals == 0 {
        return None;
    }
    let each = (1.0 - confidence) / intervals as f64;
    Some(normal_quantile(1.0 - each / 2.0))
}

/// The first player's points in a game: 1 for a win, ½ for a draw, 0 for a loss.
pub fn first_player_points(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Win(Player::First) => 1.0,
        Outcome::Draw => 0.5,
        Outcome::Win(Player::Second) => 0.0,
    }
}

/// The first player's score of each complete colour-swapped pair of `results` (games
/// `2k`, `2k + 1`; in any order): the mean of its two games' first-player points. A game
/// whose partner is missing is not counted.
pub fn pair_scores(results: &[GameResult]) -> Vec<f64> {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|r| r.index);
    sorted
        .windows(2)
        .filter(|w| w[0].index.is_multiple_of(2) && w[1].index == w[0].index + 1)
        .map(|w| (first_player_points(w[0].outcome) + first_player_points(w[1].outcome)) / 2.0)
        .collect()
}

/// A variant's first-player score over its pairs, with an interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreInterval {
    /// Pairs counted.
    pub pairs: usize,
    /// The mean first-player score per pair (½ without pairs).
    pub score: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl ScoreInterval {
    /// The Wilson-type interval (see the module's docs) of the mean of `pair_scores`
    /// (each in `[0, 1]`) at `z`; `[0, 1]` around ½ without pairs.
    pub fn of_pairs(pair_scores: &[f64], z: f64) -> ScoreInterval {
        if pair_scores.is_empty() {
            return ScoreInterval {
                pairs: 0,
                score: 0.5,
                low: 0.0,
                high: 1.0,
            };
        }
        let n = pair_scores.len() as f64;
        let p = pair_scores.iter().sum::<f64>() / n;
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        ScoreInterval {
            pairs: pair_scores.len(),
            score: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    /// The least and the most `|score − ½|` the interval allows: 0 when it contains ½.
    pub fn unfairness(&self) -> (f64, f64) {
        let least = (self.low - 0.5).max(0.5 - self.high).max(0.0);
        let most = (self.high - 0.5).max(0.5 - self.low);
        (least, most)
    }

    /// Whether the interval contains ½.
    pub fn contains_even(&self) -> bool {
        self.low <= 0.5 && 0.5 <= self.high
    }
}

/// Which of the surviving variants' intervals are surely less fair than another's: `true`
/// for a variant whose least unfairness exceeds the most unfairness of some variant of
/// `intervals` (successive elimination, see the module's docs). The fairest variant in
/// truth is never marked while every interval covers its variant's score.
pub fn dominated(intervals: &[ScoreInterval]) -> Vec<bool> {
    let best_most = intervals
        .iter()
        .map(|i| i.unfairness().1)
        .fold(f64::INFINITY, f64::min);
    intervals
        .iter()
        .map(|i| i.unfairness().0 > best_most)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MoveTiming;

    fn interval(low: f64, high: f64) -> ScoreInterval {
        ScoreInterval {
            pairs: 10,
            score: (low + high) / 2.0,
            low,
            high,
        }
    }

    #[test]
    fn normal_quantiles_match_the_tables() {
        for (p, z) in [
            (0.975, 1.959_963_985),
            (0.995, 2.575_829_304),
            (0.5, 0.0),
            (0.999_375, 3.227_218_426),
            (0.01, -2.326_347_874),
        ] {
            assert!(
                (normal_quantile(p) - z).abs() < 2e-5,
                "{p}: {}",
                normal_quantile(p)
            );
        }
        assert!(normal_quantile(1.5).is_nan());
        // 95% over 40 intervals: each at 99.875%, z = 3.2272.
        let z = simultaneous_z(0.95, 40).expect("valid");
        assert!((z - 3.227_218_426).abs() < 2e-5, "{z}");
        assert!(simultaneous_z(1.0, 4).is_none());
        assert!(simultaneous_z(0.95, 0).is_none());
    }

    #[test]
    fn a_variant_surely_farther_from_even_than_another_is_dropped() {
        // A: 45%-56% contains even (at most 6 points off); B: 60%-70% is at least 10
        // points off: B is surely less fair than A.
        // C: 51%-58%, at least 1 point off, could still be fairer than A (at most 8 off
        // against A's 6 is no proof): kept, though its interval excludes even.
        // D: 20%-30% (second player favoured, 20 to 30 points off): dropped.
        let marks = dominated(&[
            interval(0.45, 0.56),
            interval(0.60, 0.70),
            interval(0.51, 0.58),
            interval(0.20, 0.30),
        ]);
        assert_eq!(marks, [false, true, false, true]);
        // No interval contains even: the one nearest still sets the bar, and a variant
        // overlapping it in unfairness survives.
        let marks = dominated(&[
            interval(0.62, 0.70),
            interval(0.66, 0.74),
            interval(0.75, 0.80),
        ]);
        assert_eq!(marks, [false, false, true]);
        // Alone, a variant is never dropped.
        assert_eq!(dominated(&[interval(0.9, 1.0)]), [false]);
    }

    fn result(index: usize, outcome: Outcome) -> GameResult {
        GameResult {
            index,
            a_side: if index.is_multiple_of(2) {
                Player::First
            } else {
                Player::Second
            },
            outcome,
            plies: 10,
            reason: String::new(),
            balance: Vec::new(),
            move_times: [MoveTiming::default(); 2],
        }
    }

    #[test]
    fn pairs_are_the_unit_and_incomplete_pairs_do_not_count() {
        let first = Outcome::Win(Player::First);
        let second = Outcome::Win(Player::Second);
        let results = [
            result(3, Outcome::Draw),
            result(0, first),
            result(1, first),
            result(2, second),
            result(4, first),
        ];
        assert_eq!(pair_scores(&results), [1.0, 0.25]);
        let i = ScoreInterval::of_pairs(&pair_scores(&results), 1.96);
        assert_eq!((i.pairs, i.score), (2, 0.625));
        assert!(i.low < 0.625 && 0.625 < i.high);
    }

    #[test]
    fn the_interval_narrows_with_pairs_and_never_collapses() {
        let draws = vec![0.5; 100];
        let i = ScoreInterval::of_pairs(&draws, 1.96);
        assert!(i.low < 0.5 && i.high > 0.5 && i.contains_even());
        assert_eq!(i.unfairness().0, 0.0);
        // With 0/1 pair scores it is exactly Wilson's interval: 60 of 100.
        let mut wins = vec![1.0; 60];
        wins.extend([0.0; 40]);
        let i = ScoreInterval::of_pairs(&wins, 1.959_963_985);
        let (lo, hi) = crate::stats::wilson_95(60, 100);
        assert!((i.low - lo).abs() < 1e-9 && (i.high - hi).abs() < 1e-9);
        let mut fewer = vec![1.0; 30];
        fewer.extend([0.0; 20]);
        let wider = ScoreInterval::of_pairs(&fewer, 1.959_963_985);
        assert!(wider.high - wider.low > i.high - i.low);
        assert_eq!(ScoreInterval::of_pairs(&[], 2.0).pairs, 0);
    }
}
