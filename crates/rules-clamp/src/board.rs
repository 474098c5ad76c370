//! The board of one size class, generic over its bit-set type: move generation, counting,
//! make/unmake with captures. Players are indices (0 = First/Black, 1 = Second/White).
//!
//! Move generation works per direction, like pawn pushes in chess: the pieces that can
//! step once in direction `d` are `shift(own, d) & empty`, and those that can step twice
//! are `shift(one, d) & empty` (the middle square is then empty by construction).
//! Captures look at the own pieces exactly two squares away in a straight line
//! (`ring2[to]`): the square halfway between, `(to + b) / 2`, is captured if it holds an
//! enemy piece.

use board_core::{Direction, Square};

use crate::{
    moves::Move,
    tables::{Bits, Tables, bit},
};

/// Calls `f` with each direction as a constant, so `StepMasks::shift` folds.
#[inline(always)]
fn each_direction(mut f: impl FnMut(Direction)) {
    f(Direction::North);
    f(Direction::NorthEast);
    f(Direction::East);
    f(Direction::SouthEast);
    f(Direction::South);
    f(Direction::SouthWest);
    f(Direction::West);
    f(Direction::NorthWest);
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
            pieces: [B::empty(); 2],
            t,
        }
    }

    #[inline(always)]
    pub fn empty(&self) -> B {
        self.t.steps.board() & !(self.pieces[0] | self.pieces[1])
    }

    #[inline(always)]
    pub fn count(&self, p: usize) -> u32 {
        self.pieces[p].count()
    }

    /// The player index of the piece on square `i`, if any.
    #[inline]
    pub fn get(&self, i: usize) -> Option<usize> {
        if self.pieces[0].contains(Square(i as u16)) {
            Some(0)
        } else if self.pieces[1].contains(Square(i as u16)) {
            Some(1)
        } else {
            None
        }
    }

    /// Puts a piece of `p` on square `i` (or empties it); `i` must be on the board.
    pub fn set(&mut self, i: usize, p: Option<usize>) {
        let bit: B = bit(i);
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
            for sq in self.pieces[p].squares() {
                h ^= self.t.keys[p][sq.index()];
            }
        }
        h
    }

    #[inline(always)]
    pub fn can_drop(&self, p: usize, max: u32) -> bool {
        self.count(p) < max && !(self.t.zone[p] & self.empty()).is_empty()
    }

    /// Whether `p` would have a legal move if it were on move (the end of the game aside).
    /// A piece with no empty neighbour cannot step 2 either, so one dilation decides steps.
    #[inline]
    pub fn has_move(&self, p: usize, max: u32) -> bool {
        self.can_drop(p, max) || !(self.t.steps.dilate(self.pieces[p]) & self.empty()).is_empty()
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
            let one = t.steps.shift(own, d) & empty;
            let two = t.steps.shift(one, d) & empty;
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
            moves.extend((t.zone[p] & empty).squares().map(Move::Drop));
        }
        each_direction(|d| {
            let off = t.offset[d.index()];
            let one = t.steps.shift(own, d) & empty;
            let two = t.steps.shift(one, d) & empty;
            moves.extend(
                one.squares()
                    .map(|to| Move::Step(Square((to.index() as isize - off) as u16), to)),
            );
            moves.extend(
                two.squares()
                    .map(|to| Move::Step(Square((to.index() as isize - 2 * off) as u16), to)),
            );
        });
    }

    /// The enemy pieces a piece of `p` landing on `to` would capture, as a direction mask,
    /// given `own` (the mover's pieces after the move) and `opp`.
    #[inline(always)]
    fn captures(&self, to: usize, own: B, opp: B) -> (u8, B) {
        let t = self.t;
        let mut dirs = 0u8;
        let mut taken = B::empty();
        for b in (own & t.ring2[to]).squares() {
            let m = (to + b.index()) / 2;
            if opp.contains(Square(m as u16)) {
                taken |= bit(m);
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
            Move::Drop(_) => self.pieces[p] |= bit::<B>(to),
            Move::Step(from, _) => {
                self.pieces[p] ^= bit::<B>(from.index()) | bit::<B>(to);
                delta ^= t.keys[p][from.index()];
            }
        }
        let (dirs, taken) = self.captures(to, self.pieces[p], self.pieces[p ^ 1]);
        if dirs != 0 {
            self.pieces[p ^ 1] ^= taken;
            for m in taken.squares() {
                delta ^= t.keys[p ^ 1][m.index()];
            }
        }
        (dirs, delta)
    }

    /// Takes back `mv` of `p`, restoring the pieces captured in directions `dirs`.
    #[inline]
    pub fn unmake(&mut self, p: usize, mv: Move, dirs: u8) {
        let to = mv.to().index();
        match mv {
            Move::Drop(_) => self.pieces[p] ^= bit::<B>(to),
            Move::Step(from, _) => self.pieces[p] ^= bit::<B>(from.index()) | bit::<B>(to),
        }
        let mut rest = dirs;
        while rest != 0 {
            let d = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.pieces[p ^ 1] |= bit::<B>((to as isize + self.t.offset[d]) as usize);
        }
    }

    /// How many pieces `mv` by `p` would capture (for a legal move).
    pub fn capture_count(&self, p: usize, mv: Move) -> u32 {
        let to = mv.to().index();
        let mut own = self.pieces[p] | bit::<B>(to);
        if let Move::Step(from, _) = mv {
            own &= !bit::<B>(from.index());
        }
        self.captures(to, own, self.pieces[p ^ 1]).0.count_ones()
    }
}
