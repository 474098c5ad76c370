//! The amazons engine: its evaluation state, its territory evaluation and its candidate
//! generator.

use super::{filling::Filler, *};

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
/// Opening weights (t1, t2, c1, c2) and ending weights.
pub(super) const OPEN_W: [f64; 4] = [0.20, 0.35, 0.15, 0.15];
pub(super) const END_W: [f64; 4] = [0.80, 0.10, 0.05, 0.05];

/// The engine's static value from the side to move's view (see the module docs).
pub fn engine_value(pos: &Position) -> i32 {
    DIST.with(|d| match d.try_borrow_mut() {
        Ok(mut d) => engine_value_with(pos, &mut d),
        Err(_) => engine_value_with(pos, &mut AmazonsDistances::default()),
    })
}

pub(super) fn engine_value_with(pos: &Position, d: &mut AmazonsDistances) -> i32 {
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
        // Separated: a race of filling. Each side's moves in its own regions, exact where
        // the region search finishes, else its squares (see `filling`).
        let (own, opp) = separated_moves(pos, me);
        return 100 * (own as i32 - opp as i32) - 50;
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
            if ply == 1 && reply_candidates(pos.position(), k, moves) {
                return;
            }
            if ply <= RERANK_PLIES && RERANKED > k {
                interior_candidates(pos.position(), RERANKED, moves);
                add_trapping_moves(pos.position(), moves);
                rerank(pos.position(), k, moves);
            } else {
                interior_candidates(pos.position(), k, moves);
            }
        }
    }
}

/// Re-ranks `moves` by the static value after each and keeps the best `k`, best first
/// (a move that leaves the opponent without a move first of all).
pub(super) fn rerank(pos: &Position, k: usize, moves: &mut Vec<AmazonsMove>) {
    let mut p = pos.clone();
    // Equal values keep the pre-score order (the index breaks ties).
    let mut scored: Vec<(i32, usize, AmazonsMove)> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| (value_after(&mut p, mv), i, mv))
        .collect();
    best_first(&mut scored, k, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    moves.clear();
    moves.extend(scored.into_iter().map(|(_, _, m)| m));
}

/// The static value of `mv` for the side making it, from the position after it (`p` is
/// left as it was): a move that leaves the opponent without a move is worth the most.
fn value_after(p: &mut Position, mv: AmazonsMove) -> i32 {
    let undo = p.make_move(mv);
    let v = if p.has_legal_move(p.side_to_move()) {
        -engine_value(p)
    } else {
        i32::MAX
    };
    p.unmake_move(mv, undo);
    v
}

thread_local! {
    /// The replies' lists by position hash ([`reply_candidates`]): a pure function of the
    /// position, computed once per position instead of once per iteration.
    static REPLIES: RefCell<HashMap<u64, Vec<AmazonsMove>>> = RefCell::new(HashMap::new());
}

/// At ply 1 (the opponent's replies to the root moves): when the side to move has at most
/// [`FULL_RANK_MAX_MOVES`] legal moves, every one is scored by the static value after it
/// and the best `k` are kept, best first (`true`); otherwise `moves` is left empty and
/// the caller uses the shortlist (`false`).
///
/// Why: in 16 games lost 5-11 to a Botzone bot, the bot's reply after 27 of our search's
/// drops of 250 cp or more was in the shortlist-built reply list once; 22 of the 27 were
/// among the best 20 replies by static value.
pub(super) fn reply_candidates(pos: &Position, k: usize, moves: &mut Vec<AmazonsMove>) -> bool {
    moves.clear();
    let key = pos.hash();
    let cached = REPLIES.with(|c| {
        c.try_borrow()
            .ok()
            .and_then(|c| c.get(&key).map(|list| moves.extend_from_slice(list)))
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
    rank_all(pos, k, moves);
    REPLIES.with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            if c.len() >= REPLY_CACHE_ENTRIES {
                c.clear();
            }
            c.insert(key, moves.clone());
        }
    });
    true
}

/// Every legal move scored by the static value after it; the best [`ROOT_K`], best first.
pub(super) fn root_candidates(pos: &Position, moves: &mut Vec<AmazonsMove>) {
    pos.generate_moves(moves);
    rank_all(pos, ROOT_K, moves);
}

/// Scores `moves` by the static value after each; keeps the best `k`, best first.
fn rank_all(pos: &Position, k: usize, moves: &mut Vec<AmazonsMove>) {
    let mut p = pos.clone();
    let mut scored: Vec<(i32, AmazonsMove)> = moves
        .iter()
        .map(|&mv| (value_after(&mut p, mv), mv))
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
