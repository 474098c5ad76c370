//! A player in a game: one of boardlab's own agents, or an external engine driven through
//! a protocol (see [`crate::external`]).

use std::{fmt, str::FromStr, time::Duration};

use board_core::Position;
use search::{Agent, AgentKind, Limits};

use crate::external::Protocol;

/// Why a player lost without the rules deciding: each counts as a loss.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No move within `limit` (the process was killed).
    Timeout {
        /// The deadline the answer missed (budget plus tolerance, or the untimed or
        /// start-up limit).
        limit: Duration,
    },
    /// No answer to the start-up handshake (`ugiok`, `readyok`, `OK`) within `limit`.
    HandshakeTimeout {
        /// The line awaited.
        awaited: &'static str,
        /// The start-up limit (see `ExternalLimits::startup_limit`).
        limit: Duration,
    },
    /// The process ended, or could not be started or written to.
    Crash(String),
    /// A move that is not legal here, or not a move at all.
    Illegal(String),
    /// The player had no move to offer in an unfinished game.
    NoMove,
    /// The engine refused the game or answered out of protocol.
    Protocol(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Timeout { limit } => {
                write!(f, "timed out (no move within {} ms)", limit.as_millis())
            }
            Fault::HandshakeTimeout { awaited, limit } => write!(
                f,
                "timed out (no {awaited} within {} ms)",
                limit.as_millis()
            ),
            Fault::Crash(why) => write!(f, "crashed ({why})"),
            Fault::Illegal(what) => write!(f, "played an illegal move: {what}"),
            Fault::NoMove => f.write_str("returned no move"),
            Fault::Protocol(why) => write!(f, "broke the protocol: {why}"),
        }
    }
}

/// Something that plays games: told when a game starts and ends, asked for moves.
pub trait Contestant<P: Position>: Send {
    /// A short name for tables and logs.
    fn name(&self) -> &str;

    /// Gets ready for a new game (starts a process, sends the rules). The opening has not
    /// been shown yet; it arrives with the first `choose`.
    fn new_game(&mut self, config: &P::Config) -> Result<(), Fault>;

    /// The move to play in `pos`, reached from the start by `moves` (whose hashes, start
    /// position first, are `hashes`).
    fn choose(
        &mut self,
        pos: &P,
        moves: &[P::Move],
        hashes: &[u64],
        limits: &Limits,
    ) -> Result<P::Move, Fault>;

    /// The game is over (an external engine is told and stopped).
    fn end_game(&mut self) {}
}

/// One of boardlab's own agents as a [`Contestant`].
pub struct AgentPlayer<'a, P: Position>(pub &'a mut dyn Agent<P>);

impl<P: Position> Contestant<P> for AgentPlayer<'_, P> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn new_game(&mut self, _config: &P::Config) -> Result<(), Fault> {
        self.0.new_game();
        Ok(())
    }

    fn choose(
        &mut self,
        pos: &P,
        _moves: &[P::Move],
        hashes: &[u64],
        limits: &Limits,
    ) -> Result<P::Move, Fault> {
        self.0.set_game_history(hashes);
        self.0
            .think(pos, limits, &mut |_| {})
            .best_move
            .ok_or(Fault::NoMove)
    }
}

/// One of boardlab's own agents, owned, as a [`Contestant`].
pub struct OwnedAgent<P: Position>(pub Box<dyn Agent<P>>);

impl<P: Position> Contestant<P> for OwnedAgent<P> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn new_game(&mut self, config: &P::Config) -> Result<(), Fault> {
        AgentPlayer(self.0.as_mut()).new_game(config)
    }

    fn choose(
        &mut self,
        pos: &P,
        moves: &[P::Move],
        hashes: &[u64],
        limits: &Limits,
    ) -> Result<P::Move, Fault> {
        AgentPlayer(self.0.as_mut()).choose(pos, moves, hashes, limits)
    }
}

/// A player as named on the command line: `engine`, `baseline`, `random`, or an external
/// engine `ugi:<command>`, `pbrain:<command>`, `botzone:<command>` (the command runs under
/// `sh -c`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerSpec {
    /// One of boardlab's own players (`engine`, `baseline`, `random`).
    Agent(AgentKind),
    /// An external engine process.
    External {
        /// The protocol it speaks.
        protocol: Protocol,
        /// The shell command that starts it (run under `sh -c`, non-empty).
        command: String,
    },
}

impl From<AgentKind> for PlayerSpec {
    fn from(kind: AgentKind) -> PlayerSpec {
        PlayerSpec::Agent(kind)
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Agent(kind) => write!(f, "{kind}"),
            PlayerSpec::External { protocol, command } => write!(f, "{protocol}:{command}"),
        }
    }
}

/// An unknown player name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown player '{0}': expected engine, baseline, random, ugi:<command>, pbrain:<command> or botzone:<command>"
)]
pub struct UnknownPlayer(pub String);

impl FromStr for PlayerSpec {
    type Err = UnknownPlayer;

    fn from_str(s: &str) -> Result<PlayerSpec, UnknownPlayer> {
        let s = s.trim();
        let unknown = || UnknownPlayer(s.chars().take(48).collect());
        if let Some((prefix, command)) = s.split_once(':') {
            let protocol = Protocol::ALL
                .into_iter()
                .find(|p| p.to_string().eq_ignore_ascii_case(prefix.trim()))
                .ok_or_else(unknown)?;
            let command = command.trim();
            if command.is_empty() {
                return Err(unknown());
            }
            return Ok(PlayerSpec::External {
                protocol,
                command: command.to_string(),
            });
        }
        s.parse::<AgentKind>()
            .map(PlayerSpec::Agent)
            .map_err(|_| unknown())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs_round_trip() {
        for text in [
            "engine",
            "baseline",
            "random",
            "ugi:boardlab engine",
            "pbrain:./pbrain-x --fast",
            "botzone:python3 bot.py",
        ] {
            let spec: PlayerSpec = text.parse().expect(text);
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "UGI: x".parse::<PlayerSpec>(),
            Ok(PlayerSpec::External {
                protocol: Protocol::Ugi,
                command: "x".into()
            })
        );
        for bad in ["ugi:", "uci:stockfish", "strong", ""] {
            let e = bad.parse::<PlayerSpec>().expect_err(bad).to_string();
            assert!(e.contains("expected engine, baseline, random, ugi:"), "{e}");
        }
    }
}
