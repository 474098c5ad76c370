//! Interval estimates for match results.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval (95%) of a proportion of `successes` in `trials`;
/// `(0, 1)` without trials.
pub fn wilson_95(successes: u32, trials: u32) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference that an expected score `s` corresponds to: infinite at a score of
/// 1 (or 0) and beyond, where no finite rating difference predicts it.
pub fn elo_of_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Elo difference of A over B with a 95% interval, from A's wins, draws and losses
/// (normal approximation of the mean score per game).
///
/// A score of 100% (or 0%) has no finite Elo: the estimate is `+inf` (`-inf`) and only
/// one bound is finite, the Elo of the Wilson interval's bound on the score (10 wins in 10
/// games: at least +166); the normal approximation would give a zero-width interval.
/// An interval bound past a score of 0 or 1 is infinite too. No games: 0 in (-inf, +inf).
pub fn elo_95(wins: u32, draws: u32, losses: u32) -> (f64, f64, f64) {
    let games = wins + draws + losses;
    let n = games as f64;
    if games == 0 {
        return (0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    if wins == games {
        return (
            f64::INFINITY,
            elo_of_score(wilson_95(wins, games).0),
            f64::INFINITY,
        );
    }
    if losses == games {
        return (
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
            elo_of_score(wilson_95(wins, games).1),
        );
    }
    let score = (wins as f64 + 0.5 * draws as f64) / n;
    let var = (wins as f64 * (1.0 - score).powi(2)
        + draws as f64 * (0.5 - score).powi(2)
        + losses as f64 * score.powi(2))
        / n;
    let half = Z95 * (var / n).sqrt();
    (
        elo_of_score(score),
        elo_of_score(score - half),
        elo_of_score(score + half),
    )
}

/// The median of `values` (the mean of the two middle values for an even count; 0 for
/// none). The one definition every report uses.
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// An Elo figure with its sign, rounded to whole points; never `-0` or `+-0`; `+inf` /
/// `-inf` for an unbounded one.
pub fn signed_elo(elo: f64) -> String {
    if elo.is_infinite() {
        return if elo > 0.0 { "+inf" } else { "-inf" }.to_string();
    }
    let rounded = elo.round();
    if rounded == 0.0 {
        "0".to_string()
    } else {
        format!("{rounded:+.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_even_and_no_values() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn elo_signs() {
        assert_eq!(signed_elo(-0.4), "0");
        assert_eq!(signed_elo(0.3), "0");
        assert_eq!(signed_elo(-12.6), "-13");
        assert_eq!(signed_elo(7.0), "+7");
    }

    #[test]
    fn wilson_matches_known_values() {
        // 60 of 100: the textbook interval is [0.502, 0.691].
        let (lo, hi) = wilson_95(60, 100);
        assert!(
            (lo - 0.5020).abs() < 1e-3 && (hi - 0.6906).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_95(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
        assert_eq!(wilson_95(0, 0), (0.0, 1.0));
    }

    #[test]
    fn elo_matches_known_values() {
        assert!(elo_of_score(0.5).abs() < 1e-9);
        // A 75% score is about +190.8 Elo.
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.1);
        let (elo, lo, hi) = elo_95(60, 20, 20);
        assert!((elo - elo_of_score(0.7)).abs() < 1e-9);
        assert!(lo < elo && elo < hi);
    }

    #[test]
    fn a_perfect_score_has_an_unbounded_elo_and_a_finite_lower_bound() {
        let (elo, lo, hi) = elo_95(10, 0, 0);
        assert_eq!(elo, f64::INFINITY);
        assert_eq!(hi, f64::INFINITY);
        // 10 of 10: the Wilson lower bound on the score is 10 / (10 + z²) = 0.722.
        let expected = elo_of_score(10.0 / (10.0 + Z95 * Z95));
        assert!((lo - expected).abs() < 1e-6, "{lo} {expected}");
        assert!(lo > 150.0 && lo < 200.0, "{lo}");
        // More games, a higher bound.
        assert!(elo_95(100, 0, 0).1 > lo);
        let (elo, lo, hi) = elo_95(0, 0, 10);
        assert_eq!((elo, lo), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        assert!((hi + expected).abs() < 1e-6, "{hi}");
        assert_eq!(signed_elo(f64::INFINITY), "+inf");
        assert_eq!(signed_elo(f64::NEG_INFINITY), "-inf");
        // A near-perfect score keeps a finite estimate; its upper bound may be unbounded.
        let (elo, lo, _) = elo_95(9, 1, 0);
        assert!(elo.is_finite() && lo.is_finite() && lo < elo);
    }
}
