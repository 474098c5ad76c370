//! The connect6 engine's evaluator: window evaluation, threat-aware pair candidates and a
//! threat-space search for continuous double threats.

use std::time::{Duration, Instant};

use board_core::{Player, Rules as _, Square};
use rules_connect6::{Connect6Position, Move};
use search::{Evaluator, ForcedWin, Incremental};

use super::state::{ThreatWindow, WindowState, blockers_needed, pair_blocks, threat_cells};

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

/// The connect6 engine's [`Evaluator`].
#[derive(Clone, Debug)]
pub struct Connect6Eval {
    /// Cells pairs are built from in quiet positions.
    pub top_cells: usize,
    /// Threat-space search budget (pair tests) at the root.
    pub root_tss_budget: u32,
    /// Wall-time cap of the root threat-space search.
    pub root_tss_time: Duration,
    /// Whether interior nodes run a (small) threat-space search.
    pub interior_tss: bool,
}

impl Default for Connect6Eval {
    fn default() -> Self {
        Connect6Eval {
            top_cells: TOP_CELLS,
            root_tss_budget: 60_000,
            root_tss_time: Duration::from_millis(15),
            interior_tss: true,
        }
    }
}

/// The static value of `st` for `me` to move (see the module docs of `connect6`).
pub fn static_value(st: &WindowState, me: Player) -> i32 {
    let op = me.other();
    if st.threats[me.index()] > 0 {
        return WON;
    }
    let mut v = st.score[me.index()] - st.score[op.index()];
    if st.threats[op.index()] > 0 {
        let mut ts = Vec::new();
        st.threat_windows(op, &mut ts);
        match blockers_needed(&ts) {
            0 => {}
            1 => v -= 150,
            2 => v -= 600,
            _ => return -WON,
        }
    }
    v
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
        for &sq in table.window(w).unwrap_or_default() {
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

/// Candidate moves at `pos` (see the module docs): the win, the forced blocks, or pairs of
/// the best cells.
pub fn candidates(pos: &EnginePosition, top_n: usize, moves: &mut Vec<Move>) {
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
    let mut top = Vec::new();
    top_cells(&vals, top_n, &mut top);
    if st.threats[op.index()] > 0 {
        let mut ts = Vec::new();
        st.threat_windows(op, &mut ts);
        let mut pool = Vec::new();
        threat_cells(&ts, &mut pool);
        for &sq in &top {
            if !pool.contains(&sq) {
                pool.push(sq);
            }
        }
        let mut pairs: Vec<(i32, Move)> = Vec::new();
        for (i, &a) in pool.iter().enumerate() {
            for &b in &pool[i + 1..] {
                if pair_blocks(&ts, a, b) {
                    pairs.push((vals[a.index()] + vals[b.index()], Move::pair(a, b)));
                }
            }
        }
        if pairs.is_empty() {
            // More threats than two stones can block: the game is lost; block what we can.
            if let Some(&a) = pool.first() {
                let b = pool.get(1).or(top.iter().find(|&&s| s != a)).copied();
                if let Some(b) = b.or_else(|| any_other_empty(st, a)) {
                    moves.push(Move::pair(a, b));
                }
            }
            return;
        }
        pairs.sort_by_key(|&(v, m)| (std::cmp::Reverse(v), m));
        moves.extend(pairs.into_iter().map(|(_, m)| m));
        return;
    }
    if top.len() < 2 {
        // Nothing reaches any square (cannot happen after the first stone): any pair.
        let empties: Vec<Square> = (0..st.board.len())
            .filter(|&i| st.board[i] == 0)
            .map(|i| Square(i as u16))
            .take(2)
            .collect();
        if let (Some(&a), Some(&b)) = (top.first().or(empties.first()), empties.last())
            && a != b
        {
            moves.push(Move::pair(a, b));
        } else if let [a, b] = empties[..] {
            moves.push(Move::pair(a, b));
        }
        return;
    }
    let mut pairs: Vec<(i32, Move)> = Vec::with_capacity(top.len() * top.len() / 2);
    for (i, &a) in top.iter().enumerate() {
        for &b in &top[i + 1..] {
            pairs.push((vals[a.index()] + vals[b.index()], Move::pair(a, b)));
        }
    }
    pairs.sort_by_key(|&(v, m)| (std::cmp::Reverse(v), m));
    moves.extend(pairs.into_iter().map(|(_, m)| m));
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
}

/// Cells worth trying in a double-threat pair, best first: empty squares of the attacker's
/// live windows holding 2 or 3 stones, by how many such windows (3-stone ones weigh more).
fn threat_cells_for(st: &WindowState, att: Player, limit: usize) -> Vec<Square> {
    let (ai, di) = (att.index(), att.other().index());
    let table = st.table();
    let mut score = vec![0i32; st.board.len()];
    for (w, c) in st.counts.iter().enumerate() {
        if c[di] != 0 || c[ai] < 2 {
            continue;
        }
        let v = if c[ai] >= 3 { 8 } else { 1 };
        for &sq in table.window(w).unwrap_or_default() {
            if st.board[sq.index()] == 0 {
                score[sq.index()] += v;
            }
        }
    }
    let mut out = Vec::new();
    top_cells(&score, limit, &mut out);
    out
}

impl Tss {
    /// The attacker (to move) wins by continuous double threats within `depth` more
    /// attacking moves: the first move and the number of turns.
    fn attack(&mut self, depth: u32) -> Option<(Move, u32)> {
        let att = self.att;
        let def = att.other();
        if let Some(mv) = winning_move(&self.st, att) {
            return Some((mv, 1));
        }
        if depth == 0 || self.budget == 0 {
            return None;
        }
        let mut dts = Vec::new();
        self.st.threat_windows(def, &mut dts);
        if blockers_needed(&dts) > 2 {
            return None;
        }
        let mut cells = threat_cells_for(&self.st, att, 20);
        let mut dcells = Vec::new();
        threat_cells(&dts, &mut dcells);
        for &sq in &dcells {
            if !cells.contains(&sq) {
                cells.push(sq);
            }
        }
        let mut ts: Vec<ThreatWindow> = Vec::new();
        let mut doubles: Vec<(Square, Square)> = Vec::new();
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                if !pair_blocks(&dts, a, b) {
                    continue;
                }
                if self.budget == 0 {
                    return None;
                }
                self.budget -= 1;
                if self.budget.is_multiple_of(128)
                    && self.deadline.is_some_and(|d| Instant::now() >= d)
                {
                    self.budget = 0;
                }
                self.st.place(att, a);
                self.st.place(att, b);
                ts.clear();
                self.st.threat_windows_through(att, a, &mut ts);
                self.st.threat_windows_through(att, b, &mut ts);
                let need = blockers_needed(&ts);
                self.st.remove(att, b);
                self.st.remove(att, a);
                if need >= 3 {
                    // Our pair, their (useless) reply, our six: three plies.
                    return Some((Move::pair(a, b), 3));
                }
                if need == 2 {
                    doubles.push((a, b));
                }
            }
        }
        for (a, b) in doubles {
            self.st.place(att, a);
            self.st.place(att, b);
            let r = self.defend(depth);
            self.st.remove(att, b);
            self.st.remove(att, a);
            if let Some(turns) = r {
                return Some((Move::pair(a, b), turns + 1));
            }
            if self.budget == 0 {
                return None;
            }
        }
        None
    }

    /// The defender (to move) faces a double threat: every pair that blocks it must lose.
    /// Returns the turns the attacker needs after the defender's reply.
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
                self.st.place(def, a);
                self.st.place(def, b);
                // A counter-threat the reply makes is handled by `attack`: our next pair
                // must block it.
                let r = self.attack(depth.saturating_sub(1));
                self.st.remove(def, b);
                self.st.remove(def, a);
                worst = worst.max(r?.1);
            }
        }
        // No blocking pair at all means the threats were not a double threat after all
        // (callers only get here with exactly two blockers needed).
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
    let mut tss = Tss {
        st: pos.state().clone(),
        att: p.side_to_move(),
        budget,
        deadline,
    };
    tss.attack(depth).map(|(mv, turns)| ForcedWin { mv, turns })
}

impl Evaluator<EnginePosition> for Connect6Eval {
    fn evaluate(&self, pos: &EnginePosition) -> i32 {
        static_value(pos.state(), pos.side_to_move())
    }

    fn candidates(&self, pos: &EnginePosition, moves: &mut Vec<Move>) {
        candidates(pos, self.top_cells, moves);
    }

    fn forced_win(&self, pos: &EnginePosition, depth: u32) -> Option<ForcedWin<Move>> {
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
        let budget = 40 * depth * depth;
        threat_space_search(pos, depth.clamp(1, 3), budget)
    }
}
