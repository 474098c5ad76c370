//! The connect6 move: one stone or an unordered pair of stones.

use board_core::Square;

/// One turn of connect6: a single stone (the first move of the game, or the last empty
/// square) or a pair of stones.
///
/// A pair is unordered: [`Move::pair`] stores the lower flat index first, so `pair(a, b)`
/// and `pair(b, a)` are the same move. `pair(a, a)` is representable (so that it can be
/// refused with a clear reason) but never legal. A move is 6 bytes, `Copy`, and ordered by
/// its first square, then single before pair, then second square: the order in which
/// [`generate_moves`](board_core::Rules::generate_moves) lists them.
///
/// ```
/// use board_core::Square;
/// use rules_connect6::Move;
/// let m = Move::pair(Square(40), Square(3));
/// assert_eq!(m, Move::pair(Square(3), Square(40)));
/// assert_eq!(m.stones(), (Square(3), Some(Square(40))));
/// assert!(m.is_pair() && !Move::single(Square(7)).is_pair());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    first: Square,
    second: Option<Square>,
}

impl Move {
    /// A single stone on `sq`.
    #[inline]
    pub const fn single(sq: Square) -> Move {
        Move {
            first: sq,
            second: None,
        }
    }

    /// A pair of stones, stored with the lower flat index first.
    #[inline]
    pub const fn pair(a: Square, b: Square) -> Move {
        if a.0 <= b.0 {
            Move {
                first: a,
                second: Some(b),
            }
        } else {
            Move {
                first: b,
                second: Some(a),
            }
        }
    }

    /// A pair whose squares the caller knows are in order (`a < b`).
    #[inline]
    pub(crate) const fn ordered_pair(a: Square, b: Square) -> Move {
        Move {
            first: a,
            second: Some(b),
        }
    }

    /// The (lower) first stone.
    #[inline]
    pub const fn first(self) -> Square {
        self.first
    }

    /// The second stone of a pair (the higher index), `None` for a single stone.
    #[inline]
    pub const fn second(self) -> Option<Square> {
        self.second
    }

    /// Both parts: `(first, second)`.
    #[inline]
    pub const fn stones(self) -> (Square, Option<Square>) {
        (self.first, self.second)
    }

    /// Whether this move places two stones.
    #[inline]
    pub const fn is_pair(self) -> bool {
        self.second.is_some()
    }

    /// How many stones this move places (1 or 2).
    #[inline]
    pub const fn len(self) -> usize {
        if self.second.is_some() { 2 } else { 1 }
    }

    /// Always `false`: a move places at least one stone (for clippy's `len` convention).
    #[inline]
    pub const fn is_empty(self) -> bool {
        false
    }

    /// Whether the move puts a stone on `sq`.
    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        self.first == sq || self.second == Some(sq)
    }

    /// The squares of the stones, lower index first.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        std::iter::once(self.first).chain(self.second)
    }
}
