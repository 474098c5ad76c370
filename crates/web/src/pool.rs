//! The engine pool: at most [`ENGINE_THREADS`] engines think at once, and the threads go
//! fairly. A person waiting for an engine (an engine move in a game with a person's
//! seat, a hint, an analysis) is served first, round robin between games; games between
//! engines share at most [`ENGINE_THREADS`]` - 1` threads (one with a single thread), so
//! one thread is always left for people and a person's reply never waits behind other
//! games' engine-against-engine searches.

use std::{
    collections::{BTreeMap, VecDeque},
    sync::{Arc, Mutex, MutexGuard},
};

use boardlab_host::limits::ENGINE_THREADS;
use tokio::sync::oneshot;

/// Whom a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A person waits for it (game `0`: a request outside any game).
    Person,
    /// A game between engines: nobody waits for each move.
    EngineGame,
}

struct Waiter {
    class: Class,
    game: u64,
    grant: oneshot::Sender<Permit>,
}

#[derive(Default)]
struct State {
    /// Threads free.
    free: usize,
    /// Threads thinking for games between engines.
    engine_games: usize,
    waiting: VecDeque<Waiter>,
    /// When each game was last served (a counter): the least recently served goes first.
    served: BTreeMap<u64, u64>,
    clock: u64,
}

/// The pool's shared state.
pub struct Pool {
    state: Mutex<State>,
}

/// Most threads games between engines use at once.
const ENGINE_GAME_THREADS: usize = if ENGINE_THREADS > 1 {
    ENGINE_THREADS - 1
} else {
    1
};

/// A thread of the pool, held while one search runs; freed on drop.
pub struct Permit {
    pool: Arc<Pool>,
    class: Class,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut s = self.pool.lock();
        s.free += 1;
        if self.class == Class::EngineGame {
            s.engine_games -= 1;
        }
        Pool::dispatch(&self.pool, s);
    }
}

impl Pool {
    /// A pool of [`ENGINE_THREADS`] threads.
    pub fn new() -> Arc<Pool> {
        Arc::new(Pool {
            state: Mutex::new(State {
                free: ENGINE_THREADS,
                ..State::default()
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a thread for a search of `class` for game `game`.
    pub async fn acquire(self: &Arc<Pool>, class: Class, game: u64) -> Permit {
        loop {
            let (grant, granted) = oneshot::channel();
            {
                let mut s = self.lock();
                s.waiting.push_back(Waiter { class, game, grant });
                Pool::dispatch(self, s);
            }
            // The pool lives as long as this `Arc`: a grant is only lost if the pool
            // went, which it cannot while we hold it; ask again then.
            if let Ok(permit) = granted.await {
                return permit;
            }
        }
    }

    /// Hands free threads to the waiters who go first.
    fn dispatch(pool: &Arc<Pool>, mut s: MutexGuard<'_, State>) {
        while s.free > 0 {
            let may = |w: &Waiter, s: &State| {
                w.class == Class::Person || s.engine_games < ENGINE_GAME_THREADS
            };
            let pick = s
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| may(w, &s))
                .min_by_key(|(i, w)| {
                    (
                        w.class == Class::EngineGame,
                        s.served.get(&w.game).copied().unwrap_or(0),
                        *i,
                    )
                })
                .map(|(i, _)| i);
            let Some(i) = pick else { break };
            let Some(w) = s.waiting.remove(i) else { break };
            if w.grant.is_closed() {
                continue;
            }
            s.free -= 1;
            if w.class == Class::EngineGame {
                s.engine_games += 1;
            }
            s.clock += 1;
            let clock = s.clock;
            s.served.insert(w.game, clock);
            let permit = Permit {
                pool: Arc::clone(pool),
                class: w.class,
            };
            // A waiter gone meanwhile drops the permit, which frees the thread again:
            // that re-enters dispatch, so release the lock first.
            if let Err(permit) = w.grant.send(permit) {
                drop(s);
                drop(permit);
                return;
            }
        }
        // Forget games with nothing waiting, so the map stays small.
        if s.waiting.is_empty() {
            s.served.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_person_is_served_before_queued_engine_games_and_one_thread_stays_free() {
        let pool = Pool::new();
        let mut held = Vec::new();
        for game in 1..=ENGINE_GAME_THREADS as u64 {
            held.push(pool.acquire(Class::EngineGame, game).await);
        }
        // Games between engines get no more threads, however many wait.
        let waiting: Vec<_> = (10..14)
            .map(|g| {
                let pool = Arc::clone(&pool);
                tokio::spawn(async move { pool.acquire(Class::EngineGame, g).await })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(waiting.iter().all(|w| !w.is_finished()));
        // A person gets the thread left at once.
        let person = tokio::time::timeout(Duration::from_secs(1), pool.acquire(Class::Person, 99))
            .await
            .expect("served at once");
        drop(person);
        // Freed engine threads go round robin to the waiting games.
        drop(held);
        for w in waiting {
            drop(
                tokio::time::timeout(Duration::from_secs(1), w)
                    .await
                    .expect("served in turn")
                    .expect("task"),
            );
        }
    }
}
