//! Game-agnostic game-tree search over any [`board_core::Position`].
//!
//! - Negamax alpha-beta (fail-soft) with principal-variation search, iterative deepening
//!   and aspiration windows.
//! - A shared, lock-free transposition table (size in MiB, two-slot buckets:
//!   depth-preferred plus always-replace), TT moves validated before they are played.
//! - Move ordering: TT move, the game's hints, killers, countermoves, history.
//! - Turns need not alternate: a score is negated only when the side to move changes.
//! - [`Score`]: heuristic values (`cp 35`) apart from forced results by distance (`win 7`,
//!   `loss 4`): the search wins fastest and loses slowest.
//! - Optional quiescence, repetition draws and a tactical pre-check, all game hooks of
//!   [`Evaluator`].
//! - [`Limits`]: depth, nodes, soft/hard time, an external stop flag; a legal move always.
//! - [`time`]: the time management every engine shares: a protocol's limits
//!   ([`TimeControl`]) become a target and a hard stop ([`TimeBudget`]), and
//!   [`IterationClock`] decides iteration by iteration whether to go on.
//! - Per-iteration [`IterationReport`]s to a callback, a final [`SearchResult`] with
//!   [`SearchStats`].
//! - Seeded tie-break among equal root moves; Lazy SMP on N threads; [`ttd`] measures
//!   time to depth.
//! - [`minimax`](reference::minimax): the unpruned reference the tests compare against.
//!
//! No forward pruning is done by default, so at a fixed depth the search returns exactly
//! the minimax value: the games include zugzwang-heavy ones (Amazons endgames, k-in-a-row
//! threats) where pruning on general grounds is unsafe, and a game prunes in its own
//! [`Evaluator::candidates`] where it knows it is safe. Late-move reductions are available
//! opt-in: the search's generic rule for unhinted quiet moves
//! ([`SearchOptions::with_late_move_reductions`]), or the game's own rule for any move
//! ([`Evaluator::late_move_reduction`]). Null-move pruning is not offered:
//! a [`board_core::Position`] has no pass move, and zugzwang is common in these games.
//!
//! # Example: a tiny game, its evaluator, a search
//!
//! A pile of counters; each turn takes one to three; whoever takes the last one wins.
//! The side to move loses exactly when the pile is a multiple of four.
//!
//! ```
//! use board_core::{NotationError, Notation, Outcome, Player, Rules};
//! use boardlab_search::{Evaluator, Limits, Score, SearchOptions, Searcher};
//!
//! #[derive(Clone, Debug, PartialEq)]
//! struct Pile {
//!     counters: u32,
//!     to_move: Player,
//!     ply: u32,
//! }
//!
//! #[derive(Clone, Debug, PartialEq, thiserror::Error)]
//! #[error("cannot take {0}")]
//! struct BadTake(u32);
//!
//! // A search needs the rules and the notation of moves only: no config, no position
//! // strings, no diagram (those are `Position`'s, for front ends and save files).
//! impl Rules for Pile {
//!     type Move = u32; // how many counters to take
//!     type Undo = ();
//!     type MoveError = BadTake;
//!
//!     fn side_to_move(&self) -> Player {
//!         self.to_move
//!     }
//!     fn ply(&self) -> u32 {
//!         self.ply
//!     }
//!     fn hash(&self) -> u64 {
//!         u64::from(self.counters) << 1 | self.to_move.index() as u64
//!     }
//!     fn compute_hash(&self) -> u64 {
//!         self.hash()
//!     }
//!     fn outcome(&self) -> Option<Outcome> {
//!         // The player who took the last counter (not the one to move) has won.
//!         (self.counters == 0).then(|| Outcome::Win(self.to_move.other()))
//!     }
//!     fn generate_moves(&self, moves: &mut Vec<u32>) {
//!         moves.clear();
//!         moves.extend((1..=3).filter(|&n| n <= self.counters));
//!     }
//!     fn validate(&self, mv: &u32) -> Result<(), BadTake> {
//!         if (1..=3).contains(mv) && *mv <= self.counters { Ok(()) } else { Err(BadTake(*mv)) }
//!     }
//!     fn make_move(&mut self, mv: u32) {
//!         self.counters -= mv;
//!         self.to_move = self.to_move.other();
//!         self.ply += 1;
//!     }
//!     fn unmake_move(&mut self, mv: u32, _: ()) {
//!         self.counters += mv;
//!         self.to_move = self.to_move.other();
//!         self.ply -= 1;
//!     }
//! }
//!
//! impl Notation for Pile {
//!     fn parse_move(&self, text: &str) -> Result<u32, NotationError> {
//!         text.trim().parse().map_err(|_| NotationError::syntax(text, "a number"))
//!     }
//!     fn format_move(&self, mv: u32) -> String {
//!         mv.to_string()
//!     }
//! }
//!
//! /// Knows the theory: a multiple of four is lost for the side to move.
//! struct PileEval;
//!
//! impl Evaluator<Pile> for PileEval {
//!     fn evaluate(&self, pos: &Pile) -> i32 {
//!         if pos.counters % 4 == 0 { -100 } else { 100 }
//!     }
//!     // Try the move that leaves a multiple of four first.
//!     fn move_hint(&self, pos: &Pile, mv: u32) -> i32 {
//!         i32::from((pos.counters - mv) % 4 == 0)
//!     }
//! }
//!
//! let mut searcher = Searcher::new(PileEval, SearchOptions::default())?;
//! let pos = Pile { counters: 21, to_move: Player::First, ply: 0 };
//! let mut lines = Vec::new();
//! let result = searcher.search_with(&pos, &Limits::new().with_depth(30), |it| {
//!     lines.push(it.info_line(&pos));
//! });
//! assert_eq!(result.best_move, Some(1)); // leave 20
//! assert!(lines[0].starts_with("info depth 1 seldepth 1 score cp 100"));
//! // Searched to the end: the loser delays by taking one counter at a time, the winner
//! // takes three each time and wins on the 11th turn.
//! assert_eq!(result.score, Score::win_in(11));
//! assert_eq!(result.score.to_string(), "win 11");
//! assert_eq!(result.pv, [1, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3]);
//! # Ok::<(), boardlab_search::OptionsError>(())
//! ```

#![deny(missing_docs)]

pub mod agent;
mod evaluator;
mod incremental;
mod options;
mod ordering;
pub mod reference;
mod report;
mod score;
mod searcher;
pub mod time;
mod tt;
pub mod ttd;
mod worker;

pub use agent::{
    Agent, AgentError, AgentKind, RandomAgent, SearchAgent, UnknownAgent, baseline_agent,
    think_checked,
};
pub use evaluator::{Evaluator, ForcedWin};
pub use incremental::{EvalState, Incremental};
pub use options::{Limits, MAX_DEPTH, OptionsError, SearchOptions};
pub use report::{IterationReport, SearchResult, SearchStats, StopReason, format_pv};
pub use score::{Score, ScoreKind};
pub use searcher::Searcher;
pub use time::{Clock, Decision, IterationClock, IterationEnd, TimeBudget, TimeControl};
