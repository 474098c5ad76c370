//! Threat logic counted per window of six cells, for pair generation and the threat-space
//! search.
//!
//! A **threat** of a colour is a live window (none of the opponent's stones) holding 4 or 5
//! of its stones: two more stones make six there. The opponent must put a stone into every
//! threat window before the threatening side moves again, so the threats of a side are
//! measured by the least number of stones that block them all
//! ([`blockers_needed`](super::state::blockers_needed)): one threat needs one stone; two
//! independent threats need both stones of a turn (a *double threat*: the defender's whole
//! move is forced); three or more win.
//!
//! A stone of `me` makes a threat where it lands in a live window with 3 of `me`'s stones; a
//! pair makes one in a live window with 2 own stones that holds both of them. The functions
//! here evaluate a pair **without placing it**: only the windows through its two squares
//! change, so the effect is summed over those ≤ 48 windows.

use board_core::{Player, Square};

use super::state::{self, K, ThreatWindow, WindowCounts, WindowState, live_owner};

/// What placing a pair of `me`'s stones does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairEffect {
    /// Change of each colour's live-window counts (`[black, white]`, see
    /// [`WindowState::windows`]).
    pub windows_delta: [WindowCounts; 2],
    /// The threat windows of `me` through either stone afterwards (their empty squares; a
    /// six made by the pair is a window with none).
    pub threats: Vec<ThreatWindow>,
}

/// The effect of `me` placing stones on the empty squares `a` and `b` (`a == b` means one
/// stone), written into `out` (its threat list is reused). Squares that are not empty are
/// ignored (nothing is placed there).
pub fn pair_effect(st: &WindowState, me: Player, a: Square, b: Square, out: &mut PairEffect) {
    out.windows_delta = [[0; K + 1]; 2];
    out.threats.clear();
    let (mi, oi) = (me.index(), me.other().index());
    let table = st.table();
    let a_ok = st.is_empty(a);
    let b_ok = b != a && st.is_empty(b);
    // A window through one stone changes by `added` stones; the window's squares are read
    // only when it becomes a threat (to list its empty squares).
    let mut visit = |w: usize, has_a: bool, has_b: bool| {
        let added = u8::from(has_a) + u8::from(has_b);
        let c = st.counts[w];
        let (m0, o0) = (c[mi], c[oi]);
        let m1 = m0 + added;
        let mut placed = c;
        placed[mi] = m1;
        if let Some((owner, n)) = live_owner(c) {
            out.windows_delta[owner][n] -= 1;
        }
        if let Some((owner, n)) = live_owner(placed) {
            out.windows_delta[owner][n] += 1;
        }
        // A six is listed too, with no empty square: no stone blocks it.
        if o0 == 0 && m1 >= 4 {
            let mut t = ThreatWindow {
                empties: [Square(u16::MAX); 2],
                len: 0,
            };
            for &sq in state::window(table, w) {
                if st.board[sq.index()] == 0
                    && !(has_a && sq == a)
                    && !(has_b && sq == b)
                    && (t.len as usize) < 2
                {
                    t.empties[t.len as usize] = sq;
                    t.len += 1;
                }
            }
            out.threats.push(t);
        }
    };
    if !(a_ok && b_ok && may_share_window(st, a, b)) {
        // No window holds both stones (or only one is placed): each window through a
        // placed stone gains that stone alone.
        if a_ok {
            for &w in table.through(a) {
                visit(w as usize, true, false);
            }
        }
        if b_ok {
            for &w in table.through(b) {
                visit(w as usize, false, true);
            }
        }
        return;
    }
    for &w in table.through(a) {
        let has_b = state::window(table, w as usize).contains(&b);
        visit(w as usize, true, has_b);
    }
    for &w in table.through(b) {
        // Windows holding `a` as well were counted from `a`'s side.
        if !state::window(table, w as usize).contains(&a) {
            visit(w as usize, false, true);
        }
    }
}

/// Whether some window of six could hold both `a` and `b`: they lie on one line (row,
/// column or diagonal) within 5 steps. Only then does a pair's effect differ from the sum
/// of its two stones' effects ([`PairEffect::set_sum`]); a `true` for two squares whose
/// line is too short for a window only costs the exact computation.
pub fn may_share_window(st: &WindowState, a: Square, b: Square) -> bool {
    let g = st.table().geometry();
    let dx = g.col(a).abs_diff(g.col(b));
    let dy = g.row(a).abs_diff(g.row(b));
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) < K as u32
}

impl PairEffect {
    /// Makes `self` the effect of a pair from the effects of its two stones placed alone
    /// (`pair_effect(st, me, a, a, ..)` and the same for `b`), for squares `a` and `b` that
    /// share no window (`!may_share_window(st, a, b)`): every window changes as it would
    /// for its one stone, so the deltas add and the threat lists join. This is what
    /// [`pair_effect`] would give (the threats possibly in another order), without
    /// visiting a window again for every pair a stone is part of.
    pub fn set_sum(&mut self, a: &PairEffect, b: &PairEffect) {
        for (side, (da, db)) in self
            .windows_delta
            .iter_mut()
            .zip(a.windows_delta.iter().zip(&b.windows_delta))
        {
            for (d, (x, y)) in side.iter_mut().zip(da.iter().zip(db)) {
                *d = x + y;
            }
        }
        self.threats.clear();
        self.threats.extend_from_slice(&a.threats);
        self.threats.extend_from_slice(&b.threats);
    }
}

/// The squares and square pairs with which `me` makes a threat, found from the window
/// counts: the empty squares of `me`'s live 3-stone windows (one stone there makes four),
/// and the pairs of empty squares of its live 2-stone windows (two stones there make four).
#[derive(Clone, Debug, Default)]
pub struct ThreatMakers {
    /// Squares that make a threat alone, with the number of 3-stone windows through each,
    /// most first.
    pub singles: Vec<(Square, u32)>,
    /// Pairs of squares that make a threat together (`a < b`, no repeats).
    pub doubles: Vec<(Square, Square)>,
    /// Squares of the 2-stone windows (a stone there makes a 3-stone window, so a threat
    /// maker for the next turn), with the number of such windows through each, most first.
    pub builders: Vec<(Square, u32)>,
}

impl ThreatMakers {
    /// Fills `self` with the threat makers of `me` in `st`.
    pub fn find(&mut self, st: &WindowState, me: Player) {
        self.singles.clear();
        self.doubles.clear();
        self.builders.clear();
        let (mi, oi) = (me.index(), me.other().index());
        let table = st.table();
        for (w, c) in st.counts.iter().enumerate() {
            if c[oi] != 0 || !(2..=3).contains(&c[mi]) {
                continue;
            }
            let mut empties = [Square(0); K];
            let mut n = 0;
            for &sq in state::window(table, w) {
                if st.board[sq.index()] == 0 {
                    empties[n] = sq;
                    n += 1;
                }
            }
            if c[mi] == 3 {
                for &sq in &empties[..n] {
                    match self.singles.iter_mut().find(|(s, _)| *s == sq) {
                        Some((_, k)) => *k += 1,
                        None => self.singles.push((sq, 1)),
                    }
                }
            } else {
                for &sq in &empties[..n] {
                    match self.builders.iter_mut().find(|(s, _)| *s == sq) {
                        Some((_, k)) => *k += 1,
                        None => self.builders.push((sq, 1)),
                    }
                }
                for i in 0..n {
                    for j in i + 1..n {
                        let (x, y) = (empties[i].min(empties[j]), empties[i].max(empties[j]));
                        if !self.doubles.contains(&(x, y)) {
                            self.doubles.push((x, y));
                        }
                    }
                }
            }
        }
        for list in [&mut self.singles, &mut self.builders] {
            list.sort_unstable_by_key(|&(sq, k)| (std::cmp::Reverse(k), sq));
        }
    }

    /// Whether `me` has nothing that makes a threat.
    pub fn is_empty(&self) -> bool {
        self.singles.is_empty() && self.doubles.is_empty()
    }
}
