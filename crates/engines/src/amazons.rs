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
//!   [`eval::amazons::AmazonsDistances`]: queen-distance territory `t1` and king-distance
//!   territory `t2` (ties count `κ = 0.2` for the side to move), `c1`, `c2`, interpolated by
//!   the game phase `p = min(1, w / (0.3·cells))` between the opening weights
//!   (t1 .20, t2 .35, c1 .15, c2 .15) and the ending weights (t1 .80, t2 .10, c1 .05,
//!   c2 .05), ×100 per square; plus **mobility** `Σ 12·√m` over each queen's queen-move
//!   count `m` (own minus opponent's, weighted `0.3 + 0.7·p`), which punishes nearly
//!   trapped queens. Once the queens are **separated** (`w = 0`: no empty square reachable
//!   by both), the value is the **filling** count: squares each side can still fill in its
//!   own regions, own minus opponent's, ×100, minus 50 (with equal counts the side to move
//!   runs out first and loses: the game is never drawn);
//! - **candidates** ([`EngineEval::candidates`]): at the root, every legal move is made
//!   and scored by the static evaluation, and the best [`ROOT_K`] are searched; below the
//!   root, a cheap pre-score ranks the queen moves (the destination's mobility minus the
//!   origin's, blocking opponent queens), the best [`QUEEN_MOVES`] queen moves get their
//!   best [`ARROWS_PER_QUEEN_MOVE`] arrows each (arrows next to opponent queens with few
//!   liberties, in the opponent queens' lines, away from our own queens), and the best `K`
//!   of those are searched, `K` shrinking with the ply from the root ([`K_BY_PLY`]:
//!   20, 12, 8, …). The interior list is a pure function of the position and the lists of
//!   different plies are prefixes of the same order, so a transposition-table move index
//!   means the same move at any ply (it is kept whenever it lies within that ply's `K`).
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

use std::cell::RefCell;

use board_core::{Bitboard128, Player, Rules as _, Square};
use eval::amazons::AmazonsDistances;
use rules_amazons::AmazonsMove;
use search::{EvalState, Evaluator, Incremental, OptionsError, SearchOptions};

use crate::{Agent, EngineGame, SearchAgent};

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

// ---- evaluation state -----------------------------------------------------------------------

/// The ply of the position the search started from (set when the agent wraps the game
/// position; make/unmake leave it alone), so the candidate generator knows the ply of a
/// node: `pos.ply() − root`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootPly {
    pub root: u32,
}

impl EvalState<Position> for RootPly {
    type Undo = ();
    fn from_position(pos: &Position) -> RootPly {
        RootPly { root: pos.ply() }
    }
    fn make(&mut self, _: &Position, _: AmazonsMove, _: &rules_amazons::AmazonsUndo) {}
    fn unmake(&mut self, _: ()) {}
}

// ---- baseline -------------------------------------------------------------------------------

/// Chebyshev distance from `sq` to the nearest of the four centre squares.
pub fn centre_distance(size: u32, sq: Square) -> u32 {
    let (col, row) = (sq.index() as u32 % size, sq.index() as u32 / size);
    let (lo, hi) = (size / 2 - 1, size / 2);
    let axis = |c: u32| {
        if c < lo { lo - c } else { c.saturating_sub(hi) }
    };
    axis(col).max(axis(row))
}

/// Sum over `player`'s queens of their queen-move reach (empty squares).
pub fn queen_mobility(pos: &Position, player: Player) -> i32 {
    squares(pos.queens(player))
        .map(|q| pos.queen_mobility(q) as i32)
        .sum()
}

fn centre_sum(pos: &Position, player: Player) -> i32 {
    let size = pos.size();
    squares(pos.queens(player))
        .map(|q| centre_distance(size, q) as i32)
        .sum()
}

/// The article's evaluation from the side to move's view:
/// `100·(mobility own − opp) − 6·(centre distance own − opp)`.
pub fn baseline_value(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let op = me.other();
    100 * (queen_mobility(pos, me) - queen_mobility(pos, op))
        - 6 * (centre_sum(pos, me) - centre_sum(pos, op))
}

/// The baseline's evaluator: the article's evaluation, all moves, ordered.
#[derive(Clone, Copy, Debug, Default)]
pub struct BaselineEval;

impl Evaluator<Position> for BaselineEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        baseline_value(pos)
    }

    /// Every legal move, ordered by the cheap pre-score (ordering only).
    fn candidates(&self, pos: &Position, moves: &mut Vec<AmazonsMove>) {
        let mut scored = Vec::with_capacity(2400);
        let ctx = PreScore::new(pos);
        for (from, to, qs) in queen_moves(pos, &ctx) {
            let blockers = Bitboard128((pos.occupied().0 & !bit(from)) | bit(to));
            for arrow in squares(pos.queen_reach_in(to, blockers)) {
                let mv = AmazonsMove::new(from, to, arrow);
                scored.push((qs + ctx.arrow(from, to, arrow), mv));
            }
        }
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        moves.clear();
        moves.extend(scored.into_iter().map(|(_, m)| m));
    }
}

// ---- engine evaluation ----------------------------------------------------------------------

thread_local! {
    static DIST: RefCell<AmazonsDistances> = RefCell::new(AmazonsDistances::default());
}

/// Tie weight κ for the side to move in `t1` and `t2`.
const KAPPA: f64 = 0.2;
/// Opening weights (t1, t2, c1, c2) and ending weights.
const OPEN_W: [f64; 4] = [0.20, 0.35, 0.15, 0.15];
const END_W: [f64; 4] = [0.80, 0.10, 0.05, 0.05];

/// The engine's static value from the side to move's view (see the module docs).
pub fn engine_value(pos: &Position) -> i32 {
    DIST.with(|d| match d.try_borrow_mut() {
        Ok(mut d) => engine_value_with(pos, &mut d),
        Err(_) => engine_value_with(pos, &mut AmazonsDistances::default()),
    })
}

fn engine_value_with(pos: &Position, d: &mut AmazonsDistances) -> i32 {
    let q = [pos.queens(Player::First), pos.queens(Player::Second)];
    if d.compute(pos.geometry(), &pos.arrows(), [&q[0], &q[1]])
        .is_err()
    {
        return 0;
    }
    let me = pos.side_to_move();
    let sign = me.sign() as f64;
    let t = d.terms();
    if t.w == 0.0 {
        // Separated: filling. Every empty square a player reaches is theirs alone.
        let own = t.queen.owned[me.index()] as i32;
        let opp = t.queen.owned[me.other().index()] as i32;
        return 100 * (own - opp) - 50;
    }
    let cells = pos.geometry().cells() as f64;
    let p = (t.w / (0.3 * cells)).min(1.0);
    let wt = |i: usize| END_W[i] + (OPEN_W[i] - END_W[i]) * p;
    // Territory terms from First's view, the tie term already for the side to move.
    let first = wt(0) * t.t1(me, KAPPA) + wt(1) * t.t2(me, KAPPA) + wt(2) * t.c1 + wt(3) * t.c2;
    let mob = |pl: Player| -> f64 {
        squares(pos.queens(pl))
            .map(|s| 12.0 * f64::from(pos.queen_mobility(s)).sqrt())
            .sum()
    };
    let mobility = (mob(me) - mob(me.other())) * (0.3 + 0.7 * p);
    (100.0 * first * sign + mobility).round() as i32
}

/// The engine's evaluator.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineEval;

impl Evaluator<EnginePosition> for EngineEval {
    fn evaluate(&self, pos: &EnginePosition) -> i32 {
        engine_value(pos.position())
    }

    fn candidates(&self, pos: &EnginePosition, moves: &mut Vec<AmazonsMove>) {
        let ply = pos.position().ply().saturating_sub(pos.state().root) as usize;
        if ply == 0 {
            root_candidates(pos.position(), moves);
        } else {
            let k = K_BY_PLY[(ply - 1).min(K_BY_PLY.len() - 1)];
            interior_candidates(pos.position(), k, moves);
        }
    }
}

/// Every legal move scored by the static value after it; the best [`ROOT_K`], best first.
fn root_candidates(pos: &Position, moves: &mut Vec<AmazonsMove>) {
    pos.generate_moves(moves);
    let mut p = pos.clone();
    let mut scored: Vec<(i32, AmazonsMove)> = moves
        .iter()
        .map(|&mv| {
            let undo = p.make_move(mv);
            let v = if p.has_legal_move(p.side_to_move()) {
                -engine_value(&p)
            } else {
                i32::MAX
            };
            p.unmake_move(mv, undo);
            (v, mv)
        })
        .collect();
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(ROOT_K);
    moves.clear();
    moves.extend(scored.into_iter().map(|(_, m)| m));
}

/// The best `k` moves by the cheap pre-score (see the module docs), best first.
fn interior_candidates(pos: &Position, k: usize, moves: &mut Vec<AmazonsMove>) {
    let ctx = PreScore::new(pos);
    let mut qms = queen_moves(pos, &ctx);
    qms.sort_unstable_by(|a, b| b.2.cmp(&a.2).then((a.0, a.1).cmp(&(b.0, b.1))));
    qms.truncate(QUEEN_MOVES);
    let mut out: Vec<(i32, AmazonsMove)> = Vec::with_capacity(QUEEN_MOVES * 3);
    for (from, to, qs) in qms {
        let blockers = Bitboard128((pos.occupied().0 & !bit(from)) | bit(to));
        let mut best: [(i32, Square); ARROWS_PER_QUEEN_MOVE] =
            [(i32::MIN, Square(0)); ARROWS_PER_QUEEN_MOVE];
        for arrow in squares(pos.queen_reach_in(to, blockers)) {
            let s = ctx.arrow(from, to, arrow);
            // Insertion into the small sorted array (ties: lower square first).
            if s > best[ARROWS_PER_QUEEN_MOVE - 1].0 {
                let mut i = ARROWS_PER_QUEEN_MOVE - 1;
                while i > 0 && s > best[i - 1].0 {
                    best[i] = best[i - 1];
                    i -= 1;
                }
                best[i] = (s, arrow);
            }
        }
        out.extend(
            best.iter()
                .filter(|b| b.0 != i32::MIN)
                .map(|&(s, a)| (qs + s, AmazonsMove::new(from, to, a))),
        );
    }
    out.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    out.truncate(k);
    moves.clear();
    moves.extend(out.into_iter().map(|(_, m)| m));
}

// ---- cheap move pre-score -------------------------------------------------------------------

#[inline]
fn bit(sq: Square) -> u128 {
    1u128 << (sq.index() & 127)
}

fn squares(b: Bitboard128) -> impl Iterator<Item = Square> {
    let mut bits = b.0;
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let s = Square(bits.trailing_zeros() as u16);
            bits &= bits - 1;
            s
        })
    })
}

/// Per-node data for the cheap pre-score of the side to move's moves.
struct PreScore<'a> {
    pos: &'a Position,
    own: u128,
    /// Opponent queens and their empty-neighbour counts.
    opp: [(Square, u32); 4],
    opp_n: usize,
    /// Squares in the opponent queens' lines.
    opp_reach: u128,
}

impl<'a> PreScore<'a> {
    fn new(pos: &'a Position) -> PreScore<'a> {
        let me = pos.side_to_move();
        let empty = pos.empty_squares().0;
        let mut opp = [(Square(0), 0); 4];
        let mut opp_n = 0;
        let mut opp_reach = 0;
        for q in squares(pos.queens(me.other())).take(4) {
            opp[opp_n] = (q, (pos.neighbours(q).0 & empty).count_ones());
            opp_n += 1;
            opp_reach |= pos.queen_reach(q).0;
        }
        PreScore {
            pos,
            own: pos.queens(me).0,
            opp,
            opp_n,
            opp_reach,
        }
    }

    /// Blocking value of occupying `sq` next to opponent queens (more when few liberties).
    #[inline]
    fn block(&self, sq: Square) -> i32 {
        let mut s = 0;
        for &(q, libs) in &self.opp[..self.opp_n] {
            if self.pos.neighbours(q).0 & bit(sq) != 0 {
                s += 24 / libs.max(1) as i32 + 2;
            }
        }
        s
    }

    /// The queen move `from → to`.
    #[inline]
    fn queen(&self, from: Square, to: Square) -> i32 {
        let m_to = self.pos.queen_mobility(to) as i32;
        let m_from = self.pos.queen_mobility(from) as i32;
        (m_to - m_from) + self.block(to) - self.block(from) / 2
    }

    /// The arrow shot from `to` (queen moved from `from`) onto `arrow`.
    #[inline]
    fn arrow(&self, from: Square, to: Square, arrow: Square) -> i32 {
        let mut s = self.block(arrow) * 2;
        if self.opp_reach & bit(arrow) != 0 {
            s += 3;
        }
        let own_near = (self.own & !bit(from)) | bit(to);
        let n = self.pos.neighbours(arrow).0;
        s -= 4 * (n & own_near).count_ones() as i32;
        s
    }
}

/// Every queen move of the side to move with its pre-score.
fn queen_moves(pos: &Position, ctx: &PreScore) -> Vec<(Square, Square, i32)> {
    let mut out = Vec::with_capacity(160);
    for from in squares(pos.queens(pos.side_to_move())) {
        for to in squares(pos.queen_reach(from)) {
            out.push((from, to, ctx.queen(from, to)));
        }
    }
    out
}

// ---- players --------------------------------------------------------------------------------

fn wrap_engine(pos: &Position) -> EnginePosition {
    Incremental::new(pos.clone())
}

impl EngineGame for Position {
    fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Position>>, OptionsError> {
        // Time is the caller's: a protocol's budget keeps its own reserve.
        Ok(Box::new(SearchAgent::new(
            "engine",
            EngineEval,
            options,
            wrap_engine,
        )?))
    }

    fn baseline() -> Box<dyn Agent<Position>> {
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
