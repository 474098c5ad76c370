//! Plain-text board diagrams shared by every game, so all boards read the same way:
//!
//! ```text
//!    a b c d
//!  4 . . . .  4
//!  3 . X . .  3
//!  2 . . O .  2
//!  1 . . . .  1
//!    a b c d
//! ```
//! Rank 1 is at the bottom; row numbers are right-aligned so 10+ rows line up.

use crate::{geometry::Geometry, square::Square};

/// Draws the board, asking `cell` for the one character of each square.
pub fn render(geometry: &Geometry, mut cell: impl FnMut(Square) -> char) -> String {
    let num_width = geometry.height().to_string().len();
    let letters: String = (0..geometry.width())
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    let header = format!("{:num_width$}{letters}\n", "");
    let mut out = header.clone();
    for row in (0..geometry.height()).rev() {
        out.push_str(&format!("{:>num_width$}", row + 1));
        for col in 0..geometry.width() {
            out.push(' ');
            out.push(geometry.square_at(col, row).map_or('?', &mut cell));
        }
        out.push_str(&format!("  {}\n", row + 1));
    }
    out.push_str(&header);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_with_coordinates() {
        let g = Geometry::new(4, 3).unwrap();
        let text = render(g, |sq| if sq.0 == 1 { 'X' } else { '.' });
        assert_eq!(
            text,
            "  a b c d\n3 . . . .  3\n2 . . . .  2\n1 . X . .  1\n  a b c d\n"
        );
        let g = Geometry::new(2, 10).unwrap();
        let text = render(g, |_| '.');
        assert!(text.starts_with("   a b\n10 . .  10\n 9 . .  9\n"));
    }
}
