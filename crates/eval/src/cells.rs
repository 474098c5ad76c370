//! An evaluator for any game with a [`View`], read from its cells alone: the crate's
//! k-windows and mobility, weighted, in a few lines of the game's code. It is what a game
//! of your own starts with before it writes an incremental evaluator of its own.
//!
//! ```
//! use boardlab_eval::CellEvaluator;
//! # fn evaluate<V: board_core::View>(pos: &V) -> i32 {
//! // A window of four one stone short of a row is worth 60, two short 8, three short 1;
//! // each piece's queen moves add 2.
//! const EVAL: CellEvaluator = CellEvaluator::windows(4, &[60, 8, 1]).with_mobility(u32::MAX, 2);
//! EVAL.evaluate(pos) // for the side to move
//! # }
//! ```
//!
//! Why window weights by the stones a window still lacks, rather than by the stones it
//! holds ([`crate::WindowWeights`]): a variant that changes the row length changes `k`, not
//! what a window one stone short of a win is worth, so one table serves every `k`, and `k`
//! can come from the position's config at each call.

use std::cell::Cell as StdCell;

use board_core::{BoardSet, Geometry, Player, SquareSet, View, view::Cell};

use crate::{KWindows, mobility};

/// Weighted terms computed from a [`View`]'s cells: one-sided k-windows and mobility.
/// `Copy` and built in `const` context, so a game keeps one in a `const` or builds one per
/// call for free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellEvaluator<'w> {
    /// Window length; 0 for no window term.
    k: u32,
    /// `by_missing[m - 1]`: the worth of a one-sided window still `m` pieces short of full.
    by_missing: &'w [i32],
    /// `(reach, weight)`: each empty square a piece reaches along a line, at most `reach`
    /// squares away, is worth `weight`.
    mobility: Option<(u32, i32)>,
}

impl<'w> CellEvaluator<'w> {
    /// The window term: every `k` squares in a line (rank, file, diagonal) that hold pieces
    /// of one player only, and no marker, are worth `by_missing[m - 1]` to that player
    /// when `m` of them are still empty; a window short of more than `by_missing.len()`
    /// pieces, or full, is worth nothing (a finished game is the search's business). On a
    /// board where no window of `k` fits the term is 0.
    pub const fn windows(k: u32, by_missing: &'w [i32]) -> CellEvaluator<'w> {
        CellEvaluator {
            k,
            by_missing,
            mobility: None,
        }
    }

    /// No term yet: add [`with_mobility`](CellEvaluator::with_mobility).
    pub const fn none() -> CellEvaluator<'static> {
        CellEvaluator {
            k: 0,
            by_missing: &[],
            mobility: None,
        }
    }

    /// Adds mobility: each empty square a piece reaches in a straight line through empty
    /// squares, at most `reach` squares away (`1` a king's step, `u32::MAX` a queen's
    /// move; see [`mobility::ray_moves`]), is worth `weight` to the piece's owner.
    pub const fn with_mobility(self, reach: u32, weight: i32) -> CellEvaluator<'w> {
        CellEvaluator {
            mobility: Some((reach, weight)),
            ..self
        }
    }

    /// The score from `First`'s point of view: First's terms minus Second's.
    pub fn score<V: View>(&self, pos: &V) -> i64 {
        let geometry = pos.geometry();
        let cells: Vec<Cell> = geometry.squares().map(|sq| pos.cell(sq)).collect();
        self.window_score(geometry, &cells) + self.mobility_score(geometry, &cells)
    }

    /// The terms this evaluator weighs, First's minus Second's: the windows short of 1,
    /// 2, … pieces (one entry per window weight), then the squares reached (with
    /// mobility). The [`score`](CellEvaluator::score) is their sum weighted by
    /// [`weights`](CellEvaluator::weights): what [`crate::tune::fit`] fits.
    pub fn features<V: View>(&self, pos: &V) -> Vec<i64> {
        let geometry = pos.geometry();
        let cells: Vec<Cell> = geometry.squares().map(|sq| pos.cell(sq)).collect();
        let n = self.by_missing.len();
        // Window term m alone: weight 1 for windows short of m + 1 pieces, 0 for the rest.
        let mut features: Vec<i64> = (0..n)
            .map(|m| {
                let only: Vec<i32> = (0..n).map(|i| i32::from(i == m)).collect();
                CellEvaluator::windows(self.k, &only).window_score(geometry, &cells)
            })
            .collect();
        if let Some((reach, _)) = self.mobility {
            let moves = CellEvaluator::none().with_mobility(reach, 1);
            features.push(moves.mobility_score(geometry, &cells));
        }
        features
    }

    /// The weights of [`features`](CellEvaluator::features), in its order.
    pub fn weights(&self) -> Vec<i32> {
        let mut weights = self.by_missing.to_vec();
        weights.extend(self.mobility.map(|(_, w)| w));
        weights
    }

    /// This evaluator with other weights (as [`weights`](CellEvaluator::weights) lists
    /// them, from a fit): the window weights from `weights`, then the mobility weight if
    /// it has mobility. `None` when `weights` has another length.
    pub fn with_weights<'v>(&self, weights: &'v [i32]) -> Option<CellEvaluator<'v>> {
        let windows = self.by_missing.len();
        match (self.mobility, weights.len()) {
            (None, n) if n == windows => Some(CellEvaluator::windows(self.k, weights)),
            (Some((reach, _)), n) if n == windows + 1 => {
                let evaluator = CellEvaluator::windows(self.k, &weights[..windows]);
                Some(evaluator.with_mobility(reach, weights[windows]))
            }
            _ => None,
        }
    }

    /// The score for the side to move (what a search's evaluator returns), clamped to
    /// `i32`.
    pub fn evaluate<V: View>(&self, pos: &V) -> i32 {
        let score = self.score(pos) * i64::from(pos.side_to_move().sign());
        score.clamp(i64::from(i32::MIN + 1), i64::from(i32::MAX)) as i32
    }

    fn window_score(&self, geometry: &Geometry, cells: &[Cell]) -> i64 {
        let Some(windows) = windows_of(geometry, self.k) else {
            return 0;
        };
        let mut score = 0;
        for w in (0..windows.len()).filter_map(|i| windows.window(i)) {
            let mut counts = [0u32; 2];
            for sq in w {
                match cells[sq.index()] {
                    Cell::Empty => {}
                    Cell::Piece { owner, .. } => counts[owner.index()] += 1,
                    Cell::Marker => counts = [1, 1],
                }
            }
            let (sign, held) = match counts {
                [n, 0] => (1, n),
                [0, n] => (-1, n),
                _ => continue,
            };
            let missing = (self.k - held) as usize;
            if let Some(&worth) = missing.checked_sub(1).and_then(|i| self.by_missing.get(i)) {
                score += sign * i64::from(worth);
            }
        }
        score
    }

    fn mobility_score(&self, geometry: &Geometry, cells: &[Cell]) -> i64 {
        let Some((reach, weight)) = self.mobility else {
            return 0;
        };
        let squares = |keep: &dyn Fn(Cell) -> bool| -> BoardSet {
            geometry
                .squares()
                .filter(|sq| keep(cells[sq.index()]))
                .collect()
        };
        // A BoardSet holds every board up to 26×26 (the largest geometry), and the squares
        // come from the geometry: the checks of `mobility::ray_mobility` cannot fail here.
        let occupied = squares(&|c| c != Cell::Empty);
        let moves = Player::BOTH.map(|p| {
            let pieces = squares(&|c| c.owner() == Some(p)).squares();
            let reached =
                pieces.map(|sq| mobility::ray_moves_unchecked(geometry, &occupied, sq, reach));
            reached.map(i64::from).sum::<i64>()
        });
        i64::from(weight) * (moves[0] - moves[1])
    }
}

/// The windows of `k` on `geometry`, `None` when none fits (or `k` is 0). The last table
/// used is kept per thread, so a search evaluating one board takes the shared cache's lock
/// once per thread rather than once per position.
fn windows_of(geometry: &Geometry, k: u32) -> Option<&'static KWindows> {
    thread_local! {
        static LAST: StdCell<Option<&'static KWindows>> = const { StdCell::new(None) };
    }
    let (width, height) = (geometry.width(), geometry.height());
    let same =
        |w: &&KWindows| (w.geometry().width(), w.geometry().height(), w.k()) == (width, height, k);
    let last = LAST.get().filter(same);
    if last.is_some() {
        return last;
    }
    // The shared geometry of the same shape: the window tables are kept per shape.
    let shared = Geometry::new(width, height).ok()?;
    let windows = KWindows::new(shared, k).ok()?;
    LAST.set(Some(windows));
    Some(windows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bare board of cells, to evaluate without rules.
    #[derive(Clone, Debug, PartialEq)]
    struct Board(Vec<Cell>, &'static Geometry);

    board_core::config_without_parameters!(struct Config = "cells");

    #[derive(Clone, Debug, PartialEq, thiserror::Error)]
    #[error("no moves")]
    struct NoMoves;

    impl board_core::Rules for Board {
        type Move = board_core::Square;
        type Undo = ();
        type MoveError = NoMoves;
        fn side_to_move(&self) -> Player {
            Player::BOTH[self.0.iter().filter(|c| c.owner().is_some()).count() % 2]
        }
        fn ply(&self) -> u32 {
            0
        }
        fn compute_hash(&self) -> u64 {
            0
        }
        fn outcome(&self) -> Option<board_core::Outcome> {
            None
        }
        fn generate_moves(&self, moves: &mut Vec<board_core::Square>) {
            moves.clear();
        }
        fn validate(&self, _: &board_core::Square) -> Result<(), NoMoves> {
            Err(NoMoves)
        }
        fn make_move(&mut self, _: board_core::Square) {}
        fn unmake_move(&mut self, _: board_core::Square, _: ()) {}
    }

    board_core::square_notation!(Board);

    impl board_core::Position for Board {
        type Config = Config;
        fn new(_: Config) -> Board {
            let g = Geometry::square(4).expect("4x4");
            Board(vec![Cell::Empty; g.cells()], g)
        }
        fn config(&self) -> &Config {
            &Config
        }
        fn to_position_string(&self) -> String {
            board_core::setup::write_view(self, &[])
        }
        fn from_position_string(
            _: Config,
            _: &str,
        ) -> Result<Board, board_core::PositionStringError> {
            Err(board_core::PositionStringError::TooLong)
        }
    }

    impl View for Board {
        fn geometry(&self) -> &Geometry {
            self.1
        }
        fn cell(&self, sq: board_core::Square) -> Cell {
            self.0[sq.index()]
        }
    }

    fn board(size: u32, cells: &[(&str, Cell)]) -> Board {
        let g = Geometry::square(size).expect("board");
        let mut b = Board(vec![Cell::Empty; g.cells()], g);
        for &(name, cell) in cells {
            b.0[g.parse_square(name).expect("square").index()] = cell;
        }
        b
    }

    const X: Cell = Cell::stone(Player::First);
    const O: Cell = Cell::stone(Player::Second);

    #[test]
    fn windows_count_by_the_pieces_they_lack() {
        // 3x3, k = 3: eight lines. X on b2 lies on four of them (middle row and column,
        // both diagonals), each two short.
        let eval = CellEvaluator::windows(3, &[10, 1]);
        assert_eq!(eval.score(&board(3, &[("b2", X)])), 4);
        // X b2 + a1: the a1-c3 diagonal is now one short (10), b2's other three lines
        // still two short (3), a1's row and column two short (2).
        assert_eq!(eval.score(&board(3, &[("b2", X), ("a1", X)])), 15);
        // O on c3 kills the diagonal and opens its own row, column (two short each).
        let b = board(3, &[("b2", X), ("a1", X), ("c3", O)]);
        assert_eq!(eval.score(&b), 3 + 2 - 2);
        // Side to move: two X and one O stones, so Second moves and sees it negated.
        assert_eq!(eval.evaluate(&b), -3);
        // A marker blocks every window through it.
        let blocked = board(3, &[("b2", X), ("a1", Cell::Marker)]);
        assert_eq!(eval.score(&blocked), 3);
        // Windows three short are worth nothing with two weights.
        assert_eq!(
            CellEvaluator::windows(3, &[10]).score(&board(3, &[("b2", X)])),
            0
        );
    }

    #[test]
    fn the_score_is_the_weighted_sum_of_the_features() {
        let b = board(4, &[("a1", X), ("b2", X), ("c2", O), ("d4", Cell::Marker)]);
        let eval = CellEvaluator::windows(3, &[10, 3, 1]).with_mobility(2, 4);
        let features = eval.features(&b);
        assert_eq!(features.len(), 4);
        let weighted: i64 = features
            .iter()
            .zip(eval.weights())
            .map(|(f, w)| f * i64::from(w))
            .sum();
        assert_eq!(weighted, eval.score(&b));
        assert_eq!(eval.weights(), [10, 3, 1, 4]);
        let other = [1, 2, 3, 5];
        let reweighted = eval.with_weights(&other).expect("four weights");
        assert_eq!(reweighted.weights(), other);
        assert!(eval.with_weights(&[1, 2, 3]).is_none());
    }

    #[test]
    fn no_window_fits_no_window_counts() {
        let eval = CellEvaluator::windows(5, &[10, 1, 1, 1, 1]);
        assert_eq!(eval.score(&board(3, &[("b2", X)])), 0);
        assert_eq!(
            CellEvaluator::windows(0, &[]).score(&board(3, &[("b2", X)])),
            0
        );
    }

    #[test]
    fn mobility_counts_the_squares_each_side_reaches() {
        // 4x4, X on a1 and O on c2: each side's reach through the empty squares.
        let b = board(4, &[("a1", X), ("c2", O)]);
        let queen = CellEvaluator::none().with_mobility(u32::MAX, 1);
        let g = b.1;
        let occupied: BoardSet = [g.parse_square("a1").unwrap(), g.parse_square("c2").unwrap()]
            .into_iter()
            .collect();
        let reach = |s: &str| {
            mobility::queen_moves(g, &occupied, g.parse_square(s).unwrap()).unwrap() as i64
        };
        assert_eq!(queen.score(&b), reach("a1") - reach("c2"));
        let king = CellEvaluator::none().with_mobility(1, 3);
        assert_eq!(king.score(&b), 3 * (3 - 8));
        // The two terms add.
        let both = CellEvaluator::windows(4, &[1]).with_mobility(1, 3);
        assert_eq!(both.score(&b), king.score(&b));
    }
}
