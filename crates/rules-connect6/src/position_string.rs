//! The connect6 position string: `<board> <side> <ply>` (see the crate docs).

use std::fmt::Write;

use board_core::{MAX_CELLS, Player, Position, PositionStringError};

use crate::{config::Connect6Config, position::Connect6Position};

/// Longest position string read (a 26×26 board needs well under 1 KiB).
const MAX_LEN: usize = 4096;

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

pub(crate) fn write(pos: &Connect6Position) -> String {
    let g = pos.geometry();
    let mut out = String::with_capacity(g.cells() + 64);
    for row in (0..g.height()).rev() {
        let mut run = 0;
        for col in 0..g.width() {
            match g.square_at(col, row).and_then(|sq| pos.stone_at(sq)) {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        let _ = write!(out, "{run}");
                        run = 0;
                    }
                    out.push(stone_char(p));
                }
            }
        }
        if run > 0 {
            let _ = write!(out, "{run}");
        }
        if row > 0 {
            out.push('/');
        }
    }
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
    let err = |msg: String| Err(PositionStringError(msg));
    if s.len() > MAX_LEN {
        return err(format!("longer than {MAX_LEN} bytes"));
    }
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() != 3 {
        return err(format!(
            "expected 3 fields (board, side to move, ply), found {}",
            fields.len()
        ));
    }
    let size = config.size() as usize;
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != size {
        return err(format!(
            "the board has {} ranks, expected {size} for {config}",
            ranks.len()
        ));
    }
    let mut board = [None; MAX_CELLS];
    for (i, rank) in ranks.iter().enumerate() {
        let row = size - 1 - i;
        let rank_no = row + 1;
        let bytes = rank.as_bytes();
        let mut col = 0usize;
        let mut k = 0usize;
        while k < bytes.len() {
            let c = bytes[k];
            if c.is_ascii_digit() {
                let start = k;
                while k < bytes.len() && bytes[k].is_ascii_digit() {
                    k += 1;
                }
                let digits = &rank[start..k];
                let run = match digits.parse::<usize>() {
                    Ok(n) if n >= 1 && !digits.starts_with('0') => n,
                    _ => {
                        return err(format!(
                            "'{}' in rank {rank_no} is not a count of empty squares (1-{size})",
                            digits.chars().take(8).collect::<String>()
                        ));
                    }
                };
                col += run;
                if col > size {
                    return err(format!(
                        "rank {rank_no} '{rank}' is longer than {size} squares"
                    ));
                }
                continue;
            }
            let stone = match c {
                b'x' | b'X' => Player::First,
                b'o' | b'O' => Player::Second,
                _ => {
                    let ch = rank[k..].chars().next().unwrap_or('?');
                    return err(format!(
                        "bad character '{ch}' in rank {rank_no}: expected x (Black), o (White) \
                         or a count of empty squares"
                    ));
                }
            };
            if col >= size {
                return err(format!(
                    "rank {rank_no} '{rank}' is longer than {size} squares"
                ));
            }
            board[row * size + col] = Some(stone);
            col += 1;
            k += 1;
        }
        if col != size {
            return err(format!(
                "rank {rank_no} '{rank}' has {col} squares, expected {size}"
            ));
        }
    }
    let side = match fields[1] {
        "x" | "X" => Player::First,
        "o" | "O" => Player::Second,
        other => {
            return err(format!(
                "side to move '{}' is not x (Black) or o (White)",
                other.chars().take(8).collect::<String>()
            ));
        }
    };
    let ply: u32 = match fields[2].parse() {
        Ok(n) if fields[2].bytes().all(|b| b.is_ascii_digit()) => n,
        _ => {
            return err(format!(
                "ply '{}' is not a number from 0 to {}",
                fields[2].chars().take(12).collect::<String>(),
                u32::MAX
            ));
        }
    };

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
        return err(format!(
            "{black} black and {white} white stones do not fit ply {ply}: after {ply} moves \
             Black has {eb} and White {ew} (Black places one stone on the first move, then \
             each move places two; only a single stone on the last empty square is \
             short){hint}"
        ));
    }
    let expected_side = if ply.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    };
    if side != expected_side {
        return err(format!(
            "side to move is {}, but at ply {ply} {} is to move",
            side_name(side),
            side_name(expected_side)
        ));
    }
    let pos = Connect6Position::from_parts(config, &board[..cells], side, ply);
    if let Some(line) = pos.line_of(side) {
        return err(format!(
            "{} is to move but already has six in a row {}-{}: the game ended when it was made",
            side_name(side),
            pos.geometry().format_square(line.start),
            pos.geometry().format_square(line.end)
        ));
    }
    Ok(pos)
}
