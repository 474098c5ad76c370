//! External engines as players, driven through their own protocols the way tournament
//! managers drive them:
//! - `ugi`: boardlab's engine protocol (`docs/protocol-engine.md`), every game;
//! - `pbrain`: Gomocup brains, as the Gomocup manager does (`START`, `INFO`, `BOARD` for the
//!   first move, then `TURN`, `END`), gomoku only;
//! - `botzone`: Botzone bots in simple interaction (a full request the first turn; then one
//!   line a turn to a bot that asked to keep running, the full request again to a fresh
//!   process for one that did not), amazons 8×8 only.
//!
//! Each engine is a fresh process per game. Every answer has a deadline; an engine that
//! misses it is killed and loses on time, one that exits loses by crash, and an
//! unparseable or illegal move loses too, each with its reason in the game's record.

mod botzone;
mod pbrain;
mod process;
mod ugi;

use std::{any::Any, fmt, time::Duration};

use board_core::Position;

use crate::{Budget, player::Contestant};

pub use botzone::BotzoneCodec;
pub use pbrain::PbrainCodec;

/// The protocols an external engine can speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// boardlab's own engine protocol (`docs/protocol-engine.md`), for every game.
    Ugi,
    /// The Gomocup `pbrain` protocol, for gomoku only.
    Pbrain,
    /// Botzone's keep-running bot protocol, for 8×8 amazons only.
    Botzone,
}

impl Protocol {
    /// All three protocols: the prefixes a [`PlayerSpec`](crate::PlayerSpec) can name.
    pub const ALL: [Protocol; 3] = [Protocol::Ugi, Protocol::Pbrain, Protocol::Botzone];
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Ugi => "ugi",
            Protocol::Pbrain => "pbrain",
            Protocol::Botzone => "botzone",
        })
    }
}

/// How long an external engine may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExternalLimits {
    /// The per-move budget the engine is told (and held to, plus `tolerance`).
    pub budget: Budget,
    /// Slack on top of a time budget before a move counts as late (pipe latency, process
    /// scheduling); Gomocup allows 1000 ms.
    pub tolerance: Duration,
    /// The limit on one move under a depth or node budget, which has no clock of its own.
    pub untimed_move: Duration,
    /// The least time start-up (`ugi` … `readyok`, `START` … `OK`) gets; a longer move limit
    /// raises it (see [`ExternalLimits::startup_limit`]).
    pub startup: Duration,
}

impl Default for ExternalLimits {
    fn default() -> Self {
        ExternalLimits {
            budget: Budget::Time(Duration::from_millis(100)),
            tolerance: Duration::from_millis(1000),
            untimed_move: Duration::from_secs(60),
            startup: Duration::from_secs(10),
        }
    }
}

impl ExternalLimits {
    /// The limit on start-up: as long as a move may take (`--time` plus `--tolerance`, or
    /// `--timeout`), but never less than [`startup`](ExternalLimits::startup), since an
    /// engine that builds its tables before `readyok` needs more than a fast move's time.
    pub fn startup_limit(&self) -> Duration {
        self.startup.max(self.move_limit(1))
    }

    /// The longest a move may take; `scale` multiplies the time budget (Botzone's first
    /// turn has twice the time).
    pub fn move_limit(&self, scale: u32) -> Duration {
        match self.budget {
            Budget::Time(t) => t * scale + self.tolerance,
            Budget::Depth(_) | Budget::Nodes(_) => self.untimed_move * scale,
        }
    }
}

/// The Gomocup coordinates of `P`'s games of `config`, if `P` is the game pbrain brains
/// play (gomoku). pbrain and Botzone are single-game protocols, so each codec belongs to
/// its protocol's game and is found from the config's type: no per-game table here.
pub fn pbrain_codec<P: Position + 'static>(config: &P::Config) -> Option<PbrainCodec<P>>
where
    P::Config: 'static,
{
    let config = (config as &dyn Any).downcast_ref::<rules_gomoku::GomokuConfig>()?;
    same_type(pbrain::gomoku_codec(config))
}

/// The Botzone coordinates of `P`'s games of `config`, if `P` is the game Botzone bots
/// play here (amazons, on the 8×8 board).
pub fn botzone_codec<P: Position + 'static>(config: &P::Config) -> Option<BotzoneCodec<P>>
where
    P::Config: 'static,
{
    let config = (config as &dyn Any).downcast_ref::<rules_amazons::AmazonsConfig>()?;
    same_type(botzone::amazons_codec(config)?)
}

/// `value` as a `T`: `Some` exactly when its type is `T` (here: when the config's type named
/// the protocol's game, the game's codec is `P`'s).
fn same_type<T: 'static>(value: impl Any) -> Option<T> {
    let boxed: Box<dyn Any> = Box::new(value);
    boxed.downcast::<T>().ok().map(|value| *value)
}

/// Why an external engine cannot play this game at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UnsupportedGame(pub String);

/// Checks that `protocol` can play the game of `config` (before any game starts).
pub fn check_protocol<P: Position + 'static>(
    protocol: Protocol,
    config: &P::Config,
) -> Result<(), UnsupportedGame> {
    match protocol {
        Protocol::Ugi => Ok(()),
        Protocol::Pbrain => pbrain_codec::<P>(config).map(|_| ()).ok_or_else(|| {
            UnsupportedGame(format!(
                "pbrain brains play gomoku only, not {config} (use ugi: for other games)"
            ))
        }),
        Protocol::Botzone => botzone_codec::<P>(config).map(|_| ()).ok_or_else(|| {
            UnsupportedGame(format!(
                "Botzone bots play amazons:size=8 only, not {config} (use ugi: for other games)"
            ))
        }),
    }
}

/// Checks that `command`'s program exists and can be run, before any game: `ugi:/nonexistent`
/// is refused at once instead of losing every game by crash. A command whose first word is
/// not a plain program name (a shell construct) is left to the shell to judge.
pub fn check_command(command: &str) -> Result<(), UnsupportedGame> {
    let Some(program) = command.split_whitespace().next() else {
        return Err(UnsupportedGame("the engine command is empty".into()));
    };
    let program = program.trim_matches(|c| c == '\'' || c == '"');
    if program.is_empty() || program.chars().any(|c| "$`=(){}[]<>|;&*?~\\".contains(c)) {
        return Ok(());
    }
    let runnable = |path: &std::path::Path| -> bool {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let path = std::path::Path::new(program);
        return match std::fs::metadata(path) {
            Err(e) => Err(UnsupportedGame(format!("cannot start '{program}': {e}"))),
            Ok(_) if !runnable(path) => Err(UnsupportedGame(format!(
                "cannot start '{program}': it is not an executable file"
            ))),
            Ok(_) => Ok(()),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| runnable(&dir.join(program))) {
        Ok(())
    } else {
        Err(UnsupportedGame(format!(
            "cannot start '{program}': no such program on the PATH"
        )))
    }
}

/// An external engine for one game of `config`.
pub fn external_player<P: Position + 'static>(
    protocol: Protocol,
    command: &str,
    config: &P::Config,
    limits: ExternalLimits,
) -> Result<Box<dyn Contestant<P>>, UnsupportedGame> {
    check_protocol::<P>(protocol, config)?;
    let name = format!("{protocol}:{command}");
    Ok(match protocol {
        Protocol::Ugi => Box::new(ugi::UgiPlayer::new(name, command, limits)),
        Protocol::Pbrain => match pbrain_codec::<P>(config) {
            Some(codec) => Box::new(pbrain::PbrainPlayer::new(name, command, limits, codec)),
            None => return Err(UnsupportedGame(format!("no pbrain codec for {config}"))),
        },
        Protocol::Botzone => match botzone_codec::<P>(config) {
            Some(codec) => Box::new(botzone::BotzonePlayer::new(name, command, limits, codec)),
            None => return Err(UnsupportedGame(format!("no Botzone codec for {config}"))),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Fault;

    #[test]
    fn the_handshake_wait_follows_timeout_and_tolerance_above_its_floor() {
        let limits = |budget, tolerance_ms, timeout_ms| ExternalLimits {
            budget,
            tolerance: Duration::from_millis(tolerance_ms),
            untimed_move: Duration::from_millis(timeout_ms),
            ..ExternalLimits::default()
        };
        // Short limits keep the 10 s floor: an engine building its tables needs it.
        let fast = limits(Budget::Time(Duration::from_millis(100)), 1000, 60_000);
        assert_eq!(fast.startup_limit(), Duration::from_secs(10));
        // A long --timeout (under --depth) or --time + --tolerance raises it.
        let slow_depth = limits(Budget::Depth(8), 1000, 120_000);
        assert_eq!(slow_depth.startup_limit(), Duration::from_secs(120));
        let slow_time = limits(Budget::Time(Duration::from_secs(15)), 5_000, 60_000);
        assert_eq!(slow_time.startup_limit(), Duration::from_secs(20));
    }

    #[test]
    fn a_handshake_timeout_names_what_was_awaited_not_a_move() {
        let fault = Fault::HandshakeTimeout {
            awaited: "readyok",
            limit: Duration::from_secs(10),
        };
        assert_eq!(fault.to_string(), "timed out (no readyok within 10000 ms)");
    }

    #[test]
    fn a_missing_program_is_refused_before_any_game() {
        let err = check_command("/nonexistent/engine --flag").unwrap_err();
        assert!(
            err.0.starts_with("cannot start '/nonexistent/engine': "),
            "{err}"
        );
        let err = check_command("no-such-engine-anywhere").unwrap_err();
        assert_eq!(
            err.0,
            "cannot start 'no-such-engine-anywhere': no such program on the PATH"
        );
        assert!(check_command("sh -c 'exit 0'").is_ok());
        assert!(check_command("").is_err());
        // A directory is not a program.
        let err = check_command("/").unwrap_err();
        assert!(err.0.contains("not an executable file"), "{err}");
        // Shell constructs are left to the shell.
        assert!(check_command("$ENGINE --fast").is_ok());
    }
}
