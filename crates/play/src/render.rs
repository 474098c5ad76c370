//! Drawing a position for people: the game's diagram with the last move marked, and a
//! status line (whose turn, phase, counters, move number).

use board_core::{GameConfig, Position};

const RESET: &str = "\x1b[0m";
const MARK: &str = "\x1b[1;33m";
const FIRST: &str = "\x1b[1;31m";
const SECOND: &str = "\x1b[1;36m";
const DIM: &str = "\x1b[2m";

/// The squares named in a move's notation, as (column, row), 0-based.
pub fn move_squares(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_alphabetic() {
            continue;
        }
        let col = (c.to_ascii_lowercase() as u8 - b'a') as usize;
        let mut row = 0usize;
        let mut digits = 0;
        while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
            row = row.saturating_mul(10).saturating_add(d as usize);
            digits += 1;
            chars.next();
        }
        if digits > 0 && row > 0 {
            out.push((col, row - 1));
        }
    }
    out
}

/// The diagram of `pos` with `[` `]` around the squares of `last` (a move's notation), in
/// colour when `color` is set.
pub fn board<P: Position>(pos: &P, last: Option<&str>, color: bool) -> String {
    let diagram = pos.diagram();
    // Amazons draws arrows as `x`: not a player's piece.
    let arrows = <P::Config as GameConfig>::GAME_ID == "amazons";
    let marks = last.map(move_squares).unwrap_or_default();
    let mut out = String::with_capacity(diagram.len() * 2);
    for line in diagram.lines() {
        let mut chars: Vec<char> = line.chars().collect();
        let row = row_number(line);
        let width = line.len() - line.trim_start().len();
        let num_width = row.map_or(0, |r| (r + 1).to_string().len() + width);
        let mut marked = vec![false; chars.len()];
        if let Some(row) = row {
            for &(col, r) in &marks {
                if r != row {
                    continue;
                }
                let at = num_width + 1 + 2 * col;
                if at == 0 || at + 1 >= chars.len() {
                    continue;
                }
                marked[at] = true;
                if chars[at - 1] == ' ' || chars[at - 1] == ']' {
                    chars[at - 1] = if chars[at - 1] == ']' { '|' } else { '[' };
                }
                if chars[at + 1] == ' ' {
                    chars[at + 1] = ']';
                }
            }
        }
        if color && row.is_some() {
            let cols = line.split_whitespace().count().saturating_sub(2);
            let last_cell = num_width + 2 * cols;
            for (i, &c) in chars.iter().enumerate() {
                let cell = i > num_width && (i - num_width) % 2 == 1 && i < last_cell;
                match c {
                    '[' | ']' | '|' => {
                        out.push_str(MARK);
                        out.push(c);
                        out.push_str(RESET);
                    }
                    _ if cell && marked[i] => {
                        out.push_str(MARK);
                        out.push(c);
                        out.push_str(RESET);
                    }
                    'x' if cell && arrows => {
                        out.push_str(DIM);
                        out.push(c);
                        out.push_str(RESET);
                    }
                    'X' | 'x' | 'b' if cell => {
                        out.push_str(FIRST);
                        out.push(c);
                        out.push_str(RESET);
                    }
                    'O' | 'o' | 'w' if cell => {
                        out.push_str(SECOND);
                        out.push(c);
                        out.push_str(RESET);
                    }
                    '.' if cell => {
                        out.push_str(DIM);
                        out.push(c);
                        out.push_str(RESET);
                    }
                    _ => out.push(c),
                }
            }
        } else {
            out.extend(chars.iter());
        }
        out.push('\n');
    }
    out
}

/// The 0-based row a diagram line draws, if it is a row line (`10 . x .  10`).
fn row_number(line: &str) -> Option<usize> {
    let first = line.split_whitespace().next()?;
    let n: usize = first.parse().ok()?;
    let last = line.split_whitespace().last()?;
    (last == first && n > 0).then(|| n - 1)
}

/// Extra, game-specific status read from the position string (which every game has):
/// fourshift's phase and pieces in hand, clamp's quiet counter (and pieces in hand under a
/// finite supply).
pub fn details<P: Position>(pos: &P) -> Option<String> {
    let ps = pos.to_position_string();
    let fields: Vec<&str> = ps.split_whitespace().collect();
    match <P::Config as GameConfig>::GAME_ID {
        "fourshift" => {
            let black: u32 = fields.get(2)?.parse().ok()?;
            let white: u32 = fields.get(3)?.parse().ok()?;
            if black + white > 0 {
                Some(format!(
                    "placing: {} {black} in hand, {} {white} in hand",
                    pos.player_name(board_core::Player::First),
                    pos.player_name(board_core::Player::Second)
                ))
            } else {
                Some("moving".to_string())
            }
        }
        "clamp" => {
            let quiet = fields.get(2)?;
            let limit = pos
                .config()
                .to_string()
                .split([':', ','])
                .find_map(|kv| kv.strip_prefix("quiet_limit=").map(str::to_string));
            let mut text = match limit {
                Some(limit) => format!("quiet moves {quiet}/{limit}"),
                None => format!("quiet moves {quiet}"),
            };
            // Under a finite supply the string ends with the pieces in hand.
            if let (Some(black), Some(white)) = (fields.get(4), fields.get(5)) {
                text.push_str(&format!(
                    " · in hand: {} {black}, {} {white}",
                    pos.player_name(board_core::Player::First),
                    pos.player_name(board_core::Player::Second)
                ));
            }
            Some(text)
        }
        _ => None,
    }
}

/// The result of a finished game and why, naming the winner (`Black wins: five in a row
/// h8-l8`); empty while the game goes on.
pub fn result<P: Position>(pos: &P) -> String {
    let reason = pos.outcome_reason().unwrap_or_default();
    match pos.outcome() {
        Some(board_core::Outcome::Win(p)) if !reason.contains(pos.player_name(p)) => {
            format!("{} wins: {reason}", pos.player_name(p))
        }
        _ => reason,
    }
}

/// `move 5 · Black to move · placing: …`, or the result of a finished game.
pub fn status<P: Position>(pos: &P) -> String {
    if pos.outcome().is_some() {
        return format!("move {} · game over: {}", pos.ply(), result(pos));
    }
    let mut s = format!(
        "move {} · {} to move",
        pos.ply() + 1,
        pos.player_name(pos.side_to_move())
    );
    if let Some(d) = details(pos) {
        s.push_str(" · ");
        s.push_str(&d);
    }
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn squares_of_moves() {
        assert_eq!(move_squares("c3"), vec![(2, 2)]);
        assert_eq!(move_squares("d1-d7/g7"), vec![(3, 0), (3, 6), (6, 6)]);
        assert_eq!(move_squares("j11,k12"), vec![(9, 10), (10, 11)]);
        assert_eq!(
            move_squares("z99999999999999999999999"),
            vec![(25, usize::MAX - 1)]
        );
        assert!(move_squares("a0 ??").is_empty());
    }

    #[test]
    fn clamp_status_shows_the_hands_under_a_finite_supply() {
        use rules_clamp::{ClampConfig, ClampPosition};
        let config: ClampConfig = "clamp:supply=12".parse().unwrap();
        let pos =
            ClampPosition::from_position_string(config, "8/3X4/2XXXX2/8/8/2OOOO2/8/8 o 1 1 11 12")
                .unwrap();
        assert_eq!(
            status(&pos),
            "move 2 · White to move · quiet moves 1/80 · in hand: Black 11, White 12"
        );
        // The supply's extra diagram line passes through the board drawing.
        assert!(board(&pos, Some("d7"), false).ends_with("in hand: Black 11, White 12\n"));
        let plain = ClampPosition::new(ClampConfig::default());
        assert_eq!(status(&plain), "move 1 · Black to move · quiet moves 0/80");
    }

    #[test]
    fn fourshift_status_after_whites_last_placement_under_moving_first_second() {
        use rules_fourshift::{Fourshift, FourshiftConfig};
        let config: FourshiftConfig = "fourshift:moving_first=second".parse().unwrap();
        let pos =
            Fourshift::from_position_string(config, "OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 o 0 0 16")
                .unwrap();
        assert_eq!(status(&pos), "move 17 · White to move · moving");
    }

    #[test]
    fn rows() {
        assert_eq!(row_number("10 . x .  10"), Some(9));
        assert_eq!(row_number(" 9 . x .  9"), Some(8));
        assert_eq!(row_number("   a b c"), None);
    }
}
