//! The game table: every game a host holds, whatever door its players come through,
//! with its seats, followers and engine jobs, kept in the durable save files of
//! [`crate::save`]: the directory is `0700` and locked by one host, files are `0600`,
//! every record carries its integrity trailer and is synced before the change is
//! acknowledged, a takeback rewrites the file atomically, files that do not load are
//! skipped and never overwritten (their ids never reused).
//!
//! A seat is free, a person holding a secret token, or the host's engine at a
//! [`Level`]. What the players may do to each other is the rule of conduct
//! ([`crate::conduct`]): a takeback or a draw between two remote people is an offer the
//! opponent answers; engine help between them only when both turned it on; spectators
//! get analysis once the game is over.
//!
//! A game may have clocks ([`crate::clock`], chosen at creation: [`Table::create_timed`]):
//! the side to move's clock runs while the game is live, both seats are taken and its
//! engines are not paused; [`Table::check_clocks`] (the host's ticker) and every move
//! check it in one place, and a player whose clock ran out loses on time
//! ([`Event::Flagged`]).
//!
//! Every method is a short, synchronous critical section that may write and sync a save
//! file; a door calls it off any async executor's threads. A refused request returns a
//! [`HostError`] and leaves the game as it was. Each change is announced to the game's
//! followers ([`Followers`]) as an [`Event`].

use std::{
    collections::BTreeMap,
    io,
    net::IpAddr,
    path::Path,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant, SystemTime},
};

use board_core::Player;
use boardlab_games::{MoveInfo, Registry};
use serde::Serialize;

use crate::{
    ActionError, Conduct, Consent, Held, Help, HostError, Level, Offer, Seat, ServeOptions, Token,
    clock::{ClockView, Clocks, Now, TimeControl, system_now},
    conduct::{consent, people_held},
    game::{AnalysisJobs, Answer, HostedGame, Progress, Think, create_game, load_game_text},
    limits::{SAVE_RETRY_FIRST, SAVE_RETRY_MAX},
    save::{self, DataDir, Recorded},
    seat::seat_name,
};

/// Who takes a seat when a game is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatChoice {
    /// A person: the table makes a secret token for the seat.
    Human,
    /// The host's engine at this level.
    Engine(Level),
    /// Nobody yet: a person joins it later ([`Table::join`]) or it goes to the engine.
    Free,
}

/// A change a game's followers hear about.
#[derive(Clone, Debug)]
pub enum Event {
    /// The game changed (a move, a takeback, a seat, an offer, a pause...): read its
    /// state again.
    Changed,
    /// A move was played, by a person or the engine: the game has `ply` moves now, the
    /// last `mv` (canonical); `over` is the rules' reason if it ended the game.
    Moved {
        /// Moves played now.
        ply: usize,
        /// The move, in canonical notation.
        mv: String,
        /// The seat that played it.
        by: Player,
        /// Why the game is over, if this move ended it.
        over: Option<String>,
        /// The clocks just after the move (its increment added), in a game with a time
        /// control.
        clock: Option<ClockView>,
    },
    /// The engine playing `seat` finished an iteration.
    Thinking {
        /// The engine's seat.
        seat: Player,
        /// The iteration it finished.
        progress: Progress,
    },
    /// The engine playing `seat` played `answer`.
    EngineMoved {
        /// The engine's seat.
        seat: Player,
        /// The move it played, with its score and principal variation.
        answer: Answer,
    },
    /// The engine playing `seat` could not move (it failed, or chose an illegal move). The
    /// game waits: nothing is played in its place.
    EngineFailed {
        /// The engine's seat.
        seat: Player,
        /// What went wrong.
        message: String,
    },
    /// Moves were taken back: the game has `ply` moves now.
    TakenBack {
        /// Moves left.
        ply: usize,
    },
    /// `seat` resigned; `reason` says who won.
    Resigned {
        /// The seat that resigned.
        seat: Player,
        /// `Black resigned`.
        reason: String,
    },
    /// The players agreed a draw.
    Drawn,
    /// `seat`'s clock ran out: it lost on time (with or without a move tried).
    Flagged {
        /// The seat whose clock ran out.
        seat: Player,
        /// `Black lost on time`.
        reason: String,
    },
    /// The rematch of this finished game was made: game `id`, colours swapped.
    /// `tokens[s]` is the secret token of the new game's seat that the player of this
    /// game's seat `s` holds there (`s.other()`), for a person's seat: a door hands each
    /// one to that seat's player only.
    Rematched {
        /// The new game.
        id: u64,
        /// By this game's seat (first, second): its player's token in the new game.
        tokens: [Option<String>; 2],
    },
    /// An offer waits for the opponent's answer.
    Offered(Offer),
    /// The opponent declined the offer.
    Declined(Offer),
    /// Something the players and watchers should know that is not a change of the game
    /// (an engine move not saved yet, and when it is tried again).
    Notice(String),
    /// The game expired: it is archived and gone from the table.
    Expired,
}

/// A follower's callback, called with each of the game's events in order; it returns
/// whether it still follows (`false`: it is dropped). It is called while the table (or
/// an engine thread) holds locks: it must not block and must not call the table; a door
/// hands the event to its own queue.
pub type Subscriber = Box<dyn FnMut(&Event) -> bool + Send>;

/// The followers of one game: doors of any kind, each by its callback. Cloned into
/// engine jobs, which report their progress without the table's lock.
#[derive(Clone, Default)]
pub struct Followers(Arc<Mutex<Vec<Subscriber>>>);

impl Followers {
    /// Tells every follower; those gone are dropped.
    pub fn send(&self, event: &Event) {
        let mut subs = self.0.lock().unwrap_or_else(|e| e.into_inner());
        subs.retain_mut(|f| f(event));
    }

    fn add(&self, f: Subscriber) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(f);
    }
}

/// One hosted game.
struct Hosted {
    game: HostedGame,
    seats: [Seat; 2],
    resigned: Option<Player>,
    /// The players agreed a draw.
    drawn: bool,
    /// The waiting offer and the players' consent to engine help.
    conduct: Conduct,
    /// The creator's token: pauses and resumes the engines.
    owner: Option<Token>,
    /// The creator paused the engines: no engine move is started.
    paused: bool,
    /// Moves taken back at one screen or against the engine, the next one to redo last.
    redo: Vec<String>,
    /// Bumped by every change: an engine answer for an older version is dropped.
    version: u64,
    /// An engine move is being thought.
    thinking: bool,
    /// Raised to stop the engine move being thought once the game changes under it: a
    /// takeback, a resignation or a flag should not wait for a stale think, and a finished
    /// game should not hold an engine thread.
    think_stop: Arc<AtomicBool>,
    /// The engine's scores (first player's side) by the ply they were thought at.
    evals: BTreeMap<usize, i32>,
    followers: Followers,
    /// The peer address that created the game (the games-per-peer bound); `None` for
    /// games restored from disk or created without one.
    creator: Option<IpAddr>,
    /// When the game last changed (created, a seat taken, a move, ...): the save file's
    /// modification time after a restart. Expiry counts from here.
    last_active: SystemTime,
    /// Failed attempts to save the engine move being applied.
    save_failures: u32,
    /// The rematch made of this finished game, if one was ([`Table::rematch`]).
    rematch: Option<rematch::Made>,
    /// Followers holding no seat, counted while they follow ([`Table::watch`]).
    watchers: lobby::Watchers,
    /// The clocks, if the game has a time control.
    clocks: Option<Clocks>,
    /// The seat whose clock ran out (the game is lost on time).
    flagged: Option<Player>,
    /// The table's time source.
    now: Now,
}

/// What became of an engine's answer ([`Table::engine_moved`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// Played: the game's next engine move may start.
    Played,
    /// The game changed meanwhile (or is gone): the answer was dropped; the game's
    /// engine may start again.
    Stale,
    /// The engine gave no move (or an illegal one): nothing was played, the players were
    /// told, and the game waits for them.
    Failed,
    /// Legal, but its save file could not be written: nothing changed, the players were
    /// told; apply the same answer again after `wait` (doubling on each failure). No
    /// other engine move starts meanwhile.
    NotSaved {
        /// The wait before the next attempt.
        wait: Duration,
    },
}

/// The wait before the `attempt`-th new try to save an engine move (1-based):
/// [`SAVE_RETRY_FIRST`], doubled on each failure up to [`SAVE_RETRY_MAX`].
pub fn save_backoff(attempt: u32) -> Duration {
    let factor = 1u32 << attempt.saturating_sub(1).min(16);
    SAVE_RETRY_FIRST.saturating_mul(factor).min(SAVE_RETRY_MAX)
}

/// A seat as a follower sees it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// `human`, `engine` or `free`.
    pub kind: &'static str,
    /// "engine 1000 ms", "person", ...
    pub label: String,
    /// This follower holds the seat's token.
    pub yours: bool,
    /// This seat's player turned engine help on for this game.
    pub help: bool,
}

/// An offer waiting for the opponent's answer, as a follower sees it.
#[derive(Clone, Debug, Serialize)]
pub struct OfferView {
    /// `takeback`, `draw` or `rematch`.
    pub kind: &'static str,
    /// Who offered (0 first, 1 second).
    pub by: u8,
    /// This follower is the one to answer it.
    pub yours_to_answer: bool,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The winner; `None` a draw.
    pub winner: Option<Player>,
    /// Why: the rules' reason, `Black resigned`, `drawn by agreement`, `Black lost on
    /// time`.
    pub reason: String,
    /// The players (a resignation, an agreed draw) or a clock ended it, not the rules.
    pub by_players: bool,
    /// What ended it.
    pub how: EndKind,
}

/// What ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// The rules (a line, a full board, no legal move...).
    Rules,
    /// This player resigned.
    Resigned(Player),
    /// This player's clock ran out.
    Time(Player),
    /// The players agreed a draw.
    Agreed,
}

/// Everything a follower may know of a game and do in it now (the board itself is the
/// door's to draw from [`Table::game`]).
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// The game's id in the table.
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
    /// How the game ended, a resignation or agreed draw included.
    #[serde(skip)]
    pub ended: Option<Ended>,
    /// Legal moves with their squares (games that list them; none when it is not this
    /// follower's turn): a door draws targets from the squares, never from the text.
    pub legal: Option<Vec<MoveInfo>>,
    /// This follower may move now.
    pub your_turn: bool,
    /// This follower may take moves back (at once, or by asking the opponent).
    pub can_undo: bool,
    /// This follower holds a person's seat and there are moves taken back to redo.
    pub can_redo: bool,
    /// This follower may offer a draw.
    pub can_offer_draw: bool,
    /// This follower may ask for a hint now (the fair-play rule).
    pub can_hint: bool,
    /// This follower may ask for an analysis now (the fair-play rule).
    pub can_analyse: bool,
    /// The offer waiting for an answer.
    pub offer: Option<OfferView>,
    /// The seat whose engine is thinking (0 first, 1 second).
    pub thinking: Option<u8>,
    /// The creator paused the game's engines.
    pub paused: bool,
    /// This follower created the game and may pause or resume its engines.
    pub can_pause: bool,
    /// Engine scores by ply, first player's side.
    pub evals: Vec<(usize, i32)>,
    /// This follower holds a person's seat of this finished game and may ask for a
    /// rematch ([`Table::rematch`]).
    pub can_rematch: bool,
    /// The rematch made of this game, with this follower's seats in it.
    pub rematch: Option<RematchView>,
    /// The clocks, if the game has a time control.
    pub clock: Option<ClockView>,
}

/// A new or loaded game's id and the tokens of its human seats.
#[derive(Clone, Debug, Serialize)]
pub struct Created {
    /// The game's id in the table.
    pub id: u64,
    /// The canonical spec string.
    pub spec: String,
    /// The secret token of each human seat (first, second); `None` for an engine's or a
    /// free seat.
    pub tokens: [Option<String>; 2],
    /// The creator's secret token: with it a follower may pause and resume the game's
    /// engines (an engine-against-engine game included).
    pub owner: String,
}

/// What became of a takeback request or a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proposal {
    /// Carried out at once (at one screen, or against the engine).
    Done,
    /// Asked: the opponent answers ([`Table::answer`]).
    Asked,
}

/// An engine move to think for game `game` at `version`.
pub struct EngineJob {
    /// The game's id in the table.
    pub game: u64,
    /// The game's version when the job was made: an answer for an older version is
    /// dropped.
    pub version: u64,
    /// The engine's seat (the player to move).
    pub seat: Player,
    /// The engine's work, on a snapshot of the position.
    pub think: Box<dyn Think>,
    /// The game's followers, for the engine's progress.
    pub followers: Followers,
    /// A person holds a seat of the game (and waits for this move): it goes before
    /// games between engines in the engine queue.
    pub person_waits: bool,
}

/// Every hosted game and where they are saved.
pub struct Table {
    /// The games that may be created or loaded.
    registry: Registry,
    games: BTreeMap<u64, Hosted>,
    next_id: u64,
    /// The locked data directory (none: in memory only).
    data: Option<DataDir>,
    options: ServeOptions,
    /// Notes for the operator made while hosting (see [`Table::take_notes`]).
    notes: Vec<String>,
    /// Where the clocks read the time.
    now: Now,
}

impl Hosted {
    fn new(
        game: HostedGame,
        recorded: Recorded,
        creator: Option<IpAddr>,
        last_active: SystemTime,
        now: Now,
    ) -> Hosted {
        let clocks = recorded.time.map(|tc| {
            // Each move's time, charged to the player who made it.
            let used = (1..=game.ply())
                .map(|ply| {
                    let time = recorded.used.get(&ply).copied().unwrap_or_default();
                    (game.to_move_at(ply - 1), time)
                })
                .collect();
            let mut clocks = Clocks::new(tc, used);
            if let Some(p) = recorded.flagged {
                clocks.ran_out(p);
            }
            clocks
        });
        let mut hosted = Hosted {
            game,
            seats: recorded.seats,
            resigned: recorded.resigned,
            drawn: recorded.drawn,
            conduct: Conduct {
                offer: None,
                help: recorded.help,
            },
            owner: recorded.owner,
            paused: recorded.paused,
            redo: Vec::new(),
            version: 0,
            thinking: false,
            think_stop: Arc::default(),
            evals: BTreeMap::new(),
            followers: Followers::default(),
            creator,
            last_active,
            save_failures: 0,
            rematch: None,
            watchers: lobby::Watchers::default(),
            clocks,
            flagged: recorded.flagged,
            now,
        };
        hosted.sync_clock();
        hosted
    }

    /// Starts or stops the clock of the player to move: it runs while the game is live,
    /// both seats are taken and the creator has not paused the game.
    fn sync_clock(&mut self) {
        let free = self.seats.iter().any(|s| matches!(s, Seat::Free));
        let runs = !self.over() && !self.paused && !free;
        let (now, to_move) = ((self.now)(), self.game.to_move());
        if let Some(c) = &mut self.clocks {
            if runs {
                c.run(to_move, now);
            } else {
                c.halt(now);
            }
        }
    }

    /// The result: a resignation, a draw agreed, or the rules' outcome.
    fn ended(&self) -> Option<Ended> {
        if let Some(p) = self.flagged {
            return Some(Ended {
                winner: Some(p.other()),
                reason: format!("{} lost on time", self.game.player_names()[p.index()]),
                by_players: true,
                how: EndKind::Time(p),
            });
        }
        if let Some(p) = self.resigned {
            return Some(Ended {
                winner: Some(p.other()),
                reason: format!("{} resigned", self.game.player_names()[p.index()]),
                by_players: true,
                how: EndKind::Resigned(p),
            });
        }
        if self.drawn {
            return Some(Ended {
                winner: None,
                reason: "drawn by agreement".into(),
                by_players: true,
                how: EndKind::Agreed,
            });
        }
        let (winner, reason) = self.game.outcome()?;
        Some(Ended {
            winner,
            reason,
            by_players: false,
            how: EndKind::Rules,
        })
    }

    /// Refused if the game is over.
    fn live(&self) -> Result<(), HostError> {
        match self.ended() {
            Some(e) => Err(HostError::Over(e.reason)),
            None => Ok(()),
        }
    }

    fn over(&self) -> bool {
        self.flagged.is_some()
            || self.resigned.is_some()
            || self.drawn
            || self.game.outcome().is_some()
    }

    fn recorded(&self) -> Recorded {
        Recorded {
            time: self.clocks.as_ref().map(Clocks::control),
            flagged: self.flagged,
            used: Default::default(),
            seats: self.seats.clone(),
            resigned: self.resigned,
            drawn: self.drawn,
            help: self.conduct.help,
            owner: self.owner.clone(),
            paused: self.paused,
        }
    }

    fn owned_by(&self, tokens: &[String]) -> bool {
        self.owner
            .as_ref()
            .is_some_and(|o| tokens.iter().any(|t| o.matches(t)))
    }

    fn has_engine(&self) -> bool {
        self.seats.iter().any(|s| matches!(s, Seat::Engine(_)))
    }

    /// The whole save file, as records: the engine's scores of the positions reached
    /// so far included (a takeback's rewrite drops the later ones).
    fn file_records(&self) -> Vec<String> {
        let mut records = save::file_records(&self.game.save_text(), &self.recorded());
        let scores = self.evals.range(..=self.game.ply());
        records.extend(scores.map(|(&ply, &score)| save::eval_record(ply, score)));
        if let Some(c) = &self.clocks {
            let used = c.used().iter().enumerate();
            records.extend(used.map(|(i, &(_, time))| save::used_record(i + 1, time)));
        }
        records
    }

    /// The position changed (a move, a takeback, an end by the players): an engine
    /// answer thought before is stale; the followers hear of it.
    fn changed(&mut self) {
        self.version += 1;
        self.think_stop.store(true, Ordering::Relaxed);
        self.announce();
    }

    /// Something the followers see changed but not the position (a seat taken, an offer,
    /// a consent, a pause): an engine answer being thought stays good.
    fn announce(&mut self) {
        self.last_active = SystemTime::now();
        self.sync_clock();
        self.followers.send(&Event::Changed);
    }

    /// The ply a takeback by the person seats `humans` returns to: that of their
    /// previous turn.
    fn takeback_target(&self, humans: [bool; 2]) -> Option<usize> {
        (0..self.game.ply())
            .rev()
            .find(|&p| humans[self.game.to_move_at(p).index()])
    }
}

#[path = "rematch.rs"]
mod rematch;
pub use rematch::RematchView;
#[path = "lobby.rs"]
mod lobby;
pub use lobby::{LobbyEntry, Watching};

fn save_error(e: impl std::fmt::Display) -> HostError {
    HostError::Save(e.to_string())
}

impl Table {
    /// A table saving into `data` with every game found there restored. The directory is
    /// created `0700` if missing (tightened if others may read it) and locked: a second
    /// host on it is refused, naming the first one's pid. Files that cannot be loaded
    /// are skipped, never touched, and their ids never reused; the returned notes name
    /// each with the reason, and each change made (modes tightened, a torn last record
    /// cut).
    pub fn open(data: Option<&Path>) -> io::Result<(Table, Vec<String>)> {
        Table::open_with(data, Registry::bundled())
    }

    /// [`Table::open`] hosting the games of `registry` (the bundled ones and a user's
    /// own, [`Registry::with`]).
    pub fn open_with(data: Option<&Path>, registry: Registry) -> io::Result<(Table, Vec<String>)> {
        Table::open_with_options(data, registry, ServeOptions::default())
    }

    /// [`Table::open_with`] under the limits and expiry times of `options`.
    pub fn open_with_options(
        data: Option<&Path>,
        registry: Registry,
        options: ServeOptions,
    ) -> io::Result<(Table, Vec<String>)> {
        Table::open_with_clock(data, registry, options, system_now())
    }

    /// [`Table::open_with_options`] with the clocks reading the time from `now` (tests
    /// move it by hand). The clocks of restored games start again at `now()`: the time
    /// the host was down is not charged to anyone.
    pub fn open_with_clock(
        data: Option<&Path>,
        registry: Registry,
        options: ServeOptions,
        now: Now,
    ) -> io::Result<(Table, Vec<String>)> {
        let mut table = Table {
            registry,
            games: BTreeMap::new(),
            next_id: 1,
            data: None,
            options,
            notes: Vec::new(),
            now,
        };
        let mut notes = Vec::new();
        if let Some(dir) = data {
            let (locked, more) = DataDir::open(dir)?;
            notes.extend(more);
            let scan = save::scan(dir)?;
            notes.extend(scan.notes);
            table.next_id = scan.next_id;
            for (id, path) in scan.games {
                let loaded = save::read_game(&path).and_then(|(text, more)| {
                    let game = load_game_text(&table.registry, &text).map_err(|e| e.to_string())?;
                    let mut recorded = save::recorded(&text);
                    recorded.used = save::used_times(&text);
                    Ok((game, recorded, save::evals(&text), more))
                });
                match loaded {
                    Ok((game, recorded, mut evals, more)) => {
                        // Scores of positions past the last move are no score of this game.
                        evals.retain(|&ply, _| ply <= game.ply());
                        notes.extend(more);
                        let touched = std::fs::metadata(&path)
                            .and_then(|m| m.modified())
                            .unwrap_or_else(|_| SystemTime::now());
                        let now = Arc::clone(&table.now);
                        let mut hosted = Hosted::new(game, recorded, None, touched, now);
                        hosted.evals = evals;
                        table.games.insert(id, hosted);
                    }
                    Err(e) => notes.push(format!("{}: skipped: {e}", path.display())),
                }
            }
            table.data = Some(locked);
        }
        Ok((table, notes))
    }

    /// The games that may be created or loaded here.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Limits the number of games.
    pub fn with_max_games(mut self, n: usize) -> Table {
        self.options.max_games = n;
        self
    }

    /// The limits and expiry times, to change them from now on.
    pub fn options_mut(&mut self) -> &mut ServeOptions {
        &mut self.options
    }

    /// The limits and expiry times in force.
    pub fn options(&self) -> &ServeOptions {
        &self.options
    }

    /// Takes the notes for the operator made while hosting: games expired to make room,
    /// engine moves that failed or whose save failed.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// Adds a note for the operator.
    pub fn push_note(&mut self, note: String) {
        self.notes.push(note);
    }

    fn hosted(&self, id: u64) -> Result<&Hosted, HostError> {
        self.games.get(&id).ok_or(HostError::NoGame(id))
    }

    fn hosted_mut(&mut self, id: u64) -> Result<&mut Hosted, HostError> {
        self.games.get_mut(&id).ok_or(HostError::NoGame(id))
    }

    /// Appends `records` to game `id`'s save file and syncs it (nothing in memory only).
    fn append(&self, id: u64, records: &[&str]) -> Result<(), HostError> {
        let path = self.data.as_ref().map(|d| d.game(id));
        save::append(path.as_deref(), records).map_err(HostError::Save)
    }

    /// Ids of every game.
    pub fn ids(&self) -> Vec<u64> {
        self.games.keys().copied().collect()
    }

    /// Game `id` itself, for a door that draws it.
    pub fn game(&self, id: u64) -> Result<&HostedGame, HostError> {
        Ok(&self.hosted(id)?.game)
    }

    fn host(
        &mut self,
        game: HostedGame,
        choices: [SeatChoice; 2],
        peer: Option<IpAddr>,
        clocks: save::ClockRecords,
        ending: save::Ending,
    ) -> Result<Created, HostError> {
        let mine = |t: &Table| {
            peer.map_or(0, |p| {
                t.games.values().filter(|h| h.creator == Some(p)).count()
            })
        };
        let (most, per_peer) = (self.options.max_games, self.options.max_games_per_peer);
        if self.games.len() >= most || mine(self) >= per_peer {
            // Expired games make room first.
            let notes = self.expire(SystemTime::now());
            self.notes.extend(notes);
        }
        if self.games.len() >= most {
            return Err(HostError::TooManyGames(most));
        }
        if let Some(peer) = peer
            && mine(self) >= per_peer
        {
            return Err(HostError::TooManyGamesFrom {
                peer,
                most: per_peer,
            });
        }
        let owner = Token::generate().map_err(HostError::Randomness)?;
        let mut recorded = Recorded {
            owner: Some(owner.clone()),
            time: clocks.time,
            used: clocks.used,
            flagged: clocks.flagged,
            resigned: ending.resigned,
            drawn: ending.drawn,
            ..Recorded::default()
        };
        let mut tokens = [None, None];
        for i in 0..2 {
            recorded.seats[i] = match choices[i] {
                SeatChoice::Human => {
                    let t = Token::generate().map_err(HostError::Randomness)?;
                    tokens[i] = Some(t.as_str().to_string());
                    Seat::Person(t)
                }
                SeatChoice::Engine(l) => Seat::Engine(l),
                SeatChoice::Free => Seat::Free,
            };
        }
        let now = Arc::clone(&self.now);
        let hosted = Hosted::new(game, recorded, peer, SystemTime::now(), now);
        let id = self.new_id(&hosted.file_records())?;
        let spec = hosted.game.spec();
        self.games.insert(id, hosted);
        Ok(Created {
            id,
            spec,
            tokens,
            owner: owner.as_str().to_string(),
        })
    }

    /// The next free game id, its save file created with `records`: a name that exists
    /// (a file the start-up skipped) is never overwritten but passed over.
    fn new_id(&mut self, records: &[String]) -> Result<u64, HostError> {
        const ATTEMPTS: usize = 64;
        for _ in 0..ATTEMPTS {
            let id = self.next_id;
            self.next_id = id
                .checked_add(1)
                .ok_or_else(|| save_error("no game id left"))?;
            let Some(dir) = &self.data else {
                return Ok(id);
            };
            let path = dir.game(id);
            match save::create_records(&path, records) {
                Ok(()) => return Ok(id),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    self.notes.push(format!(
                        "{} exists: game id {id} passed over",
                        path.display()
                    ));
                }
                Err(e) => return Err(save_error(e)),
            }
        }
        Err(save_error(format!(
            "{ATTEMPTS} game file names in a row exist"
        )))
    }

    /// A new game of `spec` with these seats.
    pub fn create(&mut self, spec: &str, seats: [SeatChoice; 2]) -> Result<Created, HostError> {
        self.create_for(spec, seats, None)
    }

    /// [`Table::create`] for a connection from `peer`: at most
    /// [`ServeOptions::max_games_per_peer`] live games of one peer address.
    pub fn create_for(
        &mut self,
        spec: &str,
        seats: [SeatChoice; 2],
        peer: Option<IpAddr>,
    ) -> Result<Created, HostError> {
        self.create_timed(spec, seats, peer, None)
    }

    /// [`Table::create_for`] under the time control `time` (`None`: no clocks). The
    /// first player's clock starts once both seats are taken.
    pub fn create_timed(
        &mut self,
        spec: &str,
        seats: [SeatChoice; 2],
        peer: Option<IpAddr>,
        time: Option<TimeControl>,
    ) -> Result<Created, HostError> {
        let game = create_game(&self.registry, spec)?;
        self.host(
            game,
            seats,
            peer,
            save::ClockRecords::fresh(time),
            save::Ending::default(),
        )
    }

    /// A game from a save file's text (from `play`, `selfplay --records`, a host or a
    /// page); a bad file loads nothing and names its first bad line.
    ///
    /// A file with clocks (`# time`, `# used`, `# flag`) loads with them, as a restart
    /// restores them: the clocks where they were after the last move, the turn in
    /// progress starting afresh once both seats are taken, and a game lost on time
    /// finished.
    pub fn load(&mut self, text: &str, seats: [SeatChoice; 2]) -> Result<Created, HostError> {
        let game = load_game_text(&self.registry, text)?;
        let mut clocks = save::clock_records(text).map_err(HostError::BadSave)?;
        // Times of plies past the last move are no time of this game (as at start-up).
        clocks.used.retain(|&ply, _| ply <= game.ply());
        let ending = save::ending_records(text).map_err(HostError::BadSave)?;
        // The players end only a game the rules have not ended, and only once.
        if ending.resigned.is_some() || ending.drawn {
            let record = match ending.resigned {
                Some(p) => save::resign_record(p),
                None => save::DRAW_RECORD.to_string(),
            };
            let why = if game.outcome().is_some() {
                Some("the rules ended the game")
            } else if clocks.flagged.is_some() {
                Some("the game was lost on time")
            } else {
                None
            };
            if let Some(why) = why {
                return Err(HostError::BadSave(format!("'{record}': {why}")));
            }
        }
        if let Some(seat) = clocks.flagged {
            // A clock falls only on the player to move of a game still going.
            let to_move = game.to_move();
            let why = if game.outcome().is_some() {
                Some("the rules ended the game".to_string())
            } else if seat != to_move {
                Some(format!("{} is to move", seat_name(to_move)))
            } else {
                None
            };
            if let Some(why) = why {
                return Err(HostError::BadSave(format!(
                    "'# flag {}': no clock ran out there: {why}",
                    seat_name(seat)
                )));
            }
        }
        let mut evals = save::evals(text);
        evals.retain(|&ply, _| ply <= game.ply());
        let created = self.host(game, seats, None, clocks, ending)?;
        // The file's engine scores (a page's save file) are kept with the new game.
        let records: Vec<String> = evals
            .iter()
            .map(|(&ply, &score)| save::eval_record(ply, score))
            .collect();
        let lines: Vec<&str> = records.iter().map(String::as_str).collect();
        if !lines.is_empty()
            && let Err(e) = self.append(created.id, &lines)
        {
            self.notes.push(format!(
                "game {}: the loaded file's engine scores are not saved: {e}",
                created.id
            ));
        }
        self.hosted_mut(created.id)?.evals = evals;
        Ok(created)
    }

    /// Which seats of game `id` these tokens hold (each compared in constant time); the
    /// creator's token holds no seat ([`Table::owns`]). Any other token is refused.
    pub fn seats_of(&self, id: u64, tokens: &[String]) -> Result<Held, HostError> {
        let h = self.hosted(id)?;
        let mut held = [false, false];
        for t in tokens {
            let mut matched = h.owned_by(std::slice::from_ref(t));
            for (i, seat) in h.seats.iter().enumerate() {
                if seat.token_matches(t) {
                    held[i] = true;
                    matched = true;
                }
            }
            if !matched {
                return Err(HostError::WrongToken(id));
            }
        }
        Ok(held)
    }

    /// The seat of game `id` whose token `token` is (compared in constant time).
    pub fn seat_of_token(&self, id: u64, token: &str) -> Result<Player, HostError> {
        let h = self.hosted(id)?;
        Player::BOTH
            .into_iter()
            .find(|p| h.seats[p.index()].token_matches(token))
            .ok_or(HostError::WrongToken(id))
    }

    /// Archives every game untouched for longer than its expiry at `now` (finished:
    /// [`ServeOptions::finished_expiry`], unfinished: [`ServeOptions::abandoned_expiry`]):
    /// its save file moves to the archive, its followers hear [`Event::Expired`], and it
    /// is gone from the table (its id never reused). A note for each game.
    pub fn expire(&mut self, now: SystemTime) -> Vec<String> {
        let (finished, abandoned) = (self.options.finished_expiry, self.options.abandoned_expiry);
        let due: Vec<u64> = self
            .games
            .iter()
            .filter(|(_, h)| {
                let idle = now.duration_since(h.last_active).unwrap_or(Duration::ZERO);
                idle >= if h.over() { finished } else { abandoned }
            })
            .map(|(&n, _)| n)
            .collect();
        let mut notes = Vec::new();
        for n in due {
            if let Some(dir) = &self.data {
                match save::archive(dir.path(), n) {
                    Ok(to) => notes.push(format!("game {n} expired: archived as {}", to.display())),
                    Err(e) => {
                        notes.push(format!(
                            "game {n} expired but was kept: cannot archive: {e}"
                        ));
                        continue;
                    }
                }
            } else {
                notes.push(format!("game {n} expired"));
            }
            if let Some(h) = self.games.remove(&n) {
                h.think_stop.store(true, Ordering::Relaxed);
                h.followers.send(&Event::Expired);
            }
        }
        notes
    }

    /// Whether one of `tokens` is the creator's token of game `id`.
    pub fn owns(&self, id: u64, tokens: &[String]) -> bool {
        self.games.get(&id).is_some_and(|h| h.owned_by(tokens))
    }

    /// A person takes the free `seat` of game `id`: its new secret token, recorded in
    /// the save file before it is handed out. Refused once the game is over (whatever the
    /// door: a finished game has nobody left to play; its followers watch).
    pub fn join(&mut self, id: u64, seat: Player) -> Result<String, HostError> {
        self.hosted(id)?.live()?;
        self.check_free(id, seat)?;
        let token = Token::generate().map_err(HostError::Randomness)?;
        let taken = Seat::Person(token.clone());
        self.take_seat(id, seat, taken)?;
        Ok(token.as_str().to_string())
    }

    /// The host's engine at `level` takes the free `seat` of game `id` (recorded in the
    /// save file); refused once the game is over.
    pub fn seat_engine(&mut self, id: u64, seat: Player, level: Level) -> Result<(), HostError> {
        self.hosted(id)?.live()?;
        self.check_free(id, seat)?;
        self.take_seat(id, seat, Seat::Engine(level))
    }

    fn check_free(&self, id: u64, seat: Player) -> Result<(), HostError> {
        let by = match &self.hosted(id)?.seats[seat.index()] {
            Seat::Free => return Ok(()),
            Seat::Person(_) => "(reconnect with rejoin and its token)",
            Seat::Engine(_) => "by the engine",
        };
        Err(HostError::SeatTaken { id, seat, by })
    }

    fn take_seat(&mut self, id: u64, seat: Player, taken: Seat) -> Result<(), HostError> {
        if let Some(record) = save::seat_record(seat, &taken) {
            self.append(id, &[&record])?;
        }
        let h = self.hosted_mut(id)?;
        h.seats[seat.index()] = taken;
        h.announce();
        Ok(())
    }

    /// The creator (`owner`) pauses (`on`) or resumes game `id`'s engines: while paused no
    /// engine move starts (one being thought is still played). Recorded in the save
    /// file, so a restart keeps it.
    pub fn pause(&mut self, id: u64, owner: bool, on: bool) -> Result<(), HostError> {
        let h = self.hosted(id)?;
        if !owner {
            return Err(HostError::NotCreator);
        }
        if !h.has_engine() {
            return Err(HostError::NoEngine(id));
        }
        if h.paused == on {
            return Ok(());
        }
        self.append(id, &[&save::paused_record(on)])?;
        let h = self.hosted_mut(id)?;
        h.paused = on;
        h.announce();
        Ok(())
    }

    /// `f` follows game `id` from now on: it hears each of its events.
    pub fn subscribe(&self, id: u64, f: Subscriber) -> Result<(), HostError> {
        self.hosted(id)?.followers.add(f);
        Ok(())
    }

    /// The state of game `id` for a follower holding the seats `held`.
    pub fn state(&self, id: u64, held: Held) -> Result<Status, HostError> {
        self.state_for(id, held, false)
    }

    /// [`Table::state`] for a follower who may also hold the creator's token (`owner`).
    pub fn state_for(&self, id: u64, held: Held, owner: bool) -> Result<Status, HostError> {
        let h = self.hosted(id)?;
        let ended = h.ended();
        let reason = ended.as_ref().map(|o| o.reason.clone());
        let to_move = h.game.to_move().index();
        let humans = people_held(&h.seats, held);
        let person = humans.iter().any(|&b| b);
        let your_turn = !h.over() && humans[to_move];
        let at_once = consent(&h.seats, held, "") == Ok(Consent::Now);
        let seats = [0, 1].map(|i| SeatView {
            kind: match &h.seats[i] {
                Seat::Free => "free",
                Seat::Person(_) => "human",
                Seat::Engine(_) => "engine",
            },
            label: match &h.seats[i] {
                Seat::Free => "free seat".into(),
                Seat::Person(_) => "person".into(),
                Seat::Engine(l) => l.label(),
            },
            yours: humans[i],
            help: h.conduct.help[i],
        });
        let allowed = |help| {
            h.conduct
                .help_allowed(&h.seats, held, reason.as_deref(), help)
                .is_ok()
        };
        let spec = h.game.spec();
        Ok(Status {
            id,
            game: spec.split(':').next().unwrap_or("").to_string(),
            spec,
            names: h.game.player_names(),
            seats,
            moves: h.game.moves(),
            ended,
            legal: if your_turn { h.game.legal() } else { None },
            your_turn,
            can_undo: person
                && h.takeback_target(humans).is_some()
                && (at_once || !h.over())
                && h.conduct.offer.is_none(),
            can_redo: person && at_once && !h.redo.is_empty(),
            can_offer_draw: person
                && !h.over()
                && h.conduct.offer.is_none()
                && h.seats.iter().all(Seat::is_person),
            can_hint: allowed(Help::Hint),
            can_analyse: allowed(Help::Analysis),
            offer: h.conduct.offer.map(|o| OfferView {
                kind: o.kind(),
                by: o.by().index() as u8,
                yours_to_answer: humans[o.by().other().index()],
            }),
            thinking: h.thinking.then_some(to_move as u8),
            paused: h.paused,
            can_pause: owner && h.has_engine() && !h.over(),
            evals: h.evals.iter().map(|(&k, &v)| (k, v)).collect(),
            // Not while this follower's own rematch offer waits for the answer.
            can_rematch: person
                && h.over()
                && !matches!(h.conduct.offer, Some(Offer::Rematch { by }) if humans[by.index()]),
            rematch: h.rematch.as_ref().map(|r| r.view_for(humans, owner)),
            clock: h.clocks.as_ref().map(|c| c.view((self.now)())),
        })
    }

    /// The time now, as the clocks read it.
    pub fn now(&self) -> Instant {
        (self.now)()
    }

    /// Flags every player whose clock has run out at `now` (the host's ticker calls it
    /// between moves; a move checks its own game first): each such game is lost on
    /// time, recorded in its save file, and its followers hear [`Event::Flagged`]. The
    /// ids of the games that ended.
    pub fn check_clocks(&mut self, now: Instant) -> Vec<u64> {
        let due: Vec<u64> = self
            .games
            .iter()
            .filter(|(_, h)| {
                !h.over()
                    && h.clocks
                        .as_ref()
                        .is_some_and(|c| c.out_of_time(now).is_some())
            })
            .map(|(&id, _)| id)
            .collect();
        due.into_iter()
            .filter(|&id| self.flag_if_due(id, now).unwrap_or(false))
            .collect()
    }

    /// The one place a flag falls: if the clock of game `id`'s player to move has run
    /// out at `now`, the game is lost on time (recorded, then announced). Whether it
    /// fell now. A record that cannot be saved is told to the operator; the game still
    /// ends (the time is gone whether or not the disk takes the record).
    fn flag_if_due(&mut self, id: u64, now: Instant) -> Result<bool, HostError> {
        let h = self.hosted(id)?;
        if h.over() {
            return Ok(false);
        }
        let Some(seat) = h.clocks.as_ref().and_then(|c| c.out_of_time(now)) else {
            return Ok(false);
        };
        if let Err(e) = self.append(id, &[&save::flag_record(seat)]) {
            self.notes
                .push(format!("game {id}: the loss on time is not saved: {e}"));
        }
        let h = self.hosted_mut(id)?;
        h.flagged = Some(seat);
        h.redo.clear();
        h.conduct.moved();
        let reason = h.ended().map(|e| e.reason).unwrap_or_default();
        h.followers.send(&Event::Flagged { seat, reason });
        h.changed();
        Ok(true)
    }

    /// Checks that game `id` has at least `ply` moves (to draw its board then).
    pub fn check_ply(&self, id: u64, ply: usize) -> Result<(), HostError> {
        let moves = self.hosted(id)?.game.ply();
        if ply > moves {
            return Err(HostError::PastTheEnd { id, moves });
        }
        Ok(())
    }

    /// The save file of game `id` as a download: the moves, without the seats' tokens.
    pub fn save_text(&self, id: u64) -> Result<String, HostError> {
        let h = self.hosted(id)?;
        let mut text = h.game.save_text();
        if let Some(p) = h.resigned {
            text.push_str(&save::resign_record(p));
            text.push('\n');
        }
        if h.drawn {
            text.push_str(save::DRAW_RECORD);
            text.push('\n');
        }
        // The engine's scores go with the game: a loaded copy draws the same graph.
        for (&ply, &score) in &h.evals {
            text.push_str(&save::eval_record(ply, score));
            text.push('\n');
        }
        // The clocks go with the game: a loaded copy is played on them.
        if let Some(c) = &h.clocks {
            text.push_str(&save::time_record(c.control()));
            text.push('\n');
            for (i, &(_, time)) in c.used().iter().enumerate() {
                text.push_str(&save::used_record(i + 1, time));
                text.push('\n');
            }
        }
        if let Some(p) = h.flagged {
            text.push_str(&save::flag_record(p));
            text.push('\n');
        }
        Ok(text)
    }

    /// Validates `text`, appends it to the save file (with the time it used, under a
    /// clock), plays it; a waiting offer is withdrawn and the followers hear of the move.
    /// A move whose clock ran out is refused and the game is lost on time.
    fn play_checked(&mut self, id: u64, text: &str) -> Result<String, HostError> {
        let now = (self.now)();
        if self.flag_if_due(id, now)? {
            return Err(HostError::Over(
                self.hosted(id)?
                    .ended()
                    .map(|e| e.reason)
                    .unwrap_or_default(),
            ));
        }
        let path = self.data.as_ref().map(|d| d.game(id));
        let h = self.hosted_mut(id)?;
        let by = h.game.to_move();
        let ply = h.game.ply() + 1;
        let used = h.clocks.as_ref().map(|c| c.would_use(by, now));
        let canon = h.game.play(text, &mut |canon| {
            let used = used.map(|time| save::used_record(ply, time));
            let records: Vec<&str> = std::iter::once(canon).chain(used.as_deref()).collect();
            save::append(path.as_deref(), &records).map_err(HostError::Save)
        })?;
        if let Some(c) = &mut h.clocks {
            c.moved(by, now);
        }
        h.conduct.moved();
        let over = h.game.outcome().map(|(_, reason)| reason);
        h.followers.send(&Event::Moved {
            ply: h.game.ply(),
            mv: canon.clone(),
            by,
            over,
            clock: h.clocks.as_ref().map(|c| c.view(now)),
        });
        Ok(canon)
    }

    /// Plays `text` for the player to move, who must be a human seat in `held`; the
    /// move in canonical notation.
    pub fn play(&mut self, id: u64, held: Held, text: &str) -> Result<String, HostError> {
        let h = self.hosted(id)?;
        h.live()?;
        let to_move = h.game.to_move();
        if !people_held(&h.seats, held)[to_move.index()] {
            return Err(HostError::NotYourTurn {
                seat: to_move,
                name: h.game.player_names()[to_move.index()],
            });
        }
        let canon = self.play_checked(id, text)?;
        let h = self.hosted_mut(id)?;
        h.redo.clear();
        h.changed();
        Ok(canon)
    }

    /// A takeback to the previous turn of a person's seat in `held` (at least one move;
    /// a resignation or agreed draw goes with it). At one screen or against the engine
    /// it is done at once; between two remote people it is asked of the opponent
    /// ([`Table::answer`]), and refused once the game is over.
    pub fn undo(&mut self, id: u64, held: Held) -> Result<Proposal, HostError> {
        let h = self.hosted_mut(id)?;
        let humans = people_held(&h.seats, held);
        let remote = matches!(consent(&h.seats, held, "a takeback")?, Consent::Ask(_));
        if remote {
            h.live()?;
        }
        let target = h
            .takeback_target(humans)
            .ok_or(ActionError::NothingToTakeBack)?;
        let by = h.game.to_move_at(target);
        let seats = h.seats.clone();
        match h.conduct.ask_takeback(&seats, held, by, target)? {
            Consent::Now => {
                self.take_back(id, target, true)?;
                Ok(Proposal::Done)
            }
            Consent::Ask(_) => {
                if let Some(offer) = h.conduct.offer {
                    h.followers.send(&Event::Offered(offer));
                }
                h.announce();
                Ok(Proposal::Asked)
            }
        }
    }

    /// Takes game `id` back to its first `target` moves, with any resignation or agreed
    /// draw; the file is rewritten atomically (on failure nothing changes). `keep_redo`:
    /// the moves taken back may be redone (not after a takeback by consent).
    fn take_back(&mut self, id: u64, target: usize, keep_redo: bool) -> Result<(), HostError> {
        let path = self.data.as_ref().map(|d| d.game(id));
        let h = self.hosted_mut(id)?;
        let moves = h.game.moves();
        if target >= moves.len() {
            return Err(ActionError::NothingToTakeBack.into());
        }
        let (resigned, drawn) = (h.resigned.take(), std::mem::take(&mut h.drawn));
        let (flagged, clocks) = (h.flagged.take(), h.clocks.clone());
        h.game.truncate(target);
        // The time of the moves taken back is given back; the turn starts again.
        if let Some(c) = &mut h.clocks {
            c.rewind(target);
        }
        if let Some(path) = &path
            && let Err(e) = save::rewrite(path, &h.file_records())
        {
            // Put the game back as it is on disk.
            for m in &moves[target..] {
                let _ = h.game.play(m, &mut |_| Ok(()));
            }
            (h.resigned, h.drawn) = (resigned, drawn);
            (h.flagged, h.clocks) = (flagged, clocks);
            return Err(save_error(e));
        }
        if keep_redo {
            h.redo.extend(moves[target..].iter().rev().cloned());
        } else {
            h.redo.clear();
        }
        h.evals.retain(|&p, _| p <= target);
        h.conduct.moved();
        h.followers.send(&Event::TakenBack { ply: target });
        h.changed();
        Ok(())
    }

    /// Replays moves taken back up to the next turn of a person's seat in `held`: only
    /// at one screen or against the engine (between remote people a takeback is agreed,
    /// not undone alone).
    pub fn redo(&mut self, id: u64, held: Held) -> Result<(), HostError> {
        let h = self.hosted(id)?;
        let humans = people_held(&h.seats, held);
        let at_once = consent(&h.seats, held, "redo")? == Consent::Now;
        if !at_once || h.redo.is_empty() {
            return Err(ActionError::NothingToRedo.into());
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
    /// seat; the seat that resigned.
    pub fn resign(&mut self, id: u64, held: Held) -> Result<Player, HostError> {
        let h = self.hosted(id)?;
        h.live()?;
        let humans = people_held(&h.seats, held);
        let to_move = h.game.to_move();
        let seat = if humans[to_move.index()] {
            to_move
        } else if humans[to_move.other().index()] {
            to_move.other()
        } else {
            return Err(ActionError::NoSeat("resigning").into());
        };
        self.append(id, &[&save::resign_record(seat)])?;
        let h = self.hosted_mut(id)?;
        h.resigned = Some(seat);
        h.redo.clear();
        h.conduct.moved();
        let reason = h.ended().map(|e| e.reason).unwrap_or_default();
        h.followers.send(&Event::Resigned { seat, reason });
        h.changed();
        Ok(seat)
    }

    /// A draw offered by a follower holding `held`: agreed at once at one screen, asked
    /// of a remote opponent, refused by the engine.
    pub fn offer_draw(&mut self, id: u64, held: Held) -> Result<Proposal, HostError> {
        let h = self.hosted_mut(id)?;
        h.live()?;
        let seats = h.seats.clone();
        match h.conduct.offer_draw(&seats, held)? {
            Consent::Now => {
                self.agree_draw(id)?;
                Ok(Proposal::Done)
            }
            Consent::Ask(_) => {
                if let Some(offer) = h.conduct.offer {
                    h.followers.send(&Event::Offered(offer));
                }
                h.announce();
                Ok(Proposal::Asked)
            }
        }
    }

    fn agree_draw(&mut self, id: u64) -> Result<(), HostError> {
        self.append(id, &[save::DRAW_RECORD])?;
        let h = self.hosted_mut(id)?;
        h.drawn = true;
        h.redo.clear();
        h.conduct.moved();
        h.followers.send(&Event::Drawn);
        h.changed();
        Ok(())
    }

    /// The answer of a follower holding `held` to the opponent's waiting offer: an
    /// accepted takeback or draw is carried out, a refused one withdrawn. The offer
    /// answered, if accepted.
    pub fn answer(
        &mut self,
        id: u64,
        held: Held,
        accept: bool,
    ) -> Result<Option<Offer>, HostError> {
        let h = self.hosted(id)?;
        // Answered on a copy: the offer goes only once the answer is carried out.
        let mut conduct = h.conduct.clone();
        let waiting = h.conduct.offer;
        let accepted = conduct.answer(&h.seats, held, accept)?;
        match accepted {
            None => {
                if let Some(offer) = waiting {
                    h.followers.send(&Event::Declined(offer));
                }
            }
            Some(Offer::Takeback { to_ply, .. }) => self.take_back(id, to_ply, false)?,
            Some(Offer::Draw { .. }) => {
                h.live()?;
                self.agree_draw(id)?;
            }
            Some(Offer::Rematch { .. }) => {
                self.make_rematch(id)?;
            }
        }
        let h = self.hosted_mut(id)?;
        h.conduct = conduct;
        h.announce();
        Ok(accepted)
    }

    /// Turns engine help on or off for the person seats in `held` (recorded in the save
    /// file). Between two remote people it is on only when both turned it on.
    pub fn set_help(&mut self, id: u64, held: Held, on: bool) -> Result<(), HostError> {
        let h = self.hosted(id)?;
        let mut conduct = h.conduct.clone();
        let changed = conduct.set_help(&h.seats, held, on)?;
        let records: Vec<String> = changed.iter().map(|&p| save::help_record(p, on)).collect();
        let records: Vec<&str> = records.iter().map(String::as_str).collect();
        self.append(id, &records)?;
        let h = self.hosted_mut(id)?;
        h.conduct = conduct;
        h.announce();
        Ok(())
    }

    /// The engine move game `id` needs now, if an engine seat is to move and none is being
    /// thought; marks it as thinking.
    pub fn engine_job(&mut self, id: u64) -> Option<EngineJob> {
        let h = self.games.get_mut(&id)?;
        if h.thinking || h.paused || h.over() {
            return None;
        }
        let seat = h.game.to_move();
        let Seat::Engine(level) = h.seats[seat.index()] else {
            return None;
        };
        h.thinking = true;
        h.think_stop = Arc::default();
        h.followers.send(&Event::Changed);
        // The engine thinks within what is left on its clock now (the wait for an
        // engine thread comes off it too).
        let now = (h.now)();
        let clock = h
            .clocks
            .as_ref()
            .map(|c| c.control().for_search(c.left_at(now)[seat.index()]));
        Some(EngineJob {
            game: id,
            version: h.version,
            seat,
            think: h.game.think_job_within(
                level,
                h.version ^ id.rotate_left(32),
                clock,
                h.think_stop.clone(),
            ),
            followers: h.followers.clone(),
            person_waits: h.seats.iter().any(Seat::is_person),
        })
    }

    /// Applies the engine's answer thought for game `id` at `version`, if nothing changed
    /// meanwhile, through the same validate-save-play path as a person's move. A failed
    /// engine plays nothing (no stand-in move) and the game waits for its people; a move
    /// that cannot be saved is kept by the caller and applied again after a doubling
    /// wait ([`Applied::NotSaved`]).
    pub fn engine_moved(
        &mut self,
        id: u64,
        version: u64,
        seat: Player,
        answer: Result<Answer, String>,
    ) -> Applied {
        // An engine whose clock ran out loses on time like a person; its answer is
        // dropped (the game is over).
        let now = (self.now)();
        let _ = self.flag_if_due(id, now);
        let Ok(h) = self.hosted_mut(id) else {
            return Applied::Stale;
        };
        h.thinking = false;
        let current = h.version == version && h.game.to_move() == seat && !h.over();
        if !current {
            h.save_failures = 0;
            h.followers.send(&Event::Changed);
            return Applied::Stale;
        }
        let ply = h.game.ply();
        let failed = |t: &mut Table, message: String| {
            t.notes.push(format!(
                "game {id}: the engine gave no move at ply {}: {message}",
                ply + 1
            ));
            if let Ok(h) = t.hosted_mut(id) {
                h.save_failures = 0;
                h.followers.send(&Event::EngineFailed { seat, message });
            }
            Applied::Failed
        };
        let answer = match answer {
            Ok(answer) => answer,
            Err(message) => return failed(self, message),
        };
        match self.play_checked(id, &answer.mv) {
            Ok(_) => {
                // The score is kept with the game (the evaluation graph after a
                // restart); one that cannot be saved stays in memory, and the operator
                // is told.
                if let Some(s) = &answer.score
                    && let Err(e) = self.append(id, &[&save::eval_record(ply, s.first)])
                {
                    self.notes.push(format!(
                        "game {id}: the engine's score at ply {ply} is not saved: {e}"
                    ));
                }
                if let Ok(h) = self.hosted_mut(id) {
                    if let Some(s) = &answer.score {
                        h.evals.insert(ply, s.first);
                    }
                    h.save_failures = 0;
                    h.redo.clear();
                    h.followers.send(&Event::EngineMoved { seat, answer });
                    h.changed();
                }
                Applied::Played
            }
            Err(HostError::Save(e)) => {
                let Ok(h) = self.hosted_mut(id) else {
                    return Applied::Stale;
                };
                // Still this engine's move: no other job starts while it waits.
                h.thinking = true;
                h.save_failures = h.save_failures.saturating_add(1);
                let attempt = h.save_failures;
                let wait = save_backoff(attempt);
                let mv = &answer.mv;
                h.followers.send(&Event::Notice(format!(
                    "engine move {mv} (ply {}) not saved: {e}; retrying in {} ms",
                    ply + 1,
                    wait.as_millis()
                )));
                self.notes.push(format!(
                    "game {id}: engine move {mv} not saved (attempt {attempt}): {e}"
                ));
                Applied::NotSaved { wait }
            }
            Err(e) => failed(self, e.to_string()),
        }
    }

    /// Whether an engine seat of some game is to move with no engine thinking for it
    /// ([`Table::engine_job`] would give a job).
    pub fn engine_work_waiting(&self) -> bool {
        self.games.values().any(|h| {
            !h.thinking
                && !h.paused
                && !h.over()
                && matches!(h.seats[h.game.to_move().index()], Seat::Engine(_))
        })
    }

    /// A hint for the player to move in game `id`, for a follower holding `held`: the
    /// engine at `ms` on a snapshot; refused by the fair-play rule ([`crate::conduct`]).
    pub fn hint_job(&self, id: u64, held: Held, ms: u64) -> Result<Box<dyn Think>, HostError> {
        let h = self.hosted(id)?;
        let reason = h.ended().map(|o| o.reason);
        h.conduct
            .help_allowed(&h.seats, held, reason.as_deref(), Help::Hint)?;
        Ok(h.game.think_job(Level::Engine(ms), h.version))
    }

    /// Engine jobs for the evaluation graph of game `id`: one per position, `ms` each;
    /// refused by the fair-play rule ([`crate::conduct`]).
    pub fn analysis_jobs(&self, id: u64, held: Held, ms: u64) -> Result<AnalysisJobs, HostError> {
        let h = self.hosted(id)?;
        let reason = h.ended().map(|o| o.reason);
        h.conduct
            .help_allowed(&h.seats, held, reason.as_deref(), Help::Analysis)?;
        Ok(h.game.analysis_jobs(ms))
    }
}

#[cfg(test)]
mod tests {
    use std::{fs, os::unix::fs::PermissionsExt, path::PathBuf};

    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("boardlab-host-table-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).expect("metadata").permissions().mode() & 0o777
    }

    #[test]
    fn games_survive_a_restart_with_seats_moves_and_resignation() {
        let dir = temp_dir("restart");
        let (mut s, _) = Table::open(Some(&dir)).expect("open");
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
        let file = dir.join(format!("{}.save", c.id));
        let text = fs::read_to_string(&file).expect("file");
        assert!(text.contains(&format!("# token first {tok} #@")), "{text}");
        assert!(text.contains("# engine second 100"), "{text}");
        // Seat tokens are secrets: the directory and the files are the server's user's.
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&file), 0o600);
        let (mut s, notes) = Table::open(Some(&dir)).expect("reopen");
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(
            s.seats_of(c.id, std::slice::from_ref(&tok)).expect("token"),
            held
        );
        assert_eq!(s.state(c.id, held).expect("state").moves, vec!["e5"]);
        // The engine is to move: not this player's turn.
        assert!(
            s.play(c.id, held, "a1")
                .unwrap_err()
                .to_string()
                .contains("not your turn")
        );
        s.resign(c.id, held).expect("resign");
        drop(s);
        let (s, _) = Table::open(Some(&dir)).expect("reopen");
        let o = s.state(c.id, held).expect("state").ended.expect("over");
        assert_eq!(o.winner, Some(Player::Second));
        assert!(o.reason.contains("resigned"));
        // The download has no token.
        assert!(!s.save_text(c.id).expect("save").contains(&tok));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_second_store_on_the_same_directory_is_refused() {
        let dir = temp_dir("second");
        let (first, _) = Table::open(Some(&dir)).expect("open");
        let err = Table::open(Some(&dir)).err().expect("refused");
        assert!(
            err.to_string().contains("in use by another server"),
            "{err}"
        );
        drop(first);
        Table::open(Some(&dir)).expect("free again");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn damaged_files_are_skipped_kept_and_their_ids_never_reused_and_torn_records_cut() {
        let dir = temp_dir("damaged");
        let (mut s, _) = Table::open(Some(&dir)).expect("open");
        let both = [SeatChoice::Human; 2];
        let a = s.create("gomoku:size=9", both).expect("create");
        let b = s.create("gomoku:size=9", both).expect("create");
        let held = [true, true];
        s.play(a.id, held, "e5").expect("move");
        s.play(b.id, held, "e5").expect("move");
        drop(s);
        // Game a: a record changed by hand; game b: an append cut short by a crash.
        let path_a = dir.join(format!("{}.save", a.id));
        let changed = fs::read_to_string(&path_a)
            .expect("file")
            .replacen("e5 #@", "e6 #@", 1);
        fs::write(&path_a, &changed).expect("write");
        let path_b = dir.join(format!("{}.save", b.id));
        let mut torn = fs::read_to_string(&path_b).expect("file");
        torn.push_str("d4 #@12");
        fs::write(&path_b, &torn).expect("write");
        let (mut s, notes) = Table::open(Some(&dir)).expect("reopen");
        assert!(
            notes
                .iter()
                .any(|n| n.contains("skipped") && n.contains("integrity")),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.contains("unfinished last record")),
            "{notes:?}"
        );
        assert!(s.state(a.id, [false; 2]).is_err(), "not loaded");
        assert_eq!(s.state(b.id, [false; 2]).expect("b").moves, vec!["e5"]);
        let c = s.create("fourshift", both).expect("create");
        assert!(c.id > b.id, "ids are never reused");
        assert_eq!(fs::read_to_string(&path_a).expect("kept"), changed);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn wrong_tokens_are_refused() {
        let (mut s, _) = Table::open(None).expect("open");
        let c = s
            .create("fourshift", [SeatChoice::Human, SeatChoice::Human])
            .expect("create");
        assert!(
            s.seats_of(c.id, &["0".repeat(32)])
                .unwrap_err()
                .to_string()
                .contains("wrong token")
        );
        assert_eq!(s.seats_of(c.id, &[]).expect("watcher"), [false, false]);
        assert!(
            s.play(c.id, [false, false], "c3")
                .unwrap_err()
                .to_string()
                .contains("not your turn")
        );
    }

    #[test]
    fn undo_at_one_screen_goes_back_to_the_humans_turn_and_redo_replays() {
        let dir = temp_dir("undo");
        let (mut s, _) = Table::open(Some(&dir)).expect("open");
        let c = s
            .create("fourshift", [SeatChoice::Human, SeatChoice::Human])
            .expect("create");
        let both = [true, true];
        for m in ["a1", "b1", "c1"] {
            s.play(c.id, both, m).expect("move");
        }
        assert_eq!(s.undo(c.id, both), Ok(Proposal::Done));
        assert_eq!(s.state(c.id, both).expect("state").moves, vec!["a1", "b1"]);
        s.redo(c.id, both).expect("redo");
        assert_eq!(s.state(c.id, both).expect("state").moves.len(), 3);
        s.undo(c.id, both).expect("undo");
        drop(s);
        let (s, _) = Table::open(Some(&dir)).expect("reopen");
        assert_eq!(s.state(c.id, both).expect("state").moves, vec!["a1", "b1"]);
        let file = dir.join(format!("{}.save", c.id));
        assert_eq!(mode(&file), 0o600, "the rewritten file stays private");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn between_remote_people_a_takeback_needs_the_opponents_consent() {
        let (mut s, _) = Table::open(None).expect("open");
        let c = s
            .create("fourshift", [SeatChoice::Human, SeatChoice::Human])
            .expect("create");
        let (first, second) = ([true, false], [false, true]);
        s.play(c.id, first, "a1").expect("move");
        s.play(c.id, second, "b1").expect("move");
        // First, on its turn, asks to take back; nothing changes until Second agrees.
        assert_eq!(s.undo(c.id, first), Ok(Proposal::Asked));
        let seen = s.state(c.id, second).expect("state");
        let offer = seen.offer.expect("an offer");
        assert_eq!(
            (offer.kind, offer.by, offer.yours_to_answer),
            ("takeback", 0, true)
        );
        assert_eq!(seen.moves, vec!["a1", "b1"]);
        assert!(s.answer(c.id, first, true).is_err(), "not one's own offer");
        assert!(s.redo(c.id, first).is_err());
        s.answer(c.id, second, false).expect("refused");
        assert_eq!(s.state(c.id, first).expect("state").moves.len(), 2);
        s.undo(c.id, first).expect("asked again");
        s.answer(c.id, second, true).expect("agreed");
        assert!(s.state(c.id, first).expect("state").moves.is_empty());
        assert!(
            s.redo(c.id, first).is_err(),
            "no redo of an agreed takeback"
        );
        // After a resignation the winner cannot take anything back.
        s.play(c.id, first, "a1").expect("move");
        s.resign(c.id, first).expect("resign");
        assert!(
            s.undo(c.id, second)
                .unwrap_err()
                .to_string()
                .contains("the game is over")
        );
        assert!(s.state(c.id, [false; 2]).expect("state").ended.is_some());
    }

    #[test]
    fn draws_are_offered_and_agreed_and_engine_help_follows_the_fair_play_rule() {
        let dir = temp_dir("draw");
        let (mut s, _) = Table::open(Some(&dir)).expect("open");
        let c = s
            .create("gomoku:size=9", [SeatChoice::Human, SeatChoice::Human])
            .expect("create");
        let (first, second, nobody) = ([true, false], [false, true], [false, false]);
        s.play(c.id, first, "e5").expect("move");
        for held in [first, second, nobody] {
            assert!(s.hint_job(c.id, held, 10).is_err());
            assert!(s.analysis_jobs(c.id, held, 10).is_err());
        }
        s.set_help(c.id, first, true).expect("on");
        assert!(
            s.hint_job(c.id, second, 10).is_err(),
            "one consent is not enough"
        );
        s.set_help(c.id, second, true).expect("on");
        assert!(s.hint_job(c.id, second, 10).is_ok());
        assert!(
            s.analysis_jobs(c.id, nobody, 10).is_err(),
            "spectators wait"
        );
        assert_eq!(s.offer_draw(c.id, second), Ok(Proposal::Asked));
        s.answer(c.id, first, true).expect("agreed");
        let over = s.state(c.id, nobody).expect("state");
        let outcome = over.ended.clone().expect("over");
        assert_eq!(
            (outcome.winner, outcome.reason.as_str()),
            (None, "drawn by agreement")
        );
        assert!(over.can_analyse, "spectators analyse a finished game");
        drop(s);
        let (s, _) = Table::open(Some(&dir)).expect("reopen");
        let again = s.state(c.id, first).expect("state");
        assert!(again.ended.is_some() && again.seats[1].help);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_creator_pauses_and_resumes_an_engine_game_and_nobody_else_does() {
        let dir = temp_dir("pause");
        let (mut s, _) = Table::open(Some(&dir)).expect("open");
        let engines = [SeatChoice::Engine(Level::Random); 2];
        let c = s.create("gomoku:size=9", engines).expect("create");
        assert!(s.owns(c.id, std::slice::from_ref(&c.owner)));
        assert!(!s.owns(c.id, &["0".repeat(32)]));
        assert_eq!(
            s.seats_of(c.id, std::slice::from_ref(&c.owner)),
            Ok([false, false]),
            "the creator's token opens the game without a seat"
        );
        assert!(s.pause(c.id, false, true).is_err(), "a watcher cannot");
        s.pause(c.id, true, true).expect("paused");
        assert!(s.engine_job(c.id).is_none(), "no engine move while paused");
        assert!(s.state_for(c.id, [false; 2], true).expect("state").paused);
        drop(s);
        let (mut s, _) = Table::open(Some(&dir)).expect("reopen");
        assert!(s.engine_job(c.id).is_none(), "still paused after a restart");
        s.pause(c.id, true, false).expect("resumed");
        assert!(s.engine_job(c.id).is_some());
        let people = s
            .create("fourshift", [SeatChoice::Human; 2])
            .expect("create");
        assert!(
            s.pause(people.id, true, true).is_err(),
            "no engine to pause"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_the_registry_games_are_hosted_and_restored() {
        let dir = temp_dir("registry");
        let registry = Registry::empty().with::<boardlab_games::Gomoku>();
        let (mut s, _) = Table::open_with(Some(&dir), registry.clone()).expect("open");
        let e = s
            .create("fourshift", [SeatChoice::Human; 2])
            .expect_err("not registered");
        let e = e.to_string();
        assert!(
            e.starts_with("bad game spec:") && e.contains("fourshift") && e.contains("gomoku"),
            "{e}"
        );
        let fourshift = "boardlab-save 1\ngame fourshift\nc3\n";
        let e = s
            .load(fourshift, [SeatChoice::Human; 2])
            .expect_err("not registered");
        let e = e.to_string();
        assert!(e.starts_with("line 2:") && e.contains("fourshift"), "{e}");
        let c = s
            .create("gomoku:size=9", [SeatChoice::Human; 2])
            .expect("registered");
        assert_eq!(s.ids(), vec![c.id]);
        drop(s);
        // A table of other games skips the file, naming it, and never reuses its id.
        let (s, notes) = Table::open_with(
            Some(&dir),
            Registry::empty().with::<boardlab_games::Amazons>(),
        )
        .expect("reopen");
        assert!(s.ids().is_empty());
        assert!(
            notes
                .iter()
                .any(|n| n.contains("skipped") && n.contains("gomoku")),
            "{notes:?}"
        );
        drop(s);
        let (s, _) = Table::open_with(Some(&dir), registry).expect("reopen");
        assert_eq!(s.ids(), vec![c.id]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn bounded_games() {
        let (s, _) = Table::open(None).expect("open");
        let mut s = s.with_max_games(1);
        s.create("gomoku", [SeatChoice::Human; 2]).expect("first");
        let e = s.create("gomoku", [SeatChoice::Human; 2]).unwrap_err();
        assert_eq!(e, HostError::TooManyGames(1));
    }

    #[test]
    fn a_think_stops_when_the_game_changes_under_it() {
        // An engine seat of a minute a move: a resignation (or a takeback, or a flag) must
        // not leave it thinking a stale position for the rest of the minute.
        let (mut s, _) = Table::open(None).expect("open");
        let c = s
            .create(
                "gomoku:size=9",
                [SeatChoice::Human, SeatChoice::Engine(Level::Engine(60_000))],
            )
            .expect("create");
        let held = [true, false];
        s.play(c.id, held, "e5").expect("move");
        let job = s.engine_job(c.id).expect("engine to move");
        let (done, answered) = std::sync::mpsc::channel();
        let think = job.think;
        std::thread::spawn(move || {
            let _ = done.send(think.think(&mut |_| {}));
        });
        s.resign(c.id, held).expect("resign");
        let answer = answered
            .recv_timeout(Duration::from_secs(30))
            .expect("the think stopped long before its minute");
        // Its answer is stale: the game is over and stays as it was.
        let applied = s.engine_moved(c.id, job.version, job.seat, answer);
        assert_eq!(applied, Applied::Stale);
        assert_eq!(s.state(c.id, held).expect("state").moves.len(), 1);
    }

    #[test]
    fn a_failed_engine_plays_nothing_and_is_reported() {
        let (mut s, _) = Table::open(None).expect("open");
        let c = s
            .create(
                "gomoku:size=9",
                [SeatChoice::Engine(Level::Random), SeatChoice::Human],
            )
            .expect("create");
        let (tx, events) = std::sync::mpsc::channel();
        s.subscribe(c.id, Box::new(move |e| tx.send(e.clone()).is_ok()))
            .expect("subscribed");
        let job = s.engine_job(c.id).expect("engine to move");
        let again = s.engine_moved(c.id, job.version, job.seat, Err("it broke".into()));
        assert_eq!(
            again,
            Applied::Failed,
            "a failed engine is not restarted at once"
        );
        assert!(s.state(c.id, [false; 2]).expect("state").moves.is_empty());
        // (Starting the job announced a change first.)
        let failure = events.try_iter().find(|e| !matches!(e, Event::Changed));
        match failure {
            Some(Event::EngineFailed {
                seat: Player::First,
                message,
            }) => assert_eq!(message, "it broke"),
            other => panic!("expected EngineFailed, got {other:?}"),
        }
        // The seat is still the engine's: the next start thinks again.
        assert!(s.engine_job(c.id).is_some());
    }

    #[test]
    fn a_free_seat_of_a_finished_game_cannot_be_taken() {
        let (mut s, _) = Table::open(None).expect("open");
        let c = s
            .create("gomoku:size=9", [SeatChoice::Human, SeatChoice::Free])
            .expect("create");
        s.resign(c.id, [true, false]).expect("resign");
        let before = s.save_text(c.id).expect("save text");
        assert!(
            matches!(s.join(c.id, Player::Second), Err(HostError::Over(_))),
            "a finished game takes no new player"
        );
        assert_eq!(
            s.save_text(c.id).expect("save text"),
            before,
            "nothing recorded"
        );
        // A live game's free seat is still taken.
        let live = s
            .create("gomoku:size=9", [SeatChoice::Human, SeatChoice::Free])
            .expect("create");
        assert!(s.join(live.id, Player::Second).is_ok());
    }

    #[test]
    fn an_engine_answer_survives_changes_that_leave_the_position_alone() {
        let (mut s, _) = Table::open(None).expect("open");
        let c = s
            .create(
                "gomoku:size=9",
                [SeatChoice::Engine(Level::Random), SeatChoice::Free],
            )
            .expect("create");
        let job = s.engine_job(c.id).expect("engine to move");
        // Meanwhile a person sits down and the creator pauses the engines: the move being
        // thought is still played.
        let token = s.join(c.id, Player::Second).expect("joined");
        s.pause(c.id, true, true).expect("paused");
        let answer = job.think.think(&mut |_| {});
        assert_eq!(
            s.engine_moved(c.id, job.version, job.seat, answer),
            Applied::Played
        );
        assert_eq!(s.state(c.id, [false; 2]).expect("state").moves.len(), 1);
        assert_eq!(s.seat_of_token(c.id, &token), Ok(Player::Second));
        assert!(s.engine_job(c.id).is_none(), "the person is to move");
    }

    #[test]
    fn engine_scores_survive_a_restart_and_a_takeback_drops_the_later_ones() {
        let dir = temp_dir("evals");
        let (mut s, _) = Table::open(Some(&dir)).expect("open");
        let c = s
            .create(
                "gomoku:size=9",
                [SeatChoice::Human, SeatChoice::Engine(Level::Engine(20))],
            )
            .expect("create");
        let held = [true, false];
        for mine in ["e5", "a1"] {
            let moves = s.state(c.id, held).expect("state").moves;
            let mine = if moves.iter().any(|m| m == mine) {
                "i9"
            } else {
                mine
            };
            s.play(c.id, held, mine).expect("move");
            let job = s.engine_job(c.id).expect("engine to move");
            let answer = job.think.think(&mut |_| {});
            assert!(
                answer.as_ref().is_ok_and(|a| a.score.is_some()),
                "a scored move"
            );
            let applied = s.engine_moved(c.id, job.version, job.seat, answer);
            assert_eq!(applied, Applied::Played);
        }
        let evals = s.state(c.id, held).expect("state").evals;
        assert_eq!(evals.iter().map(|e| e.0).collect::<Vec<_>>(), [1, 3]);
        drop(s);
        let (mut s, _) = Table::open(Some(&dir)).expect("reopen");
        assert_eq!(s.state(c.id, held).expect("state").evals, evals);
        // Back to the person's previous turn (ply 2): the score thought at ply 3 goes,
        // on disk too.
        s.undo(c.id, held).expect("takeback");
        assert_eq!(s.state(c.id, held).expect("state").evals, evals[..1]);
        drop(s);
        let (mut s, _) = Table::open(Some(&dir)).expect("reopen");
        assert_eq!(s.state(c.id, held).expect("state").evals, evals[..1]);
        // The save file handed out carries the scores, and a game loaded from it too.
        let text = s.save_text(c.id).expect("save text");
        assert!(text.contains(&save::eval_record(1, evals[0].1)), "{text}");
        let copy = s
            .load(&text, [SeatChoice::Human, SeatChoice::Human])
            .expect("load");
        assert_eq!(s.state(copy.id, held).expect("state").evals, evals[..1]);
        drop(s);
        let (s, _) = Table::open(Some(&dir)).expect("reopen");
        assert_eq!(s.state(copy.id, held).expect("state").evals, evals[..1]);
        drop(s);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn engine_answers_for_an_old_version_are_dropped() {
        let (mut s, _) = Table::open(None).expect("open");
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

#[cfg(test)]
mod clock_tests {
    use std::{fs, path::PathBuf};

    use super::*;

    /// A clock the test moves by hand, and the table's time source reading it.
    fn manual() -> (Now, Arc<Mutex<Instant>>) {
        let at = Arc::new(Mutex::new(Instant::now()));
        let read = Arc::clone(&at);
        (Arc::new(move || *read.lock().expect("clock")), at)
    }

    fn advance(at: &Mutex<Instant>, ms: u64) {
        *at.lock().expect("clock") += Duration::from_millis(ms);
    }

    fn table(now: &Now, dir: Option<&Path>) -> Table {
        let opened = Table::open_with_clock(
            dir,
            Registry::bundled(),
            ServeOptions::default(),
            Arc::clone(now),
        );
        opened.expect("open").0
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("boardlab-host-clock-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn tc(text: &str) -> Option<TimeControl> {
        Some(text.parse().expect("time control"))
    }

    fn left(t: &Table, id: u64) -> [u64; 2] {
        t.state(id, [false; 2])
            .expect("state")
            .clock
            .expect("clocks")
            .left_ms
    }

    const PEOPLE: [SeatChoice; 2] = [SeatChoice::Human, SeatChoice::Human];
    const BOTH: Held = [true, true];

    #[test]
    fn a_player_who_never_moves_loses_on_time_and_every_follower_hears_it() {
        let (now, at) = manual();
        let dir = temp_dir("flag");
        let mut t = table(&now, Some(&dir));
        let c = t
            .create_timed("gomoku:size=9", PEOPLE, None, tc("10s"))
            .expect("create");
        let (tx, events) = std::sync::mpsc::channel();
        t.subscribe(c.id, Box::new(move |e| tx.send(e.clone()).is_ok()))
            .expect("subscribed");
        advance(&at, 9_999);
        assert!(t.check_clocks(t.now()).is_empty());
        assert_eq!(left(&t, c.id), [1, 10_000]);
        advance(&at, 1);
        assert_eq!(t.check_clocks(t.now()), vec![c.id]);
        let flagged = events
            .try_iter()
            .find(|e| matches!(e, Event::Flagged { .. }));
        match flagged {
            Some(Event::Flagged { seat, reason }) => {
                assert_eq!(
                    (seat, reason.as_str()),
                    (Player::First, "Black lost on time")
                );
            }
            other => panic!("expected Flagged, got {other:?}"),
        }
        let state = t.state(c.id, BOTH).expect("state");
        let ended = state.ended.expect("over");
        assert_eq!(ended.winner, Some(Player::Second));
        let clock = state.clock.expect("clocks");
        assert_eq!((clock.left_ms, clock.running), ([0, 10_000], None));
        assert!(!state.your_turn);
        let lobby = t.lobby();
        assert_eq!(
            lobby[0].result.as_deref(),
            Some("White wins: Black lost on time")
        );
        assert_eq!(lobby[0].time_control.as_deref(), Some("10s"));
        // Flagged once only; the loss survives a restart.
        advance(&at, 5000);
        assert!(t.check_clocks(t.now()).is_empty());
        drop(t);
        let t = table(&now, Some(&dir));
        let ended = t.state(c.id, BOTH).expect("state").ended.expect("over");
        assert_eq!(ended.reason, "Black lost on time");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_move_after_the_clock_ran_out_is_refused_and_loses() {
        let (now, at) = manual();
        let mut t = table(&now, None);
        let c = t
            .create_timed("gomoku:size=9", PEOPLE, None, tc("5s+1s"))
            .expect("create");
        advance(&at, 5000);
        let e = t.play(c.id, BOTH, "e5").expect_err("too late");
        assert_eq!(e.to_string(), "the game is over: Black lost on time");
        let state = t.state(c.id, BOTH).expect("state");
        assert!(state.moves.is_empty(), "the late move is not played");
        assert_eq!(state.ended.expect("over").winner, Some(Player::Second));
    }

    #[test]
    fn the_increment_is_added_after_each_move() {
        let (now, at) = manual();
        let mut t = table(&now, None);
        let c = t
            .create_timed("gomoku:size=9", PEOPLE, None, tc("10s+2s"))
            .expect("create");
        advance(&at, 3000);
        t.play(c.id, BOTH, "e5").expect("move");
        assert_eq!(left(&t, c.id), [9000, 10_000]);
        advance(&at, 500);
        assert_eq!(left(&t, c.id), [9000, 9500], "White's clock runs");
        t.play(c.id, BOTH, "a1").expect("move");
        assert_eq!(left(&t, c.id), [9000, 11_500]);
        let running = t.state(c.id, BOTH).expect("state").clock.expect("clocks");
        assert_eq!(running.running, Some(0));
    }

    #[test]
    fn a_fixed_time_per_move_starts_full_every_turn_and_is_not_saved() {
        let (now, at) = manual();
        let mut t = table(&now, None);
        let c = t
            .create_timed("gomoku:size=9", PEOPLE, None, tc("5s/move"))
            .expect("create");
        advance(&at, 4900);
        t.play(c.id, BOTH, "e5").expect("in time");
        assert_eq!(left(&t, c.id), [5000, 5000]);
        advance(&at, 4900);
        t.play(c.id, BOTH, "a1").expect("in time");
        advance(&at, 5000);
        let e = t.play(c.id, BOTH, "b2").expect_err("too late");
        assert_eq!(e.to_string(), "the game is over: Black lost on time");
    }

    #[test]
    fn the_clock_waits_for_both_seats_and_stops_while_the_engines_are_paused() {
        let (now, at) = manual();
        let mut t = table(&now, None);
        let c = t
            .create_timed(
                "gomoku:size=9",
                [SeatChoice::Human, SeatChoice::Free],
                None,
                tc("10s"),
            )
            .expect("create");
        advance(&at, 60_000);
        assert!(t.check_clocks(t.now()).is_empty(), "no opponent yet");
        assert_eq!(left(&t, c.id), [10_000, 10_000]);
        t.seat_engine(c.id, Player::Second, Level::Random)
            .expect("engine");
        advance(&at, 4000);
        assert_eq!(left(&t, c.id), [6000, 10_000]);
        t.pause(c.id, true, true).expect("paused");
        advance(&at, 60_000);
        assert!(t.check_clocks(t.now()).is_empty(), "paused");
        t.pause(c.id, true, false).expect("resumed");
        advance(&at, 1000);
        assert_eq!(left(&t, c.id), [5000, 10_000]);
    }

    #[test]
    fn a_takeback_gives_back_the_time_of_the_moves_taken_back() {
        let (now, at) = manual();
        let mut t = table(&now, None);
        let c = t
            .create_timed("gomoku:size=9", PEOPLE, None, tc("10s"))
            .expect("create");
        advance(&at, 1000);
        t.play(c.id, BOTH, "e5").expect("move");
        advance(&at, 2000);
        t.play(c.id, BOTH, "a1").expect("move");
        advance(&at, 3000);
        t.play(c.id, BOTH, "b2").expect("move");
        assert_eq!(left(&t, c.id), [6000, 8000]);
        t.undo(c.id, BOTH).expect("undo");
        // Back to the position after e5 a1, Black to move with the clock as it was then.
        assert_eq!(left(&t, c.id), [9000, 8000]);
        advance(&at, 500);
        assert_eq!(left(&t, c.id), [8500, 8000]);
    }

    #[test]
    fn clocks_survive_a_restart_and_the_time_down_is_not_counted() {
        let (now, at) = manual();
        let dir = temp_dir("restart");
        let mut t = table(&now, Some(&dir));
        let c = t
            .create_timed("gomoku:size=9", PEOPLE, None, tc("1m+1s"))
            .expect("create");
        for (ms, mv) in [(1500, "e5"), (2500, "a1"), (4250, "b2")] {
            advance(&at, ms);
            t.play(c.id, BOTH, mv).expect("move");
        }
        let before = left(&t, c.id);
        assert_eq!(before, [56_250, 58_500]);
        drop(t);
        let text = fs::read_to_string(dir.join(format!("{}.save", c.id))).expect("file");
        assert!(text.contains("# time 1m+1s #@"), "{text}");
        assert!(text.contains("# used 3 4250 #@"), "{text}");
        // An hour down: nobody's clock ran.
        advance(&at, 3_600_000);
        let mut t = table(&now, Some(&dir));
        assert_eq!(left(&t, c.id), before);
        advance(&at, 1000);
        assert_eq!(left(&t, c.id), [56_250, 57_500], "White's turn runs again");
        t.play(c.id, BOTH, "c3").expect("move");
        assert_eq!(left(&t, c.id), [56_250, 58_500]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn old_save_files_without_clocks_still_load() {
        let dir = temp_dir("old");
        fs::create_dir_all(&dir).expect("dir");
        fs::write(
            dir.join("1.save"),
            "boardlab-save 1\ngame gomoku:size=9\ne5\n",
        )
        .expect("file");
        let (t, notes) = Table::open(Some(&dir)).expect("open");
        assert!(!notes.iter().any(|n| n.contains("skipped")), "{notes:?}");
        let state = t.state(1, [false; 2]).expect("state");
        assert_eq!((state.moves.len(), state.clock), (1, None));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_engine_seat_whose_answer_comes_too_late_loses_on_time() {
        let (now, at) = manual();
        let mut t = table(&now, None);
        let c = t
            .create_timed(
                "gomoku:size=9",
                [SeatChoice::Engine(Level::Random), SeatChoice::Human],
                None,
                tc("2s"),
            )
            .expect("create");
        let job = t.engine_job(c.id).expect("engine to move");
        let answer = job.think.think(&mut |_| {});
        advance(&at, 2000);
        assert_eq!(
            t.engine_moved(c.id, job.version, job.seat, answer),
            Applied::Stale
        );
        let state = t.state(c.id, [false; 2]).expect("state");
        assert!(state.moves.is_empty());
        assert_eq!(state.ended.expect("over").reason, "Black lost on time");
        assert!(t.engine_job(c.id).is_none());
    }

    #[test]
    fn a_rematch_has_the_same_time_control_with_fresh_clocks() {
        let (now, at) = manual();
        let mut t = table(&now, None);
        let c = t
            .create_timed("gomoku:size=9", PEOPLE, None, tc("3s+1s"))
            .expect("create");
        advance(&at, 3000);
        assert_eq!(t.check_clocks(t.now()), vec![c.id]);
        let new = t
            .rematch(c.id, BOTH)
            .expect("rematch")
            .expect("made at once at one screen");
        let clock = t
            .state(new, [false; 2])
            .expect("state")
            .clock
            .expect("clocks");
        assert_eq!(
            (clock.control.as_str(), clock.left_ms),
            ("3s+1s", [3000, 3000])
        );
    }

    #[test]
    fn a_downloaded_timed_game_loads_with_its_clocks_and_the_turn_starts_afresh() {
        let (now, at) = manual();
        let dir = temp_dir("load");
        let mut t = table(&now, Some(&dir));
        let c = t
            .create_timed("gomoku:size=9", PEOPLE, None, tc("1m+1s"))
            .expect("create");
        for (ms, mv) in [(1500, "e5"), (2500, "a1"), (4250, "b2")] {
            advance(&at, ms);
            t.play(c.id, BOTH, mv).expect("move");
        }
        // White's turn has run 7 s when the file is downloaded: that time is not in it.
        advance(&at, 7000);
        let file = t.save_text(c.id).expect("download");
        let loaded = t.load(&file, PEOPLE).expect("load");
        assert_eq!(left(&t, loaded.id), [56_250, 58_500]);
        let clock = t
            .state(loaded.id, BOTH)
            .expect("state")
            .clock
            .expect("clocks");
        assert_eq!((clock.control.as_str(), clock.running), ("1m+1s", Some(1)));
        advance(&at, 1000);
        assert_eq!(left(&t, loaded.id), [56_250, 57_500], "White's turn runs");
        t.play(loaded.id, BOTH, "c3").expect("move");
        assert_eq!(left(&t, loaded.id), [56_250, 58_500]);
        // The loaded game keeps its clocks through a restart too: they are in its file.
        drop(t);
        let t = table(&now, Some(&dir));
        assert_eq!(left(&t, loaded.id), [56_250, 58_500]);
        let again = t.save_text(loaded.id).expect("download");
        assert!(again.contains("# time 1m+1s\n"), "{again}");
        assert!(again.contains("# used 4 1000\n"), "{again}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_game_lost_on_time_loads_finished_with_the_flag_at_zero() {
        let (now, at) = manual();
        let mut t = table(&now, None);
        let c = t
            .create_timed("gomoku:size=9", PEOPLE, None, tc("10s+2s"))
            .expect("create");
        advance(&at, 3000);
        t.play(c.id, BOTH, "e5").expect("move");
        advance(&at, 12_000);
        assert_eq!(t.check_clocks(t.now()), vec![c.id]);
        let file = t.save_text(c.id).expect("download");
        assert!(file.ends_with("# flag second\n"), "{file}");
        let loaded = t.load(&file, PEOPLE).expect("load");
        let state = t.state(loaded.id, BOTH).expect("state");
        assert_eq!(state.ended.expect("over").reason, "White lost on time");
        let clock = state.clock.expect("clocks");
        assert_eq!((clock.left_ms, clock.running), ([9000, 0], None));
        let e = t.play(loaded.id, BOTH, "a1").expect_err("over");
        assert!(matches!(e, HostError::Over(_)), "{e}");
        // A takeback at one screen gives the turn back, and its time with it.
        t.undo(loaded.id, BOTH).expect("undo");
        assert!(t.state(loaded.id, BOTH).expect("state").ended.is_none());
        assert_eq!(left(&t, loaded.id), [10_000, 10_000]);
    }

    #[test]
    fn a_resigned_or_drawn_game_loads_finished() {
        let mut t = table(&system_now(), None);
        let c = t.create("gomoku:size=9", PEOPLE).expect("create");
        t.play(c.id, BOTH, "e5").expect("move");
        t.resign(c.id, [false, true]).expect("resign");
        let file = t.save_text(c.id).expect("download");
        assert!(file.contains("# resign second\n"), "{file}");
        let loaded = t.load(&file, PEOPLE).expect("load");
        let state = t.state(loaded.id, BOTH).expect("state");
        assert_eq!(state.ended.expect("over").reason, "White resigned");
        let e = t.play(loaded.id, BOTH, "a1").expect_err("over");
        assert!(matches!(e, HostError::Over(_)), "{e}");
        // Downloaded again, the resignation is still in the file.
        let again = t.save_text(loaded.id).expect("download");
        assert!(again.contains("# resign second\n"), "{again}");
        // A takeback at one screen gives the game back, as after a resignation played.
        t.undo(loaded.id, BOTH).expect("undo");
        assert!(t.state(loaded.id, BOTH).expect("state").ended.is_none());

        let drawn = "boardlab-save 1\ngame gomoku:size=9\ne5\n# draw\n";
        let loaded = t.load(drawn, PEOPLE).expect("load");
        let state = t.state(loaded.id, BOTH).expect("state");
        assert!(
            state
                .ended
                .expect("over")
                .reason
                .contains("drawn by agreement")
        );
        let e = t.play(loaded.id, BOTH, "a1").expect_err("over");
        assert!(matches!(e, HostError::Over(_)), "{e}");
    }

    #[test]
    fn a_file_whose_ending_does_not_read_loads_nothing_and_names_the_line() {
        let mut t = table(&system_now(), None);
        let head = "boardlab-save 1\ngame gomoku:size=9\ne5\n";
        let cases = [
            ("# resign third\n", "line 4: bad record '# resign third'"),
            ("# resign\n", "line 4: bad record '# resign'"),
            ("# draw now\n", "line 4: bad record '# draw now'"),
            (
                "# resign first\n# draw\n",
                "line 4: the file ends its game twice",
            ),
            (
                "# time 1m\n# flag second\n# resign first\n",
                "'# resign first': the game was lost on time",
            ),
        ];
        for (records, expected) in cases {
            let e = t
                .load(&format!("{head}{records}"), PEOPLE)
                .expect_err(records)
                .to_string();
            assert!(e.contains(expected), "{records}: {e}");
        }
        // A game the rules ended cannot be resigned as well.
        let five = "boardlab-save 1\ngame gomoku:size=9\na1\nb1\na2\nb2\na3\nb3\na4\nb4\na5\n# resign second\n";
        let e = t
            .load(five, PEOPLE)
            .expect_err("over by the rules")
            .to_string();
        assert!(e.contains("the rules ended the game"), "{e}");
        assert!(t.ids().is_empty(), "nothing was loaded");
    }

    #[test]
    fn a_file_whose_clock_records_do_not_read_loads_nothing_and_names_the_line() {
        let mut t = table(&system_now(), None);
        let head = "boardlab-save 1\ngame gomoku:size=9\ne5\n";
        let cases = [
            ("# time 5x\n", "line 4: bad time control '5x'"),
            (
                "# time 500ms\n",
                "line 4: bad time control '500ms': the base time",
            ),
            (
                "# time 1m\n# used 1\n",
                "line 5: bad clock record '# used 1'",
            ),
            (
                "# time 1m\n# used 0 5\n",
                "line 5: bad clock record '# used 0 5'",
            ),
            (
                "# time 1m\n# flag third\n",
                "line 5: bad clock record '# flag third'",
            ),
            (
                "# used 1 500\n",
                "line 4: a clock record in a file without a '# time'",
            ),
            (
                "# flag second\n",
                "line 4: a clock record in a file without a '# time'",
            ),
            (
                "# time 1m\n# flag first\n",
                "'# flag first': no clock ran out there: second is to move",
            ),
        ];
        for (records, expected) in cases {
            let e = t
                .load(&format!("{head}{records}"), PEOPLE)
                .expect_err(records)
                .to_string();
            assert!(e.starts_with(expected), "{records}: {e}");
        }
        assert!(t.ids().is_empty(), "nothing was loaded");
        // Times past the last move are no time of this game, as at start-up.
        let c = t
            .load(
                &format!("{head}# time 1m\n# used 1 500\n# used 2 900\n"),
                PEOPLE,
            )
            .expect("load");
        assert_eq!(left(&t, c.id)[0], 59_500);
        let file = t.save_text(c.id).expect("download");
        assert!(!file.contains("# used 2"), "{file}");
    }
}
