//! The client side of boardlab's engine protocol (`docs/protocol-engine.md`).

use std::time::{Duration, Instant};

use board_core::Position;
use search::Limits;

use super::{ExternalLimits, process::EngineProcess};
use crate::{Budget, player::Contestant, player::Fault};

/// How long a polite engine gets to exit after `quit`.
const QUIT_GRACE: Duration = Duration::from_millis(300);

pub(crate) struct UgiPlayer {
    name: String,
    command: String,
    limits: ExternalLimits,
    spec: String,
    process: Option<EngineProcess>,
}

impl UgiPlayer {
    pub(crate) fn new(name: String, command: &str, limits: ExternalLimits) -> UgiPlayer {
        UgiPlayer {
            name,
            command: command.to_string(),
            limits,
            spec: String::new(),
            process: None,
        }
    }

    fn process(&mut self) -> Result<&mut EngineProcess, Fault> {
        self.process
            .as_mut()
            .ok_or_else(|| Fault::Crash("not running".into()))
    }

    /// `go` with the match's budget.
    fn go_command(&self) -> String {
        match self.limits.budget {
            Budget::Time(t) => format!("go movetime {}", t.as_millis()),
            Budget::Depth(d) => format!("go depth {d}"),
            Budget::Nodes(n) => format!("go nodes {n}"),
        }
    }
}

/// Waits for the line `word` (or one starting with it followed by a space).
fn expect(
    process: &mut EngineProcess,
    word: &str,
    deadline: Instant,
    limit: Duration,
) -> Result<(), Fault> {
    process.recv_until(deadline, limit, |line| {
        (line == word || line.starts_with(&format!("{word} "))).then_some(Ok(()))
    })
}

impl<P: Position> Contestant<P> for UgiPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, config: &P::Config) -> Result<(), Fault> {
        self.spec = config.to_string();
        let limit = self.limits.startup_limit();
        let deadline = Instant::now() + limit;
        let late = |awaited| {
            move |fault| match fault {
                Fault::Timeout { limit } => Fault::HandshakeTimeout { awaited, limit },
                other => other,
            }
        };
        let mut process = EngineProcess::spawn(&self.command)?;
        process.send("ugi")?;
        expect(&mut process, "ugiok", deadline, limit).map_err(late("ugiok"))?;
        process.send("uginewgame")?;
        process.send("isready")?;
        expect(&mut process, "readyok", deadline, limit).map_err(late("readyok"))?;
        self.process = Some(process);
        Ok(())
    }

    fn choose(
        &mut self,
        pos: &P,
        moves: &[P::Move],
        _hashes: &[u64],
        _limits: &Limits,
    ) -> Result<P::Move, Fault> {
        let mut line = format!("position {} startpos", self.spec);
        if !moves.is_empty() {
            line.push_str(" moves");
            let mut replay = P::new(pos.config().clone());
            for &mv in moves {
                line.push(' ');
                line.push_str(&replay.format_move(mv));
                replay.make_move(mv);
            }
        }
        let go = self.go_command();
        let limit = self.limits.move_limit(1);
        let process = self.process()?;
        process.send(&line)?;
        process.send(&go)?;
        let deadline = Instant::now() + limit;
        let text = process.recv_until(deadline, limit, |line| {
            let mut words = line.split_whitespace();
            (words.next() == Some("bestmove")).then(|| Ok(words.next().unwrap_or("").to_string()))
        })?;
        if text.is_empty() || text == "none" {
            return Err(Fault::NoMove);
        }
        pos.parse_legal_move(&text)
            .map_err(|e| Fault::Illegal(format!("'{}': {e}", short(&text))))
    }

    fn end_game(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.send("quit");
            process.finish(QUIT_GRACE);
        }
    }
}

/// At most 32 characters of engine text in a message.
pub(crate) fn short(text: &str) -> String {
    text.chars().take(32).collect()
}
