//! The VCF threat search on the pattern state alone ([`GomokuState`], without the rules
//! position): a four and its block update only the patterns, and the search can be asked
//! for either colour, whoever is to move ("would the opponent win by fours if it were its
//! turn").

use std::{collections::HashSet, time::Instant};

use board_core::{Player, Square, zobrist};
use smallvec::SmallVec;

use super::board::GomokuState;

/// Maximum number of attacker fours in a VCF line.
pub(crate) const VCF_MAX_FOURS: u32 = 16;

/// A VCF search: the attacker plays only fours (each forcing one reply) until it makes two
/// five points (an open four or a double four) while the defender has none. The defender's
/// counter-fours are respected: a defender five point must be blocked, and only by a four.
struct Vcf<'a> {
    st: &'a mut GomokuState,
    attacker: Player,
    nodes: u32,
    budget: u32,
    /// Positions (by `hash`) where the search failed within its budget.
    failed: Option<HashSet<u64>>,
    /// Zobrist key of the stones placed by this search.
    hash: u64,
    deadline: Option<Instant>,
}

impl Vcf<'_> {
    /// Places a stone and keeps the hash.
    #[inline]
    fn put(&mut self, sq: Square, player: Player) {
        self.st.put(sq, player);
        self.hash ^= zobrist().piece(player.index(), sq);
    }

    #[inline]
    fn take(&mut self, sq: Square, player: Player) {
        self.st.take(sq, player);
        self.hash ^= zobrist().piece(player.index(), sq);
    }

    /// With the attacker to move and no five point of its own: the turns to a win and the
    /// first move.
    fn search(&mut self, fours_left: u32) -> Option<(u32, Square)> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(64) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.budget = 0;
        }
        if self.nodes > self.budget || fours_left == 0 {
            return None;
        }
        let key = self.hash;
        if self.failed.as_ref().is_some_and(|f| f.contains(&key)) {
            return None;
        }
        let a = self.attacker;
        let d = a.other();
        let st = &*self.st;
        let forced = st.five_point(d);
        if forced.is_some() && st.fives(d).iter().nth(1).is_some() {
            return None;
        }
        let mut moves: SmallVec<[(i32, Square); 16]> = st
            .fours(a)
            .iter()
            .filter(|&m| forced.is_none_or(|f| f == m))
            .map(|m| (st.order_values(a, m).0, m))
            .collect();
        moves.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        for &(_, m) in &moves {
            self.put(m, a);
            let (first, second) = {
                let mut fives = self.st.fives(a).iter();
                (fives.next(), fives.next())
            };
            let result = match (first, second) {
                (None, _) => None,
                (Some(_), Some(_)) => Some((3, m)),
                (Some(b), None) => {
                    // The defender's forced block; if it makes a five there, the attack
                    // has lost.
                    if self.st.fives(d).iter().any(|x| x == b) {
                        None
                    } else {
                        self.put(b, d);
                        let r = self.search(fours_left - 1);
                        self.take(b, d);
                        r.map(|(t, _)| (t + 2, m))
                    }
                }
            };
            self.take(m, a);
            if result.is_some() {
                return result;
            }
            if self.nodes > self.budget {
                return None;
            }
        }
        if let Some(f) = self.failed.as_mut()
            && self.nodes <= self.budget
        {
            f.insert(key);
        }
        None
    }
}

/// A win for `attacker` by continuous fours on `st`, as if it were `attacker`'s turn,
/// within `budget` VCF nodes and before `deadline` (`memo`: remember failed positions):
/// the turns to the win (1: a five now) and the first move. `st` is left as it was.
pub(crate) fn vcf(
    st: &mut GomokuState,
    attacker: Player,
    budget: u32,
    memo: bool,
    deadline: Option<Instant>,
) -> Option<(u32, Square)> {
    if budget == 0 {
        return None;
    }
    if let Some(sq) = st.five_point(attacker) {
        return Some((1, sq));
    }
    if st.fours(attacker).is_empty() || st.fives(attacker.other()).iter().nth(1).is_some() {
        return None;
    }
    let mut search = Vcf {
        st,
        attacker,
        nodes: 0,
        budget,
        failed: memo.then(HashSet::new),
        hash: 0,
        deadline,
    };
    search.search(VCF_MAX_FOURS)
}
