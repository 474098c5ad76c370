//! Match results from one agent's point of view.

use std::{fmt, time::Duration};

use board_core::{Outcome, Player, Position};

use crate::{
    game::{GameRecord, player_of},
    stats::median,
};

/// Which colour an agent had.
pub type Side = Player;

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost (faults included).
    pub losses: u32,
}

impl Tally {
    /// Games counted: wins + draws + losses.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game: a win 1, a draw ½.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    pub(crate) fn add(&mut self, outcome: Outcome, me: Player) {
        match outcome {
            Outcome::Draw => self.draws += 1,
            Outcome::Win(p) if p == me => self.wins += 1,
            Outcome::Win(_) => self.losses += 1,
        }
    }
}

/// A match from A's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    /// Agent A's name, as the header prints it.
    pub a: String,
    /// Agent B's name.
    pub b: String,
    /// A's results overall.
    pub total: Tally,
    /// A's results when A moved first.
    pub a_first: Tally,
    /// A's results when A moved second.
    pub a_second: Tally,
    /// Length of each game in plies (opening included).
    pub lengths: Vec<u32>,
    /// Longest single move of A and of B.
    pub max_move_time: [Duration; 2],
    /// Total thinking time of A and of B.
    pub think_time: [Duration; 2],
    /// Moves asked of A and of B (the random openings excluded, a faulty answer included).
    pub think_moves: [u32; 2],
}

impl MatchReport {
    /// An empty report of A against B (add games with [`MatchReport::add`]).
    pub fn new(a: String, b: String) -> MatchReport {
        MatchReport {
            a,
            b,
            ..MatchReport::default()
        }
    }

    /// Adds a game in which A played `a_side`.
    pub fn add<P: Position>(&mut self, game: &GameRecord<P>, a_side: Side) {
        self.total.add(game.outcome, a_side);
        match a_side {
            Player::First => self.a_first.add(game.outcome, a_side),
            Player::Second => self.a_second.add(game.outcome, a_side),
        }
        self.lengths.push(game.moves.len() as u32);
        for (index, timing) in game.timing.iter().enumerate() {
            let who = usize::from(player_of(index) != a_side);
            self.max_move_time[who] = self.max_move_time[who].max(timing.max);
            self.think_time[who] += timing.total;
            self.think_moves[who] += timing.moves;
        }
    }

    /// `score: <wins>-<draws>-<losses>` from A's side.
    pub fn score_line(&self) -> String {
        format!(
            "score: {}-{}-{}",
            self.total.wins, self.total.draws, self.total.losses
        )
    }

    /// Mean game length in plies.
    pub fn mean_length(&self) -> f64 {
        if self.lengths.is_empty() {
            return 0.0;
        }
        self.lengths.iter().map(|&l| l as f64).sum::<f64>() / self.lengths.len() as f64
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |f: &mut fmt::Formatter<'_>, label: &str, t: &Tally| {
            writeln!(
                f,
                "{label:<14} {:>6} {:>6} {:>6} {:>6} {:>7.1}%",
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score()
            )
        };
        writeln!(f, "{} (A) vs {} (B)", self.a, self.b)?;
        writeln!(
            f,
            "{:<14} {:>6} {:>6} {:>6} {:>6} {:>8}",
            "A as", "games", "wins", "draws", "losses", "score"
        )?;
        row(f, "first", &self.a_first)?;
        row(f, "second", &self.a_second)?;
        row(f, "total", &self.total)?;
        let lengths: Vec<f64> = self.lengths.iter().map(|&l| f64::from(l)).collect();
        writeln!(
            f,
            "game length: mean {:.1} plies, median {:.1}, min {}, max {}",
            self.mean_length(),
            median(&lengths),
            self.lengths.iter().min().copied().unwrap_or(0),
            self.lengths.iter().max().copied().unwrap_or(0)
        )?;
        for (i, name) in [&self.a, &self.b].into_iter().enumerate() {
            let mean =
                self.think_time[i].as_secs_f64() * 1000.0 / self.think_moves[i].max(1) as f64;
            writeln!(
                f,
                "move time {name}: max {:.1} ms, mean {mean:.1} ms over {} moves",
                self.max_move_time[i].as_secs_f64() * 1000.0,
                self.think_moves[i]
            )?;
        }
        Ok(())
    }
}
