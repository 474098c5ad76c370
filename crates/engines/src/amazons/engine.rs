//! The amazons engine: its evaluation state, its territory evaluation and its candidate
//! generator.

use super::{filling::Filler, *};
use crate::tune::TunedWeights;

// ---- evaluation state -----------------------------------------------------------------------

/// The ply of the position the search started from (set when the agent wraps the game
/// position; make/unmake leave it alone), so the candidate generator knows the ply of a
/// node: `pos.ply() − root`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootPly {
    /// The root position's ply.
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

thread_local! {
    static DIST: RefCell<AmazonsDistances> = RefCell::new(AmazonsDistances::default());
}

/// Tie weight κ for the side to move in `t1` and `t2`.
pub(super) const KAPPA: f64 = 0.2;

/// The evaluation's weights, in tenths of a centipawn: per unit of each territory term
/// (`t1`, `t2`, `c1`, `c2`) at the opening (phase `p = 1`) and at the ending (`p = 0`),
/// and per unit of the mobility term `Σ √m` (own minus opponent's) at each end; between
/// the ends each weight is interpolated linearly by the phase ([`engine_value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EvalWeights {
    /// `t1`, `t2`, `c1`, `c2` at the opening.
    pub opening: [i32; 4],
    /// `t1`, `t2`, `c1`, `c2` at the ending.
    pub ending: [i32; 4],
    /// `Σ √m` at the opening and at the ending.
    pub mobility: [i32; 2],
}

/// Number of terms of [`quiet_features`] (and of [`EvalWeights::to_vec`]).
pub const FEATURES: usize = 10;

/// The units of [`quiet_features`]: each term is given in hundredths, so that the features
/// times the weights are the static value in thousandths of a centipawn.
pub const FEATURE_SCALE: f64 = 100.0;

/// The hand weights (Lieberum's blend as sessions 2-11 shipped it): opening t1 .20, t2 .35,
/// c1 .15, c2 .15 and ending t1 .80, t2 .10, c1 .05, c2 .05, ×100 per square; mobility
/// `12·√m` weighted `0.3 + 0.7·p` (12 at the opening, 3.6 at the ending).
pub const HAND_WEIGHTS: EvalWeights = EvalWeights {
    opening: [200, 350, 150, 150],
    ending: [800, 100, 50, 50],
    mobility: [120, 36],
};

/// [`HAND_WEIGHTS`] fitted to the results of 996 games on 8×8 (`amazons::tune`; the games
/// are `data/amazons8-*.txt`: self-play of the previous build and games against two Botzone
/// bots; the commands are in `docs/strength.md`, amazons, session 12). What the fit changed:
/// queen territory `t1` counts little in the opening and much more in the ending; the king
/// distance terms `t2` and `c2` more everywhere; `c1` in the ending is negative (it corrects
/// `t1`, with which it moves); and mobility is worth several times the hand weight, at the
/// ending most of all.
pub const FITTED_WEIGHTS: EvalWeights = EvalWeights {
    opening: [80, 115, 57, 383],
    ending: [2003, 355, -1133, 873],
    mobility: [547, 1874],
};

/// The engine's evaluation weights: [`FITTED_WEIGHTS`] halved (rounded), the ratios of the
/// fit in the units of the separated race's count. Why: the fit sets the weights' size as
/// well as their ratios, and its size made a square of queen territory in the ending worth
/// 200 cp, where the same square once the players are separated is a move of the filling
/// count, 100 cp (set by hand: separated positions are not samples); so the search would
/// rather keep a lead open than seal it, and seal a deficit than fight on. Halved, the
/// ending's square is worth about a move again. In paired matches against the previous
/// build the halved weights won where the fit as it came did not show a gain
/// (`docs/strength.md`, amazons, session 12).
pub const EVAL_WEIGHTS: EvalWeights = EvalWeights {
    opening: [40, 58, 28, 192],
    ending: [1002, 178, -566, 436],
    mobility: [274, 937],
};

impl TunedWeights for EvalWeights {
    /// The weights as [`quiet_features`] orders its terms: the opening's four territory
    /// weights, the ending's four, then mobility at the opening and at the ending.
    fn to_vec(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(FEATURES);
        v.extend_from_slice(&self.opening);
        v.extend_from_slice(&self.ending);
        v.extend_from_slice(&self.mobility);
        v
    }

    /// The weights [`to_vec`](EvalWeights::to_vec) wrote, or `None` for a slice of another
    /// length than [`FEATURES`].
    fn from_slice(v: &[i32]) -> Option<EvalWeights> {
        if v.len() != FEATURES {
            return None;
        }
        let mut w = EvalWeights {
            opening: [0; 4],
            ending: [0; 4],
            mobility: [0; 2],
        };
        w.opening.copy_from_slice(&v[..4]);
        w.ending.copy_from_slice(&v[4..8]);
        w.mobility.copy_from_slice(&v[8..]);
        Some(w)
    }
}

impl Default for EvalWeights {
    fn default() -> EvalWeights {
        EVAL_WEIGHTS
    }
}

/// The engine's static value from the side to move's view, with `weights` (see the module
/// docs).
pub fn engine_value(pos: &Position, weights: &EvalWeights) -> i32 {
    DIST.with(|d| match d.try_borrow_mut() {
        Ok(mut d) => engine_value_with(pos, weights, &mut d),
        Err(_) => engine_value_with(pos, weights, &mut AmazonsDistances::default()),
    })
}

/// What the weights multiply, from the side to move's view, before the phase splits it.
struct Terms {
    /// `t1`, `t2` (the ties counted for the side to move), `c1`, `c2`.
    territory: [f64; 4],
    /// `Σ √m` over the side to move's queens minus the opponent's.
    mobility: f64,
    /// The phase `p = min(1, w / (0.3·cells))`: 1 in the opening, 0 once separated.
    phase: f64,
}

/// How a position is valued.
enum Judged {
    /// By the weighed terms.
    Weighed(Terms),
    /// By the filling count: no empty square is reachable by both players.
    Separated,
    /// Not at all: the distances could not be computed (never on a legal position).
    Unknown,
}

fn judge(pos: &Position, d: &mut AmazonsDistances) -> Judged {
    let q = [pos.queens(Player::First), pos.queens(Player::Second)];
    if d.compute(pos.geometry(), &pos.arrows(), [&q[0], &q[1]])
        .is_err()
    {
        return Judged::Unknown;
    }
    let me = pos.side_to_move();
    let sign = me.sign() as f64;
    let t = d.terms();
    if t.w == 0.0 {
        return Judged::Separated;
    }
    let cells = pos.geometry().cells() as f64;
    let mob = |pl: Player| -> f64 {
        squares(pos.queens(pl))
            .map(|s| f64::from(pos.queen_mobility(s)).sqrt())
            .sum()
    };
    Judged::Weighed(Terms {
        territory: [
            t.t1(me, KAPPA) * sign,
            t.t2(me, KAPPA) * sign,
            t.c1 * sign,
            t.c2 * sign,
        ],
        mobility: mob(me) - mob(me.other()),
        phase: (t.w / (0.3 * cells)).min(1.0),
    })
}

pub(super) fn engine_value_with(
    pos: &Position,
    weights: &EvalWeights,
    d: &mut AmazonsDistances,
) -> i32 {
    let t = match judge(pos, d) {
        Judged::Weighed(t) => t,
        Judged::Unknown => return 0,
        Judged::Separated => {
            // A race of filling. Each side's moves in its own regions, exact where the
            // region search finishes, else its squares (see `filling`).
            let (own, opp) = separated_moves(pos, pos.side_to_move());
            return 100 * (own as i32 - opp as i32) - 50;
        }
    };
    let p = t.phase;
    // A weight interpolated by the phase, as a fraction of 100 cp (the hand weights' form:
    // with them the value is the one sessions 2-11 computed, bit for bit in the territory).
    let at = |open: i32, end: i32| {
        let (open, end) = (f64::from(open) / 1000.0, f64::from(end) / 1000.0);
        end + (open - end) * p
    };
    let territory: f64 = (0..4)
        .map(|i| at(weights.opening[i], weights.ending[i]) * t.territory[i])
        .sum();
    let mobility = t.mobility * 100.0 * at(weights.mobility[0], weights.mobility[1]);
    (100.0 * territory + mobility).round() as i32
}

/// The terms [`engine_value`] weighs, from the side to move's point of view, in the order of
/// [`EvalWeights::to_vec`]: each territory term and the mobility balance times the phase
/// `p` (the opening's share) and times `1 − p` (the ending's), in hundredths
/// ([`FEATURE_SCALE`]), so that the features times the weights are the static value in
/// thousandths of a centipawn (up to the rounding of the features). `None` once the players
/// are separated, where the exact filling count decides the value: the samples of a Texel
/// fit of the weights (`amazons::tune`).
pub fn quiet_features(pos: &Position) -> Option<Vec<i64>> {
    let judged = DIST.with(|d| match d.try_borrow_mut() {
        Ok(mut d) => judge(pos, &mut d),
        Err(_) => judge(pos, &mut AmazonsDistances::default()),
    });
    let Judged::Weighed(t) = judged else {
        return None;
    };
    let scaled = |x: f64| (x * FEATURE_SCALE).round() as i64;
    let (open, end) = (t.phase, 1.0 - t.phase);
    let mut f = Vec::with_capacity(FEATURES);
    f.extend(t.territory.iter().map(|&x| scaled(x * open)));
    f.extend(t.territory.iter().map(|&x| scaled(x * end)));
    f.extend([scaled(t.mobility * open), scaled(t.mobility * end)]);
    Some(f)
}

thread_local! {
    static FILLER: RefCell<Filler> = RefCell::new(Filler::default());
}

/// The moves `me` and the opponent can still make in their own regions of a separated
/// position ([`Filler::moves`]).
pub fn separated_moves(pos: &Position, me: Player) -> (u32, u32) {
    let empty = pos.empty_squares().0;
    let count = |f: &mut Filler, p: Player| f.moves(pos, empty, pos.queens(p).0);
    FILLER.with(|f| match f.try_borrow_mut() {
        Ok(mut f) => (count(&mut f, me), count(&mut f, me.other())),
        Err(_) => {
            let mut f = Filler::default();
            (count(&mut f, me), count(&mut f, me.other()))
        }
    })
}

/// The engine's evaluator: the static value and the candidates ranked by it, with its
/// weights ([`EVAL_WEIGHTS`] by default).
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineEval {
    /// The evaluation's weights.
    pub weights: EvalWeights,
}

impl Evaluator<EnginePosition> for EngineEval {
    fn evaluate(&self, pos: &EnginePosition) -> i32 {
        engine_value(pos.position(), &self.weights)
    }

    fn candidates(&self, pos: &EnginePosition, moves: &mut Vec<AmazonsMove>) {
        let ply = pos.position().ply().saturating_sub(pos.state().root) as usize;
        if ply == 0 {
            root_candidates(pos.position(), &self.weights, moves);
        } else {
            let k = K_BY_PLY[(ply - 1).min(K_BY_PLY.len() - 1)];
            if ply == 1 && reply_candidates(pos.position(), &self.weights, k, moves) {
                return;
            }
            if ply <= RERANK_PLIES && RERANKED > k {
                interior_candidates(pos.position(), RERANKED, moves);
                add_trapping_moves(pos.position(), moves);
                rerank(pos.position(), &self.weights, k, moves);
            } else {
                interior_candidates(pos.position(), k, moves);
            }
        }
    }
}

/// Re-ranks `moves` by the static value after each and keeps the best `k`, best first
/// (a move that leaves the opponent without a move first of all).
pub(super) fn rerank(
    pos: &Position,
    weights: &EvalWeights,
    k: usize,
    moves: &mut Vec<AmazonsMove>,
) {
    let mut p = pos.clone();
    // Equal values keep the pre-score order (the index breaks ties).
    let mut scored: Vec<(i32, usize, AmazonsMove)> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| (value_after(&mut p, weights, mv), i, mv))
        .collect();
    best_first(&mut scored, k, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    moves.clear();
    moves.extend(scored.into_iter().map(|(_, _, m)| m));
}

/// The static value of `mv` for the side making it, from the position after it (`p` is
/// left as it was): a move that leaves the opponent without a move is worth the most.
fn value_after(p: &mut Position, weights: &EvalWeights, mv: AmazonsMove) -> i32 {
    let undo = p.make_move(mv);
    let v = if p.has_legal_move(p.side_to_move()) {
        -engine_value(p, weights)
    } else {
        i32::MAX
    };
    p.unmake_move(mv, undo);
    v
}

thread_local! {
    /// The replies' lists by position hash ([`reply_candidates`]), for the weights they
    /// were ranked with: a pure function of the position and the weights, computed once per
    /// position instead of once per iteration (emptied when another evaluator's weights
    /// rank on the same thread).
    static REPLIES: RefCell<(EvalWeights, HashMap<u64, Vec<AmazonsMove>>)> =
        RefCell::new((EVAL_WEIGHTS, HashMap::new()));
}

/// At ply 1 (the opponent's replies to the root moves): when the side to move has at most
/// [`FULL_RANK_MAX_MOVES`] legal moves, every one is scored by the static value after it
/// and the best `k` are kept, best first (`true`); otherwise `moves` is left empty and
/// the caller uses the shortlist (`false`).
///
/// Why: in 16 games lost 5-11 to a Botzone bot, the bot's reply after 27 of our search's
/// drops of 250 cp or more was in the shortlist-built reply list once; 22 of the 27 were
/// among the best 20 replies by static value.
pub(super) fn reply_candidates(
    pos: &Position,
    weights: &EvalWeights,
    k: usize,
    moves: &mut Vec<AmazonsMove>,
) -> bool {
    moves.clear();
    let key = pos.hash();
    let cached = REPLIES.with(|c| {
        c.try_borrow()
            .ok()
            .filter(|c| c.0 == *weights)
            .and_then(|c| c.1.get(&key).map(|list| moves.extend_from_slice(list)))
            .is_some()
    });
    if cached {
        return true;
    }
    pos.generate_moves(moves);
    if moves.len() > FULL_RANK_MAX_MOVES {
        moves.clear();
        return false;
    }
    rank_all(pos, weights, k, moves);
    REPLIES.with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            let (ranked_with, lists) = &mut *c;
            if lists.len() >= REPLY_CACHE_ENTRIES || ranked_with != weights {
                lists.clear();
                *ranked_with = *weights;
            }
            lists.insert(key, moves.clone());
        }
    });
    true
}

/// Every legal move scored by the static value after it; the best [`ROOT_K`], best first.
pub(super) fn root_candidates(pos: &Position, weights: &EvalWeights, moves: &mut Vec<AmazonsMove>) {
    pos.generate_moves(moves);
    rank_all(pos, weights, ROOT_K, moves);
}

/// Scores `moves` by the static value after each; keeps the best `k`, best first.
fn rank_all(pos: &Position, weights: &EvalWeights, k: usize, moves: &mut Vec<AmazonsMove>) {
    let mut p = pos.clone();
    let mut scored: Vec<(i32, AmazonsMove)> = moves
        .iter()
        .map(|&mv| (value_after(&mut p, weights, mv), mv))
        .collect();
    best_first(&mut scored, k, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    moves.clear();
    moves.extend(scored.into_iter().map(|(_, m)| m));
}

/// The best `k` moves by the cheap pre-score (see the module docs), best first.
pub(super) fn interior_candidates(pos: &Position, k: usize, moves: &mut Vec<AmazonsMove>) {
    let ctx = PreScore::new(pos);
    let mut qms = queen_moves(pos, &ctx);
    best_first(&mut qms, QUEEN_MOVES, |a, b| {
        b.2.cmp(&a.2).then((a.0, a.1).cmp(&(b.0, b.1)))
    });
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
    best_first(&mut out, k, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    moves.clear();
    moves.extend(out.into_iter().map(|(_, m)| m));
}

/// Adds to `moves` (without duplicates) the side to move's best [`TRAP_MOVES`] moves, by
/// the pre-score, whose arrow takes a liberty of an opponent queen with at most
/// [`TRAP_LIBERTIES`] empty neighbours.
///
/// Why: the shortlist picks queen moves first, by the mobility they gain, and arrows only
/// for those; a move that walls a queen in with a poor-looking queen move (into a corner,
/// say) never reaches the re-ranking, although its static value is often the best of all.
/// In a lost game against a Botzone bot the reply that shut our queen in (`h3-f1/d1`, the
/// best move by static value) was not among the 33 moves the search considered.
pub(super) fn add_trapping_moves(pos: &Position, moves: &mut Vec<AmazonsMove>) {
    let ctx = PreScore::new(pos);
    let empty = pos.empty_squares().0;
    let mut liberties = 0u128;
    for &(q, libs) in &ctx.opp[..ctx.opp_n] {
        if libs <= TRAP_LIBERTIES {
            liberties |= pos.neighbours(q).0 & empty;
        }
    }
    if liberties == 0 {
        return;
    }
    let occupied = pos.occupied().0;
    let mut traps: Vec<(i32, AmazonsMove)> = Vec::new();
    for from in squares(pos.queens(pos.side_to_move())) {
        let dests = pos.queen_reach(from).0;
        let vacated = Bitboard128(occupied & !bit(from));
        for target in squares(Bitboard128(liberties)) {
            // The destinations that see `target` once `from` is empty (lines are symmetric).
            let seers = pos.queen_reach_in(target, vacated).0 & dests;
            for to in squares(Bitboard128(seers)) {
                let score = ctx.queen(from, to) + ctx.arrow(from, to, target);
                traps.push((score, AmazonsMove::new(from, to, target)));
            }
        }
    }
    best_first(&mut traps, TRAP_MOVES, |a, b| {
        b.0.cmp(&a.0).then(a.1.cmp(&b.1))
    });
    for (_, mv) in traps {
        if !moves.contains(&mv) {
            moves.push(mv);
        }
    }
}

/// Keeps the first `k` of `v` under the total order `cmp`, sorted: the same list as a full
/// sort and truncation, without sorting the tail that is dropped.
pub(super) fn best_first<T>(v: &mut Vec<T>, k: usize, cmp: impl Fn(&T, &T) -> std::cmp::Ordering) {
    if k == 0 {
        v.clear();
        return;
    }
    if v.len() > k {
        v.select_nth_unstable_by(k - 1, &cmp);
        v.truncate(k);
    }
    v.sort_unstable_by(cmp);
}

// ---- cheap move pre-score -------------------------------------------------------------------

#[inline]
pub(super) fn bit(sq: Square) -> u128 {
    1u128 << (sq.index() & 127)
}

pub(super) fn squares(b: Bitboard128) -> impl Iterator<Item = Square> {
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
pub(super) struct PreScore<'a> {
    pos: &'a Position,
    own: u128,
    /// Opponent queens and their empty-neighbour counts.
    opp: [(Square, u32); 4],
    opp_n: usize,
    /// Squares in the opponent queens' lines.
    opp_reach: u128,
}

impl<'a> PreScore<'a> {
    pub(super) fn new(pos: &'a Position) -> PreScore<'a> {
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
    pub(super) fn arrow(&self, from: Square, to: Square, arrow: Square) -> i32 {
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
pub(super) fn queen_moves(pos: &Position, ctx: &PreScore) -> Vec<(Square, Square, i32)> {
    let mut out = Vec::with_capacity(160);
    for from in squares(pos.queens(pos.side_to_move())) {
        for to in squares(pos.queen_reach(from)) {
            out.push((from, to, ctx.queen(from, to)));
        }
    }
    out
}
