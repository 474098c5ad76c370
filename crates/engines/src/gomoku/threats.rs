//! The threat searches on the pattern state alone ([`GomokuState`], without the rules
//! position): a threat and its answers update only the patterns, and the searches can be
//! asked for either colour, whoever is to move ("would the opponent win by threats if it
//! were its turn").
//!
//! - VCF (victory by continuous fours): every attacker move is a four, so the defender has
//!   one reply each time.
//! - VCT (victory by continuous threats): fours and open threes; after a three the
//!   defender's full set of replies is searched (see [`Vct`]).

use std::{
    collections::{HashMap, HashSet},
    time::Instant,
};

use board_core::{Player, Square, zobrist};
use smallvec::SmallVec;

use super::board::{GomokuState, K_FLEX4, K_THREE, K_THREE2};

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
    vcf_searched(st, attacker, budget, memo, deadline).0
}

/// [`vcf`], and whether the search was complete: a failure with `true` is a failure at
/// any budget (the search ran out of fours, not of nodes or time).
pub(crate) fn vcf_searched(
    st: &mut GomokuState,
    attacker: Player,
    budget: u32,
    memo: bool,
    deadline: Option<Instant>,
) -> (Option<(u32, Square)>, bool) {
    if budget == 0 {
        return (None, false);
    }
    if let Some(sq) = st.five_point(attacker) {
        return (Some((1, sq)), true);
    }
    if st.fours(attacker).is_empty() || st.fives(attacker.other()).iter().nth(1).is_some() {
        return (None, true);
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
    let found = search.search(VCF_MAX_FOURS);
    // The budget is zeroed when the deadline passes.
    let complete = search.budget > 0 && search.nodes <= search.budget;
    (found, complete)
}

/// Most attacker moves (fours and threes together) in a VCT line.
pub(crate) const VCT_MAX_MOVES: u32 = 16;

/// A VCT search: the attacker plays fours and open threes (moves after which it has a
/// flex-four point: an open four or a double four next) until it has two five points while
/// the defender has none.
///
/// After a four the defender's one reply is the block. After a three the defender's replies
/// are its **defence set**: every empty square on the lines of the attacker's flex-four
/// points that leaves the attacker no flex-four point, and every four of its own (a
/// counter-four the attacker must answer). Any other reply leaves a flex-four point and
/// the attacker plays it: an open or double four the defender, without a five point of its
/// own, cannot stop (two turns later it is five). So a VCT proven here is a forced win
/// against every defence, not only the ones searched.
struct Vct<'a> {
    st: &'a mut GomokuState,
    attacker: Player,
    nodes: u32,
    budget: u32,
    /// Positions (by `hash`) where the attack failed within its budget, with the most
    /// threes it had left there: the attack fails again with as many or fewer.
    failed: HashMap<u64, u32>,
    /// Zobrist key of the stones placed by this search.
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

    fn exhausted(&self) -> bool {
        self.nodes > self.budget
    }

    /// With the attacker to move: the turns to a win and the first move, with at most
    /// `moves_left` attacker moves of which at most `threes_left` threes.
    fn attack(&mut self, moves_left: u32, threes_left: u32) -> Option<(u32, Square)> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(64) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.budget = 0;
        }
        if self.exhausted() {
            return None;
        }
        let (a, d) = (self.attacker, self.attacker.other());
        if let Some(sq) = self.st.five_point(a) {
            return Some((1, sq));
        }
        if moves_left == 0 {
            return None;
        }
        let key = self.hash;
        if self.failed.get(&key).is_some_and(|&t| t >= threes_left) {
            return None;
        }
        let st = &*self.st;
        let forced = st.five_point(d);
        if forced.is_some() && st.fives(d).iter().nth(1).is_some() {
            return None;
        }
        // (ordering value, square, whether it is a three)
        let mut moves: SmallVec<[(i32, Square, bool); 32]> = SmallVec::new();
        if let Some(block) = forced {
            // The defender's counter-four must be blocked; the block attacks only if it
            // keeps (or makes) a threat, which the defender node checks.
            let kind = st.kind_at(a, block);
            moves.push((0, block, kind == K_THREE || kind == K_THREE2));
        } else {
            // Fours first (each leaves one reply), then threes.
            const FOUR_FIRST: i32 = 1 << 24;
            moves.extend(
                st.fours(a)
                    .iter()
                    .map(|m| (FOUR_FIRST + st.order_values(a, m).0, m, false)),
            );
            if threes_left > 0 {
                moves.extend(st.threes(a).iter().map(|m| {
                    let (own, other) = st.order_values(a, m);
                    (own + other / 2, m, true)
                }));
            }
            moves.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        }
        for &(_, m, three) in &moves {
            if three && threes_left == 0 {
                continue;
            }
            self.put(m, a);
            let r = self.defend(moves_left - 1, threes_left - u32::from(three));
            self.take(m, a);
            if let Some(t) = r {
                return Some((t + 1, m));
            }
            if self.exhausted() {
                return None;
            }
        }
        let best = self.failed.entry(key).or_insert(threes_left);
        *best = (*best).max(threes_left);
        None
    }

    /// With the defender to move after an attacker move: the turns to the attacker's win
    /// (counting the defender's move) against every reply, if it wins against all.
    fn defend(&mut self, moves_left: u32, threes_left: u32) -> Option<u32> {
        let (a, d) = (self.attacker, self.attacker.other());
        if self.st.five_point(d).is_some() {
            return None;
        }
        let (first, second) = {
            let mut fives = self.st.fives(a).iter();
            (fives.next(), fives.next())
        };
        match (first, second) {
            (Some(_), Some(_)) => Some(2),
            (Some(block), None) => {
                self.put(block, d);
                let r = self.attack(moves_left, threes_left);
                self.take(block, d);
                r.map(|(t, _)| t + 1)
            }
            (None, _) => {
                if self.st.kind_count(a, K_FLEX4) == 0 {
                    return None;
                }
                let replies = self.defence_set();
                // A reply outside the set: the open four, any move, the five.
                let mut worst = 4;
                for r in replies {
                    self.put(r, d);
                    let result = self.attack(moves_left, threes_left);
                    self.take(r, d);
                    worst = worst.max(result?.0 + 1);
                }
                Some(worst)
            }
        }
    }

    /// The defender's replies to the attacker's flex-four points (see [`Vct`]), the
    /// counter-fours first.
    fn defence_set(&mut self) -> Vec<Square> {
        let (a, d) = (self.attacker, self.attacker.other());
        defence_set(self.st, a, d)
    }
}

/// The moves of `defender` that answer `attacker`'s open threes (its flex-four points):
/// `defender`'s own fours, then the empty squares on the flex-four points' lines after
/// which `attacker` has no flex-four point left. A defender move outside the set leaves a
/// flex-four point. `st` is left as it was.
pub(crate) fn defence_set(st: &mut GomokuState, attacker: Player, defender: Player) -> Vec<Square> {
    let mut out: Vec<Square> = st.fours(defender).iter().collect();
    if st.kind_count(attacker, K_FLEX4) == 0 {
        return out;
    }
    let mut cells = Vec::new();
    for f in st.fours(attacker).iter() {
        if st.kind_at(attacker, f) == K_FLEX4 {
            st.four_line_cells(attacker, f, &mut cells);
        }
    }
    cells.sort_unstable();
    cells.dedup();
    for c in cells {
        if st.fours(defender).contains(c) {
            continue;
        }
        st.put(c, defender);
        let stops = st.kind_count(attacker, K_FLEX4) == 0;
        st.take(c, defender);
        if stops {
            out.push(c);
        }
    }
    out
}

/// A win for `attacker` by continuous threats (fours and open threes) on `st`, as if it
/// were `attacker`'s turn, within `budget` nodes and before `deadline`, with at most
/// `max_threes` threes in a line: the turns to the win (1: a five now) and the first move.
/// The search deepens the number of threes from 0 (a VCF) up to `max_threes`, so the
/// cheapest kind of win is found first. `st` is left as it was.
pub(crate) fn vct(
    st: &mut GomokuState,
    attacker: Player,
    budget: u32,
    max_threes: u32,
    deadline: Option<Instant>,
) -> Option<(u32, Square)> {
    if budget == 0 {
        return None;
    }
    if let Some(sq) = st.five_point(attacker) {
        return Some((1, sq));
    }
    if st.fives(attacker.other()).iter().nth(1).is_some() {
        return None;
    }
    let mut search = Vct {
        st,
        attacker,
        nodes: 0,
        budget,
        failed: HashMap::new(),
        hash: 0,
        deadline,
    };
    for threes in 0..=max_threes {
        if let Some(win) = search.attack(VCT_MAX_MOVES, threes) {
            return Some(win);
        }
        if search.exhausted() {
            return None;
        }
    }
    None
}

/// Whether `attacker`'s move `first` wins by continuous threats against every reply (as in
/// [`vct`], within `budget` nodes and at most `max_threes` threes after `first`): the
/// turns to the win counting `first`. `st` is left as it was; `None` if `first` is not
/// empty.
#[cfg(test)]
pub(crate) fn vct_after(
    st: &mut GomokuState,
    attacker: Player,
    first: Square,
    budget: u32,
    max_threes: u32,
) -> Option<u32> {
    if st.five_point(attacker) == Some(first) {
        return Some(1);
    }
    if !st.put(first, attacker) {
        return None;
    }
    let mut search = Vct {
        st,
        attacker,
        nodes: 0,
        budget,
        failed: HashMap::new(),
        hash: 0,
        deadline: None,
    };
    let mut result = None;
    for threes in 0..=max_threes {
        result = search.defend(VCT_MAX_MOVES - 1, threes);
        if result.is_some() || search.exhausted() {
            break;
        }
    }
    search.st.take(first, attacker);
    result.map(|t| t + 1)
}
