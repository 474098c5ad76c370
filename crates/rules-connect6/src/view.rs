//! What a connect6 board shows ([`View`]): stones, the stones to place, the winning six.

use board_core::{
    Geometry, Rules, Square,
    view::{self, Cell, PieceKind, StatusItem, View},
};

use crate::{Connect6Position, Move};

impl View for Connect6Position {
    fn geometry(&self) -> &Geometry {
        Connect6Position::geometry(self)
    }

    fn cell(&self, sq: Square) -> Cell {
        self.stone_at(sq).map_or(Cell::Empty, |owner| Cell::Piece {
            owner,
            kind: PieceKind::Stone,
        })
    }

    fn move_squares(&self, mv: Move) -> Vec<Square> {
        mv.squares().collect()
    }

    fn status(&self) -> Vec<StatusItem> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        vec![StatusItem::StonesToPlace(self.stones_to_place())]
    }

    fn winning_line(&self) -> Vec<Square> {
        Connect6Position::winning_line(self)
            .map(|l| view::line_squares(Connect6Position::geometry(self), l.start, l.end))
            .unwrap_or_default()
    }

    fn rules_text(&self) -> String {
        "Connect6: Black places one stone first; after that each turn places two stones\n\
         on empty points (White first). Six or more in an unbroken line across, up or\n\
         diagonally wins, even when the first stone of a pair makes it. A full board is\n\
         a draw. Moves: j10 for the first stone, j11,k12 for a pair.\n"
            .to_string()
    }
}
