//! The position string: `8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0` (see the crate docs).

use board_core::{
    InvalidKind, Player, Position, PositionStringError, Rules,
    setup::{Setup, read_number, write_board},
};

use crate::{config::ClampConfig, position::ClampPosition};

/// Largest ply a position string may give (far beyond any real game).
pub const MAX_PLY: u32 = 1_000_000_000;

fn piece(c: char) -> Option<Player> {
    match c {
        'X' | 'x' => Some(Player::First),
        'O' | 'o' => Some(Player::Second),
        _ => None,
    }
}

pub(crate) fn format(pos: &ClampPosition) -> String {
    let mut out = write_board(pos.geometry(), |sq| {
        pos.piece_at(sq)
            .map(|p| if p == Player::First { 'X' } else { 'O' })
    });
    let side = if pos.side_to_move() == Player::First {
        'x'
    } else {
        'o'
    };
    out.push_str(&format!(" {side} {} {}", pos.quiet(), pos.ply()));
    if let (Some(black), Some(white)) = (pos.in_hand(Player::First), pos.in_hand(Player::Second)) {
        out.push_str(&format!(" {black} {white}"));
    }
    out
}

fn err(kind: InvalidKind, message: String) -> PositionStringError {
    PositionStringError::invalid(kind, message)
}

fn number(field: &'static str, text: &str, max: u32) -> Result<u32, PositionStringError> {
    read_number(field, text, max, &format!("a number from 0 to {max}"))
}

pub(crate) fn parse(config: ClampConfig, s: &str) -> Result<ClampPosition, PositionStringError> {
    let geometry = ClampPosition::empty(config, Player::First, 0, 0).geometry();
    let (board, fields) = match config.supply() {
        None => {
            let setup = Setup::<_, 3>::parse(
                geometry,
                s,
                "board, side to move x or o, quiet counter, ply",
                piece,
                "X, O",
            )?;
            let [a, b, c] = setup.fields;
            (setup.board, [a, b, c, "", ""])
        }
        Some(_) => {
            let setup = Setup::<_, 5>::parse(
                geometry,
                s,
                "board, side to move x or o, quiet counter, ply, Black's and White's pieces in hand",
                piece,
                "X, O",
            )?;
            (setup.board, setup.fields)
        }
    };
    let side = match fields[0] {
        "x" | "X" => Player::First,
        "o" | "O" => Player::Second,
        other => return Err(PositionStringError::field("side to move", other, "x or o")),
    };
    let quiet = number("quiet counter", fields[1], config.quiet_limit())?;
    let ply = number("ply", fields[2], MAX_PLY)?;
    let mut pos = ClampPosition::empty(config, side, quiet, ply);
    if let Some(supply) = config.supply() {
        let hand = [
            number("Black's pieces in hand", fields[3], supply)?,
            number("White's pieces in hand", fields[4], supply)?,
        ];
        pos.set_hand(hand);
    }
    for (sq, player) in geometry.squares().zip(&board) {
        if let Some(player) = *player {
            pos.set_piece(sq, Some(player));
        }
    }

    for player in Player::BOTH {
        let n = pos.piece_count(player);
        if n > config.max_on_board() {
            return Err(err(
                InvalidKind::PieceCount,
                format!(
                    "{} has {n} pieces on the board, more than max_on_board={}",
                    pos.player_name(player),
                    config.max_on_board()
                ),
            ));
        }
    }
    if let Some(supply) = config.supply() {
        // Each piece on the board started there or was dropped from the hand; captured
        // pieces are gone, so there can be fewer but never more.
        for player in Player::BOTH {
            let (on_board, hand) = (
                pos.piece_count(player),
                pos.in_hand(player).unwrap_or(supply),
            );
            let dropped = supply - hand;
            if on_board > ClampConfig::START + dropped {
                return Err(err(
                    InvalidKind::PieceCount,
                    format!(
                        "{} has {on_board} pieces on the board but only {} to have come from: {} at the start and {dropped} dropped (supply={supply}, {hand} in hand)",
                        pos.player_name(player),
                        ClampConfig::START + dropped,
                        ClampConfig::START
                    ),
                ));
            }
        }
    }
    if quiet > ply {
        return Err(err(
            InvalidKind::Counter,
            format!("quiet counter {quiet} is larger than the ply {ply}"),
        ));
    }
    if (ply % 2 == 0) != (side == Player::First) {
        return Err(err(
            InvalidKind::SideToMove,
            format!(
                "{} to move at ply {ply}: Black (x) moves at even plies, White (o) at odd ones",
                fields[0].to_ascii_lowercase()
            ),
        ));
    }
    if ply > 0 && pos.piece_count(side.other()) == 0 {
        return Err(err(
            InvalidKind::Outcome,
            format!(
                "{} made the last move but has no pieces on the board",
                pos.player_name(side.other())
            ),
        ));
    }
    pos.rehash();
    Ok(pos)
}
