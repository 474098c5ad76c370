//! gomoku players (15×15 and 20×20, `freestyle` and `exact5`).
//!
//! # Engine
//! [`TimedEngine`]: a [`SearchAgent`] over [`EnginePosition`] (`search::Incremental` of the rules position
//! and [`GomokuState`]) with [`GomokuEval`]:
//! - **State** (`board.rs`): per cell, colour and axis a key of the ten cells around it; a
//!   table gives the line class a stone there would make (five, open four, four, open,
//!   broken and closed three, twos; exact-five refuses overlines), and the four classes
//!   combine into one code per cell and colour with its kind (five, flex four = open or
//!   double four, four-three, four, double three, three), evaluation weight and ordering
//!   value. A move updates only the cells within 4 (freestyle) or 5 (exact-five) steps
//!   along its four lines, plus per-colour sums, kind counts and the sets of five and four
//!   points; per cell also the number of stones within distance 2 (the candidate area).
//! - **Evaluation** ([`static_value`]): the forcing threats first, in the order
//!   they would be played, the side to move first (its initiative): our five point wins;
//!   two opponent five points lose; one must be blocked; our flex four wins unless the
//!   opponent has a four to answer with; our four-three, or double three, wins if the
//!   opponent has no four (nor open three). Otherwise the sum of our cells' weights minus
//!   the opponent's, each side with its own weights ([`EVAL_WEIGHTS`]: the side to move's
//!   cells are worth more, it plays first): a cell weighs its four line classes, its kind's
//!   bonus and its [`Combo`] (a three or closed three beside an open two, two open twos);
//!   plus a value by [`threat_mask`] (which of a four, an open three and a winning threat
//!   each side can make next: who holds the initiative), all fitted to game results
//!   ([`tune`]).
//! - **Candidates** (the staged picker; the search tries the TT move first): our five; else
//!   the blocks of the opponent's five points; else, against an open three (or double-four
//!   point), only its defence points (where the opponent would make a four) and our own
//!   fours; else the best [`engine::MAX_CANDIDATES`] (24, 16, 12, then 9 by distance from
//!   the root) empty squares within distance 2 of a stone, by threat value (what a stone
//!   there makes for us plus 4/5 of what it makes for the opponent).
//! - **Ordering**: the same threat value as a move hint (ahead of killers/history).
//! - **Quiescence**: at the horizon our five, or the blocks of the opponent's five points,
//!   are searched (a four is never left hanging at a leaf).
//! - **Forward pruning** off the principal variation (`Evaluator::futility_margin` and
//!   `razor_margin`): reverse futility at depths 1-3 with margins [`FUTILITY_MARGINS`]
//!   read from the hand evaluation's odd/even swing (session 6; `margins.rs` measures
//!   it), not while the opponent has a four, an open three, a four-three or a
//!   double-three point; razoring into quiescence at depths 1-2 ([`RAZOR_MARGINS`]), not
//!   at a forced block nor when the side to move has a winning move of its own (five,
//!   flex four, four-three, double three).
//! - **Threat search**: VCF (continuous fours, each with its single forced reply, the
//!   defender's counter-fours respected) on the pattern state alone (`threats.rs`: stones
//!   are put on the engine position's own [`GomokuState`] and taken back, not on the rules
//!   position), at the root, run by [`TimedEngine`] before the search (up to 20,000 nodes or 20% of the hard time, failed
//!   positions memoised), and through `Evaluator::forced_win` at interior nodes (budget
//!   `6·depth²` nodes, at most 200, from depth 2).
//! - **Threat-space search** (VCT, `threats.rs`, [`find_vct`]): fours and open threes,
//!   the defender's full set of replies after a three (its counter-fours and every square
//!   that leaves no open or double four next; any other reply loses to one), so a VCT found
//!   is a proof; and [`threat_defence`], the moves that refute the opponent's VCF or VCT.
//!   Both are tested and measured on the threat suite (`data/gomoku-threats.txt`) but are
//!   not part of the engine's play: at the root and inside the search neither gained in
//!   matches against the previous build (`docs/strength.md`, issue 26).

//! # Baseline
//! See [`baseline_eval`] and [`baseline_candidates`]: the article's depth-4 alpha-beta over radius-2 candidates with its run
//! scores.

mod baseline;
mod board;
mod classes;
mod engine;
#[cfg(test)]
mod margins;
#[cfg(test)]
mod suite;
#[cfg(test)]
mod tests;
mod threats;
pub mod tune;

pub use baseline::{BASELINE_DEPTH, BaselineEval, baseline_candidates, baseline_eval, run_score};
pub use board::{
    COMBOS, CellWeights, Combo, EVAL_WEIGHTS, EvalWeights, HAND_WEIGHTS, THREAT_MASKS,
};
pub use engine::{
    DEFENCE_VCT_THREES, EnginePosition, FEATURES, FUTILITY_MARGINS, GomokuEval, GomokuState,
    MAX_CANDIDATES, RAZOR_MARGINS, find_vcf, find_vct, quiet_features, quiet_value, static_value,
    threat_defence, threat_mask, wrap,
};
use rules_gomoku::Move;
use std::time::Instant;

use board_core::Rules as _;
use search::{
    IterationReport, Limits, OptionsError, Score, SearchOptions, SearchResult, SearchStats,
    StopReason,
};

use search::{Agent, SearchAgent};

use crate::EngineGame;

/// The game's position type.
pub type Position = rules_gomoku::GomokuPosition;

/// Positions for `boardlab bench`: (game spec, moves from the start).
pub const BENCH_POSITIONS: &[(&str, &str)] = &[
    ("gomoku", "h8 i9 g9 i7 i8 g7"),
    ("gomoku", "h8 h9 i9 g7 j10 k11 i8 i10 g8 j8 f8 e8 h7"),
    ("gomoku:size=20", "k10 l11 j11 l9 l10 j10 k11 k12 m10"),
    ("gomoku:rule=exact5", "h8 h9 g9 i7 i9 g8 f10 e11 j8"),
];

/// Depth at which `boardlab bench` searches [`BENCH_POSITIONS`].
pub const BENCH_DEPTH: u32 = 10;

/// The engine: a root VCF under a share of the move's time, then the search, both on the
/// move's clock (the caller's [`Limits::start`], or when `think` is called), so the search
/// gets what the VCF left of the caller's budget.
pub struct TimedEngine {
    inner: SearchAgent<Position, EnginePosition, GomokuEval>,
}

impl TimedEngine {
    /// The engine under `options`.
    pub fn new(options: SearchOptions) -> Result<TimedEngine, OptionsError> {
        Ok(TimedEngine {
            inner: SearchAgent::new("engine", GomokuEval::new(), options, wrap)?,
        })
    }
}

impl Agent<Position> for TimedEngine {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn set_game_history(&mut self, hashes: &[u64]) {
        self.inner.set_game_history(hashes);
    }

    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        report: &mut dyn FnMut(&IterationReport<Move>),
    ) -> SearchResult<Move> {
        let start = limits.start().unwrap_or_else(Instant::now);
        if pos.outcome().is_none() {
            let deadline = limits
                .hard_time()
                .and_then(|h| start.checked_add(h * ROOT_VCF_TIME_SHARE / 100));
            if let Some(fw) = find_vcf(&mut wrap(pos), ROOT_VCF_NODES, true, deadline)
                && pos.validate(&fw.mv).is_ok()
            {
                let result = proven(fw, start);
                report(&IterationReport {
                    depth: 1,
                    seldepth: 1,
                    score: result.score,
                    nodes: 1,
                    time: result.stats.time,
                    nps: 0,
                    tt_hit_rate: 0.0,
                    hashfull: 0,
                    pv: result.pv.clone(),
                });
                return result;
            }
        }
        self.inner
            .searcher_mut()
            .evaluator()
            .set_root_ply(pos.ply());
        // The VCF's time counts against the move's budget.
        let limits = limits.clone().with_start(start);
        self.inner.think(pos, &limits, report)
    }
}

/// Root VCF node budget (also bounded by [`ROOT_VCF_TIME_SHARE`] of the hard time).
pub const ROOT_VCF_NODES: u32 = 20_000;
/// Share of the hard time the root VCF may take, in percent.
pub const ROOT_VCF_TIME_SHARE: u32 = 20;

/// The search result of a VCF found at the root.
fn proven(fw: search::ForcedWin<Move>, start: Instant) -> SearchResult<Move> {
    let time = start.elapsed();
    SearchResult {
        best_move: Some(fw.mv),
        score: Score::win_in(fw.turns.max(1)),
        depth: 1,
        pv: vec![fw.mv],
        stop_reason: StopReason::Proven,
        stats: SearchStats {
            nodes: 1,
            time,
            threads: 1,
            ..SearchStats::default()
        },
        iterations: Vec::new(),
    }
}

impl EngineGame for Position {
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Position>>, OptionsError> {
        Ok(Box::new(TimedEngine::new(options)?))
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
