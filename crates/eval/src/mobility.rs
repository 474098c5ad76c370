//! Mobility: how many empty squares a piece reaches along the eight lines, for queens
//! (amazons: any distance) and for short steps (clamp: 1 or 2 squares, the square between
//! empty; a king: 1). Generic over [`SquareSet`], any geometry the set can hold.
//!
//! ```
//! use board_core::{Bitboard64, Geometry, SquareSet};
//! use boardlab_eval::mobility::{queen_moves, step_moves};
//!
//! let g = Geometry::square(4)?;
//! let sq = |s| g.parse_square(s).unwrap();
//! // . . . .
//! // . X . .    b3 occupied (on no line through a1)
//! // . . . .
//! // Q . X .    queen on a1, c1 occupied
//! let occupied: Bitboard64 = [sq("a1"), sq("c1"), sq("b3")].into_iter().collect();
//! // a1: north a2 a3 a4 (3), east b1 (1), diagonal b2 c3 d4 (3).
//! assert_eq!(queen_moves(g, &occupied, sq("a1"))?, 7);
//! // Steps of at most 2: a2 a3, b1, b2 c3.
//! assert_eq!(step_moves(g, &occupied, sq("a1"), 2)?, 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use board_core::{Direction, Geometry, Square, SquareSet};

use crate::{EvalError, util};

/// Empty squares reached from `from` along the 8 lines, at most `reach` squares along each
/// and stopping at the first occupied square (the piece on `from` itself does not block).
/// `reach = 1` counts king moves, `2` clamp steps, `u32::MAX` queen moves.
pub fn ray_moves<S: SquareSet>(
    geometry: &Geometry,
    occupied: &S,
    from: Square,
    reach: u32,
) -> Result<u32, EvalError> {
    util::check_set(geometry, occupied)?;
    util::check_square(geometry, from)?;
    Ok(ray_moves_unchecked(geometry, occupied, from, reach))
}

/// [`ray_moves`] without the checks (the caller has checked the set and the square).
pub(crate) fn ray_moves_unchecked<S: SquareSet>(
    geometry: &Geometry,
    occupied: &S,
    from: Square,
    reach: u32,
) -> u32 {
    let mut n = 0;
    for dir in Direction::ALL {
        for sq in geometry.ray(from, dir).take(reach as usize) {
            if occupied.contains(sq) {
                break;
            }
            n += 1;
        }
    }
    n
}

/// Queen moves from `from`: empty squares along the 8 lines up to the first blocker.
pub fn queen_moves<S: SquareSet>(
    geometry: &Geometry,
    occupied: &S,
    from: Square,
) -> Result<u32, EvalError> {
    ray_moves(geometry, occupied, from, u32::MAX)
}

/// Step moves of 1 to `reach` squares in a straight line through empty squares: `reach = 1`
/// for a king, `2` for clamp.
pub fn step_moves<S: SquareSet>(
    geometry: &Geometry,
    occupied: &S,
    from: Square,
    reach: u32,
) -> Result<u32, EvalError> {
    ray_moves(geometry, occupied, from, reach)
}

/// The sum of [`ray_moves`] over every square of `pieces`.
pub fn ray_mobility<S: SquareSet>(
    geometry: &Geometry,
    occupied: &S,
    pieces: &S,
    reach: u32,
) -> Result<u32, EvalError> {
    util::check_set(geometry, occupied)?;
    util::check_set(geometry, pieces)?;
    Ok(pieces
        .squares()
        .map(|sq| ray_moves_unchecked(geometry, occupied, sq, reach))
        .sum())
}

/// Total queen moves of all `pieces` (amazons mobility, without arrows).
pub fn queen_mobility<S: SquareSet>(
    geometry: &Geometry,
    occupied: &S,
    pieces: &S,
) -> Result<u32, EvalError> {
    ray_mobility(geometry, occupied, pieces, u32::MAX)
}

/// Total step moves (1 to `reach` squares) of all `pieces`.
pub fn step_mobility<S: SquareSet>(
    geometry: &Geometry,
    occupied: &S,
    pieces: &S,
    reach: u32,
) -> Result<u32, EvalError> {
    ray_mobility(geometry, occupied, pieces, reach)
}

#[cfg(test)]
mod tests {
    use board_core::{Bitboard64, Bitboard128, BoardSet};

    use super::*;

    fn set<S: SquareSet>(g: &Geometry, names: &[&str]) -> S {
        names.iter().map(|n| g.parse_square(n).unwrap()).collect()
    }

    #[test]
    fn queen_on_empty_boards() {
        for size in [1u32, 2, 5, 8, 10, 19, 26] {
            let g = Geometry::square(size).unwrap();
            let empty = BoardSet::empty();
            for sq in g.squares() {
                let (x, y, n) = (g.col(sq) as i32, g.row(sq) as i32, size as i32 - 1);
                // Rook part plus the two diagonals.
                let diag = x.min(y) + (n - x).min(n - y) + x.min(n - y) + (n - x).min(y);
                assert_eq!(queen_moves(g, &empty, sq).unwrap() as i32, 2 * n + diag);
                let king = g.neighbours(sq, &Direction::ALL).count() as u32;
                assert_eq!(step_moves(g, &empty, sq, 1).unwrap(), king);
            }
        }
    }

    #[test]
    fn blockers_stop_rays() {
        // 5x5, queen on c3, blockers on c5, e5, a3, d2:
        // . . X . X
        // . . . . .
        // X . Q . .
        // . . . X .
        // . . . . .
        let g = Geometry::square(5).unwrap();
        let occ: Bitboard64 = set(g, &["c3", "c5", "e5", "a3", "d2"]);
        let c3 = g.parse_square("c3").unwrap();
        // N: c4 (1). NE: d4 (1, e5 blocks). E: d3 e3 (2). SE: blocked. S: c2 c1 (2).
        // SW: b2 a1 (2). W: b3 (1). NW: b4 a5 (2).
        assert_eq!(queen_moves(g, &occ, c3).unwrap(), 11);
        assert_eq!(step_moves(g, &occ, c3, 2).unwrap(), 11);
        assert_eq!(step_moves(g, &occ, c3, 1).unwrap(), 7);
        assert_eq!(ray_moves(g, &occ, c3, 0).unwrap(), 0);
        let pieces: Bitboard64 = set(g, &["c3", "a3"]);
        // a3: N a4 a5, NE b4, E b3 (then c3), SE b2 c1, S a2 a1 = 8.
        assert_eq!(queen_mobility(g, &occ, &pieces).unwrap(), 11 + 8);
        assert_eq!(step_mobility(g, &occ, &pieces, 1).unwrap(), 7 + 5);
        // The same with the other set types.
        let occ128: Bitboard128 = set(g, &["c3", "c5", "e5", "a3", "d2"]);
        assert_eq!(queen_moves(g, &occ128, c3).unwrap(), 11);
    }

    #[test]
    fn range_checked() {
        let g = Geometry::square(10).unwrap();
        let empty = Bitboard64::empty();
        assert!(matches!(
            queen_moves(g, &empty, Square(0)),
            Err(EvalError::SetTooSmall { .. })
        ));
        let g = Geometry::square(6).unwrap();
        assert!(matches!(
            queen_moves(g, &empty, Square(36)),
            Err(EvalError::OffBoard { .. })
        ));
        let stray: Bitboard64 = [Square(50)].into_iter().collect();
        assert!(matches!(
            queen_moves(g, &stray, Square(0)),
            Err(EvalError::OffBoard { square: 50, .. })
        ));
        assert!(queen_mobility(g, &empty, &stray).is_err());
    }
}
