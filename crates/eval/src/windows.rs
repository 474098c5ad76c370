//! k-window scoring: every run of `k` consecutive squares (horizontal, vertical and both
//! diagonals) is a *window*; a window that holds pieces of one player only is worth a weight
//! that depends on how many of them it holds.
//!
//! [`KWindows`] is the precomputed table of windows of one `(geometry, k)` pair, shared
//! (`&'static`) like [`Geometry`]. [`WindowScorer`] keeps per-window piece counts and the
//! running score, updated in O(windows through the square) on every place/remove.
//!
//! A `W × H` board has `H·(W−k+1)` horizontal, `W·(H−k+1)` vertical and `(W−k+1)·(H−k+1)`
//! windows along each diagonal (a term is 0 when `k` exceeds that side); see
//! [`window_count`]. For `k = 1` every square is a single window, counted once.
//!
//! ```
//! use board_core::{Geometry, Player};
//! use boardlab_eval::{KWindows, WindowScorer, WindowWeights};
//!
//! let g = Geometry::square(6)?;
//! let windows = KWindows::new(g, 4)?;
//! assert_eq!(windows.len(), 54);
//! let mut scorer = WindowScorer::new(windows, &WindowWeights::fourshift())?;
//! scorer.place(Player::First, g.parse_square("c3")?)?;
//! // c3 lies in 3 horizontal, 3 vertical and 3 + 2 diagonal windows, each now worth 5.
//! assert_eq!(scorer.score(), 11 * 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use board_core::{Direction, Geometry, Player, Square, SquareSet};

use crate::{EvalError, util};

/// The number of length-`k` windows on a `width × height` board (0 if `k` is 0).
///
/// `H·(W−k+1) + W·(H−k+1) + 2·(W−k+1)·(H−k+1)`, each factor `(S−k+1)` taken as 0 when
/// `k > S`; for `k = 1` only the first term (each square once).
///
/// ```
/// assert_eq!(boardlab_eval::window_count(6, 6, 4), 54);
/// assert_eq!(boardlab_eval::window_count(15, 15, 5), 572);
/// assert_eq!(boardlab_eval::window_count(19, 19, 6), 924);
/// ```
pub const fn window_count(width: u32, height: u32, k: u32) -> u64 {
    if k == 0 {
        return 0;
    }
    let (w, h, k) = (width as u64, height as u64, k as u64);
    let fw = if k <= w { w - k + 1 } else { 0 };
    let fh = if k <= h { h - k + 1 } else { 0 };
    if k == 1 {
        return w * h;
    }
    h * fw + w * fh + 2 * fw * fh
}

/// All length-`k` windows of one board, with the list of windows through each square.
#[derive(Debug)]
pub struct KWindows {
    geometry: &'static Geometry,
    k: u8,
    /// The squares of window `w` are `cells[w * k..(w + 1) * k]`, in line order.
    cells: Box<[Square]>,
    /// The direction each window runs in (from its first square).
    axes: Box<[Direction]>,
    /// The windows through square `s` are `through[offsets[s]..offsets[s + 1]]`.
    offsets: Box<[u32]>,
    through: Box<[u16]>,
}

impl KWindows {
    /// The shared window table of `geometry` for length `k` (1 ≤ `k` ≤ the longer side).
    /// Built once per `(width, height, k)` and cached for the life of the program.
    pub fn new(geometry: &'static Geometry, k: u32) -> Result<&'static KWindows, EvalError> {
        let max = geometry.width().max(geometry.height());
        if k == 0 || k > max {
            return Err(EvalError::BadK {
                k,
                width: geometry.width(),
                height: geometry.height(),
                max,
            });
        }
        static CACHE: util::TableCache<KWindows> = util::TableCache::new();
        Ok(util::cached(
            &CACHE,
            (geometry.width(), geometry.height(), k),
            || KWindows::build(geometry, k as u8),
        ))
    }

    fn build(geometry: &'static Geometry, k: u8) -> KWindows {
        let axes: &[Direction] = if k == 1 {
            &[Direction::East]
        } else {
            &Direction::AXES
        };
        let mut cells = Vec::new();
        let mut dirs = Vec::new();
        for &axis in axes {
            for start in geometry.squares() {
                if geometry.ray_length(start, axis) + 1 < k as u32 {
                    continue;
                }
                cells.push(start);
                cells.extend(geometry.ray(start, axis).take(k as usize - 1));
                dirs.push(axis);
            }
        }
        let mut per_square = vec![0u32; geometry.cells() + 1];
        for sq in &cells {
            per_square[sq.index() + 1] += 1;
        }
        for i in 1..per_square.len() {
            per_square[i] += per_square[i - 1];
        }
        let mut fill = per_square.clone();
        let mut through = vec![0u16; cells.len()];
        for (i, sq) in cells.iter().enumerate() {
            let slot = &mut fill[sq.index()];
            through[*slot as usize] = (i / k as usize) as u16;
            *slot += 1;
        }
        KWindows {
            geometry,
            k,
            cells: cells.into_boxed_slice(),
            axes: dirs.into_boxed_slice(),
            offsets: per_square.into_boxed_slice(),
            through: through.into_boxed_slice(),
        }
    }

    /// The board these windows cover.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// The window length.
    #[inline]
    pub fn k(&self) -> u32 {
        self.k as u32
    }

    /// The number of windows (see [`window_count`]).
    #[inline]
    pub fn len(&self) -> usize {
        self.axes.len()
    }

    /// True if no window fits (never, for a `k` that [`KWindows::new`] accepted).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.axes.is_empty()
    }

    /// The squares of window `index` in line order, or `None` past the last window.
    pub fn window(&self, index: usize) -> Option<&[Square]> {
        let k = self.k as usize;
        self.cells.get(index * k..(index + 1) * k)
    }

    /// The direction window `index` runs in from its first square (one of
    /// [`Direction::AXES`]).
    pub fn axis(&self, index: usize) -> Option<Direction> {
        self.axes.get(index).copied()
    }

    /// The indices of the windows through `sq` (empty for a square off the board).
    pub fn through(&self, sq: Square) -> &[u16] {
        let (Some(&lo), Some(&hi)) = (
            self.offsets.get(sq.index()),
            self.offsets.get(sq.index() + 1),
        ) else {
            return &[];
        };
        &self.through[lo as usize..hi as usize]
    }

    /// Scores a position from scratch, window by window (the reference for the incremental
    /// [`WindowScorer`]): First's windows add, Second's subtract.
    pub fn score_from_scratch<S: SquareSet>(
        &self,
        weights: &WindowWeights,
        stones: [&S; 2],
    ) -> Result<i64, EvalError> {
        let table = weights.table(self.k())?;
        util::check_pair(self.geometry, stones)?;
        let mut score = 0;
        for w in self.cells.chunks_exact(self.k as usize) {
            let first = w.iter().filter(|&&sq| stones[0].contains(sq)).count();
            let second = w.iter().filter(|&&sq| stones[1].contains(sq)).count();
            score += contribution(&table, [first as u8, second as u8]);
        }
        Ok(score)
    }
}

/// Weight of a one-sided window by the number of pieces it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowWeights {
    by_count: Vec<i32>,
}

impl WindowWeights {
    /// `by_count[c - 1]` is the worth of a window holding `c` pieces of one player and none
    /// of the other; the table must have exactly `k` entries when used with a `KWindows`.
    pub fn new(by_count: impl Into<Vec<i32>>) -> WindowWeights {
        WindowWeights {
            by_count: by_count.into(),
        }
    }

    /// The fourshift baseline for `k = 4`: 1 → 5, 2 → 50, 3 → 500, 4 → 100000.
    pub fn fourshift() -> WindowWeights {
        WindowWeights::new([5, 50, 500, 100_000])
    }

    /// The weights, index `c - 1` for `c` pieces.
    pub fn as_slice(&self) -> &[i32] {
        &self.by_count
    }

    /// A table indexed by count `0..=k` (entry 0 is 0), checked against `k`.
    fn table(&self, k: u32) -> Result<Box<[i64]>, EvalError> {
        if self.by_count.len() != k as usize {
            return Err(EvalError::BadWeights {
                expected: k as usize,
                got: self.by_count.len(),
            });
        }
        Ok(std::iter::once(0)
            .chain(self.by_count.iter().map(|&w| w as i64))
            .collect())
    }
}

#[inline]
fn contribution(table: &[i64], counts: [u8; 2]) -> i64 {
    match counts {
        [c, 0] => table.get(c as usize).copied().unwrap_or(0),
        [0, c] => -table.get(c as usize).copied().unwrap_or(0),
        _ => 0,
    }
}

/// Incremental k-window evaluator: per-window piece counts and the running score
/// (First's one-sided windows minus Second's), kept up to date on every
/// [`place`](WindowScorer::place) and [`remove`](WindowScorer::remove).
#[derive(Clone, Debug)]
pub struct WindowScorer {
    windows: &'static KWindows,
    table: Box<[i64]>,
    counts: Vec<[u8; 2]>,
    board: Vec<Option<Player>>,
    /// `live[p * (k + 1) + c]`: windows holding `c ≥ 1` pieces of `p` and none of the other.
    live: Vec<u32>,
    score: i64,
}

impl WindowScorer {
    /// A scorer for an empty board. `weights` must have `k` entries.
    pub fn new(
        windows: &'static KWindows,
        weights: &WindowWeights,
    ) -> Result<WindowScorer, EvalError> {
        let table = weights.table(windows.k())?;
        Ok(WindowScorer {
            windows,
            table,
            counts: vec![[0, 0]; windows.len()],
            board: vec![None; windows.geometry.cells()],
            live: vec![0; 2 * (windows.k as usize + 1)],
            score: 0,
        })
    }

    /// A scorer for the position with `stones[p]` holding player `p`'s pieces.
    pub fn from_sets<S: SquareSet>(
        windows: &'static KWindows,
        weights: &WindowWeights,
        stones: [&S; 2],
    ) -> Result<WindowScorer, EvalError> {
        util::check_pair(windows.geometry, stones)?;
        let mut scorer = WindowScorer::new(windows, weights)?;
        for p in Player::BOTH {
            for sq in stones[p.index()].squares() {
                scorer.place(p, sq)?;
            }
        }
        Ok(scorer)
    }

    /// The window table this scorer runs on.
    pub fn windows(&self) -> &'static KWindows {
        self.windows
    }

    /// The running score: the weights of First's one-sided windows minus Second's.
    #[inline]
    pub fn score(&self) -> i64 {
        self.score
    }

    /// The score from `player`'s point of view.
    #[inline]
    pub fn score_for(&self, player: Player) -> i64 {
        self.score * player.sign() as i64
    }

    /// The player whose piece is on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Player> {
        self.board.get(sq.index()).copied().flatten()
    }

    /// How many windows hold exactly `count` pieces of `player` and none of the other
    /// (0 for `count` 0 or above `k`). `live_windows(p, k) > 0` means `p` has `k` in a row.
    pub fn live_windows(&self, player: Player, count: u32) -> u32 {
        if count == 0 {
            return 0;
        }
        self.live
            .get(player.index() * (self.windows.k as usize + 1) + count as usize)
            .copied()
            .filter(|_| count <= self.windows.k())
            .unwrap_or(0)
    }

    /// Puts a piece of `player` on the empty square `sq`.
    pub fn place(&mut self, player: Player, sq: Square) -> Result<(), EvalError> {
        match self.board.get(sq.index()) {
            None => return Err(EvalError::off_board(sq, self.board.len())),
            Some(Some(_)) => return Err(EvalError::Occupied { square: sq.0 }),
            Some(None) => {}
        }
        self.board[sq.index()] = Some(player);
        self.apply(player, sq, true);
        Ok(())
    }

    /// Takes `player`'s piece off `sq`.
    pub fn remove(&mut self, player: Player, sq: Square) -> Result<(), EvalError> {
        match self.board.get(sq.index()) {
            None => return Err(EvalError::off_board(sq, self.board.len())),
            Some(&Some(p)) if p == player => {}
            Some(_) => {
                return Err(EvalError::NotThere {
                    square: sq.0,
                    player,
                });
            }
        }
        self.board[sq.index()] = None;
        self.apply(player, sq, false);
        Ok(())
    }

    /// How much [`score`](WindowScorer::score) would change if `player` placed on the empty
    /// square `sq` (nothing is changed): cheap move ordering.
    pub fn place_delta(&self, player: Player, sq: Square) -> Result<i64, EvalError> {
        match self.board.get(sq.index()) {
            None => return Err(EvalError::off_board(sq, self.board.len())),
            Some(Some(_)) => return Err(EvalError::Occupied { square: sq.0 }),
            Some(None) => {}
        }
        let mut delta = 0;
        for &w in self.windows.through(sq) {
            let old = self.counts[w as usize];
            let mut new = old;
            new[player.index()] += 1;
            delta += contribution(&self.table, new) - contribution(&self.table, old);
        }
        Ok(delta)
    }

    fn apply(&mut self, player: Player, sq: Square, add: bool) {
        let stride = self.windows.k as usize + 1;
        for &w in self.windows.through(sq) {
            let slot = &mut self.counts[w as usize];
            let old = *slot;
            if add {
                slot[player.index()] += 1;
            } else {
                slot[player.index()] -= 1;
            }
            let new = *slot;
            self.score += contribution(&self.table, new) - contribution(&self.table, old);
            if let Some(i) = live_index(old, stride) {
                self.live[i] = self.live[i].wrapping_sub(1);
            }
            if let Some(i) = live_index(new, stride) {
                self.live[i] += 1;
            }
        }
    }
}

/// Index into `live` for a one-sided, non-empty window.
#[inline]
fn live_index(counts: [u8; 2], stride: usize) -> Option<usize> {
    match counts {
        [0, 0] => None,
        [c, 0] => Some(c as usize),
        [0, c] => Some(stride + c as usize),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use board_core::{Bitboard64, BoardSet};
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn counts_match_the_formula() {
        for (w, h, k, n) in [(6, 6, 4, 54), (15, 15, 5, 572), (19, 19, 6, 924)] {
            let g = Geometry::new(w, h).unwrap();
            assert_eq!(KWindows::new(g, k).unwrap().len(), n, "{w}x{h} k={k}");
            assert_eq!(window_count(w, h, k), n as u64);
        }
        for w in 1..=26 {
            for h in [1, 2, 5, 13, 26] {
                let g = Geometry::new(w, h).unwrap();
                for k in 1..=w.max(h) {
                    let windows = KWindows::new(g, k).unwrap();
                    assert_eq!(windows.len() as u64, window_count(w, h, k), "{w}x{h} k={k}");
                    // Every window is k distinct, king-adjacent squares in a line.
                    for i in 0..windows.len() {
                        let cells = windows.window(i).unwrap();
                        let axis = windows.axis(i).unwrap();
                        for pair in cells.windows(2) {
                            assert_eq!(g.step(pair[0], axis), Some(pair[1]));
                        }
                    }
                    // Per-square lists are consistent with the windows.
                    let total: usize = g.squares().map(|s| windows.through(s).len()).sum();
                    assert_eq!(total, windows.len() * k as usize);
                }
            }
        }
    }

    #[test]
    fn rejects_bad_k_and_weights() {
        let g = Geometry::new(6, 4).unwrap();
        assert!(matches!(KWindows::new(g, 0), Err(EvalError::BadK { .. })));
        assert!(matches!(KWindows::new(g, 7), Err(EvalError::BadK { .. })));
        // k = 5 on 6x4: only horizontal windows fit.
        assert_eq!(KWindows::new(g, 5).unwrap().len(), 8);
        let w4 = KWindows::new(g, 4).unwrap();
        assert!(matches!(
            WindowScorer::new(w4, &WindowWeights::new([1, 2, 3])),
            Err(EvalError::BadWeights {
                expected: 4,
                got: 3
            })
        ));
        assert!(w4.window(w4.len()).is_none());
        assert!(w4.through(Square(24)).is_empty());
    }

    #[test]
    fn place_remove_errors() {
        let g = Geometry::square(6).unwrap();
        let mut s =
            WindowScorer::new(KWindows::new(g, 4).unwrap(), &WindowWeights::fourshift()).unwrap();
        assert!(matches!(
            s.place(Player::First, Square(36)),
            Err(EvalError::OffBoard { .. })
        ));
        s.place(Player::First, Square(0)).unwrap();
        assert!(matches!(
            s.place(Player::Second, Square(0)),
            Err(EvalError::Occupied { .. })
        ));
        assert!(matches!(
            s.remove(Player::Second, Square(0)),
            Err(EvalError::NotThere { .. })
        ));
        assert!(matches!(
            s.remove(Player::First, Square(1)),
            Err(EvalError::NotThere { .. })
        ));
        assert!(s.place_delta(Player::First, Square(0)).is_err());
        s.remove(Player::First, Square(0)).unwrap();
        assert_eq!(s.score(), 0);
        let bad: Bitboard64 = [Square(40)].into_iter().collect();
        assert!(matches!(
            WindowScorer::from_sets(s.windows(), &WindowWeights::fourshift(), [&bad, &bad]),
            Err(EvalError::OffBoard { square: 40, .. })
        ));
        let a: Bitboard64 = [Square(3)].into_iter().collect();
        assert!(matches!(
            WindowScorer::from_sets(s.windows(), &WindowWeights::fourshift(), [&a, &a]),
            Err(EvalError::Overlap { square: 3 })
        ));
    }

    #[test]
    fn fourshift_hand_position() {
        // . . . . . .
        // . . . . . .
        // . . . . . .
        // . . . . . .
        // . . . . . .
        // X X X O . .      a1 b1 c1 = First, d1 = Second
        let g = Geometry::square(6).unwrap();
        let windows = KWindows::new(g, 4).unwrap();
        let mut s = WindowScorer::new(windows, &WindowWeights::fourshift()).unwrap();
        for (p, name) in [
            (Player::First, "a1"),
            (Player::First, "b1"),
            (Player::First, "c1"),
            (Player::Second, "d1"),
        ] {
            s.place(p, g.parse_square(name).unwrap()).unwrap();
        }
        // Row 1 windows: a1-d1 mixed, b1-e1 mixed, c1-f1 mixed: 0.
        // Verticals from a1, b1, c1: 5 each; d1 vertical: -5.
        // Diagonals NE from a1, b1, c1: 5 each; d1 NE (d1-e2-f3 has only 3 squares): none.
        // Anti-diagonals (SE) ending on row 1: c1 from a3 (a3 b2 c1)? only 3 long: none;
        // d1 from a4 (a4 b3 c2 d1): -5.
        assert_eq!(s.score(), 3 * 5 - 5 + 3 * 5 - 5);
        assert_eq!(s.live_windows(Player::First, 1), 6);
        assert_eq!(s.live_windows(Player::Second, 1), 2);
        assert_eq!(s.live_windows(Player::First, 3), 0);
        let e1 = g.parse_square("e1").unwrap();
        let before = s.score();
        let delta = s.place_delta(Player::Second, e1).unwrap();
        s.place(Player::Second, e1).unwrap();
        assert_eq!(s.score(), before + delta);
        assert_eq!(s.score_for(Player::Second), -s.score());
    }

    #[test]
    fn four_in_a_row_is_a_full_window() {
        let g = Geometry::square(6).unwrap();
        let mut s =
            WindowScorer::new(KWindows::new(g, 4).unwrap(), &WindowWeights::fourshift()).unwrap();
        for name in ["b2", "c3", "d4", "e5"] {
            s.place(Player::Second, g.parse_square(name).unwrap())
                .unwrap();
        }
        assert_eq!(s.live_windows(Player::Second, 4), 1);
        assert_eq!(s.live_windows(Player::First, 4), 0);
        assert!(s.score() <= -100_000);
    }

    fn random_walk<S: SquareSet>(w: u32, h: u32, k: u32, ops: &[(bool, u16)]) {
        let g = Geometry::new(w, h).unwrap();
        let windows = KWindows::new(g, k).unwrap();
        let weights = WindowWeights::new((1..=k as i32).map(|c| c * c * 7 - 3).collect::<Vec<_>>());
        let mut s = WindowScorer::new(windows, &weights).unwrap();
        let mut sets = [S::empty(), S::empty()];
        for &(first, raw) in ops {
            let sq = Square(raw % g.cells() as u16);
            let p = if first { Player::First } else { Player::Second };
            match s.piece_at(sq) {
                None => {
                    let before = s.score();
                    let delta = s.place_delta(p, sq).unwrap();
                    s.place(p, sq).unwrap();
                    assert_eq!(s.score(), before + delta);
                    sets[p.index()].insert(sq);
                }
                Some(q) => {
                    s.remove(q, sq).unwrap();
                    sets[q.index()].remove(sq);
                }
            }
            let scratch = windows
                .score_from_scratch(&weights, [&sets[0], &sets[1]])
                .unwrap();
            assert_eq!(s.score(), scratch);
        }
        let rebuilt = WindowScorer::from_sets(windows, &weights, [&sets[0], &sets[1]]).unwrap();
        assert_eq!(rebuilt.score(), s.score());
        assert_eq!(rebuilt.live, s.live);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn incremental_equals_scratch_6x6(ops in prop::collection::vec((any::<bool>(), any::<u16>()), 0..120)) {
            random_walk::<Bitboard64>(6, 6, 4, &ops);
        }

        #[test]
        fn incremental_equals_scratch_any_size(
            w in 1u32..=26, h in 1u32..=26, kk in any::<u32>(),
            ops in prop::collection::vec((any::<bool>(), any::<u16>()), 0..150),
        ) {
            let k = 1 + kk % w.max(h);
            random_walk::<BoardSet>(w, h, k, &ops);
        }
    }
}
