//! Game clocks: the time control a game is created with ([`TimeControl`]: base plus
//! increment, or a fixed time per move; none by default) and the two clocks of a hosted
//! game ([`Clocks`]).
//!
//! The clocks are a record of time used, not a timer: each move's time is the time its
//! player's turn ran ([`Clocks::moved`]); the clock on the wall is asked only when the
//! table asks ([`Now`], injectable so tests move time by hand). Whether a clock has run
//! out is decided in one place, the table's flag check (`Table::check_clocks`), called
//! before every move is accepted and by the host's ticker thread between moves.
//!
//! Time control syntax (the `create` of both doors, the `# time` record of the save
//! file): a duration is a whole number with a unit, `ms`, `s`, `m` or `h`:
//! - `BASE+INCREMENT` or `BASE`: Fischer: each player has `BASE` for the game and gains
//!   `INCREMENT` after each of their moves (`5m+3s`, `90s`, `1h+30s`);
//! - `TIME/move`: every move must be made within `TIME`, unused time is lost
//!   (`30s/move`);
//! - `none`: no clock (an empty choice too).

use std::{
    fmt,
    str::FromStr,
    sync::Arc,
    time::{Duration, Instant},
};

use board_core::Player;
use serde::Serialize;

/// Where the table reads the time: `Instant::now` in a host, a hand-moved clock in tests.
pub type Now = Arc<dyn Fn() -> Instant + Send + Sync>;

/// The wall clock: [`Instant::now`].
pub fn system_now() -> Now {
    Arc::new(Instant::now)
}

/// The shortest base time of a Fischer clock.
pub const MIN_BASE: Duration = Duration::from_secs(1);
/// The longest base time, and the longest time per move.
pub const MAX_BASE: Duration = Duration::from_secs(24 * 60 * 60);
/// The longest increment.
pub const MAX_INCREMENT: Duration = Duration::from_secs(60 * 60);
/// The shortest time per move: a tenth of a second, for games between engines (and for
/// an engine seat whose fixed think is longer, which loses on time).
pub const MIN_PER_MOVE: Duration = Duration::from_millis(100);

/// How much time the players have, chosen when a game is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Each player has `base` for the game and gains `increment` after each of their
    /// moves.
    Fischer {
        /// Time on each clock at the start.
        base: Duration,
        /// Time added after each move of the clock's player.
        increment: Duration,
    },
    /// Every move must be made within this time; unused time is lost.
    PerMove(Duration),
}

/// A time control that does not parse, or is out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Not of the form `BASE[+INCREMENT]`, `TIME/move` or `none`.
    #[error(
        "bad time control '{0}': expected BASE[+INCREMENT] (5m+3s, 90s), TIME/move (30s/move) \
         or none, each time a whole number with a unit ms, s, m or h"
    )]
    Syntax(String),
    /// A time outside its range.
    #[error("bad time control '{text}': {what} must be from {range}")]
    Range {
        /// The time control as given.
        text: String,
        /// `the base time`, `the increment`, `the time per move`.
        what: &'static str,
        /// The allowed range, for people.
        range: &'static str,
    },
}

/// Parses a duration: a whole number and a unit (`ms`, `s`, `m`, `h`).
fn parse_duration(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (digits, unit) = text.split_at(split);
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    let ms = match unit {
        "ms" => 1,
        "s" => 1000,
        "m" => 60_000,
        "h" => 3_600_000,
        _ => return None,
    };
    Some(Duration::from_millis(n.checked_mul(ms)?))
}

/// A duration in the largest unit that writes it exactly (`5m`, `3s`, `1500ms`).
fn write_duration(d: Duration) -> String {
    let ms = d.as_millis();
    for (unit, size) in [("h", 3_600_000), ("m", 60_000), ("s", 1000)] {
        if ms > 0 && ms.is_multiple_of(size) {
            return format!("{}{unit}", ms / size);
        }
    }
    format!("{ms}ms")
}

impl TimeControl {
    /// A time control or none: `none` and the empty text (after trimming) are no clock.
    pub fn parse_choice(text: &str) -> Result<Option<TimeControl>, TimeControlError> {
        let t = text.trim();
        if t.is_empty() || t.eq_ignore_ascii_case("none") {
            return Ok(None);
        }
        t.parse().map(Some)
    }

    /// The time on each clock when the game starts.
    pub fn initial(self) -> Duration {
        match self {
            TimeControl::Fischer { base, .. } => base,
            TimeControl::PerMove(t) => t,
        }
    }

    /// The time a clock gains after its player's move.
    pub fn increment(self) -> Duration {
        match self {
            TimeControl::Fischer { increment, .. } => increment,
            TimeControl::PerMove(_) => Duration::ZERO,
        }
    }

    /// What an engine seat's search is told of its clock with `left` on it: a clock with
    /// increment, or a per-move limit (`search`'s time manager turns it into a budget).
    pub fn for_search(self, left: Duration) -> search::TimeControl {
        match self {
            TimeControl::Fischer { increment, .. } => {
                search::TimeControl::clock(search::Clock::new(left, increment, None))
            }
            TimeControl::PerMove(_) => search::TimeControl::per_move(left),
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let t = text.trim();
        let shown: String = t.chars().take(32).collect();
        let syntax = || TimeControlError::Syntax(shown.clone());
        let range = |what, range| TimeControlError::Range {
            text: shown.clone(),
            what,
            range,
        };
        if let Some(per) = t.strip_suffix("/move") {
            let per = parse_duration(per).ok_or_else(syntax)?;
            if !(MIN_PER_MOVE..=MAX_BASE).contains(&per) {
                return Err(range("the time per move", "100ms to 24h"));
            }
            return Ok(TimeControl::PerMove(per));
        }
        let (base, increment) = match t.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (t, None),
        };
        let base = parse_duration(base).ok_or_else(syntax)?;
        let increment = match increment {
            Some(i) => parse_duration(i).ok_or_else(syntax)?,
            None => Duration::ZERO,
        };
        if !(MIN_BASE..=MAX_BASE).contains(&base) {
            return Err(range("the base time", "1s to 24h"));
        }
        if increment > MAX_INCREMENT {
            return Err(range("the increment", "0s to 1h"));
        }
        Ok(TimeControl::Fischer { base, increment })
    }
}

impl fmt::Display for TimeControl {
    /// The canonical form, which [`TimeControl::from_str`] reads back: `5m+3s`, `90s`
    /// (no increment), `30s/move`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Fischer { base, increment } if increment.is_zero() => {
                f.write_str(&write_duration(base))
            }
            TimeControl::Fischer { base, increment } => {
                write!(f, "{}+{}", write_duration(base), write_duration(increment))
            }
            TimeControl::PerMove(t) => write!(f, "{}/move", write_duration(t)),
        }
    }
}

/// The turn whose clock is charged: its player and the time it ran so far.
#[derive(Clone, Copy, Debug)]
struct Turn {
    player: Player,
    /// Time charged while the clock ran before `since` (it stops while the game is
    /// paused or a seat is free).
    spent: Duration,
    /// When the clock last started; `None` while it is stopped.
    since: Option<Instant>,
}

impl Turn {
    fn elapsed(&self, now: Instant) -> Duration {
        self.spent
            .saturating_add(self.since.map_or(Duration::ZERO, |s| now.duration_since(s)))
    }
}

/// The two clocks of a game under a [`TimeControl`]: the time each move used, and the
/// turn being charged.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: TimeControl,
    /// The mover and the time used by each move played, in order.
    used: Vec<(Player, Duration)>,
    /// Each clock at the start of the turn in progress.
    left: [Duration; 2],
    turn: Option<Turn>,
}

/// The clocks as a follower sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// The time control, in its canonical form (`5m+3s`, `30s/move`).
    pub control: String,
    /// Time left on each clock now (first, second), in milliseconds.
    pub left_ms: [u64; 2],
    /// The clock running now (0 first, 1 second), if one is: a page counts it down
    /// between updates.
    pub running: Option<u8>,
}

impl Clocks {
    /// Clocks under `control` after the moves that used `used` (their movers and times,
    /// in order); stopped.
    pub fn new(control: TimeControl, used: Vec<(Player, Duration)>) -> Clocks {
        let mut clocks = Clocks {
            control,
            used,
            left: [control.initial(); 2],
            turn: None,
        };
        clocks.recount();
        clocks
    }

    /// The left-over time of each clock after the recorded moves.
    fn recount(&mut self) {
        let mut left = [self.control.initial(); 2];
        if let TimeControl::Fischer { increment, .. } = self.control {
            for &(p, used) in &self.used {
                left[p.index()] = left[p.index()].saturating_sub(used) + increment;
            }
        }
        self.left = left;
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The mover and time used of each move played.
    pub fn used(&self) -> &[(Player, Duration)] {
        &self.used
    }

    /// Runs `player`'s clock from `now` (a new turn if it was another player's or none;
    /// else the same turn goes on).
    pub fn run(&mut self, player: Player, now: Instant) {
        match &mut self.turn {
            Some(t) if t.player == player => {
                if t.since.is_none() {
                    t.since = Some(now);
                }
            }
            turn => {
                *turn = Some(Turn {
                    player,
                    spent: Duration::ZERO,
                    since: Some(now),
                })
            }
        }
    }

    /// Stops the running clock at `now`, keeping the time its turn used so far.
    pub fn halt(&mut self, now: Instant) {
        if let Some(t) = &mut self.turn
            && let Some(since) = t.since.take()
        {
            t.spent = t.spent.saturating_add(now.duration_since(since));
        }
    }

    /// The player whose clock has run out at `now`, if one has (its flag fell: the game
    /// is lost on time).
    pub fn out_of_time(&self, now: Instant) -> Option<Player> {
        let t = self.turn?;
        (t.elapsed(now) >= self.left[t.player.index()]).then_some(t.player)
    }

    /// `player` moved at `now` (the caller checked [`Clocks::out_of_time`] first): the
    /// time the move used, charged to its clock (then the increment added); no clock
    /// runs until the next [`Clocks::run`].
    pub fn moved(&mut self, player: Player, now: Instant) -> Duration {
        let used = self
            .turn
            .take()
            .filter(|t| t.player == player)
            .map_or(Duration::ZERO, |t| t.elapsed(now));
        self.used.push((player, used));
        if let TimeControl::Fischer { increment, .. } = self.control {
            let left = &mut self.left[player.index()];
            *left = left.saturating_sub(used) + increment;
        }
        used
    }

    /// `player`'s clock ran out before these clocks were rebuilt (a game lost on time,
    /// restored or loaded): it shows no time left, as it did when its flag fell, and no
    /// clock runs.
    pub fn ran_out(&mut self, player: Player) {
        self.turn = Some(Turn {
            player,
            spent: self.left[player.index()],
            since: None,
        });
    }

    /// The time a move would use if made at `now` by `player`.
    pub fn would_use(&self, player: Player, now: Instant) -> Duration {
        self.turn
            .filter(|t| t.player == player)
            .map_or(Duration::ZERO, |t| t.elapsed(now))
    }

    /// Back to the clocks after the first `ply` moves (a takeback): the time of the
    /// moves taken back is given back, and the turn starts again.
    pub fn rewind(&mut self, ply: usize) {
        self.used.truncate(ply);
        self.turn = None;
        self.recount();
    }

    /// Time left on each clock at `now`.
    pub fn left_at(&self, now: Instant) -> [Duration; 2] {
        let mut left = self.left;
        if let Some(t) = &self.turn {
            let l = &mut left[t.player.index()];
            *l = l.saturating_sub(t.elapsed(now));
        }
        left
    }

    /// The player whose clock runs now.
    pub fn running(&self) -> Option<Player> {
        self.turn.filter(|t| t.since.is_some()).map(|t| t.player)
    }

    /// What a follower sees at `now`.
    pub fn view(&self, now: Instant) -> ClockView {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let left = self.left_at(now);
        ClockView {
            control: self.control.to_string(),
            left_ms: [ms(left[0]), ms(left[1])],
            running: self.running().map(|p| p.index() as u8),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_parse_and_print_canonically() {
        let cases = [
            ("5m+3s", "5m+3s"),
            (" 90s ", "90s"),
            ("90s+0s", "90s"),
            ("1500ms+500ms", "1500ms+500ms"),
            ("30s/move", "30s/move"),
            ("60s/move", "1m/move"),
            ("1h", "1h"),
        ];
        for (text, canonical) in cases {
            let tc: TimeControl = text.parse().expect(text);
            assert_eq!(tc.to_string(), canonical);
            assert_eq!(canonical.parse::<TimeControl>(), Ok(tc));
        }
        assert_eq!(
            "5m+3s".parse(),
            Ok(TimeControl::Fischer {
                base: ms(300_000),
                increment: ms(3000)
            })
        );
        assert_eq!(TimeControl::parse_choice("none"), Ok(None));
        assert_eq!(TimeControl::parse_choice(""), Ok(None));
    }

    #[test]
    fn bad_time_controls_say_what_is_wrong() {
        for bad in [
            "5", "5x", "m5", "5m+", "+3s", "5m+3s+1s", "-5m", "5 m", "s/move",
        ] {
            let e = bad.parse::<TimeControl>().expect_err(bad).to_string();
            assert!(e.contains("expected BASE[+INCREMENT]"), "{bad}: {e}");
        }
        let e = "500ms".parse::<TimeControl>().unwrap_err().to_string();
        assert_eq!(
            e,
            "bad time control '500ms': the base time must be from 1s to 24h"
        );
        let e = "5m+2h".parse::<TimeControl>().unwrap_err().to_string();
        assert!(e.contains("the increment must be from 0s to 1h"), "{e}");
        let e = "50ms/move".parse::<TimeControl>().unwrap_err().to_string();
        assert!(
            e.contains("the time per move must be from 100ms to 24h"),
            "{e}"
        );
        assert_eq!("100ms/move".parse(), Ok(TimeControl::PerMove(ms(100))));
        let e = "99999999999h".parse::<TimeControl>().unwrap_err();
        assert!(matches!(e, TimeControlError::Syntax(_)), "{e}");
    }

    #[test]
    fn a_fischer_clock_charges_the_mover_and_adds_the_increment() {
        let t0 = Instant::now();
        let tc = TimeControl::Fischer {
            base: ms(10_000),
            increment: ms(2000),
        };
        let mut c = Clocks::new(tc, Vec::new());
        c.run(Player::First, t0);
        assert_eq!(c.left_at(t0 + ms(3000)), [ms(7000), ms(10_000)]);
        assert_eq!(c.moved(Player::First, t0 + ms(3000)), ms(3000));
        assert_eq!(c.left_at(t0 + ms(3000)), [ms(9000), ms(10_000)]);
        // Halted for a while (a pause): that time is not charged.
        c.run(Player::Second, t0 + ms(3000));
        c.halt(t0 + ms(4000));
        c.run(Player::Second, t0 + ms(60_000));
        assert_eq!(c.left_at(t0 + ms(61_000)), [ms(9000), ms(8000)]);
        assert_eq!(c.out_of_time(t0 + ms(68_999)), None);
        assert_eq!(c.out_of_time(t0 + ms(69_000)), Some(Player::Second));
        // Rebuilt from the times used, the clocks are the same.
        c.moved(Player::Second, t0 + ms(61_000));
        let again = Clocks::new(tc, c.used().to_vec());
        assert_eq!(again.left_at(t0), [ms(9000), ms(10_000)]);
        c.rewind(1);
        assert_eq!(c.left_at(t0), [ms(9000), ms(10_000)]);
        assert_eq!(c.running(), None);
    }

    #[test]
    fn a_per_move_clock_starts_full_every_turn() {
        let t0 = Instant::now();
        let mut c = Clocks::new(TimeControl::PerMove(ms(5000)), Vec::new());
        c.run(Player::First, t0);
        assert_eq!(c.moved(Player::First, t0 + ms(4000)), ms(4000));
        c.run(Player::Second, t0 + ms(4000));
        assert_eq!(c.left_at(t0 + ms(5000)), [ms(5000), ms(4000)]);
        assert_eq!(c.out_of_time(t0 + ms(8999)), None);
        assert_eq!(c.out_of_time(t0 + ms(9000)), Some(Player::Second));
        let view = c.view(t0 + ms(5000));
        assert_eq!(
            view,
            ClockView {
                control: "5s/move".into(),
                left_ms: [5000, 4000],
                running: Some(1)
            }
        );
    }
}
