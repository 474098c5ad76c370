//! Why the host refused a request: one typed error for every door. Nothing changed in
//! the game; the door turns it into its wire form (an `error` line, a JSON message, an
//! HTTP status) at the edge.

use board_core::Player;

use crate::{ActionError, seat::seat_name};

/// Why a request to the host was refused; the game is as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    /// No game has this id (never created, or expired).
    #[error("no game {0}")]
    NoGame(u64),
    /// The spec names no registered game, or a bad option of one.
    #[error("bad game spec: {0}")]
    BadSpec(String),
    /// A save file that does not load; the reason names its first bad line.
    #[error("{0}")]
    BadSave(String),
    /// A move the rules refuse here.
    #[error("illegal move '{text}': {reason}")]
    Illegal {
        /// The move as sent (shortened, on one line).
        text: String,
        /// The rules' reason.
        reason: String,
    },
    /// The sender holds no person's seat that is to move.
    #[error("not your turn: {name} ({}) is to move", seat_name(*.seat))]
    NotYourTurn {
        /// The seat to move.
        seat: Player,
        /// Its player's name under the game's rules (`Black`).
        name: &'static str,
    },
    /// The game is over (the reason why).
    #[error("the game is over: {0}")]
    Over(String),
    /// A token that is neither a seat's nor the creator's.
    #[error("wrong token for game {0}")]
    WrongToken(u64),
    /// The seat is held by a person or the engine already.
    #[error("seat {} of game {id} is taken {by}", seat_name(*.seat))]
    SeatTaken {
        /// The game.
        id: u64,
        /// The seat asked for.
        seat: Player,
        /// `by the engine`, or how its player gets it back.
        by: &'static str,
    },
    /// The host holds as many games as it may.
    #[error("too many games (at most {0})")]
    TooManyGames(usize),
    /// One peer address created as many live games as it may.
    #[error("too many games from {peer} (at most {most})")]
    TooManyGamesFrom {
        /// The peer address.
        peer: std::net::IpAddr,
        /// The limit.
        most: usize,
    },
    /// The change could not be saved durably (so it was not made).
    #[error("cannot save: {0}")]
    Save(String),
    /// The operating system gave no randomness for a token.
    #[error("{0}")]
    Randomness(String),
    /// Refused by the rules of conduct between the players.
    #[error(transparent)]
    Conduct(#[from] ActionError),
    /// Pausing engines is the creator's.
    #[error("only the game's creator pauses or resumes its engines")]
    NotCreator,
    /// Pausing a game without an engine seat.
    #[error("game {0} has no engine to pause")]
    NoEngine(u64),
    /// A board asked for past the moves played.
    #[error("game {id} has only {moves} moves")]
    PastTheEnd {
        /// The game.
        id: u64,
        /// Moves played.
        moves: usize,
    },
}

/// `text` for an error message: trimmed, at most `n` characters (then `...`), on one
/// line.
pub(crate) fn shortened(text: &str, n: usize) -> String {
    let t = text.trim();
    let short: String = t
        .chars()
        .take(n)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if t.chars().count() > n {
        format!("{short}...")
    } else {
        short
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_what_was_wrong_on_one_line() {
        let e = HostError::NotYourTurn {
            seat: Player::Second,
            name: "White",
        };
        assert_eq!(e.to_string(), "not your turn: White (second) is to move");
        assert_eq!(shortened(" a\nb ", 32), "a\u{fffd}b");
        assert_eq!(shortened("abcdef", 3), "abc...");
        let e = HostError::SeatTaken {
            id: 3,
            seat: Player::First,
            by: "by the engine",
        };
        assert_eq!(e.to_string(), "seat first of game 3 is taken by the engine");
    }
}
