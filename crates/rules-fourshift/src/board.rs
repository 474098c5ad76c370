//! The stones of both players as two square sets, with the move generator and line
//! detector written once for every set type (see [`crate::bits`]).

use board_core::{BoardSet, Direction, Geometry, Player, Square};

use crate::{
    bits::{Bits, Masks, WORD_MAX_SIDE},
    moves::Move,
};

/// Both players' stones on a board of one size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stones<B: Bits> {
    /// Indexed by [`Player::index`].
    pub sets: [B; 2],
    masks: &'static Masks<B>,
    width: u32,
}

impl<B: Bits> PartialEq for Stones<B> {
    fn eq(&self, other: &Self) -> bool {
        self.sets == other.sets && self.width == other.width
    }
}

impl<B: Bits> Stones<B> {
    fn new(size: u32) -> Self {
        Stones {
            sets: [B::default(); 2],
            masks: B::masks(size),
            width: size,
        }
    }

    #[inline]
    pub fn occupied(&self) -> B {
        self.sets[0].or(self.sets[1])
    }

    #[inline]
    pub fn empty(&self) -> B {
        self.masks.all.and_not(self.occupied())
    }

    /// Adds or removes a piece; squares off the board are ignored (only an illegal move
    /// passed to `make_move` has any).
    #[inline]
    pub fn toggle(&mut self, player: Player, sq: Square) {
        if u32::from(sq.0) < self.width * self.width {
            self.sets[player.index()].toggle(sq);
        }
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Player> {
        if self.sets[0].has(sq) {
            Some(Player::First)
        } else if self.sets[1].has(sq) {
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
        let w = self.width;
        [
            own.shl(w).and(empty),
            own.and(self.masks.has_east).shl(1).and(empty),
            own.shr(w).and(empty),
            own.and(self.masks.has_west).shr(1).and(empty),
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
        !n.or(e).or(s).or(w).is_empty()
    }

    /// Appends a placement on every empty square, lowest square first.
    #[inline]
    pub fn push_places(&self, moves: &mut Vec<Move>) {
        let mut empty = self.empty();
        while let Some(sq) = empty.pop() {
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
            while let Some(to) = targets.pop() {
                moves.push(Move::Shift {
                    from: Square(to.0.wrapping_add(back)),
                    to,
                });
            }
        }
    }

    /// Whether `player` has `k` or more pieces in an unbroken line through `sq`.
    #[inline]
    pub fn has_line_through(&self, player: Player, sq: Square, k: u32, g: &Geometry) -> bool {
        if B::WHOLE_BOARD_LINES {
            self.has_line(player, k)
        } else {
            self.walk_line_through(player, sq, k, g)
        }
    }

    /// Walks the four lines through `sq` with the geometry's step tables.
    fn walk_line_through(&self, player: Player, sq: Square, k: u32, g: &Geometry) -> bool {
        let own = self.sets[player.index()];
        if !g.contains(sq) || !own.has(sq) {
            return false;
        }
        for axis in Direction::AXES {
            let mut n = 1;
            for dir in [axis, axis.opposite()] {
                let mut at = sq;
                while let Some(next) = g.step(at, dir) {
                    if !own.has(next) {
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
    /// grown one step at a time with shifts (the edge masks stop rows from wrapping).
    pub fn has_line(&self, player: Player, k: u32) -> bool {
        let own = self.sets[player.index()];
        let w = self.width;
        let m = self.masks;
        // (shift towards the start of the run, squares that may continue it)
        let axes = [
            (1, m.has_east),     // east
            (w, m.all),          // north
            (w + 1, m.has_east), // north-east
            (w - 1, m.has_west), // north-west
        ];
        axes.into_iter().any(|(shift, keep)| {
            let cont = own.and(keep);
            let mut runs = own;
            for _ in 1..k {
                runs = cont.and(runs.shr(shift));
                if runs.is_empty() {
                    return false;
                }
            }
            !runs.is_empty()
        })
    }
}

/// A board of any allowed size: one `u64` per player up to 8×8, a [`BoardSet`] beyond.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Board {
    Word(Stones<u64>),
    Wide(Stones<BoardSet>),
}

impl Board {
    pub fn new(size: u32) -> Board {
        if size <= WORD_MAX_SIDE {
            Board::Word(Stones::new(size))
        } else {
            Board::Wide(Stones::new(size))
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
