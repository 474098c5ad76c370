//! Per-cell line patterns kept incrementally (the board machinery of the classical gomoku
//! engines).
//!
//! Every cell keeps, per colour and per axis, a key of the ten cells around it (five on each
//! side): a base-3 number with digit 1 for the colour's own stone and 2 for a blocked cell
//! (the other colour's stone or the board edge). [`ClassTable`] maps a key to the strongest
//! pattern a stone of that colour would make there on that line (under the rule: exact-five
//! refuses overlines). The four line classes combine into one code per cell and colour,
//! and tables over that code give the cell's kind (five, flex four, four-three, four,
//! double three, three), its evaluation weight and its move-ordering value.
//!
//! A stone changes only the keys of the cells within five steps along its four lines
//! (40 cells): the keys are additive (placing adds, removing subtracts the same digits),
//! so make and unmake update those cells, the per-colour sums and the kind counts, and
//! never rescan the board.

use std::sync::OnceLock;

use board_core::{Player, Rules as _, Square, SquareSet};
use rules_gomoku::{GomokuPosition, Move};
use search::EvalState;

use super::classes::{
    BROKEN_THREE, CLOSED_THREE, ClassTable, FIVE, FOUR, OPEN_FOUR, OPEN_THREE, OPEN_TWO,
    threat_value,
};

/// Cells of padding around the board (the reach of a key).
const PAD: i32 = 5;
/// Words of a cell bitset (26×26 cells at most).
const WORDS: usize = 11;
/// Chebyshev radius of the candidate neighbourhood.
const RADIUS: i32 = 2;

/// What a stone of one colour would make on a cell, over its four lines, strongest first.
/// `K_FIVE`: a five; `K_FLEX4`: an open four or two fours (a win next turn unless the
/// opponent answers with fives); `K_FOUR3`: a four and an open three; `K_FOUR`: a four;
/// `K_THREE2`: two open threes; `K_THREE`: one open three.
pub(crate) const K_NONE: usize = 0;
pub(crate) const K_THREE: usize = 1;
pub(crate) const K_THREE2: usize = 2;
pub(crate) const K_FOUR: usize = 3;
pub(crate) const K_FOUR3: usize = 4;
pub(crate) const K_FLEX4: usize = 5;
pub(crate) const K_FIVE: usize = 6;
/// Slots of a kind count: the seven kinds and one never used, so that a kind read from
/// [`CodeTables::eval_kind`] (`% 8`) indexes the counts without a bounds check.
const KINDS: usize = 8;

/// Number of combined codes: four line classes of 9 values each.
const CODES: usize = 6561;

/// Tables over the combined code of a cell (`Σ class[axis]·9^axis`).
pub(crate) struct CodeTables {
    /// The cell's kind and its weights for the side to move and the waiting side (see
    /// [`EvalWeights`]): one load for all three, since make and unmake need them for both
    /// the old and the new code.
    pub eval_kind: [EvalKind; CODES],
    pub order: [i32; CODES],
}

/// A code's weights (by [`TO_MOVE`] and [`WAITING`]) and kind.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EvalKind {
    weight: [i32; 2],
    kind: u8,
}

/// The weights of the quiet evaluation of one colour (`engine::static_value`): what the
/// empty cells are worth to it, by the line class a stone of its would make there on each
/// axis (none, closed two, open two, closed three, broken three, open three, four, open
/// four, five), plus a bonus for a cell where a stone makes two open threes and for one
/// where it makes a four and an open three, and for the combinations of its lines
/// ([`Combo`], and the pair of its two strongest classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellWeights {
    /// Weight of each line class on an empty cell, by class.
    pub line: [i32; 9],
    /// Extra weight of a cell where a stone makes two open threes.
    pub three2: i32,
    /// Extra weight of a cell where a stone makes a four and an open three.
    pub four3: i32,
    /// Extra weight of a cell by the combination its four lines make short of a winning
    /// threat ([`Combo`], by its index): what the line weights, summed axis by axis, do
    /// not see.
    pub combo: [i32; COMBOS],
    /// Extra weight of a cell by its two strongest line classes together, when both are
    /// between a closed two and a four (indexed by the pair): a stone there builds on
    /// two lines at once, which the line weights, summed axis by axis, value as if apart.
    pub pair: [i32; PAIRS],
}

/// Number of line-class pairs ([`CellWeights::pair`]): the unordered pairs of the six
/// classes from a closed two to a four.
pub const PAIRS: usize = 21;

/// The index in [`CellWeights::pair`] of a cell whose four line classes are `c`: its two
/// strongest classes, when both lie between a closed two and a four (`None` otherwise: a
/// cell on one line only, which the line weights cover, or one with an open four or a
/// five, which decides the value before the cells' weights count).
pub(crate) fn pair_of(c: [u8; 4]) -> Option<usize> {
    let mut s = c;
    s.sort_unstable_by(|a, b| b.cmp(a));
    let (hi, lo) = (usize::from(s[0]), usize::from(s[1]));
    let four = usize::from(FOUR);
    (lo >= 1 && hi <= four).then(|| (hi - 1) * hi / 2 + lo - 1)
}

/// Combinations of a cell's line classes that the per-axis weights miss: a stone there
/// builds on two lines at once, so that one more stone can make a double threat (the
/// strongest classical engines score a cell by its four line patterns together). A cell
/// has at most one, the first that applies in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combo {
    /// A three or a four, and an open two on another line: after the answer to the threat,
    /// the two is still there to make a second three.
    ThreatTwo = 0,
    /// A closed three and, on another line, at least an open two (no winning threat):
    /// the closed three is a four in reserve beside a growing line.
    ClosedThreeTwo = 1,
    /// Two open twos (nothing stronger): the cell that prepares a double three.
    TwoTwo = 2,
}

/// Number of [`Combo`]s.
pub const COMBOS: usize = 3;

/// The combination a stone of one colour makes on a cell whose line classes are `c` and
/// whose kind is `kind` (`None` for none, and for the winning threats, which the kinds and
/// their own weights cover).
fn combo_of(c: [u8; 4], kind: usize) -> Option<Combo> {
    let count = |x: u8| c.iter().filter(|&&y| y == x).count();
    let open_twos = count(OPEN_TWO);
    match kind {
        K_THREE | K_FOUR if open_twos > 0 => Some(Combo::ThreatTwo),
        K_NONE | K_THREE | K_FOUR
            if count(CLOSED_THREE) > 0 && c.iter().filter(|&&y| y >= OPEN_TWO).count() >= 2 =>
        {
            Some(Combo::ClosedThreeTwo)
        }
        K_NONE if open_twos >= 2 => Some(Combo::TwoTwo),
        _ => None,
    }
}

impl CellWeights {
    /// The weight of a cell whose four line classes are `c` and whose kind is `kind`.
    fn of(&self, c: [u8; 4], kind: usize) -> i32 {
        let bonus = match kind {
            K_THREE2 => self.three2,
            K_FOUR3 => self.four3,
            _ => 0,
        };
        let combo = combo_of(c, kind).map_or(0, |x| self.combo[x as usize]);
        let pair = pair_of(c).map_or(0, |i| self.pair[i]);
        c.iter().map(|&x| self.line[x as usize]).sum::<i32>() + bonus + combo + pair
    }
}

/// The quiet evaluation's weights: one set for the side to move (its cells are worth more:
/// it plays first) and one for the side that waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// The side to move's weights.
    pub to_move: CellWeights,
    /// The waiting side's weights.
    pub waiting: CellWeights,
    /// A value for the side to move by which threats each side can make next
    /// ([`threat_mask`](super::engine::threat_mask)): who holds the initiative, which the
    /// cells' sums, weighed one cell at a time, do not see.
    pub threats: [i32; THREAT_MASKS],
}

/// Number of threat masks ([`EvalWeights::threats`]): five bits.
pub const THREAT_MASKS: usize = 32;

/// One colour's counts of what [`CellWeights`] weighs: (empty cell, axis) pairs by line
/// class, and empty cells of kind double three, of kind four-three and by [`Combo`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClassCounts {
    pub lines: [i64; 9],
    pub three2: i64,
    pub four3: i64,
    pub combos: [i64; COMBOS],
    pub pairs: [i64; PAIRS],
}

/// Which of [`EvalWeights`]' two sets: the side to move's.
pub(crate) const TO_MOVE: usize = 0;
/// Which of [`EvalWeights`]' two sets: the waiting side's.
pub(crate) const WAITING: usize = 1;

/// The hand weights the fit starts from. The waiting side's are session 2's (`LINE_EVAL`
/// then; twos weigh little: a lone stone already makes twos on many cells, and weighing
/// them high made the engine scatter stones); the side to move's are 3/2 of them
/// (rounded), the initiative that gained in session 6 (see `docs/strength.md`).
pub const HAND_WEIGHTS: EvalWeights = EvalWeights {
    to_move: CellWeights {
        line: [0, 2, 5, 9, 45, 54, 68, 300, 750],
        three2: 150,
        four3: 300,
        combo: [0; COMBOS],
        pair: [0; PAIRS],
    },
    waiting: CellWeights {
        line: [0, 1, 3, 6, 30, 36, 45, 200, 500],
        three2: 100,
        four3: 200,
        combo: [0; COMBOS],
        pair: [0; PAIRS],
    },
    threats: [0; THREAT_MASKS],
};

/// The engine's evaluation weights: [`HAND_WEIGHTS`] fitted to the results of 1,200
/// games (`gomoku::tune`): 800 self-play games, 200 against Rapfi and PentaZen at 500 ms
/// and 200 against Rapfi at 100 ms (the files are in `data/`, listed by the test
/// `shipped_weights_are_the_fit_of_the_shipped_games`; the commands are in
/// `docs/strength.md`, session 11, and the SPRT that kept them over 958 games at 500 ms,
/// session 16; the threat masks were added and everything refitted in session 17, kept by
/// an SPRT over 360 games; the class pairs in session 18, kept by an SPRT over 816 games).
/// What the fit says: a four-three point is worth far more to the side to move than its
/// lines (the opponent's four must be answered, then it wins); a cell that builds on two
/// lines at once ([`Combo`], the class pairs) more than its lines apart. The class pairs
/// overlap the double-three and four-three bonuses (a cell of two threes has a pair of
/// threes), so they are read together: a double-three point of an open and a broken three
/// is worth less to the side to move than one of two broken threes (306 − 399 against
/// 306 − 203), and a four beside an open three (a four-three point: its bonus, 1,198, and
/// 435 for the pair) far more than a four beside an open two (98). The threat masks
/// correct the cells' sums by about −270 to +660; the largest corrections are upward where
/// the opponent holds a winning-threat point and a four (its cells already weigh those
/// threats heavily, point by point) and downward where only the side to move can make a
/// four (a lone four is one forcing move, not a lasting advantage).
pub const EVAL_WEIGHTS: EvalWeights = EvalWeights {
    to_move: CellWeights {
        line: [0, 2, 5, 9, 43, 41, 74, 300, 750],
        three2: 306,
        four3: 1198,
        combo: [32, 5, 14],
        pair: [
            -1, 1, 0, 12, 28, 56, -5, -2, 46, -203, 10, 23, 36, -399, -253, 10, 98, 163, 152, 435,
            0,
        ],
    },
    waiting: CellWeights {
        line: [0, 1, 3, 6, 44, 22, 78, 312, 500],
        three2: 313,
        four3: 669,
        combo: [15, 3, 16],
        pair: [
            4, -1, 1, 20, 20, 40, 3, 12, 42, -222, -2, 49, 49, -341, -262, 44, 99, 138, -382, -371,
            360,
        ],
    },
    threats: [
        151, -265, 105, -157, 242, 162, 457, 131, -14, -49, 105, 161, 147, -37, 239, 275, 0, 0, 0,
        0, 656, 450, 540, 523, -203, -40, 174, 341, 358, 170, 143, 196,
    ],
};

fn code_classes(code: usize) -> [u8; 4] {
    [
        (code % 9) as u8,
        (code / 9 % 9) as u8,
        (code / 81 % 9) as u8,
        (code / 729 % 9) as u8,
    ]
}

fn kind_of(c: [u8; 4]) -> usize {
    let count = |f: &dyn Fn(u8) -> bool| c.iter().filter(|&&x| f(x)).count();
    let fives = count(&|x| x == FIVE);
    let open_fours = count(&|x| x == OPEN_FOUR);
    let fours = count(&|x| x == FOUR) + open_fours;
    let threes = count(&|x| x == OPEN_THREE || x == BROKEN_THREE);
    if fives > 0 {
        K_FIVE
    } else if open_fours > 0 || fours >= 2 {
        K_FLEX4
    } else if fours == 1 && threes >= 1 {
        K_FOUR3
    } else if fours == 1 {
        K_FOUR
    } else if threes >= 2 {
        K_THREE2
    } else if threes == 1 {
        K_THREE
    } else {
        K_NONE
    }
}

impl std::fmt::Debug for CodeTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CodeTables")
    }
}

impl CodeTables {
    pub(crate) fn get() -> &'static CodeTables {
        static T: OnceLock<Box<CodeTables>> = OnceLock::new();
        T.get_or_init(|| {
            let mut t = Box::new(CodeTables {
                eval_kind: [EvalKind::default(); CODES],
                order: [0; CODES],
            });
            let w = EVAL_WEIGHTS;
            for code in 0..CODES {
                let c = code_classes(code);
                let kind = kind_of(c);
                t.eval_kind[code] = EvalKind {
                    weight: [w.to_move.of(c, kind), w.waiting.of(c, kind)],
                    kind: kind as u8,
                };
                t.order[code] = threat_value(c);
            }
            t
        })
    }
}

/// A set of cells by square index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct CellSet([u64; WORDS]);

impl CellSet {
    #[inline]
    fn set(&mut self, i: usize, on: bool) {
        let (w, b) = (i / 64, i % 64);
        if on {
            self.0[w] |= 1 << b;
        } else {
            self.0[w] &= !(1 << b);
        }
    }
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// The squares of the set, lowest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.0.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(Square::new((wi * 64 + b as usize) as u16))
            })
        })
    }
    #[inline]
    pub(crate) fn insert(&mut self, sq: Square) {
        self.set(sq.index(), true);
    }
    #[inline]
    pub(crate) fn contains(&self, sq: Square) -> bool {
        let i = sq.index();
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    #[inline]
    pub(crate) fn first(&self) -> Option<Square> {
        self.iter().next()
    }
}

/// Cell contents on the padded board.
const EMPTY: u8 = 0;
const WALL: u8 = 3;

/// Powers of three (digit weights of a key).
const POW3: [u16; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];
/// Powers of nine (axis weights of a combined code).
const POW9: [u16; 4] = [1, 9, 81, 729];

/// One cell of the padded board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Cell {
    /// Per colour and axis: the key of the ten cells around it.
    key: [[u16; 4]; 2],
    /// Per colour and axis: the line class (all `NONE` on occupied cells).
    line: [[u8; 4]; 2],
    /// Per colour: the combined code of the line classes (0 on occupied cells).
    code: [u16; 2],
    /// Stones within Chebyshev distance [`RADIUS`] (at most 25).
    near: u8,
    /// The square index of an on-board cell (so that the cell sets need no division).
    sq: u16,
    /// Empty, a stone (1 + player index) or a wall.
    stone: u8,
}

/// The incremental pattern state of a gomoku position (see the module docs).
#[derive(Clone, Debug)]
pub struct GomokuState {
    /// Board side.
    n: i32,
    /// Padded width (`n + 2·PAD`).
    w: i32,
    /// Step of each axis on the padded board (east, north, north-east, north-west).
    step: [i32; 4],
    /// How far a stone reaches along a line: 4 under freestyle (the patterns through a
    /// cell lie within 4 steps of it), 5 under exact-five (an overline looks one further).
    reach: isize,
    table: &'static ClassTable,
    tables: &'static CodeTables,
    /// The padded board.
    cells: Vec<Cell>,
    /// What the empty cells' codes add up to.
    tally: Tally,
    /// What each stone placed since [`from_position`](EvalState::from_position)
    /// overwrote, latest last: the cells its placing changed (its own, then those within
    /// reach along each axis) and the tally. Taking the last stone back copies them back
    /// instead of recomputing them: the search and the threat searches take stones back
    /// last placed, first removed, and recomputing was half the cost of a move made and
    /// taken back.
    saved_cells: Vec<Cell>,
    saved_tallies: Vec<(usize, Tally)>,
}

/// The aggregates of the empty cells' codes, kept apart from the cells so that an update
/// can hold a cell and the tally at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Tally {
    /// Per colour and weight set ([`TO_MOVE`], [`WAITING`]): the sum of the evaluation
    /// weights of the empty cells.
    sum: [[i32; 2]; 2],
    /// Per colour: how many empty cells are of each kind.
    kinds: [[u16; KINDS]; 2],
    /// Per colour: the cells where it makes a five.
    fives: [CellSet; 2],
    /// Per colour: the cells where it makes a four (kinds four to flex four).
    fours: [CellSet; 2],
    /// Per colour: the cells where it makes an open three and no four (kinds three and
    /// double three): the threat search's quiet threats.
    threes: [CellSet; 2],
}

impl Tally {
    /// Sets `cell`'s code for colour `c` to `new` and updates the aggregates.
    #[inline(always)]
    fn recode(&mut self, tables: &CodeTables, cell: &mut Cell, c: usize, new: u16) {
        let old = cell.code[c];
        if old == new {
            return;
        }
        cell.code[c] = new;
        let (eo, en) = (
            tables.eval_kind[old as usize],
            tables.eval_kind[new as usize],
        );
        self.sum[c][TO_MOVE] += en.weight[TO_MOVE] - eo.weight[TO_MOVE];
        self.sum[c][WAITING] += en.weight[WAITING] - eo.weight[WAITING];
        let (ko, kn) = (usize::from(eo.kind), usize::from(en.kind));
        // Kinds change at few of the cells a stone reaches (the branch is cheaper than
        // the stores: a branch-free version was measured slower).
        if ko != kn {
            self.kinds[c][ko] -= 1;
            self.kinds[c][kn] += 1;
            let sq = usize::from(cell.sq);
            if ko == K_FIVE || kn == K_FIVE {
                self.fives[c].set(sq, kn == K_FIVE);
            }
            let is_four = |k: usize| (K_FOUR..=K_FLEX4).contains(&k);
            if is_four(ko) != is_four(kn) {
                self.fours[c].set(sq, is_four(kn));
            }
            let is_three = |k: usize| k == K_THREE || k == K_THREE2;
            if is_three(ko) != is_three(kn) {
                self.threes[c].set(sq, is_three(kn));
            }
        }
    }
}

impl PartialEq for GomokuState {
    /// Equal boards and derived data (the class tables are shared per rule).
    fn eq(&self, o: &Self) -> bool {
        self.n == o.n
            && std::ptr::eq(self.table, o.table)
            && self.cells == o.cells
            && self.tally == o.tally
    }
}

impl GomokuState {
    /// The empty board of side `n` under `rule`.
    fn empty(n: i32, rule: rules_gomoku::Rule) -> GomokuState {
        let w = n + 2 * PAD;
        let cells = (w * w) as usize;
        let mut st = GomokuState {
            n,
            w,
            step: [1, w, w + 1, w - 1],
            reach: match rule {
                rules_gomoku::Rule::Freestyle => 4,
                rules_gomoku::Rule::Exact5 => 5,
            },
            table: ClassTable::get(rule),
            tables: CodeTables::get(),
            cells: vec![
                Cell {
                    stone: WALL,
                    ..Cell::default()
                };
                cells
            ],
            tally: Tally::default(),
            saved_cells: Vec::new(),
            saved_tallies: Vec::new(),
        };
        for r in 0..n {
            for c in 0..n {
                let p = st.pad(r, c);
                st.cells[p].stone = EMPTY;
                st.cells[p].sq = (r * n + c) as u16;
            }
        }
        for r in 0..n {
            for c in 0..n {
                let p = st.pad(r, c);
                for a in 0..4 {
                    let s = st.step[a] as isize;
                    for k in 1..=st.reach {
                        if st.cells[(p as isize - k * s) as usize].stone == WALL {
                            let d = POW3[(5 - k) as usize] * 2;
                            st.cells[p].key[0][a] += d;
                            st.cells[p].key[1][a] += d;
                        }
                        if st.cells[(p as isize + k * s) as usize].stone == WALL {
                            let d = POW3[(4 + k) as usize] * 2;
                            st.cells[p].key[0][a] += d;
                            st.cells[p].key[1][a] += d;
                        }
                    }
                }
                st.tally.kinds[0][K_NONE] += 1;
                st.tally.kinds[1][K_NONE] += 1;
                st.classify(p);
            }
        }
        st
    }

    #[inline]
    fn pad(&self, r: i32, c: i32) -> usize {
        ((r + PAD) * self.w + c + PAD) as usize
    }

    /// The padded index of a square.
    #[inline]
    pub(crate) fn pad_of(&self, sq: Square) -> usize {
        let i = sq.index() as i32;
        self.pad(i / self.n, i % self.n)
    }

    /// Recomputes both colours' line classes and codes of the empty cell `p` from its keys.
    #[inline]
    fn classify(&mut self, p: usize) {
        let cell = &mut self.cells[p];
        for c in 0..2 {
            let mut code = 0u16;
            for (a, pow9) in POW9.into_iter().enumerate() {
                let class = self.table.class_at(cell.key[c][a]);
                cell.line[c][a] = class;
                code += u16::from(class) * pow9;
            }
            self.tally.recode(self.tables, cell, c, code);
        }
    }

    /// Clears the line classes and codes of `p` (it is taken).
    #[inline]
    fn clear(&mut self, p: usize) {
        let cell = &mut self.cells[p];
        cell.line = [[0; 4]; 2];
        self.tally.recode(self.tables, cell, 0, 0);
        self.tally.recode(self.tables, cell, 1, 0);
    }

    fn bump(&mut self, p: usize, up: bool) {
        for dr in -RADIUS..=RADIUS {
            for dc in -RADIUS..=RADIUS {
                let q = (p as i32 + dr * self.w + dc) as usize;
                if up {
                    self.cells[q].near += 1;
                } else {
                    self.cells[q].near -= 1;
                }
            }
        }
    }

    /// Adds (`ADD`) or removes the digits of a stone of colour `c` at `p` to the keys
    /// around it and reclassifies the empty cells among them. (Make and unmake spend most
    /// of their time here: the direction is a constant and the cell and the tally are
    /// borrowed once per cell.)
    fn spread<const ADD: bool>(&mut self, p: usize, c: usize) {
        let (table, tables) = (self.table, self.tables);
        let reach = self.reach as usize;
        for (a, (step, pow9)) in self.step.into_iter().zip(POW9).enumerate() {
            let s = step as usize;
            for k in 1..=reach {
                for (t, digit) in [(p - k * s, 4 + k), (p + k * s, 5 - k)] {
                    let cell = &mut self.cells[t];
                    let (own, other) = (POW3[digit], 2 * POW3[digit]);
                    if ADD {
                        cell.key[c][a] += own;
                        cell.key[1 - c][a] += other;
                    } else {
                        cell.key[c][a] -= own;
                        cell.key[1 - c][a] -= other;
                    }
                    if cell.stone != EMPTY {
                        continue;
                    }
                    for cc in 0..2 {
                        let new = table.class_at(cell.key[cc][a]);
                        let old = cell.line[cc][a];
                        if new != old {
                            cell.line[cc][a] = new;
                            let code =
                                cell.code[cc] + u16::from(new) * pow9 - u16::from(old) * pow9;
                            self.tally.recode(tables, cell, cc, code);
                        }
                    }
                }
            }
        }
    }

    /// Keeps the cells a stone on `p` is about to change (`p`, then the cells within reach
    /// of it along each axis, nearer first, below before above) and the tally, for
    /// [`remove`](GomokuState::remove) to put back.
    fn save(&mut self, p: usize) {
        self.saved_tallies.push((p, self.tally));
        let reach = self.reach as usize;
        self.saved_cells.reserve(1 + 8 * reach);
        self.saved_cells.push(self.cells[p]);
        for step in self.step {
            let s = step as usize;
            for k in 1..=reach {
                self.saved_cells.push(self.cells[p - k * s]);
                self.saved_cells.push(self.cells[p + k * s]);
            }
        }
    }

    /// Puts back what [`save`](GomokuState::save) kept for the stone on `p` if it is the
    /// last one placed. Otherwise (a stone taken back out of order, or one of the
    /// position's own) every record kept may describe cells that have changed since: they
    /// are all dropped, and false says that nothing was put back.
    fn restore(&mut self, p: usize) -> bool {
        if self.saved_tallies.last().map(|&(q, _)| q) != Some(p) {
            self.saved_cells.clear();
            self.saved_tallies.clear();
            return false;
        }
        let reach = self.reach as usize;
        let len = self.saved_cells.len();
        let saved = &self.saved_cells[len - 1 - 8 * reach..];
        self.cells[p] = saved[0];
        for (a, step) in self.step.into_iter().enumerate() {
            let s = step as usize;
            for k in 1..=reach {
                let i = 1 + 2 * (a * reach + k - 1);
                self.cells[p - k * s] = saved[i];
                self.cells[p + k * s] = saved[i + 1];
            }
        }
        self.saved_cells.truncate(len - 1 - 8 * reach);
        if let Some((_, tally)) = self.saved_tallies.pop() {
            self.tally = tally;
        }
        true
    }

    /// Places a stone of colour `c` on the empty cell `p`.
    fn place(&mut self, p: usize, c: usize) {
        self.save(p);
        self.clear(p);
        self.cells[p].stone = c as u8 + 1;
        self.spread::<true>(p, c);
        self.bump(p, true);
    }

    /// Removes the stone of colour `c` from `p`: copies back what placing it changed when it
    /// is the last stone placed (as the searches take stones back), else recomputes it
    /// from the keys.
    fn remove(&mut self, p: usize, c: usize) {
        // The cells out of reach along the axes but within the neighbourhood's square
        // were not saved: their counts of near stones are taken down here (the saved
        // cells' counts are copied back over theirs, to the same values).
        self.bump(p, false);
        if self.restore(p) {
            return;
        }
        self.spread::<false>(p, c);
        self.cells[p].stone = EMPTY;
        self.classify(p);
    }

    /// Puts a stone of `player` on the empty square `sq` (a threat search's move, without
    /// the rules position): true if it was empty.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, player: Player) -> bool {
        let p = self.pad_of(sq);
        if self.cells[p].stone != EMPTY {
            return false;
        }
        self.place(p, player.index());
        true
    }

    /// Takes back a stone [`put`](GomokuState::put) there.
    #[inline]
    pub(crate) fn take(&mut self, sq: Square, player: Player) {
        self.remove(self.pad_of(sq), player.index());
    }

    /// A square where `player` makes a five, if any.
    #[inline]
    pub fn five_point(&self, player: Player) -> Option<Square> {
        self.tally.fives[player.index()].first()
    }

    /// The squares where `player` makes a five.
    #[inline]
    pub(crate) fn fives(&self, player: Player) -> &CellSet {
        &self.tally.fives[player.index()]
    }

    /// The squares where `player` makes a four (not a five).
    #[inline]
    pub(crate) fn fours(&self, player: Player) -> &CellSet {
        &self.tally.fours[player.index()]
    }

    /// The squares where `player` makes an open three (one or two) and no four.
    #[inline]
    pub(crate) fn threes(&self, player: Player) -> &CellSet {
        &self.tally.threes[player.index()]
    }

    /// The kind of the empty square `sq` for `player` (what a stone of its there makes;
    /// [`K_NONE`] on an occupied square).
    #[inline]
    pub(crate) fn kind_at(&self, player: Player, sq: Square) -> usize {
        let code = self.cells[self.pad_of(sq)].code[player.index()];
        usize::from(self.tables.eval_kind[usize::from(code)].kind)
    }

    /// Appends the empty squares whose stones can change the fours `player` would make on
    /// the empty square `sq`: those within reach of it (and `sq` itself) along each axis
    /// where a stone of `player` there makes a four or an open four. A stone anywhere
    /// else leaves those fours as they are.
    pub(crate) fn four_line_cells(&self, player: Player, sq: Square, out: &mut Vec<Square>) {
        let p = self.pad_of(sq);
        out.push(sq);
        let line = self.cells[p].line[player.index()];
        for (a, &class) in line.iter().enumerate() {
            if class != FOUR && class != OPEN_FOUR {
                continue;
            }
            let s = self.step[a] as isize;
            for k in 1..=self.reach {
                for t in [p as isize - k * s, p as isize + k * s] {
                    let cell = &self.cells[t as usize];
                    if cell.stone == EMPTY {
                        out.push(Square::new(cell.sq));
                    }
                }
            }
        }
    }

    /// How many empty cells are of `kind` for `player`.
    #[inline]
    pub(crate) fn kind_count(&self, player: Player, kind: usize) -> u32 {
        u32::from(self.tally.kinds[player.index()][kind])
    }

    /// The sum of the evaluation weights of the empty cells for `player`, with the weights
    /// of `set` ([`TO_MOVE`] or [`WAITING`]).
    #[inline]
    pub(crate) fn potential(&self, player: Player, set: usize) -> i32 {
        self.tally.sum[player.index()][set]
    }

    /// For `player`, what [`CellWeights`] weighs, counted from the board (for fitting the
    /// weights).
    pub(crate) fn class_counts(&self, player: Player) -> ClassCounts {
        let c = player.index();
        let mut counts = ClassCounts::default();
        for cell in self.cells.iter().filter(|cell| cell.stone == EMPTY) {
            for &class in &cell.line[c] {
                counts.lines[usize::from(class)] += 1;
            }
            if let Some(x) = self.cell_combo(cell, c) {
                counts.combos[x as usize] += 1;
            }
            if let Some(i) = pair_of(cell.line[c]) {
                counts.pairs[i] += 1;
            }
        }
        let kinds = &self.tally.kinds[c];
        counts.three2 = i64::from(kinds[K_THREE2]);
        counts.four3 = i64::from(kinds[K_FOUR3]);
        counts
    }

    /// The [`Combo`] a stone of `player` would make on the empty square `sq` (`None` on an
    /// occupied square).
    #[cfg(test)]
    pub(crate) fn combo_at(&self, player: Player, sq: Square) -> Option<Combo> {
        let cell = &self.cells[self.pad_of(sq)];
        if cell.stone != EMPTY {
            return None;
        }
        self.cell_combo(cell, player.index())
    }

    fn cell_combo(&self, cell: &Cell, c: usize) -> Option<Combo> {
        let kind = usize::from(self.tables.eval_kind[usize::from(cell.code[c])].kind);
        combo_of(cell.line[c], kind)
    }

    /// The ordering value of `sq` for `player` (its threat value) and for the opponent.
    #[inline]
    pub(crate) fn order_values(&self, me: Player, sq: Square) -> (i32, i32) {
        let p = self.pad_of(sq);
        let t = self.tables;
        let codes = self.cells[p].code;
        (
            t.order[codes[me.index()] as usize],
            t.order[codes[me.other().index()] as usize],
        )
    }

    /// Appends the empty squares within distance 2 of a stone, each with its ordering
    /// value for `me`: `own + opponent·4/5` of the two colours' order values (attack plus
    /// most of the defence).
    pub(crate) fn near_cells(&self, me: Player, out: &mut impl Extend<(i32, Square)>) {
        let t = self.tables;
        let (mi, oi) = (me.index(), me.other().index());
        for r in 0..self.n {
            let row = self.pad(r, 0);
            for c in 0..self.n as usize {
                let p = row + c;
                let cell = &self.cells[p];
                if cell.stone == EMPTY && cell.near > 0 {
                    let codes = cell.code;
                    let (a, d) = (t.order[codes[mi] as usize], t.order[codes[oi] as usize]);
                    out.extend([(a + d * 4 / 5, Square::new((r * self.n) as u16 + c as u16))]);
                }
            }
        }
    }

    /// Whether the square is within distance 2 of a stone.
    #[inline]
    pub fn is_near(&self, sq: Square) -> bool {
        self.cells[self.pad_of(sq)].near > 0
    }
}

impl EvalState<GomokuPosition> for GomokuState {
    /// The stone placed: padded cell and colour.
    type Undo = Option<(usize, usize)>;

    fn from_position(pos: &GomokuPosition) -> Self {
        let mut st = GomokuState::empty(pos.size() as i32, pos.rule());
        for p in Player::BOTH {
            for sq in pos.stones(p).squares() {
                let pi = st.pad_of(sq);
                st.place(pi, p.index());
            }
        }
        // The position's own stones are not taken back by `unmake`.
        st.saved_cells.clear();
        st.saved_tallies.clear();
        st
    }

    fn make(&mut self, pos: &GomokuPosition, mv: Move, _undo: &rules_gomoku::Undo) -> Self::Undo {
        let sq = mv.square();
        let player = pos.stone_at(sq)?;
        if player != pos.side_to_move().other() {
            return None;
        }
        let c = player.index();
        let p = self.pad_of(sq);
        if self.cells[p].stone != EMPTY {
            return None;
        }
        self.place(p, c);
        Some((p, c))
    }

    fn unmake(&mut self, undo: Self::Undo) {
        if let Some((p, c)) = undo {
            self.remove(p, c);
        }
    }
}
