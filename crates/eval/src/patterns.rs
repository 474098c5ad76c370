//! Line patterns for k-in-a-row games (gomoku `k = 5`, freestyle or exact; connect6 `k = 6`):
//! fives, open and closed fours, open, broken and closed threes, open and closed twos,
//! counted for both colours along every line of the board, kept up to date incrementally.
//!
//! # Pattern definitions
//!
//! The names count *stones still needed*, not stones present, so they mean the same threat
//! for any `k`: a "four" needs one more stone (4 stones when `k = 5`, 5 when `k = 6`), a
//! "three" two more, a "two" three more.
//!
//! Everything is judged one line at a time (a row, a column or a diagonal, edge to edge) and
//! for one colour, the *own* stones; opponent stones and the board edges block.
//!
//! - A **window** is `k` consecutive cells of the line holding no opponent stone. Under
//!   [`Rule::Exact`] a window is only usable (*admissible*) if the cells just outside both of
//!   its ends are not own stones (filling it must give exactly `k`, not an overline); under
//!   [`Rule::Freestyle`] every window is admissible.
//! - The **content** of a window is its set of own stones.
//! - A **five** is a maximal run of own stones of length `k` or more (freestyle) or exactly
//!   `k` (exact). Each such run counts once.
//! - A **pattern** is a set `T` of own stones, `1 ≤ |T| ≤ k − 1`, needing `n = k − |T|`
//!   more stones with `n` in 1..=3, such that
//!   1. at least one admissible window has content exactly `T`, and
//!   2. *every* admissible window that covers the span of `T` has content exactly `T`
//!      (otherwise `T` is part of a larger pattern or a five, and only that one counts).
//!
//!   Let `m` be the number of admissible windows with content `T` (they are consecutive).
//!   The pattern is **open** if `m ≥ 2`. That is exactly the case in which one more stone
//!   can make an open pattern of the next level: a straight `_XXXX_` four from a three, an
//!   open three from a two; for a four it means two winning squares `k` apart (`_XXXX_`).
//! - The classes ([`Pattern`]):
//!
//!   | needs | open (`m ≥ 2`)                                  | closed (`m = 1`)           |
//!   |-------|-------------------------------------------------|----------------------------|
//!   | 1     | [`OpenFour`](Pattern::OpenFour) `.XXXX.`        | [`Four`](Pattern::Four) `OXXXX.`, `XX.XX`, `X.XXX` |
//!   | 2     | [`OpenThree`](Pattern::OpenThree) `..XXX..` (stones consecutive), [`BrokenThree`](Pattern::BrokenThree) `.X.XX.` (with a gap) | [`ClosedThree`](Pattern::ClosedThree) `OXXX..`, `X..XX`, `X.X.X` |
//!   | 3     | [`OpenTwo`](Pattern::OpenTwo) `..XX..`, `.X.X..` | [`ClosedTwo`](Pattern::ClosedTwo) `OXX...` |
//!
//!   (Drawn for `k = 5`; `O` is an opponent stone or the edge, `.` empty.)
//! - Distinct stone sets are distinct patterns even when they share stones, so `XXX.X.XXX`
//!   is two fours (a double four on one line) plus the closed three `X.X.X` in its middle,
//!   and under freestyle `.XXXX.X` is an open four plus a four.
//! - The **five points** of a colour are the empty squares where one own stone makes a five
//!   on that line: the gap of every admissible window holding `k − 1` own stones.
//!
//! # Incremental use
//!
//! [`LinePatterns`] keeps, per line and colour, the counts and five points of that line and
//! the board totals. [`place`](LinePatterns::place) and [`remove`](LinePatterns::remove)
//! rescan only the (at most) four lines through the changed square. A line is summed up
//! segment by segment (runs of cells free of opponent stones, which is all a pattern can
//! use): segments of up to 16 cells are looked up in a table built once per `(k, rule)`
//! (2^17 entries, about 1.3 MB), longer ones are scanned directly. [`probe`](LinePatterns::probe)
//! answers "what would a stone of `P` on `S` create" (and how the score would move) without
//! changing anything: candidate ordering and VCF.
//!
//! ```
//! use board_core::{Geometry, Player};
//! use boardlab_eval::{LinePatterns, Pattern, PatternWeights, Rule};
//!
//! let g = Geometry::square(15)?;
//! let mut lp = LinePatterns::new(g, 5, Rule::Freestyle, PatternWeights::gomoku())?;
//! for s in ["f8", "g8", "h8"] {
//!     lp.place(Player::First, g.parse_square(s)?)?;
//! }
//! assert_eq!(lp.counts(Player::First)[Pattern::OpenThree], 1);
//! let probe = lp.probe(Player::First, g.parse_square("i8")?)?;
//! assert_eq!(probe.best(), Some(Pattern::OpenFour));
//! lp.place(Player::Second, g.parse_square("i8")?)?; // block one end
//! assert_eq!(lp.counts(Player::First)[Pattern::ClosedThree], 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::{Index, IndexMut};

use board_core::{Direction, Geometry, Player, Square, SquareSet};

use crate::{EvalError, util};

/// Which runs count as a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// `k` or more in a row (gomoku freestyle, connect6).
    #[default]
    Freestyle,
    /// Exactly `k` in a row; an overline is not a five and cannot be extended into one.
    Exact,
}

/// A pattern class, strongest first (see the [module docs](self) for the definitions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pattern {
    /// `k` (or, freestyle, more) in a row.
    Five,
    /// Needs one stone, at either of two squares: `.XXXX.`.
    OpenFour,
    /// Needs one stone, at one square: closed (`OXXXX.`) or broken (`XX.XX`).
    Four,
    /// Needs two stones; one more makes an open four; stones consecutive: `..XXX..`.
    OpenThree,
    /// Needs two stones; one more makes an open four; stones with a gap: `.X.XX.`.
    BrokenThree,
    /// Needs two stones; one more makes only a closed four: `OXXX..`.
    ClosedThree,
    /// Needs three stones; one more makes an open three: `..XX..`.
    OpenTwo,
    /// Needs three stones; one more makes only a closed three: `OXX...`.
    ClosedTwo,
}

impl Pattern {
    /// Every class, strongest first.
    pub const ALL: [Pattern; 8] = [
        Pattern::Five,
        Pattern::OpenFour,
        Pattern::Four,
        Pattern::OpenThree,
        Pattern::BrokenThree,
        Pattern::ClosedThree,
        Pattern::OpenTwo,
        Pattern::ClosedTwo,
    ];

    /// Position in [`Pattern::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many more stones make a five: 0 for a five, 1 for fours, 2 for threes, 3 for twos.
    pub const fn stones_needed(self) -> u32 {
        match self {
            Pattern::Five => 0,
            Pattern::OpenFour | Pattern::Four => 1,
            Pattern::OpenThree | Pattern::BrokenThree | Pattern::ClosedThree => 2,
            Pattern::OpenTwo | Pattern::ClosedTwo => 3,
        }
    }

    /// True for the open classes (two or more admissible windows).
    pub const fn is_open(self) -> bool {
        matches!(
            self,
            Pattern::OpenFour | Pattern::OpenThree | Pattern::BrokenThree | Pattern::OpenTwo
        )
    }

    fn classify(needed: u32, open: bool, consecutive: bool) -> Option<Pattern> {
        Some(match (needed, open) {
            (1, true) => Pattern::OpenFour,
            (1, false) => Pattern::Four,
            (2, true) if consecutive => Pattern::OpenThree,
            (2, true) => Pattern::BrokenThree,
            (2, false) => Pattern::ClosedThree,
            (3, true) => Pattern::OpenTwo,
            (3, false) => Pattern::ClosedTwo,
            _ => return None,
        })
    }
}

/// How many patterns of each class, indexed by [`Pattern`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PatternCounts(pub [u32; 8]);

impl PatternCounts {
    /// The count of one class.
    #[inline]
    pub fn get(&self, pattern: Pattern) -> u32 {
        self.0[pattern.index()]
    }

    /// Fives.
    pub fn fives(&self) -> u32 {
        self.get(Pattern::Five)
    }

    /// All fours, open and closed: each forces a reply (or two, if open).
    pub fn fours(&self) -> u32 {
        self.get(Pattern::OpenFour) + self.get(Pattern::Four)
    }

    /// Open and broken threes: each becomes an open four with one stone.
    pub fn open_threes(&self) -> u32 {
        self.get(Pattern::OpenThree) + self.get(Pattern::BrokenThree)
    }

    /// The weighted sum `Σ count × weight`.
    pub fn weighted(&self, weights: &PatternWeights) -> i64 {
        self.0
            .iter()
            .zip(weights.0)
            .map(|(&c, w)| c as i64 * w as i64)
            .sum()
    }

    /// The strongest class with a non-zero count.
    pub fn best(&self) -> Option<Pattern> {
        Pattern::ALL.into_iter().find(|&p| self.get(p) > 0)
    }
}

impl Index<Pattern> for PatternCounts {
    type Output = u32;
    #[inline]
    fn index(&self, pattern: Pattern) -> &u32 {
        &self.0[pattern.index()]
    }
}

impl IndexMut<Pattern> for PatternCounts {
    #[inline]
    fn index_mut(&mut self, pattern: Pattern) -> &mut u32 {
        &mut self.0[pattern.index()]
    }
}

/// The worth of one pattern of each class, indexed by [`Pattern`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PatternWeights(pub [i32; 8]);

impl PatternWeights {
    /// Weights for gomoku (`k = 5`): five 1,000,000; open four 100,000; four 5,000; open
    /// three 5,000; broken three 4,000; closed three 500; open two 300; closed two 50.
    pub const fn gomoku() -> PatternWeights {
        PatternWeights([1_000_000, 100_000, 5_000, 5_000, 4_000, 500, 300, 50])
    }

    /// Weights for connect6 (`k = 6`, two stones a turn, so a three is already a threat):
    /// five 1,000,000; open four 100,000; four 20,000; open three 20,000; broken three
    /// 15,000; closed three 2,000; open two 500; closed two 100.
    pub const fn connect6() -> PatternWeights {
        PatternWeights([1_000_000, 100_000, 20_000, 20_000, 15_000, 2_000, 500, 100])
    }

    /// The weight of one class.
    #[inline]
    pub fn get(&self, pattern: Pattern) -> i32 {
        self.0[pattern.index()]
    }

    /// Sets the weight of one class.
    pub fn set(&mut self, pattern: Pattern, weight: i32) {
        self.0[pattern.index()] = weight;
    }
}

impl Default for PatternWeights {
    fn default() -> Self {
        PatternWeights::gomoku()
    }
}

/// One pattern found on a line by [`analyze_line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FoundPattern {
    /// Its class.
    pub pattern: Pattern,
    /// Its stones, bit `i` for cell `i` of the line.
    pub stones: u32,
}

/// Everything [`analyze_line`] finds on one line for one colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineReport {
    /// How many of each class.
    pub counts: PatternCounts,
    /// The empty cells where one own stone makes a five (bit `i` for cell `i`).
    pub five_points: u32,
    /// Each pattern with its stones, fives first, then left to right.
    pub found: Vec<FoundPattern>,
}

/// Classifies one line for one colour: `own` and `opp` are bit masks (bit `i` = cell `i`) of
/// a line of `len` cells (at most 32); the edges block. See the [module docs](self).
///
/// ```
/// use boardlab_eval::{Pattern, Rule, analyze_line};
/// // . X X . X X .   (cells 0..7)
/// let r = analyze_line(0b0110110, 0, 7, 5, Rule::Freestyle)?;
/// assert_eq!(r.counts[Pattern::Four], 1);
/// assert_eq!(r.five_points, 0b0001000);
/// # Ok::<(), boardlab_eval::EvalError>(())
/// ```
pub fn analyze_line(
    own: u32,
    opp: u32,
    len: u32,
    k: u32,
    rule: Rule,
) -> Result<LineReport, EvalError> {
    if !(1..=32).contains(&k) {
        return Err(EvalError::BadK {
            k,
            width: len,
            height: 1,
            max: 32,
        });
    }
    if len > 32 || own & opp != 0 || (own | opp) as u64 >> len != 0 {
        return Err(EvalError::BadLine { len });
    }
    let mut report = LineReport::default();
    report.five_points = scan(own, opp, len, k, rule, |pattern, stones| {
        report.counts[pattern] += 1;
        report.found.push(FoundPattern { pattern, stones });
    });
    Ok(report)
}

/// The mask of bits `lo..hi` (empty if `hi <= lo`), for `hi <= 64`.
#[inline]
fn bits(lo: u32, hi: u32) -> u64 {
    if hi <= lo {
        0
    } else {
        (u64::MAX >> (64 - (hi - lo))) << lo
    }
}

/// The core scan of one line for one colour; calls `found` per pattern and returns the five
/// points. Requires `1 <= k <= 32`, `len <= 32`, masks inside the line and disjoint.
fn scan(
    own: u32,
    opp: u32,
    len: u32,
    k: u32,
    rule: Rule,
    mut found: impl FnMut(Pattern, u32),
) -> u32 {
    let exact = rule == Rule::Exact;
    // Fives: maximal runs.
    let mut rest = own as u64;
    while rest != 0 {
        let start = rest.trailing_zeros();
        let run = (rest >> start).trailing_ones();
        let mask = bits(start, start + run);
        rest &= !mask;
        if run >= k && (!exact || run == k) {
            found(Pattern::Five, mask as u32);
        }
    }
    if len < k {
        return 0;
    }
    let (own64, opp64) = (own as u64, opp as u64);
    let nwin = len - k + 1;
    let kmask = bits(0, k);
    // Admissible window starts, and each one's content.
    let mut adm = 0u64;
    let mut content = [0u32; 32];
    let mut five_points = 0u64;
    for s in 0..nwin {
        let w = kmask << s;
        if opp64 & w != 0 {
            continue;
        }
        if exact && ((s > 0 && own64 >> (s - 1) & 1 != 0) || own64 >> (s + k) & 1 != 0) {
            continue;
        }
        adm |= 1 << s;
        let c = own64 & w;
        content[s as usize] = c as u32;
        if c.count_ones() + 1 == k {
            five_points |= w & !own64;
        }
    }
    // Patterns: runs of consecutive admissible windows with equal content.
    let mut s = 0;
    while s < nwin {
        if adm >> s & 1 == 0 {
            s += 1;
            continue;
        }
        let t = content[s as usize];
        let mut e = s + 1;
        while e < nwin && adm >> e & 1 != 0 && content[e as usize] == t {
            e += 1;
        }
        let c = t.count_ones();
        if c >= 1 && c < k && k - c <= 3 {
            // Windows covering the span of T start in lo..=hi.
            let top = 31 - t.leading_zeros();
            let lo = (top + 1).saturating_sub(k);
            let hi = t.trailing_zeros().min(nwin - 1);
            if adm & bits(lo, hi + 1) & !bits(s, e) == 0 {
                let shifted = t >> t.trailing_zeros();
                let consecutive = shifted & shifted.wrapping_add(1) == 0;
                if let Some(p) = Pattern::classify(k - c, e - s >= 2, consecutive) {
                    found(p, t);
                }
            }
        }
        s = e;
    }
    five_points as u32
}

/// Pattern counts packed one per byte, lane `i` for `Pattern::ALL[i]` (a line of at most
/// 32 cells holds fewer than 256 patterns of a class).
type Packed = u64;

fn pack(counts: &PatternCounts) -> Packed {
    counts
        .0
        .iter()
        .enumerate()
        .map(|(i, &c)| (c.min(255) as u64) << (8 * i))
        .sum()
}

/// The longest segment the lookup tables cover.
const SEGMENT_MAX: u32 = 16;

/// Summaries of every segment (a run of cells free of opponent stones, so the edges of the
/// segment block) of `k..=SEGMENT_MAX` cells, indexed by length and own-stone mask: a line
/// is summarised by adding up its segments, one lookup each.
struct SegmentTable {
    /// Index of the first entry of each segment length.
    offset: [u32; SEGMENT_MAX as usize + 1],
    counts: Box<[Packed]>,
    five_points: Box<[u16]>,
}

impl SegmentTable {
    fn get(k: u32, rule: Rule) -> Option<&'static SegmentTable> {
        static CACHE: util::TableCache<SegmentTable> = util::TableCache::new();
        (k <= SEGMENT_MAX)
            .then(|| util::cached(&CACHE, (k, rule as u32, 0), || SegmentTable::build(k, rule)))
    }

    fn build(k: u32, rule: Rule) -> SegmentTable {
        let mut offset = [0u32; SEGMENT_MAX as usize + 1];
        let mut counts = Vec::new();
        let mut five_points = Vec::new();
        for len in k..=SEGMENT_MAX {
            offset[len as usize] = counts.len() as u32;
            for own in 0..1u32 << len {
                let mut c = PatternCounts::default();
                let fp = scan(own, 0, len, k, rule, |p, _| c[p] += 1);
                counts.push(pack(&c));
                five_points.push(fp as u16);
            }
        }
        SegmentTable {
            offset,
            counts: counts.into_boxed_slice(),
            five_points: five_points.into_boxed_slice(),
        }
    }
}

impl std::fmt::Debug for SegmentTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SegmentTable({} entries)", self.counts.len())
    }
}

/// Packed pattern counts and five points of one line for one colour, segment by segment.
fn line_summary(
    own: u32,
    opp: u32,
    len: u32,
    k: u32,
    rule: Rule,
    table: Option<&SegmentTable>,
) -> (Packed, u32) {
    if own == 0 {
        return (0, 0);
    }
    let (mut packed, mut fp) = (0, 0u64);
    let mut free = bits(0, len) & !(opp as u64);
    while free != 0 {
        let a = free.trailing_zeros();
        let n = (free >> a).trailing_ones();
        free &= !bits(a, a + n);
        let o = ((own as u64 >> a) & bits(0, n)) as u32;
        if n < k || o == 0 {
            continue;
        }
        match table {
            Some(t) if n <= SEGMENT_MAX => {
                let i = t.offset[n as usize] as usize + o as usize;
                packed += t.counts[i];
                fp |= (t.five_points[i] as u64) << a;
            }
            _ => {
                let mut c = PatternCounts::default();
                fp |= (scan(o, 0, n, k, rule, |p, _| c[p] += 1) as u64) << a;
                packed += pack(&c);
            }
        }
    }
    (packed, fp as u32)
}

/// Adds `new − old` lane by lane to `totals`.
#[inline]
fn apply_diff(totals: &mut PatternCounts, old: Packed, new: Packed) {
    if old == new {
        return;
    }
    for (i, t) in totals.0.iter_mut().enumerate() {
        let (o, n) = ((old >> (8 * i)) & 0xff, (new >> (8 * i)) & 0xff);
        *t = t.wrapping_add(n as u32).wrapping_sub(o as u32);
    }
}

const NO_LINE: u16 = u16::MAX;

/// The lines (of length `k` or more) of one board and where each square sits on them.
#[derive(Debug)]
struct LineTable {
    geometry: &'static Geometry,
    k: u32,
    /// Squares of line `l`: `squares[start[l] as usize..][..len[l]]`.
    start: Box<[u32]>,
    len: Box<[u8]>,
    squares: Box<[Square]>,
    /// `of_square[sq * 4 + axis]`: (line, position) or `NO_LINE`.
    of_square: Box<[(u16, u8)]>,
}

impl LineTable {
    fn get(geometry: &'static Geometry, k: u32) -> &'static LineTable {
        static CACHE: util::TableCache<LineTable> = util::TableCache::new();
        util::cached(&CACHE, (geometry.width(), geometry.height(), k), || {
            LineTable::build(geometry, k)
        })
    }

    fn build(geometry: &'static Geometry, k: u32) -> LineTable {
        let mut start = Vec::new();
        let mut len = Vec::new();
        let mut squares = Vec::new();
        let mut of_square = vec![(NO_LINE, 0u8); geometry.cells() * 4];
        for (a, &axis) in Direction::AXES.iter().enumerate() {
            for first in geometry.squares() {
                if geometry.step(first, axis.opposite()).is_some() {
                    continue;
                }
                let n = geometry.ray_length(first, axis) + 1;
                if n < k {
                    continue;
                }
                let line = start.len() as u16;
                start.push(squares.len() as u32);
                len.push(n as u8);
                for (pos, sq) in std::iter::once(first)
                    .chain(geometry.ray(first, axis))
                    .enumerate()
                {
                    squares.push(sq);
                    of_square[sq.index() * 4 + a] = (line, pos as u8);
                }
            }
        }
        LineTable {
            geometry,
            k,
            start: start.into_boxed_slice(),
            len: len.into_boxed_slice(),
            squares: squares.into_boxed_slice(),
            of_square: of_square.into_boxed_slice(),
        }
    }

    #[inline]
    fn lines(&self) -> usize {
        self.len.len()
    }

    #[inline]
    fn square(&self, line: usize, pos: u32) -> Square {
        self.squares[self.start[line] as usize + pos as usize]
    }
}

/// What a stone of one player on one square would create; see [`LinePatterns::probe`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    /// Per line through the square, in [`Direction::AXES`] order (horizontal, vertical,
    /// rising diagonal, falling diagonal): the strongest pattern containing the new stone.
    pub per_axis: [Option<Pattern>; 4],
    /// All patterns containing the new stone, over the four lines.
    pub created: PatternCounts,
    /// How [`LinePatterns::score`] (First minus Second) would change: own patterns made and
    /// opponent patterns blocked on the four lines.
    pub score_delta: i64,
}

impl Probe {
    /// The strongest pattern the stone creates on any line.
    pub fn best(&self) -> Option<Pattern> {
        self.per_axis.iter().flatten().min().copied()
    }

    /// True if the stone makes a five.
    pub fn wins(&self) -> bool {
        self.created.fives() > 0
    }
}

/// Incremental line-pattern evaluator for both colours of a k-in-a-row game.
#[derive(Clone, Debug)]
pub struct LinePatterns {
    table: &'static LineTable,
    rule: Rule,
    weights: PatternWeights,
    board: Vec<Option<Player>>,
    /// Per line, each colour's stones (bit = position on the line).
    masks: Vec<[u32; 2]>,
    /// Per line and colour, the packed counts of that line.
    counts: Vec<[Packed; 2]>,
    segments: Option<&'static SegmentTable>,
    five_points: Vec<[u32; 2]>,
    totals: [PatternCounts; 2],
}

impl LinePatterns {
    /// An evaluator for an empty board; `k` from 1 to the longer side of the board.
    pub fn new(
        geometry: &'static Geometry,
        k: u32,
        rule: Rule,
        weights: PatternWeights,
    ) -> Result<LinePatterns, EvalError> {
        let max = geometry.width().max(geometry.height());
        if k == 0 || k > max {
            return Err(EvalError::BadK {
                k,
                width: geometry.width(),
                height: geometry.height(),
                max,
            });
        }
        let table = LineTable::get(geometry, k);
        Ok(LinePatterns {
            table,
            rule,
            weights,
            board: vec![None; geometry.cells()],
            masks: vec![[0, 0]; table.lines()],
            counts: vec![[0; 2]; table.lines()],
            segments: SegmentTable::get(k, rule),
            five_points: vec![[0, 0]; table.lines()],
            totals: [PatternCounts::default(); 2],
        })
    }

    /// An evaluator for the position with `stones[p]` holding player `p`'s stones, scanned
    /// from scratch line by line.
    pub fn from_sets<S: SquareSet>(
        geometry: &'static Geometry,
        k: u32,
        rule: Rule,
        weights: PatternWeights,
        stones: [&S; 2],
    ) -> Result<LinePatterns, EvalError> {
        util::check_pair(geometry, stones)?;
        let mut lp = LinePatterns::new(geometry, k, rule, weights)?;
        for p in Player::BOTH {
            for sq in stones[p.index()].squares() {
                lp.board[sq.index()] = Some(p);
                for a in 0..4 {
                    let (line, pos) = lp.table.of_square[sq.index() * 4 + a];
                    if line != NO_LINE {
                        lp.masks[line as usize][p.index()] |= 1 << pos;
                    }
                }
            }
        }
        for line in 0..lp.table.lines() {
            lp.rescan(line);
        }
        Ok(lp)
    }

    /// The board.
    pub fn geometry(&self) -> &'static Geometry {
        self.table.geometry
    }

    /// The winning length.
    pub fn k(&self) -> u32 {
        self.table.k
    }

    /// The five rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The weights [`score`](LinePatterns::score) uses.
    pub fn weights(&self) -> &PatternWeights {
        &self.weights
    }

    /// Replaces the weights (the counts do not depend on them).
    pub fn set_weights(&mut self, weights: PatternWeights) {
        self.weights = weights;
    }

    /// The stone on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Player> {
        self.board.get(sq.index()).copied().flatten()
    }

    /// The threat counts of `player` over the whole board.
    #[inline]
    pub fn counts(&self, player: Player) -> &PatternCounts {
        &self.totals[player.index()]
    }

    /// First's weighted patterns minus Second's.
    pub fn score(&self) -> i64 {
        self.totals[0].weighted(&self.weights) - self.totals[1].weighted(&self.weights)
    }

    /// The score from `player`'s point of view.
    pub fn score_for(&self, player: Player) -> i64 {
        self.score() * player.sign() as i64
    }

    /// The empty squares where a stone of `player` makes a five, line by line (a square
    /// that completes fives on two lines is listed twice).
    pub fn five_points(&self, player: Player) -> impl Iterator<Item = Square> + '_ {
        self.five_points
            .iter()
            .enumerate()
            .filter(move |(_, fp)| fp[player.index()] != 0)
            .flat_map(move |(line, fp)| {
                let mut bits = fp[player.index()];
                std::iter::from_fn(move || {
                    if bits == 0 {
                        return None;
                    }
                    let pos = bits.trailing_zeros();
                    bits &= bits - 1;
                    Some(self.table.square(line, pos))
                })
            })
    }

    /// Puts a stone of `player` on the empty square `sq` and rescans its four lines.
    pub fn place(&mut self, player: Player, sq: Square) -> Result<(), EvalError> {
        match self.board.get(sq.index()) {
            None => return Err(EvalError::off_board(sq, self.board.len())),
            Some(Some(_)) => return Err(EvalError::Occupied { square: sq.0 }),
            Some(None) => {}
        }
        self.board[sq.index()] = Some(player);
        self.toggle(player, sq);
        Ok(())
    }

    /// Takes `player`'s stone off `sq` and rescans its four lines.
    pub fn remove(&mut self, player: Player, sq: Square) -> Result<(), EvalError> {
        match self.board.get(sq.index()) {
            None => return Err(EvalError::off_board(sq, self.board.len())),
            Some(&Some(p)) if p == player => {}
            Some(_) => {
                return Err(EvalError::NotThere {
                    square: sq.0,
                    player,
                });
            }
        }
        self.board[sq.index()] = None;
        self.toggle(player, sq);
        Ok(())
    }

    fn toggle(&mut self, player: Player, sq: Square) {
        for a in 0..4 {
            let (line, pos) = self.table.of_square[sq.index() * 4 + a];
            if line != NO_LINE {
                self.masks[line as usize][player.index()] ^= 1 << pos;
                self.rescan(line as usize);
            }
        }
    }

    fn rescan(&mut self, line: usize) {
        let len = self.table.len[line] as u32;
        let [m0, m1] = self.masks[line];
        for (c, (own, opp)) in [(m0, m1), (m1, m0)].into_iter().enumerate() {
            let (packed, fp) = line_summary(own, opp, len, self.table.k, self.rule, self.segments);
            apply_diff(&mut self.totals[c], self.counts[line][c], packed);
            self.counts[line][c] = packed;
            self.five_points[line][c] = fp;
        }
    }

    /// What a stone of `player` on the empty square `sq` would create, without placing it:
    /// the patterns containing it on each of its four lines, and the score change (own
    /// patterns made, opponent patterns blocked). Probing the opponent's stone on the same
    /// square tells what that square blocks.
    pub fn probe(&self, player: Player, sq: Square) -> Result<Probe, EvalError> {
        match self.board.get(sq.index()) {
            None => return Err(EvalError::off_board(sq, self.board.len())),
            Some(Some(_)) => return Err(EvalError::Occupied { square: sq.0 }),
            Some(None) => {}
        }
        let (me, k, rule) = (player.index(), self.table.k, self.rule);
        let mut probe = Probe::default();
        let mut delta = [PatternCounts::default(); 2];
        for a in 0..4 {
            let (line, pos) = self.table.of_square[sq.index() * 4 + a];
            if line == NO_LINE {
                continue;
            }
            let line = line as usize;
            let len = self.table.len[line] as u32;
            let pos = pos as u32;
            let bit = 1u32 << pos;
            let own = self.masks[line][me] | bit;
            let opp = self.masks[line][1 - me];
            // The segment holding the new stone: its patterns that contain the stone.
            let free = bits(0, len) & !(opp as u64);
            let blocked_below = !free & bits(0, pos);
            let lo = blocked_below.checked_ilog2().map_or(0, |b| b + 1);
            let hi = pos + (free >> pos).trailing_ones();
            let seg_own = ((own as u64 >> lo) & bits(0, hi - lo)) as u32;
            let seg_bit = 1u32 << (pos - lo);
            scan(seg_own, 0, hi - lo, k, rule, |p, stones| {
                if stones & seg_bit != 0 {
                    probe.created[p] += 1;
                    probe.per_axis[a] = Some(probe.per_axis[a].map_or(p, |q| q.min(p)));
                }
            });
            let (mine, _) = line_summary(own, opp, len, k, rule, self.segments);
            let (theirs, _) = line_summary(opp, own, len, k, rule, self.segments);
            apply_diff(&mut delta[me], self.counts[line][me], mine);
            apply_diff(&mut delta[1 - me], self.counts[line][1 - me], theirs);
        }
        // Counts may go down: weigh them as signed.
        let weigh = |d: &PatternCounts| -> i64 {
            d.0.iter()
                .zip(self.weights.0)
                .map(|(&c, w)| c as i32 as i64 * w as i64)
                .sum()
        };
        probe.score_delta = weigh(&delta[0]) - weigh(&delta[1]);
        Ok(probe)
    }
}

#[cfg(test)]
mod tests;
