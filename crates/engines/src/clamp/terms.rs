//! Clamp terms: material, centre and mobility (steps + drops), each from First's point of
//! view (First's value minus Second's), as small functions an evaluator combines. The
//! baseline clamp evaluator is `material·100 + centre·4 + mobility·2`
//! ([`ClampTerms::baseline`]); other weights are the engine's business.
//!
//! ```
//! use board_core::{Bitboard64, Geometry, SquareSet};
//! use boardlab_engines::clamp::terms::ClampTerms;
//!
//! let g = Geometry::square(8)?;
//! let sqs = |names: &[&str]| -> Bitboard64 {
//!     names.iter().map(|n| g.parse_square(n).unwrap()).collect()
//! };
//! let black = sqs(&["c6", "d6", "e6", "f6"]);
//! let white = sqs(&["c3", "d3", "e3", "f3"]);
//! // Drop zones minus occupied squares: ranks 6-8 for Black, 1-3 for White.
//! let zone = |rows: std::ops::Range<u32>| -> Bitboard64 {
//!     g.squares().filter(|&s| rows.contains(&g.row(s))).collect()
//! };
//! let (bz, wz) = (zone(5..8), zone(0..3));
//! let terms = ClampTerms::new(g, [&black, &white], [Some(&bz), Some(&wz)])?;
//! // The start position is symmetric.
//! assert_eq!(terms, ClampTerms { material: 0, centre: 0, mobility: 0 });
//! assert_eq!(terms.baseline(), 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use board_core::{Geometry, Square, SquareSet};

use eval::{EvalError, check_pair, check_set, mobility};

/// Pieces on the board: `|First| − |Second|`.
pub fn material<S: SquareSet>(pieces: [&S; 2]) -> i32 {
    pieces[0].count() as i32 - pieces[1].count() as i32
}

/// How far `sq` is from the edge, in rings: 0 on the outer ring, rising by one per ring
/// towards the centre (3 on the four centre squares of 8×8). On a square board this is the
/// largest Chebyshev distance from the centre minus the square's own. `None` off the board.
pub fn centrality(geometry: &Geometry, sq: Square) -> Option<u32> {
    if !geometry.contains(sq) {
        return None;
    }
    let (col, row) = (geometry.col(sq), geometry.row(sq));
    Some(
        col.min(geometry.width() - 1 - col)
            .min(row)
            .min(geometry.height() - 1 - row),
    )
}

/// Centre control: the sum of [`centrality`] over First's pieces minus over Second's.
pub fn centre<S: SquareSet>(geometry: &Geometry, pieces: [&S; 2]) -> Result<i32, EvalError> {
    check_pair(geometry, pieces)?;
    let sum = |s: &S| -> i32 {
        s.squares()
            .map(|sq| centrality(geometry, sq).unwrap_or(0) as i32)
            .sum()
    };
    Ok(sum(pieces[0]) - sum(pieces[1]))
}

/// One player's clamp mobility: steps of 1 or 2 squares (the square between empty) by each
/// of `own` pieces, plus the empty squares of `drops` (the player's drop zone, or `None`
/// when the player may not drop, e.g. at the piece limit).
pub fn player_mobility<S: SquareSet>(
    geometry: &Geometry,
    occupied: &S,
    own: &S,
    drops: Option<&S>,
) -> Result<u32, EvalError> {
    let steps = mobility::step_mobility(geometry, occupied, own, 2)?;
    let drops = match drops {
        Some(zone) => {
            check_set(geometry, zone)?;
            zone.without_all(*occupied).count()
        }
        None => 0,
    };
    Ok(steps + drops)
}

/// Mobility balance: [`player_mobility`] of First minus Second's, with every piece on the
/// board blocking.
pub fn mobility<S: SquareSet>(
    geometry: &Geometry,
    pieces: [&S; 2],
    drops: [Option<&S>; 2],
) -> Result<i32, EvalError> {
    check_pair(geometry, pieces)?;
    let occupied = *pieces[0] | *pieces[1];
    let first = player_mobility(geometry, &occupied, pieces[0], drops[0])?;
    let second = player_mobility(geometry, &occupied, pieces[1], drops[1])?;
    Ok(first as i32 - second as i32)
}

/// The three clamp terms of one position, First's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClampTerms {
    /// [`material`].
    pub material: i32,
    /// [`centre`].
    pub centre: i32,
    /// [`mobility`](fn@mobility).
    pub mobility: i32,
}

impl ClampTerms {
    /// All three terms: `pieces[p]` are player `p`'s pieces, `drops[p]` the drop zone `p`
    /// may drop into (`None` if `p` may not drop now).
    pub fn new<S: SquareSet>(
        geometry: &Geometry,
        pieces: [&S; 2],
        drops: [Option<&S>; 2],
    ) -> Result<ClampTerms, EvalError> {
        Ok(ClampTerms {
            material: material(pieces),
            centre: centre(geometry, pieces)?,
            mobility: mobility(geometry, pieces, drops)?,
        })
    }

    /// `material·m + centre·c + mobility·b`.
    pub fn weighted(&self, m: i32, c: i32, b: i32) -> i64 {
        self.material as i64 * m as i64
            + self.centre as i64 * c as i64
            + self.mobility as i64 * b as i64
    }

    /// The baseline evaluator's weighting: `material·100 + centre·4 + mobility·2`.
    pub fn baseline(&self) -> i64 {
        self.weighted(100, 4, 2)
    }
}

#[cfg(test)]
mod tests {
    use board_core::{Bitboard64, BoardSet};

    use super::*;

    fn set<S: SquareSet>(g: &Geometry, names: &[&str]) -> S {
        names.iter().map(|n| g.parse_square(n).unwrap()).collect()
    }

    #[test]
    fn centrality_rings() {
        let g = Geometry::square(8).unwrap();
        let c = |n| centrality(g, g.parse_square(n).unwrap()).unwrap();
        assert_eq!(
            [
                c("a1"),
                c("b2"),
                c("c3"),
                c("d4"),
                c("e5"),
                c("h8"),
                c("d1")
            ],
            [0, 1, 2, 3, 3, 0, 0]
        );
        assert_eq!(centrality(g, Square(64)), None);
        let g = Geometry::new(6, 3).unwrap();
        assert_eq!(centrality(g, g.parse_square("c2").unwrap()), Some(1));
        // Square boards: max Chebyshev distance from the centre minus the square's own.
        for size in [6u32, 8, 10, 26] {
            let g = Geometry::square(size).unwrap();
            for sq in g.squares() {
                let (x, y) = (
                    2 * g.col(sq) as i32 - (size as i32 - 1),
                    2 * g.row(sq) as i32 - (size as i32 - 1),
                );
                let cheb2 = x.abs().max(y.abs());
                assert_eq!(
                    centrality(g, sq).unwrap() as i32,
                    (size as i32 - 1 - cheb2) / 2
                );
            }
        }
    }

    #[test]
    fn hand_position() {
        // 8 . . . . . . . .
        // 7 . . . . . . . .
        // 6 . . X . . . . .      Black (First): c6, d4
        // 5 . . . . . . . .      White (Second): a1, d5
        // 4 . . . X . . . .
        // 3 . . . . . . . .
        // 2 . . . . . . . .
        // 1 O . . . . . . .
        //   a b c d e f g h
        let g = Geometry::square(8).unwrap();
        let black: Bitboard64 = set(g, &["c6", "d4"]);
        let white: Bitboard64 = set(g, &["a1", "d5"]);
        assert_eq!(material([&black, &white]), 0);
        // c6 ring 2, d4 ring 3; a1 ring 0, d5 ring 3.
        assert_eq!(centre(g, [&black, &white]).unwrap(), 5 - 3);
        let occ = black | white;
        // c6: N c7 c8, NE d7 e8, E d6 e6, SE d5 blocked, S c5 c4, SW b5 a4, W b6 a6, NW b7 a8
        // = 14. d4: N d5 blocked, NE e5 f6, E e4 f4, SE e3 f2, S d3 d2, SW c3 b2, W c4 b4,
        // NW c5 b6 = 14.
        assert_eq!(mobility::step_mobility(g, &occ, &black, 2).unwrap(), 28);
        // a1: N a2 a3, NE b2 c3, E b1 c1 = 6. d5: N d6 d7, NE e6 f7, E e5 f5, SE e4 f3,
        // S blocked, SW c4 b3, W c5 b5, NW c6 blocked = 12.
        assert_eq!(mobility::step_mobility(g, &occ, &white, 2).unwrap(), 18);
        let bz: Bitboard64 = g.squares().filter(|&s| g.row(s) >= 5).collect();
        let wz: Bitboard64 = g.squares().filter(|&s| g.row(s) <= 2).collect();
        // Black's zone (24 squares) holds c6; White's holds a1.
        assert_eq!(
            player_mobility(g, &occ, &black, Some(&bz)).unwrap(),
            28 + 23
        );
        assert_eq!(
            player_mobility(g, &occ, &white, Some(&wz)).unwrap(),
            18 + 23
        );
        assert_eq!(
            mobility(g, [&black, &white], [Some(&bz), None]).unwrap(),
            28 + 23 - 18
        );
        let t = ClampTerms::new(g, [&black, &white], [Some(&bz), Some(&wz)]).unwrap();
        assert_eq!(
            t,
            ClampTerms {
                material: 0,
                centre: 2,
                mobility: 10
            }
        );
        assert_eq!(t.baseline(), 2 * 4 + 10 * 2);
        assert_eq!(t.weighted(1, 1, 1), 12);
    }

    #[test]
    fn range_checked() {
        let g = Geometry::square(8).unwrap();
        let a: Bitboard64 = set(g, &["a1"]);
        assert!(matches!(
            centre(g, [&a, &a]),
            Err(EvalError::Overlap { .. })
        ));
        let big = Geometry::square(10).unwrap();
        let e = Bitboard64::empty();
        assert!(matches!(
            ClampTerms::new(big, [&e, &e], [None, None]),
            Err(EvalError::SetTooSmall { .. })
        ));
        let g = Geometry::square(6).unwrap();
        let stray: BoardSet = [Square(40)].into_iter().collect();
        let none = BoardSet::empty();
        assert!(matches!(
            mobility(g, [&none, &none], [Some(&stray), None]),
            Err(EvalError::OffBoard { .. })
        ));
    }
}
