//! Driving a Gomocup brain as the Gomocup manager does (`docs/protocol-gomocup.md`):
//! `START N`, the `INFO` limits, the first move request as `BOARD` (the opening's stones
//! in move order, possibly none), later requests as `TURN X,Y`, and `END`.

use std::time::{Duration, Instant};

use board_core::Position;
use search::Limits;

use super::{ExternalLimits, process::EngineProcess, ugi::short};
use crate::{Budget, player::Contestant, player::Fault};

/// GomocupJudge waits this long after `END` before killing the brain.
const END_GRACE: Duration = Duration::from_millis(500);
/// Gomocup's memory limit (350 MiB), announced as `INFO max_memory`.
const MAX_MEMORY: u64 = 367_001_600;

/// A game's moves as Gomocup `X,Y` coordinates.
pub struct PbrainCodec<P: Position> {
    /// Board side, for `START`.
    pub size: u32,
    /// The `INFO rule` value (0 freestyle, 1 exact five).
    pub rule: u32,
    /// The `(X, Y)` of a move.
    pub encode: fn(size: u32, mv: P::Move) -> (u32, u32),
    /// The move placing a stone on `(X, Y)`, if that is on the board.
    pub decode: fn(size: u32, x: u32, y: u32) -> Option<P::Move>,
}

pub(crate) fn gomoku_codec(
    config: &rules_gomoku::GomokuConfig,
) -> PbrainCodec<rules_gomoku::GomokuPosition> {
    PbrainCodec {
        size: config.size(),
        rule: match config.rule() {
            rules_gomoku::Rule::Freestyle => 0,
            rules_gomoku::Rule::Exact5 => 1,
        },
        encode: |size, mv| protocols::pbrain::xy_of(size, mv.square()),
        decode: |size, x, y| protocols::pbrain::square_of(size, x, y).map(rules_gomoku::Move::new),
    }
}

pub(crate) struct PbrainPlayer<P: Position> {
    name: String,
    command: String,
    limits: ExternalLimits,
    codec: PbrainCodec<P>,
    process: Option<EngineProcess>,
    /// How many of the game's moves the brain has been shown (`None`: none asked yet).
    known: Option<usize>,
}

impl<P: Position> PbrainPlayer<P> {
    pub(crate) fn new(
        name: String,
        command: &str,
        limits: ExternalLimits,
        codec: PbrainCodec<P>,
    ) -> PbrainPlayer<P> {
        PbrainPlayer {
            name,
            command: command.to_string(),
            limits,
            codec,
            process: None,
            known: None,
        }
    }

    fn xy(&self, mv: P::Move) -> String {
        let (x, y) = (self.codec.encode)(self.codec.size, mv);
        format!("{x},{y}")
    }
}

/// Reads `X,Y` as GomocupJudge does: a line of exactly two integers split by a comma.
fn parse_xy(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

impl<P: Position> Contestant<P> for PbrainPlayer<P> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _config: &P::Config) -> Result<(), Fault> {
        let limit = self.limits.startup_limit();
        let deadline = Instant::now() + limit;
        let mut process = EngineProcess::spawn(&self.command)?;
        process.send_with(&format!("START {}", self.codec.size), "\r\n")?;
        process
            .recv_until(deadline, limit, |line| {
                let word = line
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_uppercase();
                match word.as_str() {
                    "OK" => Some(Ok(())),
                    "ERROR" | "UNKNOWN" => Some(Err(Fault::Protocol(format!(
                        "refused START {}: {}",
                        self.codec.size,
                        short(line)
                    )))),
                    _ => None,
                }
            })
            .map_err(|fault| match fault {
                Fault::Timeout { limit } => Fault::HandshakeTimeout {
                    awaited: "OK",
                    limit,
                },
                other => other,
            })?;
        let turn_ms = match self.limits.budget {
            Budget::Time(t) => t.as_millis(),
            Budget::Depth(_) | Budget::Nodes(_) => self.limits.untimed_move.as_millis(),
        };
        let mut info = vec![
            format!("INFO timeout_turn {turn_ms}"),
            // A per-move budget only: no match clock (0 = no limit).
            "INFO timeout_match 0".to_string(),
            format!("INFO max_memory {MAX_MEMORY}"),
            "INFO game_type 1".to_string(),
            format!("INFO rule {}", self.codec.rule),
        ];
        // The common engine extensions for reproducible matches.
        match self.limits.budget {
            Budget::Depth(d) => info.push(format!("INFO max_depth {d}")),
            Budget::Nodes(n) => info.push(format!("INFO max_node {n}")),
            Budget::Time(_) => {}
        }
        for line in info {
            process.send_with(&line, "\r\n")?;
        }
        self.process = Some(process);
        self.known = None;
        Ok(())
    }

    fn choose(
        &mut self,
        _pos: &P,
        moves: &[P::Move],
        _hashes: &[u64],
        _limits: &Limits,
    ) -> Result<P::Move, Fault> {
        let mut request = Vec::new();
        match self.known {
            Some(known) if known + 1 == moves.len() => {
                request.push(format!("TURN {}", self.xy(moves[known])));
            }
            _ => {
                // The first request (GomocupJudge never sends BEGIN): every stone so far in
                // move order, 1 = the brain's own, 2 = the opponent's.
                request.push("BOARD".to_string());
                for (i, &mv) in moves.iter().enumerate() {
                    let own = (moves.len() - i).is_multiple_of(2);
                    request.push(format!("{},{}", self.xy(mv), if own { 1 } else { 2 }));
                }
                request.push("DONE".to_string());
            }
        }
        let limit = self.limits.move_limit(1);
        let size = self.codec.size;
        let decode = self.codec.decode;
        let process = self
            .process
            .as_mut()
            .ok_or_else(|| Fault::Crash("not running".into()))?;
        for line in &request {
            process.send_with(line, "\r\n")?;
        }
        let deadline = Instant::now() + limit;
        // Lines that are not `int,int` (MESSAGE, DEBUG, ...) are skipped, as GomocupJudge does.
        let (x, y) = process.recv_until(deadline, limit, |line| parse_xy(line).map(Ok))?;
        let mv = u32::try_from(x)
            .ok()
            .zip(u32::try_from(y).ok())
            .and_then(|(x, y)| decode(size, x, y))
            .ok_or_else(|| Fault::Illegal(format!("{x},{y} is off the {size}x{size} board")))?;
        self.known = Some(moves.len() + 1);
        Ok(mv)
    }

    fn end_game(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.send_with("END", "\r\n");
            process.finish(END_GRACE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_moves_as_gomocup_judge_does() {
        assert_eq!(parse_xy("7,7"), Some((7, 7)));
        assert_eq!(parse_xy(" 10 , 3 "), Some((10, 3)));
        assert_eq!(parse_xy("-1,3"), Some((-1, 3)));
        assert_eq!(parse_xy("MESSAGE depth 3, score 5"), None);
        assert_eq!(parse_xy("7 7"), None);
    }
}
