//! The engine's incremental evaluation state: every length-6 window of the board with the
//! number of stones of each colour in it, the board itself, and running totals per colour:
//! how many live windows hold 1, 2, ... 6 of its stones, and how many are threats.
//!
//! A window is **live** for a colour if it holds none of the opponent's stones. A live
//! window holding 4 or 5 own stones is a **threat** in Connect6 terms: two more stones make
//! six there. What a live window is worth is the evaluation's business
//! ([`EvalWeights`](super::engine::EvalWeights)): the state only counts them.

use board_core::{Geometry, Player, Rules as _, Square};
use eval::KWindows;
use rules_connect6::{Connect6Position, Move};
use search::EvalState;

/// Window length.
pub const K: usize = 6;

/// Live windows of one colour by the number of its stones in them (index 0 unused: an empty
/// window is nobody's; index 6: a finished six).
pub type WindowCounts = [i32; K + 1];

/// The squares of window `w` of `table`, in line order. Window ids come from the table
/// itself (its `through` lists, its length), so a missing one is a bug here.
#[inline]
pub fn window(table: &KWindows, w: usize) -> &[Square] {
    table.window(w).expect("a window id of this table")
}

/// The colour (its index) a window with counts `c` is live for and its stone count there, if
/// any (an empty window is nobody's, a window with both colours is dead).
#[inline]
pub fn live_owner(c: [u8; 2]) -> Option<(usize, usize)> {
    match (c[0], c[1]) {
        (0, 0) => None,
        (b, 0) => Some((0, usize::from(b))),
        (0, w) => Some((1, usize::from(w))),
        _ => None,
    }
}

/// Per-window counts and running totals, kept in step with the position.
#[derive(Clone)]
pub struct WindowState {
    table: &'static KWindows,
    /// `counts[w] = [black, white]` stones in window `w`.
    pub counts: Vec<[u8; 2]>,
    /// `board[sq]`: 0 empty, 1 Black, 2 White.
    pub board: Vec<u8>,
    /// Live windows of each colour by its stone count in them.
    pub windows: [WindowCounts; 2],
    /// Number of threat windows (live, 4 or more own stones) of each colour.
    pub threats: [i32; 2],
}

impl PartialEq for WindowState {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.table, other.table)
            && self.counts == other.counts
            && self.board == other.board
            && self.windows == other.windows
            && self.threats == other.threats
    }
}

impl std::fmt::Debug for WindowState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WindowState")
            .field("size", &self.table.geometry().width())
            .field("windows", &self.windows)
            .field("threats", &self.threats)
            .finish()
    }
}

impl WindowState {
    /// An empty board of `size`.
    pub fn empty(size: u32) -> WindowState {
        // The rules accept sizes 6 to 26, boards that all have windows of six: a failure
        // here is a bug in the rules crate's range, not bad input.
        let table = Geometry::square(size)
            .ok()
            .and_then(|g| KWindows::new(g, K as u32).ok())
            .expect("connect6 boards have windows of six");
        WindowState {
            table,
            counts: vec![[0; 2]; table.len()],
            board: vec![0; table.geometry().cells()],
            windows: [[0; K + 1]; 2],
            threats: [0; 2],
        }
    }

    /// The window table.
    #[inline]
    pub fn table(&self) -> &'static KWindows {
        self.table
    }

    /// Whether `sq` is an empty square of the board.
    #[inline]
    pub fn is_empty(&self, sq: Square) -> bool {
        self.board.get(sq.index()) == Some(&0)
    }

    /// Adds (`sign` 1) or takes away (-1) the totals of a window with counts `c`.
    #[inline]
    fn tally(&mut self, c: [u8; 2], sign: i32) {
        if let Some((owner, n)) = live_owner(c) {
            self.windows[owner][n] += sign;
            if n >= 4 {
                self.threats[owner] += sign;
            }
        }
    }

    /// Puts a stone of `p` on the empty square `sq` (ignored if not empty).
    pub fn place(&mut self, p: Player, sq: Square) {
        if !self.is_empty(sq) {
            return;
        }
        self.board[sq.index()] = 1 + p.index() as u8;
        let pi = p.index();
        for &w in self.table.through(sq) {
            let before = self.counts[w as usize];
            self.counts[w as usize][pi] += 1;
            let after = self.counts[w as usize];
            self.tally(before, -1);
            self.tally(after, 1);
        }
    }

    /// Removes the stone of `p` from `sq` (ignored if `sq` does not hold one).
    pub fn remove(&mut self, p: Player, sq: Square) {
        if self.board.get(sq.index()) != Some(&(1 + p.index() as u8)) {
            return;
        }
        self.board[sq.index()] = 0;
        let pi = p.index();
        for &w in self.table.through(sq) {
            let before = self.counts[w as usize];
            self.counts[w as usize][pi] -= 1;
            let after = self.counts[w as usize];
            self.tally(before, -1);
            self.tally(after, 1);
        }
    }

    /// The threat windows of `p` (live, ≥ 4 own stones), as lists of their empty squares
    /// (1 or 2 each).
    pub fn threat_windows(&self, p: Player, out: &mut Vec<ThreatWindow>) {
        out.clear();
        if self.threats[p.index()] == 0 {
            return;
        }
        let (pi, oi) = (p.index(), p.other().index());
        for (w, c) in self.counts.iter().enumerate() {
            if c[pi] >= 4 && c[oi] == 0 {
                out.push(self.threat_window(w));
            }
        }
    }

    /// The threat windows of `p` that contain `sq`.
    pub fn threat_windows_through(&self, p: Player, sq: Square, out: &mut Vec<ThreatWindow>) {
        let (pi, oi) = (p.index(), p.other().index());
        for &w in self.table.through(sq) {
            let c = self.counts[w as usize];
            if c[pi] >= 4 && c[oi] == 0 {
                let t = self.threat_window(w as usize);
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }

    fn threat_window(&self, w: usize) -> ThreatWindow {
        let mut t = ThreatWindow {
            empties: [Square(u16::MAX); 2],
            len: 0,
        };
        for &sq in window(self.table, w) {
            if self.board[sq.index()] == 0 && (t.len as usize) < 2 {
                t.empties[t.len as usize] = sq;
                t.len += 1;
            }
        }
        t
    }
}

/// The empty squares of one threat window (1 or 2 of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatWindow {
    /// The empty squares; only the first `len` are meaningful.
    pub empties: [Square; 2],
    /// How many.
    pub len: u8,
}

impl ThreatWindow {
    /// The empty squares.
    #[inline]
    pub fn squares(&self) -> &[Square] {
        &self.empties[..self.len as usize]
    }

    /// Whether a stone on `sq` blocks this window.
    #[inline]
    pub fn hit_by(&self, sq: Square) -> bool {
        self.squares().contains(&sq)
    }
}

/// Whether placing stones on `a` and `b` blocks every window of `ts`.
pub fn pair_blocks(ts: &[ThreatWindow], a: Square, b: Square) -> bool {
    ts.iter().all(|t| t.hit_by(a) || t.hit_by(b))
}

/// The least number of stones that block every window of `ts`, capped at 3.
pub fn blockers_needed(ts: &[ThreatWindow]) -> u32 {
    if ts.is_empty() {
        return 0;
    }
    let mut cells: Vec<Square> = Vec::with_capacity(8);
    for t in ts {
        for &sq in t.squares() {
            if !cells.contains(&sq) {
                cells.push(sq);
            }
        }
    }
    if cells.iter().any(|&a| ts.iter().all(|t| t.hit_by(a))) {
        return 1;
    }
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if pair_blocks(ts, a, b) {
                return 2;
            }
        }
    }
    3
}

/// The empty squares of the windows in `ts`, without repeats.
pub fn threat_cells(ts: &[ThreatWindow], out: &mut Vec<Square>) {
    out.clear();
    for t in ts {
        for &sq in t.squares() {
            if !out.contains(&sq) {
                out.push(sq);
            }
        }
    }
}

impl EvalState<Connect6Position> for WindowState {
    type Undo = (Move, Player);

    fn from_position(pos: &Connect6Position) -> Self {
        let mut st = WindowState::empty(pos.size());
        for p in Player::BOTH {
            for sq in board_core::SquareSet::squares(*pos.stones(p)) {
                st.place(p, sq);
            }
        }
        st
    }

    fn make(
        &mut self,
        pos: &Connect6Position,
        mv: Move,
        _undo: &rules_connect6::Undo,
    ) -> Self::Undo {
        let mover = pos.side_to_move().other();
        for sq in mv.squares() {
            self.place(mover, sq);
        }
        (mv, mover)
    }

    fn unmake(&mut self, (mv, mover): Self::Undo) {
        for sq in mv.squares() {
            self.remove(mover, sq);
        }
    }
}
