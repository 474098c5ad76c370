//! The position string: `8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0` (see the crate docs).

use board_core::{Player, Position, PositionStringError, Square};

use crate::{config::ClampConfig, position::ClampPosition};

/// Largest ply a position string may give (far beyond any real game).
pub const MAX_PLY: u32 = 1_000_000_000;

pub(crate) fn format(pos: &ClampPosition) -> String {
    let size = pos.config().size();
    let mut out = String::with_capacity((size * (size + 1)) as usize + 16);
    for row in (0..size).rev() {
        let mut run = 0;
        for col in 0..size {
            match pos.piece_at(Square((row * size + col) as u16)) {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(if p == Player::First { 'X' } else { 'O' });
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if row > 0 {
            out.push('/');
        }
    }
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

fn err(message: String) -> PositionStringError {
    PositionStringError(message)
}

/// At most `n` characters of `s`, for quoting in messages.
fn quote(s: &str, n: usize) -> String {
    let mut q: String = s.chars().take(n).collect();
    if s.chars().count() > n {
        q.push_str("...");
    }
    q
}

fn number(field: &str, what: &str, max: u32) -> Result<u32, PositionStringError> {
    let bad = || {
        err(format!(
            "{what} '{}' is not a number from 0 to {max}",
            quote(field, 16)
        ))
    };
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    field
        .parse::<u32>()
        .ok()
        .filter(|n| *n <= max)
        .ok_or_else(bad)
}

pub(crate) fn parse(config: ClampConfig, s: &str) -> Result<ClampPosition, PositionStringError> {
    let fields: Vec<&str> = s.split_whitespace().take(7).collect();
    let (wanted, what) = match config.supply() {
        None if fields.len() == 6 => (
            4,
            "board, side to move x or o, quiet counter, ply; pieces in hand only with a finite supply",
        ),
        None => (4, "board, side to move x or o, quiet counter, ply"),
        Some(_) => (
            6,
            "board, side to move x or o, quiet counter, ply, Black's and White's pieces in hand",
        ),
    };
    if fields.len() != wanted {
        return Err(err(format!(
            "expected {wanted} fields ({what}), found {}{}",
            fields.len(),
            if fields.len() == 7 { " or more" } else { "" }
        )));
    }
    let size = config.size();
    let side = match fields[1] {
        "x" | "X" => Player::First,
        "o" | "O" => Player::Second,
        other => {
            return Err(err(format!(
                "side to move '{}' is not x or o",
                quote(other, 16)
            )));
        }
    };
    let quiet = number(fields[2], "quiet counter", config.quiet_limit())?;
    let ply = number(fields[3], "ply", MAX_PLY)?;
    let mut pos = ClampPosition::empty(config, side, quiet, ply);
    if let Some(supply) = config.supply() {
        let hand = [
            number(fields[4], "Black's pieces in hand", supply)?,
            number(fields[5], "White's pieces in hand", supply)?,
        ];
        pos.set_hand(hand);
    }

    let ranks: Vec<&str> = fields[0].split('/').take(size as usize + 1).collect();
    if ranks.len() != size as usize {
        return Err(err(format!(
            "the board has {} ranks, expected {size} for a {size}x{size} board",
            if ranks.len() > size as usize {
                "too many".to_string()
            } else {
                ranks.len().to_string()
            }
        )));
    }
    for (k, text) in ranks.iter().enumerate() {
        let row = size - 1 - k as u32;
        let rank = row + 1;
        let mut col = 0u32;
        let mut run: Option<u32> = None;
        let close_run = |col: &mut u32, run: &mut Option<u32>| {
            if let Some(n) = run.take() {
                *col += n;
            }
        };
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                let n = match run {
                    None if d == 0 => {
                        return Err(err(format!(
                            "rank {rank} ('{}'): a run of empty squares cannot start with 0",
                            quote(text, 40)
                        )));
                    }
                    None => d,
                    Some(n) => n * 10 + d,
                };
                if col + n > size {
                    return Err(err(format!(
                        "rank {rank} ('{}') covers more than {size} squares",
                        quote(text, 40)
                    )));
                }
                run = Some(n);
                continue;
            }
            close_run(&mut col, &mut run);
            let player = match ch {
                'X' | 'x' => Player::First,
                'O' | 'o' => Player::Second,
                _ => {
                    return Err(err(format!(
                        "bad character '{ch}' in rank {rank}: expected X, O or a number of empty squares"
                    )));
                }
            };
            if col >= size {
                return Err(err(format!(
                    "rank {rank} ('{}') covers more than {size} squares",
                    quote(text, 40)
                )));
            }
            pos.set_piece(Square((row * size + col) as u16), Some(player));
            col += 1;
        }
        close_run(&mut col, &mut run);
        if col != size {
            return Err(err(format!(
                "rank {rank} ('{}') covers {col} squares, expected {size}",
                quote(text, 40)
            )));
        }
    }

    for player in Player::BOTH {
        let n = pos.piece_count(player);
        if n > config.max_on_board() {
            return Err(err(format!(
                "{} has {n} pieces on the board, more than max_on_board={}",
                pos.player_name(player),
                config.max_on_board()
            )));
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
                return Err(err(format!(
                    "{} has {on_board} pieces on the board but only {} to have come from: {} at the start and {dropped} dropped (supply={supply}, {hand} in hand)",
                    pos.player_name(player),
                    ClampConfig::START + dropped,
                    ClampConfig::START
                )));
            }
        }
    }
    if quiet > ply {
        return Err(err(format!(
            "quiet counter {quiet} is larger than the ply {ply}"
        )));
    }
    if (ply % 2 == 0) != (side == Player::First) {
        return Err(err(format!(
            "{} to move at ply {ply}: Black (x) moves at even plies, White (o) at odd ones",
            fields[1].to_ascii_lowercase()
        )));
    }
    if ply > 0 && pos.piece_count(side.other()) == 0 {
        return Err(err(format!(
            "{} made the last move but has no pieces on the board",
            pos.player_name(side.other())
        )));
    }
    pos.rehash();
    Ok(pos)
}
