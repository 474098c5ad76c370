//! Driving a Botzone bot as the platform does (`docs/protocol-botzone.md`), in
//! simple interaction: the first turn gets the whole game (`n`, then requests and the bot's
//! own responses alternating); a bot that asks to keep running gets only the new request
//! on later turns, one that does not is started afresh with the whole game each turn. The
//! first turn has twice the time of the others, as on Botzone (2 s, then 1 s).

use std::time::{Duration, Instant};

use board_core::Position;
use protocols::botzone::{FIRST_MOVE, KEEP_RUNNING_MARKER, Wire};
use search::Limits;

use super::{ExternalLimits, process::EngineProcess, ugi::short};
use crate::{player::Contestant, player::Fault};

/// How long a bot that did not ask to keep running gets to exit after its move.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// A game's moves as Botzone's six wire integers.
pub struct BotzoneCodec<P: Position> {
    /// The six integers of a move (`x0 y0 x1 y1 x2 y2`: from, to, arrow).
    pub encode: fn(mv: P::Move) -> [u32; 6],
    /// The move of six integers (board bounds only; legality is the position's business).
    pub decode: fn(wire: &Wire) -> Result<P::Move, String>,
}

pub(crate) fn amazons_codec(
    config: &rules_amazons::AmazonsConfig,
) -> Option<BotzoneCodec<rules_amazons::AmazonsPosition>> {
    (config.size() == protocols::botzone::SIZE).then_some(BotzoneCodec {
        encode: protocols::botzone::wire_of_move,
        decode: protocols::botzone::move_of_wire,
    })
}

pub(crate) struct BotzonePlayer<P: Position> {
    name: String,
    command: String,
    limits: ExternalLimits,
    codec: BotzoneCodec<P>,
    /// The bot kept running after its last move.
    process: Option<EngineProcess>,
    /// Turns the bot has answered this game.
    turns: usize,
}

impl<P: Position> BotzonePlayer<P> {
    pub(crate) fn new(
        name: String,
        command: &str,
        limits: ExternalLimits,
        codec: BotzoneCodec<P>,
    ) -> BotzonePlayer<P> {
        BotzonePlayer {
            name,
            command: command.to_string(),
            limits,
            codec,
            process: None,
            turns: 0,
        }
    }

    fn wire(&self, mv: P::Move) -> String {
        (self.codec.encode)(mv)
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The whole game from the bot's side: `n`, then requests and responses alternating.
    fn full_input(&self, moves: &[P::Move]) -> Vec<String> {
        // The bot makes move number `moves.len()`; its own earlier moves share its parity.
        let bot_moves_first = moves.len().is_multiple_of(2);
        let mut lines = Vec::new();
        if bot_moves_first {
            lines.push(
                FIRST_MOVE
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        lines.extend(moves.iter().map(|&mv| self.wire(mv)));
        let n = lines.len().div_ceil(2);
        let mut input = vec![n.to_string()];
        input.extend(lines);
        input
    }
}

impl<P: Position> Contestant<P> for BotzonePlayer<P> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _config: &P::Config) -> Result<(), Fault> {
        self.process = None;
        self.turns = 0;
        Ok(())
    }

    fn choose(
        &mut self,
        _pos: &P,
        moves: &[P::Move],
        _hashes: &[u64],
        _limits: &Limits,
    ) -> Result<P::Move, Fault> {
        let limit = self.limits.move_limit(if self.turns == 0 { 2 } else { 1 });
        let input = match (&self.process, moves.last()) {
            (Some(_), Some(&last)) => vec![self.wire(last)],
            _ => {
                self.process = None;
                self.full_input(moves)
            }
        };
        let mut process = match self.process.take() {
            Some(p) => p,
            None => EngineProcess::spawn(&self.command)?,
        };
        for line in &input {
            process.send(line)?;
        }
        let deadline = Instant::now() + limit;
        let line = process.recv(deadline, limit)?;
        let wire = protocols::botzone::parse_wire_line(&line).map_err(|_| {
            Fault::Illegal(format!(
                "'{}' is not a move x0 y0 x1 y1 x2 y2",
                short(&line)
            ))
        })?;
        let mv = (self.codec.decode)(&wire).map_err(Fault::Illegal)?;
        self.turns += 1;
        // Debug, data and globaldata lines may follow; then the marker, or the bot exits.
        loop {
            match process.recv(deadline, limit) {
                Ok(l) if l.trim() == KEEP_RUNNING_MARKER => {
                    self.process = Some(process);
                    break;
                }
                Ok(_) => continue,
                // Exited, or silent past the deadline: it did not ask to keep running.
                Err(_) => {
                    process.finish(EXIT_GRACE);
                    break;
                }
            }
        }
        Ok(mv)
    }

    fn end_game(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.finish(Duration::ZERO);
        }
    }
}
