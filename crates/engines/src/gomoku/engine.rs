//! The strong gomoku engine: per-cell line patterns kept incrementally ([`GomokuState`]),
//! an evaluation from them that counts the side to move's initiative, a staged move picker
//! (win, forced defence, scored quiet moves near the stones), fours as quiescence moves, and
//! a VCF (victory by continuous fours) threat search.

use crate::tune::TunedWeights;
use std::{
    sync::atomic::{AtomicU32, Ordering},
    time::Instant,
};

use board_core::{Player, Rules as _, Square, SquareSet};
use rules_gomoku::{GomokuPosition, Move};
use search::{Evaluator, ForcedWin, Incremental};
use smallvec::SmallVec;

pub use super::board::GomokuState;
use super::board::{
    COMBOS, CellSet, CodeTables, EVAL_WEIGHTS, EvalWeights, K_FIVE, K_FLEX4, K_FOUR3, K_THREE2,
    PAIRS, THREAT_MASKS, TO_MOVE, WAITING,
};
use super::classes::{ClassTable, threat_value};
use super::threats::{defence_set, vcf, vcf_searched, vct};
use crate::failures::ThreatFailures;

/// The engine's position: the rules position plus [`GomokuState`].
pub type EnginePosition = Incremental<GomokuPosition, GomokuState>;

/// Wraps a game position for the engine.
pub fn wrap(pos: &GomokuPosition) -> EnginePosition {
    Incremental::new(pos.clone())
}

/// Largest VCF node budget at an interior node (`6·depth²` below it).
pub const INTERIOR_VCF_MAX: u32 = 200;

/// Most open threes in a line of the opponent's VCT that [`threat_defence`] looks for.
pub const DEFENCE_VCT_THREES: u32 = 2;

/// `forced_win` calls at this depth or more are taken to be the root's.
pub const ROOT_DEPTH: u32 = 20;

/// Most candidates searched at a quiet node (best by threat value), by distance from the
/// root in turns (the last entry for everything deeper).
pub const MAX_CANDIDATES: [usize; 4] = [24, 16, 12, 9];

/// The engine's evaluator: see the module docs.
#[derive(Debug, Default)]
pub struct GomokuEval {
    /// The ply of the current search's root (set by the agent before each search), which
    /// tells `candidates` how deep a node is.
    root_ply: AtomicU32,
    /// Where the interior VCF already failed (see [`ThreatFailures`]).
    vcf_failures: ThreatFailures,
}

impl GomokuEval {
    /// The evaluator, with the shared pattern tables built.
    pub fn new() -> GomokuEval {
        // Build the shared tables now, not during the first move's time.
        ClassTable::get(rules_gomoku::Rule::Freestyle);
        ClassTable::get(rules_gomoku::Rule::Exact5);
        CodeTables::get();
        GomokuEval::default()
    }

    /// Records the ply of the next search's root.
    pub fn set_root_ply(&self, ply: u32) {
        self.root_ply.store(ply, Ordering::Relaxed);
    }

    /// How many quiet candidates a node at `ply` keeps.
    fn width(&self, ply: u32) -> usize {
        let d = ply.saturating_sub(self.root_ply.load(Ordering::Relaxed)) as usize;
        MAX_CANDIDATES[d.min(MAX_CANDIDATES.len() - 1)]
    }
}

/// Reverse futility margins by depth above the horizon (1, 2, 3; none deeper): a node off
/// the PV whose static value minus the margin still reaches beta is not searched. The
/// evaluation counts the side to move's initiative, so a search that ends on the
/// opponent's move (odd depth) reads about 250 above the static value and one that ends
/// on ours (even depth) about 50 below; measured in session 6 on the hand evaluation at
/// 3 × 200 book positions with 0-30 engine moves played, the depth-1 and depth-3 values
/// were under the static value in about 1% of the quiet positions, the depth-2 value more
/// than 210 under it in 2% (see `docs/strength.md`). Hence small margins at odd depths and
/// a wide one at even. On the fitted evaluation the odd depths' swing is smaller
/// (`margins.rs`, session 13: 2% of the depth-1 and depth-3 values lie 106 and 209 under
/// the static value), but the margins read from it, `[150, 250, 250]` with razoring
/// `[400, 250]`, scored +6 [−38, +50] Elo against these in 240 games at 500 ms: not kept.
pub const FUTILITY_MARGINS: [i32; 3] = [50, 250, 50];

/// Razoring margins by depth above the horizon (1, 2; none deeper): a node off the PV
/// whose static value plus the margin is still at or under alpha is scored by quiescence
/// when that fails low too. The odd/even swing works the other way here: a depth-1
/// search reads about 300 above the static value (over 600 in 5% of the positions), a
/// depth-2 one about 30 under it (over 270 above in 5%): session 6, on the hand
/// evaluation. On the fitted one the depth-1 values lie over 366 above in 5% (session 13,
/// see [`FUTILITY_MARGINS`]).
pub const RAZOR_MARGINS: [i32; 2] = [600, 300];

/// Whether `who` has a move that makes a five, a flex four, a four-three or a double
/// three: a winning threat that the static value does not see and quiescence does not
/// play.
#[inline]
fn has_winning_threat(st: &GomokuState, who: Player) -> bool {
    !st.fives(who).is_empty()
        || st.kind_count(who, K_FLEX4) > 0
        || st.kind_count(who, K_FOUR3) > 0
        || st.kind_count(who, K_THREE2) > 0
}

/// A five next move for the side to move.
const WIN_NEXT: i32 = 20_000;
/// An open four or double four for the side to move, the opponent without a four.
const FLEX4_WIN: i32 = 15_000;
/// A four-three for the side to move, the opponent without any four.
const FOUR3_WIN: i32 = 10_000;
/// A double three for the side to move, the opponent without any four or three.
const THREE2_WIN: i32 = 5_000;

/// Whether `player` can make any four (or five).
#[inline]
fn has_four_move(st: &GomokuState, player: Player) -> bool {
    !st.fours(player).is_empty() || !st.fives(player).is_empty()
}

/// Static value from the side to move's point of view (see the module docs): the forcing
/// threats decide first, in the order they would be played (the side to move moves first:
/// that is its initiative); otherwise [`quiet_value`].
pub fn static_value(st: &GomokuState, me: Player) -> i32 {
    match forcing(st, me) {
        Forcing::Decided(v) => v,
        Forcing::Block => quiet_value(st, me) - FLEX4_WIN,
        Forcing::Quiet => quiet_value(st, me),
    }
}

/// The quiet part of the static value: the side to move's cells weighed with
/// [`EvalWeights::to_move`] minus the opponent's weighed with [`EvalWeights::waiting`],
/// plus the value of the position's [`threat_mask`] (the weights are
/// [`EVAL_WEIGHTS`](super::board::EVAL_WEIGHTS)).
#[inline]
pub fn quiet_value(st: &GomokuState, me: Player) -> i32 {
    st.potential(me, TO_MOVE) - st.potential(me.other(), WAITING)
        + EVAL_WEIGHTS.threats[threat_mask(st, me)]
}

/// Which threats each side can make next, as five bits, from the side to move's (`me`)
/// point of view: 1, `me` can make a four; 2, `me` can make an open three (or a
/// four-three); 4, the opponent can make a four; 8, the opponent can make an open three;
/// 16, the opponent can make a winning threat (an open four, a four-three or a double
/// three), which `me` must meet at once. The index of [`EvalWeights::threats`].
#[inline]
pub fn threat_mask(st: &GomokuState, me: Player) -> usize {
    let op = me.other();
    usize::from(has_four_move(st, me))
        | usize::from(!st.threes(me).is_empty() || st.kind_count(me, K_FOUR3) > 0) << 1
        | usize::from(has_four_move(st, op)) << 2
        | usize::from(!st.threes(op).is_empty()) << 3
        | usize::from(
            st.kind_count(op, K_FLEX4) + st.kind_count(op, K_FOUR3) + st.kind_count(op, K_THREE2)
                > 0,
        ) << 4
}

/// What the forcing threats say about a position, before the cells' weights.
enum Forcing {
    /// A threat decides the value.
    Decided(i32),
    /// The opponent has one five point: the side to move must block it (quiescence
    /// searches it; as a leaf it is below any real value).
    Block,
    /// Nothing forcing: the value is the quiet one.
    Quiet,
}

fn forcing(st: &GomokuState, me: Player) -> Forcing {
    let op = me.other();
    if st.kind_count(me, K_FIVE) > 0 {
        return Forcing::Decided(WIN_NEXT);
    }
    let op_fives = st.kind_count(op, K_FIVE);
    if op_fives >= 2 {
        return Forcing::Decided(-WIN_NEXT);
    }
    if op_fives == 1 {
        return Forcing::Block;
    }
    let op_four = has_four_move(st, op);
    if st.kind_count(me, K_FLEX4) > 0 {
        return Forcing::Decided(if op_four { FLEX4_WIN / 2 } else { FLEX4_WIN });
    }
    if !op_four {
        if st.kind_count(me, K_FOUR3) > 0 {
            return Forcing::Decided(FOUR3_WIN);
        }
        if st.kind_count(me, K_THREE2) > 0 && st.kind_count(op, K_FLEX4) == 0 {
            return Forcing::Decided(THREE2_WIN);
        }
    }
    Forcing::Quiet
}

/// Number of terms of [`quiet_features`] (and of [`EvalWeights::to_vec`]).
pub const FEATURES: usize = 2 * (8 + 2 + COMBOS + PAIRS) + THREAT_MASKS;

impl TunedWeights for EvalWeights {
    /// The weights as [`quiet_features`] orders its terms: the side to move's line weights
    /// of classes 1 to 8, its double-three and four-three bonuses and its combination
    /// bonuses (by [`Combo`](super::board::Combo)), then the waiting side's the same way
    /// (class 0, an empty line, weighs nothing), then the value of each threat mask.
    fn to_vec(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(FEATURES);
        for w in [&self.to_move, &self.waiting] {
            v.extend_from_slice(&w.line[1..]);
            v.extend([w.three2, w.four3]);
            v.extend_from_slice(&w.combo);
            v.extend_from_slice(&w.pair);
        }
        v.extend_from_slice(&self.threats);
        v
    }

    /// The weights [`to_vec`](EvalWeights::to_vec) wrote, or `None` for a slice of another
    /// length than [`FEATURES`].
    fn from_slice(v: &[i32]) -> Option<EvalWeights> {
        if v.len() != FEATURES {
            return None;
        }
        let set = |w: &[i32]| {
            let mut line = [0; 9];
            line[1..].copy_from_slice(&w[..8]);
            super::board::CellWeights {
                line,
                three2: w[8],
                four3: w[9],
                combo: w[10..10 + COMBOS].try_into().expect("COMBOS weights"),
                pair: w[10 + COMBOS..].try_into().expect("PAIRS weights"),
            }
        };
        let side = (FEATURES - THREAT_MASKS) / 2;
        Some(EvalWeights {
            to_move: set(&v[..side]),
            waiting: set(&v[side..2 * side]),
            threats: v[2 * side..].try_into().expect("THREAT_MASKS weights"),
        })
    }
}

/// The terms [`quiet_value`] weighs, from the side to move's point of view (the side to
/// move's counts, then the opponent's negated, then 1 for the position's threat mask and
/// 0 for the others, in the order of [`EvalWeights::to_vec`]),
/// or `None` when a forcing threat decides the static value instead: the samples of a
/// Texel fit of the weights (`gomoku::tune`).
pub fn quiet_features(st: &GomokuState, me: Player) -> Option<Vec<i64>> {
    if !matches!(forcing(st, me), Forcing::Quiet) {
        return None;
    }
    let mut f = Vec::with_capacity(FEATURES);
    for (player, sign) in [(me, 1), (me.other(), -1)] {
        let counts = st.class_counts(player);
        f.extend(counts.lines[1..].iter().map(|n| sign * n));
        f.extend([sign * counts.three2, sign * counts.four3]);
        f.extend(counts.combos.iter().map(|n| sign * n));
        f.extend(counts.pairs.iter().map(|n| sign * n));
    }
    let mask = threat_mask(st, me);
    f.extend((0..THREAT_MASKS).map(|m| i64::from(m == mask)));
    Some(f)
}

impl Evaluator<EnginePosition> for GomokuEval {
    fn evaluate(&self, pos: &EnginePosition) -> i32 {
        static_value(pos.state(), pos.side_to_move())
    }

    fn candidates(&self, pos: &EnginePosition, moves: &mut Vec<Move>) {
        candidates(pos, moves, self.width(pos.ply()));
    }

    fn move_hint(&self, pos: &EnginePosition, mv: Move) -> i32 {
        let p = pos.position();
        if !p.is_empty_square(mv.square()) {
            return -1;
        }
        let (a, d) = pos.state().order_values(p.side_to_move(), mv.square());
        1 + a + d * 4 / 5
    }

    fn noisy(&self, pos: &EnginePosition, moves: &mut Vec<Move>) {
        noisy(pos, moves);
    }

    fn futility_margin(&self, pos: &EnginePosition, depth: u32) -> Option<i32> {
        let margin = *FUTILITY_MARGINS.get(depth.checked_sub(1)? as usize)?;
        // Not while the opponent threatens something the static value does not see.
        (!has_winning_threat(pos.state(), pos.side_to_move().other())).then_some(margin)
    }

    fn razor_margin(&self, pos: &EnginePosition, depth: u32) -> Option<i32> {
        let margin = *RAZOR_MARGINS.get(depth.checked_sub(1)? as usize)?;
        let st = pos.state();
        let me = pos.side_to_move();
        // Not at a forced block (cheap to search anyway), nor when we have a winning move
        // that quiescence would not play.
        (st.fives(me.other()).is_empty() && !has_winning_threat(st, me)).then_some(margin)
    }

    fn extension(&self, pos: &EnginePosition) -> u32 {
        // The opponent has just made a four: our block is forced (with no five of our
        // own), so the four and its block use up one ply between them.
        let st = pos.state();
        let me = pos.side_to_move();
        u32::from(!st.fives(me.other()).is_empty() && st.fives(me).is_empty())
    }

    fn forced_win(&self, pos: &mut EnginePosition, depth: u32) -> Option<ForcedWin<Move>> {
        // The root (searched to an unbounded or deep limit) is `TimedEngine`'s job, under a
        // wall-clock deadline; interior nodes get a small node budget.
        if !(2..ROOT_DEPTH).contains(&depth) {
            return None;
        }
        let budget = (depth * depth * 6).min(INTERIOR_VCF_MAX);
        // Board size and rule apart, one evaluator may serve several games.
        let p = pos.position();
        let key = pos.hash()
            ^ u64::from(p.size()).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (p.rule() as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        if self.vcf_failures.covers(key, budget) {
            return None;
        }
        let (found, complete) = find_vcf_searched(pos, budget, false, None);
        if found.is_none() {
            self.vcf_failures.record(key, budget, complete);
        }
        found
    }
}

/// The ordering value of playing `sq` by scanning the lines (the baseline's move hint):
/// attack plus most of the defence.
#[inline]
pub(crate) fn move_value(t: &ClassTable, p: &GomokuPosition, me: Player, sq: Square) -> i32 {
    let a = threat_value(t.classes(p, me, sq));
    let d = threat_value(t.classes(p, me.other(), sq));
    a + d * 4 / 5
}

/// Quiescence moves: our five; else the blocks of the opponent's five points, so that a
/// four is never left unanswered at a leaf. (Searching our own fours here as well, a VCF
/// at the leaves, lost in a match: see `docs/strength.md`.)
pub fn noisy(pos: &EnginePosition, moves: &mut Vec<Move>) {
    moves.clear();
    let st = pos.state();
    let me = pos.side_to_move();
    if let Some(sq) = st.five_point(me) {
        moves.push(Move::new(sq));
        return;
    }
    let op = me.other();
    moves.extend(st.fives(op).iter().map(Move::new));
}

/// The engine's candidates (see the module docs): the five if we have one; the blocks if
/// the opponent has a four; against an open three, its four squares and our fours; else
/// the best `width` squares near stones by threat value.
pub fn candidates(pos: &EnginePosition, moves: &mut Vec<Move>, width: usize) {
    moves.clear();
    let p = pos.position();
    if p.outcome().is_some() {
        return;
    }
    let st = pos.state();
    let me = p.side_to_move();
    let op = me.other();
    if let Some(sq) = st.five_point(me) {
        moves.push(Move::new(sq));
        return;
    }
    if !st.fives(op).is_empty() {
        moves.extend(st.fives(op).iter().map(Move::new));
        return;
    }
    if p.occupied().is_empty() {
        let c = p.size() / 2;
        if let Some(sq) = p.geometry().square_at(c, c) {
            moves.push(Move::new(sq));
        }
        return;
    }
    // On the stack: most nodes have fewer near cells than this (a heap buffer per node
    // cost a tenth of the candidate generation).
    let mut scored: SmallVec<[(i32, Square); 128]> = SmallVec::new();
    if st.kind_count(op, K_FLEX4) > 0 {
        // Against an open three: its defence points (where the opponent would make a
        // four) and our own fours.
        for sq in st.fours(op).iter().chain(st.fours(me).iter()) {
            let (a, d) = st.order_values(me, sq);
            scored.push((a + d * 4 / 5, sq));
        }
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.dedup_by_key(|x| x.1);
        moves.extend(scored.into_iter().map(|(_, s)| Move::new(s)));
        return;
    }
    st.near_cells(me, &mut scored);
    if scored.is_empty() {
        // Nothing near (cannot happen with stones on the board); fall back to all moves.
        p.generate_moves(moves);
        return;
    }
    let width = width.max(1);
    let by_value = |a: &(i32, Square), b: &(i32, Square)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    if scored.len() > width {
        scored.select_nth_unstable_by(width - 1, by_value);
        scored.truncate(width);
    }
    scored.sort_unstable_by(by_value);
    moves.extend(scored.into_iter().map(|(_, s)| Move::new(s)));
}

/// A forced win for the side to move by continuous fours, within `budget` VCF nodes and
/// before `deadline`; `memo` remembers failed positions. The search plays on `pos`'s
/// pattern state and takes every stone back (copying the state instead cost a tenth of
/// the search's time: it runs at most interior nodes).
pub fn find_vcf(
    pos: &mut EnginePosition,
    budget: u32,
    memo: bool,
    deadline: Option<Instant>,
) -> Option<ForcedWin<Move>> {
    find_vcf_searched(pos, budget, memo, deadline).0
}

/// [`find_vcf`], and whether the search was complete (a failure then holds at any budget).
fn find_vcf_searched(
    pos: &mut EnginePosition,
    budget: u32,
    memo: bool,
    deadline: Option<Instant>,
) -> (Option<ForcedWin<Move>>, bool) {
    let p = pos.position();
    if p.outcome().is_some() {
        return (None, true);
    }
    let me = p.side_to_move();
    let (found, complete) = vcf_searched(pos.state_mut(), me, budget, memo, deadline);
    let win = found.map(|(turns, sq)| ForcedWin {
        mv: Move::new(sq),
        turns,
    });
    (win, complete)
}

/// A forced win for the side to move by continuous threats (fours and open threes, at most
/// `max_threes` of them in a line; see `threats.rs`), within `budget` nodes and before
/// `deadline`.
pub fn find_vct(
    pos: &mut EnginePosition,
    budget: u32,
    max_threes: u32,
    deadline: Option<Instant>,
) -> Option<ForcedWin<Move>> {
    if pos.position().outcome().is_some() {
        return None;
    }
    let me = pos.side_to_move();
    vct(pos.state_mut(), me, budget, max_threes, deadline).map(|(turns, sq)| ForcedWin {
        mv: Move::new(sq),
        turns,
    })
}

/// Which forced win the opponent of the side to move would have if it were its turn: by
/// fours within `vcf_budget` nodes, else (with `vct_budget` above 0) by threats.
fn opponent_threat(st: &mut GomokuState, op: Player, vcf_budget: u32, vct_budget: u32) -> bool {
    vcf(st, op, vcf_budget, false, None).is_some()
        || (vct_budget > 0 && vct(st, op, vct_budget, DEFENCE_VCT_THREES, None).is_some())
}

/// A defence against the opponent's threat: when the opponent of the side to move would
/// win by continuous fours within `vcf_budget` nodes (or, with `vct_budget` above 0, by
/// threats within that many) if it were its turn, keep in `moves` only the moves after which
/// it no longer does, taken from the moves given, our own fours, the squares on the lines
/// of its four points and the defence set of its open threes; the moves given keep their
/// order, the others follow. Nodes that are already forced (a five to play or block, an open
/// three to answer) are left alone: the candidates answer them. If no move refutes the
/// threat the list stays as it was (the position is lost).
///
/// Meant for the search's `Evaluator::threat_defence` hook; not used by the engine's
/// default search, where it did not gain (`docs/strength.md`, issue 26).
pub fn threat_defence(
    pos: &mut EnginePosition,
    vcf_budget: u32,
    vct_budget: u32,
    moves: &mut Vec<Move>,
) {
    let me = pos.side_to_move();
    let op = me.other();
    let st = pos.state();
    if st.five_point(me).is_some()
        || !st.fives(op).is_empty()
        || st.kind_count(op, K_FLEX4) > 0
        || st.fours(op).is_empty() && vct_budget == 0
    {
        return;
    }
    let st = pos.state_mut();
    if !opponent_threat(st, op, vcf_budget, vct_budget) {
        return;
    }
    // The pool: the candidates, our fours, and the squares on the lines of the
    // opponent's four points (what blocks the first four of its attack).
    let mut pool: Vec<Square> = moves.iter().map(|m| m.square()).collect();
    pool.extend(st.fours(me).iter());
    let mut blocks = Vec::new();
    for f in st.fours(op).iter() {
        st.four_line_cells(op, f, &mut blocks);
    }
    pool.extend(blocks);
    // Against threes, the cells that answer them.
    pool.extend(defence_set(st, op, me));
    let mut seen = CellSet::default();
    let mut kept = Vec::new();
    for sq in pool {
        if seen.contains(sq) {
            continue;
        }
        seen.insert(sq);
        if !st.put(sq, me) {
            continue;
        }
        let refutes = !opponent_threat(st, op, vcf_budget, vct_budget);
        st.take(sq, me);
        if refutes {
            kept.push(Move::new(sq));
        }
    }
    if !kept.is_empty() {
        *moves = kept;
    }
}
