//! The amazons move (queen move plus arrow) and its notation `d1-d7/g7`.

use board_core::{Geometry, NotationError, Square};

/// One amazons turn: a queen moves `from` → `to`, then shoots an arrow from `to` onto
/// `arrow`. Squares are flat indices (`row * size + col`). Ordered by `from`, `to`, `arrow`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct AmazonsMove {
    /// The square of the mover's queen before the move.
    pub from: Square,
    /// The empty square the queen moves to along a row, column or diagonal.
    pub to: Square,
    /// The square the arrow lands on, shot from `to` along a row, column or diagonal (may
    /// be `from`, which the queen has left).
    pub arrow: Square,
}

impl AmazonsMove {
    /// The move of the queen on `from` to `to`, shooting onto `arrow` (unchecked: see
    /// [`MoveError`](crate::MoveError) for what validation rejects).
    #[inline]
    pub const fn new(from: Square, to: Square, arrow: Square) -> AmazonsMove {
        AmazonsMove { from, to, arrow }
    }
}

const EXPECTED: &str = "a queen move and its arrow, like d1-d7/g7 (or d1 d7 g7)";

/// Reads `d1-d7/g7` or `d1 d7 g7` (any case; spaces around the parts are ignored).
pub(crate) fn parse(geometry: &Geometry, text: &str) -> Result<AmazonsMove, NotationError> {
    let t = text.trim();
    let parts: Vec<&str> = if t.contains(['-', '/']) {
        // Canonical form: exactly one '-' before exactly one '/'.
        let (from, rest) = t
            .split_once('-')
            .ok_or_else(|| NotationError::syntax(text, EXPECTED))?;
        let (to, arrow) = rest
            .split_once('/')
            .ok_or_else(|| NotationError::syntax(text, EXPECTED))?;
        vec![from.trim(), to.trim(), arrow.trim()]
    } else {
        t.split_whitespace().collect()
    };
    let [from, to, arrow] = parts.as_slice() else {
        return Err(NotationError::syntax(text, EXPECTED));
    };
    if [from, to, arrow]
        .iter()
        .any(|p| p.is_empty() || p.contains(['-', '/']) || p.contains(char::is_whitespace))
    {
        return Err(NotationError::syntax(text, EXPECTED));
    }
    Ok(AmazonsMove {
        from: geometry.parse_square(from)?,
        to: geometry.parse_square(to)?,
        arrow: geometry.parse_square(arrow)?,
    })
}

/// Prints `d1-d7/g7`.
pub(crate) fn format(geometry: &Geometry, mv: AmazonsMove) -> String {
    format!(
        "{}-{}/{}",
        geometry.format_square(mv.from),
        geometry.format_square(mv.to),
        geometry.format_square(mv.arrow)
    )
}
