//! The position string: `3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w 0`.
//!
//! Board ranks from the top, `w`/`b` queens, `x` arrows, runs of empty squares as numbers;
//! then the side to move (`w`/`b`) and the ply. See the crate docs for the exact rules.

use std::fmt::Write;

use board_core::{
    InvalidKind, Player, PositionStringError,
    setup::{Setup, read_number, write_board},
};

use crate::{AmazonsConfig, AmazonsPosition, position::Piece};

impl AmazonsPosition {
    /// The position string (see the crate docs).
    pub fn position_string(&self) -> String {
        let mut out = write_board(self.geometry, |sq| {
            Some(self.square_char(sq.index())).filter(|&c| c != '.')
        });
        let side = if self.side == self.config.white() {
            'w'
        } else {
            'b'
        };
        let _ = write!(out, " {side} {}", self.ply);
        out
    }

    /// Reads a position string for a game under `config` (see the crate docs).
    pub fn from_position_str(
        config: AmazonsConfig,
        s: &str,
    ) -> Result<AmazonsPosition, PositionStringError> {
        let mut pos = AmazonsPosition::empty(config);
        let white = config.white();
        let piece = |c: char| match c.to_ascii_lowercase() {
            'w' => Some(Piece::Queen(white)),
            'b' => Some(Piece::Queen(white.other())),
            'x' => Some(Piece::Arrow),
            _ => None,
        };
        let setup = Setup::parse(
            pos.geometry,
            s,
            "board, side to move, ply",
            piece,
            "w, b, x",
        )?;
        let [side, ply] = setup.fields;
        let mut counts = [0u32; 2];
        let mut arrows = 0u32;
        for (sq, piece) in setup.board.iter().enumerate() {
            if let Some(piece) = *piece {
                match piece {
                    Piece::Queen(p) => counts[p.index()] += 1,
                    Piece::Arrow => arrows += 1,
                }
                pos.put(sq, piece);
            }
        }
        for player in [white, white.other()] {
            let count = counts[player.index()];
            if count != 4 {
                return Err(PositionStringError::invalid(
                    InvalidKind::PieceCount,
                    format!(
                        "{} has {count} queens, expected 4",
                        config.player_name(player)
                    ),
                ));
            }
        }

        let side = match side {
            "w" | "W" => white,
            "b" | "B" => white.other(),
            other => return Err(PositionStringError::field("side to move", other, "w or b")),
        };
        let ply = read_number("ply", ply, u32::MAX, "a number")?;
        if ply != arrows {
            return Err(PositionStringError::invalid(
                InvalidKind::Counter,
                format!(
                    "ply {ply} does not match the {arrows} arrows on the board (every move shoots one)"
                ),
            ));
        }
        let expected = if ply.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        };
        if side != expected {
            return Err(PositionStringError::invalid(
                InvalidKind::SideToMove,
                format!(
                    "{} cannot be to move at ply {ply}: {} moves first and turns alternate",
                    config.player_name(side),
                    config.player_name(Player::First)
                ),
            ));
        }
        pos.side = side;
        pos.ply = ply;
        pos.refresh_mobility();
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }
}
