//! The source article's simple connect6 AI, kept as the yardstick.
//!
//! - **Search**: plain fixed-depth alpha-beta ([`search::SearchOptions::plain_alpha_beta`]),
//!   depth [`BASELINE_DEPTH`] = 2 turns (our pair, the opponent's pair), no transposition
//!   table. Among root moves of equal value it keeps the first in its candidate order, as
//!   a plain `if value > best` loop does ([`search::SearchOptions::with_root_tie_break`]
//!   off): the seeded tie-break would have to search every tied pair at full width, and
//!   the opening is one wide plateau (twos score 0), which made a move take seconds.
//! - **Candidates**: every pair of empty squares within Chebyshev distance 2 of a stone
//!   (the centre, as a single stone, on the empty board; all legal moves on a single-stone
//!   turn at the end of an even board). Pairs are listed in a good-first *order* (by a
//!   per-square run hint, see [`square_hint`]); the order only lets alpha-beta cut sooner,
//!   the value searched is that of the full radius-2 pair set.
//! - **Evaluation** ([`baseline_eval`]), from the side to move's point of view: the sum of
//!   the run scores of its stones minus the sum of the opponent's.
//!   - A **run** is a maximal sequence of consecutive stones of one colour along one line
//!     (a row, a column or a diagonal). Each maximal run counts once per line it lies on.
//!   - The **ends** of a run are the two cells just beyond it on its line. A run is
//!     **open** if both ends are empty squares, **closed** if exactly one is, and **dead**
//!     (scores 0) if neither is.
//!   - Scores ([`run_score`]): the gomoku baseline's scheme moved up by one stone for six
//!     in a row (the article's connect6 numbers were not available; this is the documented
//!     choice): length ≥ 6 (six) 500,000 whatever its ends; open five 500,000; closed five
//!     50,000; open four 30,000; closed four 3,000; open three 2,000; closed three 200;
//!     twos and single stones 0.
//!
//!   Values beyond the search's ±900,000 heuristic range are clamped by the search.
//!
//! The evaluation is kept incrementally ([`BaselineState`]: the run score of every line,
//! recomputed for the four lines through each new stone) so that depth 2 over pairs runs in
//! reasonable time; [`baseline_eval`] is the from-scratch reference it is tested against.

use board_core::{Direction, Player, Rules as _, Square, lines};
use rules_connect6::{Connect6Position, LineView, Move};
use search::{EvalState, Evaluator, Incremental};

/// The baseline's fixed search depth (turns).
pub const BASELINE_DEPTH: u32 = 2;

/// The baseline's run scores by length and number of open ends.
pub fn run_score(len: u32, open_ends: u32) -> i32 {
    if len >= 6 {
        return 500_000;
    }
    match (len, open_ends) {
        (5, 2) => 500_000,
        (5, 1) => 50_000,
        (4, 2) => 30_000,
        (4, 1) => 3_000,
        (3, 2) => 2_000,
        (3, 1) => 200,
        _ => 0,
    }
}

/// Sum of the run scores of one colour on one line.
pub fn line_score(lv: &LineView, player: Player) -> i32 {
    let empty = lv.empty();
    let mut s = lv.stones(player);
    let mut total = 0i32;
    while s != 0 {
        let start = s.trailing_zeros();
        let len = (s >> start).trailing_ones();
        let end = start + len; // first cell after the run
        let left = start > 0 && (empty >> (start - 1)) & 1 == 1;
        let right = end < lv.len && (empty >> end) & 1 == 1;
        total = total.saturating_add(run_score(len, u32::from(left) + u32::from(right)));
        s &= if end >= 32 { 0 } else { u32::MAX << end };
    }
    total
}

/// The line number ([`board_core::lines`]) of `sq` on axis `a` (0 E, 1 N, 2 NE, 3 SE) on a
/// `size` board; `None` off the board.
fn line_id(size: u32, sq: Square, a: usize) -> Option<usize> {
    let slots = lines::slots(size).get(sq.index())?;
    Some(slots.get(a)?.line as usize)
}

/// The baseline evaluation of a position from scratch: per colour, the sum of its run
/// scores over every line, own minus opponent's from the side to move's view.
pub fn baseline_eval(pos: &Connect6Position) -> i64 {
    let g = pos.geometry();
    let n = pos.size();
    let mut seen = vec![false; lines::line_count(n)];
    let mut sum = [0i64; 2];
    for sq in g.squares() {
        for (a, dir) in Direction::AXES.into_iter().enumerate() {
            let Some(id) = line_id(n, sq, a) else {
                continue;
            };
            if seen.get(id).is_none_or(|&s| s) {
                continue;
            }
            seen[id] = true;
            if let Some(lv) = pos.line_through(sq, dir) {
                for p in Player::BOTH {
                    sum[p.index()] += i64::from(line_score(&lv, p));
                }
            }
        }
    }
    let me = pos.side_to_move();
    sum[me.index()] - sum[me.other().index()]
}

/// The run scores of every line, kept up to date move by move.
#[derive(Clone, Debug, PartialEq)]
pub struct BaselineState {
    lines: Vec<[i32; 2]>,
    total: [i64; 2],
}

impl BaselineState {
    /// Per colour, the sum of its run scores.
    pub fn totals(&self) -> [i64; 2] {
        self.total
    }

    fn refresh(&mut self, pos: &Connect6Position, sq: Square, undo: &mut BaselineUndo) {
        for (a, dir) in Direction::AXES.into_iter().enumerate() {
            let Some(id) = line_id(pos.size(), sq, a) else {
                continue;
            };
            let Some(lv) = pos.line_through(sq, dir) else {
                continue;
            };
            let Some(slot) = self.lines.get_mut(id) else {
                continue;
            };
            let new = [
                line_score(&lv, Player::First),
                line_score(&lv, Player::Second),
            ];
            let old = std::mem::replace(slot, new);
            for i in 0..2 {
                self.total[i] += i64::from(new[i]) - i64::from(old[i]);
            }
            if let Some(slot) = undo.lines.get_mut(undo.len as usize) {
                *slot = (id as u16, old);
                undo.len += 1;
            }
        }
    }
}

/// What [`BaselineState`] restores on unmake: the previous scores of the (at most 8) lines
/// through the move's stones, in the order they were overwritten.
#[derive(Clone, Copy, Debug, Default)]
pub struct BaselineUndo {
    lines: [(u16, [i32; 2]); 8],
    len: u8,
}

impl EvalState<Connect6Position> for BaselineState {
    type Undo = BaselineUndo;

    fn from_position(pos: &Connect6Position) -> Self {
        let g = pos.geometry();
        let n = pos.size();
        let mut st = BaselineState {
            lines: vec![[0; 2]; lines::line_count(n)],
            total: [0; 2],
        };
        let mut seen = vec![false; lines::line_count(n)];
        for sq in g.squares() {
            for (a, dir) in Direction::AXES.into_iter().enumerate() {
                let Some(id) = line_id(n, sq, a) else {
                    continue;
                };
                if seen.get(id).is_none_or(|&s| s) {
                    continue;
                }
                seen[id] = true;
                if let Some(lv) = pos.line_through(sq, dir) {
                    let v = [
                        line_score(&lv, Player::First),
                        line_score(&lv, Player::Second),
                    ];
                    st.lines[id] = v;
                    st.total[0] += i64::from(v[0]);
                    st.total[1] += i64::from(v[1]);
                }
            }
        }
        st
    }

    fn make(&mut self, pos: &Connect6Position, mv: Move, _: &rules_connect6::Undo) -> Self::Undo {
        let mut undo = BaselineUndo::default();
        for sq in mv.squares() {
            self.refresh(pos, sq, &mut undo);
        }
        undo
    }

    fn unmake(&mut self, undo: Self::Undo) {
        for &(id, old) in undo.lines[..undo.len as usize].iter().rev() {
            if let Some(slot) = self.lines.get_mut(id as usize) {
                let cur = std::mem::replace(slot, old);
                for i in 0..2 {
                    self.total[i] += i64::from(old[i]) - i64::from(cur[i]);
                }
            }
        }
    }
}

/// The position the baseline searches.
pub type BaselinePosition = Incremental<Connect6Position, BaselineState>;

/// Builds the baseline position of a game position.
pub fn baseline_wrap(pos: &Connect6Position) -> BaselinePosition {
    Incremental::new(pos.clone())
}

/// The baseline's candidate squares: empty squares within Chebyshev distance 2 of a stone,
/// in square order.
pub fn radius2_squares(pos: &Connect6Position) -> Vec<Square> {
    let g = pos.geometry();
    let n = pos.size() as i32;
    let mut mark = vec![false; g.cells()];
    for s in board_core::SquareSet::squares(pos.occupied()) {
        let (c, r) = (g.col(s) as i32, g.row(s) as i32);
        for dr in -2..=2 {
            for dc in -2..=2 {
                let (cc, rr) = (c + dc, r + dr);
                if (0..n).contains(&cc) && (0..n).contains(&rr) {
                    mark[(rr * n + cc) as usize] = true;
                }
            }
        }
    }
    mark.iter()
        .enumerate()
        .filter(|&(i, &m)| m && pos.is_empty_square(Square(i as u16)))
        .map(|(i, _)| Square(i as u16))
        .collect()
}

/// Ordering hint of a square for the baseline (only ordering depends on it): exactly how
/// much the baseline evaluation, from the side to move's view, changes when the side to
/// move puts one stone there (its runs extended, the opponent's runs blocked). Pairs are
/// ordered by the sum of their squares' hints, which is the pair's true effect unless the
/// two squares share a line, so the reply that refutes a move is usually tried first.
pub fn square_hint(pos: &Connect6Position, sq: Square) -> i32 {
    let me = pos.side_to_move();
    let mut v = 0i64;
    for dir in Direction::AXES {
        let Some(lv) = pos.line_through(sq, dir) else {
            continue;
        };
        let mut with = lv;
        match me {
            Player::First => with.black |= 1 << lv.pos,
            Player::Second => with.white |= 1 << lv.pos,
        }
        let op = me.other();
        v += i64::from(line_score(&with, me)) - i64::from(line_score(&lv, me));
        v -= i64::from(line_score(&with, op)) - i64::from(line_score(&lv, op));
    }
    v.clamp(-(1 << 30), 1 << 30) as i32
}

/// The baseline's candidate moves: every pair of radius-2 squares, best hints first.
pub fn baseline_candidates(pos: &Connect6Position, moves: &mut Vec<Move>) {
    moves.clear();
    if pos.outcome().is_some() {
        return;
    }
    if pos.stones_to_place() == 1 {
        if pos.ply() == 0 {
            let c = pos.size() / 2;
            moves.extend(pos.geometry().square_at(c, c).map(Move::single));
        } else {
            pos.generate_moves(moves);
        }
        return;
    }
    let cells = radius2_squares(pos);
    let hints: Vec<i32> = cells.iter().map(|&s| square_hint(pos, s)).collect();
    let mut pairs: Vec<(i32, Move)> = Vec::with_capacity(cells.len() * cells.len() / 2);
    for i in 0..cells.len() {
        for j in i + 1..cells.len() {
            pairs.push((
                hints[i].saturating_add(hints[j]),
                Move::pair(cells[i], cells[j]),
            ));
        }
    }
    pairs.sort_unstable_by_key(|&(h, m)| (std::cmp::Reverse(h), m));
    moves.extend(pairs.into_iter().map(|(_, m)| m));
}

/// The baseline evaluator.
#[derive(Clone, Copy, Debug, Default)]
pub struct BaselineEval;

impl Evaluator<BaselinePosition> for BaselineEval {
    fn evaluate(&self, pos: &BaselinePosition) -> i32 {
        let t = pos.state().totals();
        let me = pos.side_to_move().index();
        (t[me] - t[1 - me]).clamp(-i64::from(i32::MAX), i64::from(i32::MAX)) as i32
    }

    fn candidates(&self, pos: &BaselinePosition, moves: &mut Vec<Move>) {
        baseline_candidates(pos.position(), moves);
    }
}
