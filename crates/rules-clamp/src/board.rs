//! The board of one size class, generic over its bit-set type: move generation, counting,
//! make/unmake with captures. Players are indices (0 = First/Black, 1 = Second/White).
//!
//! Move generation works per direction, like pawn pushes in chess: the pieces that can
//! step once in direction `d` are `shift(own, d) & empty`, and those that can step twice
//! are `shift(one, d) & empty` (the middle square is then empty by construction).
//! Captures look at the own pieces exactly two squares away in a straight line
//! (`ring2[to]`): the square halfway between, `(to + b) / 2`, is captured if it holds an
//! enemy piece.

use board_core::Square;

use crate::{
    bits::{BitIter, Bits, Tables},
    moves::Move,
};

/// Calls `f` with each direction index as a constant, so `Tables::shift` folds.
#[inline(always)]
fn each_direction(mut f: impl FnMut(usize)) {
    f(0);
    f(1);
    f(2);
    f(3);
    f(4);
    f(5);
    f(6);
    f(7);
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Board<B: 'static> {
    pub pieces: [B; 2],
    pub t: &'static Tables<B>,
}

impl<B: Bits> PartialEq for Board<B> {
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces
    }
}

impl<B: Bits> Board<B> {
    pub fn new(t: &'static Tables<B>) -> Board<B> {
        Board {
            pieces: [B::ZERO; 2],
            t,
        }
    }

    #[inline(always)]
    pub fn empty(&self) -> B {
        self.t.board & !(self.pieces[0] | self.pieces[1])
    }

    #[inline(always)]
    pub fn count(&self, p: usize) -> u32 {
        self.pieces[p].count()
    }

    /// The player index of the piece on square `i`, if any.
    #[inline]
    pub fn get(&self, i: usize) -> Option<usize> {
        if self.pieces[0].has(i) {
            Some(0)
        } else if self.pieces[1].has(i) {
            Some(1)
        } else {
            None
        }
    }

    /// Puts a piece of `p` on square `i` (or empties it); `i` must be on the board.
    pub fn set(&mut self, i: usize, p: Option<usize>) {
        let bit = B::bit(i);
        self.pieces[0] &= !bit;
        self.pieces[1] &= !bit;
        if let Some(p) = p {
            self.pieces[p] |= bit;
        }
    }

    /// Zobrist hash of the pieces alone.
    pub fn hash(&self) -> u64 {
        let mut h = 0;
        for p in 0..2 {
            for i in BitIter(self.pieces[p]) {
                h ^= self.t.keys[p][i];
            }
        }
        h
    }

    #[inline(always)]
    pub fn can_drop(&self, p: usize, max: u32) -> bool {
        self.count(p) < max && !(self.t.zone[p] & self.empty()).is_zero()
    }

    /// Whether `p` would have a legal move if it were on move (the end of the game aside).
    /// A piece with no empty neighbour cannot step 2 either, so one dilation decides steps.
    #[inline]
    pub fn has_move(&self, p: usize, max: u32) -> bool {
        self.can_drop(p, max) || !(self.t.dilate(self.pieces[p]) & self.empty()).is_zero()
    }

    /// The number of moves `p` would have if it were on move (the end of the game aside).
    #[inline]
    pub fn mobility(&self, p: usize, max: u32) -> u64 {
        let t = self.t;
        let own = self.pieces[p];
        let empty = self.empty();
        let mut n = if own.count() < max {
            (t.zone[p] & empty).count()
        } else {
            0
        };
        each_direction(|d| {
            let one = t.shift(own, d) & empty;
            let two = t.shift(one, d) & empty;
            n += one.count() + two.count();
        });
        n as u64
    }

    /// Appends the moves `p` would have if it were on move: drops first, then the steps
    /// direction by direction.
    #[inline]
    pub fn generate(&self, p: usize, max: u32, moves: &mut Vec<Move>) {
        let t = self.t;
        let own = self.pieces[p];
        let empty = self.empty();
        if own.count() < max {
            moves.extend(BitIter(t.zone[p] & empty).map(|i| Move::Drop(Square(i as u16))));
        }
        each_direction(|d| {
            let off = t.offset[d];
            let one = t.shift(own, d) & empty;
            let two = t.shift(one, d) & empty;
            moves.extend(
                BitIter(one)
                    .map(|i| Move::Step(Square((i as isize - off) as u16), Square(i as u16))),
            );
            moves.extend(
                BitIter(two)
                    .map(|i| Move::Step(Square((i as isize - 2 * off) as u16), Square(i as u16))),
            );
        });
    }

    /// The enemy pieces a piece of `p` landing on `to` would capture, as a direction mask,
    /// given `own` (the mover's pieces after the move) and `opp`.
    #[inline(always)]
    fn captures(&self, to: usize, own: B, opp: B) -> (u8, B) {
        let t = self.t;
        let mut dirs = 0u8;
        let mut taken = B::ZERO;
        for b in BitIter(own & t.ring2[to]) {
            let m = (to + b) / 2;
            if opp.has(m) {
                taken |= B::bit(m);
                dirs |= 1 << t.direction_of(m as isize - to as isize);
            }
        }
        (dirs, taken)
    }

    /// Plays `mv` for `p` (squares must be on the board). Returns the captured directions
    /// and the change of the pieces' hash.
    #[inline]
    pub fn make(&mut self, p: usize, mv: Move) -> (u8, u64) {
        let t = self.t;
        let to = mv.to().index();
        let mut delta = t.keys[p][to];
        match mv {
            Move::Drop(_) => self.pieces[p] |= B::bit(to),
            Move::Step(from, _) => {
                self.pieces[p] ^= B::bit(from.index()) | B::bit(to);
                delta ^= t.keys[p][from.index()];
            }
        }
        let (dirs, taken) = self.captures(to, self.pieces[p], self.pieces[p ^ 1]);
        if dirs != 0 {
            self.pieces[p ^ 1] ^= taken;
            for m in BitIter(taken) {
                delta ^= t.keys[p ^ 1][m];
            }
        }
        (dirs, delta)
    }

    /// Takes back `mv` of `p`, restoring the pieces captured in directions `dirs`.
    #[inline]
    pub fn unmake(&mut self, p: usize, mv: Move, dirs: u8) {
        let to = mv.to().index();
        match mv {
            Move::Drop(_) => self.pieces[p] ^= B::bit(to),
            Move::Step(from, _) => self.pieces[p] ^= B::bit(from.index()) | B::bit(to),
        }
        let mut rest = dirs;
        while rest != 0 {
            let d = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.pieces[p ^ 1] |= B::bit((to as isize + self.t.offset[d]) as usize);
        }
    }

    /// How many pieces `mv` by `p` would capture (for a legal move).
    pub fn capture_count(&self, p: usize, mv: Move) -> u32 {
        let to = mv.to().index();
        let mut own = self.pieces[p] | B::bit(to);
        if let Move::Step(from, _) = mv {
            own &= !B::bit(from.index());
        }
        self.captures(to, own, self.pieces[p ^ 1]).0.count_ones()
    }
}
