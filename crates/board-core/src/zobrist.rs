//! Zobrist keys, generated once from a fixed `rand_chacha` seed so every run on every
//! platform hashes a position to the same 64-bit value.
//!
//! Games index the shared table: `piece(kind, square)` for up to [`PIECE_KINDS`] kinds of
//! thing on a square (stones, queens, arrows, …), `side(player)` for the side to move, and
//! `aux(i)` for any other state that affects legality (pieces in hand, phase, …).
//!
//! One table serves every board size: the key of a square is keyed by its flat index, so a
//! board of `n` cells uses the first `n` keys of each kind. A hot make/unmake path takes a
//! kind's whole row with [`Zobrist::piece_keys`] (a fixed-size array, so an index masked
//! below its length needs no bounds check) instead of copying the keys per board size.

use std::sync::OnceLock;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::{player::Player, square::MAX_CELLS, square::Square};

/// How many piece kinds `piece` keys exist for.
pub const PIECE_KINDS: usize = 4;
/// How many auxiliary keys exist.
pub const AUX_KEYS: usize = 2048;

const SEED: u64 = 0xB0A2_D1AB_5EED_0001;

/// The key table. Get it with [`zobrist`].
#[derive(Debug)]
pub struct Zobrist {
    pieces: Box<[u64]>,
    side: [u64; 2],
    aux: Box<[u64]>,
}

/// The process-wide key table (built on first use).
pub fn zobrist() -> &'static Zobrist {
    static KEYS: OnceLock<Zobrist> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = ChaCha20Rng::seed_from_u64(SEED);
        let pieces = (0..PIECE_KINDS * MAX_CELLS)
            .map(|_| rng.next_u64())
            .collect();
        let side = [rng.next_u64(), rng.next_u64()];
        let aux = (0..AUX_KEYS).map(|_| rng.next_u64()).collect();
        Zobrist { pieces, side, aux }
    })
}

impl Zobrist {
    /// The key of a piece of `kind` (`0..PIECE_KINDS`) on `sq`; 0 for an out-of-range pair.
    #[inline]
    pub fn piece(&self, kind: usize, sq: Square) -> u64 {
        if kind < PIECE_KINDS && sq.index() < MAX_CELLS {
            self.pieces[kind * MAX_CELLS + sq.index()]
        } else {
            0
        }
    }

    /// Every key of piece `kind`, indexed by flat square index; `None` for a kind past
    /// [`PIECE_KINDS`].
    #[inline]
    pub fn piece_keys(&self, kind: usize) -> Option<&[u64; MAX_CELLS]> {
        self.pieces
            .get(kind * MAX_CELLS..(kind + 1) * MAX_CELLS)?
            .try_into()
            .ok()
    }

    /// `side(First) ^ side(Second)`: what passing the turn does to a hash.
    #[inline]
    pub fn side_toggle(&self) -> u64 {
        self.side[0] ^ self.side[1]
    }

    /// The key for `player` being on move.
    #[inline]
    pub fn side(&self, player: Player) -> u64 {
        self.side[player.index()]
    }

    /// Auxiliary key `i` (`0..AUX_KEYS`); 0 for an index past the end.
    #[inline]
    pub fn aux(&self, i: usize) -> u64 {
        self.aux.get(i).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    const PINNED: u64 = 0xb643_2f53_656c_907d;

    #[test]
    fn keys_are_fixed_and_distinct() {
        let z = zobrist();
        // Pinned so that a change of generator or seed (which would silently change every
        // stored hash and bench signature) is noticed.
        assert_eq!(
            z.piece(0, Square(0)),
            PINNED,
            "first key: {:#x}",
            z.piece(0, Square(0))
        );
        let mut all = HashSet::new();
        for kind in 0..PIECE_KINDS {
            for sq in 0..MAX_CELLS as u16 {
                assert!(all.insert(z.piece(kind, Square(sq))));
            }
        }
        for i in 0..AUX_KEYS {
            assert!(all.insert(z.aux(i)));
        }
        assert!(all.insert(z.side(Player::First)));
        assert!(all.insert(z.side(Player::Second)));
        assert_eq!(z.piece(PIECE_KINDS, Square(0)), 0);
        for kind in 0..PIECE_KINDS {
            let row = z.piece_keys(kind).unwrap();
            for sq in [0, 1, 99, MAX_CELLS - 1] {
                assert_eq!(row[sq], z.piece(kind, Square(sq as u16)));
            }
        }
        assert_eq!(z.piece_keys(PIECE_KINDS), None);
        assert_eq!(
            z.side_toggle(),
            z.side(Player::First) ^ z.side(Player::Second)
        );
        assert_eq!(z.piece(0, Square(MAX_CELLS as u16)), 0);
    }
}
