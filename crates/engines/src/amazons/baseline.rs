//! The source article's amazons AI: mobility and centre, searched to a fixed depth.

use super::*;

// ---- baseline -------------------------------------------------------------------------------

/// Chebyshev distance from `sq` to the nearest of the four centre squares.
pub fn centre_distance(size: u32, sq: Square) -> u32 {
    let (col, row) = (sq.index() as u32 % size, sq.index() as u32 / size);
    let (lo, hi) = (size / 2 - 1, size / 2);
    let axis = |c: u32| {
        if c < lo { lo - c } else { c.saturating_sub(hi) }
    };
    axis(col).max(axis(row))
}

/// Sum over `player`'s queens of their queen-move reach (empty squares).
pub fn queen_mobility(pos: &Position, player: Player) -> i32 {
    squares(pos.queens(player))
        .map(|q| pos.queen_mobility(q) as i32)
        .sum()
}

pub(super) fn centre_sum(pos: &Position, player: Player) -> i32 {
    let size = pos.size();
    squares(pos.queens(player))
        .map(|q| centre_distance(size, q) as i32)
        .sum()
}

/// The article's evaluation from the side to move's view:
/// `100·(mobility own − opp) − 6·(centre distance own − opp)`.
pub fn baseline_value(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let op = me.other();
    100 * (queen_mobility(pos, me) - queen_mobility(pos, op))
        - 6 * (centre_sum(pos, me) - centre_sum(pos, op))
}

/// The baseline's evaluator: the article's evaluation, all moves, ordered.
#[derive(Clone, Copy, Debug, Default)]
pub struct BaselineEval;

impl Evaluator<Position> for BaselineEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        baseline_value(pos)
    }

    /// Every legal move, ordered by the cheap pre-score (ordering only).
    fn candidates(&self, pos: &Position, moves: &mut Vec<AmazonsMove>) {
        let mut scored = Vec::with_capacity(2400);
        let ctx = PreScore::new(pos);
        for (from, to, qs) in queen_moves(pos, &ctx) {
            let blockers = Bitboard128((pos.occupied().0 & !bit(from)) | bit(to));
            for arrow in squares(pos.queen_reach_in(to, blockers)) {
                let mv = AmazonsMove::new(from, to, arrow);
                scored.push((qs + ctx.arrow(from, to, arrow), mv));
            }
        }
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        moves.clear();
        moves.extend(scored.into_iter().map(|(_, m)| m));
    }
}

// ---- engine evaluation ----------------------------------------------------------------------
