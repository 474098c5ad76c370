//! Time management, shared by every engine and protocol.
//!
//! Two halves:
//! - [`TimeControl`] → [`TimeBudget`]: a protocol's limits (a per-move limit, a game clock,
//!   or both) become a **target** (what a normal move takes) and a **hard stop** (the search
//!   ends there, mid-iteration if need be), with a reserve kept for the protocol's own
//!   overhead (reading the command, unwinding, writing and flushing the reply, a loaded
//!   machine's scheduling). Pure functions of their inputs.
//! - [`IterationClock`]: after each completed iteration, whether to start the next one. It
//!   predicts the next iteration's time from the growth of the previous ones, stretches the
//!   target when the best move changes or the score drops, and stops early on a forced
//!   reply or a proven result. Under a clock (time left unused is saved for later moves) no
//!   iteration starts that is predicted not to finish; under a per-move limit (unused time
//!   is lost) the last iteration runs until the hard stop, because its partial result is
//!   still worth having: the previous best move is searched first, and a root move proven
//!   better replaces it.
//!
//! ```
//! use std::time::Duration;
//! use boardlab_search::{Clock, TimeControl};
//! let ms = Duration::from_millis;
//! // Gomocup: 500 ms a turn, no match clock.
//! let b = TimeControl::per_move(ms(500)).budget().unwrap();
//! assert_eq!(b.hard, ms(500) - ms(50) - ms(500) / 32);
//! assert_eq!((b.target, b.saves_time), (b.hard, false));
//! // A clock of 60 s with 1 s increment: a share of it, saved when not spent.
//! let b = TimeControl::clock(Clock::new(ms(60_000), ms(1_000), None)).budget().unwrap();
//! assert!(b.saves_time && b.target < b.hard && b.hard < ms(60_000));
//! ```

use std::time::Duration;

/// The fixed part of the time kept back from a limit for the protocol's overhead: mostly
/// scheduling latency on a loaded machine, which does not grow with the limit. 50 ms since
/// session 12: with 30 ms, 500 ms Gomocup moves answered in up to 509-551 ms while the
/// machine ran twice as many busy processes as cores (`docs/strength.md`, "Time control"),
/// and a referee with no tolerance forfeits such a move.
pub const MIN_RESERVE: Duration = Duration::from_millis(50);
/// Under a per-move limit below 8 × [`MIN_RESERVE`] (400 ms) the fixed part of the reserve
/// is 1/8 of the limit instead ([`per_move_reserve`]): a referee that gives 100 ms a move
/// runs the engine on a quiet core, where answering takes a few milliseconds, so the search
/// gets 84% of the limit and not 47%. A clock keeps the whole fixed part however little is
/// left ([`reserve`]): there the reserve is what stands between the engine and its flag.
pub const SHORT_LIMIT_DIVISOR: u32 = 8;
/// The proportional part: 1/32 of the limit.
pub const RESERVE_DIVISOR: u32 = 32;
/// Moves a clock is shared over when the protocol does not say (sudden death).
pub const DEFAULT_MOVES_TO_GO: u32 = 25;
/// The hard stop under a clock: at most this many targets…
pub const MAX_TARGETS_PER_MOVE: u32 = 4;
/// …and never more than this share of what is left on the clock (1/3).
pub const MAX_CLOCK_SHARE_DIVISOR: u32 = 3;

/// A player's game clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control (`None`: sudden death, [`DEFAULT_MOVES_TO_GO`]
    /// assumed; the share is recomputed every move, so the clock never runs out).
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// A clock with `remaining` left, `increment` added per move and `moves_to_go` until
    /// the next time control (`None`: sudden death).
    pub fn new(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Clock {
        Clock {
            remaining,
            increment,
            moves_to_go,
        }
    }
}

/// What a protocol says about the time of one move, measured from the moment its command
/// was read:
/// - Gomocup: `timeout_turn` is a per-move limit, `time_left` (when `timeout_match` is
///   set) a clock without increment;
/// - Botzone: a per-move limit (1 s, 2 s on the bot's first turn);
/// - UGI: `movetime` is a per-move limit, `wtime`/`winc` (`btime`/`binc`) and `movestogo`
///   a clock.
///
/// With both, the tighter wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// The longest one move may take.
    pub move_limit: Option<Duration>,
    /// The player's clock.
    pub clock: Option<Clock>,
}

/// The time a move gets: see the [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// What a normal move takes: no iteration starts that is predicted to end well past it
    /// (it stretches when the best move changes or the score drops).
    pub target: Duration,
    /// The search stops here whatever it is doing; the protocol's reserve is already
    /// taken off.
    pub hard: Duration,
    /// Whether time left unused is saved for later moves (a clock binds) rather than lost
    /// (a per-move limit binds).
    pub saves_time: bool,
}

/// The time kept back from a clock's `limit` for the protocol's overhead (reading the
/// command, unwinding the search, writing and flushing the reply, a loaded machine's
/// scheduling): [`MIN_RESERVE`] plus 1/[`RESERVE_DIVISOR`] of it, never more than the
/// limit itself.
pub fn reserve(limit: Duration) -> Duration {
    MIN_RESERVE
        .saturating_add(limit / RESERVE_DIVISOR)
        .min(limit)
}

/// The time kept back from a per-move `limit`: as [`reserve`], except that the fixed part
/// is at most 1/[`SHORT_LIMIT_DIVISOR`] of the limit.
pub fn per_move_reserve(limit: Duration) -> Duration {
    MIN_RESERVE
        .min(limit / SHORT_LIMIT_DIVISOR)
        .saturating_add(limit / RESERVE_DIVISOR)
        .min(limit)
}

impl TimeControl {
    /// Only a per-move limit.
    pub fn per_move(limit: Duration) -> TimeControl {
        TimeControl {
            move_limit: Some(limit),
            clock: None,
        }
    }

    /// Only a clock.
    pub fn clock(clock: Clock) -> TimeControl {
        TimeControl {
            move_limit: None,
            clock: Some(clock),
        }
    }

    /// The same with a per-move limit too.
    pub fn with_move_limit(mut self, limit: Duration) -> TimeControl {
        self.move_limit = Some(limit);
        self
    }

    /// The budget of the move, or `None` when nothing limits time.
    ///
    /// - Per-move limit `L`: target = hard = `L − per_move_reserve(L)`; nothing is saved.
    /// - Clock: target = `(remaining − reserve) / moves_to_go + ¾·increment` (all of the
    ///   usable time when one move is left); hard = at most [`MAX_TARGETS_PER_MOVE`]
    ///   targets and a [`MAX_CLOCK_SHARE_DIVISOR`]-th of the usable time, never below the
    ///   target; time is saved.
    /// - Both: the tighter hard stop; the clock's target if it is below it (time saved),
    ///   else the per-move one (time lost).
    pub fn budget(&self) -> Option<TimeBudget> {
        match (self.move_limit, self.clock) {
            (None, None) => None,
            (Some(limit), clock) => Some(TimeBudget::per_move(limit, clock)),
            (None, Some(clock)) => Some(TimeBudget::clock(clock)),
        }
    }
}

impl TimeBudget {
    /// The budget of a per-move limit `limit` for a player that answers in-process (the
    /// game server's and the web board's engine seats, terminal play, the arena's own
    /// players): no pipe or referee stands between it and the clock, so nothing is kept
    /// back and the whole limit is both target and hard stop.
    pub fn in_process(limit: Duration) -> TimeBudget {
        TimeBudget {
            target: limit,
            hard: limit,
            saves_time: false,
        }
    }

    /// The budget of a per-move limit, and of a clock as well if there is one (see
    /// [`TimeControl::budget`]).
    pub fn per_move(limit: Duration, clock: Option<Clock>) -> TimeBudget {
        let h = limit.saturating_sub(per_move_reserve(limit));
        let Some(c) = clock.map(TimeBudget::clock) else {
            return TimeBudget {
                target: h,
                hard: h,
                saves_time: false,
            };
        };
        let hard = h.min(c.hard);
        if c.target < hard {
            TimeBudget {
                target: c.target,
                hard,
                saves_time: true,
            }
        } else {
            TimeBudget {
                target: hard,
                hard,
                saves_time: false,
            }
        }
    }

    /// The budget of a clock alone (see [`TimeControl::budget`]).
    pub fn clock(c: Clock) -> TimeBudget {
        let mtg = c.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 1000);
        let usable = c.remaining.saturating_sub(reserve(c.remaining));
        let target = if mtg == 1 {
            usable
        } else {
            (usable / mtg)
                .saturating_add(c.increment.saturating_mul(3) / 4)
                .min(usable)
        };
        let hard = target
            .saturating_mul(MAX_TARGETS_PER_MOVE)
            .min(usable / MAX_CLOCK_SHARE_DIVISOR)
            .max(target);
        TimeBudget {
            target,
            hard,
            saves_time: true,
        }
    }
}

/// Smallest and largest predicted ratio between the times of two successive iterations.
const MIN_GROWTH: f64 = 1.5;
const MAX_GROWTH: f64 = 8.0;
/// Assumed ratio while only one iteration has been timed.
const DEFAULT_GROWTH: f64 = 3.0;
/// Under a clock, an iteration may start if predicted to end within this share of the
/// (stretched) target…
const OVERRUN: f64 = 1.3;
/// …and always if less than this share of the target has passed (the prediction may be
/// too pessimistic on the first, tiny iterations).
const ALWAYS_BELOW: f64 = 0.25;
/// The largest stretch of the target.
const MAX_STRETCH: f64 = 2.5;
/// Score drops (in evaluation units, between two iterations) that stretch the target, and
/// by how much.
const SCORE_DROP_SMALL: i32 = 40;
const SCORE_DROP_LARGE: i32 = 120;

/// What happened in the iteration just completed, for [`IterationClock::next`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IterationEnd {
    /// Time since the move's clock started.
    pub elapsed: Duration,
    /// Whether the best move differs from the previous iteration's.
    pub best_changed: bool,
    /// The root score for the side to move, on [`Score::raw`](crate::Score::raw)'s scale
    /// (heuristic units unless `decisive`); a drop between iterations stretches the target.
    pub score: i32,
    /// Whether `score` is a forced win or loss
    /// ([`Score::is_decisive`](crate::Score::is_decisive)): two decisive iterations in a
    /// row with the same sign end the search ([`Decision::Proven`]), and score drops are
    /// not read into them.
    pub decisive: bool,
}

/// Whether to search another iteration, and why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Start the next iteration.
    Continue,
    /// Stop: the (stretched) target is spent, or the next iteration would end too late.
    Stop,
    /// Stop: a forced win or loss was found twice in a row; deeper search cannot change
    /// the move's result.
    Proven,
}

/// The iteration-by-iteration decision of one search under a [`TimeBudget`]: pure (time
/// comes in with each [`IterationEnd`]), so it is unit-tested without a clock.
#[derive(Clone, Debug)]
pub struct IterationClock {
    budget: TimeBudget,
    /// Elapsed time at the end of the last two iterations.
    ends: [Option<Duration>; 2],
    /// Durations of the last two iterations (most recent first).
    durations: [Option<Duration>; 2],
    /// Iterations since the best move last changed.
    stable: u32,
    /// Whether the best move changed one iteration before the last.
    changed_before: bool,
    previous_score: Option<(i32, bool)>,
}

impl IterationClock {
    /// The clock of a search under `budget`, before its first iteration.
    pub fn new(budget: TimeBudget) -> IterationClock {
        IterationClock {
            budget,
            ends: [None; 2],
            durations: [None; 2],
            stable: 0,
            changed_before: false,
            previous_score: None,
        }
    }

    /// The budget the clock decides against.
    pub fn budget(&self) -> TimeBudget {
        self.budget
    }

    /// The predicted time of the next iteration, from the last one and the growth
    /// between the last ones (`None` before any iteration).
    pub fn predicted_next(&self) -> Option<Duration> {
        let last = self.durations[0]?;
        let growth = match self.durations[1] {
            Some(prev) if prev > Duration::ZERO => {
                (last.as_secs_f64() / prev.as_secs_f64()).clamp(MIN_GROWTH, MAX_GROWTH)
            }
            _ => DEFAULT_GROWTH,
        };
        Some(last.mul_f64(growth))
    }

    /// The target after the stretches for instability: best move changed now (×1.5) or
    /// one iteration ago (×1.25), stable for four iterations (×0.85), score dropped by
    /// 40 (×1.25) or 120 (×1.6) evaluation units since the last iteration; at most ×2.5
    /// and never past the hard stop.
    pub fn stretched_target(&self, end: &IterationEnd) -> Duration {
        let mut f: f64 = 1.0;
        if end.best_changed {
            f *= 1.5;
        } else if self.changed_before {
            f *= 1.25;
        } else if self.stable >= 4 {
            f *= 0.85;
        }
        if let Some((prev, false)) = self.previous_score
            && !end.decisive
        {
            let drop = prev - end.score;
            if drop >= SCORE_DROP_LARGE {
                f *= 1.6;
            } else if drop >= SCORE_DROP_SMALL {
                f *= 1.25;
            }
        }
        self.budget
            .target
            .mul_f64(f.min(MAX_STRETCH))
            .min(self.budget.hard)
    }

    /// Records a completed iteration and decides whether to start the next one.
    pub fn next(&mut self, end: IterationEnd) -> Decision {
        let since = self.ends[0].unwrap_or(Duration::ZERO);
        self.durations = [Some(end.elapsed.saturating_sub(since)), self.durations[0]];
        self.ends = [Some(end.elapsed), self.ends[0]];
        let target = self.stretched_target(&end);
        let proven_twice = end.decisive
            && self
                .previous_score
                .is_some_and(|(s, d)| d && (s > 0) == (end.score > 0));
        self.changed_before = end.best_changed;
        self.stable = if end.best_changed { 0 } else { self.stable + 1 };
        self.previous_score = Some((end.score, end.decisive));
        if proven_twice {
            return Decision::Proven;
        }
        let hard = self.budget.hard;
        if end.elapsed >= hard {
            return Decision::Stop;
        }
        if !self.budget.saves_time {
            // Unused time is lost: search on until the hard stop.
            return Decision::Continue;
        }
        if end.elapsed >= target {
            return Decision::Stop;
        }
        if end.elapsed < target.mul_f64(ALWAYS_BELOW) {
            return Decision::Continue;
        }
        let Some(next) = self.predicted_next() else {
            return Decision::Continue;
        };
        let finish = end.elapsed.saturating_add(next);
        if finish <= hard && finish <= target.mul_f64(OVERRUN) {
            Decision::Continue
        } else {
            Decision::Stop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn end(elapsed: u64) -> IterationEnd {
        IterationEnd {
            elapsed: ms(elapsed),
            best_changed: false,
            score: 0,
            decisive: false,
        }
    }

    fn us(v: u64) -> Duration {
        Duration::from_micros(v)
    }

    #[test]
    fn reserve_is_50_ms_and_a_32nd() {
        assert_eq!(reserve(ms(500)), us(65_625));
        assert_eq!(reserve(ms(1000)), us(81_250));
        assert_eq!(reserve(ms(200)), us(56_250));
        assert_eq!(reserve(ms(10)), ms(10));
        assert_eq!(reserve(Duration::ZERO), Duration::ZERO);
        assert_eq!(reserve(Duration::MAX), MIN_RESERVE + Duration::MAX / 32);
    }

    #[test]
    fn a_short_move_limit_keeps_an_eighth_and_a_32nd() {
        assert_eq!(per_move_reserve(ms(500)), reserve(ms(500)));
        assert_eq!(per_move_reserve(ms(400)), reserve(ms(400)));
        assert_eq!(per_move_reserve(ms(200)), us(31_250));
        assert_eq!(per_move_reserve(ms(100)), us(15_625));
        assert_eq!(per_move_reserve(ms(10)), Duration::from_nanos(1_562_500));
        assert_eq!(per_move_reserve(Duration::ZERO), Duration::ZERO);
        assert_eq!(per_move_reserve(Duration::MAX), reserve(Duration::MAX));
    }

    #[test]
    fn per_move_limits_use_everything_but_the_reserve() {
        for (limit, hard) in [
            (500, 434_375),
            (1000, 918_750),
            (2000, 1_887_500),
            (100, 84_375),
            (20, 16_875),
        ] {
            let b = TimeControl::per_move(ms(limit)).budget().unwrap();
            assert_eq!(b.hard, us(hard), "{limit}");
            assert_eq!(b.target, b.hard);
            assert!(!b.saves_time);
        }
        // `timeout_turn 0` (play at once): no time at all.
        let b = TimeControl::per_move(Duration::ZERO).budget().unwrap();
        assert_eq!((b.target, b.hard), (Duration::ZERO, Duration::ZERO));
        assert_eq!(TimeControl::default().budget(), None);
    }

    #[test]
    fn clocks_share_the_time_and_save_it() {
        // 60 s sudden death with 1 s increment: (60 − 1.925) / 25 + 0.75 s, and at most
        // four of those.
        let b = TimeControl::clock(Clock::new(ms(60_000), ms(1_000), None))
            .budget()
            .unwrap();
        assert_eq!(b.target, us(2_323_000) + ms(750));
        assert_eq!(b.hard, us(4 * 3_073_000));
        assert!(b.saves_time);
        // One move to the time control: all the usable time.
        let b = TimeControl::clock(Clock::new(ms(10_000), ms(0), Some(1)))
            .budget()
            .unwrap();
        assert_eq!((b.target, b.hard), (us(9_637_500), us(9_637_500)));
        // Nearly flagged: never past the clock, and nothing when it is gone.
        let b = TimeControl::clock(Clock::new(ms(30), ms(0), None))
            .budget()
            .unwrap();
        assert_eq!(b.hard, Duration::ZERO);
        let b = TimeControl::clock(Clock::new(ms(0), ms(5_000), None))
            .budget()
            .unwrap();
        assert_eq!(b.hard, Duration::ZERO);
        // Absurd values do not overflow.
        let b = TimeControl::clock(Clock::new(Duration::MAX, Duration::MAX, Some(0)))
            .budget()
            .unwrap();
        assert!(b.target <= b.hard);
    }

    #[test]
    fn gomocup_turn_and_match_clock() {
        // Gomocup's freestyle league: timeout_turn 30 s, time_left 180 s (a match clock
        // without increment; the brain's estimate of 20 moves to go): the clock binds, and
        // time is saved.
        let tc = TimeControl::clock(Clock::new(ms(180_000), ms(0), Some(20)))
            .with_move_limit(ms(30_000));
        let b = tc.budget().unwrap();
        assert_eq!(b.hard, us(29_012_500));
        assert_eq!(b.target, us(8_716_250));
        assert!(b.saves_time);
        // Plenty of match time: the turn limit binds, nothing is saved.
        let tc =
            TimeControl::clock(Clock::new(ms(1_000_000), ms(0), Some(20))).with_move_limit(ms(500));
        let b = tc.budget().unwrap();
        assert_eq!(
            (b.target, b.hard, b.saves_time),
            (b.hard, us(434_375), false)
        );
        // Nearly out of match time: the clock caps the hard stop below the turn limit.
        let tc =
            TimeControl::clock(Clock::new(ms(600), ms(0), Some(20))).with_move_limit(ms(5_000));
        let b = tc.budget().unwrap();
        assert!(b.hard <= ms(200), "{:?}", b.hard);
    }

    #[test]
    fn botzone_and_ugi_inputs() {
        // Botzone: 1 s turns, 2 s on the first.
        let later = TimeControl::per_move(ms(1_000)).budget().unwrap();
        let first = TimeControl::per_move(ms(2_000)).budget().unwrap();
        assert_eq!(later.hard, us(918_750));
        assert_eq!(first.hard, us(1_887_500));
        // UGI movetime with a clock as well: the tighter.
        let tc = TimeControl::clock(Clock::new(ms(3_000), ms(0), None)).with_move_limit(ms(1_000));
        let b = tc.budget().unwrap();
        assert!(b.saves_time && b.hard < ms(1_000) && b.target < b.hard);
    }

    #[test]
    fn per_move_searches_to_the_hard_stop() {
        let mut c = IterationClock::new(TimeControl::per_move(ms(500)).budget().unwrap());
        for e in [1, 3, 10, 40, 150, 430] {
            assert_eq!(c.next(end(e)), Decision::Continue, "{e}");
        }
        assert_eq!(c.next(end(435)), Decision::Stop);
    }

    #[test]
    fn growth_predicts_the_next_iteration() {
        let mut c = IterationClock::new(TimeBudget {
            target: ms(1_000),
            hard: ms(4_000),
            saves_time: true,
        });
        assert_eq!(c.predicted_next(), None);
        c.next(end(10));
        assert_eq!(c.predicted_next(), Some(ms(30)));
        c.next(end(50)); // 10 then 40: ×4
        assert_eq!(c.predicted_next(), Some(ms(160)));
        c.next(end(51)); // 40 then 1: the growth is clamped at ×1.5
        assert_eq!(c.predicted_next(), Some(Duration::from_micros(1_500)));
        c.next(end(151)); // 1 then 100: clamped at ×8
        assert_eq!(c.predicted_next(), Some(ms(800)));
    }

    #[test]
    fn a_clock_never_starts_an_iteration_that_ends_too_late() {
        let budget = TimeBudget {
            target: ms(1_000),
            hard: ms(3_000),
            saves_time: true,
        };
        // 100, then 290 (×2.9): the next would end at 390 + 841 ≤ 1.3 × 1000.
        let mut c = IterationClock::new(budget);
        assert_eq!(c.next(end(100)), Decision::Continue);
        assert_eq!(c.next(end(390)), Decision::Continue);
        // 290 then 510 (×1.76): the next would end at 900 + 897, too late although the
        // target is not spent yet.
        assert_eq!(c.next(end(900)), Decision::Stop);
        // Early on, the prediction is not trusted: 10 then 190 predicts ×8 (ending at
        // 1720), but less than a quarter of the target has passed.
        let mut c = IterationClock::new(budget);
        assert_eq!(c.next(end(10)), Decision::Continue);
        assert_eq!(c.next(end(200)), Decision::Continue);
        // Past the target: stop whatever the prediction.
        assert_eq!(c.next(end(1_000)), Decision::Stop);
    }

    #[test]
    fn instability_stretches_the_target() {
        let budget = TimeBudget {
            target: ms(1_000),
            hard: ms(4_000),
            saves_time: true,
        };
        let changed = |e| IterationEnd {
            best_changed: true,
            ..end(e)
        };
        // Past the plain target, but the best move just changed: ×1.5.
        let mut c = IterationClock::new(budget);
        c.next(end(500));
        c.next(end(600));
        assert_eq!(c.stretched_target(&changed(1_100)), ms(1_500));
        // A stable best move shrinks it a little.
        let mut c = IterationClock::new(budget);
        for e in [1, 2, 3, 4, 5] {
            c.next(end(e));
        }
        assert_eq!(c.stretched_target(&end(6)), ms(850));
        // A score drop stretches it; both together are capped by the hard stop.
        let mut c = IterationClock::new(budget);
        c.next(IterationEnd {
            score: 200,
            ..end(100)
        });
        let dropped = IterationEnd {
            score: 40,
            best_changed: true,
            ..end(200)
        };
        assert_eq!(c.stretched_target(&dropped), ms(2_400));
        let tight = TimeBudget {
            hard: ms(1_200),
            ..budget
        };
        let c = IterationClock::new(tight);
        assert_eq!(c.stretched_target(&changed(10)), ms(1_200));
        // The stretch lets a search go on that would otherwise stop: after 100 and 200,
        // an iteration ending at 500 took 300 (×3): the next is predicted to end at 1400,
        // past 1.3 × 1000 but within 1.3 × 1500.
        for (last, decision) in [
            (end(500), Decision::Stop),
            (changed(500), Decision::Continue),
        ] {
            let mut c = IterationClock::new(budget);
            c.next(end(100));
            c.next(end(200));
            assert_eq!(c.next(last), decision);
        }
    }

    #[test]
    fn proven_results_stop_once_confirmed() {
        let budget = TimeControl::per_move(ms(1_000)).budget().unwrap();
        let win = |e| IterationEnd {
            score: 1_000_000,
            decisive: true,
            ..end(e)
        };
        let loss = |e| IterationEnd {
            score: -1_000_000,
            decisive: true,
            ..end(e)
        };
        let mut c = IterationClock::new(budget);
        assert_eq!(c.next(win(5)), Decision::Continue);
        assert_eq!(c.next(win(9)), Decision::Proven);
        let mut c = IterationClock::new(budget);
        assert_eq!(c.next(loss(5)), Decision::Continue);
        assert_eq!(c.next(loss(9)), Decision::Proven);
        // A win then a loss (or a heuristic score) is not a confirmation.
        let mut c = IterationClock::new(budget);
        c.next(win(5));
        assert_eq!(c.next(loss(9)), Decision::Continue);
        assert_eq!(c.next(end(12)), Decision::Continue);
    }
}
