//! Everything make/unmake needs about one square, in one place: its Zobrist keys and its
//! slots on the four line masks of [`board_core::lines`] (where the line numbering is
//! documented).

use std::sync::OnceLock;

use board_core::{
    MAX_SIDE, Player, Square,
    lines::{self, Slot},
    zobrist,
};

const MAX: usize = MAX_SIDE as usize;

/// Everything make/unmake needs about one square, in one place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CellInfo {
    /// The Zobrist key of a stone of each player here.
    pub keys: [u64; 2],
    /// The square's slot on each axis, in [`board_core::Direction::AXES`] order.
    pub slots: [Slot; 4],
}

/// The [`CellInfo`] of every square of a `size × size` board, built once per size (empty
/// for a size above 26).
pub(crate) fn cells(size: u32) -> &'static [CellInfo] {
    static TABLES: [OnceLock<Box<[CellInfo]>>; MAX + 1] = [const { OnceLock::new() }; MAX + 1];
    match TABLES.get(size as usize) {
        Some(cell) => cell.get_or_init(|| build(size)),
        None => &[],
    }
}

fn build(size: u32) -> Box<[CellInfo]> {
    let keys = zobrist();
    lines::slots(size)
        .iter()
        .enumerate()
        .map(|(i, &slots)| {
            let sq = Square(i as u16);
            CellInfo {
                keys: [
                    keys.piece(Player::First.index(), sq),
                    keys.piece(Player::Second.index(), sq),
                ],
                slots,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use board_core::Geometry;

    use super::*;

    #[test]
    fn cells_hold_the_keys_and_the_shared_slots() {
        for size in [6u32, 7, 19, 26] {
            let g = Geometry::square(size).unwrap();
            let table = cells(size);
            assert_eq!(table.len(), g.cells());
            for sq in g.squares() {
                let cell = table[sq.index()];
                assert_eq!(cell.keys[0], zobrist().piece(0, sq));
                assert_eq!(cell.keys[1], zobrist().piece(1, sq));
                assert_eq!(cell.slots, lines::slots(size)[sq.index()]);
            }
        }
        assert!(cells(27).is_empty());
    }
}
