//! Position strings: `board side black-hand white-hand ply`, e.g. `6/6/6/6/6/6 x 8 8 0`.
//! The format is described in the crate docs.

use std::fmt::Write;

use board_core::{
    InvalidKind, Player, Position, PositionStringError, Rules, SquareSet,
    setup::{Setup, read_number, write_board},
};

use crate::{
    FourshiftConfig, MovingFirst,
    board::with_stones,
    position::{Fourshift, NAMES, PIECE_CHARS},
};

pub(crate) fn write_position(pos: &Fourshift) -> String {
    let mut out = write_board(pos.geometry, |sq| {
        pos.piece_at(sq).map(|p| PIECE_CHARS[p.index()])
    });
    let side = match pos.side {
        Player::First => 'x',
        Player::Second => 'o',
    };
    let _ = write!(out, " {side} {} {} {}", pos.hand[0], pos.hand[1], pos.ply);
    out
}

fn err(kind: InvalidKind, msg: impl Into<String>) -> PositionStringError {
    PositionStringError::invalid(kind, msg)
}

fn piece(c: char) -> Option<Player> {
    match c {
        'X' | 'x' => Some(Player::First),
        'O' | 'o' => Some(Player::Second),
        _ => None,
    }
}

/// Whether Black has made no shift yet at `ply` (placing, or the moving phase before
/// Black's first shift).
fn black_unshifted(config: FourshiftConfig, ply: u32) -> bool {
    let first_black_shift = match config.moving_first() {
        MovingFirst::Next => config.placing_plies(),
        MovingFirst::Second => config.placing_plies() + 1,
    };
    ply <= first_black_shift
}

pub(crate) fn read_position(
    config: FourshiftConfig,
    s: &str,
) -> Result<Fourshift, PositionStringError> {
    let mut pos = Fourshift::new(config);
    let setup = Setup::parse(
        pos.geometry,
        s,
        "board, side to move, Black's and White's pieces in hand, ply",
        piece,
        "X (Black), O (White)",
    )?;
    let [side_text, black_hand, white_hand, ply_text] = setup.fields;
    for (sq, player) in pos.geometry.squares().zip(&setup.board) {
        if let Some(player) = *player {
            with_stones!(&mut pos.board, b => b.toggle(player, sq));
        }
    }

    pos.side = match side_text {
        "x" | "X" => Player::First,
        "o" | "O" => Player::Second,
        _ => {
            return Err(PositionStringError::field(
                "side to move",
                side_text,
                "x (Black) or o (White)",
            ));
        }
    };

    let pieces = config.pieces();
    let hands = [
        read_number("Black's pieces in hand", black_hand, u32::MAX, "a number")?,
        read_number("White's pieces in hand", white_hand, u32::MAX, "a number")?,
    ];
    let on_board = [pos.on_board(Player::First), pos.on_board(Player::Second)];
    for p in Player::BOTH {
        let (i, name) = (p.index(), NAMES[p.index()]);
        if on_board[i] > pieces {
            return Err(err(
                InvalidKind::PieceCount,
                format!(
                    "{name} has {} pieces on the board, more than pieces={pieces}",
                    on_board[i]
                ),
            ));
        }
        if hands[i] != pieces - on_board[i] {
            return Err(err(
                InvalidKind::PieceCount,
                format!(
                    "{name} has {} pieces on the board, so {} in hand (pieces={pieces}), not {}",
                    on_board[i],
                    pieces - on_board[i],
                    hands[i]
                ),
            ));
        }
    }
    pos.hand = hands;

    let ply = read_number("ply", ply_text, u32::MAX, "a number")?;
    let placed = on_board[0] + on_board[1];
    if placed < 2 * pieces {
        // Placing phase: Black places first and the players alternate.
        let expected_side = match on_board[0].checked_sub(on_board[1]) {
            Some(0) => Player::First,
            Some(1) => Player::Second,
            _ => {
                return Err(err(
                    InvalidKind::PieceCount,
                    format!(
                        "Black has {} pieces on the board and White {}: impossible, since Black places first and the players alternate",
                        on_board[0], on_board[1]
                    ),
                ));
            }
        };
        if pos.side != expected_side {
            return Err(err(
                InvalidKind::SideToMove,
                format!(
                    "with {} Black and {} White pieces placed it is {}'s turn",
                    on_board[0],
                    on_board[1],
                    NAMES[expected_side.index()]
                ),
            ));
        }
        if ply != placed {
            return Err(err(
                InvalidKind::Counter,
                format!(
                    "ply {ply} does not match the {placed} pieces placed (each placement is one ply)"
                ),
            ));
        }
    } else {
        // Moving phase: Black moves on even plies under moving_first=next, White under
        // moving_first=second.
        if ply < placed {
            return Err(err(
                InvalidKind::Counter,
                format!("ply {ply} is too small: placing all {placed} pieces takes {placed} plies"),
            ));
        }
        let expected_side = config.mover_at(ply);
        if pos.side != expected_side {
            let rule = match config.moving_first() {
                MovingFirst::Next => "Black moves on even plies",
                MovingFirst::Second => "White moves on even plies under moving_first=second",
            };
            return Err(err(
                InvalidKind::SideToMove,
                format!(
                    "at ply {ply} it is {}'s turn ({rule})",
                    NAMES[expected_side.index()]
                ),
            ));
        }
    }
    if ply > config.max_plies() {
        return Err(err(
            InvalidKind::Counter,
            format!(
                "ply {ply} is past max_plies={}: the game would have ended",
                config.max_plies()
            ),
        ));
    }
    pos.ply = ply;

    // The player who did not make the last move cannot have a line: it would have ended
    // the game when it was made. (That is the player to move, except right after White's
    // last placement under moving_first=second, when White is both.)
    let waiting = config.mover_at(ply.wrapping_sub(1)).other();
    if ply > 0 && pos.has_k_in_a_row(waiting) {
        let who = if waiting == pos.side {
            "(to move) "
        } else {
            ""
        };
        return Err(err(
            InvalidKind::Outcome,
            format!(
                "{} {who}already has {} in a row: the game would have ended when it was made",
                NAMES[waiting.index()],
                config.k()
            ),
        ));
    }
    if ply == 0 && pos.has_k_in_a_row(pos.side) {
        return Err(err(
            InvalidKind::Outcome,
            format!(
                "{} (to move) already has {} in a row: the game would have ended when it was made",
                NAMES[pos.side.index()],
                config.k()
            ),
        ));
    }
    if !config.centre_opening() && black_unshifted(config, ply) && on_board[0] > 0 {
        // Black's first piece is still where it was placed, and it was not a centre square.
        let all_centre = pos
            .stones(Player::First)
            .squares()
            .all(|sq| pos.is_centre(sq));
        if all_centre {
            return Err(err(
                InvalidKind::Outcome,
                "every Black piece is on a centre square, but under centre_opening=false \
                 Black's first piece (not yet shifted) is off the centre"
                    .to_string(),
            ));
        }
    }
    pos.end = pos.derive_end();
    pos.hash = pos.compute_hash();
    Ok(pos)
}
