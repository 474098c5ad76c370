//! Square sets as bits: [`Bitboard64`] and [`Bitboard128`] for boards that fit a machine word
//! (6×6, 8×8, 10×10) and [`BitSet`] for anything up to 26×26 (15×15, 19×19, 20×20, …).
//!
//! All three share one API, the [`SquareSet`] trait, so evaluators can be written once.
//! Bit `i` is the square with flat index `i`.
//!
//! Whole-set shifts ([`ShiftSet`]) and one-step shifts in a compass direction that never
//! wrap from one row to the next ([`StepMasks`]) let move generators work on all the pieces
//! at once, like pawn pushes in chess:
//!
//! ```
//! use board_core::{Bitboard64, Direction, Geometry, SquareSet, StepMasks};
//! let g = Geometry::square(3).unwrap();
//! let steps = StepMasks::<Bitboard64>::new(g).unwrap();
//! let corner: Bitboard64 = [g.parse_square("c1").unwrap()].into_iter().collect();
//! assert_eq!(steps.shift(corner, Direction::East), Bitboard64::EMPTY); // no wrap to a2
//! assert_eq!(steps.dilate(corner).draw(g), "...\n.XX\n.X.\n");
//! ```

use std::{
    fmt,
    ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not},
};

use crate::{
    geometry::{Direction, Geometry},
    square::{MAX_SIDE, Square},
};

/// The operations every square-set type offers.
///
/// **Squares past [`CAPACITY`](SquareSet::CAPACITY)** behave the same on every type: the set
/// never contains one ([`contains`](SquareSet::contains) is `false`), and
/// [`insert`](SquareSet::insert), [`remove`](SquareSet::remove) and
/// [`toggle`](SquareSet::toggle) leave the set as it is, since a set that cannot hold a
/// square already does not hold it. Callers that need to know use
/// [`try_insert`](SquareSet::try_insert). (A word shift by the raw index would otherwise
/// wrap around and touch a different square.)
pub trait SquareSet:
    Copy
    + Default
    + Eq
    + fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + FromIterator<Square>
{
    /// How many squares this type can hold.
    const CAPACITY: usize;

    /// The set with no squares.
    fn empty() -> Self {
        Self::default()
    }
    /// Whether `sq` is in the set (`false` past the capacity).
    fn contains(&self, sq: Square) -> bool;
    /// Adds `sq` (nothing past the capacity).
    fn insert(&mut self, sq: Square);
    /// Removes `sq` (nothing past the capacity).
    fn remove(&mut self, sq: Square);
    /// Adds `sq` if absent, removes it if present (nothing past the capacity).
    fn toggle(&mut self, sq: Square);
    /// Adds `sq`, or says that this type cannot hold it.
    fn try_insert(&mut self, sq: Square) -> Result<(), OutOfCapacity> {
        if sq.index() < Self::CAPACITY {
            self.insert(sq);
            Ok(())
        } else {
            Err(OutOfCapacity {
                square: sq,
                capacity: Self::CAPACITY,
            })
        }
    }
    /// The number of squares in the set.
    fn count(&self) -> u32;
    /// Whether the set has no squares.
    fn is_empty(&self) -> bool;
    /// The lowest square, if any.
    fn first(&self) -> Option<Square>;
    /// Removes and returns the lowest square.
    fn pop_first(&mut self) -> Option<Square>;
    /// Squares in `self` but not in `other`.
    fn without_all(self, other: Self) -> Self;

    /// The set of squares `0..n`: every cell of a board with `n` cells.
    fn first_n(n: usize) -> Self {
        (0..n.min(Self::CAPACITY) as u16).map(Square).collect()
    }

    /// Iterates over the squares, lowest first.
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }

    /// An ASCII drawing (rank 1 at the bottom) for debugging and doc tests.
    fn draw(&self, geometry: &Geometry) -> String {
        let mut out = String::new();
        for row in (0..geometry.height()).rev() {
            for col in 0..geometry.width() {
                let on = geometry
                    .square_at(col, row)
                    .is_some_and(|sq| self.contains(sq));
                out.push(if on { 'X' } else { '.' });
            }
            out.push('\n');
        }
        out
    }
}

/// A square that a set type has no bit for ([`SquareSet::try_insert`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("square index {} does not fit a set of {capacity} squares", square.0)]
pub struct OutOfCapacity {
    /// The square refused.
    pub square: Square,
    /// How many squares the set type holds.
    pub capacity: usize,
}

/// Iterator over the squares of a set, lowest first.
#[derive(Clone, Debug)]
pub struct SquareIter<S>(S);

impl<S: SquareSet> Iterator for SquareIter<S> {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.0.pop_first()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<S: SquareSet> ExactSizeIterator for SquareIter<S> {}

macro_rules! word_bitboard {
    ($(#[$doc:meta])* $name:ident, $int:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub $int);

        impl $name {
            /// The set with no squares.
            pub const EMPTY: $name = $name(0);

            /// The bit of `sq`, or no bit past the capacity (a plain `1 << sq` would wrap
            /// around to another square in a release build).
            #[inline(always)]
            const fn bit(sq: Square) -> $int {
                if (sq.0 as u32) < <$int>::BITS { 1 << sq.0 } else { 0 }
            }
            /// The set holding `sq` alone (empty past the capacity).
            #[inline]
            pub const fn from_square(sq: Square) -> $name {
                $name(Self::bit(sq))
            }
            /// Whether `sq` is in the set (`false` past the capacity).
            #[inline]
            pub const fn has(self, sq: Square) -> bool {
                self.0 & Self::bit(sq) != 0
            }
            /// The set with `sq` added (unchanged past the capacity).
            #[inline]
            pub const fn with(self, sq: Square) -> $name {
                $name(self.0 | Self::bit(sq))
            }
            /// The set with `sq` removed.
            #[inline]
            pub const fn without(self, sq: Square) -> $name {
                $name(self.0 & !Self::bit(sq))
            }
            /// The number of squares in the set.
            #[inline]
            pub const fn popcount(self) -> u32 {
                self.0.count_ones()
            }
        }

        impl SquareSet for $name {
            const CAPACITY: usize = <$int>::BITS as usize;

            #[inline]
            fn contains(&self, sq: Square) -> bool {
                self.has(sq)
            }
            #[inline]
            fn insert(&mut self, sq: Square) {
                self.0 |= Self::bit(sq);
            }
            #[inline]
            fn remove(&mut self, sq: Square) {
                self.0 &= !Self::bit(sq);
            }
            #[inline]
            fn toggle(&mut self, sq: Square) {
                self.0 ^= Self::bit(sq);
            }
            #[inline]
            fn count(&self) -> u32 {
                self.0.count_ones()
            }
            #[inline]
            fn is_empty(&self) -> bool {
                self.0 == 0
            }
            #[inline]
            fn first(&self) -> Option<Square> {
                (self.0 != 0).then(|| Square(self.0.trailing_zeros() as u16))
            }
            #[inline]
            fn pop_first(&mut self) -> Option<Square> {
                let sq = self.first()?;
                self.0 &= self.0 - 1;
                Some(sq)
            }
            #[inline]
            fn without_all(self, other: Self) -> Self {
                $name(self.0 & !other.0)
            }
            fn first_n(n: usize) -> Self {
                if n >= Self::CAPACITY { $name(<$int>::MAX) } else { $name((1 << n) - 1) }
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_set().entries(self.squares().map(|s| s.0)).finish()
            }
        }

        impl FromIterator<Square> for $name {
            fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> $name {
                let mut b = $name::EMPTY;
                b.extend(iter);
                b
            }
        }

        impl Extend<Square> for $name {
            fn extend<I: IntoIterator<Item = Square>>(&mut self, iter: I) {
                for sq in iter {
                    self.insert(sq);
                }
            }
        }

        impl IntoIterator for $name {
            type Item = Square;
            type IntoIter = SquareIter<$name>;
            fn into_iter(self) -> SquareIter<$name> {
                SquareIter(self)
            }
        }

        word_bitboard!(@op $name, BitAnd, bitand, BitAndAssign, bitand_assign, &);
        word_bitboard!(@op $name, BitOr, bitor, BitOrAssign, bitor_assign, |);
        word_bitboard!(@op $name, BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

        impl std::ops::Not for $name {
            type Output = $name;
            #[inline]
            fn not(self) -> $name {
                $name(!self.0)
            }
        }
    };
    (@op $name:ident, $tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for $name {
            type Output = $name;
            #[inline]
            fn $f(self, rhs: $name) -> $name {
                $name(self.0 $op rhs.0)
            }
        }
        impl $tra for $name {
            #[inline]
            fn $fa(&mut self, rhs: $name) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

word_bitboard!(
    /// A set of up to 64 squares (boards up to 8×8).
    Bitboard64,
    u64
);
word_bitboard!(
    /// A set of up to 128 squares (boards up to 11×11, e.g. 10×10 Amazons).
    Bitboard128,
    u128
);

macro_rules! word_shift_set {
    ($name:ident, $int:ty) => {
        impl ShiftSet for $name {
            #[inline(always)]
            fn shl(self, n: u32) -> $name {
                $name(self.0.checked_shl(n).unwrap_or(0))
            }
            #[inline(always)]
            fn shr(self, n: u32) -> $name {
                $name(self.0.checked_shr(n).unwrap_or(0))
            }
            #[inline]
            fn words(self) -> impl Iterator<Item = u64> {
                (0..<$int>::BITS / 64).map(move |i| (self.0 >> (64 * i)) as u64)
            }
        }
    };
}
word_shift_set!(Bitboard64, u64);
word_shift_set!(Bitboard128, u128);

/// A set of up to `64 * W` squares; `BitSet<11>` ([`BoardSet`]) holds any board up to 26×26.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BitSet<const W: usize>(pub [u64; W]);

/// A square set large enough for every board boardlab allows (26×26 = 676 cells).
pub type BoardSet = BitSet<11>;

impl<const W: usize> Default for BitSet<W> {
    fn default() -> Self {
        BitSet([0; W])
    }
}

impl<const W: usize> BitSet<W> {
    /// The set with no squares.
    pub const EMPTY: BitSet<W> = BitSet([0; W]);

    #[inline]
    fn split(sq: Square) -> (usize, u64) {
        (sq.index() / 64, 1u64 << (sq.0 % 64))
    }
}

impl<const W: usize> SquareSet for BitSet<W> {
    const CAPACITY: usize = 64 * W;

    #[inline]
    fn contains(&self, sq: Square) -> bool {
        let (w, bit) = Self::split(sq);
        self.0.get(w).is_some_and(|word| word & bit != 0)
    }
    #[inline]
    fn insert(&mut self, sq: Square) {
        let (w, bit) = Self::split(sq);
        if let Some(word) = self.0.get_mut(w) {
            *word |= bit;
        }
    }
    #[inline]
    fn remove(&mut self, sq: Square) {
        let (w, bit) = Self::split(sq);
        if let Some(word) = self.0.get_mut(w) {
            *word &= !bit;
        }
    }
    #[inline]
    fn toggle(&mut self, sq: Square) {
        let (w, bit) = Self::split(sq);
        if let Some(word) = self.0.get_mut(w) {
            *word ^= bit;
        }
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn first(&self) -> Option<Square> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| Square((i * 64) as u16 + w.trailing_zeros() as u16))
    }
    #[inline]
    fn pop_first(&mut self) -> Option<Square> {
        for (i, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let sq = Square((i * 64) as u16 + w.trailing_zeros() as u16);
                *w &= *w - 1;
                return Some(sq);
            }
        }
        None
    }
    #[inline]
    fn without_all(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        self
    }
}

impl<const W: usize> fmt::Debug for BitSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.squares().map(|s| s.0)).finish()
    }
}

impl<const W: usize> FromIterator<Square> for BitSet<W> {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut b = Self::EMPTY;
        b.extend(iter);
        b
    }
}

impl<const W: usize> Extend<Square> for BitSet<W> {
    fn extend<I: IntoIterator<Item = Square>>(&mut self, iter: I) {
        for sq in iter {
            self.insert(sq);
        }
    }
}

impl<const W: usize> IntoIterator for BitSet<W> {
    type Item = Square;
    type IntoIter = SquareIter<BitSet<W>>;
    fn into_iter(self) -> SquareIter<BitSet<W>> {
        SquareIter(self)
    }
}

macro_rules! bitset_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for BitSet<W> {
            type Output = BitSet<W>;
            #[inline]
            fn $f(mut self, rhs: BitSet<W>) -> BitSet<W> {
                for (a, b) in self.0.iter_mut().zip(rhs.0) {
                    *a $op b;
                }
                self
            }
        }
        impl<const W: usize> $tra for BitSet<W> {
            #[inline]
            fn $fa(&mut self, rhs: BitSet<W>) {
                for (a, b) in self.0.iter_mut().zip(rhs.0) {
                    *a $op b;
                }
            }
        }
    };
}
bitset_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
bitset_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
bitset_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> Not for BitSet<W> {
    type Output = BitSet<W>;
    #[inline]
    fn not(mut self) -> BitSet<W> {
        for a in &mut self.0 {
            *a = !*a;
        }
        self
    }
}

impl<const W: usize> ShiftSet for BitSet<W> {
    #[inline(always)]
    fn shl(self, n: u32) -> BitSet<W> {
        let q = (n / 64) as usize;
        let r = n % 64;
        let mut out = [0; W];
        for (i, o) in out.iter_mut().enumerate().skip(q) {
            *o = self.0[i - q] << r;
            if i > q {
                // `>> 1 >> (63 - r)` is `>> (64 - r)` without overflowing when `r == 0`.
                *o |= (self.0[i - q - 1] >> 1) >> (63 - r);
            }
        }
        BitSet(out)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> BitSet<W> {
        let q = (n / 64) as usize;
        let r = n % 64;
        let mut out = [0; W];
        for (i, o) in out.iter_mut().enumerate() {
            if i + q >= W {
                break;
            }
            *o = self.0[i + q] >> r;
            if i + q + 1 < W {
                *o |= (self.0[i + q + 1] << 1) << (63 - r);
            }
        }
        BitSet(out)
    }
    #[inline]
    fn words(self) -> impl Iterator<Item = u64> {
        self.0.into_iter()
    }
}

/// Square sets that can move all their squares at once: whole-set shifts of the flat index
/// and complement. The building block of [`StepMasks`].
pub trait ShiftSet: SquareSet + Not<Output = Self> {
    /// Every square `i` moved to `i + n`; squares past [`SquareSet::CAPACITY`] drop out.
    /// Any `n` is allowed (`n >= CAPACITY` gives the empty set).
    fn shl(self, n: u32) -> Self;
    /// Every square `i` moved to `i - n`; squares below 0 drop out. Any `n` is allowed.
    fn shr(self, n: u32) -> Self;
    /// The set as 64-bit words, lowest squares first (`CAPACITY / 64` words), e.g. to copy
    /// it into a wider set type.
    fn words(self) -> impl Iterator<Item = u64>;
}

/// Edge masks of one board geometry for one-step shifts of a whole [`ShiftSet`] in a
/// [`Direction`]: nothing wraps from one row to the next (or over the left and right edges)
/// and nothing lands past the board's last cell. Build once per board size and keep it in
/// your tables; [`StepMasks::shift`] with a constant direction folds to one word shift and
/// one mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepMasks<S> {
    width: u32,
    board: S,
    not_first_col: S,
    not_last_col: S,
}

impl<S: ShiftSet> StepMasks<S> {
    /// The masks of `geometry`, or `None` if its cells do not fit in `S`.
    pub fn new(geometry: &Geometry) -> Option<StepMasks<S>> {
        if geometry.cells() > S::CAPACITY {
            return None;
        }
        let width = geometry.width();
        let cells = |keep: &dyn Fn(u32) -> bool| -> S {
            geometry
                .squares()
                .filter(|&sq| keep(geometry.col(sq)))
                .collect()
        };
        Some(StepMasks {
            width,
            board: cells(&|_| true),
            not_first_col: cells(&|c| c != 0),
            not_last_col: cells(&|c| c + 1 != width),
        })
    }

    /// Every cell of the board.
    #[inline(always)]
    pub fn board(&self) -> S {
        self.board
    }

    /// The board width.
    #[inline(always)]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The shift amounts `width`, `width - 1` and `width + 1`. Masked with 31, which keeps
    /// them exact (the width is 1 to MAX_SIDE) and tells the compiler they are below 64, so
    /// the word shifts need no range check.
    #[inline(always)]
    fn amounts(&self) -> (u32, u32, u32) {
        const { assert!(MAX_SIDE < 32) };
        let w = self.width & 31;
        (w, self.width.wrapping_sub(1) & 31, w + 1)
    }

    /// The squares one step in direction `dir` from the squares of `set` that stay on the
    /// board. `set` should hold board cells only (squares past the last cell may step onto
    /// the board going south).
    #[inline(always)]
    pub fn shift(&self, set: S, dir: Direction) -> S {
        let (w, w_minus, w_plus) = self.amounts();
        match dir {
            Direction::North => set.shl(w) & self.board,
            Direction::NorthEast => set.shl(w_plus) & self.not_first_col,
            Direction::East => set.shl(1) & self.not_first_col,
            Direction::SouthEast => set.shr(w_minus) & self.not_first_col,
            Direction::South => set.shr(w),
            Direction::SouthWest => set.shr(w_plus) & self.not_last_col,
            Direction::West => set.shr(1) & self.not_last_col,
            Direction::NorthWest => set.shl(w_minus) & self.not_last_col,
        }
    }

    /// The squares adjacent (in any of the 8 directions) to some square of `set`: the union
    /// of the eight [`StepMasks::shift`]s, in fewer operations.
    #[inline(always)]
    pub fn dilate(&self, set: S) -> S {
        let (w, w_minus, w_plus) = self.amounts();
        let east = set.shl(1) | set.shl(w_plus) | set.shr(w_minus);
        let west = set.shr(1) | set.shr(w_plus) | set.shl(w_minus);
        (east & self.not_first_col)
            | (west & self.not_last_col)
            | (set.shl(w) & self.board)
            | set.shr(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn check_against_model<S: SquareSet>(ops: &[(bool, u16)]) {
        let cap = S::CAPACITY as u16;
        let mut set = S::empty();
        let mut model = BTreeSet::new();
        for &(insert, raw) in ops {
            let sq = Square(raw % cap);
            if insert {
                set.insert(sq);
                model.insert(sq);
            } else {
                set.remove(sq);
                model.remove(&sq);
            }
            assert_eq!(set.count() as usize, model.len());
            assert_eq!(set.first(), model.first().copied());
            assert!(set.contains(sq) == model.contains(&sq));
        }
        let listed: Vec<Square> = set.squares().collect();
        assert_eq!(listed, model.iter().copied().collect::<Vec<_>>());
        assert_eq!(set.squares().len(), model.len());
        let rebuilt: S = listed.iter().copied().collect();
        assert_eq!(rebuilt, set);
        let copy = set;
        assert!((set ^ copy).is_empty());
        assert_eq!(set & copy, set);
        assert_eq!(set | S::empty(), set);
        assert!(set.without_all(set).is_empty());
    }

    /// Every set type treats a square past its capacity alike: not contained, and
    /// insert/remove/toggle change nothing (`Bitboard64` used to set bit `sq % 64`).
    fn check_out_of_capacity<S: SquareSet>() {
        let inside = Square(S::CAPACITY as u16 - 1);
        let mut set: S = [Square(0), inside].into_iter().collect();
        let before = set;
        for past in [S::CAPACITY, S::CAPACITY + 1, S::CAPACITY + 64, 999, 65535] {
            let sq = Square(past as u16);
            assert!(!set.contains(sq), "contains {past}");
            set.insert(sq);
            assert_eq!(set, before, "insert {past}");
            set.toggle(sq);
            assert_eq!(set, before, "toggle {past}");
            set.remove(sq);
            assert_eq!(set, before, "remove {past}");
            assert_eq!(
                set.try_insert(sq),
                Err(OutOfCapacity {
                    square: sq,
                    capacity: S::CAPACITY
                })
            );
            assert_eq!(set, before, "try_insert {past}");
            let collected: S = [sq].into_iter().collect();
            assert!(collected.is_empty(), "collect {past}");
        }
        assert_eq!(set.try_insert(Square(1)), Ok(()));
        assert!(set.contains(Square(1)));
    }

    #[test]
    fn squares_past_the_capacity_are_never_members() {
        check_out_of_capacity::<Bitboard64>();
        check_out_of_capacity::<Bitboard128>();
        check_out_of_capacity::<BitSet<2>>();
        check_out_of_capacity::<BoardSet>();
        for past in [64u16, 65, 127, 128, 200] {
            let sq = Square(past);
            assert_eq!(Bitboard64::from_square(sq), Bitboard64::EMPTY);
            assert!(!Bitboard64(u64::MAX).has(sq));
            assert_eq!(Bitboard64(1).with(sq), Bitboard64(1));
            assert_eq!(Bitboard64(u64::MAX).without(sq), Bitboard64(u64::MAX));
        }
        assert_eq!(Bitboard128::from_square(Square(128)), Bitboard128::EMPTY);
        assert!(Bitboard128::from_square(Square(127)).has(Square(127)));
    }

    proptest! {
        #[test]
        fn word_sets_match_a_model(ops in prop::collection::vec((any::<bool>(), any::<u16>()), 0..200)) {
            check_against_model::<Bitboard64>(&ops);
            check_against_model::<Bitboard128>(&ops);
            check_against_model::<BoardSet>(&ops);
        }
    }

    /// The on-board squares of `g` whose bit is set in `bits` (bit `i` of word `i / 64`).
    fn board_set<S: SquareSet>(g: &Geometry, bits: &[u64]) -> S {
        g.squares()
            .filter(|sq| bits[sq.index() / 64] >> (sq.index() % 64) & 1 != 0)
            .collect()
    }

    /// Checks shifts and dilation of one random set against `Geometry::step`, square by square.
    fn check_steps<S: ShiftSet>(g: &Geometry, bits: &[u64]) {
        let steps = StepMasks::<S>::new(g).expect("the caller picks a set type that fits");
        let set: S = board_set(g, bits);
        assert_eq!(steps.board(), S::first_n(g.cells()));
        assert_eq!(steps.width(), g.width());
        let mut all = S::empty();
        for dir in Direction::ALL {
            let naive: S = set.squares().filter_map(|sq| g.step(sq, dir)).collect();
            let fast = steps.shift(set, dir);
            assert_eq!(
                fast,
                naive,
                "{}x{} {dir:?} of {set:?}",
                g.width(),
                g.height()
            );
            all |= naive;
        }
        assert_eq!(
            steps.dilate(set),
            all,
            "{}x{} dilate",
            g.width(),
            g.height()
        );
        let full = steps.board();
        assert!(steps.dilate(full).without_all(full).is_empty());
    }

    fn check_all_types(g: &Geometry, bits: &[u64]) {
        if g.cells() <= 64 {
            check_steps::<Bitboard64>(g, bits);
        }
        if g.cells() <= 128 {
            check_steps::<Bitboard128>(g, bits);
        }
        if g.cells() <= 256 {
            check_steps::<BitSet<4>>(g, bits);
        }
        check_steps::<BoardSet>(g, bits);
    }

    /// Checks whole-set shifts of one random set against shifting square by square.
    fn check_word_shifts<S: ShiftSet>(bits: &[u64], n: u32) {
        let set: S = (0..S::CAPACITY)
            .filter(|&i| bits[i / 64] >> (i % 64) & 1 != 0)
            .map(|i| Square(i as u16))
            .collect();
        let up: S = set
            .squares()
            .map(|sq| sq.index() + n as usize)
            .filter(|&i| i < S::CAPACITY)
            .map(|i| Square(i as u16))
            .collect();
        let down: S = set
            .squares()
            .filter_map(|sq| sq.index().checked_sub(n as usize))
            .map(|i| Square(i as u16))
            .collect();
        assert_eq!(set.shl(n), up, "shl {n}");
        assert_eq!(set.shr(n), down, "shr {n}");
        let words: Vec<u64> = set.words().collect();
        assert_eq!(words.len(), S::CAPACITY / 64);
        assert_eq!(&words[..], &bits[..S::CAPACITY / 64]);
        assert_eq!((!set).count() as usize, S::CAPACITY - set.count() as usize);
        assert!((set & !set).is_empty());
    }

    const SIDES: [u32; 10] = [1, 2, 3, 6, 8, 10, 11, 12, 19, 26];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn step_shifts_match_geometry_on_square_boards(
            bits in prop::collection::vec(any::<u64>(), 11),
            density in 0u32..4,
        ) {
            // Thin the random bits out sometimes so sparse sets get tested too.
            let bits: Vec<u64> = bits.iter().enumerate().map(|(i, &w)| match density {
                0 => w & w.rotate_left(7 + i as u32) & w.rotate_left(29),
                1 => w & w.rotate_left(13),
                2 => w,
                _ => w | w.rotate_left(5),
            }).collect();
            for side in SIDES {
                check_all_types(Geometry::square(side).unwrap(), &bits);
            }
        }

        #[test]
        fn step_shifts_match_geometry_on_any_board(
            bits in prop::collection::vec(any::<u64>(), 11),
            width in 1u32..=26,
            height in 1u32..=26,
        ) {
            check_all_types(Geometry::new(width, height).unwrap(), &bits);
        }

        #[test]
        fn word_shifts_match_a_model(
            bits in prop::collection::vec(any::<u64>(), 11),
            n in prop_oneof![0u32..=70, 0u32..=800],
        ) {
            check_word_shifts::<Bitboard64>(&bits, n);
            check_word_shifts::<Bitboard128>(&bits, n);
            check_word_shifts::<BitSet<4>>(&bits, n);
            check_word_shifts::<BoardSet>(&bits, n);
        }
    }

    #[test]
    fn step_masks_edges() {
        let g = Geometry::square(8).unwrap();
        let steps = StepMasks::<Bitboard64>::new(g).unwrap();
        let sq = |s: &str| g.parse_square(s).unwrap();
        let one = |s: &str| Bitboard64::from_square(sq(s));
        // h4 east would wrap to a5; a4 west to h3; a1 south-west off the board.
        assert_eq!(steps.shift(one("h4"), Direction::East), Bitboard64::EMPTY);
        assert_eq!(
            steps.shift(one("h4"), Direction::NorthEast),
            Bitboard64::EMPTY
        );
        assert_eq!(steps.shift(one("a4"), Direction::West), Bitboard64::EMPTY);
        assert_eq!(
            steps.shift(one("a4"), Direction::NorthWest),
            Bitboard64::EMPTY
        );
        assert_eq!(
            steps.shift(one("a1"), Direction::SouthWest),
            Bitboard64::EMPTY
        );
        assert_eq!(steps.shift(one("h8"), Direction::North), Bitboard64::EMPTY);
        assert_eq!(steps.shift(one("d4"), Direction::NorthEast), one("e5"));
        assert_eq!(steps.shift(one("d4"), Direction::SouthWest), one("c3"));
        assert_eq!(steps.dilate(one("a1")).count(), 3);
        assert_eq!(steps.dilate(one("d4")).count(), 8);
        // 7×7 in a u64: nothing may land on the 15 bits past the last cell.
        let g7 = Geometry::square(7).unwrap();
        let steps7 = StepMasks::<Bitboard64>::new(g7).unwrap();
        let top = Bitboard64::from_square(g7.parse_square("g7").unwrap());
        assert_eq!(steps7.shift(top, Direction::North), Bitboard64::EMPTY);
        assert_eq!(steps7.shift(top, Direction::NorthWest), Bitboard64::EMPTY);
        // A set type too small for the board has no masks.
        assert!(StepMasks::<Bitboard64>::new(Geometry::square(9).unwrap()).is_none());
        assert!(StepMasks::<Bitboard128>::new(Geometry::square(12).unwrap()).is_none());
        assert!(StepMasks::<BoardSet>::new(Geometry::square(26).unwrap()).is_some());
    }

    #[test]
    fn first_n_and_draw() {
        assert_eq!(Bitboard64::first_n(64).count(), 64);
        assert_eq!(Bitboard128::first_n(100).count(), 100);
        assert_eq!(BoardSet::first_n(676).count(), 676);
        let g = Geometry::new(3, 2).unwrap();
        let b: Bitboard64 = [Square(0), Square(4)].into_iter().collect();
        assert_eq!(b.draw(g), ".X.\nX..\n");
    }
}
