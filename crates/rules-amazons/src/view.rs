//! What an Amazons board shows ([`View`]): queens and arrows.

use board_core::{
    Geometry, Position, Square,
    view::{Cell, PieceKind, View},
};

use crate::{AmazonsMove, AmazonsPosition, Piece};

impl View for AmazonsPosition {
    fn geometry(&self) -> &Geometry {
        AmazonsPosition::geometry(self)
    }

    fn cell(&self, sq: Square) -> Cell {
        match self.piece_at(sq) {
            Some(Piece::Queen(owner)) => Cell::Piece {
                owner,
                kind: PieceKind::Queen,
            },
            Some(Piece::Arrow) => Cell::Marker,
            None => Cell::Empty,
        }
    }

    fn move_squares(&self, mv: AmazonsMove) -> Vec<Square> {
        vec![mv.from, mv.to, mv.arrow]
    }

    /// `w` and `b` for the queens by colour (not by who moves first), `x` for arrows.
    fn glyph(&self, cell: Cell) -> char {
        match cell {
            Cell::Piece { owner, .. } if owner == self.config().white() => 'w',
            Cell::Piece { .. } => 'b',
            Cell::Marker => 'x',
            Cell::Empty => '.',
        }
    }

    fn rules_text(&self) -> String {
        format!(
            "Amazons: each turn, move one of your queens like a chess queen (any distance in\n\
         a straight line or diagonal, not through or onto queens or arrows), then shoot\n\
         an arrow from where it landed, the same way. The arrow's square is burned for\n\
         good. A player who cannot move on their turn loses. {first} moves first.\n\
         Moves: d1-d7/g7 (queen from d1 to d7, arrow to g7).\n",
            first = self.player_name(board_core::Player::First)
        )
    }
}
