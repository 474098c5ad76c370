//! The strong gomoku engine: incremental line patterns, threat-ordered candidates near the
//! stones, forced replies, and a VCF (victory by continuous fours) threat search.

use std::{
    collections::HashSet,
    sync::{
        OnceLock,
        atomic::{AtomicU32, Ordering},
    },
    time::Instant,
};

use board_core::{Direction, Player, Position as _, Square, SquareSet};
use eval::{LinePatterns, Pattern, PatternCounts, PatternWeights, Rule};
use rules_gomoku::{GomokuPosition, Move};
use search::{EvalState, Evaluator, ForcedWin, Incremental};

use super::classes::{ClassTable, OPEN_FOUR, makes_four, threat_value};

/// The engine's position: the rules position plus [`GomokuState`].
pub type EnginePosition = Incremental<GomokuPosition, GomokuState>;

/// Wraps a game position for the engine.
pub fn wrap(pos: &GomokuPosition) -> EnginePosition {
    Incremental::new(pos.clone())
}

/// Chebyshev radius of the candidate neighbourhood.
const RADIUS: i32 = 2;

/// Evaluation state kept in step with the position: the line patterns of both colours
/// (counts and five points, `eval::LinePatterns`) and, per square, how many stones lie
/// within Chebyshev distance 2 (the candidate neighbourhood).
#[derive(Clone, Debug)]
pub struct GomokuState {
    lp: Option<LinePatterns>,
    near: Vec<u16>,
    size: i32,
}

impl PartialEq for GomokuState {
    fn eq(&self, other: &Self) -> bool {
        let lp_eq = match (&self.lp, &other.lp) {
            (Some(a), Some(b)) => Player::BOTH.into_iter().all(|p| {
                let mut fa: Vec<Square> = a.five_points(p).collect();
                let mut fb: Vec<Square> = b.five_points(p).collect();
                fa.sort();
                fb.sort();
                a.counts(p) == b.counts(p) && fa == fb
            }),
            (None, None) => true,
            _ => false,
        };
        lp_eq && self.near == other.near && self.size == other.size
    }
}

fn lp_rule(rule: rules_gomoku::Rule) -> Rule {
    match rule {
        rules_gomoku::Rule::Freestyle => Rule::Freestyle,
        rules_gomoku::Rule::Exact5 => Rule::Exact,
    }
}

impl GomokuState {
    fn bump(&mut self, sq: Square, delta: i32) {
        let n = self.size;
        let (c, r) = (sq.index() as i32 % n, sq.index() as i32 / n);
        for dr in -RADIUS..=RADIUS {
            let rr = r + dr;
            if rr < 0 || rr >= n {
                continue;
            }
            for dc in -RADIUS..=RADIUS {
                let cc = c + dc;
                if cc < 0 || cc >= n {
                    continue;
                }
                if let Some(v) = self.near.get_mut((rr * n + cc) as usize) {
                    *v = v.wrapping_add_signed(delta as i16);
                }
            }
        }
    }

    /// The threat counts of `player` (all zero if unavailable).
    pub fn counts(&self, player: Player) -> PatternCounts {
        self.lp
            .as_ref()
            .map_or_else(PatternCounts::default, |lp| *lp.counts(player))
    }

    /// An empty square where `player` makes a five, if any.
    pub fn five_point(&self, pos: &GomokuPosition, player: Player) -> Option<Square> {
        let lp = self.lp.as_ref()?;
        if lp.counts(player).fours() == 0 {
            return None;
        }
        lp.five_points(player).find(|&s| pos.is_empty_square(s))
    }

    /// Every distinct empty square where `player` makes a five, sorted.
    pub fn five_points(&self, pos: &GomokuPosition, player: Player, out: &mut Vec<Square>) {
        out.clear();
        let Some(lp) = self.lp.as_ref() else { return };
        if lp.counts(player).fours() == 0 {
            return;
        }
        out.extend(lp.five_points(player).filter(|&s| pos.is_empty_square(s)));
        out.sort_unstable();
        out.dedup();
    }

    /// Whether `sq` is within distance 2 of a stone.
    #[inline]
    pub fn is_near(&self, sq: Square) -> bool {
        self.near.get(sq.index()).is_some_and(|&v| v > 0)
    }
}

impl EvalState<GomokuPosition> for GomokuState {
    /// The stone placed, if one was.
    type Undo = Option<(Player, Square)>;

    fn from_position(pos: &GomokuPosition) -> Self {
        let g = pos.geometry();
        let lp = LinePatterns::from_sets(
            g,
            5,
            lp_rule(pos.rule()),
            PatternWeights::gomoku(),
            [pos.stones(Player::First), pos.stones(Player::Second)],
        )
        .ok();
        let mut st = GomokuState {
            lp,
            near: vec![0; g.cells()],
            size: pos.size() as i32,
        };
        for p in Player::BOTH {
            for sq in pos.stones(p).squares() {
                st.bump(sq, 1);
            }
        }
        st
    }

    fn make(&mut self, pos: &GomokuPosition, mv: Move, _undo: &rules_gomoku::Undo) -> Self::Undo {
        let sq = mv.square();
        let player = pos.stone_at(sq)?;
        if player != pos.side_to_move().other() {
            return None;
        }
        let lp = self.lp.as_mut()?;
        lp.place(player, sq).ok()?;
        self.bump(sq, 1);
        Some((player, sq))
    }

    fn unmake(&mut self, undo: Self::Undo) {
        if let Some((player, sq)) = undo {
            if let Some(lp) = self.lp.as_mut() {
                let _ = lp.remove(player, sq);
            }
            self.bump(sq, -1);
        }
    }
}

/// Weights of the static evaluation (per pattern, side to move's and the opponent's).
const OWN: [i32; 8] = [0, 0, 1_000, 1_200, 1_000, 150, 120, 20];
const OPP: [i32; 8] = [0, 0, 1_000, 900, 750, 120, 100, 15];

/// Largest VCF node budget at an interior node (`6·depth²` below it).
pub const INTERIOR_VCF_MAX: u32 = 200;

/// `forced_win` calls at this depth or more are taken to be the root's.
pub const ROOT_DEPTH: u32 = 20;

/// Most candidates searched at a quiet node (best by threat value), by distance from the
/// root in turns (the last entry for everything deeper).
pub const MAX_CANDIDATES: [usize; 4] = [24, 16, 12, 9];

/// The engine's evaluator: see the module docs.
#[derive(Debug, Default)]
pub struct GomokuEval {
    /// The ply of the current search's root (set by the agent before each search), which
    /// tells `candidates` how deep a node is.
    root_ply: AtomicU32,
}

impl GomokuEval {
    pub fn new() -> GomokuEval {
        // Build the shared tables now, not during the first move's time.
        ClassTable::get(rules_gomoku::Rule::Freestyle);
        ClassTable::get(rules_gomoku::Rule::Exact5);
        // `LinePatterns` builds its segment tables on first use, per rule.
        if let Ok(g) = board_core::Geometry::square(15) {
            for rule in [Rule::Freestyle, Rule::Exact] {
                let _ = LinePatterns::new(g, 5, rule, PatternWeights::gomoku());
            }
        }
        GomokuEval::default()
    }

    /// Records the ply of the next search's root.
    pub fn set_root_ply(&self, ply: u32) {
        self.root_ply.store(ply, Ordering::Relaxed);
    }

    /// How many quiet candidates a node at `ply` keeps.
    fn width(&self, ply: u32) -> usize {
        let d = ply.saturating_sub(self.root_ply.load(Ordering::Relaxed)) as usize;
        MAX_CANDIDATES[d.min(MAX_CANDIDATES.len() - 1)]
    }
}

/// Static value from the side to move's point of view, from the pattern counts alone.
pub fn static_value(my: &PatternCounts, op: &PatternCounts) -> i32 {
    if my.fours() > 0 {
        return 60_000; // a five next move
    }
    if op.get(Pattern::OpenFour) > 0 || op.fours() >= 2 {
        return -50_000; // two five points (nearly always): cannot block both
    }
    if op.fours() == 0 && my.open_threes() > 0 {
        return 30_000; // an open four next move
    }
    let mut v: i32 = 0;
    for p in Pattern::ALL {
        let i = p.index();
        v += my.get(p) as i32 * OWN[i] - op.get(p) as i32 * OPP[i];
    }
    if op.fours() == 0 && op.open_threes() >= 2 && my.get(Pattern::ClosedThree) == 0 {
        v -= 8_000; // a double open three we can only half block
    }
    if op.fours() >= 1 && op.open_threes() >= 1 && my.open_threes() == 0 {
        v -= 8_000; // a four-three: after our forced block, the three becomes an open four
    }
    v
}

impl Evaluator<EnginePosition> for GomokuEval {
    fn evaluate(&self, pos: &EnginePosition) -> i32 {
        let st = pos.state();
        let me = pos.side_to_move();
        static_value(&st.counts(me), &st.counts(me.other()))
    }

    fn candidates(&self, pos: &EnginePosition, moves: &mut Vec<Move>) {
        candidates(pos, moves, self.width(pos.ply()));
    }

    fn move_hint(&self, pos: &EnginePosition, mv: Move) -> i32 {
        let p = pos.position();
        if !p.is_empty_square(mv.square()) {
            return -1;
        }
        let t = ClassTable::get(p.rule());
        let me = p.side_to_move();
        1 + move_value(t, p, me, mv.square())
    }

    fn forced_win(&self, pos: &EnginePosition, depth: u32) -> Option<ForcedWin<Move>> {
        // The root (searched to an unbounded or deep limit) is `TimedEngine`'s job, under a
        // wall-clock deadline; interior nodes get a small node budget.
        if !(2..ROOT_DEPTH).contains(&depth) {
            return None;
        }
        find_vcf(pos, (depth * depth * 6).min(INTERIOR_VCF_MAX), false, None)
    }
}

/// The ordering value of playing `sq`: attack plus most of the defence.
#[inline]
pub(crate) fn move_value(t: &ClassTable, p: &GomokuPosition, me: Player, sq: Square) -> i32 {
    let a = threat_value(t.classes(p, me, sq));
    let d = threat_value(t.classes(p, me.other(), sq));
    a + d * 4 / 5
}

/// The engine's candidates (see the module docs): the five if we have one; the blocks if
/// the opponent has a four; against an open three, its four squares and our fours; else
/// the best `width` squares near stones by threat value.
pub fn candidates(pos: &EnginePosition, moves: &mut Vec<Move>, width: usize) {
    moves.clear();
    let p = pos.position();
    if p.outcome().is_some() {
        return;
    }
    let st = pos.state();
    let me = p.side_to_move();
    let op = me.other();
    if let Some(sq) = st.five_point(p, me) {
        moves.push(Move::new(sq));
        return;
    }
    let mut fp = Vec::new();
    st.five_points(p, op, &mut fp);
    if !fp.is_empty() {
        moves.extend(fp.into_iter().map(Move::new));
        return;
    }
    let g = p.geometry();
    if p.occupied().is_empty() {
        let c = p.size() / 2;
        if let Some(sq) = g.square_at(c, c) {
            moves.push(Move::new(sq));
        }
        return;
    }
    let t = ClassTable::get(p.rule());
    let defend = st.counts(op).open_threes() > 0;
    let mut scored: Vec<(i32, Square)> = Vec::with_capacity(64);
    for sq in p.empty_squares().squares() {
        if !st.is_near(sq) {
            continue;
        }
        let mine = t.classes(p, me, sq);
        let theirs = t.classes(p, op, sq);
        if defend && !makes_four(mine) && !makes_four(theirs) {
            continue;
        }
        let v = threat_value(mine) + threat_value(theirs) * 4 / 5;
        scored.push((v, sq));
    }
    if scored.is_empty() {
        // Nothing near (cannot happen with stones on the board); fall back to all moves.
        p.generate_moves(moves);
        return;
    }
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if !defend {
        scored.truncate(width.max(1));
    }
    moves.extend(scored.into_iter().map(|(_, s)| Move::new(s)));
}

/// Distinct empty squares where `player` would make a five, on the lines through `sq`.
fn five_points_through(p: &GomokuPosition, player: Player, sq: Square, out: &mut Vec<Square>) {
    out.clear();
    let g = p.geometry();
    for dir in Direction::ALL {
        let mut cur = sq;
        for _ in 0..5 {
            let Some(next) = g.step(cur, dir) else { break };
            cur = next;
            if p.is_winning_move(player, cur) && !out.contains(&cur) {
                out.push(cur);
            }
        }
    }
}

/// One line of the board: its squares in bit order and its axis.
pub(crate) type BoardLine = (Vec<Square>, Direction);

/// Every line of the board with at least 5 squares: its squares in bit order (as
/// [`GomokuPosition::line_through`] numbers them) and its axis. Built once per size.
pub(crate) fn board_lines(p: &GomokuPosition) -> &'static [BoardLine] {
    static TABLES: [OnceLock<Vec<BoardLine>>; 27] = [const { OnceLock::new() }; 27];
    let n = p.size();
    let g = p.geometry();
    let Some(slot) = TABLES.get(n as usize) else {
        return &[];
    };
    slot.get_or_init(|| {
        let mut lines = Vec::new();
        for (c, r, axis) in super::baseline::line_heads(n) {
            let Some(head) = g.square_at(c, r) else {
                continue;
            };
            let squares: Vec<Square> = std::iter::once(head).chain(g.ray(head, axis)).collect();
            if squares.len() >= 5 {
                lines.push((squares, axis));
            }
        }
        lines
    })
}

/// A VCF search: the attacker plays only fours (each forcing one reply) until it makes an
/// open four, a double four or a five.
struct Vcf<'a> {
    pos: GomokuPosition,
    table: &'a ClassTable,
    attacker: Player,
    nodes: u32,
    budget: u32,
    failed: Option<HashSet<u64>>,
    deadline: Option<Instant>,
    near: Vec<Square>,
    count: Vec<u8>,
    lines: &'static [BoardLine],
}

/// Maximum number of attacker fours in a VCF line.
const VCF_MAX_FOURS: u32 = 16;

impl Vcf<'_> {
    /// Squares where the attacker makes a four: the empty cells of every admissible
    /// five-cell window holding three attacker stones and no defender stone, found line by
    /// line on the line bitboards; double fours and open fours first.
    fn four_moves(&mut self, out: &mut Vec<(i32, Square)>) {
        out.clear();
        self.near.clear();
        let exact = self.pos.rule() == rules_gomoku::Rule::Exact5;
        for (squares, axis) in self.lines.iter() {
            let Some(lv) = squares
                .first()
                .and_then(|&s| self.pos.line_through(s, *axis))
            else {
                continue;
            };
            let own = lv.stones(self.attacker);
            if own.count_ones() < 3 {
                continue;
            }
            let opp = lv.stones(self.attacker.other());
            let empty = lv.empty();
            let mut cand = 0u32;
            for start in 0..=lv.len.saturating_sub(5) {
                let m = 0x1Fu32 << start;
                if m & opp != 0 || (own & m).count_ones() != 3 {
                    continue;
                }
                if exact
                    && ((start > 0 && own >> (start - 1) & 1 == 1)
                        || (start + 5 < lv.len && own >> (start + 5) & 1 == 1))
                {
                    continue;
                }
                cand |= m & empty;
            }
            while cand != 0 {
                let bit = cand.trailing_zeros();
                cand &= cand - 1;
                if let Some(&sq) = squares.get(bit as usize) {
                    let i = sq.index();
                    if self.count[i] == 0 {
                        self.near.push(sq);
                    }
                    self.count[i] = self.count[i].saturating_add(1);
                }
            }
        }
        for &sq in &self.near {
            let lines = self.count[sq.index()];
            self.count[sq.index()] = 0;
            let c = self.table.classes(&self.pos, self.attacker, sq);
            let strong = lines >= 2 || c.contains(&OPEN_FOUR);
            let v = threat_value(c) + if strong { 1_000_000 } else { 0 };
            out.push((v, sq));
        }
        out.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    }

    /// With the attacker to move (and no five point of its own), `forced` the defender's
    /// single five point if it has one: the turns to a win, and the first move.
    fn search(&mut self, fours_left: u32, forced: Option<Square>) -> Option<(u32, Square)> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(32) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.budget = 0;
        }
        if self.nodes > self.budget || fours_left == 0 {
            return None;
        }
        let key = self.pos.hash();
        if self.failed.as_ref().is_some_and(|f| f.contains(&key)) {
            return None;
        }
        let mut moves = Vec::new();
        self.four_moves(&mut moves);
        let mut fives = Vec::new();
        let mut def_fives = Vec::new();
        let defender = self.attacker.other();
        for &(_, m) in &moves {
            if forced.is_some_and(|f| f != m) {
                continue;
            }
            let mv = Move::new(m);
            let u1 = self.pos.make_move(mv);
            if self.pos.outcome().is_some() {
                // A five (the caller handles fives; be safe anyway).
                self.pos.unmake_move(mv, u1);
                return Some((1, m));
            }
            five_points_through(&self.pos, self.attacker, m, &mut fives);
            let result = match fives.len() {
                0 => None,
                1 => {
                    let f = fives[0];
                    let fm = Move::new(f);
                    let u2 = self.pos.make_move(fm);
                    let r = if self.pos.outcome().is_some() {
                        None
                    } else {
                        five_points_through(&self.pos, defender, f, &mut def_fives);
                        match def_fives.len() {
                            0 => self.search(fours_left - 1, None),
                            1 => self.search(fours_left - 1, Some(def_fives[0])),
                            _ => None,
                        }
                    };
                    self.pos.unmake_move(fm, u2);
                    r.map(|(t, _)| (t + 2, m))
                }
                _ => Some((3, m)),
            };
            self.pos.unmake_move(mv, u1);
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

/// A forced win for the side to move by continuous fours, within `budget` VCF nodes and
/// before `deadline`; `memo` remembers failed positions.
pub fn find_vcf(
    pos: &EnginePosition,
    budget: u32,
    memo: bool,
    deadline: Option<Instant>,
) -> Option<ForcedWin<Move>> {
    let p = pos.position();
    if p.outcome().is_some() || budget == 0 {
        return None;
    }
    let st = pos.state();
    let me = p.side_to_move();
    if let Some(sq) = st.five_point(p, me) {
        return Some(ForcedWin {
            mv: Move::new(sq),
            turns: 1,
        });
    }
    let my = st.counts(me);
    // A four needs three own stones in a window: no three-class pattern, no four.
    if my.get(Pattern::OpenThree) + my.get(Pattern::BrokenThree) + my.get(Pattern::ClosedThree) == 0
    {
        return None;
    }
    let mut fp = Vec::new();
    st.five_points(p, me.other(), &mut fp);
    if fp.len() >= 2 {
        return None;
    }
    let mut vcf = Vcf {
        pos: p.clone(),
        table: ClassTable::get(p.rule()),
        attacker: me,
        nodes: 0,
        budget,
        failed: memo.then(HashSet::new),
        deadline,
        near: Vec::with_capacity(64),
        count: vec![0; p.geometry().cells()],
        lines: board_lines(p),
    };
    vcf.search(VCF_MAX_FOURS, fp.first().copied())
        .map(|(turns, sq)| ForcedWin {
            mv: Move::new(sq),
            turns,
        })
}
