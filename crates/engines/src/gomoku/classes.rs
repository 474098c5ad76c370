//! What one stone would create on one line: a table from the 10 cells around a square
//! (5 on each side, along one line) to the strongest pattern containing the new stone.
//!
//! The table is built once per rule from [`eval::analyze_line`], so its classes are exactly
//! the `eval::patterns` definitions (open/closed fours, open/broken/closed threes, twos;
//! `Rule::Exact` refuses overlines). Patterns containing the centre lie within 4 cells of
//! it and their admissibility looks one cell further, so 5 cells each way decide them.

use std::sync::OnceLock;

use board_core::{Direction, Player, Square};
use eval::{Pattern, Rule};
use rules_gomoku::GomokuPosition;

/// Pattern classes as small integers, weakest first (`NONE` = nothing).
pub(crate) const NONE: u8 = 0;
pub(crate) const CLOSED_TWO: u8 = 1;
pub(crate) const OPEN_TWO: u8 = 2;
pub(crate) const CLOSED_THREE: u8 = 3;
pub(crate) const BROKEN_THREE: u8 = 4;
pub(crate) const OPEN_THREE: u8 = 5;
pub(crate) const FOUR: u8 = 6;
pub(crate) const OPEN_FOUR: u8 = 7;
pub(crate) const FIVE: u8 = 8;

const CELLS: u32 = 10;
const ENTRIES: usize = 59_049; // 3^10
/// Slots of the class table: every `u16` key, so that a lookup needs no bounds check (the
/// keys from 3^10 up never occur and read `NONE`).
const SLOTS: usize = 1 << 16;

fn class_of(p: Pattern) -> u8 {
    match p {
        Pattern::Five => FIVE,
        Pattern::OpenFour => OPEN_FOUR,
        Pattern::Four => FOUR,
        Pattern::OpenThree => OPEN_THREE,
        Pattern::BrokenThree => BROKEN_THREE,
        Pattern::ClosedThree => CLOSED_THREE,
        Pattern::OpenTwo => OPEN_TWO,
        Pattern::ClosedTwo => CLOSED_TWO,
    }
}

/// `TERNARY[m]`: the bits of `m` read as base-3 digits (bit `i` → digit `i` = 1).
fn ternary() -> &'static [u16; 1024] {
    static T: OnceLock<[u16; 1024]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [0u16; 1024];
        for (m, v) in t.iter_mut().enumerate() {
            let mut p = 1u32;
            let mut acc = 0u32;
            for i in 0..CELLS {
                if m >> i & 1 == 1 {
                    acc += p;
                }
                p *= 3;
            }
            *v = acc as u16;
        }
        t
    })
}

/// The class table of one rule.
pub(crate) struct ClassTable {
    rule: Rule,
    classes: Box<[u8; SLOTS]>,
    ternary: &'static [u16; 1024],
}

impl ClassTable {
    pub(crate) fn get(rule: rules_gomoku::Rule) -> &'static ClassTable {
        static FREE: OnceLock<ClassTable> = OnceLock::new();
        static EXACT: OnceLock<ClassTable> = OnceLock::new();
        match rule {
            rules_gomoku::Rule::Freestyle => {
                FREE.get_or_init(|| ClassTable::build(Rule::Freestyle))
            }
            rules_gomoku::Rule::Exact5 => EXACT.get_or_init(|| ClassTable::build(Rule::Exact)),
        }
    }

    fn build(rule: Rule) -> ClassTable {
        let mut classes = Box::new([NONE; SLOTS]);
        for (idx, slot) in classes.iter_mut().enumerate().take(ENTRIES) {
            // Digits for cells -5..-1, +1..+5: 0 empty, 1 own, 2 blocked.
            let (mut own, mut opp) = (1u32 << 5, 0u32);
            let mut rest = idx;
            for i in 0..CELLS {
                let bit = if i < 5 { i } else { i + 1 };
                match rest % 3 {
                    1 => own |= 1 << bit,
                    2 => opp |= 1 << bit,
                    _ => {}
                }
                rest /= 3;
            }
            if let Ok(report) = eval::analyze_line(own, opp, 11, 5, rule) {
                *slot = report
                    .found
                    .iter()
                    .filter(|f| f.stones & (1 << 5) != 0)
                    .map(|f| class_of(f.pattern))
                    .max()
                    .unwrap_or(NONE);
            }
        }
        ClassTable {
            rule,
            classes,
            ternary: ternary(),
        }
    }

    /// The class of a key: digits for cells -5..-1, +1..+5 (0 empty, 1 own, 2 blocked).
    #[inline]
    pub(crate) fn class_at(&self, key: u16) -> u8 {
        self.classes[usize::from(key)]
    }

    /// The classes a stone of `player` on the empty square `sq` makes on its four lines
    /// (horizontal, vertical, rising, falling).
    #[inline]
    pub(crate) fn classes(&self, pos: &GomokuPosition, player: Player, sq: Square) -> [u8; 4] {
        let mut out = [NONE; 4];
        for (a, dir) in Direction::AXES.into_iter().enumerate() {
            let Some(lv) = pos.line_through(sq, dir) else {
                continue;
            };
            let own = u64::from(lv.stones(player));
            let blocked = u64::from(lv.stones(player.other())) | (u64::MAX << lv.len);
            let w_own = ((own << 5) >> lv.pos) & 0x7FF;
            let w_blk = (((blocked << 5) | 0x1F) >> lv.pos) & 0x7FF;
            let o = (w_own & 0x1F) | ((w_own >> 6) << 5);
            let b = (w_blk & 0x1F) | ((w_blk >> 6) << 5);
            let idx =
                usize::from(self.ternary[o as usize]) + 2 * usize::from(self.ternary[b as usize]);
            out[a] = self.classes.get(idx).copied().unwrap_or(NONE);
        }
        out
    }
}

impl std::fmt::Debug for ClassTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClassTable({:?})", self.rule)
    }
}

/// Counts of each class over the four lines.
#[inline]
pub(crate) fn histogram(c: [u8; 4]) -> [u8; 9] {
    let mut n = [0u8; 9];
    for x in c {
        n[x as usize] += 1;
    }
    n
}

/// The threat value of a stone making classes `c`: wins and double threats dominate, then
/// a sum per line.
pub(crate) fn threat_value(c: [u8; 4]) -> i32 {
    let n = histogram(c);
    let fours = n[FOUR as usize] + n[OPEN_FOUR as usize];
    let threes = n[OPEN_THREE as usize] + n[BROKEN_THREE as usize];
    if n[FIVE as usize] > 0 {
        return 1_000_000;
    }
    let mut v = 0;
    if n[OPEN_FOUR as usize] > 0 || fours >= 2 {
        v += 100_000;
    } else if fours >= 1 && threes >= 1 {
        v += 40_000;
    } else if threes >= 2 {
        v += 10_000;
    }
    for x in c {
        v += match x {
            FOUR => 1_200,
            OPEN_FOUR => 1_500,
            OPEN_THREE => 1_000,
            BROKEN_THREE => 900,
            CLOSED_THREE => 200,
            OPEN_TWO => 150,
            CLOSED_TWO => 20,
            _ => 0,
        };
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The incremental board keeps only 4 cells each side under freestyle: the class must
    /// not depend on the fifth (digits 0 and 9), while under exact-five it must (overlines).
    #[test]
    fn freestyle_classes_ignore_the_fifth_cell() {
        let t = ClassTable::get(rules_gomoku::Rule::Freestyle);
        for key in 0..ENTRIES as u32 {
            let inner = key - key % 3 - (key / 19_683) * 19_683;
            assert_eq!(
                t.class_at(key as u16),
                t.class_at(inner as u16),
                "key {key}"
            );
        }
        let e = ClassTable::get(rules_gomoku::Rule::Exact5);
        // Own stones at -4..-1 and +5: the centre makes five only if +5 is not own.
        let four_left: u32 = 3 + 9 + 27 + 81; // digits 1..4 = own
        assert_eq!(e.class_at(four_left as u16), FIVE);
        // An own stone at +5 is not adjacent (+1 is empty): still a five.
        assert_eq!(e.class_at((four_left + 19_683) as u16), FIVE);
        // An own stone at -5 makes it six in a row: no five under exact-five.
        assert_ne!(e.class_at((four_left + 1) as u16), FIVE);
        assert_eq!(t.class_at((four_left + 1) as u16), FIVE);
    }
}
