//! The per-board-size tables ([`Tables`]) the move generator reads, over board-core's bit
//! sets ([`Bitboard64`](board_core::Bitboard64) for 6×6 and 8×8,
//! [`Bitboard128`](board_core::Bitboard128) for 10×10, [`BitSet`](board_core::BitSet) for
//! 12×12 to 26×26) and their edge-masked one-step shifts ([`StepMasks`]).
//!
//! Bit `i` is the square with flat index `i = row * width + col`.

use std::{
    any::{Any, TypeId},
    collections::HashMap,
    sync::{Mutex, OnceLock},
};

use board_core::{Direction, Geometry, MAX_CELLS, Player, ShiftSet, Square, StepMasks, zobrist};

/// The bit-set types a clamp board can live in.
pub(crate) trait Bits: ShiftSet + Send + Sync + 'static {}

impl<B: ShiftSet + Send + Sync + 'static> Bits for B {}

/// The set `{i}` (`i` on the board).
#[inline(always)]
pub(crate) fn bit<B: Bits>(i: usize) -> B {
    let mut b = B::empty();
    b.insert(Square(i as u16));
    b
}

/// Everything about one board size and zone depth that move generation needs, built once
/// and shared by every position with that size and zone (see [`Tables::get`]).
#[derive(Debug)]
pub(crate) struct Tables<B> {
    pub width: u32,
    /// The edge masks of one-step shifts, and every square of the board.
    pub steps: StepMasks<B>,
    /// The drop zone of each player (`[First, Second]`).
    pub zone: [B; 2],
    /// Flat-index change of one step in each direction.
    pub offset: [isize; 8],
    /// `ring2[sq]`: the squares exactly two steps away in a straight line (capture partners).
    pub ring2: Box<[B]>,
    /// Zobrist keys of a piece of each player on each square (board-core's rows, indexed by
    /// flat square).
    pub keys: [&'static [u64; MAX_CELLS]; 2],
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
        // `Boards::new` picks a set type that holds the board.
        let steps = StepMasks::new(geometry).expect("the set type holds the board");
        let rows = |f: &dyn Fn(u32) -> bool| -> B {
            geometry
                .squares()
                .filter(|&sq| f(geometry.row(sq)))
                .collect()
        };
        let zone = [rows(&|r| r >= size - zone), rows(&|r| r < zone)];
        let w = width as isize;
        let offset = [w, w + 1, 1, 1 - w, -w, -w - 1, -1, w - 1];
        let ring2 = (0..cells)
            .map(|i| {
                Direction::ALL
                    .into_iter()
                    .filter_map(|d| {
                        geometry
                            .step(Square(i as u16), d)
                            .and_then(|one| geometry.step(one, d))
                    })
                    .collect()
            })
            .collect();
        let z = zobrist();
        let keys = [0, 1].map(|p| z.piece_keys(p).expect("kinds 0 and 1 exist"));
        Tables {
            width,
            steps,
            zone,
            offset,
            ring2,
            keys,
            side: [z.side(Player::First), z.side(Player::Second)],
            side_toggle: z.side_toggle(),
        }
    }

    /// The direction index ([`Direction::index`]) of a one-step flat-index change (`delta` one of `offset`).
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
        use Direction::*;
        const BY_DELTA: [usize; 9] = [
            SouthWest.index(),
            South.index(),
            SouthEast.index(),
            West.index(),
            North.index(),
            East.index(),
            NorthWest.index(),
            North.index(),
            NorthEast.index(),
        ];
        BY_DELTA[((dr + 1) * 3 + (dc + 1)).clamp(0, 8) as usize]
    }
}
