//! clamp players (`games.md`, section "clamp": drop or step, custodian capture).
//!
//! # Baseline (the source article's AI)
//! Fixed-depth alpha-beta to depth [`BASELINE_DEPTH`] (4), no table, no ordering, no
//! quiescence ([`SearchOptions::plain_alpha_beta`]); evaluation, from the side to move's
//! point of view, `material·100 + centre·4 + mobility·2`, each term own minus opponent's
//! ([`terms::ClampTerms::baseline`]):
//! - **material**: pieces on the board;
//! - **centre**: the sum over the pieces of their ring from the edge
//!   ([`terms::centrality`]: 0 on the outer ring, 1 on the next, …, 3 on the four
//!   centre squares of 8×8);
//! - **mobility**: the number of legal moves the player would have if on move — steps of 1
//!   or 2 squares along the 8 lines (the square between empty) plus, while the player has
//!   fewer than `max_on_board` pieces, the empty squares of their drop zone.
//!
//! [`baseline_value`] computes it with bitboards on boards up to 8×8 (the tests check it
//! against `ClampTerms`) and with `ClampTerms` itself on larger boards.
//!
//! # Engine
//! [`EngineEval`] with the default search (iterative deepening, aspiration, PVS,
//! transposition table, killers, history):
//! - **ordering**: captures first, by the number of pieces taken, then moves that land next
//!   to an enemy piece;
//! - **quiescence** over capturing moves ([`Evaluator::noisy`]);
//! - **repetition** of a position is a draw;
//! - **evaluation** (side to move's view): material (weight 120), centre rings (3),
//!   mobility (1), **safety** — own pieces the opponent can capture with one move (a drop
//!   or a step onto the empty square that clamps them), more costly when two or more are
//!   attacked since only one can be saved — and the side to move's own capture chances,
//!   **drop-zone control** (own pieces guarding the opponent's drop zone, which makes
//!   their drops riskier), and the **quiet counter**: without adjudication a lead is worth
//!   less as the quiet limit nears (the game will be drawn); with adjudication the lead in
//!   pieces becomes decisive near the limit, and so, at equal counts, the lead on the
//!   centre 4×4 block (the adjudication's tie-break);
//! - **pieces in hand** under a finite `supply` (60 per piece more than the opponent): the
//!   drops still to come. Mobility and the capture threats already count drops only while
//!   the hand has a piece (the rules crate's `can_drop` and `mobility` know the hand).
//!
//! # Measured (8×8 defaults, 100 ms a move)
//! Engine against baseline games are draws: both sides refill to `max_on_board` by
//! dropping after every capture (the supply is unlimited), so neither side runs out of
//! pieces or moves; captures keep resetting the quiet counter and games run to the quiet
//! limit or to the match's 2,000-ply guard. With `adjudicate=true` both sides also reach
//! the limit with 10 pieces each (draws on adjudication).

use board_core::{
    Bitboard64, Direction, Geometry, Player, Position as _, Rules as _, SquareSet, StepMasks,
};
use rules_clamp::{ClampPosition, Move};
use search::{Agent, Evaluator, OptionsError, SearchAgent, SearchOptions};
use std::sync::OnceLock;
use terms::ClampTerms;

use crate::EngineGame;

/// The game's position type.
pub type Position = rules_clamp::ClampPosition;

/// The baseline's fixed search depth.
pub const BASELINE_DEPTH: u32 = 4;

/// Benchmark positions: (game spec, moves from the start).
pub const BENCH_POSITIONS: &[(&str, &str)] = &[
    ("clamp", ""),
    ("clamp", "c6-c4 d3-d4 d6-d5 e3-e4"),
    ("clamp", "c6-c4 d3-d4 d6-d5 e3-e4 h7 a2"),
    ("clamp", "c6-c5 c3-c4 f6-f5 f3-f4 d7 e2 e6-e5 d3-d4"),
];
/// The depth `boardlab bench` searches [`BENCH_POSITIONS`] to.
pub const BENCH_DEPTH: u32 = 5;

// ---- bitboards up to 8x8 ------------------------------------------------------------------

/// Shift tables of one board size up to 8×8: board-core's edge masks and the centre rings.
#[derive(Debug)]
struct SmallTables {
    /// One-step shifts that never wrap, and every square of the board.
    steps: StepMasks<Bitboard64>,
    /// `rings[i]`: squares at ring `i + 1` or deeper (so Σ popcounts = Σ rings).
    rings: Vec<Bitboard64>,
}

impl SmallTables {
    fn of(g: &'static Geometry) -> Option<&'static SmallTables> {
        static TABLES: [OnceLock<Option<SmallTables>>; 9] = [const { OnceLock::new() }; 9];
        let size = g.width();
        if g.cells() > 64 || g.width() != g.height() || size as usize >= TABLES.len() {
            return None;
        }
        TABLES[size as usize]
            .get_or_init(|| {
                let steps = StepMasks::new(g)?;
                let max_ring = (size.saturating_sub(1)) / 2;
                let rings = (1..=max_ring)
                    .map(|r| {
                        g.squares()
                            .filter(|&s| terms::centrality(g, s).unwrap_or(0) >= r)
                            .collect()
                    })
                    .collect();
                Some(SmallTables { steps, rings })
            })
            .as_ref()
    }

    /// Every square of the board.
    #[inline(always)]
    fn all(&self) -> Bitboard64 {
        self.steps.board()
    }

    /// `x` moved one step in direction `d` (squares falling off the board vanish).
    #[inline(always)]
    fn fwd(&self, x: Bitboard64, d: usize) -> Bitboard64 {
        self.steps.shift(x, Direction::ALL[d])
    }

    /// `x` moved one step against direction `d`.
    #[inline(always)]
    fn back(&self, x: Bitboard64, d: usize) -> Bitboard64 {
        self.steps.shift(x, Direction::ALL[d].opposite())
    }

    fn centre(&self, x: Bitboard64) -> i32 {
        self.rings.iter().map(|&m| (x & m).count() as i32).sum()
    }

    /// Empty squares a piece of `own` can step to (1 or 2 squares, the middle one empty).
    fn step_targets(&self, own: Bitboard64, empty: Bitboard64) -> Bitboard64 {
        let mut t = Bitboard64::EMPTY;
        for d in 0..8 {
            let one = self.fwd(own, d) & empty;
            t |= one | (self.fwd(one, d) & empty);
        }
        t
    }
}

/// The drop zone of `p` as a mask.
fn zone_mask(pos: &ClampPosition, p: Player) -> Bitboard64 {
    let cfg = pos.config();
    let (size, zone) = (cfg.size(), cfg.zone());
    let rows = (1u64 << (zone * size).min(63)) - 1;
    Bitboard64(match p {
        Player::Second => rows,
        Player::First => rows << ((size - zone) * size),
    })
}

/// One side's bitboard view of a position (boards up to 8×8).
struct Sides {
    b: &'static SmallTables,
    own: Bitboard64,
    opp: Bitboard64,
    empty: Bitboard64,
}

impl Sides {
    fn of(pos: &ClampPosition, me: Player) -> Option<Sides> {
        let b = SmallTables::of(pos.geometry())?;
        let own = pos.bitboard(me)?;
        let opp = pos.bitboard(me.other())?;
        Some(Sides {
            b,
            own,
            opp,
            empty: b.all().without_all(own | opp),
        })
    }

    /// Squares `attacker`'s pieces (`a`, who may drop into `zone` if `drops`) can land on
    /// next move, and the enemy pieces (`v`) that such a landing would capture.
    fn threats(
        &self,
        a: Bitboard64,
        v: Bitboard64,
        zone: Bitboard64,
        drops: bool,
    ) -> (Bitboard64, u32) {
        let b = self.b;
        let mut reach = b.step_targets(a, self.empty);
        if drops {
            reach |= zone & self.empty;
        }
        let mut victims = Bitboard64::EMPTY;
        let mut best = 0u32;
        let mut per_landing = [0u8; 64];
        for d in 0..8 {
            // Landing t with a victim at t+d and an anchor at t+2d.
            let landings = reach & b.back(v, d) & b.back(b.back(a, d), d);
            if !landings.is_empty() {
                victims |= b.fwd(landings, d);
                for t in landings {
                    let i = t.index() & 63;
                    per_landing[i] += 1;
                    best = best.max(u32::from(per_landing[i]));
                }
            }
        }
        (victims, best)
    }
}

impl EngineGame for Position {
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Position>>, OptionsError> {
        // Time is the caller's: a protocol's budget keeps its own reserve.
        Ok(Box::new(SearchAgent::new(
            "engine",
            EngineEval,
            options,
            Position::clone,
        )?))
    }

    fn baseline() -> Result<Box<dyn Agent<Position>>, OptionsError> {
        // Quiescence is left on, but the baseline evaluator has no noisy moves.
        search::baseline_agent(
            BaselineEval,
            SearchOptions::plain_alpha_beta(),
            Position::clone,
            BASELINE_DEPTH,
        )
    }
}

mod baseline;
mod engine;
pub mod terms;

pub use baseline::*;
pub use engine::*;

#[cfg(test)]
mod tests;
