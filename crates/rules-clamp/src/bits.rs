//! The bit-set layer under the board: one trait ([`Bits`]) with shift operations, implemented
//! by `u64` (6×6 and 8×8), `u128` (10×10) and multi-word [`Wide`] sets (12×12 to 26×26),
//! and the per-board-size tables ([`Tables`]) the move generator reads.
//!
//! Bit `i` is the square with flat index `i = row * width + col`. A shift by one step in a
//! direction is a word shift plus a mask that removes what wrapped over the left or right
//! edge, so nothing ever wraps from one row to the next.

use std::{
    any::{Any, TypeId},
    collections::HashMap,
    fmt,
    hash::Hash,
    ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not},
    sync::{Mutex, OnceLock},
};

use board_core::{Direction, Geometry, Player, Square, zobrist};

/// A fixed-capacity set of flat square indices.
pub(crate) trait Bits:
    Copy
    + Eq
    + Hash
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares fit.
    const CAPACITY: usize;
    const ZERO: Self;
    /// The set `{i}`; empty if `i` is past the capacity.
    fn bit(i: usize) -> Self;
    fn has(self, i: usize) -> bool;
    /// Shift towards higher indices by `n` (`1..64`).
    fn shl(self, n: u32) -> Self;
    /// Shift towards lower indices by `n` (`1..64`).
    fn shr(self, n: u32) -> Self;
    fn count(self) -> u32;
    fn is_zero(self) -> bool;
    /// The lowest index; only meaningful on a non-empty set.
    fn lowest(self) -> usize;
    /// The set without its lowest index.
    fn clear_lowest(self) -> Self;
    /// The words, lowest first, for conversion into board-core's set types.
    fn words(self) -> impl Iterator<Item = u64>;
}

impl Bits for u64 {
    const CAPACITY: usize = 64;
    const ZERO: u64 = 0;
    #[inline(always)]
    fn bit(i: usize) -> u64 {
        if i < 64 { 1 << i } else { 0 }
    }
    #[inline(always)]
    fn has(self, i: usize) -> bool {
        i < 64 && (self >> i) & 1 != 0
    }
    #[inline(always)]
    fn shl(self, n: u32) -> u64 {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> u64 {
        self >> n
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn clear_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
    fn words(self) -> impl Iterator<Item = u64> {
        std::iter::once(self)
    }
}

impl Bits for u128 {
    const CAPACITY: usize = 128;
    const ZERO: u128 = 0;
    #[inline(always)]
    fn bit(i: usize) -> u128 {
        if i < 128 { 1 << i } else { 0 }
    }
    #[inline(always)]
    fn has(self, i: usize) -> bool {
        i < 128 && (self >> i) & 1 != 0
    }
    #[inline(always)]
    fn shl(self, n: u32) -> u128 {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> u128 {
        self >> n
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn clear_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
    fn words(self) -> impl Iterator<Item = u64> {
        [self as u64, (self >> 64) as u64].into_iter()
    }
}

/// A set of up to `64 * W` squares, for boards larger than 10×10.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Wide<const W: usize>([u64; W]);

impl<const W: usize> fmt::Debug for Wide<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut set = f.debug_set();
        let mut b = *self;
        while !b.is_zero() {
            set.entry(&b.lowest());
            b = b.clear_lowest();
        }
        set.finish()
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for Wide<W> {
            type Output = Wide<W>;
            #[inline(always)]
            fn $f(mut self, rhs: Wide<W>) -> Wide<W> {
                for (a, b) in self.0.iter_mut().zip(rhs.0) {
                    *a $op b;
                }
                self
            }
        }
        impl<const W: usize> $tra for Wide<W> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Wide<W>) {
                for (a, b) in self.0.iter_mut().zip(rhs.0) {
                    *a $op b;
                }
            }
        }
    };
}
wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> Not for Wide<W> {
    type Output = Wide<W>;
    #[inline(always)]
    fn not(mut self) -> Wide<W> {
        for a in &mut self.0 {
            *a = !*a;
        }
        self
    }
}

impl<const W: usize> Bits for Wide<W> {
    const CAPACITY: usize = 64 * W;
    const ZERO: Wide<W> = Wide([0; W]);
    #[inline(always)]
    fn bit(i: usize) -> Wide<W> {
        let mut b = Self::ZERO;
        if let Some(w) = b.0.get_mut(i / 64) {
            *w = 1 << (i % 64);
        }
        b
    }
    #[inline(always)]
    fn has(self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| (w >> (i % 64)) & 1 != 0)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Wide<W> {
        let mut out = [0; W];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.0[i] << n;
            if i > 0 {
                *o |= self.0[i - 1] >> (64 - n);
            }
        }
        Wide(out)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Wide<W> {
        let mut out = [0; W];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.0[i] >> n;
            if i + 1 < W {
                *o |= self.0[i + 1] << (64 - n);
            }
        }
        Wide(out)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return i * 64 + w.trailing_zeros() as usize;
            }
        }
        Self::CAPACITY
    }
    #[inline(always)]
    fn clear_lowest(mut self) -> Wide<W> {
        for w in &mut self.0 {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        self
    }
    fn words(self) -> impl Iterator<Item = u64> {
        self.0.into_iter()
    }
}

/// Iterates over the indices of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BitIter<B>(pub B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_zero() {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.clear_lowest();
        Some(i)
    }
}

/// Direction indices, in the order of [`Direction::ALL`].
pub(crate) const NORTH: usize = 0;
pub(crate) const NORTH_EAST: usize = 1;
pub(crate) const EAST: usize = 2;
pub(crate) const SOUTH_EAST: usize = 3;
pub(crate) const SOUTH: usize = 4;
pub(crate) const SOUTH_WEST: usize = 5;
pub(crate) const WEST: usize = 6;
pub(crate) const NORTH_WEST: usize = 7;

/// Everything about one board size and zone depth that move generation needs, built once
/// and shared by every position with that size and zone (see [`Tables::get`]).
#[derive(Debug)]
pub(crate) struct Tables<B> {
    pub width: u32,
    /// Every square of the board.
    pub board: B,
    /// Every square except column `a`: where an eastward step may land.
    pub not_first_col: B,
    /// Every square except the last column: where a westward step may land.
    pub not_last_col: B,
    /// The drop zone of each player (`[First, Second]`).
    pub zone: [B; 2],
    /// Flat-index change of one step in each direction.
    pub offset: [isize; 8],
    /// `ring2[sq]`: the squares exactly two steps away in a straight line (capture partners).
    pub ring2: Box<[B]>,
    /// Zobrist keys of a piece of each player on each square.
    pub keys: [Box<[u64]>; 2],
    /// Zobrist keys of each player being on move.
    pub side: [u64; 2],
    /// `side[0] ^ side[1]`: what passing the turn does to the hash.
    pub side_toggle: u64,
}

impl<B: Bits> Tables<B> {
    /// The shared tables of a `size × size` board with drop zones `zone` rows deep.
    pub fn get(geometry: &Geometry, zone: u32) -> &'static Tables<B> {
        let size = geometry.width();
        type Cache = HashMap<(TypeId, u32, u32), &'static (dyn Any + Send + Sync)>;
        static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
        let key = (TypeId::of::<B>(), size, zone);
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(t) = cache.get(&key).and_then(|t| t.downcast_ref::<Tables<B>>()) {
            return t;
        }
        let tables: &'static Tables<B> = Box::leak(Box::new(Tables::build(geometry, zone)));
        cache.insert(key, tables);
        tables
    }

    fn build(geometry: &Geometry, zone: u32) -> Tables<B> {
        let size = geometry.width();
        let width = size;
        let cells = geometry.cells();
        debug_assert!(cells <= B::CAPACITY);
        let set = |f: &dyn Fn(u32, u32) -> bool| {
            let mut b = B::ZERO;
            for i in 0..cells {
                if f(i as u32 % width, i as u32 / width) {
                    b |= B::bit(i);
                }
            }
            b
        };
        let board = set(&|_, _| true);
        let not_first_col = set(&|c, _| c != 0);
        let not_last_col = set(&|c, _| c != width - 1);
        let zone = [set(&|_, r| r >= size - zone), set(&|_, r| r < zone)];
        let w = width as isize;
        let offset = [w, w + 1, 1, 1 - w, -w, -w - 1, -1, w - 1];
        let ring2 = (0..cells)
            .map(|i| {
                let mut b = B::ZERO;
                for d in Direction::ALL {
                    if let Some(two) = geometry
                        .step(Square(i as u16), d)
                        .and_then(|one| geometry.step(one, d))
                    {
                        b |= B::bit(two.index());
                    }
                }
                b
            })
            .collect();
        let z = zobrist();
        let keys = [0, 1].map(|p| (0..cells).map(|i| z.piece(p, Square(i as u16))).collect());
        Tables {
            width,
            board,
            not_first_col,
            not_last_col,
            zone,
            offset,
            ring2,
            keys,
            side: [z.side(Player::First), z.side(Player::Second)],
            side_toggle: z.side(Player::First) ^ z.side(Player::Second),
        }
    }

    /// The squares one step from the squares of `b` in direction `d` (no wrapping).
    #[inline(always)]
    pub fn shift(&self, b: B, d: usize) -> B {
        let w = self.width;
        match d {
            NORTH => b.shl(w) & self.board,
            NORTH_EAST => b.shl(w + 1) & self.not_first_col,
            EAST => b.shl(1) & self.not_first_col,
            SOUTH_EAST => b.shr(w - 1) & self.not_first_col,
            SOUTH => b.shr(w),
            SOUTH_WEST => b.shr(w + 1) & self.not_last_col,
            WEST => b.shr(1) & self.not_last_col,
            _ => b.shl(w - 1) & self.not_last_col,
        }
    }

    /// The squares adjacent (in any of the 8 directions) to some square of `b`.
    #[inline(always)]
    pub fn dilate(&self, b: B) -> B {
        let w = self.width;
        let east = b.shl(1) | b.shl(w + 1) | b.shr(w - 1);
        let west = b.shr(1) | b.shr(w + 1) | b.shl(w - 1);
        (east & self.not_first_col)
            | (west & self.not_last_col)
            | (b.shl(w) & self.board)
            | b.shr(w)
    }

    /// The direction index of a one-step flat-index change (`delta` one of `offset`).
    #[inline(always)]
    pub fn direction_of(&self, delta: isize) -> usize {
        let w = self.width as isize;
        let dr = if delta > 1 {
            1
        } else if delta < -1 {
            -1
        } else {
            0
        };
        let dc = delta - dr * w;
        // Indexed by (dr + 1) * 3 + (dc + 1); the centre is never asked for.
        const BY_DELTA: [usize; 9] = [
            SOUTH_WEST, SOUTH, SOUTH_EAST, WEST, NORTH, EAST, NORTH_WEST, NORTH, NORTH_EAST,
        ];
        BY_DELTA[((dr + 1) * 3 + (dc + 1)).clamp(0, 8) as usize]
    }
}
