//! Players and game outcomes.

use std::fmt;

/// One of the two players. `First` moves first in every boardlab game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Player {
    /// The player who makes the first move (index 0, sign +1). Which colour that is
    /// (Black, White, ...) is the game's to name.
    First,
    /// The player who replies (index 1, sign -1).
    Second,
}

impl Player {
    /// Both players in [`Player::index`] order, to loop over per-player state.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The other player.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for `First`, -1 for `Second`.
    #[inline]
    pub const fn sign(self) -> i32 {
        match self {
            Player::First => 1,
            Player::Second => -1,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first",
            Player::Second => "second",
        })
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The game was won by this player.
    Win(Player),
    /// Neither player won: whatever the game's rules call a draw (a full board, a ply
    /// limit, a quiet-move limit, no legal move; some games have none).
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(p) => write!(f, "{p} player wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}
