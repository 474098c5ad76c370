//! Threat searches on the pattern state alone ([`GomokuState`], without the rules
//! position), so they can be asked for either colour whoever is to move: "can the side to
//! move win by continuous fours" (the VCF of the search) and "would the opponent, if it
//! were its turn" (the question behind defence generation).

use std::{collections::HashSet, time::Instant};

use board_core::{Player, Square, zobrist};

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
        let mut moves: Vec<(i32, Square)> = st
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

/// Whether `attacker` could make any four (so a VCF is possible at all).
#[inline]
pub(crate) fn may_have_vcf(st: &GomokuState, attacker: Player) -> bool {
    !st.fours(attacker).is_empty() || !st.fives(attacker).is_empty()
}

/// Most threat moves an attacker node of the VCT tries (best by ordering value).
const VCT_MAX_MOVES: usize = 12;
/// Most replies a defender node of the VCT tries.
const VCT_MAX_REPLIES: usize = 16;
/// VCF budget of each VCF the VCT asks (the attacker's at its nodes, the defender's after
/// a three).
const VCT_VCF_BUDGET: u32 = 300;

/// A VCT search (victory by continuous threats): the attacker plays fours and open threes;
/// after a four the defender must block, after a three the defender may block at any
/// point where the attacker would make a four, or answer with a four of its own (which
/// the attacker must block), and wins outright if it has a VCF of its own (a three gives
/// it a move).
struct Vct<'a> {
    st: &'a mut GomokuState,
    attacker: Player,
    nodes: u32,
    budget: u32,
    failed: HashSet<u64>,
    hash: u64,
    deadline: Option<Instant>,
}

impl Vct<'_> {
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

    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(32) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.budget = 0;
        }
        self.nodes > self.budget
    }

    /// The attacker to move: a first move that wins by threats within `threats` more
    /// threes.
    fn attack(&mut self, threats: u32) -> Option<Square> {
        if self.out_of_budget() {
            return None;
        }
        let a = self.attacker;
        let d = a.other();
        if let Some(sq) = self.st.five_point(a) {
            return Some(sq);
        }
        let key = self.hash ^ u64::from(threats);
        if self.failed.contains(&key) {
            return None;
        }
        if let Some((_, sq)) = vcf(self.st, a, VCT_VCF_BUDGET, false, self.deadline) {
            return Some(sq);
        }
        if threats == 0 {
            return None;
        }
        let forced = self.st.five_point(d);
        if forced.is_some() && self.st.fives(d).iter().nth(1).is_some() {
            return None;
        }
        let mut moves = Vec::with_capacity(32);
        self.st.cells_of_kind(a, super::board::K_THREE..=super::board::K_FLEX4, &mut moves);
        if let Some(f) = forced {
            moves.retain(|x| x.1 == f);
        }
        moves.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        moves.truncate(VCT_MAX_MOVES);
        for &(_, m) in &moves {
            self.put(m, a);
            let wins = self.defend(threats);
            self.take(m, a);
            if wins {
                return Some(m);
            }
            if self.nodes > self.budget {
                return None;
            }
        }
        if self.nodes <= self.budget {
            self.failed.insert(key);
        }
        None
    }

    /// The defender to move after an attacker threat: true if every defence loses.
    fn defend(&mut self, threats: u32) -> bool {
        if self.out_of_budget() {
            return false;
        }
        let a = self.attacker;
        let d = a.other();
        if !self.st.fives(d).is_empty() {
            return false;
        }
        let a_fives = {
            let mut it = self.st.fives(a).iter();
            (it.next(), it.next())
        };
        match a_fives {
            (Some(_), Some(_)) => return true,
            (Some(b), None) => {
                self.put(b, d);
                let r = self.attack(threats).is_some();
                self.take(b, d);
                return r;
            }
            (None, _) => {}
        }
        // A three: no real threat unless the attacker now has an open-four point.
        if self.st.kind_count(a, super::board::K_FLEX4) == 0 || threats == 0 {
            return false;
        }
        if vcf(self.st, d, VCT_VCF_BUDGET, false, self.deadline).is_some() {
            return false;
        }
        let mut replies: Vec<(i32, Square)> = Vec::with_capacity(32);
        for sq in self.st.fours(a).iter() {
            let (own, other) = self.st.order_values(d, sq);
            replies.push((own + other, sq));
        }
        let counter_start = replies.len();
        for sq in self.st.fours(d).iter() {
            if !replies.iter().any(|x| x.1 == sq) {
                replies.push((self.st.order_values(d, sq).0, sq));
            }
        }
        let (blocks, counters) = replies.split_at_mut(counter_start);
        blocks.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        counters.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        if replies.len() > VCT_MAX_REPLIES {
            // Too wide to prove within reason: count it as defended.
            return false;
        }
        for &(_, r) in &replies {
            self.put(r, d);
            let wins = {
                let d_fives = {
                    let mut it = self.st.fives(d).iter();
                    (it.next(), it.next())
                };
                match d_fives {
                    (Some(_), Some(_)) => false,
                    (Some(f), None) => {
                        // A counter-four: the attacker must block, then the defender again.
                        if self.st.fives(a).iter().any(|x| x == f) {
                            true
                        } else {
                            self.put(f, a);
                            let w = self.defend(threats);
                            self.take(f, a);
                            w
                        }
                    }
                    (None, _) => self.attack(threats - 1).is_some(),
                }
            };
            self.take(r, d);
            if !wins {
                return false;
            }
            if self.nodes > self.budget {
                return false;
            }
        }
        true
    }
}

/// A win for `attacker`, to move, by continuous threats (fours and open threes, at most
/// `threes` threes in a line) within `budget` nodes and before `deadline`: the first
/// move. `st` is left as it was.
pub(crate) fn vct(
    st: &mut GomokuState,
    attacker: Player,
    threes: u32,
    budget: u32,
    deadline: Option<Instant>,
) -> Option<Square> {
    if budget == 0 || st.fives(attacker.other()).iter().nth(1).is_some() {
        return None;
    }
    let mut search = Vct {
        st,
        attacker,
        nodes: 0,
        budget,
        failed: HashSet::new(),
        hash: 0,
        deadline,
    };
    search.attack(threes)
}
