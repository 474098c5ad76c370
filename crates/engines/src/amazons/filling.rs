//! How many moves a player can still make in its own regions once the queens are separated:
//! the exact count, where a bounded search finds it.
//!
//! Once no empty square is reachable by both players, the game is a race: each side makes
//! moves in its own regions, and the side to move loses when it has no more moves than the
//! opponent. A region's empty squares bound its moves (each move fills one square), but a
//! region can be **defective**: its shape leaves squares a queen cannot fill. The smallest
//! case is a queen on b2 whose only empty neighbours are a1 and c1: stepping to either one
//! forces the arrow back onto b2, which walls the other square off; two squares, one move.
//! Counting squares there calls a lost race won (three separated endings against a Botzone
//! bot were misjudged by two squares, each time a game the search had called won or level).
//!
//! [`Filler::moves`] splits the player's squares into regions (king-connected empty squares
//! with the queens next to them) and searches each for its longest sequence of moves, with
//! a node budget. A region whose search ends within the budget counts its exact number of
//! moves; one that runs out of budget, or has more than [`MAX_REGION_SQUARES`] squares,
//! counts its empty squares, the bound the evaluation used before. Results are kept by
//! region (exact ones and given-up ones), so a search that meets the same region again (it
//! does, move after move) looks it up.

use std::collections::{HashMap, HashSet};

use board_core::Bitboard128;

use super::{Position, bit, squares};

/// Regions with more empty squares than this count their squares without a search.
pub const MAX_REGION_SQUARES: u32 = 20;
/// Search nodes (region positions expanded) one region of a [`Filler::moves`] call may
/// spend. The count is made at every separated leaf of the search: with 3,000 nodes and
/// regions of up to 32 squares, 10×10 searches saw 2-3 times fewer nodes in the same time
/// in separated endings and lost a paired match (10-19 when stopped).
pub const NODE_BUDGET: u32 = 300;
/// Region results kept, exact or given up (each table is emptied when full).
const CACHE_ENTRIES: usize = 1 << 16;

/// A region: the board's side (the same bits are other squares on another board), its
/// empty squares and its queens. Its count depends on nothing else.
type RegionKey = (u32, u128, u128);

/// Region counts by region (board side, empty squares, queens), kept between calls.
#[derive(Debug, Default)]
pub struct Filler {
    exact: HashMap<RegionKey, u8>,
    /// Regions whose search ran out of budget: they count their squares at once next time.
    given_up: HashSet<RegionKey>,
    /// Nodes left in the current call.
    nodes_left: u32,
}

impl Filler {
    /// The moves the queens `queens` can make one after another in the empty squares
    /// `empty` (no other piece moves: the regions are the player's own), summed over the
    /// regions. A region solved within the budget counts exactly; any other counts its
    /// empty squares (an upper bound). `pos` gives only the board's lines.
    pub fn moves(&mut self, pos: &Position, empty: u128, queens: u128) -> u32 {
        regions(pos, empty, queens)
            .map(|(e, q)| {
                if self.given_up.contains(&(pos.size(), e, q)) {
                    return e.count_ones();
                }
                self.nodes_left = NODE_BUDGET;
                match self.region(pos, e, q) {
                    Some(n) => u32::from(n),
                    None => {
                        if self.given_up.len() >= CACHE_ENTRIES {
                            self.given_up.clear();
                        }
                        self.given_up.insert((pos.size(), e, q));
                        e.count_ones()
                    }
                }
            })
            .sum()
    }

    /// The sum over the regions of `empty` and `queens`, `None` if any region runs out of
    /// budget.
    fn split(&mut self, pos: &Position, empty: u128, queens: u128) -> Option<u32> {
        let mut total = 0;
        for (e, q) in regions(pos, empty, queens) {
            total += u32::from(self.region(pos, e, q)?);
        }
        Some(total)
    }

    /// The longest sequence of moves in one region (`empty` king-connected, every queen
    /// next to it), `None` if the budget runs out first.
    fn region(&mut self, pos: &Position, empty: u128, queens: u128) -> Option<u8> {
        let n = empty.count_ones();
        if n == 0 {
            return Some(0);
        }
        if n > MAX_REGION_SQUARES {
            return None;
        }
        if let Some(&v) = self.exact.get(&(pos.size(), empty, queens)) {
            return Some(v);
        }
        if self.nodes_left == 0 {
            return None;
        }
        self.nodes_left -= 1;
        let mut moves = region_moves(pos, empty, queens);
        // Warnsdorff's rule first: a step to the neighbour with the fewest empty neighbours,
        // shooting back where the queen came from, fills a corridor or a blob square by
        // square; so a perfect fill, which ends the search at once, is usually found first.
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.order));
        let mut best = 0u8;
        for m in moves {
            let after = (empty | bit_u(m.from)) & !bit_u(m.to) & !bit_u(m.arrow);
            let rest = self.split(pos, after, (queens & !bit_u(m.from)) | bit_u(m.to))?;
            // One move per filled square: at most n − 1 after this one.
            best = best.max(1 + rest as u8);
            if u32::from(best) == n {
                break;
            }
        }
        if self.exact.len() >= CACHE_ENTRIES {
            self.exact.clear();
        }
        self.exact.insert((pos.size(), empty, queens), best);
        Some(best)
    }
}

/// One move inside a region, as square indices, with its place in the search order.
struct RegionMove {
    from: usize,
    to: usize,
    arrow: usize,
    order: i32,
}

#[inline]
fn bit_u(i: usize) -> u128 {
    1u128 << (i & 127)
}

/// Every move of `queens` through `empty` (everything else blocks).
fn region_moves(pos: &Position, empty: u128, queens: u128) -> Vec<RegionMove> {
    let board = pos.board_squares().0;
    let mut out = Vec::new();
    for from in squares(Bitboard128(queens)) {
        let from_i = from.index();
        let near = pos.neighbours(from).0;
        let dests = pos.queen_reach_in(from, Bitboard128(board & !empty)).0 & empty;
        for to in squares(Bitboard128(dests)) {
            let vacated = (empty | bit(from)) & !bit(to);
            let onward = (pos.neighbours(to).0 & vacated).count_ones() as i32;
            let step = near & bit(to) != 0;
            let arrows = pos.queen_reach_in(to, Bitboard128(board & !vacated)).0 & vacated;
            for arrow in squares(Bitboard128(arrows)) {
                let back = arrow == from;
                let order = 100 * i32::from(step && back) + 10 * i32::from(step)
                    - onward
                    - (pos.neighbours(arrow).0 & vacated).count_ones() as i32;
                out.push(RegionMove {
                    from: from_i,
                    to: to.index(),
                    arrow: arrow.index(),
                    order,
                });
            }
        }
    }
    out
}

/// The regions of `empty` that `queens` touch: each king-connected set of empty squares
/// next to a queen, with the queens next to it. Empty squares no queen touches are dropped
/// (nobody fills them), and so are queens with no empty neighbour.
fn regions(pos: &Position, empty: u128, queens: u128) -> impl Iterator<Item = (u128, u128)> {
    let mut unassigned = queens;
    std::iter::from_fn(move || {
        while unassigned != 0 {
            let q = unassigned.trailing_zeros() as usize;
            unassigned &= unassigned - 1;
            let mut members = bit_u(q);
            let mut region = neighbours_of(pos, members) & empty;
            if region == 0 {
                continue;
            }
            // A queen joins the squares on each of its sides: grow through empty squares,
            // then through the queens next to them, until nothing is added.
            let mut frontier = region;
            while frontier != 0 {
                let mut next = neighbours_of(pos, frontier) & empty & !region;
                let joined = queens & neighbours_of(pos, frontier) & !members;
                members |= joined;
                next |= neighbours_of(pos, joined) & empty & !region;
                region |= next;
                frontier = next;
            }
            unassigned &= !members;
            return Some((region, members));
        }
        None
    })
}

/// Every square next to one of `set`.
fn neighbours_of(pos: &Position, set: u128) -> u128 {
    squares(Bitboard128(set)).fold(0, |acc, s| acc | pos.neighbours(s).0)
}
