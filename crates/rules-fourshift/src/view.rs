//! What a fourshift board shows ([`View`]): pieces, the phase and the pieces in hand, the
//! winning line.

use board_core::{
    Geometry, Player, Position, Rules, Square,
    view::{self, Cell, PieceKind, StatusItem, View},
};

use crate::{Fourshift, Move, Phase};

impl View for Fourshift {
    fn geometry(&self) -> &Geometry {
        Fourshift::geometry(self)
    }

    fn cell(&self, sq: Square) -> Cell {
        self.piece_at(sq).map_or(Cell::Empty, |owner| Cell::Piece {
            owner,
            kind: PieceKind::Man,
        })
    }

    fn move_squares(&self, mv: Move) -> Vec<Square> {
        match mv {
            Move::Place(to) => vec![to],
            Move::Shift { from, to } => vec![from, to],
        }
    }

    /// The phase, and while anyone still places, both hands.
    fn status(&self) -> Vec<StatusItem> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let (first, second) = (self.in_hand(Player::First), self.in_hand(Player::Second));
        match self.phase() {
            Phase::Placing => vec![StatusItem::Phase("placing")],
            Phase::Moving => vec![StatusItem::Phase("moving")],
        }
        .into_iter()
        .chain(
            (first + second > 0)
                .then_some([
                    StatusItem::InHand {
                        player: Player::First,
                        count: first,
                    },
                    StatusItem::InHand {
                        player: Player::Second,
                        count: second,
                    },
                ])
                .into_iter()
                .flatten(),
        )
        .collect()
    }

    fn winning_line(&self) -> Vec<Square> {
        Fourshift::winning_line(self)
            .map(|l| view::line_squares(Fourshift::geometry(self), l.start, l.end))
            .unwrap_or_default()
    }

    fn rules_text(&self) -> String {
        let c = self.config();
        format!(
            "Fourshift: Black (X) and White (O) each have {pieces} pieces. First they take\n\
             turns placing them on empty squares (Black first); then each turn moves one\n\
             of your pieces one square up, down, left or right to an empty square. {k} in a\n\
             row across, up or diagonally wins at once, also during placing. A player who\n\
             cannot move, or {max} moves in all, makes a draw. Moves: c3 to place, c3-c4\n\
             to shift.\n",
            pieces = c.pieces(),
            k = c.k(),
            max = c.max_plies()
        )
    }
}
