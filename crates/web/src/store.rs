//! The game store: every hosted game with its seats, kept in the game server's save files
//! (`<id>.save` in the data directory, the same format and seat comments as
//! `boardlab serve --data`), each change synced to disk before it is acknowledged.
//!
//! A seat is a human holding a secret token, or the server's engine at a [`Level`]. The
//! save file records a token as `# token SEAT TOKEN` and an engine as
//! `# engine SEAT WORD` (a number is the think time in ms, as the server writes it), a
//! resignation as `# resign SEAT`. Moves are appended (and synced) one a line; undo
//! rewrites the file (a new file synced, then renamed over the old one).
//!
//! Every method is a short, synchronous critical section; the web layer calls them off
//! the async executor's threads (`spawn_blocking`) since they write to disk.

use std::{
    collections::BTreeMap,
    fs,
    io::Write,
    path::{Path, PathBuf},
};

use board_core::Player;
use rand::{TryRngCore, rngs::OsRng};
use serde::Serialize;
use tokio::sync::broadcast;

use crate::{
    game::{AnalysisJobs, Answer, Level, Progress, Think, WebGame, create_game, load_game_text},
    view::{BoardView, OutcomeView},
};

/// Most games one board server hosts (as the game server).
pub const MAX_GAMES: usize = protocols::server::MAX_GAMES;
/// Events a game's subscribers may fall behind before they are told to resync.
const EVENT_QUEUE: usize = 64;

/// Who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Nobody (a game server's file with an untaken seat): nobody can move for it.
    Free,
    /// A person, by the secret token.
    Human(String),
    /// The server's engine.
    Engine(Level),
}

/// What the page sends when it creates a game: who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatChoice {
    /// A person: the store makes a secret token for the seat.
    Human,
    /// The server's engine at this level.
    Engine(Level),
}

/// A change a game's followers hear about.
#[derive(Clone, Debug)]
pub enum Event {
    /// The game changed: fetch the state again.
    Changed,
    /// The engine playing `seat` finished an iteration.
    Thinking {
        /// The engine's seat (0 first, 1 second).
        seat: u8,
        /// The iteration it finished.
        progress: Progress,
    },
    /// The engine playing `seat` played `answer`.
    EngineMoved {
        /// The engine's seat (0 first, 1 second).
        seat: u8,
        /// The move it played, with its score and principal variation.
        answer: Answer,
    },
    /// The engine playing `seat` could not move (it failed, or chose an illegal move). The
    /// game waits: nothing is played in its place.
    EngineFailed {
        /// The engine's seat (0 first, 1 second).
        seat: u8,
        /// What went wrong, for the page.
        message: String,
    },
}

/// One hosted game.
pub struct Hosted {
    game: Box<dyn WebGame>,
    seats: [Seat; 2],
    resigned: Option<Player>,
    /// Moves taken back by undo, the next one to redo last.
    redo: Vec<String>,
    /// Bumped by every change: an engine answer for an older version is dropped.
    version: u64,
    /// An engine move is being thought.
    thinking: bool,
    /// The engine's scores (first player's side) by the ply they were thought at.
    evals: BTreeMap<usize, i32>,
    events: broadcast::Sender<Event>,
}

/// A seat for the page.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// `human`, `engine` or `free`.
    pub kind: &'static str,
    /// "engine 1000 ms", "person", ...
    pub label: String,
    /// This connection holds the seat's token.
    pub yours: bool,
}

/// Everything the page shows of a game, for one follower.
#[derive(Clone, Debug, Serialize)]
pub struct GameState {
    /// The game's id in the store.
    pub id: u64,
    /// The canonical spec string.
    pub spec: String,
    /// The game id, the spec's part before `:` (`clamp`).
    pub game: String,
    /// The players' display names (first, second).
    pub names: [&'static str; 2],
    /// Who holds each seat (first, second).
    pub seats: [SeatView; 2],
    /// The moves played, in canonical notation.
    pub moves: Vec<String>,
    /// The board now, with the outcome (a resignation included).
    pub view: BoardView,
    /// Legal moves (games that list them; none when it is not this follower's turn).
    pub legal: Option<Vec<String>>,
    /// This follower may move now.
    pub your_turn: bool,
    /// This follower holds a human seat and a move has been played.
    pub can_undo: bool,
    /// This follower holds a human seat and there are undone moves to redo.
    pub can_redo: bool,
    /// The seat whose engine is thinking.
    pub thinking: Option<u8>,
    /// Engine scores by ply, first player's side.
    pub evals: Vec<(usize, i32)>,
}

/// A new or loaded game's id and the tokens of its human seats.
#[derive(Clone, Debug, Serialize)]
pub struct Created {
    /// The game's id in the store.
    pub id: u64,
    /// The canonical spec string.
    pub spec: String,
    /// The secret token of each human seat (first, second); `None` for an engine's or a
    /// free seat.
    pub tokens: [Option<String>; 2],
}

/// An engine move to think for game `game` at `version`.
pub struct EngineJob {
    /// The game's id in the store.
    pub game: u64,
    /// The game's version when the job was made: an answer for an older version is
    /// dropped.
    pub version: u64,
    /// The engine's seat (the player to move).
    pub seat: Player,
    /// The engine's work, on a snapshot of the position.
    pub think: Box<dyn Think>,
    /// The game's event channel, for the engine's progress.
    pub events: broadcast::Sender<Event>,
}

/// Every hosted game and where they are saved.
pub struct Store {
    games: BTreeMap<u64, Hosted>,
    next_id: u64,
    data: Option<PathBuf>,
    max_games: usize,
}

/// Compares two tokens in time that depends only on their lengths.
pub fn same_token(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let diff = a
        .iter()
        .zip(b)
        .fold(0u8, |acc, (x, y)| acc | std::hint::black_box(x ^ y));
    diff == 0
}

fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| format!("no randomness for a token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn seat_word(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

fn seat_of_word(w: &str) -> Option<Player> {
    match w {
        "first" | "1" => Some(Player::First),
        "second" | "2" => Some(Player::Second),
        _ => None,
    }
}

/// The save file's comment lines for the seats.
fn seat_lines(seats: &[Seat; 2]) -> String {
    let mut out = String::new();
    for p in Player::BOTH {
        match &seats[p.index()] {
            Seat::Free => {}
            Seat::Human(t) => out.push_str(&format!("# token {} {t}\n", seat_word(p))),
            Seat::Engine(l) => {
                out.push_str(&format!("# engine {} {}\n", seat_word(p), l.word()));
            }
        }
    }
    out
}

/// The seats and resignation recorded in a save file's comments.
fn seats_of_save(text: &str) -> ([Seat; 2], Option<Player>) {
    let mut seats = [Seat::Free, Seat::Free];
    let mut resigned = None;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["#", "token", seat, tok] => {
                if let Some(p) = seat_of_word(seat) {
                    seats[p.index()] = Seat::Human(tok.to_string());
                }
            }
            ["#", "engine", seat, word] => {
                if let Some(p) = seat_of_word(seat) {
                    let level = Level::from_word(word)
                        .unwrap_or(Level::Engine(protocols::server::DEFAULT_ENGINE_MS));
                    seats[p.index()] = Seat::Engine(level);
                }
            }
            ["#", "resign", seat] => resigned = seat_of_word(seat),
            _ => {}
        }
    }
    (seats, resigned)
}

/// Writes `text` to `path` through a synced temporary file renamed over it.
fn write_synced(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("save.tmp");
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        if let Some(dir) = path.parent() {
            // Makes the rename durable (not possible on every platform: best effort).
            if let Ok(d) = fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok::<(), std::io::Error>(())
    })();
    result.map_err(|e| format!("cannot save: {e}"))
}

/// Appends `text` to the save file at `path` and syncs it.
fn append_synced(path: &Path, text: &str) -> Result<(), String> {
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot save: {e}"))?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_data())
        .map_err(|e| format!("cannot save: {e}"))
}

impl Hosted {
    fn new(game: Box<dyn WebGame>, seats: [Seat; 2], resigned: Option<Player>) -> Hosted {
        Hosted {
            game,
            seats,
            resigned,
            redo: Vec::new(),
            version: 0,
            thinking: false,
            evals: BTreeMap::new(),
            events: broadcast::channel(EVENT_QUEUE).0,
        }
    }

    /// The result: a resignation, or the rules' outcome.
    fn outcome(&self) -> Option<OutcomeView> {
        if let Some(p) = self.resigned {
            return Some(OutcomeView {
                winner: Some(p.other().index() as u8),
                reason: format!("{} resigned", self.game.player_names()[p.index()]),
                line: Vec::new(),
            });
        }
        self.game.view(None).outcome
    }

    fn over(&self) -> bool {
        self.resigned.is_some() || self.game.outcome().is_some()
    }

    /// The whole save file: header, spec, seats, moves, resignation.
    fn file_text(&self) -> String {
        let moves = self.game.save_text();
        let mut lines = moves.lines();
        let mut out = String::new();
        for l in lines.by_ref().take(2) {
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(&seat_lines(&self.seats));
        for l in lines {
            out.push_str(l);
            out.push('\n');
        }
        if let Some(p) = self.resigned {
            out.push_str(&format!("# resign {}\n", seat_word(p)));
        }
        out
    }

    fn changed(&mut self) {
        self.version += 1;
        let _ = self.events.send(Event::Changed);
    }

    /// The human seats among `held` (the seats whose tokens a follower showed).
    fn humans_held(&self, held: [bool; 2]) -> [bool; 2] {
        [0, 1].map(|i| held[i] && matches!(self.seats[i], Seat::Human(_)))
    }
}

impl Store {
    /// A store saving into `data` (created if missing) with every game found there
    /// restored; unreadable files are skipped with a warning in the returned list.
    pub fn open(data: Option<&Path>) -> std::io::Result<(Store, Vec<String>)> {
        let mut store = Store {
            games: BTreeMap::new(),
            next_id: 1,
            data: data.map(Path::to_path_buf),
            max_games: MAX_GAMES,
        };
        let mut warnings = Vec::new();
        if let Some(dir) = data {
            fs::create_dir_all(dir)?;
            for entry in fs::read_dir(dir)? {
                let path = entry?.path();
                let Some(id) = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_suffix(".save"))
                    .and_then(|n| n.parse::<u64>().ok())
                else {
                    continue;
                };
                let text = match fs::read_to_string(&path) {
                    Ok(t) => t,
                    Err(e) => {
                        warnings.push(format!("{}: {e}", path.display()));
                        continue;
                    }
                };
                match load_game_text(&text) {
                    Ok(game) => {
                        let (seats, resigned) = seats_of_save(&text);
                        store.games.insert(id, Hosted::new(game, seats, resigned));
                        store.next_id = store.next_id.max(id.saturating_add(1));
                    }
                    Err(e) => warnings.push(format!("{}: {e}", path.display())),
                }
            }
        }
        Ok((store, warnings))
    }

    /// Limits the number of games (tests).
    pub fn with_max_games(mut self, n: usize) -> Store {
        self.max_games = n;
        self
    }

    fn path(&self, id: u64) -> Option<PathBuf> {
        self.data.as_deref().map(|d| d.join(format!("{id}.save")))
    }

    fn hosted(&self, id: u64) -> Result<&Hosted, String> {
        self.games.get(&id).ok_or_else(|| format!("no game {id}"))
    }

    fn hosted_mut(&mut self, id: u64) -> Result<&mut Hosted, String> {
        self.games
            .get_mut(&id)
            .ok_or_else(|| format!("no game {id}"))
    }

    /// Ids of every game.
    pub fn ids(&self) -> Vec<u64> {
        self.games.keys().copied().collect()
    }

    fn host(
        &mut self,
        game: Box<dyn WebGame>,
        choices: [SeatChoice; 2],
    ) -> Result<Created, String> {
        if self.games.len() >= self.max_games {
            return Err(format!("too many games (at most {})", self.max_games));
        }
        let mut tokens = [None, None];
        let mut seats = [Seat::Free, Seat::Free];
        for i in 0..2 {
            seats[i] = match choices[i] {
                SeatChoice::Human => {
                    let t = new_token()?;
                    tokens[i] = Some(t.clone());
                    Seat::Human(t)
                }
                SeatChoice::Engine(l) => Seat::Engine(l),
            };
        }
        let id = self.next_id;
        let hosted = Hosted::new(game, seats, None);
        if let Some(path) = self.path(id) {
            write_synced(&path, &hosted.file_text())?;
        }
        self.next_id += 1;
        let spec = hosted.game.spec();
        self.games.insert(id, hosted);
        Ok(Created { id, spec, tokens })
    }

    /// A new game of `spec` with these seats.
    pub fn create(&mut self, spec: &str, seats: [SeatChoice; 2]) -> Result<Created, String> {
        let game = create_game(spec)?;
        self.host(game, seats)
    }

    /// A game from a save file's text (from `play`, `selfplay --records`, the server or
    /// this page), both seats people; a bad file loads nothing and names its first bad
    /// line.
    pub fn load(&mut self, text: &str, seats: [SeatChoice; 2]) -> Result<Created, String> {
        let game = load_game_text(text)?;
        self.host(game, seats)
    }

    /// Which seats of game `id` these tokens hold (each compared in constant time).
    pub fn seats_of(&self, id: u64, tokens: &[String]) -> Result<[bool; 2], String> {
        let h = self.hosted(id)?;
        let mut held = [false, false];
        for t in tokens {
            let mut matched = false;
            for (i, seat) in h.seats.iter().enumerate() {
                if let Seat::Human(s) = seat
                    && same_token(s, t)
                {
                    held[i] = true;
                    matched = true;
                }
            }
            if !matched {
                return Err(format!("wrong token for game {id}"));
            }
        }
        Ok(held)
    }

    /// A receiver of game `id`'s events.
    pub fn subscribe(&self, id: u64) -> Result<broadcast::Receiver<Event>, String> {
        Ok(self.hosted(id)?.events.subscribe())
    }

    /// The state of game `id` for a follower holding the seats `held`.
    pub fn state(&self, id: u64, held: [bool; 2]) -> Result<GameState, String> {
        let h = self.hosted(id)?;
        let mut view = h.game.view(None);
        view.outcome = h.outcome();
        let to_move = h.game.to_move().index();
        let humans = h.humans_held(held);
        let your_turn = !h.over() && humans[to_move];
        let seats = [0, 1].map(|i| match &h.seats[i] {
            Seat::Free => SeatView {
                kind: "free",
                label: "free seat".into(),
                yours: false,
            },
            Seat::Human(_) => SeatView {
                kind: "human",
                label: "person".into(),
                yours: held[i],
            },
            Seat::Engine(l) => SeatView {
                kind: "engine",
                label: l.label(),
                yours: false,
            },
        });
        Ok(GameState {
            id,
            spec: h.game.spec(),
            game: h.game.spec().split(':').next().unwrap_or("").to_string(),
            names: h.game.player_names(),
            seats,
            moves: h.game.moves(),
            view,
            legal: if your_turn { h.game.legal() } else { None },
            your_turn,
            can_undo: humans.iter().any(|&b| b) && h.game.ply() > 0,
            can_redo: humans.iter().any(|&b| b) && !h.redo.is_empty(),
            thinking: h.thinking.then_some(to_move as u8),
            evals: h.evals.iter().map(|(&k, &v)| (k, v)).collect(),
        })
    }

    /// The board of game `id` after its first `ply` moves (replay).
    pub fn view_at(&self, id: u64, ply: usize) -> Result<BoardView, String> {
        let h = self.hosted(id)?;
        if ply > h.game.ply() {
            return Err(format!("game {id} has only {} moves", h.game.ply()));
        }
        Ok(h.game.view(Some(ply)))
    }

    /// The save file of game `id` as a download: the moves, without the seats' tokens.
    pub fn save_text(&self, id: u64) -> Result<String, String> {
        let h = self.hosted(id)?;
        let mut text = h.game.save_text();
        if let Some(p) = h.resigned {
            text.push_str(&format!("# resign {}\n", seat_word(p)));
        }
        Ok(text)
    }

    fn play_checked(&mut self, id: u64, text: &str) -> Result<String, String> {
        let path = self.path(id);
        let h = self.hosted_mut(id)?;
        let canon = h.game.play(text, &mut |canon| match &path {
            Some(p) => append_synced(p, &format!("{canon}\n")),
            None => Ok(()),
        })?;
        Ok(canon)
    }

    /// Plays `text` for the player to move, who must be a human seat in `held`.
    pub fn play(&mut self, id: u64, held: [bool; 2], text: &str) -> Result<String, String> {
        let h = self.hosted(id)?;
        if let Some(o) = h.outcome() {
            return Err(format!("the game is over: {}", o.reason));
        }
        let to_move = h.game.to_move();
        if !h.humans_held(held)[to_move.index()] {
            return Err(format!(
                "not your turn: {} is to move",
                h.game.player_names()[to_move.index()]
            ));
        }
        let canon = self.play_checked(id, text)?;
        let h = self.hosted_mut(id)?;
        h.redo.clear();
        h.changed();
        Ok(canon)
    }

    /// Takes moves back to the previous turn of a human seat in `held` (at least one
    /// move); a resignation is taken back with them.
    pub fn undo(&mut self, id: u64, held: [bool; 2]) -> Result<(), String> {
        let path = self.path(id);
        let h = self.hosted_mut(id)?;
        let humans = h.humans_held(held);
        if !humans.iter().any(|&b| b) {
            return Err("undo needs a seat of yours in this game".into());
        }
        let ply = h.game.ply();
        let target = (0..ply)
            .rev()
            .find(|&p| humans[h.game.to_move_at(p).index()])
            .ok_or("nothing to undo")?;
        let moves = h.game.moves();
        let resigned = h.resigned.take();
        h.game.truncate(target);
        if let Some(path) = &path
            && let Err(e) = write_synced(path, &h.file_text())
        {
            // Put the game back as it is on disk.
            for m in &moves[target..] {
                let _ = h.game.play(m, &mut |_| Ok(()));
            }
            h.resigned = resigned;
            return Err(e);
        }
        h.redo.extend(moves[target..].iter().rev().cloned());
        h.evals.retain(|&p, _| p <= target);
        h.changed();
        Ok(())
    }

    /// Replays undone moves up to the next turn of a human seat in `held`.
    pub fn redo(&mut self, id: u64, held: [bool; 2]) -> Result<(), String> {
        let h = self.hosted(id)?;
        let humans = h.humans_held(held);
        if !humans.iter().any(|&b| b) {
            return Err("redo needs a seat of yours in this game".into());
        }
        if h.redo.is_empty() {
            return Err("nothing to redo".into());
        }
        loop {
            let h = self.hosted_mut(id)?;
            let Some(mv) = h.redo.pop() else { break };
            if let Err(e) = self.play_checked(id, &mv) {
                let h = self.hosted_mut(id)?;
                h.redo.clear();
                h.changed();
                return Err(e);
            }
            let h = self.hosted_mut(id)?;
            if h.redo.is_empty() || h.over() || humans[h.game.to_move().index()] {
                break;
            }
        }
        self.hosted_mut(id)?.changed();
        Ok(())
    }

    /// Resigns for the player to move if that seat is in `held`, else for the one held
    /// seat.
    pub fn resign(&mut self, id: u64, held: [bool; 2]) -> Result<(), String> {
        let path = self.path(id);
        let h = self.hosted_mut(id)?;
        if let Some(o) = h.outcome() {
            return Err(format!("the game is over: {}", o.reason));
        }
        let humans = h.humans_held(held);
        let to_move = h.game.to_move();
        let seat = if humans[to_move.index()] {
            to_move
        } else if humans[to_move.other().index()] {
            to_move.other()
        } else {
            return Err("resigning needs a seat of yours in this game".into());
        };
        if let Some(p) = &path {
            append_synced(p, &format!("# resign {}\n", seat_word(seat)))?;
        }
        h.resigned = Some(seat);
        h.redo.clear();
        h.changed();
        Ok(())
    }

    /// The engine move game `id` needs now, if an engine seat is to move and none is being
    /// thought; marks it as thinking.
    pub fn engine_job(&mut self, id: u64) -> Option<EngineJob> {
        let h = self.games.get_mut(&id)?;
        if h.thinking || h.over() {
            return None;
        }
        let seat = h.game.to_move();
        let Seat::Engine(level) = h.seats[seat.index()] else {
            return None;
        };
        h.thinking = true;
        let _ = h.events.send(Event::Changed);
        Some(EngineJob {
            game: id,
            version: h.version,
            seat,
            think: h.game.think_job(level, h.version ^ id.rotate_left(32)),
            events: h.events.clone(),
        })
    }

    /// Applies the engine's answer thought for game `id` at `version`, if nothing changed
    /// meanwhile. Returns whether the game's engine should be started again: not after a
    /// failed engine, whose game then waits for the people instead of retrying forever.
    pub fn engine_moved(
        &mut self,
        id: u64,
        version: u64,
        seat: Player,
        answer: Result<Answer, String>,
    ) -> bool {
        let Ok(h) = self.hosted_mut(id) else {
            return false;
        };
        h.thinking = false;
        let current = h.version == version && h.game.to_move() == seat && !h.over();
        match (current, answer) {
            (true, Ok(answer)) => {
                let ply = h.game.ply();
                if let Some(s) = &answer.score {
                    h.evals.insert(ply, s.first);
                }
                if self.play_checked(id, &answer.mv).is_ok()
                    && let Ok(h) = self.hosted_mut(id)
                {
                    h.redo.clear();
                    let _ = h.events.send(Event::EngineMoved {
                        seat: seat.index() as u8,
                        answer,
                    });
                    h.changed();
                }
                true
            }
            (true, Err(message)) => {
                let _ = h.events.send(Event::EngineFailed {
                    seat: seat.index() as u8,
                    message,
                });
                false
            }
            (false, _) => {
                let _ = h.events.send(Event::Changed);
                true
            }
        }
    }

    /// A hint for the player to move in game `id`: the engine at `ms` on a snapshot.
    pub fn hint_job(&self, id: u64, ms: u64) -> Result<Box<dyn Think>, String> {
        let h = self.hosted(id)?;
        if let Some(o) = h.outcome() {
            return Err(format!("the game is over: {}", o.reason));
        }
        Ok(h.game.think_job(Level::Engine(ms), h.version))
    }

    /// Engine jobs for the evaluation graph of game `id`: one per position, `ms` each.
    pub fn analysis_jobs(&self, id: u64, ms: u64) -> Result<AnalysisJobs, String> {
        Ok(self.hosted(id)?.game.analysis_jobs(ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("boardlab-web-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn tokens_compare_equal_only_when_identical() {
        assert!(same_token("abc", "abc"));
        assert!(!same_token("abc", "abd"));
        assert!(!same_token("abc", "abcd"));
        let t = new_token().expect("token");
        assert_eq!(t.len(), 32);
        assert_ne!(t, new_token().expect("token"));
    }

    #[test]
    fn games_survive_a_restart_with_seats_moves_and_resignation() {
        let dir = temp_dir("restart");
        let (mut s, _) = Store::open(Some(&dir)).expect("open");
        let c = s
            .create(
                "gomoku:size=9",
                [SeatChoice::Human, SeatChoice::Engine(Level::Engine(100))],
            )
            .expect("create");
        let tok = c.tokens[0].clone().expect("human token");
        assert!(c.tokens[1].is_none());
        let held = s.seats_of(c.id, std::slice::from_ref(&tok)).expect("token");
        assert_eq!(held, [true, false]);
        s.play(c.id, held, "e5").expect("move");
        drop(s);
        let text = fs::read_to_string(dir.join(format!("{}.save", c.id))).expect("file");
        assert!(text.contains(&format!("# token first {tok}")), "{text}");
        assert!(text.contains("# engine second 100"), "{text}");
        let (mut s, warnings) = Store::open(Some(&dir)).expect("reopen");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            s.seats_of(c.id, std::slice::from_ref(&tok)).expect("token"),
            held
        );
        assert_eq!(s.state(c.id, held).expect("state").moves, vec!["e5"]);
        // The engine is to move: not this player's turn.
        assert!(
            s.play(c.id, held, "a1")
                .unwrap_err()
                .contains("not your turn")
        );
        s.resign(c.id, held).expect("resign");
        drop(s);
        let (s, _) = Store::open(Some(&dir)).expect("reopen");
        let o = s
            .state(c.id, held)
            .expect("state")
            .view
            .outcome
            .expect("over");
        assert_eq!(o.winner, Some(1));
        assert!(o.reason.contains("resigned"));
        // The download has no token.
        assert!(!s.save_text(c.id).expect("save").contains(&tok));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn wrong_tokens_are_refused() {
        let (mut s, _) = Store::open(None).expect("open");
        let c = s
            .create("fourshift", [SeatChoice::Human, SeatChoice::Human])
            .expect("create");
        assert!(
            s.seats_of(c.id, &["0".repeat(32)])
                .unwrap_err()
                .contains("wrong token")
        );
        assert_eq!(s.seats_of(c.id, &[]).expect("watcher"), [false, false]);
        assert!(
            s.play(c.id, [false, false], "c3")
                .unwrap_err()
                .contains("not your turn")
        );
    }

    #[test]
    fn undo_goes_back_to_the_humans_turn_and_redo_replays() {
        let dir = temp_dir("undo");
        let (mut s, _) = Store::open(Some(&dir)).expect("open");
        let c = s
            .create("fourshift", [SeatChoice::Human, SeatChoice::Human])
            .expect("create");
        let both = [true, true];
        for m in ["a1", "b1", "c1"] {
            s.play(c.id, both, m).expect("move");
        }
        s.undo(c.id, both).expect("undo");
        assert_eq!(s.state(c.id, both).expect("state").moves, vec!["a1", "b1"]);
        // Only the first seat held: back to the first player's previous turn (ply 0).
        s.undo(c.id, [true, false]).expect("undo");
        assert!(s.state(c.id, both).expect("state").moves.is_empty());
        assert!(s.undo(c.id, both).unwrap_err().contains("nothing to undo"));
        s.redo(c.id, [true, false]).expect("redo");
        assert_eq!(s.state(c.id, both).expect("state").moves, vec!["a1", "b1"]);
        drop(s);
        let (s, _) = Store::open(Some(&dir)).expect("reopen");
        assert_eq!(s.state(c.id, both).expect("state").moves, vec!["a1", "b1"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn bounded_games() {
        let (s, _) = Store::open(None).expect("open");
        let mut s = s.with_max_games(1);
        s.create("gomoku", [SeatChoice::Human; 2]).expect("first");
        let e = s.create("gomoku", [SeatChoice::Human; 2]).unwrap_err();
        assert!(e.contains("too many games"), "{e}");
    }

    #[test]
    fn a_failed_engine_plays_nothing_and_is_reported() {
        let (mut s, _) = Store::open(None).expect("open");
        let c = s
            .create(
                "gomoku:size=9",
                [SeatChoice::Engine(Level::Random), SeatChoice::Human],
            )
            .expect("create");
        let mut events = s.hosted(c.id).expect("hosted").events.subscribe();
        let job = s.engine_job(c.id).expect("engine to move");
        let again = s.engine_moved(c.id, job.version, job.seat, Err("it broke".into()));
        assert!(!again, "a failed engine is not restarted at once");
        assert!(s.state(c.id, [false; 2]).expect("state").moves.is_empty());
        // (Starting the job announced a change first.)
        let failure =
            std::iter::from_fn(|| events.try_recv().ok()).find(|e| !matches!(e, Event::Changed));
        match failure {
            Some(Event::EngineFailed { seat: 0, message }) => assert_eq!(message, "it broke"),
            other => panic!("expected EngineFailed, got {other:?}"),
        }
        // The seat is still the engine's: the next start thinks again.
        assert!(s.engine_job(c.id).is_some());
    }

    #[test]
    fn engine_answers_for_an_old_version_are_dropped() {
        let (mut s, _) = Store::open(None).expect("open");
        let c = s
            .create(
                "gomoku:size=9",
                [SeatChoice::Engine(Level::Random), SeatChoice::Human],
            )
            .expect("create");
        let job = s.engine_job(c.id).expect("engine to move");
        assert!(s.engine_job(c.id).is_none(), "one job at a time");
        let answer = job.think.think(&mut |_| {});
        s.engine_moved(c.id, job.version + 1, job.seat, answer.clone());
        assert!(s.state(c.id, [false; 2]).expect("state").moves.is_empty());
        let job = s.engine_job(c.id).expect("engine to move again");
        s.engine_moved(c.id, job.version, job.seat, answer);
        assert_eq!(s.state(c.id, [false; 2]).expect("state").moves.len(), 1);
    }
}
