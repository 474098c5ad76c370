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
    /// Ask before `quit` or `restart` throws away a game in progress that is not saved (for
    /// a person at a terminal; scripts are never asked).
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

/// The commands `help` lists (after a line on this game's own notation).
pub const HELP: &str = "\
Commands:
  undo, u      take back to your previous turn (again and again to the start)
  redo         play again what undo took back, one turn at a time
  restart, r   start a new game with the same rules ('undo' at once brings the game back)
  legal [SQ]   mark on the board where legal moves start, or where they go from SQ
  level [N]    the computer's strength, or change it to level N during the game
  moves        the moves of the game so far
  rules        the rules of this game and its parameters
  save FILE    write the game to FILE (at a terminal, asks before replacing a file)
  load FILE    continue the game saved in FILE
  hint         the computer's suggestion and its score
  help         this text
  quit, q      leave
";

/// The computer at one strength: the player, its budget per move, and what to call it
/// (`the engine at 1 s a move`).
pub struct Opponent<P: Position> {
    /// The player.
    pub agent: Box<dyn Agent<P>>,
    /// Its budget per move (and for hints).
    pub limits: Limits,
    /// How it is described to people.
    pub about: String,
}

/// Builds the computer at a level (`1..=count`), for `level N` during a game; an error says
/// why that level cannot be had.
pub type LevelMaker<P> = Box<dyn FnMut(u8) -> Result<Opponent<P>, String>>;

/// The computer's levels a session can switch between.
struct Levels<P: Position> {
    /// Levels are `1..=count`.
    count: u8,
    make: LevelMaker<P>,
}

/// A game set aside by `restart`, brought back by an `undo` right after it.
struct Abandoned<P: Position> {
    history: Vec<P>,
    moves: Vec<P::Move>,
    pos: P,
    saved: Option<usize>,
}

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
    /// Moves taken back by `undo`, the next one to replay last.
    redo: Vec<P::Move>,
    /// The game `restart` set aside, until the next command other than `undo`.
    abandoned: Option<Abandoned<P>>,
    /// How the computer is described (`level 4, the engine at 1 s a move`).
    about: Option<String>,
    /// The levels `level N` switches between, if the caller gave them.
    levels: Option<Levels<P>>,
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
            redo: Vec::new(),
            abandoned: None,
            about: None,
            levels: None,
        }
    }

    /// Lets `level N` change the computer during the game: `make` builds level `N` of
    /// `1..=count`; `about` describes the computer playing now.
    pub fn with_levels(mut self, count: u8, about: impl Into<String>, make: LevelMaker<P>) -> Self {
        self.about = Some(about.into());
        self.levels = Some(Levels { count, make });
        self
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
        self.redo.clear();
        self.abandoned = None;
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

    /// Whether leaving the game now loses something a person would miss: a game still in
    /// progress with moves not saved (a finished game is over whatever happens next).
    fn loses_progress(&self) -> bool {
        self.is_unsaved() && self.pos.outcome().is_none()
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
        // The rules on a line of their own: with the commands' hint they overflowed a
        // 120-column terminal.
        writeln!(out, "{}", self.start.config())?;
        writeln!(out, "Type a move, or 'help' for the commands.")?;
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
        let word = word.to_ascii_lowercase();
        // Only an `undo` straight after `restart` brings the set-aside game back.
        let abandoned = self.abandoned.take();
        match word.as_str() {
            "" => self.abandoned = abandoned,
            "quit" | "exit" | "q" => {
                if !self.settings.confirm
                    || !self.loses_progress()
                    || self.ask(input, out, "The game is not saved. Quit anyway?")?
                {
                    return Ok(Flow::Quit);
                }
            }
            "help" | "?" => {
                writeln!(out, "{}", self.notation_help())?;
                write!(out, "{HELP}")?
            }
            "undo" | "u" => match abandoned {
                Some(game) => self.bring_back(game, out)?,
                None => self.undo(out)?,
            },
            "redo" => self.redo(out)?,
            "restart" | "r" => {
                if self.settings.confirm
                    && self.loses_progress()
                    && !self.ask(input, out, "The game is not saved. Start a new one anyway?")?
                {
                    return Ok(Flow::Continue);
                }
                self.restart(out)?;
            }
            "legal" => self.mark_legal(rest, out)?,
            "level" => self.level(rest, out)?,
            "moves" => self.print_moves(out)?,
            "rules" => self.print_rules(out)?,
            "save" if rest.is_empty() => writeln!(out, "error: save needs a file name")?,
            "save" => {
                // Replacing a file is asked at a terminal; a script is never asked, and
                // never replaces one either.
                if std::path::Path::new(rest).exists() {
                    if !self.settings.confirm {
                        writeln!(
                            out,
                            "error: {rest} exists: not replaced (save under another name)"
                        )?;
                        return Ok(Flow::Continue);
                    }
                    if !self.ask(input, out, &format!("{rest} exists. Replace it?"))? {
                        writeln!(out, "Not saved.")?;
                        return Ok(Flow::Continue);
                    }
                }
                match std::fs::write(rest, self.save_text()) {
                    Ok(()) => {
                        self.saved = Some(self.moves.len());
                        writeln!(out, "Saved {} to {rest}.", moves_phrase(self.moves.len()))?
                    }
                    Err(e) => writeln!(out, "error: cannot write {rest}: {e}")?,
                }
            }
            "load" if rest.is_empty() => writeln!(out, "error: load needs a file name")?,
            "load" => match read_limited(rest) {
                Ok(text) => match self.load_text(&text) {
                    Ok(()) => {
                        writeln!(
                            out,
                            "Loaded {} from {rest}.",
                            moves_phrase(self.moves.len())
                        )?;
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

    /// How to enter a move in this game, with a legal move of the position as the example
    /// (`c3-c4`): only this game's notation, not every game's.
    fn notation_help(&self) -> String {
        let mut moves = Vec::new();
        self.pos.generate_moves(&mut moves);
        let Some(&example) = moves.first() else {
            return "The game is over: no move can be entered.".to_string();
        };
        let text = self.pos.format_move(example);
        let squares = self.pos.move_squares(example).len();
        if squares > 1 {
            let spaced: Vec<String> = self
                .pos
                .move_squares(example)
                .iter()
                .map(|&sq| self.pos.geometry().format_square(sq))
                .collect();
            format!(
                "Enter a move as {} writes it, like {text} (or {}).",
                game_id::<P>(),
                spaced.join(" ")
            )
        } else {
            format!("Enter a move as {} writes it, like {text}.", game_id::<P>())
        }
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
                let captured = self.play_new(mv);
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

    /// Plays `mv` as a new move: what `undo` took back can no longer be replayed.
    fn play_new(&mut self, mv: P::Move) -> String {
        self.redo.clear();
        self.play(mv)
    }

    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.moves.is_empty() {
            return writeln!(out, "error: nothing to undo: this is the start of the game");
        }
        let humans = self.settings.humans;
        loop {
            let (Some(before), Some(mv)) = (self.history.pop(), self.moves.pop()) else {
                break;
            };
            self.pos = before;
            self.redo.push(mv);
            if self.moves.is_empty() || humans.plays(self.pos.side_to_move()) {
                break;
            }
        }
        self.announced = false;
        self.update_snapshot();
        writeln!(out, "Took back to move {}.", self.pos.ply() + 1)?;
        self.show(out)
    }

    /// `redo`: plays again the moves the last `undo`s took back, up to a person's next turn.
    fn redo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.redo.is_empty() {
            return writeln!(out, "error: nothing to redo: no move was taken back");
        }
        let humans = self.settings.humans;
        while let Some(mv) = self.redo.pop() {
            // The stack holds moves of this very line of play, so each is legal here; one
            // that is not means the stack is stale, and it is dropped rather than played.
            if self.pos.validate(&mv).is_err() {
                self.redo.clear();
                return writeln!(out, "error: nothing to redo: the game has changed");
            }
            let captured = self.play(mv);
            if !captured.is_empty() {
                let played = self.history.last().map(|p| p.format_move(mv));
                writeln!(out, "{} captures {captured}", played.unwrap_or_default())?;
            }
            if self.redo.is_empty() || humans.plays(self.pos.side_to_move()) {
                break;
            }
        }
        self.announced = false;
        writeln!(out, "Replayed to move {}.", self.pos.ply() + 1)?;
        self.show(out)
    }

    /// `restart`: a new game with the same rules; the old one is kept until the next
    /// command, so that an `undo` straight away brings it back.
    fn restart(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let pos = std::mem::replace(&mut self.pos, self.start.clone());
        let had_moves = !self.moves.is_empty();
        let old = Abandoned {
            history: std::mem::take(&mut self.history),
            moves: std::mem::take(&mut self.moves),
            pos,
            saved: self.saved.take(),
        };
        self.abandoned = had_moves.then_some(old);
        self.redo.clear();
        self.announced = false;
        if let Some(c) = self.computer.as_mut() {
            c.new_game();
        }
        self.update_snapshot();
        if had_moves {
            writeln!(out, "New game ('undo' brings the last one back).")?;
        } else {
            writeln!(out, "New game.")?;
        }
        self.show(out)
    }

    /// `undo` straight after `restart`: the game set aside comes back as it was.
    fn bring_back(&mut self, game: Abandoned<P>, out: &mut dyn Write) -> io::Result<()> {
        self.history = game.history;
        self.moves = game.moves;
        self.pos = game.pos;
        self.saved = game.saved;
        self.redo.clear();
        self.announced = false;
        if let Some(c) = self.computer.as_mut() {
            c.new_game();
        }
        self.update_snapshot();
        writeln!(
            out,
            "Back to the game before 'restart', at move {}.",
            self.pos.ply() + 1
        )?;
        self.show(out)
    }

    /// `legal`: marks the squares where the side to move's legal moves start; `legal SQ..`
    /// (a square, or the first squares of a move: `d1`, `d1-d7`) marks where the moves
    /// that start so go next.
    fn mark_legal(&self, rest: &str, out: &mut dyn Write) -> io::Result<()> {
        if let Some(reason) = self.pos.outcome_reason() {
            return writeln!(out, "error: the game is over ({reason})");
        }
        let geometry = self.pos.geometry();
        let mut prefix = Vec::new();
        for word in rest
            .split(|c: char| c == '-' || c == '/' || c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            match geometry.parse_square(word) {
                Ok(sq) => prefix.push(sq),
                Err(e) => return writeln!(out, "error: {e}"),
            }
        }
        let mut moves = Vec::new();
        self.pos.generate_moves(&mut moves);
        let mut next: Vec<Square> = Vec::new();
        let mut complete = false;
        for &mv in &moves {
            let squares = self.pos.move_squares(mv);
            let follows = if squares.len() >= prefix.len() && squares[..prefix.len()] == prefix[..]
            {
                match squares.get(prefix.len()) {
                    Some(&sq) => Some(sq),
                    None => {
                        complete = true;
                        None
                    }
                }
            } else {
                self.unordered_next(mv, &squares, &prefix)
            };
            if let Some(sq) = follows
                && !next.contains(&sq)
            {
                next.push(sq);
            }
        }
        let name = self.pos.player_name(self.pos.side_to_move());
        let shown: Vec<String> = prefix
            .iter()
            .map(|&sq| geometry.format_square(sq))
            .collect();
        let shown = shown.join("-");
        if next.is_empty() && !complete {
            return match prefix.is_empty() {
                true => writeln!(out, "error: {name} has no legal move"),
                false => writeln!(out, "error: no legal move of {name} starts with {shown}"),
            };
        }
        next.sort_by_key(|sq| sq.index());
        write!(
            out,
            "{}",
            render::board(&self.pos, &next, self.settings.color)
        )?;
        let listed: Vec<String> = next.iter().map(|&sq| geometry.format_square(sq)).collect();
        let count = next.len();
        let list = if count <= 40 {
            format!(": {}", listed.join(" "))
        } else {
            String::new()
        };
        match (prefix.is_empty(), complete) {
            (true, _) => writeln!(
                out,
                "{name}'s {} legal moves start on the {count} marked squares{list}",
                moves.len()
            ),
            (false, true) if count == 0 => {
                writeln!(out, "{shown} is a whole move: play it as it is")
            }
            (false, true) => writeln!(
                out,
                "{shown} is a whole move, or goes on to one of the {count} marked squares{list}"
            ),
            (false, false) => writeln!(out, "{shown} goes on to the {count} marked squares{list}"),
        }
    }

    /// The square completing `mv` after `prefix` when the game reads `mv`'s squares in that
    /// order too: a Connect6 pair is one move whichever stone is named first, so `legal k10`
    /// shows every partner of k10, not only those after it in the move's own order.
    fn unordered_next(&self, mv: P::Move, squares: &[Square], prefix: &[Square]) -> Option<Square> {
        if prefix.is_empty() || squares.len() != prefix.len() + 1 {
            return None;
        }
        let mut rest: Vec<Square> = squares.to_vec();
        for sq in prefix {
            let at = rest.iter().position(|s| s == sq)?;
            rest.remove(at);
        }
        let other = *rest.first()?;
        let geometry = self.pos.geometry();
        let text: Vec<String> = prefix
            .iter()
            .chain(std::iter::once(&other))
            .map(|&sq| geometry.format_square(sq))
            .collect();
        (self.pos.parse_legal_move(&text.join(" ")).ok() == Some(mv)).then_some(other)
    }

    /// `level`: says how strong the computer is; `level N` changes it for the rest of the
    /// game (the moves so far stay).
    fn level(&mut self, rest: &str, out: &mut dyn Write) -> io::Result<()> {
        let Some(levels) = self.levels.as_mut() else {
            return writeln!(out, "error: the computer's level cannot be changed here");
        };
        let count = levels.count;
        if rest.is_empty() {
            let about = self.about.as_deref().unwrap_or("no computer player");
            return writeln!(
                out,
                "The computer: {about}. 'level N' changes it (1-{count})."
            );
        }
        let level = match rest.parse::<u8>() {
            Ok(n) if (1..=count).contains(&n) => n,
            _ => {
                let shown: String = rest.chars().take(16).collect();
                return writeln!(
                    out,
                    "error: level '{shown}' is out of range: expected 1-{count}"
                );
            }
        };
        match (levels.make)(level) {
            Ok(opponent) => {
                self.computer = Some(opponent.agent);
                self.settings.limits = opponent.limits;
                self.about = Some(opponent.about);
                let about = self.about.as_deref().unwrap_or_default();
                writeln!(out, "The computer is now {about}.")
            }
            Err(e) => writeln!(out, "error: level {level}: {e}"),
        }
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
        let captured = self.play_new(mv);
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
                "hint: {} ({}; looked {depth} plies ahead)",
                self.pos.format_move(mv),
                render::assessment(score)
            ),
            Some(Err(e)) => writeln!(out, "error: {e}"),
            None => writeln!(out, "error: no computer player to ask for a hint"),
        }
    }
}

/// `n` moves with the noun in the right number: `1 move`, `7 moves`.
fn moves_phrase(n: usize) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
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
