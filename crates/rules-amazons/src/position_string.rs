//! The position string: `3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w 0`.
//!
//! Board ranks from the top, `w`/`b` queens, `x` arrows, runs of empty squares as numbers;
//! then the side to move (`w`/`b`) and the ply. See the crate docs for the exact rules.

use std::fmt::Write;

use board_core::{Player, PositionStringError};

use crate::{AmazonsConfig, AmazonsPosition, position::Piece};

fn err(msg: impl Into<String>) -> PositionStringError {
    PositionStringError(msg.into())
}

/// Ordinal words for error messages ("the 3rd rank from the top").
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl AmazonsPosition {
    /// The position string (see the crate docs).
    pub fn position_string(&self) -> String {
        let n = self.size() as usize;
        let mut out = String::with_capacity(n * n / 2 + 8);
        for row in (0..n).rev() {
            let mut run = 0;
            for col in 0..n {
                match self.square_char(row * n + col) {
                    '.' => run += 1,
                    c => {
                        if run > 0 {
                            let _ = write!(out, "{run}");
                            run = 0;
                        }
                        out.push(c);
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
        const MAX_LEN: usize = 512;
        if s.len() > MAX_LEN {
            return Err(err(format!("longer than {MAX_LEN} bytes")));
        }
        let fields: Vec<&str> = s.split_whitespace().collect();
        let [board, side, ply] = fields.as_slice() else {
            return Err(err(format!(
                "expected 3 fields (board, side to move, ply), found {}",
                fields.len()
            )));
        };
        let n = config.size() as usize;
        let mut pos = AmazonsPosition::empty(config);

        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != n {
            return Err(err(format!(
                "the board has {} ranks, expected {n} for a {n}x{n} board",
                ranks.len()
            )));
        }
        let white = config.white();
        let mut counts = [0u32; 2];
        let mut arrows = 0u32;
        for (i, rank) in ranks.iter().enumerate() {
            let row = n - 1 - i;
            let which = || format!("rank {} (the {} from the top)", row + 1, ordinal(i + 1));
            let mut col = 0usize;
            let mut chars = rank.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(err(format!(
                            "{}: a number of empty squares cannot start with 0",
                            which()
                        )));
                    }
                    let mut run = d as usize;
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        run = run * 10 + d as usize;
                        chars.next();
                        if run > n {
                            break;
                        }
                    }
                    col += run;
                } else {
                    let piece = match c.to_ascii_lowercase() {
                        'w' => Piece::Queen(white),
                        'b' => Piece::Queen(white.other()),
                        'x' => Piece::Arrow,
                        _ => {
                            return Err(err(format!(
                                "{}: bad character '{c}' (expected w, b, x or a number)",
                                which()
                            )));
                        }
                    };
                    if col < n {
                        match piece {
                            Piece::Queen(p) => counts[p.index()] += 1,
                            Piece::Arrow => arrows += 1,
                        }
                        pos.put(row * n + col, piece);
                    }
                    col += 1;
                }
                if col > n {
                    return Err(err(format!("{} has more than {n} squares", which())));
                }
            }
            if col < n {
                return Err(err(format!("{} has {col} squares, expected {n}", which())));
            }
        }
        for player in [white, white.other()] {
            let count = counts[player.index()];
            if count != 4 {
                return Err(err(format!(
                    "{} has {count} queens, expected 4",
                    config.player_name(player)
                )));
            }
        }

        let side = match *side {
            "w" | "W" => white,
            "b" | "B" => white.other(),
            other => {
                return Err(err(format!(
                    "side to move '{}' is not w or b",
                    other.chars().take(8).collect::<String>()
                )));
            }
        };
        let ply: u32 = ply
            .parse()
            .ok()
            .filter(|_| ply.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| {
                err(format!(
                    "ply '{}' is not a number",
                    ply.chars().take(12).collect::<String>()
                ))
            })?;
        if ply != arrows {
            return Err(err(format!(
                "ply {ply} does not match the {arrows} arrows on the board (every move shoots one)"
            )));
        }
        let expected = if ply.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        };
        if side != expected {
            return Err(err(format!(
                "{} cannot be to move at ply {ply}: {} moves first and turns alternate",
                config.player_name(side),
                config.player_name(Player::First)
            )));
        }
        pos.side = side;
        pos.ply = ply;
        pos.refresh_mobility();
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }
}
