//! The stones of both players as two square sets, with the move generator and line
//! detector written once for every set type (see [`crate::bits`]).

use board_core::{Bitboard64, BoardSet, Direction, Geometry, Player, Square, StepMasks};

use crate::{
    bits::{StoneSet, WORD_MAX_SIDE, line_steps},
    moves::Move,
};

/// Both players' stones on a board of one size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stones<B: StoneSet> {
    /// Indexed by [`Player::index`].
    pub sets: [B; 2],
    steps: &'static StepMasks<B>,
    /// `lines[sq]`: the four whole lines through `sq` (empty for wide boards).
    lines: &'static [[B; 4]],
    /// How [`Stones::masked_line`] grows runs to `k`.
    plan: RunPlan,
    width: u32,
}

/// The run lengths to add, one shift each, to grow runs of 1 into runs of `k`: doubling
/// while possible, then the remainder (`k = 4`: +1, +2; `k = 5`: +1, +2, +1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunPlan {
    k: u32,
    steps: [u8; 6],
    len: u8,
}

impl RunPlan {
    fn new(k: u32) -> RunPlan {
        let mut plan = RunPlan {
            k,
            steps: [0; 6],
            len: 0,
        };
        let mut run = 1;
        while run < k && (plan.len as usize) < plan.steps.len() {
            let add = run.min(k - run);
            plan.steps[plan.len as usize] = add as u8;
            plan.len += 1;
            run += add;
        }
        plan
    }

    #[inline]
    fn steps(&self) -> &[u8] {
        &self.steps[..self.len as usize]
    }
}

impl<B: StoneSet> PartialEq for Stones<B> {
    fn eq(&self, other: &Self) -> bool {
        self.sets == other.sets && self.width == other.width
    }
}

impl<B: StoneSet> Stones<B> {
    fn new(size: u32, k: u32) -> Self {
        Stones {
            plan: RunPlan::new(k),
            sets: [B::empty(); 2],
            steps: B::steps(size),
            lines: B::line_masks(size),
            width: size,
        }
    }

    #[inline]
    pub fn occupied(&self) -> B {
        self.sets[0] | self.sets[1]
    }

    #[inline]
    pub fn empty(&self) -> B {
        self.steps.board().without_all(self.occupied())
    }

    /// Adds or removes a piece; squares off the board are ignored (only an illegal move
    /// passed to `make_move` has any).
    #[inline]
    pub fn toggle(&mut self, player: Player, sq: Square) {
        let mut one = B::empty();
        one.insert(sq);
        self.sets[player.index()] ^= one & self.steps.board();
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Player> {
        if self.sets[0].contains(sq) {
            Some(Player::First)
        } else if self.sets[1].contains(sq) {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// Where `player`'s pieces can shift to, one set per direction: north, east, south, west.
    #[inline]
    fn targets(&self, player: Player) -> [B; 4] {
        let own = self.sets[player.index()];
        let empty = self.empty();
        let steps = self.steps;
        [
            steps.shift(own, Direction::North) & empty,
            steps.shift(own, Direction::East) & empty,
            steps.shift(own, Direction::South) & empty,
            steps.shift(own, Direction::West) & empty,
        ]
    }

    #[inline]
    pub fn count_places(&self) -> u32 {
        self.empty().count()
    }

    #[inline]
    pub fn count_shifts(&self, player: Player) -> u32 {
        let [n, e, s, w] = self.targets(player);
        n.count() + e.count() + s.count() + w.count()
    }

    #[inline]
    pub fn has_shift(&self, player: Player) -> bool {
        let [n, e, s, w] = self.targets(player);
        !(n | e | s | w).is_empty()
    }

    /// Appends a placement on every empty square, lowest square first.
    #[inline]
    pub fn push_places(&self, moves: &mut Vec<Move>) {
        let mut empty = self.empty();
        while let Some(sq) = empty.pop_first() {
            moves.push(Move::Place(sq));
        }
    }

    /// Appends every shift of `player`: northward ones first, then east, south, west.
    #[inline]
    pub fn push_shifts(&self, player: Player, moves: &mut Vec<Move>) {
        let w = self.width as u16;
        // `from = to - delta` for each direction; never wraps for a generated move.
        let back = [w.wrapping_neg(), 1u16.wrapping_neg(), w, 1];
        for (mut targets, back) in self.targets(player).into_iter().zip(back) {
            while let Some(to) = targets.pop_first() {
                moves.push(Move::Shift {
                    from: Square(to.0.wrapping_add(back)),
                    to,
                });
            }
        }
    }

    /// The four whole lines through `sq` (see [`crate::bits`]), on boards with line masks.
    #[inline]
    pub fn lines_through(&self, sq: Square) -> Option<&[B; 4]> {
        self.lines.get(sq.index())
    }

    /// Whether `player` has `k` or more pieces in an unbroken line through `sq`. On boards
    /// up to 8×8 this looks at the whole of the four lines through `sq`; that is the same
    /// thing after a move, because a line the mover already had would have ended the game,
    /// so any line on the board now contains the moved piece.
    #[inline]
    pub fn has_line_through(&self, player: Player, sq: Square, k: u32, g: &Geometry) -> bool {
        let own = self.sets[player.index()];
        match self.lines.get(sq.index()) {
            Some(lines) => Self::masked_line(own, lines, &self.plan, self.width),
            None => Self::walk_line_through(own, sq, k, g),
        }
    }

    /// With one mask per line through the square, all four lines at once: `runs[axis]`
    /// holds the squares that start `len` own pieces in a row along that line, and each step
    /// of `plan` grows `len` (doubling, then topping up to `k`). Within one line no edge
    /// masks are needed.
    #[inline]
    fn masked_line(own: B, lines: &[B; 4], plan: &RunPlan, width: u32) -> bool {
        let steps = line_steps(width);
        let mut runs = [
            own & lines[0],
            own & lines[1],
            own & lines[2],
            own & lines[3],
        ];
        if plan.k == 4 {
            for (run, step) in runs.iter_mut().zip(steps) {
                *run &= run.shr(step);
                *run &= run.shr(2 * step);
            }
        } else {
            for &mult in plan.steps() {
                for (run, step) in runs.iter_mut().zip(steps) {
                    *run &= run.shr(u32::from(mult) * step);
                }
            }
        }
        !(runs[0] | runs[1] | runs[2] | runs[3]).is_empty()
    }

    /// Walks the four lines through `sq` with the geometry's step tables.
    fn walk_line_through(own: B, sq: Square, k: u32, g: &Geometry) -> bool {
        if !g.contains(sq) || !own.contains(sq) {
            return false;
        }
        for axis in Direction::AXES {
            let mut n = 1;
            for dir in [axis, axis.opposite()] {
                let mut at = sq;
                while let Some(next) = g.step(at, dir) {
                    if !own.contains(next) {
                        break;
                    }
                    n += 1;
                    at = next;
                }
            }
            if n >= k {
                return true;
            }
        }
        false
    }

    /// Whether `player` has `k` or more pieces in an unbroken line anywhere on the board:
    /// `runs` is the set of squares that start `i + 1` pieces in a row in one direction,
    /// grown one step at a time with shifts back towards the start of the run (the edge
    /// masks stop rows from wrapping).
    pub fn has_line(&self, player: Player, k: u32) -> bool {
        let own = self.sets[player.index()];
        let steps = self.steps;
        // Runs east, north, north-east and north-west, each grown from its far end.
        let back = [
            Direction::West,
            Direction::South,
            Direction::SouthWest,
            Direction::SouthEast,
        ];
        back.into_iter().any(|dir| {
            let mut runs = own;
            for _ in 1..k {
                runs = own & steps.shift(runs, dir);
                if runs.is_empty() {
                    return false;
                }
            }
            !runs.is_empty()
        })
    }
}

/// A board of any allowed size: one [`Bitboard64`] per player up to 8×8, a [`BoardSet`]
/// beyond.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Board {
    Word(Stones<Bitboard64>),
    Wide(Stones<BoardSet>),
}

impl Board {
    pub fn new(size: u32, k: u32) -> Board {
        if size <= WORD_MAX_SIDE {
            Board::Word(Stones::new(size, k))
        } else {
            Board::Wide(Stones::new(size, k))
        }
    }
}

/// Runs `$body` with `$b` bound to the board's `Stones`, whatever its set type.
macro_rules! with_stones {
    ($board:expr, $b:ident => $body:expr) => {
        match $board {
            $crate::board::Board::Word($b) => $body,
            $crate::board::Board::Wide($b) => $body,
        }
    };
}
pub(crate) use with_stones;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The longest run of `own` on the whole line through `(col, row)` in direction
    /// `(dc, dr)`, by coordinates.
    fn naive_run(own: u64, size: i32, col: i32, row: i32, (dc, dr): (i32, i32)) -> u32 {
        let (mut c, mut r) = (col, row);
        while (0..size).contains(&(c - dc)) && (0..size).contains(&(r - dr)) {
            c -= dc;
            r -= dr;
        }
        let (mut best, mut run) = (0, 0);
        while (0..size).contains(&c) && (0..size).contains(&r) {
            if own >> (r * size + c) & 1 == 1 {
                run += 1;
                best = best.max(run);
            } else {
                run = 0;
            }
            c += dc;
            r += dr;
        }
        best
    }

    #[test]
    fn masked_lines_match_a_naive_scan() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for size in 3..=WORD_MAX_SIDE {
            let g = Geometry::square(size).unwrap();
            let all = Bitboard64::steps(size).board().0;
            for k in 2..=size {
                let stones = Stones::<Bitboard64>::new(size, k);
                for _ in 0..300 {
                    let density = rng.random_range(0.2..0.9);
                    let own = (0..size * size)
                        .filter(|_| rng.random_bool(density))
                        .fold(0u64, |acc, i| acc | 1 << i)
                        & all;
                    let sq = Square(rng.random_range(0..size * size) as u16);
                    let (col, row) = ((sq.0 as u32 % size) as i32, (sq.0 as u32 / size) as i32);
                    let expected = [(1, 0), (0, 1), (1, 1), (-1, 1)]
                        .into_iter()
                        .any(|d| naive_run(own, size as i32, col, row, d) >= k);
                    let lines = &stones.lines[sq.index()];
                    assert_eq!(
                        Stones::masked_line(Bitboard64(own), lines, &stones.plan, size),
                        expected,
                        "size {size} k {k} sq {sq:?} own {own:#x}"
                    );
                    // the walk agrees whenever the piece on `sq` is part of the answer
                    let own_with = own | 1 << sq.0;
                    let walk =
                        Stones::<Bitboard64>::walk_line_through(Bitboard64(own_with), sq, k, g);
                    let through = [(1, 0), (0, 1), (1, 1), (-1, 1)]
                        .into_iter()
                        .any(|(dc, dr)| {
                            let mut n = 1;
                            for sign in [1, -1] {
                                let (mut c, mut r) = (col + dc * sign, row + dr * sign);
                                while (0..size as i32).contains(&c)
                                    && (0..size as i32).contains(&r)
                                    && own_with >> (r * size as i32 + c) & 1 == 1
                                {
                                    n += 1;
                                    c += dc * sign;
                                    r += dr * sign;
                                }
                            }
                            n >= k
                        });
                    assert_eq!(walk, through, "walk: size {size} k {k} sq {sq:?}");
                }
            }
        }
    }

    #[test]
    fn run_plans_reach_k() {
        for k in 2..=26 {
            let plan = RunPlan::new(k);
            let mut run = 1;
            for &add in plan.steps() {
                assert!(
                    u32::from(add) <= run,
                    "k {k}: a step may at most double the run"
                );
                run += u32::from(add);
            }
            assert_eq!(run, k);
        }
    }
}
