//! What a clamp board shows ([`View`]): pieces, the drop zones, the piece counts and the
//! quiet counter.

use board_core::{
    Geometry, Player, Position, Square,
    view::{Cell, PieceKind, Region, RegionKind, StatusItem, View},
};

use crate::{ClampPosition, Move};

impl View for ClampPosition {
    fn geometry(&self) -> &Geometry {
        ClampPosition::geometry(self)
    }

    fn cell(&self, sq: Square) -> Cell {
        self.piece_at(sq).map_or(Cell::Empty, |owner| Cell::Piece {
            owner,
            kind: PieceKind::Man,
        })
    }

    fn move_squares(&self, mv: Move) -> Vec<Square> {
        match mv {
            Move::Drop(to) => vec![to],
            Move::Step(from, to) => vec![from, to],
        }
    }

    /// The board; under a finite supply followed by a line with the pieces in hand
    /// (`in hand: Black 12, White 11`).
    fn diagram(&self) -> String {
        let mut out = board_core::view::diagram(self);
        if self.config().supply().is_some() {
            out.push_str(&format!(
                "in hand: Black {}, White {}\n",
                self.hand[0], self.hand[1]
            ));
        }
        out
    }

    fn regions(&self) -> Vec<Region> {
        [Player::First, Player::Second]
            .into_iter()
            .map(|p| Region {
                kind: RegionKind::DropZone,
                owner: Some(p),
                squares: self.drop_zone(p).into_iter().collect(),
            })
            .collect()
    }

    /// The pieces in hand under a finite supply, both piece counts and the quiet counter
    /// against its limit.
    fn status(&self) -> Vec<StatusItem> {
        let hands = [Player::First, Player::Second]
            .into_iter()
            .filter_map(|player| {
                Some(StatusItem::InHand {
                    player,
                    count: self.in_hand(player)?,
                })
            });
        hands
            .chain([
                StatusItem::OnBoard {
                    player: Player::First,
                    count: self.piece_count(Player::First),
                },
                StatusItem::OnBoard {
                    player: Player::Second,
                    count: self.piece_count(Player::Second),
                },
                StatusItem::Quiet {
                    count: self.quiet(),
                    limit: self.config().quiet_limit(),
                },
            ])
            .collect()
    }

    fn rules_text(&self) -> String {
        let c = self.config();
        let adjudicate = if c.adjudicate() {
            "the side with more pieces wins (then more on the centre squares), else a draw"
        } else {
            "the game is drawn"
        };
        format!(
            "Clamp: each turn either drop a new piece on an empty square of your drop zone\n\
             (while you have fewer than {max} on the board), or step a piece 1 or 2 squares\n\
             in any of the 8 directions over empty squares. An enemy piece between the\n\
             square you land on and another of yours, in a line, is captured (all 8\n\
             directions at once). You win when the opponent has no piece or no move.\n\
             After {quiet} half-moves without a capture {adjudicate}.\n\
             Black (X) drops on the top {zone} rows, White (O) on the bottom {zone}.\n\
             Moves: d7 to drop, c6-c4 to step.\n",
            max = c.max_on_board(),
            quiet = c.quiet_limit(),
            zone = c.zone()
        )
    }
}
