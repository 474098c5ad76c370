//! Amazons territory: queen-move and king-move distances from each player's queens, and the
//! territory and position terms of Lieberum's evaluation (J. Lieberum, "An evaluation
//! function for the game of amazons", Theoretical Computer Science 349, 2005), also used by
//! Hensgens' and most later programs.
//!
//! # Definitions
//!
//! Arrows and all queens block; every other square is *empty*.
//! - `Dq_p(s)`, the **queen distance**: the least number of queen moves (any distance along
//!   one of the 8 lines, through empty squares only) that takes one of player `p`'s queens
//!   to the empty square `s`; `Dk_p(s)`, the **king distance**, the same with one-square
//!   king moves. Unreachable squares have no distance (∞, stored as [`UNREACHED`]). A queen's
//!   own square has distance 0; other blocked squares are unreached.
//! - For a distance `D`, the **territory** of `p` is the number of empty squares with
//!   `D_p(s) < D_other(s)` (including `D_other(s) = ∞`); a **tie** is an empty square reached
//!   by both at the same finite distance; a **neutral** square is reached by neither.
//!   [`Territory::score`] is `own(First) − own(Second) ± κ·ties`, the tie term counting for
//!   the player to move: Lieberum's `t1` (queen distance) and `t2` (king distance).
//! - `c1 = 2 Σ (2^−Dq_First(s) − 2^−Dq_Second(s))` and
//!   `c2 = Σ min(1, max(−1, (Dk_Second(s) − Dk_First(s)) / 6))` over empty squares, with
//!   `2^−∞ = 0`, `±∞` differences clamped to ±1 and `∞ − ∞ = 0`;
//!   `w = Σ 2^−|Dq_First(s) − Dq_Second(s)|` over empty squares both players reach: large
//!   while the players still share the board, small once territories are closed (Lieberum
//!   weighs `t1, t2, c1, c2` by functions of `w`; weights are the engine's business).
//!
//! Distances are bytes: a square more than 254 moves away counts as unreached (only king
//! distances through a winding maze on a board of more than 254 cells can get there).
//!
//! Every term is from First's point of view. Boards of up to 128 cells (10×10, 8×8, 11×11)
//! are flooded with [`Bitboard128`] shifts, one shift-and-mask per direction and step;
//! larger boards use a breadth-first search over squares.
//!
//! ```
//! use board_core::{Bitboard128, Geometry, Player, SquareSet};
//! use boardlab_engines::amazons::distances::AmazonsDistances;
//!
//! // 4x1 corridor: First's queen on a1, Second's on d1.  Q . . q
//! let g = Geometry::new(4, 1)?;
//! let q1: Bitboard128 = [g.parse_square("a1")?].into_iter().collect();
//! let q2: Bitboard128 = [g.parse_square("d1")?].into_iter().collect();
//! let d = AmazonsDistances::new(g, &(q1 | q2), [&q1, &q2])?;
//! assert_eq!(d.queen(Player::First, g.parse_square("c1")?), Some(1));
//! assert_eq!(d.king(Player::First, g.parse_square("c1")?), Some(2));
//! let terms = d.terms();
//! assert_eq!(terms.queen.ties, 2); // both reach b1 and c1 in one queen move
//! assert_eq!(terms.king.owned, [1, 1]); // b1 is First's by king distance, c1 Second's
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;

use board_core::{Bitboard128, Direction, Geometry, Player, Square, SquareSet};

use eval::{EvalError, check_pair, check_set};

/// The stored distance of a square no queen of that player reaches.
pub const UNREACHED: u8 = u8::MAX;

/// Queen and king distances from each player's queens to every square of the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AmazonsDistances {
    /// `queen[p][s]`, [`UNREACHED`] if none.
    queen: [Vec<u8>; 2],
    king: [Vec<u8>; 2],
    /// The empty squares (not occupied, not a queen), lowest first.
    empty: Vec<Square>,
}

impl AmazonsDistances {
    /// Distances on `geometry` where `occupied` holds the arrows (queens may be in it or not:
    /// they block either way) and `queens[p]` player `p`'s queens.
    pub fn new<S: SquareSet>(
        geometry: &Geometry,
        occupied: &S,
        queens: [&S; 2],
    ) -> Result<AmazonsDistances, EvalError> {
        let mut d = AmazonsDistances::default();
        d.compute(geometry, occupied, queens)?;
        Ok(d)
    }

    /// Recomputes in place, reusing the buffers (no allocation once sized): for search.
    pub fn compute<S: SquareSet>(
        &mut self,
        geometry: &Geometry,
        occupied: &S,
        queens: [&S; 2],
    ) -> Result<(), EvalError> {
        check_set(geometry, occupied)?;
        check_pair(geometry, queens)?;
        let cells = geometry.cells();
        let blocked = *occupied | *queens[0] | *queens[1];
        for map in self.queen.iter_mut().chain(self.king.iter_mut()) {
            map.clear();
            map.resize(cells, UNREACHED);
        }
        self.empty.clear();
        self.empty
            .extend(S::first_n(cells).without_all(blocked).squares());
        if cells <= 128 {
            let to128 = |s: &S| -> Bitboard128 { s.squares().collect() };
            let flood = Flood128::new(geometry);
            let blocked = to128(&blocked);
            for ((q, queen), king) in queens.iter().zip(&mut self.queen).zip(&mut self.king) {
                let q = to128(q);
                flood.queen(q, blocked, queen);
                flood.king(q, blocked, king);
            }
        } else {
            for ((q, queen), king) in queens.iter().zip(&mut self.queen).zip(&mut self.king) {
                bfs(geometry, &blocked, *q, u32::MAX, queen);
                bfs(geometry, &blocked, *q, 1, king);
            }
        }
        Ok(())
    }

    /// The queen distance from `player`'s queens to `sq`, `None` if unreached or off board.
    pub fn queen(&self, player: Player, sq: Square) -> Option<u8> {
        self.queen[player.index()]
            .get(sq.index())
            .copied()
            .filter(|&d| d != UNREACHED)
    }

    /// The king distance from `player`'s queens to `sq`, `None` if unreached or off board.
    pub fn king(&self, player: Player, sq: Square) -> Option<u8> {
        self.king[player.index()]
            .get(sq.index())
            .copied()
            .filter(|&d| d != UNREACHED)
    }

    /// All queen distances of `player`, indexed by square ([`UNREACHED`] if none).
    pub fn queen_map(&self, player: Player) -> &[u8] {
        &self.queen[player.index()]
    }

    /// All king distances of `player`, indexed by square ([`UNREACHED`] if none).
    pub fn king_map(&self, player: Player) -> &[u8] {
        &self.king[player.index()]
    }

    /// The empty squares (neither arrow nor queen), lowest first.
    pub fn empty_squares(&self) -> &[Square] {
        &self.empty
    }

    /// The territory and position terms over the empty squares.
    pub fn terms(&self) -> TerritoryTerms {
        let mut t = TerritoryTerms::default();
        for &sq in &self.empty {
            let i = sq.index();
            let (q1, q2) = (self.queen[0][i], self.queen[1][i]);
            let (k1, k2) = (self.king[0][i], self.king[1][i]);
            t.queen.add(q1, q2);
            t.king.add(k1, k2);
            t.c1 += 2.0 * (pow2neg(q1) - pow2neg(q2));
            t.c2 += match (k1, k2) {
                (UNREACHED, UNREACHED) => 0.0,
                (_, UNREACHED) => 1.0,
                (UNREACHED, _) => -1.0,
                _ => C2_STEPS[((k2 as i32 - k1 as i32).clamp(-6, 6) + 6) as usize],
            };
            if q1 != UNREACHED && q2 != UNREACHED {
                t.w += pow2neg(q1.abs_diff(q2));
            }
        }
        t
    }
}

/// `2^-d`, 0 for [`UNREACHED`].
#[inline]
fn pow2neg(d: u8) -> f64 {
    if d == UNREACHED {
        0.0
    } else {
        // The exponent field of 2^-d is 1023 - d, exact for every d < 255.
        f64::from_bits((1023 - d as u64) << 52)
    }
}

/// `clamp(diff / 6, -1, 1)` for `diff` in -6..=6, index `diff + 6`.
const C2_STEPS: [f64; 13] = [
    -1.0,
    -5.0 / 6.0,
    -4.0 / 6.0,
    -3.0 / 6.0,
    -2.0 / 6.0,
    -1.0 / 6.0,
    0.0,
    1.0 / 6.0,
    2.0 / 6.0,
    3.0 / 6.0,
    4.0 / 6.0,
    5.0 / 6.0,
    1.0,
];

/// Who reaches the empty squares first by one distance measure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Territory {
    /// Squares each player reaches strictly first (index by [`Player::index`]).
    pub owned: [u32; 2],
    /// Squares both reach at the same finite distance.
    pub ties: u32,
    /// Squares neither reaches.
    pub neutral: u32,
}

impl Territory {
    #[inline]
    fn add(&mut self, d1: u8, d2: u8) {
        use std::cmp::Ordering::*;
        match d1.cmp(&d2) {
            Less => self.owned[0] += 1,
            Greater => self.owned[1] += 1,
            Equal if d1 == UNREACHED => self.neutral += 1,
            Equal => self.ties += 1,
        }
    }

    /// `owned(First) − owned(Second)`, ties left out.
    pub fn balance(&self) -> i32 {
        self.owned[0] as i32 - self.owned[1] as i32
    }

    /// Lieberum's `t`: the balance plus `kappa` per tie for the player to move (so minus
    /// `kappa` per tie when Second is to move), from First's point of view.
    pub fn score(&self, to_move: Player, kappa: f64) -> f64 {
        self.balance() as f64 + kappa * self.ties as f64 * to_move.sign() as f64
    }

    /// The same in integers: `square` per square of balance plus `tie` per tie for the
    /// player to move, from First's point of view.
    pub fn score_scaled(&self, to_move: Player, square: i32, tie: i32) -> i64 {
        self.balance() as i64 * square as i64
            + tie as i64 * self.ties as i64 * to_move.sign() as i64
    }
}

/// The terms of Lieberum's amazons evaluation, from First's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TerritoryTerms {
    /// Territory by queen distance (Lieberum's `t1` is [`Territory::score`] of this).
    pub queen: Territory,
    /// Territory by king distance (`t2`).
    pub king: Territory,
    /// `2 Σ (2^−Dq_First − 2^−Dq_Second)`.
    pub c1: f64,
    /// `Σ clamp((Dk_Second − Dk_First) / 6, −1, 1)`.
    pub c2: f64,
    /// `Σ 2^−|Dq_First − Dq_Second|` over squares both reach: how open the game still is.
    pub w: f64,
}

impl TerritoryTerms {
    /// `t1`: queen territory with `kappa` per tie for the player to move.
    pub fn t1(&self, to_move: Player, kappa: f64) -> f64 {
        self.queen.score(to_move, kappa)
    }

    /// `t2`: king territory with `kappa` per tie for the player to move.
    pub fn t2(&self, to_move: Player, kappa: f64) -> f64 {
        self.king.score(to_move, kappa)
    }
}

/// Shift tables for flooding a board of up to 128 cells in a `u128`.
struct Flood128 {
    board: u128,
    /// Per direction: shift (positive = towards higher indices) and the mask of squares a
    /// step in that direction may land on (excludes the column it would wrap into).
    shifts: [(i32, u128); 8],
}

impl Flood128 {
    fn new(geometry: &Geometry) -> Flood128 {
        let (w, cells) = (geometry.width() as i32, geometry.cells());
        let board = if cells >= 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let mut first_col = 0u128;
        let mut last_col = 0u128;
        for row in 0..geometry.height() {
            first_col |= 1 << (row * w as u32);
            last_col |= 1 << (row * w as u32 + w as u32 - 1);
        }
        let shifts = Direction::ALL.map(|d| {
            let (dc, dr) = d.delta();
            let mask = match dc {
                1 => board & !first_col,
                -1 => board & !last_col,
                _ => board,
            };
            (dr as i32 * w + dc as i32, mask)
        });
        Flood128 { board, shifts }
    }

    #[inline]
    fn shift(x: u128, (s, mask): (i32, u128)) -> u128 {
        (if s >= 0 { x << s } else { x >> -s }) & mask
    }

    fn queen(&self, queens: Bitboard128, blocked: Bitboard128, dist: &mut [u8]) {
        let empty = self.board & !blocked.0;
        let mut reached = queens.0;
        let mut frontier = queens.0;
        set_all(frontier, 0, dist);
        let mut d = 0u8;
        while frontier != 0 && d < UNREACHED - 1 {
            d += 1;
            // Slides stop at squares reached at an earlier level: everything beyond one of
            // those along the same line was reached from it one level later, at most now.
            let open = empty & !reached;
            let mut next = 0;
            for &sh in &self.shifts {
                let mut t = frontier;
                loop {
                    t = Flood128::shift(t, sh) & open;
                    if t == 0 {
                        break;
                    }
                    next |= t;
                }
            }
            set_all(next, d, dist);
            reached |= next;
            frontier = next;
        }
    }

    fn king(&self, queens: Bitboard128, blocked: Bitboard128, dist: &mut [u8]) {
        let empty = self.board & !blocked.0;
        let mut reached = queens.0;
        let mut frontier = queens.0;
        set_all(frontier, 0, dist);
        let mut d = 0u8;
        while frontier != 0 && d < UNREACHED - 1 {
            d += 1;
            let mut next = 0;
            for &sh in &self.shifts {
                next |= Flood128::shift(frontier, sh);
            }
            next &= empty & !reached;
            set_all(next, d, dist);
            reached |= next;
            frontier = next;
        }
    }
}

#[inline]
fn set_all(mut bits: u128, d: u8, dist: &mut [u8]) {
    while bits != 0 {
        if let Some(slot) = dist.get_mut(bits.trailing_zeros() as usize) {
            *slot = d;
        }
        bits &= bits - 1;
    }
}

/// Breadth-first distances from `sources` with moves of 1 to `reach` squares along a line
/// through squares not in `blocked`.
fn bfs<S: SquareSet>(geometry: &Geometry, blocked: &S, sources: &S, reach: u32, dist: &mut [u8]) {
    let mut queue = VecDeque::new();
    for sq in sources.squares() {
        dist[sq.index()] = 0;
        queue.push_back(sq);
    }
    while let Some(sq) = queue.pop_front() {
        let d = dist[sq.index()];
        if d >= UNREACHED - 1 {
            continue;
        }
        for dir in Direction::ALL {
            for next in geometry.ray(sq, dir).take(reach as usize) {
                if blocked.contains(next) {
                    break;
                }
                if dist[next.index()] == UNREACHED {
                    dist[next.index()] = d + 1;
                    queue.push_back(next);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
