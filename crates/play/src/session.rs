//! [`Session`]: one game in the terminal, driven by lines of input.

use std::{
    io::{self, BufRead, Write},
    sync::{Arc, Mutex},
};

use board_core::{GameConfig, Player, Position, Rules, Square, View, savefile};
use search::{Agent, AgentError, Limits};

/// The computer's checked move with its score and depth, or why it gave none.
type Answer<M> = Result<(M, search::Score, u32), AgentError>;

use crate::render;

/// Which sides people play (the others are played by the computer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Humans {
    /// People play the first player; the computer the second.
    #[default]
    First,
    /// People play the second player; the computer the first.
    Second,
    /// People play both sides (the computer only gives hints).
    Both,
    /// The computer plays both sides.
    None,
}

impl Humans {
    /// Whether a person plays `player`.
    pub fn plays(self, player: Player) -> bool {
        match self {
            Humans::First => player == Player::First,
            Humans::Second => player == Player::Second,
            Humans::Both => true,
            Humans::None => false,
        }
    }
}

/// An unknown `--human` value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown side '{0}': expected first, second, both or none")]
pub struct UnknownHumans(pub String);

impl std::str::FromStr for Humans {
    type Err = UnknownHumans;
    fn from_str(s: &str) -> Result<Humans, UnknownHumans> {
        match s.trim().to_ascii_lowercase().as_str() {
            "first" => Ok(Humans::First),
            "second" => Ok(Humans::Second),
            "both" => Ok(Humans::Both),
            "none" => Ok(Humans::None),
            _ => Err(UnknownHumans(s.chars().take(32).collect())),
        }
    }
}

/// How the computer's thinking shows while it searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Progress {
    /// Nothing (piped output, tests).
    #[default]
    Silent,
    /// One short line replaced in place (`thinking… depth 7`), erased when done: for a
    /// terminal. It never shows the evaluation.
    Line,
    /// Every iteration's full line: depth, score, nodes, time, principal variation.
    Verbose,
}

/// The game so far in the save format, kept up to date after every change so another
/// thread (a Ctrl-C handler) can write it out at any moment.
pub type SaveSnapshot = Arc<Mutex<String>>;

/// How a session looks and how long the computer thinks.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Which sides people play.
    pub humans: Humans,
    /// The computer's budget per move (and for hints).
    pub limits: Limits,
    /// ANSI colours on the board.
    pub color: bool,
    /// Repeat each input line after the prompt (for piped input, so transcripts read well).
    pub echo: bool,
    /// How the computer's thinking shows.
    pub progress: Progress,
    /// Ask before `quit` or `restart` throws away moves not saved (for a person at a
    /// terminal; scripts are never asked).
    pub confirm: bool,
    /// Where to keep the game's save text current (for an autosave on Ctrl-C).
    pub snapshot: Option<SaveSnapshot>,
}

impl Default for Settings {
    /// A person plays first, the computer thinks one second a move, no colour, no
    /// questions, silent thinking.
    fn default() -> Settings {
        Settings {
            humans: Humans::First,
            limits: Limits::new().with_move_time(std::time::Duration::from_secs(1)),
            color: false,
            echo: false,
            progress: Progress::Silent,
            confirm: false,
            snapshot: None,
        }
    }
}

/// The help text printed by `help`.
pub const HELP: &str = "\
Enter a move in the game's notation (c3, c3-c4, d1-d7/g7, j11,k12) or with the squares
separated by spaces (c3 c4, d1 d7 g7, j11 k12). Commands:
  undo, u      take back to your previous turn (again and again to the start)
  restart, r   start a new game with the same rules
  moves        the moves of the game so far
  rules        the rules of this game and its parameters
  save FILE    write the game to FILE (asks before replacing a file)
  load FILE    continue the game saved in FILE
  hint         the computer's suggestion and its score
  help         this text
  quit, q      leave
";

/// One game of `P` between people and/or a computer player.
///
/// The session reads commands and moves line by line and writes the boards and messages
/// to `out`; the computer's thinking progress goes to `progress`.
pub struct Session<P: View> {
    start: P,
    /// Positions before each move played, so undo is exact.
    history: Vec<P>,
    moves: Vec<P::Move>,
    pos: P,
    computer: Option<Box<dyn Agent<P>>>,
    settings: Settings,
    /// Whether the game-over message for the current position has been shown.
    announced: bool,
    /// The number of moves when the game was last saved or loaded (`None`: never).
    saved: Option<usize>,
}

/// What to do after a line of input.
enum Flow {
    Continue,
    Quit,
}

impl<P: View> Session<P> {
    /// A session from the start position `start`; `computer` plays the sides people do not
    /// and gives hints (without one, only people can play and `hint` is unavailable).
    pub fn new(start: P, computer: Option<Box<dyn Agent<P>>>, settings: Settings) -> Self {
        Session {
            pos: start.clone(),
            start,
            history: Vec::new(),
            moves: Vec::new(),
            computer,
            settings,
            announced: false,
            saved: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &P {
        &self.pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// Plays the moves of a save file's text (replacing the current game).
    pub fn load_text(&mut self, text: &str) -> Result<(), String> {
        let game = savefile::load::<P>(text).map_err(|e| e.to_string())?;
        self.load_game(game);
        Ok(())
    }

    /// Continues a replayed save file (replacing the current game).
    pub fn load_game(&mut self, game: savefile::LoadedGame<P>) {
        let mut pos = P::new(game.position.config().clone());
        let mut history = Vec::with_capacity(game.moves.len());
        for &mv in &game.moves {
            history.push(pos.clone());
            pos.make_move(mv);
        }
        self.start = P::new(game.position.config().clone());
        self.history = history;
        self.moves = game.moves;
        self.pos = pos;
        self.announced = false;
        self.saved = Some(self.moves.len());
        if let Some(c) = self.computer.as_mut() {
            c.new_game();
        }
        self.update_snapshot();
    }

    /// The game so far in the save format.
    pub fn save_text(&self) -> String {
        savefile::save::<P>(self.start.config(), &self.moves)
    }

    /// Whether moves were played (or taken back) since the game was last saved or loaded.
    pub fn is_unsaved(&self) -> bool {
        self.saved != Some(self.moves.len()) && !(self.saved.is_none() && self.moves.is_empty())
    }

    fn update_snapshot(&self) {
        if let Some(snapshot) = &self.settings.snapshot {
            let text = self.save_text();
            match snapshot.lock() {
                Ok(mut guard) => *guard = text,
                Err(poisoned) => *poisoned.into_inner() = text,
            }
        }
    }

    /// Runs the session until `quit` or the end of input.
    pub fn run(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        progress: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(
            out,
            "{}: type a move, or 'help' for the commands.",
            self.start.config()
        )?;
        self.show(out)?;
        self.update_snapshot();
        let mut line = String::new();
        loop {
            // The computer's turn (if it cannot move, the people decide what to do).
            let computer_turn = self.pos.outcome().is_none()
                && !self.settings.humans.plays(self.pos.side_to_move());
            if computer_turn && self.computer_move(out, progress)? {
                continue;
            }
            if self.pos.outcome().is_some() && !self.announced {
                self.announced = true;
                writeln!(out, "Game over: {}.", render::result(&self.pos))?;
                writeln!(
                    out,
                    "Type 'save FILE' to keep the game, 'undo', 'restart' or 'quit'."
                )?;
            }
            if !self.prompt(input, out, "> ", &mut line)? {
                writeln!(out)?;
                return Ok(());
            }
            let text = line.trim().to_string();
            if let Flow::Quit = self.handle(&text, input, out, progress)? {
                return Ok(());
            }
        }
    }

    /// Writes `prompt`, reads a line into `line` (echoed for piped input); `false` at the
    /// end of input.
    fn prompt(
        &self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        prompt: &str,
        line: &mut String,
    ) -> io::Result<bool> {
        write!(out, "{prompt}")?;
        out.flush()?;
        line.clear();
        if input.read_line(line)? == 0 {
            return Ok(false);
        }
        if self.settings.echo {
            writeln!(out, "{}", line.trim())?;
        }
        Ok(true)
    }

    /// Asks a yes/no question; anything but `y`/`yes` (or the end of input) is no.
    fn ask(
        &self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        question: &str,
    ) -> io::Result<bool> {
        let mut line = String::new();
        if !self.prompt(input, out, &format!("{question} [y/N] "), &mut line)? {
            writeln!(out)?;
            return Ok(false);
        }
        Ok(matches!(
            line.trim().to_ascii_lowercase().as_str(),
            "y" | "yes"
        ))
    }

    /// The squares of the last move, as played from the position before it.
    fn last_squares(&self) -> (Option<String>, Vec<Square>) {
        match (self.history.last(), self.moves.last()) {
            (Some(before), Some(&mv)) => (Some(before.format_move(mv)), before.move_squares(mv)),
            _ => (None, Vec::new()),
        }
    }

    /// Prints the board, its legend and the status line.
    pub fn show(&self, out: &mut dyn Write) -> io::Result<()> {
        let (last, squares) = self.last_squares();
        write!(
            out,
            "{}",
            render::board(&self.pos, &squares, self.settings.color)
        )?;
        writeln!(out, "{}", render::legend(&self.pos))?;
        let mut status = render::status(&self.pos);
        if let Some(last) = &last {
            status.push_str(&format!(" · last move {last}"));
        }
        writeln!(out, "{status}")
    }

    fn handle(
        &mut self,
        text: &str,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        progress: &mut dyn Write,
    ) -> io::Result<Flow> {
        let (word, rest) = match text.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (text, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => {
                if !self.settings.confirm
                    || !self.is_unsaved()
                    || self.ask(input, out, "The game is not saved. Quit anyway?")?
                {
                    return Ok(Flow::Quit);
                }
            }
            "help" | "?" => write!(out, "{HELP}")?,
            "undo" | "u" => self.undo(out)?,
            "restart" | "r" => {
                if self.settings.confirm
                    && self.is_unsaved()
                    && !self.ask(input, out, "The game is not saved. Start a new one anyway?")?
                {
                    return Ok(Flow::Continue);
                }
                self.pos = self.start.clone();
                self.history.clear();
                self.moves.clear();
                self.announced = false;
                self.saved = None;
                if let Some(c) = self.computer.as_mut() {
                    c.new_game();
                }
                self.update_snapshot();
                writeln!(out, "New game.")?;
                self.show(out)?;
            }
            "moves" => self.print_moves(out)?,
            "rules" => self.print_rules(out)?,
            "save" if rest.is_empty() => writeln!(out, "error: save needs a file name")?,
            "save" => {
                let exists = std::path::Path::new(rest).exists();
                if exists && !self.ask(input, out, &format!("{rest} exists. Replace it?"))? {
                    writeln!(out, "Not saved.")?;
                    return Ok(Flow::Continue);
                }
                match std::fs::write(rest, self.save_text()) {
                    Ok(()) => {
                        self.saved = Some(self.moves.len());
                        writeln!(out, "Saved {} moves to {rest}.", self.moves.len())?
                    }
                    Err(e) => writeln!(out, "error: cannot write {rest}: {e}")?,
                }
            }
            "load" if rest.is_empty() => writeln!(out, "error: load needs a file name")?,
            "load" => match read_limited(rest) {
                Ok(text) => match self.load_text(&text) {
                    Ok(()) => {
                        writeln!(out, "Loaded {} moves from {rest}.", self.moves.len())?;
                        self.show(out)?;
                    }
                    Err(e) => writeln!(out, "error: {rest}: {e}")?,
                },
                Err(e) => writeln!(out, "error: cannot read {rest}: {e}")?,
            },
            "hint" => self.hint(out, progress)?,
            _ => self.human_move(text, out)?,
        }
        Ok(Flow::Continue)
    }

    /// `moves`: the game so far, numbered, wrapped to 80 columns.
    fn print_moves(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.moves.is_empty() {
            return writeln!(out, "No moves yet.");
        }
        let mut pos = self.start.clone();
        let mut line = String::new();
        for (i, &mv) in self.moves.iter().enumerate() {
            let item = format!("{}. {}", i + 1, pos.format_move(mv));
            if !line.is_empty() && line.len() + 2 + item.len() > 80 {
                writeln!(out, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push_str("  ");
            }
            line.push_str(&item);
            pos.make_move(mv);
        }
        writeln!(out, "{line}")
    }

    /// `rules`: the game's rules in brief, then its parameters.
    fn print_rules(&self, out: &mut dyn Write) -> io::Result<()> {
        let text = self.pos.rules_text();
        if text.is_empty() {
            writeln!(out, "This game has no rules summary.")?;
        } else {
            write!(out, "{text}")?;
            if !text.ends_with('\n') {
                writeln!(out)?;
            }
        }
        writeln!(out, "Parameters: {}", self.start.config())
    }

    fn human_move(&mut self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        if self.pos.outcome().is_some() {
            return writeln!(
                out,
                "error: the game is over ({})",
                render::result(&self.pos)
            );
        }
        match self.pos.parse_legal_move(text) {
            Ok(mv) => {
                let played = self.pos.format_move(mv);
                if self.pos.is_pass(&mv) {
                    let name = self.pos.player_name(self.pos.side_to_move());
                    writeln!(out, "{name} passes")?;
                }
                let captured = self.play(mv);
                if !captured.is_empty() {
                    writeln!(out, "{played} captures {captured}")?;
                }
                // Against the computer the board is drawn once per turn: after its reply.
                let computer_next = self.pos.outcome().is_none()
                    && !self.settings.humans.plays(self.pos.side_to_move())
                    && self.computer.is_some();
                if computer_next {
                    Ok(())
                } else {
                    self.show(out)
                }
            }
            Err(e) => writeln!(out, "error: {e}"),
        }
    }

    /// Plays `mv` and returns the squares it captured, as text (empty if none).
    fn play(&mut self, mv: P::Move) -> String {
        let before = self.pos.clone();
        self.pos.make_move(mv);
        let captured: Vec<String> = board_core::view::captured(&before, &self.pos, mv)
            .into_iter()
            .map(|sq| self.pos.geometry().format_square(sq))
            .collect();
        self.history.push(before);
        self.moves.push(mv);
        self.update_snapshot();
        captured.join(" ")
    }

    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.moves.is_empty() {
            return writeln!(out, "error: nothing to undo: this is the start of the game");
        }
        let humans = self.settings.humans;
        loop {
            let (Some(before), Some(_)) = (self.history.pop(), self.moves.pop()) else {
                break;
            };
            self.pos = before;
            if self.moves.is_empty() || humans.plays(self.pos.side_to_move()) {
                break;
            }
        }
        self.announced = false;
        self.update_snapshot();
        writeln!(out, "Took back to move {}.", self.pos.ply() + 1)?;
        self.show(out)
    }

    /// The computer's move; `false` if it had none to give.
    fn computer_move(&mut self, out: &mut dyn Write, progress: &mut dyn Write) -> io::Result<bool> {
        let mv = match self.think(progress)? {
            Some(Ok(mv)) => mv,
            Some(Err(e)) => {
                writeln!(out, "error: {e}")?;
                return Ok(false);
            }
            None => {
                writeln!(out, "error: no computer player")?;
                return Ok(false);
            }
        };
        let text = self.pos.format_move(mv);
        let name = self.pos.player_name(self.pos.side_to_move());
        let pass = self.pos.is_pass(&mv);
        let captured = self.play(mv);
        if pass {
            writeln!(out, "{name} (computer) passes")?;
        } else if captured.is_empty() {
            writeln!(out, "{name} (computer) plays {text}")?;
        } else {
            writeln!(out, "{name} (computer) plays {text}, capturing {captured}")?;
        }
        self.show(out)?;
        Ok(true)
    }

    /// Runs the computer on the current position, showing its progress as the settings say.
    fn think(
        &mut self,
        progress: &mut dyn Write,
    ) -> io::Result<Option<Result<P::Move, AgentError>>> {
        Ok(self
            .think_scored(progress)?
            .map(|answer| answer.map(|(mv, _, _)| mv)))
    }

    /// The computer's checked move with its score and depth; `None` without a computer
    /// player.
    fn think_scored(&mut self, progress: &mut dyn Write) -> io::Result<Option<Answer<P::Move>>> {
        let Some(agent) = self.computer.as_mut() else {
            return Ok(None);
        };
        let hashes: Vec<u64> = self
            .history
            .iter()
            .map(Rules::hash)
            .chain(std::iter::once(self.pos.hash()))
            .collect();
        agent.set_game_history(&hashes);
        let pos = &self.pos;
        let mode = self.settings.progress;
        let mut failed = None;
        let answer = search::think_checked(agent.as_mut(), pos, &self.settings.limits, &mut |it| {
            let written = match mode {
                Progress::Silent => Ok(()),
                Progress::Line => write!(progress, "\r\x1b[Kthinking… depth {}", it.depth)
                    .and_then(|()| progress.flush()),
                Progress::Verbose => writeln!(
                    progress,
                    "thinking: depth {} score {} nodes {} time {} ms pv {}",
                    it.depth,
                    it.score,
                    it.nodes,
                    it.time.as_millis(),
                    search::format_pv(pos, &it.pv)
                ),
            };
            if let Err(e) = written {
                failed = Some(e);
            }
        });
        if mode == Progress::Line {
            write!(progress, "\r\x1b[K")?;
            progress.flush()?;
        }
        if let Some(e) = failed {
            return Err(e);
        }
        Ok(Some(
            answer.map(|(mv, result)| (mv, result.score, result.depth)),
        ))
    }

    fn hint(&mut self, out: &mut dyn Write, progress: &mut dyn Write) -> io::Result<()> {
        if self.pos.outcome().is_some() {
            return writeln!(
                out,
                "error: the game is over ({})",
                render::result(&self.pos)
            );
        }
        if self.computer.is_none() {
            return writeln!(out, "error: no computer player to ask for a hint");
        }
        match self.think_scored(progress)? {
            Some(Ok((mv, score, depth))) => writeln!(
                out,
                "hint: {} (score {score}, depth {depth})",
                self.pos.format_move(mv)
            ),
            Some(Err(e)) => writeln!(out, "error: {e}"),
            None => writeln!(out, "error: no computer player to ask for a hint"),
        }
    }
}

/// Reads a file of at most [`savefile::MAX_BYTES`] bytes.
pub(crate) fn read_limited(path: &str) -> io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut text = String::new();
    file.take(savefile::MAX_BYTES as u64 + 1)
        .read_to_string(&mut text)?;
    Ok(text)
}

/// The game id of `P`'s spec strings.
pub fn game_id<P: Position>() -> &'static str {
    <P::Config as GameConfig>::GAME_ID
}
