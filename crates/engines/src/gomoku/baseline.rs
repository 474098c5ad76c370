//! The source articles' simple gomoku AI, kept as the yardstick.
//!
//! - **Search**: plain fixed-depth alpha-beta ([`search::SearchOptions::plain_alpha_beta`]),
//!   depth [`BASELINE_DEPTH`] = 4, no transposition table.
//! - **Candidates**: every empty square within Chebyshev distance 2 of any stone (the
//!   centre on an empty board), in square order. Moves are *ordered* by a threat hint (it
//!   only makes alpha-beta prune sooner; the value searched is the same).
//! - **Evaluation** ([`baseline_eval`]), from the side to move's point of view: the sum of
//!   the run scores of its stones minus the sum of the opponent's.
//!   - A **run** is a maximal sequence of consecutive stones of one colour along one line
//!     (a row, a column or a diagonal). Each maximal run counts once per line it lies on; a
//!     single stone is a run of length 1 on each of its four lines (scoring nothing).
//!   - The **ends** of a run are the two cells just beyond it on its line. A run is
//!     **open** if both ends are empty squares, **closed** if exactly one is, and **dead**
//!     (scores 0) if neither is (an opponent stone or the board edge on both sides).
//!   - Scores: length ≥ 5 (five) 500,000 whatever its ends; open four 500,000; closed four
//!     50,000; open three 30,000; closed three 3,000; open two 2,000; closed two 200; a
//!     single stone 0. Under `exact5` only a run of exactly 5 is a five; longer runs (not
//!     wins) score 0.
//!
//!   Values beyond the search's ±900,000 heuristic range are clamped by the search.

use board_core::{Direction, Player, Rules as _, Square, SquareSet};
use rules_gomoku::{GomokuPosition, LineView, Move, Rule};
use search::Evaluator;

use super::{classes::ClassTable, engine::move_value};

/// The baseline's fixed search depth.
pub const BASELINE_DEPTH: u32 = 4;

/// The article's run scores: `(length, open) -> score`.
pub fn run_score(len: u32, open_ends: u32, rule: Rule) -> i32 {
    if len >= 5 {
        return if rule.wins(len) { 500_000 } else { 0 };
    }
    match (len, open_ends) {
        (4, 2) => 500_000,
        (4, 1) => 50_000,
        (3, 2) => 30_000,
        (3, 1) => 3_000,
        (2, 2) => 2_000,
        (2, 1) => 200,
        _ => 0,
    }
}

/// Sum of the run scores of one colour on one line.
fn line_score(lv: &LineView, player: Player, rule: Rule) -> i32 {
    let empty = lv.empty();
    let mut s = lv.stones(player);
    let mut total = 0;
    while s != 0 {
        let start = s.trailing_zeros();
        let len = (s >> start).trailing_ones();
        let end = start + len; // first cell after the run
        let left = start > 0 && empty >> (start - 1) & 1 == 1;
        let right = end < lv.len && empty >> end & 1 == 1;
        total += run_score(len, u32::from(left) + u32::from(right), rule);
        s &= if end >= 32 { 0 } else { u32::MAX << end };
    }
    total
}

/// One square on every line of an `n × n` board, with the line's axis.
pub(crate) fn line_heads(n: u32) -> impl Iterator<Item = (u32, u32, Direction)> + use<> {
    let ranks = (0..n).map(|r| (0, r, Direction::East));
    let files = (0..n).map(|c| (c, 0, Direction::North));
    let diag = (0..n)
        .map(|r| (0, r, Direction::NorthEast))
        .chain((1..n).map(|c| (c, 0, Direction::NorthEast)));
    let anti = (0..n)
        .map(|r| (0, r, Direction::SouthEast))
        .chain((1..n).map(move |c| (c, n - 1, Direction::SouthEast)));
    ranks.chain(files).chain(diag).chain(anti)
}

/// The baseline evaluation of a position: per colour, the sum of its run scores over every
/// line, own minus opponent's from the side to move's view.
pub fn baseline_eval(pos: &GomokuPosition) -> i64 {
    let g = pos.geometry();
    let rule = pos.rule();
    let me = pos.side_to_move();
    let mut sum = [0i64; 2];
    for (c, r, dir) in line_heads(pos.size()) {
        let Some(sq) = g.square_at(c, r) else {
            continue;
        };
        let Some(lv) = pos.line_through(sq, dir) else {
            continue;
        };
        if lv.black | lv.white == 0 {
            continue;
        }
        for p in Player::BOTH {
            sum[p.index()] += i64::from(line_score(&lv, p, rule));
        }
    }
    sum[me.index()] - sum[me.other().index()]
}

/// The baseline's candidate squares: empty squares within Chebyshev distance 2 of a stone
/// (the centre on an empty board), in square order.
pub fn baseline_candidates(pos: &GomokuPosition, moves: &mut Vec<Move>) {
    moves.clear();
    if pos.outcome().is_some() {
        return;
    }
    let g = pos.geometry();
    let n = pos.size() as i32;
    let occupied = pos.occupied();
    if occupied.is_empty() {
        let c = pos.size() / 2;
        moves.extend(g.square_at(c, c).map(Move::new));
        return;
    }
    let mut mark = vec![false; g.cells()];
    for s in occupied.squares() {
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
    moves.extend(
        mark.iter()
            .enumerate()
            .filter(|&(i, &m)| m && pos.is_empty_square(Square(i as u16)))
            .map(|(i, _)| Move::new(Square(i as u16))),
    );
}

/// The baseline evaluator (evaluation + candidates + an ordering hint).
#[derive(Clone, Copy, Debug, Default)]
pub struct BaselineEval;

impl Evaluator<GomokuPosition> for BaselineEval {
    fn evaluate(&self, pos: &GomokuPosition) -> i32 {
        baseline_eval(pos).clamp(-i64::from(i32::MAX), i64::from(i32::MAX)) as i32
    }

    fn candidates(&self, pos: &GomokuPosition, moves: &mut Vec<Move>) {
        baseline_candidates(pos, moves);
    }

    fn move_hint(&self, pos: &GomokuPosition, mv: Move) -> i32 {
        if !pos.is_empty_square(mv.square()) {
            return -1;
        }
        let t = ClassTable::get(pos.rule());
        1 + move_value(t, pos, pos.side_to_move(), mv.square())
    }
}
