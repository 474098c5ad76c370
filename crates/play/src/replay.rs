//! [`Replay`]: stepping through a saved game.

use std::io::{self, BufRead, Write};

use board_core::{View, savefile};

use crate::render;

/// A saved game, replayed: the positions before and after every move.
pub struct Replay<P: View> {
    /// `positions[i]` is the position after `i` moves.
    positions: Vec<P>,
    moves: Vec<P::Move>,
    at: usize,
    color: bool,
    echo: bool,
}

/// The help text of the replay viewer.
pub const REPLAY_HELP: &str = "\
Enter: next move · b: back one move · a number: jump to after that many moves ·
s: the start · e: the end · q: quit
";

impl<P: View> Replay<P> {
    /// Reads a save file's text for game `P`.
    pub fn from_save(text: &str, color: bool) -> Result<Self, String> {
        let game = savefile::load::<P>(text).map_err(|e| e.to_string())?;
        let mut pos = P::new(game.position.config().clone());
        let mut positions = vec![pos.clone()];
        for &mv in &game.moves {
            pos.make_move(mv);
            positions.push(pos.clone());
        }
        Ok(Replay {
            positions,
            moves: game.moves,
            at: 0,
            color,
            echo: false,
        })
    }

    /// Repeats each input line after the prompt (for piped input).
    pub fn with_echo(mut self, echo: bool) -> Self {
        self.echo = echo;
        self
    }

    /// The number of moves in the game.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the game has no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// How many moves are played in the position shown.
    pub fn at(&self) -> usize {
        self.at
    }

    /// Shows the position after `n` moves (clamped to the game).
    pub fn jump(&mut self, n: usize) {
        self.at = n.min(self.moves.len());
    }

    /// The board after `at()` moves, the last one marked, and a status line.
    pub fn render(&self) -> String {
        let pos = &self.positions[self.at.min(self.positions.len() - 1)];
        let before_last = self
            .at
            .checked_sub(1)
            .and_then(|i| Some((self.positions.get(i)?, *self.moves.get(i)?)));
        let last = before_last.map(|(before, mv)| before.format_move(mv));
        let squares = before_last
            .map(|(before, mv)| before.move_squares(mv))
            .unwrap_or_default();
        let mut s = render::board(pos, &squares, self.color);
        s.push_str(&render::legend(pos));
        s.push('\n');
        s.push_str(&format!(
            "after {} of {} moves · {}",
            self.at,
            self.moves.len(),
            render::status(pos)
        ));
        if let Some(last) = last {
            s.push_str(&format!(" · last move {last}"));
        }
        s.push('\n');
        s
    }

    /// Runs the viewer until `q` or the end of input.
    pub fn run(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{REPLAY_HELP}")?;
        write!(out, "{}", self.render())?;
        let mut line = String::new();
        loop {
            write!(out, "> ")?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            let cmd = line.trim().to_ascii_lowercase();
            if self.echo {
                writeln!(out, "{}", line.trim())?;
            }
            match cmd.as_str() {
                "" | "n" | "next" => {
                    if self.at == self.moves.len() {
                        writeln!(out, "end of the game: {} moves", self.moves.len())?;
                        continue;
                    }
                    self.at += 1;
                }
                "b" | "back" => {
                    if self.at == 0 {
                        writeln!(out, "this is the start of the game")?;
                        continue;
                    }
                    self.at -= 1;
                }
                "s" | "start" => self.at = 0,
                "e" | "end" => self.at = self.moves.len(),
                "q" | "quit" | "exit" => return Ok(()),
                "h" | "help" | "?" => {
                    write!(out, "{REPLAY_HELP}")?;
                    continue;
                }
                n => match n.parse::<usize>() {
                    Ok(n) if n <= self.moves.len() => self.at = n,
                    Ok(_) | Err(_) if n.bytes().all(|b| b.is_ascii_digit()) => {
                        writeln!(
                            out,
                            "error: no move {}: the game has {} moves",
                            n.chars().take(32).collect::<String>(),
                            self.moves.len()
                        )?;
                        continue;
                    }
                    _ => {
                        writeln!(
                            out,
                            "error: unknown command '{}' (h for help)",
                            n.chars().take(32).collect::<String>()
                        )?;
                        continue;
                    }
                },
            }
            write!(out, "{}", self.render())?;
        }
    }
}
