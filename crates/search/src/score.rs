//! [`Score`]: a static value, or a forced win or loss at a known distance.

use std::{fmt, ops::Neg};

/// A search score from the point of view of the side to move at the position searched.
///
/// Three kinds share one `i32` scale, ordered as you would expect:
/// `loss 1 < loss 2 < … < cp -X < … < cp 0 < … < cp X < … < win 2 < win 1`.
/// - `cp X`: a heuristic value, `|X| <= Score::MAX_EVAL`; draws are `cp 0`.
/// - `win N` / `loss N`: a forced win (loss) that ends the game `N` turns (plies) from the
///   searched position, so the search prefers the fastest win and the slowest loss. One
///   turn is one move in the game's notation, whoever makes it: when a player moves twice
///   in a row, both turns count.
///
/// `Display` prints the engine protocol's form: `cp 35`, `win 7`, `loss 4`.
///
/// ```
/// use boardlab_search::{Score, ScoreKind};
/// assert_eq!(Score::cp(35).to_string(), "cp 35");
/// assert_eq!(Score::win_in(7).to_string(), "win 7");
/// assert_eq!((-Score::win_in(4)).to_string(), "loss 4");
/// assert!(Score::win_in(3) > Score::win_in(5));
/// assert!(Score::loss_in(5) > Score::loss_in(3));
/// assert!(Score::cp(Score::MAX_EVAL) < Score::win_in(Score::MAX_DISTANCE));
/// assert_eq!(Score::loss_in(2).kind(), ScoreKind::Loss(2));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

/// What a [`Score`] says, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreKind {
    /// A heuristic value (`cp`), `0` for a draw.
    Value(i32),
    /// The side to move wins in this many turns.
    Win(u32),
    /// The side to move loses in this many turns.
    Loss(u32),
}

/// The raw value of a win on the spot (distance 0); wins at distance `n` are `MATE - n`.
pub(crate) const MATE: i32 = 1_000_000;
/// Beyond every score: the initial alpha-beta window is `(-INFINITY, INFINITY)`.
pub(crate) const INFINITY: i32 = MATE + 1;
/// Raw values at or above this are wins.
pub(crate) const WIN_BOUND: i32 = MATE - Score::MAX_DISTANCE as i32;
const _: () = assert!(
    Score::MAX_EVAL < WIN_BOUND,
    "heuristic values must stay below wins"
);

impl Score {
    /// The largest magnitude of a heuristic value. [`crate::Evaluator::evaluate`] results
    /// are clamped into `-MAX_EVAL..=MAX_EVAL`, which keeps them apart from every win/loss.
    pub const MAX_EVAL: i32 = 900_000;
    /// The longest win/loss distance a score can express (in turns). Longer forced results
    /// (possible only through [`crate::Evaluator::forced_win`]) are reported at this
    /// distance.
    pub const MAX_DISTANCE: u32 = 4_096;
    /// A draw (and a balanced position): `cp 0`.
    pub const DRAW: Score = Score(0);

    /// A heuristic value, clamped into `-MAX_EVAL..=MAX_EVAL`.
    #[inline]
    pub const fn cp(value: i32) -> Score {
        Score(clamp_eval(value))
    }

    /// A win for the side to move `turns` turns from now (clamped to
    /// [`MAX_DISTANCE`](Score::MAX_DISTANCE)).
    #[inline]
    pub const fn win_in(turns: u32) -> Score {
        let d = if turns > Score::MAX_DISTANCE {
            Score::MAX_DISTANCE
        } else {
            turns
        };
        Score(MATE - d as i32)
    }

    /// A loss for the side to move `turns` turns from now.
    #[inline]
    pub const fn loss_in(turns: u32) -> Score {
        Score(-Score::win_in(turns).0)
    }

    /// The score as one ordered integer (wins near `1_000_000`, losses near `-1_000_000`).
    #[inline]
    pub const fn raw(self) -> i32 {
        self.0
    }

    /// Unpacks the score.
    #[inline]
    pub const fn kind(self) -> ScoreKind {
        if self.0 >= WIN_BOUND {
            ScoreKind::Win((MATE - self.0) as u32)
        } else if self.0 <= -WIN_BOUND {
            ScoreKind::Loss((MATE + self.0) as u32)
        } else {
            ScoreKind::Value(self.0)
        }
    }

    /// A forced win or loss (not a heuristic value).
    #[inline]
    pub const fn is_decisive(self) -> bool {
        self.0 >= WIN_BOUND || self.0 <= -WIN_BOUND
    }

    /// Builds a score from a raw search value, clamping garbage into range.
    #[inline]
    pub(crate) const fn from_raw(raw: i32) -> Score {
        if raw > MATE {
            Score(MATE)
        } else if raw < -MATE {
            Score(-MATE)
        } else {
            Score(raw)
        }
    }
}

/// Clamps an evaluator's value into the heuristic range.
#[inline]
pub(crate) const fn clamp_eval(value: i32) -> i32 {
    if value > Score::MAX_EVAL {
        Score::MAX_EVAL
    } else if value < -Score::MAX_EVAL {
        -Score::MAX_EVAL
    } else {
        value
    }
}

/// The raw score of a win `ply` turns from the root.
#[inline]
pub(crate) const fn win_at(ply: u32) -> i32 {
    Score::win_in(ply).0
}

/// A score found `ply` turns below the root, re-expressed relative to that node (for the
/// transposition table, which must not depend on where a position was reached).
#[inline]
pub(crate) const fn to_node(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_node`]: a node-relative score as seen from the root, `ply` turns up.
#[inline]
pub(crate) const fn from_node(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        let s = score - ply as i32;
        if s < WIN_BOUND { WIN_BOUND } else { s }
    } else if score <= -WIN_BOUND {
        let s = score + ply as i32;
        if s > -WIN_BOUND { -WIN_BOUND } else { s }
    } else {
        score
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            ScoreKind::Value(v) => write!(f, "cp {v}"),
            ScoreKind::Win(n) => write!(f, "win {n}"),
            ScoreKind::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip() {
        for n in [0, 1, 2, 17, Score::MAX_DISTANCE] {
            assert_eq!(Score::win_in(n).kind(), ScoreKind::Win(n));
            assert_eq!(Score::loss_in(n).kind(), ScoreKind::Loss(n));
            assert_eq!(-Score::win_in(n), Score::loss_in(n));
        }
        assert_eq!(Score::win_in(u32::MAX), Score::win_in(Score::MAX_DISTANCE));
        for v in [-Score::MAX_EVAL, -1, 0, 5, Score::MAX_EVAL] {
            assert_eq!(Score::cp(v).kind(), ScoreKind::Value(v));
        }
        assert_eq!(Score::cp(i32::MAX), Score::cp(Score::MAX_EVAL));
        assert_eq!(Score::cp(i32::MIN), Score::cp(-Score::MAX_EVAL));
        assert_eq!(Score::from_raw(i32::MIN).kind(), ScoreKind::Loss(0));
    }

    #[test]
    fn order_prefers_fast_wins_and_slow_losses() {
        let mut all = vec![
            Score::win_in(1),
            Score::win_in(9),
            Score::cp(Score::MAX_EVAL),
            Score::DRAW,
            Score::cp(-Score::MAX_EVAL),
            Score::loss_in(9),
            Score::loss_in(1),
        ];
        let sorted = all.clone();
        all.reverse();
        all.sort();
        assert_eq!(all, sorted.into_iter().rev().collect::<Vec<_>>());
    }

    #[test]
    fn node_relative_scores_round_trip() {
        for ply in [0u32, 1, 5, 200] {
            for s in [win_at(ply + 3), -win_at(ply + 1), 123, -77, 0] {
                assert_eq!(from_node(to_node(s, ply), ply), s);
            }
        }
        // A win 3 turns below a node 5 turns below the root is a win in 8 from the root.
        assert_eq!(from_node(to_node(win_at(3), 0), 5), win_at(8));
    }

    #[test]
    fn display_matches_protocol() {
        assert_eq!(Score::cp(-12).to_string(), "cp -12");
        assert_eq!(Score::DRAW.to_string(), "cp 0");
        assert_eq!(Score::win_in(1).to_string(), "win 1");
        assert_eq!(Score::loss_in(4).to_string(), "loss 4");
    }
}
