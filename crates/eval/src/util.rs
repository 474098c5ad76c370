//! Small checks shared by the evaluators.

use board_core::{Geometry, Square, SquareSet};

use crate::EvalError;

/// Checks that a board of this geometry fits the set type `S`.
pub(crate) fn check_capacity<S: SquareSet>(geometry: &Geometry) -> Result<(), EvalError> {
    if geometry.cells() > S::CAPACITY {
        return Err(EvalError::SetTooSmall {
            cells: geometry.cells(),
            capacity: S::CAPACITY,
        });
    }
    Ok(())
}

/// Checks that `S` fits the board and every square of `set` is on it.
pub(crate) fn check_set<S: SquareSet>(geometry: &Geometry, set: &S) -> Result<(), EvalError> {
    check_capacity::<S>(geometry)?;
    match set.without_all(S::first_n(geometry.cells())).first() {
        Some(sq) => Err(EvalError::off_board(sq, geometry.cells())),
        None => Ok(()),
    }
}

/// Checks that two players' sets fit the board and are disjoint.
pub(crate) fn check_pair<S: SquareSet>(
    geometry: &Geometry,
    sets: [&S; 2],
) -> Result<(), EvalError> {
    check_set(geometry, sets[0])?;
    check_set(geometry, sets[1])?;
    match (*sets[0] & *sets[1]).first() {
        Some(sq) => Err(EvalError::Overlap { square: sq.0 }),
        None => Ok(()),
    }
}

/// Checks that a square is on the board.
#[inline]
pub(crate) fn check_square(geometry: &Geometry, sq: Square) -> Result<(), EvalError> {
    if geometry.contains(sq) {
        Ok(())
    } else {
        Err(EvalError::off_board(sq, geometry.cells()))
    }
}
