//! The host: one game [`Table`] behind a lock and the one engine queue ([`Pool`]) that
//! every door shares. An engine move is thought on its own thread, holding neither the
//! table's lock nor any door's: the job is a snapshot of the position
//! ([`Table::engine_job`]), it waits for a thread of the pool (people first, round robin
//! between games), thinks, and is applied under the lock only if the game did not change
//! meanwhile ([`Table::engine_moved`]); then the game's next engine move, if any, starts.
//!
//! A ticker thread asks the table every [`CLOCK_TICK`] whether a clock ran out
//! ([`Table::check_clocks`]), so a player who never moves loses on time; it ends with
//! the host.

use std::{
    sync::{
        Arc, Mutex, MutexGuard, Weak,
        mpsc::{self, Receiver, RecvTimeoutError, Sender},
    },
    time::Duration,
};

use crate::{
    game::{Answer, Progress, Think},
    pool::{Class, Pool},
    table::{Applied, EngineJob, Event, Table},
};

/// How often the host's ticker checks the clocks: a flag falls at most this late when
/// nobody moves (a move is checked against its clock exactly).
pub const CLOCK_TICK: Duration = Duration::from_millis(100);

/// One game table and its engine queue, shared by every door of a process.
pub struct Host {
    table: Mutex<Table>,
    pool: Arc<Pool>,
    /// Dropped with the host: its ticker thread ends at once (not a tick later).
    _ticker: Sender<()>,
}

impl Host {
    /// The host of `table`; call [`Host::start_engines`] to start the engines of the
    /// games restored from disk.
    pub fn new(table: Table) -> Arc<Host> {
        let (stop, stopped) = mpsc::channel();
        let host = Arc::new(Host {
            table: Mutex::new(table),
            pool: Pool::new(),
            _ticker: stop,
        });
        let weak = Arc::downgrade(&host);
        let ticker = std::thread::Builder::new()
            .name("clock-ticker".into())
            .spawn(move || tick_clocks(&weak, &stopped));
        if let Err(e) = ticker {
            // Moves are still checked against their clocks; only a player who never
            // moves is not flagged. The operator is told.
            host.table()
                .push_note(format!("cannot start the clock ticker: {e}"));
        }
        host
    }

    /// The table, locked (also after a thread panicked holding it: the table's methods
    /// leave it consistent at every return). Hold it briefly: never while thinking or
    /// doing network I/O.
    pub fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Thinks `job` for game `game` on the calling thread once the engine queue gives it
    /// a thread (blocks until then): hints and analyses of a door.
    pub fn think(
        &self,
        class: Class,
        game: u64,
        job: Box<dyn Think>,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Answer, String> {
        let _permit = self.pool.acquire(class, game);
        job.think(progress)
    }

    /// Starts the engine move game `id` needs, if any, on its own thread (and the next
    /// one after it, for an engine against an engine).
    pub fn kick(self: &Arc<Host>, id: u64) {
        let Some(job) = self.table().engine_job(id) else {
            return;
        };
        let (version, seat) = (job.version, job.seat);
        let host = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name(format!("engine-game-{id}"))
            .spawn(move || host.run_engine(job));
        if let Err(e) = spawned {
            // The game waits for its people, who are told why.
            self.table().engine_moved(
                id,
                version,
                seat,
                Err(format!("cannot start an engine thread: {e}")),
            );
        }
    }

    fn run_engine(self: Arc<Host>, job: EngineJob) {
        let EngineJob {
            game,
            version,
            seat,
            think,
            followers,
            person_waits,
        } = job;
        let class = if person_waits {
            Class::Person
        } else {
            Class::EngineGame
        };
        let answer = self.think(class, game, think, &mut |progress| {
            followers.send(&Event::Thinking { seat, progress });
        });
        loop {
            let applied = self
                .table()
                .engine_moved(game, version, seat, answer.clone());
            match applied {
                Applied::Played | Applied::Stale => return self.kick(game),
                // The game waits for the people (a takeback, a new seat).
                Applied::Failed => return,
                // This thread keeps the move and saves it again later.
                Applied::NotSaved { wait } => std::thread::sleep(wait),
            }
        }
    }

    /// Flags the players whose clocks ran out at the table's time now; the ids of the
    /// games that ended on time.
    pub fn check_clocks(&self) -> Vec<u64> {
        let mut table = self.table();
        let now = table.now();
        table.check_clocks(now)
    }

    /// Starts the engines of every game whose engine seat is to move (after a restart).
    pub fn start_engines(self: &Arc<Host>) {
        let ids = self.table().ids();
        for id in ids {
            self.kick(id);
        }
    }
}

/// The ticker: checks the clocks every [`CLOCK_TICK`] while the host lives (`stopped`
/// disconnects when it is dropped).
fn tick_clocks(host: &Weak<Host>, stopped: &Receiver<()>) {
    while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(CLOCK_TICK) {
        let Some(host) = host.upgrade() else { return };
        host.check_clocks();
    }
}

#[cfg(test)]
mod tests {
    use std::{sync::mpsc, time::Duration};

    use super::*;
    use crate::{Level, table::SeatChoice};

    #[test]
    fn the_ticker_flags_a_player_who_never_moves() {
        let (table, _) = Table::open(None).expect("in memory");
        let host = Host::new(table);
        let people = [SeatChoice::Human; 2];
        let time = Some("1s".parse().expect("time control"));
        let c = host
            .table()
            .create_timed("gomoku:size=9", people, None, time)
            .expect("created");
        let (tx, rx) = mpsc::channel();
        host.table()
            .subscribe(
                c.id,
                Box::new(move |e| {
                    if let Event::Flagged { seat, .. } = e {
                        let _ = tx.send(*seat);
                    }
                    true
                }),
            )
            .expect("subscribed");
        let seat = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the flag falls");
        assert_eq!(seat, board_core::Player::First);
    }

    #[test]
    fn an_engine_game_is_played_to_its_end_on_the_engine_threads() {
        let (table, _) = Table::open(None).expect("in memory");
        let host = Host::new(table);
        let engines = [SeatChoice::Engine(Level::Random); 2];
        let c = host.table().create("fourshift", engines).expect("created");
        let (tx, rx) = mpsc::channel();
        host.table()
            .subscribe(
                c.id,
                Box::new(move |e| {
                    if let Event::Moved { over: Some(_), .. } = e {
                        let _ = tx.send(());
                    }
                    true
                }),
            )
            .expect("subscribed");
        host.kick(c.id);
        rx.recv_timeout(Duration::from_secs(60))
            .expect("the game ends");
        let state = host.table().state(c.id, [false; 2]).expect("state");
        assert!(state.ended.is_some() && !state.moves.is_empty());
        assert_eq!(state.thinking, None);
    }
}
