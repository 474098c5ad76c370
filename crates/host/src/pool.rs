//! The engine queue, one for every door: at most [`ENGINE_THREADS`] engines think at
//! once, and the threads go fairly. A person waiting for an engine (an engine move in a
//! game with a person's seat, a hint, an analysis) is served first, round robin between
//! games; games between engines share at most [`ENGINE_GAME_THREADS`] threads
//! ([`ENGINE_THREADS`]` - 1`, one with a single thread), so one thread is always left for people and a person's reply never
//! waits behind other games' engine-against-engine searches.
//!
//! Synchronous: [`Pool::acquire`] blocks the calling thread until a thread of the pool
//! is its ([`Permit`], freed on drop). An async door calls it from a blocking thread.

use std::{
    collections::{BTreeMap, VecDeque},
    sync::{Arc, Condvar, Mutex, MutexGuard},
};

use crate::limits::{ENGINE_GAME_THREADS, ENGINE_THREADS};

/// Whom a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A person waits for it (game `0`: a request outside any game).
    Person,
    /// A game between engines: nobody waits for each move.
    EngineGame,
}

struct Waiter {
    ticket: u64,
    class: Class,
    game: u64,
}

#[derive(Default)]
struct State {
    /// Threads free.
    free: usize,
    /// Threads thinking for games between engines.
    engine_games: usize,
    waiting: VecDeque<Waiter>,
    /// Tickets granted a thread and not yet collected by their waiter.
    granted: Vec<u64>,
    next_ticket: u64,
    /// When each game was last served (a counter): the least recently served goes first.
    served: BTreeMap<u64, u64>,
    clock: u64,
}

/// The engine queue's shared state.
pub struct Pool {
    state: Mutex<State>,
    /// Signalled when threads are granted.
    granted: Condvar,
}

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
        self.pool.dispatch(&mut s);
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
            granted: Condvar::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Blocks until a thread is this caller's, for a search of `class` for game `game`.
    pub fn acquire(self: &Arc<Pool>, class: Class, game: u64) -> Permit {
        let mut s = self.lock();
        let ticket = s.next_ticket;
        s.next_ticket += 1;
        s.waiting.push_back(Waiter {
            ticket,
            class,
            game,
        });
        self.dispatch(&mut s);
        loop {
            if let Some(i) = s.granted.iter().position(|&t| t == ticket) {
                s.granted.swap_remove(i);
                return Permit {
                    pool: Arc::clone(self),
                    class,
                };
            }
            s = self.granted.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Hands free threads to the waiters who go first.
    fn dispatch(&self, s: &mut State) {
        let mut any = false;
        while s.free > 0 {
            let may = |w: &Waiter, s: &State| {
                w.class == Class::Person || s.engine_games < ENGINE_GAME_THREADS
            };
            let pick = s
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| may(w, s))
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
            s.free -= 1;
            if w.class == Class::EngineGame {
                s.engine_games += 1;
            }
            s.clock += 1;
            let clock = s.clock;
            s.served.insert(w.game, clock);
            s.granted.push(w.ticket);
            any = true;
        }
        // Forget games with nothing waiting, so the map stays small.
        if s.waiting.is_empty() {
            s.served.clear();
        }
        if any {
            self.granted.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{sync::mpsc, thread, time::Duration};

    use super::*;

    #[test]
    fn a_person_is_served_before_queued_engine_games_and_one_thread_stays_free() {
        let pool = Pool::new();
        let mut held = Vec::new();
        for game in 1..=ENGINE_GAME_THREADS as u64 {
            held.push(pool.acquire(Class::EngineGame, game));
        }
        // Games between engines get no more threads, however many wait.
        let (served, order) = mpsc::channel();
        let waiting: Vec<_> = (10..14)
            .map(|g| {
                let (pool, served) = (Arc::clone(&pool), served.clone());
                thread::spawn(move || {
                    let permit = pool.acquire(Class::EngineGame, g);
                    served.send(g).expect("test alive");
                    drop(permit);
                })
            })
            .collect();
        thread::sleep(Duration::from_millis(50));
        assert!(order.try_recv().is_err(), "no engine game served yet");
        // A person gets the thread left at once (this would block forever otherwise).
        let (tx, rx) = mpsc::channel();
        let person_pool = Arc::clone(&pool);
        thread::spawn(move || {
            let permit = person_pool.acquire(Class::Person, 99);
            tx.send(()).expect("test alive");
            drop(permit);
        });
        rx.recv_timeout(Duration::from_secs(5))
            .expect("the person is served at once");
        assert!(order.try_recv().is_err(), "still no engine game");
        // Freed engine threads go to every waiting game in turn.
        drop(held);
        let mut games: Vec<u64> = (0..4)
            .map(|_| order.recv_timeout(Duration::from_secs(5)).expect("served"))
            .collect();
        games.sort_unstable();
        assert_eq!(games, vec![10, 11, 12, 13]);
        for w in waiting {
            w.join().expect("waiter");
        }
    }
}
