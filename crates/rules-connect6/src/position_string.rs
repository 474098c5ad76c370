//! The connect6 position string: `<board> <side> <ply>` (see the crate docs).

use std::fmt::Write;

use board_core::{
    InvalidKind, Player, PositionStringError, Rules,
    setup::{Setup, read_number, write_board},
};

use crate::{config::Connect6Config, position::Connect6Position};

fn stone_char(p: Player) -> char {
    match p {
        Player::First => 'x',
        Player::Second => 'o',
    }
}

fn side_name(p: Player) -> &'static str {
    match p {
        Player::First => "x (Black)",
        Player::Second => "o (White)",
    }
}

fn stone(c: char) -> Option<Player> {
    match c {
        'x' | 'X' => Some(Player::First),
        'o' | 'O' => Some(Player::Second),
        _ => None,
    }
}

pub(crate) fn write(pos: &Connect6Position) -> String {
    let mut out = write_board(pos.geometry(), |sq| pos.stone_at(sq).map(stone_char));
    let _ = write!(out, " {} {}", stone_char(pos.side_to_move()), pos.ply());
    out
}

/// Stones of each colour that `ply` normal moves leave: Black one on the first move and
/// two on each later one, White two per move.
fn expected_counts(ply: u64) -> (u64, u64) {
    let black_moves = ply.div_ceil(2);
    let white_moves = ply / 2;
    ((2 * black_moves).saturating_sub(1), 2 * white_moves)
}

/// Whether `ply` moves can leave `black` and `white` stones on a board with `cells`
/// squares: the normal counts, or (board full) the last mover having placed a single stone
/// on the last empty square.
fn counts_fit(ply: u64, black: u64, white: u64, cells: u64) -> bool {
    let (eb, ew) = expected_counts(ply);
    if black == eb && white == ew {
        return true;
    }
    let full = black + white == cells;
    let black_moved_last = ply % 2 == 1;
    full && ply >= 2
        && if black_moved_last {
            black + 1 == eb && white == ew
        } else {
            black == eb && white + 1 == ew
        }
}

pub(crate) fn read(
    config: Connect6Config,
    s: &str,
) -> Result<Connect6Position, PositionStringError> {
    let err = |kind, msg: String| Err(PositionStringError::invalid(kind, msg));
    let geometry = Connect6Position::start(config).geometry();
    let setup = Setup::parse(
        geometry,
        s,
        "board, side to move, ply",
        stone,
        "x (Black), o (White)",
    )?;
    let [side, ply] = setup.fields;
    let board = setup.board;
    let side = side.parse::<char>().ok().and_then(stone).ok_or_else(|| {
        PositionStringError::field("side to move", side, "x (Black) or o (White)")
    })?;
    let ply = read_number("ply", ply, u32::MAX, "a number")?;

    let cells = config.cells();
    let count = |p: Player| board[..cells].iter().filter(|s| **s == Some(p)).count() as u64;
    let (black, white) = (count(Player::First), count(Player::Second));
    if !counts_fit(ply as u64, black, white, cells as u64) {
        let (eb, ew) = expected_counts(ply as u64);
        let total = black + white;
        let hint = [total.div_ceil(2), total / 2 + 1]
            .into_iter()
            .find(|&p| counts_fit(p, black, white, cells as u64))
            .map(|p| format!(" (these stones fit ply {p})"))
            .unwrap_or_default();
        return err(
            InvalidKind::PieceCount,
            format!(
                "{black} black and {white} white stones do not fit ply {ply}: after {ply} moves \
             Black has {eb} and White {ew} (Black places one stone on the first move, then \
             each move places two; only a single stone on the last empty square is \
             short){hint}"
            ),
        );
    }
    let expected_side = if ply.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    if side != expected_side {
        return err(
            InvalidKind::SideToMove,
            format!(
                "side to move is {}, but at ply {ply} {} is to move",
                side_name(side),
                side_name(expected_side)
            ),
        );
    }
    let pos = Connect6Position::from_parts(config, &board[..cells], side, ply);
    if let Some(line) = pos.line_of(side) {
        return err(
            InvalidKind::Outcome,
            format!(
                "{} is to move but already has six in a row {}-{}: the game ended when it was made",
                side_name(side),
                pos.geometry().format_square(line.start),
                pos.geometry().format_square(line.end)
            ),
        );
    }
    Ok(pos)
}
