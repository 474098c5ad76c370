//! What a gomoku board shows ([`View`]): stones, the winning five.

use board_core::{
    Geometry, Player, Square,
    view::{self, Cell, PieceKind, View},
};

use crate::{GomokuPosition, Move};

impl View for GomokuPosition {
    fn geometry(&self) -> &Geometry {
        GomokuPosition::geometry(self)
    }

    fn cell(&self, sq: Square) -> Cell {
        self.stone_at(sq).map_or(Cell::Empty, |owner| Cell::Piece {
            owner,
            kind: PieceKind::Stone,
        })
    }

    fn move_squares(&self, mv: Move) -> Vec<Square> {
        vec![mv.0]
    }

    fn winning_line(&self) -> Vec<Square> {
        GomokuPosition::winning_line(self)
            .map(|l| view::line_squares(GomokuPosition::geometry(self), l.start, l.end))
            .unwrap_or_default()
    }

    /// Lower-case stones, as gomoku diagrams have always been drawn.
    fn glyph(&self, cell: Cell) -> char {
        match cell.owner() {
            Some(Player::First) => 'x',
            Some(Player::Second) => 'o',
            None => '.',
        }
    }

    fn rules_text(&self) -> String {
        let win = match self.rule() {
            crate::Rule::Freestyle => "five or more stones in an unbroken line",
            crate::Rule::Exact5 => "exactly five stones in a line (six or more do not count)",
        };
        format!(
            "Gomoku: Black and White take turns placing one stone on an empty intersection;\n\
             Black moves first. The first to make {win}, across, up or diagonally,\n\
             wins. A full board with no winner is a draw. Moves: h8.\n"
        )
    }
}
