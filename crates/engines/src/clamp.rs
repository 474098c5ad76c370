//! clamp players (`games.md`, section "clamp": drop or step, custodian capture).
//!
//! # Baseline (the source article's AI)
//! Fixed-depth alpha-beta to depth [`BASELINE_DEPTH`] (4), no table, no ordering, no
//! quiescence ([`SearchOptions::plain_alpha_beta`]); evaluation, from the side to move's
//! point of view, `material·100 + centre·4 + mobility·2`, each term own minus opponent's
//! ([`eval::clamp::ClampTerms::baseline`]):
//! - **material**: pieces on the board;
//! - **centre**: the sum over the pieces of their ring from the edge
//!   ([`eval::clamp::centrality`]: 0 on the outer ring, 1 on the next, …, 3 on the four
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
use eval::clamp::ClampTerms;
use rules_clamp::{ClampPosition, Move};
use search::{Evaluator, OptionsError, SearchOptions};
use std::sync::OnceLock;

use crate::{Agent, EngineGame, SearchAgent};

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
                            .filter(|&s| eval::clamp::centrality(g, s).unwrap_or(0) >= r)
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

// ---- baseline -----------------------------------------------------------------------------

/// The article's evaluation `material·100 + centre·4 + mobility·2` from the point of view
/// of `me` (see the module docs).
pub fn baseline_value(pos: &ClampPosition, me: Player) -> i64 {
    if let Some(s) = Sides::of(pos, me) {
        let material = i64::from(s.own.count()) - i64::from(s.opp.count());
        let centre = i64::from(s.b.centre(s.own) - s.b.centre(s.opp));
        let mobility = pos.mobility(me) as i64 - pos.mobility(me.other()) as i64;
        return material * 100 + centre * 4 + mobility * 2;
    }
    baseline_terms(pos).map_or(0, |t| t.baseline() * i64::from(me.sign()))
}

/// The baseline's terms computed by [`ClampTerms`] (First's point of view).
pub fn baseline_terms(pos: &ClampPosition) -> Option<ClampTerms> {
    let g = pos.geometry();
    let pieces = [pos.pieces(Player::First), pos.pieces(Player::Second)];
    let zones = [pos.drop_zone(Player::First), pos.drop_zone(Player::Second)];
    let drops = [
        pos.can_drop(Player::First).then_some(&zones[0]),
        pos.can_drop(Player::Second).then_some(&zones[1]),
    ];
    ClampTerms::new(g, [&pieces[0], &pieces[1]], drops).ok()
}

/// The article's evaluator (side to move's view).
#[derive(Clone, Copy, Debug, Default)]
pub struct BaselineEval;

impl Evaluator<ClampPosition> for BaselineEval {
    fn evaluate(&self, pos: &ClampPosition) -> i32 {
        baseline_value(pos, pos.side_to_move()).clamp(-800_000, 800_000) as i32
    }
}

// ---- engine -------------------------------------------------------------------------------

const MATERIAL: i32 = 120;
const CENTRE: i32 = 3;
const MOBILITY: i32 = 1;
/// Per own piece the opponent can capture next move.
const HANGING: i32 = 30;
/// Extra when two or more own pieces hang (only one can be saved).
const DOUBLE_HANGING: i32 = 60;
/// When the side to move can capture (quiescence settles the rest).
const CAN_CAPTURE: i32 = 15;
/// Per own piece next to the opponent's drop zone, or inside it.
const ZONE_GUARD: i32 = 4;
/// Half-moves before the quiet limit from which the counter matters.
const QUIET_HORIZON: i32 = 16;
/// Per piece in hand more than the opponent, under a finite supply: a future drop, worth
/// less than a piece on the board (it costs a move, and the board caps it), but a capture
/// of a player with an empty hand is for good.
const IN_HAND: i32 = 60;
/// Per piece on the centre block (the adjudication's tie-break) more than the opponent,
/// scaled up as the quiet limit nears under `adjudicate=true`.
const CENTRE_BLOCK: i32 = 8;

/// The engine's evaluator (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineEval;

impl EngineEval {
    /// The static value for the side to move.
    pub fn value(pos: &ClampPosition) -> i32 {
        let me = pos.side_to_move();
        let other = me.other();
        let cfg = pos.config();
        let material = pos.piece_count(me) as i32 - pos.piece_count(other) as i32;
        let mut v;
        if let Some(s) = Sides::of(pos, me) {
            let b = s.b;
            let centre = b.centre(s.own) - b.centre(s.opp);
            let mobility = pos.mobility(me) as i32 - pos.mobility(other) as i32;
            v = MATERIAL * material + CENTRE * centre + MOBILITY * mobility;
            let (my_zone, their_zone) = (zone_mask(pos, me), zone_mask(pos, other));
            // The opponent's capture chances against us (they move after us).
            let (hanging, _) = s.threats(s.opp, s.own, their_zone, pos.can_drop(other));
            let n = hanging.count() as i32;
            if n > 0 {
                v -= HANGING * n + if n >= 2 { DOUBLE_HANGING } else { 0 };
            }
            let (mine, best) = s.threats(s.own, s.opp, my_zone, pos.can_drop(me));
            if !mine.is_empty() {
                v += CAN_CAPTURE + 20 * best.saturating_sub(1) as i32;
            }
            // Guarding the opponent's drop zone: pieces in it or on the row next to it.
            let guard = |own: Bitboard64, zone: Bitboard64| {
                let near = zone | (0..8).fold(Bitboard64::EMPTY, |m, d| m | b.fwd(zone, d));
                (own & near).count() as i32
            };
            v += ZONE_GUARD * (guard(s.own, their_zone) - guard(s.opp, my_zone));
        } else {
            let t = baseline_terms(pos).unwrap_or_default();
            let sign = me.sign();
            v = sign * (MATERIAL * t.material + CENTRE * t.centre + MOBILITY * t.mobility);
        }
        if let (Some(mine), Some(theirs)) = (pos.in_hand(me), pos.in_hand(other)) {
            // Hands can reach a million: cap the difference far above any real game's.
            let diff = (i64::from(mine) - i64::from(theirs)).clamp(-100, 100) as i32;
            v += IN_HAND * diff;
        }
        let remaining = pos.quiet_remaining().min(i32::MAX as u32) as i32;
        if remaining < QUIET_HORIZON {
            if cfg.adjudicate() {
                let near = QUIET_HORIZON - remaining;
                v += material * MATERIAL * near / 4;
                let centre_block = pos.centre_count(me) as i32 - pos.centre_count(other) as i32;
                v += centre_block * CENTRE_BLOCK * near / 4;
            } else {
                v = v * (remaining + 1) / (QUIET_HORIZON + 1);
            }
        }
        v
    }
}

impl Evaluator<ClampPosition> for EngineEval {
    fn evaluate(&self, pos: &ClampPosition) -> i32 {
        EngineEval::value(pos)
    }

    fn move_hint(&self, pos: &ClampPosition, mv: Move) -> i32 {
        let captures = pos.capture_count(mv) as i32;
        if captures > 0 {
            return 1_000 * captures;
        }
        0
    }

    fn noisy(&self, pos: &ClampPosition, moves: &mut Vec<Move>) {
        pos.generate_moves(moves);
        moves.retain(|&m| pos.capture_count(m) > 0);
    }

    fn repetition_is_draw(&self) -> bool {
        true
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

    fn baseline() -> Box<dyn Agent<Position>> {
        // Quiescence is left on, but the baseline evaluator has no noisy moves.
        crate::baseline_agent(
            BaselineEval,
            SearchOptions::plain_alpha_beta(),
            Position::clone,
            BASELINE_DEPTH,
        )
    }
}

#[cfg(test)]
mod tests;
