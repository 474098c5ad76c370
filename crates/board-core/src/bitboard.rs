//! Square sets as bits: [`Bitboard64`] and [`Bitboard128`] for boards that fit a machine word
//! (6×6, 8×8, 10×10) and [`BitSet`] for anything up to 26×26 (15×15, 19×19, 20×20, …).
//!
//! All three share one API, the [`SquareSet`] trait, so evaluators can be written once.
//! Bit `i` is the square with flat index `i`.

use std::{
    fmt,
    ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign},
};

use crate::{geometry::Geometry, square::Square};

/// The operations every square-set type offers.
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
    fn contains(&self, sq: Square) -> bool;
    fn insert(&mut self, sq: Square);
    fn remove(&mut self, sq: Square);
    fn toggle(&mut self, sq: Square);
    fn count(&self) -> u32;
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
            pub const EMPTY: $name = $name(0);

            #[inline]
            pub const fn from_square(sq: Square) -> $name {
                $name(1 << sq.0)
            }
            #[inline]
            pub const fn has(self, sq: Square) -> bool {
                (self.0 >> sq.0) & 1 != 0
            }
            #[inline]
            pub const fn with(self, sq: Square) -> $name {
                $name(self.0 | (1 << sq.0))
            }
            #[inline]
            pub const fn without(self, sq: Square) -> $name {
                $name(self.0 & !(1 << sq.0))
            }
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
                self.0 |= 1 << sq.0;
            }
            #[inline]
            fn remove(&mut self, sq: Square) {
                self.0 &= !(1 << sq.0);
            }
            #[inline]
            fn toggle(&mut self, sq: Square) {
                self.0 ^= 1 << sq.0;
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

    proptest! {
        #[test]
        fn word_sets_match_a_model(ops in prop::collection::vec((any::<bool>(), any::<u16>()), 0..200)) {
            check_against_model::<Bitboard64>(&ops);
            check_against_model::<Bitboard128>(&ops);
            check_against_model::<BoardSet>(&ops);
        }
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
