//! amazons players (`games.md`, section "amazons"), 10×10 and the 8×8 Botzone variant.
//!
//! # Baseline (the source article's AI)
//! Fixed-depth alpha-beta to depth [`BASELINE_DEPTH`] (2) over **every** legal move, no
//! table, no killers or history ([`SearchOptions::plain_alpha_beta`]). Evaluation
//! ([`baseline_value`]), from the side to move's point of view:
//! `100·mobility − 6·centre`, each term own minus opponent's:
//! - **mobility**: the sum over the player's queens of the empty squares a queen move
//!   reaches (queen lines through empty squares);
//! - **centre**: the sum over the player's queens of their Chebyshev distance to the
//!   nearest of the four centre squares (e5 f5 e6 f6 on 10×10, d4 e4 d5 e5 on 8×8), so
//!   being central is good.
//!
//! Its only addition is move ordering, which cannot change a fixed-depth alpha-beta result:
//! [`BaselineEval::candidates`] returns all legal moves sorted by the cheap pre-score below
//! so that the first reply usually refutes.
//!
//! # Engine
//! [`EngineEval`] over [`EnginePosition`] with the default search (iterative deepening,
//! aspiration, PVS, transposition table, killers, countermoves, history):
//! - **evaluation** ([`engine_value`]) — Lieberum's territory/position blend from
//!   [`distances::AmazonsDistances`]: queen-distance territory `t1` and king-distance
//!   territory `t2` (ties count `κ = 0.2` for the side to move), `c1`, `c2`, interpolated by
//!   the game phase `p = min(1, w / (0.3·cells))` between the opening weights and the
//!   ending weights; plus **mobility** `Σ √m` over each queen's queen-move count `m` (own
//!   minus opponent's), weighted the same way, which punishes nearly trapped queens. The
//!   weights are data, [`EvalWeights`]. The hand weights [`HAND_WEIGHTS`] are Lieberum's:
//!   opening t1 .20, t2 .35, c1 .15, c2 .15, ending t1 .80, t2 .10, c1 .05, c2 .05, ×100
//!   per square, mobility `12·√m` weighted `0.3 + 0.7·p`. [`tune`] fits them to game
//!   results ([`quiet_features`] gives the terms they weigh): [`FITTED_WEIGHTS`] is their
//!   fit to 996 games on 8×8, and the engine's [`EVAL_WEIGHTS`] are that fit halved, so
//!   that a square of territory in the ending is worth about a move of the separated
//!   count below (the ratios of the fit, kept after a paired match against the hand
//!   weights, `docs/strength.md`). Once the queens are **separated** (`w = 0`: no empty square reachable
//!   by both), the value is the **filling** count: the moves each side can still make in
//!   its own regions ([`filling`]: exact by a bounded search of each region, which finds
//!   the squares a defective region wastes; a region too large or too slow to search
//!   counts its squares), own minus opponent's, ×100, minus 50 (with equal counts the side
//!   to move runs out first and loses: the game is never drawn);
//! - **candidates** ([`EngineEval::candidates`]): at the root, every legal move is made
//!   and scored by the static evaluation, and the best [`ROOT_K`] are searched; below the
//!   root, a cheap pre-score ranks the queen moves (the destination's mobility minus the
//!   origin's, blocking opponent queens), the best [`QUEEN_MOVES`] queen moves get their
//!   best [`ARROWS_PER_QUEEN_MOVE`] arrows each (arrows next to opponent queens with few
//!   liberties, in the opponent queens' lines, away from our own queens), and the best `K`
//!   of those are searched, `K` shrinking with the ply from the root ([`K_BY_PLY`]:
//!   20, 12, 8, …). At the first [`RERANK_PLIES`] plies below the root the pre-score only
//!   shortlists ([`RERANKED`] moves): each is made and scored by the static evaluation,
//!   and the best `K` by that value are searched (a paired match at 100 ms a move gained
//!   with it, see `docs/strength.md`). The shortlist there also gets up to [`TRAP_MOVES`]
//!   **trapping moves**: arrows onto a liberty of an opponent queen with at most
//!   [`TRAP_LIBERTIES`] empty neighbours, whatever the queen move's pre-score (a queen
//!   walled in by a move into a corner was missed that way in a lost Botzone game). The
//!   interior list is a pure function of the position; within the re-ranked plies and
//!   within the deeper ones, the lists of different plies are prefixes of the same order,
//!   so a transposition-table move index means the same move there (a mismatch between
//!   the two groups only costs ordering: the search checks the move's legality).
//!
//! Time: the engine searches within the caller's limits as given; the protocols' budgets
//! ([`search::TimeBudget`]) keep the reserve for their overhead, and the root ranking runs on
//! the move's clock.
//!
//! Measured (release, 100 ms per move, 50 games, colours swapped, `--seed 1`, on a heavily
//! loaded 2-core machine): 10×10 50–0–0 (engine max move time 99.8 ms; the baseline's
//! depth-2 moves take up to about 1 s), 8×8 50–0–0 (max 94.3 ms; an earlier run with
//! other load gave 49–0–1, max 138.8 ms). The engine reaches depth 3–4 in 100 ms on
//! 10×10, at roughly 30–60 k nodes per second (each node ranks its candidates).
//!
//! The only state carried move by move ([`RootPly`]) is the ply of the search root, which
//! tells the candidate generator how deep a node is; distances are recomputed per node.

use std::{cell::RefCell, collections::HashMap};

use board_core::{Bitboard128, Player, Rules as _, Square};
use distances::AmazonsDistances;
use rules_amazons::AmazonsMove;
use search::{Agent, EvalState, Evaluator, Incremental, OptionsError, SearchAgent, SearchOptions};

use crate::EngineGame;

/// The game's position type.
pub type Position = rules_amazons::AmazonsPosition;

/// The engine's search position: the game position plus the root ply.
pub type EnginePosition = Incremental<Position, RootPly>;

/// The baseline's fixed search depth.
pub const BASELINE_DEPTH: u32 = 2;

/// Root moves searched by the engine (the best by one-ply static evaluation).
pub const ROOT_K: usize = 60;
/// Candidates searched below the root, by ply from the root (1, 2, 3, deeper).
pub const K_BY_PLY: [usize; 4] = [20, 12, 8, 6];
/// Queen moves kept below the root before arrows are chosen.
pub const QUEEN_MOVES: usize = 12;
/// Arrows kept per queen move below the root.
pub const ARROWS_PER_QUEEN_MOVE: usize = 3;
/// Plies below the root (1 = the root's children) whose candidates are chosen by static
/// evaluation: the pre-score's best [`RERANKED`] moves are each made and evaluated, and
/// the best `K` of those are searched.
pub const RERANK_PLIES: usize = 2;
/// Moves taken from the pre-score for evaluation at the first [`RERANK_PLIES`] plies.
pub const RERANKED: usize = 40;
/// An opponent queen with at most this many empty neighbours is nearly trapped: at the
/// re-ranked plies, moves whose arrow takes one of its liberties join the shortlist.
pub const TRAP_LIBERTIES: u32 = 3;
/// Trapping moves added to the shortlist at most (the best by the pre-score).
pub const TRAP_MOVES: usize = 12;
/// At ply 1, positions with at most this many legal moves rank all of them by static value
/// (more cost too much time in the opening: about 60 such nodes per search).
pub const FULL_RANK_MAX_MOVES: usize = 400;
/// Positions whose ply-1 lists are kept (the cache is emptied when full).
const REPLY_CACHE_ENTRIES: usize = 4096;

/// Benchmark positions: (game spec, moves from the start).
pub const BENCH_POSITIONS: &[(&str, &str)] = &[
    ("amazons", ""),
    ("amazons", "d1-d8/b6 g10-g3/i5 j4-g4/f3 a7-e7/e8"),
    (
        "amazons",
        "d1-d8/b6 g10-g3/i5 j4-g4/f3 a7-e7/e8 g4-g7/f8 e7-b4/e7 a4-b3/c3 j7-h7/h8 \
         g7-g6/g4 g3-h2/h5 d8-d9/e10 d10-c9/c8",
    ),
    ("amazons:size=8", ""),
    (
        "amazons:size=8",
        "f8-f3/g4 c1-c7/f4 a6-c4/a4 a3-c3/f6 c8-d7/d2 h3-h5/b5 c4-b3/d1 h5-f7/d5",
    ),
];
/// The depth `boardlab bench` searches [`BENCH_POSITIONS`] to.
pub const BENCH_DEPTH: u32 = 4;

// ---- players --------------------------------------------------------------------------------

fn wrap_engine(pos: &Position) -> EnginePosition {
    Incremental::new(pos.clone())
}

impl EngineGame for Position {
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Position>>, OptionsError> {
        // Time is the caller's: a protocol's budget keeps its own reserve.
        Ok(Box::new(SearchAgent::new(
            "engine",
            EngineEval::default(),
            options,
            wrap_engine,
        )?))
    }

    fn baseline() -> Result<Box<dyn Agent<Position>>, OptionsError> {
        search::baseline_agent(
            BaselineEval,
            SearchOptions::plain_alpha_beta(),
            Position::clone,
            BASELINE_DEPTH,
        )
    }
}

mod baseline;
pub mod distances;
mod engine;
pub mod filling;
pub mod tune;

pub use baseline::*;
pub use engine::*;

#[cfg(test)]
mod tests;
