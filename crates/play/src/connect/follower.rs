//! The client's own copy of every game it follows: [`Follower`] replays the moves the
//! server sends (canonical notation) with the rules crates, so each line about a game is
//! followed by that game's board drawn from the typed position ([`View`]), the last move
//! marked, and its status; [`Follower::state`] tells the session whose turn it is and who
//! won, as typed values.

use std::collections::BTreeMap;

use crate::render;
use board_core::{
    GameConfig, GameSpec, Outcome, Player, Square,
    view::{View, captured},
};

use boardlab_host::seat_name;
use protocols::lines::quote;

/// Most games the terminal client keeps boards for.
const MAX_FOLLOWED: usize = 1000;

/// Where a followed game stands, as the client's copy has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameState {
    /// Going on, with this seat to move.
    ToMove(Player),
    /// Over.
    Over(Outcome),
}

/// One followed game, whatever the rules.
pub(crate) trait Replica: Send {
    fn spec(&self) -> String;
    fn moves(&self) -> &[String];
    /// Plays `text` if it is legal here; otherwise nothing changes.
    fn play(&mut self, text: &str) -> Result<(), String>;
    fn state(&self) -> GameState;
    fn player_name(&self, p: Player) -> &'static str;
    /// The board (last move marked) and the legend, as lines.
    fn board(&self, color: bool) -> Vec<String>;
    /// The game-specific status items (`on board X 5, O 4`, `place two stones`).
    fn details(&self) -> Vec<String>;
    /// Why the game ended, for people.
    fn reason(&self) -> Option<String>;
    /// The squares the last move captured, in notation (empty if none).
    fn last_captures(&self) -> &[String];
}

struct Typed<P: View> {
    pos: P,
    moves: Vec<String>,
    /// The squares the last move touched (marked on the board).
    marked: Vec<Square>,
    /// What the last move captured.
    captures: Vec<String>,
}

impl<P: View> Replica for Typed<P> {
    fn spec(&self) -> String {
        self.pos.config().to_string()
    }
    fn moves(&self) -> &[String] {
        &self.moves
    }
    fn play(&mut self, text: &str) -> Result<(), String> {
        let mv = self.pos.parse_legal_move(text).map_err(|e| e.to_string())?;
        let before = self.pos.clone();
        self.pos.make_move(mv);
        self.marked = before.move_squares(mv);
        let g = self.pos.geometry();
        self.captures = captured(&before, &self.pos, mv)
            .into_iter()
            .map(|sq| g.format_square(sq))
            .collect();
        self.moves.push(before.format_move(mv));
        Ok(())
    }
    fn state(&self) -> GameState {
        match self.pos.outcome() {
            Some(o) => GameState::Over(o),
            None => GameState::ToMove(self.pos.side_to_move()),
        }
    }
    fn player_name(&self, p: Player) -> &'static str {
        self.pos.player_name(p)
    }
    fn board(&self, color: bool) -> Vec<String> {
        let mut lines: Vec<String> = render::board(&self.pos, &self.marked, color)
            .lines()
            .map(String::from)
            .collect();
        lines.push(render::legend(&self.pos));
        lines
    }
    fn details(&self) -> Vec<String> {
        render::details(&self.pos)
    }
    fn reason(&self) -> Option<String> {
        self.pos.outcome_reason()
    }
    fn last_captures(&self) -> &[String] {
        &self.captures
    }
}

fn start<P: View>(spec: &GameSpec) -> Result<Box<dyn Replica>, String> {
    let config = P::Config::from_spec(spec).map_err(|e| format!("bad game spec: {e}"))?;
    Ok(Box::new(Typed {
        pos: P::new(config),
        moves: Vec::new(),
        marked: Vec::new(),
        captures: Vec::new(),
    }))
}

/// The games whose boards the client can draw, by id: the bundled ones
/// ([`Boards::bundled`], the default) plus any a program adds ([`Boards::with`]). A game
/// the server hosts but that is missing here is played all the same, without its board.
#[derive(Clone)]
pub struct Boards {
    starts: Vec<(&'static str, StartReplica)>,
}

/// A game's [`start`]: its copy from a spec.
type StartReplica = fn(&GameSpec) -> Result<Box<dyn Replica>, String>;

impl Boards {
    /// No games.
    pub fn empty() -> Boards {
        Boards { starts: Vec::new() }
    }

    /// Every bundled game.
    pub fn bundled() -> Boards {
        fn add<P: boardlab_games::Game>(boards: Boards) -> Boards {
            boards.with::<P>()
        }
        boardlab_games::GameId::ALL
            .iter()
            .fold(Boards::empty(), |boards, &id| {
                boardlab_games::with_game!(id, add(boards))
            })
    }

    /// Adds the game `P` (a game with an id already there replaces it).
    pub fn with<P: View>(mut self) -> Boards {
        let id = <P::Config as GameConfig>::GAME_ID;
        self.starts.retain(|(known, _)| *known != id);
        self.starts.push((id, start::<P>));
        self
    }

    /// The game ids, in order.
    pub fn ids(&self) -> Vec<&'static str> {
        self.starts.iter().map(|(id, _)| *id).collect()
    }

    /// A new copy of a game from its spec (as the server names it).
    fn replica(&self, spec: &str) -> Result<Box<dyn Replica>, String> {
        let spec = GameSpec::parse(spec).map_err(|e| format!("bad game spec: {e}"))?;
        let (_, start) = self
            .starts
            .iter()
            .find(|(known, _)| known.eq_ignore_ascii_case(spec.id.trim()))
            .ok_or_else(|| format!("no board for game '{}'", quote(&spec.id, 32)))?;
        start(&spec)
    }
}

impl Default for Boards {
    fn default() -> Boards {
        Boards::bundled()
    }
}

impl std::fmt::Debug for Boards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Boards").field(&self.ids()).finish()
    }
}

/// The terminal client's view of the games it follows (created, joined, watched or
/// shown): it turns server lines into board diagrams.
#[derive(Default)]
pub struct Follower {
    games: BTreeMap<u64, Box<dyn Replica>>,
    /// Boards in colour (a terminal).
    color: bool,
    /// The games it can draw.
    boards: Boards,
}

/// What the client does with one server line.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Followed {
    /// Lines to print after the server's line (a board diagram and whose turn it is).
    pub print: Vec<String>,
    /// Requests to send on the client's own behalf (`show ID` to catch up); the
    /// client does not print their replies, only the board they bring.
    pub ask: Vec<String>,
    /// The game whose board was drawn, if one was.
    pub drawn: Option<u64>,
}

impl Follower {
    /// A follower drawing plain boards.
    pub fn new() -> Follower {
        Follower::default()
    }

    /// A follower drawing boards in colour when `color` is set.
    pub fn with_color(color: bool) -> Follower {
        Follower {
            color,
            ..Follower::default()
        }
    }

    /// The same follower drawing the games of `boards` (instead of the bundled ones).
    pub fn with_boards(mut self, boards: Boards) -> Follower {
        self.boards = boards;
        self
    }

    /// Where game `n` stands, if it is followed.
    pub fn state(&self, n: u64) -> Option<GameState> {
        self.games.get(&n).map(|g| g.state())
    }

    /// The display name of player `p` in game `n` ("Black"), if it is followed.
    pub fn player_name(&self, n: u64, p: Player) -> Option<&'static str> {
        self.games.get(&n).map(|g| g.player_name(p))
    }

    /// Reads one line from the server: a reply to the user's request, or to the
    /// client's own when `auto` (its board is drawn only if it shows something new), or a
    /// pushed `update`.
    pub fn on_line(&mut self, line: &str, auto: bool) -> Followed {
        let w: Vec<&str> = line.split_whitespace().collect();
        let mut out = Followed::default();
        let id = |i: usize| w.get(i).and_then(|t| t.parse::<u64>().ok());
        match w.as_slice() {
            ["ok", "created", _, spec, ..] => {
                if let (Some(n), Ok(game)) = (id(2), self.boards.replica(spec)) {
                    self.follow(n, game, &mut out);
                }
            }
            ["ok", "joined" | "rejoined" | "watching" | "engine", ..] => {
                // A fresh copy from the server, drawn only if it differs from the board
                // known (already drawn).
                if let Some(n) = id(2) {
                    out.ask.push(format!("show {n}"));
                }
            }
            ["ok", "game", _, spec, ..] => {
                let moves = line
                    .split_once(" moves ")
                    .and_then(|(_, m)| m.split_once(" ;"))
                    .map_or("", |(m, _)| m);
                if let (Some(n), Ok(mut game)) = (id(2), self.boards.replica(spec)) {
                    let replayed = moves.split_whitespace().all(|mv| game.play(mv).is_ok());
                    let known = self
                        .games
                        .get(&n)
                        .is_some_and(|g| g.spec() == game.spec() && g.moves() == game.moves());
                    if replayed && !(auto && known) {
                        self.follow(n, game, &mut out);
                    }
                }
            }
            ["update", _, "takeback", ..] => {
                // Moves were taken back: a fresh copy from the server.
                if let Some(n) = id(1) {
                    out.ask.push(format!("show {n}"));
                }
            }
            ["ok", "moved", _, ply, mv, ..] | ["update", _, ply, mv, ..] => {
                let at = usize::from(w[0] == "ok") + 1;
                if let (Some(n), Ok(ply)) = (id(at), ply.parse::<usize>()) {
                    self.moved(n, ply, mv, &mut out);
                }
            }
            _ => {}
        }
        out
    }

    fn follow(&mut self, n: u64, game: Box<dyn Replica>, out: &mut Followed) {
        if self.games.len() >= MAX_FOLLOWED && !self.games.contains_key(&n) {
            return;
        }
        self.games.insert(n, game);
        out.print = self.board_lines(n);
        out.drawn = Some(n);
    }

    fn moved(&mut self, n: u64, ply: usize, mv: &str, out: &mut Followed) {
        let Some(game) = self.games.get_mut(&n) else {
            return;
        };
        let have = game.moves().len();
        if ply <= have {
            // Already seen (a player who also watches gets both).
            return;
        }
        if ply == have + 1 && game.play(mv).is_ok() {
            out.print = self.board_lines(n);
            out.drawn = Some(n);
        } else {
            out.ask.push(format!("show {n}"));
        }
    }

    /// Game `n`'s board (the last move marked), legend and status line:
    /// `game 3 · move 5 · last c4 · Black (first) to move`, or
    /// `game 3 · game over after 9 moves: Black (first) wins: five in a row a1-a5`.
    fn board_lines(&self, n: u64) -> Vec<String> {
        let Some(game) = self.games.get(&n) else {
            return Vec::new();
        };
        let mut lines = game.board(self.color);
        let ply = game.moves().len();
        let mut status = match game.state() {
            GameState::Over(outcome) => {
                let reason = game.reason().unwrap_or_else(|| outcome.to_string());
                let result = match outcome {
                    Outcome::Win(p) => {
                        format!("{} ({}) wins: {reason}", game.player_name(p), seat_name(p))
                    }
                    Outcome::Draw => format!("draw: {reason}"),
                };
                format!("game {n} · game over after {ply} moves: {result}")
            }
            GameState::ToMove(p) => format!(
                "game {n} · move {} · {} ({}) to move",
                ply + 1,
                game.player_name(p),
                seat_name(p)
            ),
        };
        if let Some(last) = game.moves().last() {
            let captures = game.last_captures();
            let played = if captures.is_empty() {
                format!("last {last}")
            } else {
                format!("last {last} captures {}", captures.join(" "))
            };
            lines.push(played);
        }
        if !matches!(game.state(), GameState::Over(_)) {
            for d in game.details() {
                status.push_str(" · ");
                status.push_str(&d);
            }
        }
        lines.push(status);
        lines
    }
}
