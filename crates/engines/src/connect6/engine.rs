//! The connect6 engine's evaluator: window evaluation, threat-aware pair candidates and a
//! threat-space search for continuous double threats.

use crate::tune::TunedWeights;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::failures::ThreatFailures;

use board_core::{Player, Rules as _, Square};
use rules_connect6::{Connect6Position, Move};
use search::{Evaluator, ForcedWin, Incremental};

use super::state::{self, WindowCounts, WindowState, blockers_needed, pair_blocks, threat_cells};
use super::threats::{PairEffect, ThreatMakers, may_share_window, pair_effect};

/// The position the engine searches: the rules position plus its window state.
pub type EnginePosition = Incremental<Connect6Position, WindowState>;

/// Builds the engine position of a game position.
pub fn wrap(pos: &Connect6Position) -> EnginePosition {
    Incremental::new(pos.clone())
}

/// Value of a stone on an empty square, per live window of the side to move holding `c`
/// own stones: what the window gains.
pub const ATTACK: [i32; 6] = [1, 11, 48, 240, 0, 0];
/// Value of a stone on an empty square, per live window of the opponent holding `c` of its
/// stones: what the opponent loses.
pub const DEFENCE: [i32; 6] = [0, 2, 20, 90, 400, 400];

/// Static value of a position where the side to move makes six next move (or the opponent
/// has more threats than two stones can block). Well inside the search's heuristic range.
pub const WON: i32 = 200_000;

/// How many of the best cells candidate pairs are built from.
pub const TOP_CELLS: usize = 12;

/// How many pairs a node searches at most (the best by the value after them).
pub const MAX_PAIRS: usize = 16;

/// The quiet evaluation's weights: what a live window is worth by the number of stones of
/// its colour in it, one set for the side to move (its two stones about to be played turn a
/// 3-stone window into a threat with one stone and a 2-stone one with both, so its windows
/// are worth more) and one for the side that waits, and what a forced block costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Per live window of the side to move holding 1, 2 or 3 of its stones (4 or 5 are a
    /// threat, a win for the side to move: not weighed).
    pub to_move: [i32; 3],
    /// Per live window of the side that waits holding 1 to 5 of its stones.
    pub waiting: [i32; 5],
    /// What the side to move loses when the opponent's threats take one stone of its move
    /// to block, and when they take both.
    pub block: [i32; 2],
}

/// Number of terms of [`quiet_features`] (and of [`EvalWeights::to_vec`]).
pub const FEATURES: usize = 10;

/// The hand weights the fit starts from (session 7's evaluation): the waiting side's are
/// the window weights 1, 12, 60, 300, 320; the side to move's add the initiative weights
/// 1, 20, 150 that halved the swing between odd and even depths (`docs/strength.md`,
/// connect6, issue 15); a block of one stone costs 150, of two 600.
pub const HAND_WEIGHTS: EvalWeights = EvalWeights {
    to_move: [2, 32, 210],
    waiting: [1, 12, 60, 300, 320],
    block: [150, 600],
};

/// The engine's evaluation weights: [`HAND_WEIGHTS`] fitted to the results of 800 self-play
/// games (`connect6::tune`; the games are `data/connect6-selfplay-n2000-s9.txt`, the
/// commands and the match that kept them are in `docs/strength.md`, connect6, session 11).
/// What the fit changed: the side to move's 3-stone windows are worth less than its hand
/// weight said (93, not 210) and its 2-stone ones more; the waiting side's 4-stone windows
/// weigh little by themselves, while the block they force costs about twice as much.
pub const EVAL_WEIGHTS: EvalWeights = EvalWeights {
    to_move: [3, 51, 93],
    waiting: [0, 28, 42, 73, 289],
    block: [258, 1162],
};

impl TunedWeights for EvalWeights {
    /// The weights as [`quiet_features`] orders its terms: the side to move's, the waiting
    /// side's, the two block costs.
    fn to_vec(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(FEATURES);
        v.extend_from_slice(&self.to_move);
        v.extend_from_slice(&self.waiting);
        v.extend_from_slice(&self.block);
        v
    }

    /// The weights [`to_vec`](EvalWeights::to_vec) wrote, or `None` for a slice of another
    /// length than [`FEATURES`].
    fn from_slice(v: &[i32]) -> Option<EvalWeights> {
        if v.len() != FEATURES {
            return None;
        }
        let mut w = EvalWeights {
            to_move: [0; 3],
            waiting: [0; 5],
            block: [0; 2],
        };
        w.to_move.copy_from_slice(&v[..3]);
        w.waiting.copy_from_slice(&v[3..8]);
        w.block.copy_from_slice(&v[8..]);
        Some(w)
    }
}

impl EvalWeights {
    /// The side to move's live windows weighed (its 4- and 5-stone windows, which a
    /// position with the side to move to play never holds unless it wins, weigh as the
    /// waiting side's).
    fn mover(&self, counts: &WindowCounts) -> i32 {
        let own: i32 = (1..=3).map(|n| self.to_move[n - 1] * counts[n]).sum();
        own + self.waiting[3] * counts[4] + self.waiting[4] * counts[5]
    }

    /// The waiting side's live windows weighed.
    fn waiter(&self, counts: &WindowCounts) -> i32 {
        (1..=5).map(|n| self.waiting[n - 1] * counts[n]).sum()
    }

    /// The cost of having to block threats that need `need` stones (0, 1 or 2).
    fn block_cost(&self, need: u32) -> i32 {
        match need {
            1 => self.block[0],
            2 => self.block[1],
            _ => 0,
        }
    }
}

/// The connect6 engine's [`Evaluator`].
#[derive(Clone, Debug)]
pub struct Connect6Eval {
    /// Best cells (by cell value) pairs are built from.
    pub top_cells: usize,
    /// Threat-making squares (see [`ThreatMakers`]) added to those cells.
    pub threat_cells: usize,
    /// Pairs inside one of our 2-stone windows added to the pairs of cells.
    pub threat_pairs: usize,
    /// The most pairs a node searches (the best by [`pair_value`]).
    pub max_pairs: usize,
    /// Threat-space search budget (pair tests) at the root.
    pub root_tss_budget: u32,
    /// Wall-time cap of the root threat-space search.
    pub root_tss_time: Duration,
    /// The evaluation's weights.
    pub weights: EvalWeights,
    /// Whether interior nodes run a (small) threat-space search.
    pub interior_tss: bool,
    /// Attacking moves the interior threat-space search looks ahead.
    pub interior_tss_depth: u32,
    /// Pair tests of one interior threat-space search.
    pub interior_tss_budget: u32,
    /// Where an interior threat-space search already failed: the search asks again at the
    /// same nodes in every iteration and at transpositions (pairs played in another order
    /// make the same position), and the same search of the same stones fails again.
    /// Shared by the clones of an evaluator (a cache: the key holds all the search
    /// depends on).
    pub tss_failures: Arc<ThreatFailures>,
}

impl Default for Connect6Eval {
    fn default() -> Self {
        Connect6Eval {
            top_cells: TOP_CELLS,
            threat_cells: 8,
            threat_pairs: 12,
            max_pairs: MAX_PAIRS,
            root_tss_budget: 60_000,
            root_tss_time: Duration::from_millis(15),
            weights: EVAL_WEIGHTS,
            interior_tss: true,
            interior_tss_depth: 4,
            interior_tss_budget: 300,
            tss_failures: Arc::default(),
        }
    }
}

/// The static value of `st` for `me` to move (see the module docs of `connect6`): a threat
/// of `me` wins; opponent threats that need more than two blocking stones lose; otherwise
/// `me`'s live windows weighed with [`EvalWeights::to_move`] minus the opponent's weighed
/// with [`EvalWeights::waiting`], minus the cost of the block the opponent's threats force.
pub fn static_value(st: &WindowState, me: Player, weights: &EvalWeights) -> i32 {
    let op = me.other();
    if st.threats[me.index()] > 0 {
        return WON;
    }
    let need = opponent_blockers(st, op);
    if need >= 3 {
        return -WON;
    }
    weights.mover(&st.windows[me.index()])
        - weights.waiter(&st.windows[op.index()])
        - weights.block_cost(need)
}

/// The least number of stones that block every threat of `op` (capped at 3).
fn opponent_blockers(st: &WindowState, op: Player) -> u32 {
    if st.threats[op.index()] == 0 {
        return 0;
    }
    let mut ts = Vec::new();
    st.threat_windows(op, &mut ts);
    blockers_needed(&ts)
}

/// The terms [`static_value`] weighs, from the side to move's point of view, in the order
/// of [`EvalWeights::to_vec`] (the side to move's window counts, the opponent's negated,
/// the block indicators negated), or `None` when a threat decides the static value instead
/// (the side to move's six next move, or the opponent's unblockable threats): the samples
/// of a Texel fit of the weights (`connect6::tune`).
pub fn quiet_features(st: &WindowState, me: Player) -> Option<Vec<i64>> {
    let op = me.other();
    if st.threats[me.index()] > 0 {
        return None;
    }
    let need = opponent_blockers(st, op);
    if need >= 3 {
        return None;
    }
    let (mine, theirs) = (&st.windows[me.index()], &st.windows[op.index()]);
    let mut f = Vec::with_capacity(FEATURES);
    f.extend((1..=3).map(|n| i64::from(mine[n])));
    f.extend((1..=5).map(|n| -i64::from(theirs[n])));
    f.extend([-i64::from(need == 1), -i64::from(need == 2)]);
    Some(f)
}

/// The value of a stone of `me` on every empty square (0 for squares no live window with
/// stones reaches), into `vals` (indexed by square).
pub fn cell_values(st: &WindowState, me: Player, vals: &mut Vec<i32>) {
    vals.clear();
    vals.resize(st.board.len(), 0);
    let (mi, oi) = (me.index(), me.other().index());
    let table = st.table();
    for (w, c) in st.counts.iter().enumerate() {
        let (m, o) = (c[mi] as usize, c[oi] as usize);
        let v = match (m, o) {
            (0, 0) => continue,
            (m, 0) => ATTACK[m.min(5)],
            (0, o) => DEFENCE[o.min(5)],
            _ => continue,
        };
        for &sq in state::window(table, w) {
            if st.board[sq.index()] == 0 {
                vals[sq.index()] += v;
            }
        }
    }
}

/// The `n` best empty squares by `vals` (ties by square order), best first.
pub fn top_cells(vals: &[i32], n: usize, out: &mut Vec<Square>) {
    out.clear();
    let mut all: Vec<(i32, u16)> = vals
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v > 0)
        .map(|(i, &v)| (v, i as u16))
        .collect();
    let key = |&(v, i): &(i32, u16)| (std::cmp::Reverse(v), i);
    if all.len() > n {
        all.select_nth_unstable_by_key(n, key);
        all.truncate(n);
    }
    all.sort_unstable_by_key(key);
    out.extend(all.into_iter().map(|(_, i)| Square(i)));
}

/// The move that makes six for `me` if `me` has a threat window, completed with the best
/// other square when one stone suffices.
pub fn winning_move(st: &WindowState, me: Player) -> Option<Move> {
    if st.threats[me.index()] == 0 {
        return None;
    }
    let mut ts = Vec::new();
    st.threat_windows(me, &mut ts);
    // Prefer a window that needs one stone: the other stone is then free.
    let t = ts
        .iter()
        .find(|t| t.len == 1)
        .or_else(|| ts.first())
        .copied()?;
    match t.squares() {
        [a, b] => Some(Move::pair(*a, *b)),
        [a] => {
            let other = st
                .board
                .iter()
                .enumerate()
                .find(|&(i, &c)| c == 0 && i != a.index())
                .map(|(i, _)| Square(i as u16))?;
            Some(Move::pair(*a, other))
        }
        _ => None,
    }
}

/// The value for `me` of the position after `me` plays the pair whose effect is `eff`, with
/// the opponent to move (the negation of [`static_value`] there, from the window counts of
/// the pair alone: `me` has no threat before a quiet or blocking pair, so every threat of
/// `me` afterwards runs through it, and a blocking pair leaves the opponent none), and the
/// number of stones that block the threats the pair makes.
pub fn pair_value(
    st: &WindowState,
    me: Player,
    eff: &PairEffect,
    weights: &EvalWeights,
) -> (i32, u32) {
    let (mi, oi) = (me.index(), me.other().index());
    let after = |i: usize| -> WindowCounts {
        let mut c = st.windows[i];
        for (n, d) in c.iter_mut().zip(&eff.windows_delta[i]) {
            *n += d;
        }
        c
    };
    let need = blockers_needed(&eff.threats);
    if need >= 3 {
        return (WON, need);
    }
    let v = weights.waiter(&after(mi)) - weights.mover(&after(oi)) + weights.block_cost(need);
    (v, need)
}

/// Candidate moves at `pos` (see the module docs): the win, else a short list of pairs
/// ordered by the value after them: the pairs that block every threat of the opponent when
/// it has any, otherwise the pairs of the best cells and of our threat-making squares. A
/// pair that makes threats needing three blockers (a win next turn) is returned alone.
pub fn candidates(pos: &EnginePosition, eval: &Connect6Eval, moves: &mut Vec<Move>) {
    moves.clear();
    let p = pos.position();
    if p.outcome().is_some() {
        return;
    }
    if p.stones_to_place() == 1 {
        if p.ply() == 0 {
            let c = p.size() / 2;
            if let Some(sq) = p.geometry().square_at(c, c) {
                moves.push(Move::single(sq));
                return;
            }
        }
        p.generate_moves(moves);
        return;
    }
    let st = pos.state();
    let me = p.side_to_move();
    let op = me.other();
    if let Some(mv) = winning_move(st, me) {
        moves.push(mv);
        return;
    }
    let mut vals = Vec::new();
    cell_values(st, me, &mut vals);
    let mut pool = Vec::new();
    top_cells(&vals, eval.top_cells, &mut pool);
    let mut makers = ThreatMakers::default();
    makers.find(st, me);
    for &(sq, _) in makers.singles.iter().take(eval.threat_cells) {
        if !pool.contains(&sq) {
            pool.push(sq);
        }
    }
    let mut ts = Vec::new();
    if st.threats[op.index()] > 0 {
        st.threat_windows(op, &mut ts);
        let mut tcells = Vec::new();
        threat_cells(&ts, &mut tcells);
        for sq in tcells {
            if !pool.contains(&sq) {
                pool.push(sq);
            }
        }
    }
    if pool.len() < 2 {
        // Nothing reaches any square (cannot happen after the first stone): any pair.
        let mut empties = (0..st.board.len())
            .filter(|&i| st.board[i] == 0)
            .map(|i| Square(i as u16));
        if let (Some(a), Some(b)) = (empties.next(), empties.next()) {
            moves.push(Move::pair(pool.first().copied().unwrap_or(a), b));
        }
        return;
    }
    let mut tried: Vec<Move> = Vec::with_capacity(pool.len() * pool.len() / 2 + 16);
    for (i, &a) in pool.iter().enumerate() {
        for &b in &pool[i + 1..] {
            tried.push(Move::pair(a, b));
        }
    }
    // Pairs that make a threat inside one 2-stone window, best cells first.
    makers.doubles.sort_unstable_by_key(|&(a, b)| {
        (std::cmp::Reverse(vals[a.index()] + vals[b.index()]), a, b)
    });
    for &(a, b) in makers.doubles.iter().take(eval.threat_pairs) {
        let mv = Move::pair(a, b);
        if !(pool.contains(&a) && pool.contains(&b)) {
            tried.push(mv);
        }
    }
    // Each pool square's stone alone: most pairs share no window, and their effect is the
    // sum of their stones' (which saves visiting each stone's windows once per pair).
    let alone: Vec<PairEffect> = pool
        .iter()
        .map(|&a| {
            let mut e = PairEffect::default();
            pair_effect(st, me, a, a, &mut e);
            e
        })
        .collect();
    let alone_at = |sq: Square| pool.iter().position(|&p| p == sq).map(|i| &alone[i]);
    let mut eff = PairEffect::default();
    let mut pairs: Vec<(i32, i32, Move)> = Vec::with_capacity(tried.len());
    for mv in tried {
        let (a, b) = (mv.first(), mv.second().unwrap_or(mv.first()));
        if !ts.is_empty() && !pair_blocks(&ts, a, b) {
            continue;
        }
        match (alone_at(a), alone_at(b)) {
            (Some(ea), Some(eb)) if a != b && !may_share_window(st, a, b) => eff.set_sum(ea, eb),
            _ => pair_effect(st, me, a, b, &mut eff),
        }
        let (v, need) = pair_value(st, me, &eff, &eval.weights);
        if need >= 3 {
            // The opponent has no threat left after this pair and cannot block ours.
            moves.push(mv);
            return;
        }
        pairs.push((v, vals[a.index()] + vals[b.index()], mv));
    }
    if pairs.is_empty() {
        // More threats than two stones can block: the game is lost; block what we can.
        let mut cells = Vec::new();
        threat_cells(&ts, &mut cells);
        if let Some(&a) = cells.first() {
            let b = cells.get(1).or(pool.iter().find(|&&s| s != a)).copied();
            if let Some(b) = b.or_else(|| any_other_empty(st, a)) {
                moves.push(Move::pair(a, b));
            }
        }
        return;
    }
    pairs.sort_unstable_by_key(|&(v, tie, m)| (std::cmp::Reverse(v), std::cmp::Reverse(tie), m));
    pairs.truncate(eval.max_pairs);
    moves.extend(pairs.into_iter().map(|(_, _, m)| m));
}

fn any_other_empty(st: &WindowState, a: Square) -> Option<Square> {
    st.board
        .iter()
        .enumerate()
        .find(|&(i, &c)| c == 0 && i != a.index())
        .map(|(i, _)| Square(i as u16))
}

// ---- threat-space search -----------------------------------------------------------------

/// Search state of the threat-space search.
struct Tss {
    st: WindowState,
    att: Player,
    budget: u32,
    deadline: Option<Instant>,
    /// Cap on the threat-making squares combined into pairs at each attacking node.
    singles_cap: usize,
    /// Cap on the 2-stone-window pairs tried at each attacking node.
    doubles_cap: usize,
    /// Cap on the building squares given as the free stone of a one-stone double threat.
    builders_cap: usize,
    /// When recording: the squares of the win found, each with the attacking moves left
    /// when it was played (the attacker's pairs, the cells of the threats they make, the
    /// defender's blocking cells), for [`threat_defence`].
    proof: Option<Vec<(u32, Square)>>,
    /// Key of the stones placed since the search began (see [`stone_key`]).
    hash: u64,
    /// Whether this search keeps `failed` and `killers` (the defence's searches; the
    /// engine's own threat-space search runs as it was measured, without them).
    memo: bool,
    /// Attacking nodes (by `hash`) proven to fail with that many attacking moves or more
    /// left: the same stones reached in another order fail again (sequences of threats
    /// transpose all the time).
    failed: std::collections::HashMap<u64, u32>,
    /// The winning pair of each attacking node won (by `hash`), tried first when the node
    /// is reached again, in this search or (handed on) the next.
    killers: Killers,
}

/// Winning attacking pairs by the key of the stones placed since a search's start.
type Killers = std::collections::HashMap<u64, (Square, Square)>;

/// The key of a stone of `p` on `sq`, for the threat-space search's table of failed nodes:
/// the project's Zobrist key of that stone.
fn stone_key(p: Player, sq: Square) -> u64 {
    board_core::zobrist().piece(p.index(), sq)
}

impl Tss {
    fn new(
        st: WindowState,
        att: Player,
        budget: u32,
        deadline: Option<Instant>,
        memo: bool,
    ) -> Tss {
        Tss {
            memo,
            st,
            att,
            budget,
            deadline,
            singles_cap: 16,
            doubles_cap: 48,
            builders_cap: 6,
            proof: None,
            hash: 0,
            failed: std::collections::HashMap::new(),
            killers: Killers::new(),
        }
    }

    fn place(&mut self, p: Player, sq: Square) {
        self.st.place(p, sq);
        self.hash ^= stone_key(p, sq);
    }

    fn remove(&mut self, p: Player, sq: Square) {
        self.st.remove(p, sq);
        self.hash ^= stone_key(p, sq);
    }

    /// Notes `squares` as part of the win being proved, `depth` attacking moves from its end.
    fn record(&mut self, depth: u32, squares: &[Square]) {
        if let Some(proof) = self.proof.as_mut() {
            proof.extend(squares.iter().map(|&sq| (depth, sq)));
        }
    }

    /// How many squares are recorded (to forget a refuted line's).
    fn recorded(&self) -> usize {
        self.proof.as_ref().map_or(0, Vec::len)
    }

    /// Forgets the squares recorded after the first `len`.
    fn forget(&mut self, len: usize) {
        if let Some(proof) = self.proof.as_mut() {
            proof.truncate(len);
        }
    }

    /// Takes one pair test from the budget; `false` once it is spent (or the deadline passed).
    fn spend(&mut self) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        if self.budget.is_multiple_of(128) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.budget = 0;
        }
        true
    }

    /// The attacker's pairs worth testing for a double threat, generated from its threat
    /// makers (see [`ThreatMakers`]): pairs of squares that each make a threat, pairs
    /// inside one 2-stone window, and each threat-making square with a blocking square of
    /// the defender's threats `dcells` (a pair must block those first).
    fn attack_pairs(&self, dcells: &[Square], out: &mut Vec<(Square, Square)>) {
        out.clear();
        let mut makers = ThreatMakers::default();
        makers.find(&self.st, self.att);
        let singles: Vec<Square> = makers
            .singles
            .iter()
            .take(self.singles_cap)
            .map(|&(s, _)| s)
            .collect();
        let push = |a: Square, b: Square, out: &mut Vec<(Square, Square)>| {
            let pr = (a.min(b), a.max(b));
            if a != b && !out.contains(&pr) {
                out.push(pr);
            }
        };
        for (i, &a) in singles.iter().enumerate() {
            for &b in &singles[i + 1..] {
                push(a, b, out);
            }
        }
        for &(a, b) in makers.doubles.iter().take(self.doubles_cap) {
            push(a, b, out);
        }
        for &a in &singles {
            for &b in dcells {
                push(a, b, out);
            }
        }
        // A single square can make a double threat alone (a four with room on both sides):
        // its second stone is free, so it builds the next threat (a square of our 2-stone
        // windows, most crossing lines first).
        let mut eff = PairEffect::default();
        for &a in &singles {
            pair_effect(&self.st, self.att, a, a, &mut eff);
            if blockers_needed(&eff.threats) < 2 {
                continue;
            }
            let mut partners = 0;
            for &(b, _) in &makers.builders {
                if partners == self.builders_cap {
                    break;
                }
                if b != a {
                    push(a, b, out);
                    partners += 1;
                }
            }
            if partners == 0
                && let Some(b) = any_other_empty(&self.st, a)
            {
                push(a, b, out);
            }
        }
    }

    /// The attacker (to move) wins by continuous double threats within `depth` more
    /// attacking moves: the first move and the number of plies to the six.
    fn attack(&mut self, depth: u32) -> Option<(Move, u32)> {
        if let Some(mv) = winning_move(&self.st, self.att) {
            return Some((mv, 1));
        }
        if depth == 0 || self.budget == 0 {
            return None;
        }
        if self.memo && self.failed.get(&self.hash).is_some_and(|&d| d >= depth) {
            return None;
        }
        let r = self.attack_pairs_in_turn(depth);
        if self.memo && r.is_none() && self.budget > 0 {
            // A proven failure (not a spent budget, after which nothing is searched).
            let d = self.failed.entry(self.hash).or_insert(0);
            *d = (*d).max(depth);
        }
        r
    }

    /// [`attack`](Tss::attack)'s search once the table has no answer.
    fn attack_pairs_in_turn(&mut self, depth: u32) -> Option<(Move, u32)> {
        let att = self.att;
        let def = att.other();
        let mut dts = Vec::new();
        self.st.threat_windows(def, &mut dts);
        if blockers_needed(&dts) > 2 {
            return None;
        }
        let mut dcells = Vec::new();
        threat_cells(&dts, &mut dcells);
        let mut eff = PairEffect::default();
        // The pair that won here in an earlier search (the same stones placed since the
        // start: the opponent's win before one of our pairs, tested again after it).
        let killer = if self.memo {
            self.killers.get(&self.hash).copied()
        } else {
            None
        };
        if let Some((a, b)) = killer
            && self.st.is_empty(a)
            && self.st.is_empty(b)
            && pair_blocks(&dts, a, b)
        {
            if let Some(win) = self.try_pair(depth, a, b, &mut eff) {
                return Some(win);
            }
            if self.budget == 0 {
                return None;
            }
        }
        let mut pairs = Vec::new();
        self.attack_pairs(&dcells, &mut pairs);
        let mut doubles: Vec<(Square, Square)> = Vec::new();
        for (a, b) in pairs {
            if !pair_blocks(&dts, a, b) || killer == Some((a, b)) {
                continue;
            }
            if !self.spend() {
                return None;
            }
            pair_effect(&self.st, att, a, b, &mut eff);
            let need = blockers_needed(&eff.threats);
            if need >= 3 {
                return Some(self.unblockable(depth, a, b, &eff));
            }
            if need == 2 {
                doubles.push((a, b));
            }
        }
        for (a, b) in doubles {
            if let Some(win) = self.double_threat(depth, a, b) {
                return Some(win);
            }
            if self.budget == 0 {
                return None;
            }
        }
        None
    }

    /// Tests the attacker's pair `(a, b)` (it blocks the defender's threats): a win if it
    /// makes threats the defender cannot block, or a double threat every block of which
    /// loses.
    fn try_pair(
        &mut self,
        depth: u32,
        a: Square,
        b: Square,
        eff: &mut PairEffect,
    ) -> Option<(Move, u32)> {
        if !self.spend() {
            return None;
        }
        pair_effect(&self.st, self.att, a, b, eff);
        match blockers_needed(&eff.threats) {
            3.. => Some(self.unblockable(depth, a, b, eff)),
            2 => self.double_threat(depth, a, b),
            _ => None,
        }
    }

    /// The win of a pair making threats that need three blockers: pair, the defender's
    /// (useless) reply, the six: three plies.
    fn unblockable(&mut self, depth: u32, a: Square, b: Square, eff: &PairEffect) -> (Move, u32) {
        self.record(depth, &[a, b]);
        let mut cells = Vec::new();
        threat_cells(&eff.threats, &mut cells);
        self.record(depth, &cells);
        if self.memo {
            self.killers.insert(self.hash, (a, b));
        }
        (Move::pair(a, b), 3)
    }

    /// Plays the double threat `(a, b)` and tries every block.
    fn double_threat(&mut self, depth: u32, a: Square, b: Square) -> Option<(Move, u32)> {
        let att = self.att;
        let mark = self.recorded();
        self.place(att, a);
        self.place(att, b);
        let r = self.defend(depth);
        self.remove(att, b);
        self.remove(att, a);
        match r {
            Some(plies) => {
                self.record(depth, &[a, b]);
                if self.memo {
                    self.killers.insert(self.hash, (a, b));
                }
                Some((Move::pair(a, b), plies + 1))
            }
            None => {
                self.forget(mark);
                None
            }
        }
    }

    /// The defender (to move) faces a double threat: every pair that blocks it must lose.
    /// Returns the plies the attacker needs from the defender's reply on.
    fn defend(&mut self, depth: u32) -> Option<u32> {
        let att = self.att;
        let def = att.other();
        let mut ts = Vec::new();
        self.st.threat_windows(att, &mut ts);
        let mut cells = Vec::new();
        threat_cells(&ts, &mut cells);
        let mut worst = 0;
        let mut any = false;
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                if !pair_blocks(&ts, a, b) {
                    continue;
                }
                any = true;
                self.place(def, a);
                self.place(def, b);
                // A counter-threat the reply makes is handled by `attack`: our next pair
                // must block it.
                let r = self.attack(depth.saturating_sub(1));
                self.remove(def, b);
                self.remove(def, a);
                worst = worst.max(r?.1);
            }
        }
        // No blocking pair at all means the threats were not a double threat after all
        // (callers only get here with exactly two blockers needed).
        if any {
            self.record(depth, &cells);
        }
        any.then_some(worst + 1)
    }
}

/// Threat-space search for `pos`'s side to move: a win by continuous double threats (each
/// attacking pair makes threats that need both of the defender's stones, the defender's
/// every blocking pair is tried) within `depth` attacking moves and `budget` pair tests.
/// Sound: a defender reply that makes a threat of its own is only followed if the attacker
/// can still block it with a double threat; the defender's immediate wins are excluded by
/// requiring every attacking pair to block all of the defender's threats.
pub fn threat_space_search(
    pos: &EnginePosition,
    depth: u32,
    budget: u32,
) -> Option<ForcedWin<Move>> {
    threat_space_search_until(pos, depth, budget, None)
}

/// [`threat_space_search`] that also gives up at `deadline`.
pub fn threat_space_search_until(
    pos: &EnginePosition,
    depth: u32,
    budget: u32,
    deadline: Option<Instant>,
) -> Option<ForcedWin<Move>> {
    let p = pos.position();
    if p.outcome().is_some() || p.stones_to_place() != 2 {
        return None;
    }
    let mut tss = Tss::new(
        pos.state().clone(),
        p.side_to_move(),
        budget,
        deadline,
        false,
    );
    tss.attack(depth).map(|(mv, turns)| ForcedWin { mv, turns })
}

/// How far a threat-space search looks: attacking moves, pair tests, and an optional
/// deadline (a search cut short finds no win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TssLimits {
    /// Attacking moves looked ahead.
    pub depth: u32,
    /// Pair tests.
    pub budget: u32,
    /// When to give up.
    pub deadline: Option<Instant>,
}

/// The threat-space search of [`threat_space_search`] for `att` on the window state `st`
/// as if `att` were to move with two stones, whoever is: with the opponent of the side to
/// move as `att`, whether it would win by continuous double threats if it were its turn.
/// With `proof`, the squares of the win found are written there, those of the first
/// attacking moves first, without repeats (see [`threat_defence`]).
pub fn threat_space_search_for(
    st: &WindowState,
    att: Player,
    limits: TssLimits,
    proof: Option<&mut Vec<Square>>,
) -> Option<ForcedWin<Move>> {
    tss_with_killers(st, att, limits, &mut Killers::new(), proof)
}

/// [`threat_space_search_for`] that tries the winning pairs of `killers` first and adds
/// those of the win it finds.
fn tss_with_killers(
    st: &WindowState,
    att: Player,
    limits: TssLimits,
    killers: &mut Killers,
    proof: Option<&mut Vec<Square>>,
) -> Option<ForcedWin<Move>> {
    let mut tss = Tss::new(st.clone(), att, limits.budget, limits.deadline, true);
    tss.killers = std::mem::take(killers);
    if proof.is_some() {
        tss.proof = Some(Vec::new());
    }
    let win = tss
        .attack(limits.depth)
        .map(|(mv, turns)| ForcedWin { mv, turns });
    *killers = std::mem::take(&mut tss.killers);
    if let (Some(out), Some(mut squares)) = (proof, tss.proof) {
        out.clear();
        if win.is_some() {
            // Most attacking moves left first: the squares nearest the start of the win.
            squares.sort_by_key(|&(depth, _)| std::cmp::Reverse(depth));
            for (_, sq) in squares {
                if !out.contains(&sq) {
                    out.push(sq);
                }
            }
        }
    }
    win
}

// ---- defence against the opponent's threat-space search ----------------------------------

/// How far [`threat_defence`] looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefenceLimits {
    /// The search for the opponent's win if it were its turn.
    pub threat: TssLimits,
    /// Each search that tests one of our pairs against it.
    pub test: TssLimits,
    /// Squares of the opponent's win (first attacking moves first) whose pairs are added
    /// to the candidates.
    pub squares: usize,
    /// The most pairs tested.
    pub pairs: usize,
}

/// A defence against the opponent's coming threat-space win: when the opponent of the side
/// to move would win by continuous double threats if it were its turn
/// ([`threat_space_search_for`] within [`DefenceLimits::threat`]), narrows `moves` (the
/// node's [`candidates`]) to the pairs after which it no longer does (within
/// [`DefenceLimits::test`]: each test
/// tries the pairs that won before first, so a pair that leaves the win standing is
/// usually dropped after a short search; one that refutes it costs the whole budget).
/// The pairs tested are the candidates in their order, then pairs over the first
/// [`DefenceLimits::squares`] squares of its win (its attacking pairs, the cells of
/// the threats they make, the blocks they force: a refutation takes one of them or makes
/// a threat it must answer) and pairs of one such square with a candidate's square, best
/// by [`pair_value`] first; at most [`DefenceLimits::pairs`] in all. Every dropped
/// pair loses to a proven win; when none refutes (the position is lost, or the refutation
/// lies outside the pairs tested) the list stays as it was. Nodes with a single candidate
/// (a six, a pair the opponent cannot block) are left alone.
pub fn threat_defence(
    pos: &EnginePosition,
    eval: &Connect6Eval,
    defence: &DefenceLimits,
    moves: &mut Vec<Move>,
) {
    let (limits, test) = (defence.threat, defence.test);
    let p = pos.position();
    if limits.budget == 0 || moves.len() < 2 || p.outcome().is_some() || p.stones_to_place() != 2 {
        return;
    }
    let st = pos.state();
    let me = p.side_to_move();
    let op = me.other();
    if st.threats[me.index()] > 0 {
        return; // the candidates play the six
    }
    let mut proof = Vec::new();
    let mut killers = Killers::new();
    if tss_with_killers(st, op, limits, &mut killers, Some(&mut proof)).is_none() {
        return;
    }
    proof.truncate(defence.squares);
    // The pairs beyond the candidates: over the win's squares, and one of them with a
    // candidate's square; a pair must block the opponent's threats on the board.
    let mut ts = Vec::new();
    st.threat_windows(op, &mut ts);
    let mut cand_squares: Vec<Square> = Vec::new();
    for mv in moves.iter() {
        for sq in mv.squares() {
            if !cand_squares.contains(&sq) && !proof.contains(&sq) {
                cand_squares.push(sq);
            }
        }
    }
    let mut extra: Vec<Move> = Vec::new();
    for (i, &a) in proof.iter().enumerate() {
        for &b in proof[i + 1..].iter().chain(&cand_squares) {
            let mv = Move::pair(a, b);
            if a != b && !moves.contains(&mv) && !extra.contains(&mv) && pair_blocks(&ts, a, b) {
                extra.push(mv);
            }
        }
    }
    let mut eff = PairEffect::default();
    let mut scored: Vec<(i32, Move)> = extra
        .into_iter()
        .map(|mv| {
            let (a, b) = (mv.first(), mv.second().unwrap_or(mv.first()));
            pair_effect(st, me, a, b, &mut eff);
            (pair_value(st, me, &eff, &eval.weights).0, mv)
        })
        .collect();
    scored.sort_unstable_by_key(|&(v, mv)| (std::cmp::Reverse(v), mv));
    let mut work = st.clone();
    let mut kept = Vec::new();
    let tested = moves
        .iter()
        .copied()
        .chain(scored.into_iter().map(|(_, mv)| mv))
        .take(defence.pairs);
    for mv in tested {
        for sq in mv.squares() {
            work.place(me, sq);
        }
        let refutes = tss_with_killers(&work, op, test, &mut killers, None).is_none();
        for sq in mv.squares() {
            work.remove(me, sq);
        }
        if refutes {
            kept.push(mv);
        }
    }
    if !kept.is_empty() {
        kept.truncate(eval.max_pairs);
        *moves = kept;
    }
}

impl Evaluator<EnginePosition> for Connect6Eval {
    fn evaluate(&self, pos: &EnginePosition) -> i32 {
        static_value(pos.state(), pos.side_to_move(), &self.weights)
    }

    fn candidates(&self, pos: &EnginePosition, moves: &mut Vec<Move>) {
        candidates(pos, self, moves);
    }

    fn forced_win(&self, pos: &mut EnginePosition, depth: u32) -> Option<ForcedWin<Move>> {
        if depth >= 16 {
            // The root (the search passes its depth limit, MAX_DEPTH under a time limit).
            let deadline = Instant::now() + self.root_tss_time;
            return threat_space_search_until(pos, 6, self.root_tss_budget, Some(deadline));
        }
        if !self.interior_tss {
            return None;
        }
        let st = pos.state();
        let me = pos.side_to_move();
        if st.threats[me.index()] > 0 {
            return None; // the candidates play the win
        }
        let (depth, budget) = (
            depth.clamp(1, self.interior_tss_depth),
            self.interior_tss_budget,
        );
        // The search is a function of the stones, the side to move, its depth and budget
        // (no deadline inside the tree), so exactly these fail again. A failure within a
        // budget says nothing about another budget (the search is depth-first: a larger
        // one can spend itself elsewhere), hence both in the key and the table's budget 0.
        let key = pos.hash()
            ^ u64::from(pos.position().size()).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(depth).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ u64::from(budget).wrapping_mul(0x1656_67B1_9E37_79F9);
        if self.tss_failures.covers(key, 0) {
            return None;
        }
        let found = threat_space_search(pos, depth, budget);
        if found.is_none() {
            self.tss_failures.record(key, 0, false);
        }
        found
    }
}
