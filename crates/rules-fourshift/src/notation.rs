//! Position strings: `board side black-hand white-hand ply`, e.g. `6/6/6/6/6/6 x 8 8 0`.
//! The format is described in the crate docs.

use std::fmt::Write;

use board_core::{Player, Position, PositionStringError, Square, SquareSet};

use crate::{
    FourshiftConfig, MovingFirst,
    board::{Board, with_stones},
    position::{Fourshift, NAMES, PIECE_CHARS},
};

/// Longest position string read (a 26×26 board is at most about 730 bytes).
const MAX_LEN: usize = 4096;

pub(crate) fn write_position(pos: &Fourshift) -> String {
    let size = pos.size();
    let mut out = String::with_capacity(pos.config.cells() + 16);
    for row in (0..size).rev() {
        let mut run = 0;
        for col in 0..size {
            let sq = Square((row * size + col) as u16);
            match pos.piece_at(sq) {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        let _ = write!(out, "{run}");
                        run = 0;
                    }
                    out.push(PIECE_CHARS[p.index()]);
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
    let side = match pos.side {
        Player::First => 'x',
        Player::Second => 'o',
    };
    let _ = write!(out, " {side} {} {} {}", pos.hand[0], pos.hand[1], pos.ply);
    out
}

fn err(msg: impl Into<String>) -> PositionStringError {
    PositionStringError(msg.into())
}

/// Reads one rank (`row`, 0-based) into `board`.
fn read_rank(
    board: &mut Board,
    size: u32,
    row: u32,
    text: &str,
) -> Result<(), PositionStringError> {
    let rank = row + 1;
    let mut col: u32 = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            if d == 0 {
                return Err(err(format!(
                    "rank {rank}: empty-square counts must be 1 or more, without leading zeros"
                )));
            }
            let mut run = d;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                chars.next();
                run = run.saturating_mul(10).saturating_add(d);
            }
            col = col.saturating_add(run);
        } else {
            let player = match c {
                'X' | 'x' => Player::First,
                'O' | 'o' => Player::Second,
                _ => {
                    return Err(err(format!(
                        "rank {rank}: '{c}' is not a piece: expected X (Black), O (White) or a count of empty squares"
                    )));
                }
            };
            if col < size {
                let sq = Square((row * size + col) as u16);
                with_stones!(board, b => b.toggle(player, sq));
            }
            col += 1;
        }
        if col > size {
            return Err(err(format!("rank {rank} has more than {size} squares")));
        }
    }
    if col < size {
        return Err(err(format!(
            "rank {rank} has {col} squares, expected {size}"
        )));
    }
    Ok(())
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

fn read_number(field: &str, what: &str) -> Result<u32, PositionStringError> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(format!("{what} '{field}' is not a number")));
    }
    field
        .parse()
        .map_err(|_| err(format!("{what} '{field}' is too large")))
}

pub(crate) fn read_position(
    config: FourshiftConfig,
    s: &str,
) -> Result<Fourshift, PositionStringError> {
    if s.len() > MAX_LEN {
        return Err(err(format!("longer than {MAX_LEN} bytes")));
    }
    let fields: Vec<&str> = s.split_whitespace().collect();
    let [board_text, side_text, black_hand, white_hand, ply_text] = fields[..] else {
        return Err(err(format!(
            "expected 5 fields (board, side to move, Black's and White's pieces in hand, ply), found {}",
            fields.len()
        )));
    };

    let mut pos = Fourshift::new(config);
    let size = config.size();
    let ranks: Vec<&str> = board_text.split('/').collect();
    if ranks.len() != size as usize {
        return Err(err(format!(
            "the board has {} ranks, expected {size} for {config}",
            ranks.len()
        )));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let row = size - 1 - i as u32;
        read_rank(&mut pos.board, size, row, rank_text)?;
    }

    pos.side = match side_text {
        "x" | "X" => Player::First,
        "o" | "O" => Player::Second,
        _ => {
            return Err(err(format!(
                "side to move '{side_text}' must be x (Black) or o (White)"
            )));
        }
    };

    let pieces = config.pieces();
    let hands = [
        read_number(black_hand, "Black's pieces in hand")?,
        read_number(white_hand, "White's pieces in hand")?,
    ];
    let on_board = [pos.on_board(Player::First), pos.on_board(Player::Second)];
    for p in Player::BOTH {
        let (i, name) = (p.index(), NAMES[p.index()]);
        if on_board[i] > pieces {
            return Err(err(format!(
                "{name} has {} pieces on the board, more than pieces={pieces}",
                on_board[i]
            )));
        }
        if hands[i] != pieces - on_board[i] {
            return Err(err(format!(
                "{name} has {} pieces on the board, so {} in hand (pieces={pieces}), not {}",
                on_board[i],
                pieces - on_board[i],
                hands[i]
            )));
        }
    }
    pos.hand = hands;

    let ply = read_number(ply_text, "ply")?;
    let placed = on_board[0] + on_board[1];
    if placed < 2 * pieces {
        // Placing phase: Black places first and the players alternate.
        let expected_side = match on_board[0].checked_sub(on_board[1]) {
            Some(0) => Player::First,
            Some(1) => Player::Second,
            _ => {
                return Err(err(format!(
                    "Black has {} pieces on the board and White {}: impossible, since Black places first and the players alternate",
                    on_board[0], on_board[1]
                )));
            }
        };
        if pos.side != expected_side {
            return Err(err(format!(
                "with {} Black and {} White pieces placed it is {}'s turn",
                on_board[0],
                on_board[1],
                NAMES[expected_side.index()]
            )));
        }
        if ply != placed {
            return Err(err(format!(
                "ply {ply} does not match the {placed} pieces placed (each placement is one ply)"
            )));
        }
    } else {
        // Moving phase: Black moves on even plies under moving_first=next, White under
        // moving_first=second.
        if ply < placed {
            return Err(err(format!(
                "ply {ply} is too small: placing all {placed} pieces takes {placed} plies"
            )));
        }
        let expected_side = config.mover_at(ply);
        if pos.side != expected_side {
            let rule = match config.moving_first() {
                MovingFirst::Next => "Black moves on even plies",
                MovingFirst::Second => "White moves on even plies under moving_first=second",
            };
            return Err(err(format!(
                "at ply {ply} it is {}'s turn ({rule})",
                NAMES[expected_side.index()]
            )));
        }
    }
    if ply > config.max_plies() {
        return Err(err(format!(
            "ply {ply} is past max_plies={}: the game would have ended",
            config.max_plies()
        )));
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
        return Err(err(format!(
            "{} {who}already has {} in a row: the game would have ended when it was made",
            NAMES[waiting.index()],
            config.k()
        )));
    }
    if ply == 0 && pos.has_k_in_a_row(pos.side) {
        return Err(err(format!(
            "{} (to move) already has {} in a row: the game would have ended when it was made",
            NAMES[pos.side.index()],
            config.k()
        )));
    }
    if !config.centre_opening() && black_unshifted(config, ply) && on_board[0] > 0 {
        // Black's first piece is still where it was placed, and it was not a centre square.
        let all_centre = pos
            .stones(Player::First)
            .squares()
            .all(|sq| pos.is_centre(sq));
        if all_centre {
            return Err(err(
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
