//! The position string: `<board> <side to move> <ply>` (documented in the crate docs).

use board_core::{Outcome, Player, PositionStringError, SquareSet};

use crate::{
    config::GomokuConfig,
    position::{GomokuPosition, WinningLine, winning_lines},
};

/// The letter of a player's stones (and of the side to move).
pub(crate) const fn letter(player: Player) -> char {
    match player {
        Player::First => 'x',
        Player::Second => 'o',
    }
}

pub(crate) fn format(pos: &GomokuPosition) -> String {
    let g = pos.geometry();
    let size = g.width();
    let mut out = String::with_capacity((size * (size + 1)) as usize / 2 + 16);
    for row in (0..size).rev() {
        let mut run = 0;
        for col in 0..size {
            match g.square_at(col, row).and_then(|sq| pos.stone_at(sq)) {
                None => run += 1,
                Some(player) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(letter(player));
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
    out.push(' ');
    out.push(letter(board_core::Position::side_to_move(pos)));
    out.push(' ');
    out.push_str(&board_core::Position::ply(pos).to_string());
    out
}

fn fail<T>(msg: String) -> Result<T, PositionStringError> {
    Err(PositionStringError(msg))
}

/// Quotes at most 24 characters of the input in an error.
fn quote(s: &str) -> String {
    let mut q: String = s.chars().take(24).collect();
    if s.chars().nth(24).is_some() {
        q.push_str("...");
    }
    q
}

fn describe(pos: &GomokuPosition, line: &WinningLine) -> String {
    let g = pos.geometry();
    format!(
        "{}-{}",
        g.format_square(line.start),
        g.format_square(line.end)
    )
}

pub(crate) fn parse(config: GomokuConfig, s: &str) -> Result<GomokuPosition, PositionStringError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let [board, side, ply] = fields[..] else {
        return fail(format!(
            "expected 3 fields (board, side to move, ply), found {}",
            fields.len()
        ));
    };
    let size = config.size();
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != size as usize {
        return fail(format!(
            "the board has {} ranks, expected {size} for a {size}x{size} board",
            ranks.len()
        ));
    }
    let mut pos = GomokuPosition::start(config);
    let g = pos.geometry();
    for (i, rank) in ranks.iter().enumerate() {
        let row = size - 1 - i as u32;
        let rank_no = row + 1;
        let mut col = 0u32;
        let mut run: Option<u32> = None;
        for ch in rank.chars() {
            if let Some(d) = ch.to_digit(10) {
                let n = match run {
                    None if d == 0 => {
                        return fail(format!(
                            "rank {rank_no}: a number of empty squares cannot be 0 or start with 0"
                        ));
                    }
                    None => d,
                    Some(n) => n * 10 + d,
                };
                if col + n > size {
                    return fail(format!("rank {rank_no} describes more than {size} squares"));
                }
                run = Some(n);
                continue;
            }
            col += run.take().unwrap_or(0);
            let player = match ch {
                'x' | 'X' => Player::First,
                'o' | 'O' => Player::Second,
                _ => {
                    return fail(format!(
                        "rank {rank_no}: bad character '{ch}': expected x, o or a number of empty squares"
                    ));
                }
            };
            let Some(sq) = g.square_at(col, row) else {
                return fail(format!("rank {rank_no} describes more than {size} squares"));
            };
            pos.put_stone(sq, player);
            col += 1;
        }
        col += run.unwrap_or(0);
        if col != size {
            return fail(format!(
                "rank {rank_no} describes {col} squares, expected {size}"
            ));
        }
    }

    let side = match side {
        "x" | "X" => Player::First,
        "o" | "O" => Player::Second,
        other => {
            return fail(format!("side to move '{}' is not x or o", quote(other)));
        }
    };
    let ply: u32 = if !ply.is_empty() && ply.bytes().all(|b| b.is_ascii_digit()) {
        ply.parse().ok()
    } else {
        None
    }
    .ok_or_else(|| PositionStringError(format!("ply '{}' is not a number", quote(ply))))?;

    let (black, white) = (
        pos.stone_count(Player::First),
        pos.stone_count(Player::Second),
    );
    if black != white && black != white + 1 {
        return fail(format!(
            "x has {black} stones and o has {white}: Black moves first, so x must have as many \
             stones as o or one more"
        ));
    }
    let expected = if black == white {
        Player::First
    } else {
        Player::Second
    };
    if side != expected {
        return fail(format!(
            "{} is to move, but with {black} x and {white} o stones it is {}'s turn",
            letter(side),
            letter(expected)
        ));
    }
    if ply != black + white {
        return fail(format!(
            "ply {ply} does not match the {} stones on the board (each move places one stone)",
            black + white
        ));
    }

    let rule = config.rule();
    let lines = Player::BOTH.map(|p| winning_lines(g, rule, pos.stones(p)));
    let outcome = match (lines[0].first(), lines[1].first()) {
        (Some(x), Some(o)) => {
            return fail(format!(
                "both x ({}) and o ({}) have a winning line",
                describe(&pos, x),
                describe(&pos, o)
            ));
        }
        (None, None) if ply as usize == g.cells() => Some(Outcome::Draw),
        (None, None) => None,
        (Some(_), None) => Some(winning_outcome(&pos, Player::First, &lines[0], side)?),
        (None, Some(_)) => Some(winning_outcome(&pos, Player::Second, &lines[1], side)?),
    };
    pos.set_state(side, ply, outcome);
    Ok(pos)
}

/// Checks that `winner`'s winning `lines` can be the end of a game, and returns the win.
///
/// The winner must have moved last (so the side to move is the other player), and some
/// stone of theirs must be the move that ended the game: without it they have no winning
/// line at all (otherwise the game would have ended earlier).
fn winning_outcome(
    pos: &GomokuPosition,
    winner: Player,
    lines: &[WinningLine],
    side: Player,
) -> Result<Outcome, PositionStringError> {
    let g = pos.geometry();
    let Some(first) = lines.first() else {
        return fail("internal: no winning line".into());
    };
    if side == winner {
        return fail(format!(
            "{} has five in a row ({}) but it is {}'s turn: the game ended with that line, \
             so {} cannot have moved since",
            letter(winner),
            describe(pos, first),
            letter(winner),
            letter(winner.other())
        ));
    }
    let stones = *pos.stones(winner);
    let mut candidate = Some(first.start);
    while let Some(sq) = candidate {
        let mut before = stones;
        before.remove(sq);
        if winning_lines(g, pos.rule(), &before).is_empty() {
            return Ok(Outcome::Win(winner));
        }
        candidate = (sq != first.end)
            .then(|| g.step(sq, first.direction))
            .flatten();
    }
    let all: Vec<String> = lines.iter().map(|l| describe(pos, l)).collect();
    fail(format!(
        "{}'s winning lines ({}) cannot all have been made by one last move: the game \
         would have ended earlier",
        letter(winner),
        all.join(", ")
    ))
}
