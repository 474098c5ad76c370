//! Small checks shared by the evaluators.

use std::{
    collections::HashMap,
    sync::{Mutex, OnceLock},
};

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
pub fn check_set<S: SquareSet>(geometry: &Geometry, set: &S) -> Result<(), EvalError> {
    check_capacity::<S>(geometry)?;
    match set.without_all(S::first_n(geometry.cells())).first() {
        Some(sq) => Err(EvalError::off_board(sq, geometry.cells())),
        None => Ok(()),
    }
}

/// Checks that two players' sets fit the board and are disjoint.
pub fn check_pair<S: SquareSet>(geometry: &Geometry, sets: [&S; 2]) -> Result<(), EvalError> {
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

/// A process-wide cache of tables built once per `(width, height, k)` and never freed.
pub(crate) type TableCache<T> = OnceLock<Mutex<HashMap<(u32, u32, u32), &'static T>>>;

/// The cached table for `key`, built by `build` on first use.
pub(crate) fn cached<T>(
    cache: &'static TableCache<T>,
    key: (u32, u32, u32),
    build: impl FnOnce() -> T,
) -> &'static T {
    let mut map = cache
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    map.entry(key)
        .or_insert_with(|| Box::leak(Box::new(build())))
}
