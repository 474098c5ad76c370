//! The position string: `<board> <side to move> <ply>` (documented in the crate docs).

use board_core::{
    InvalidKind, Outcome, Player, PositionStringError, SquareSet,
    setup::{Setup, read_number, write_board},
};

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

/// The piece a character of the board stands for.
fn piece(c: char) -> Option<Player> {
    match c {
        'x' | 'X' => Some(Player::First),
        'o' | 'O' => Some(Player::Second),
        _ => None,
    }
}

pub(crate) fn format(pos: &GomokuPosition) -> String {
    let mut out = write_board(pos.geometry(), |sq| pos.stone_at(sq).map(letter));
    out.push(' ');
    out.push(letter(board_core::Rules::side_to_move(pos)));
    out.push(' ');
    out.push_str(&board_core::Rules::ply(pos).to_string());
    out
}

fn fail<T>(kind: InvalidKind, msg: String) -> Result<T, PositionStringError> {
    Err(PositionStringError::invalid(kind, msg))
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
    let mut pos = GomokuPosition::start(config);
    let g = pos.geometry();
    let setup = Setup::parse(g, s, "board, side to move, ply", piece, "x, o")?;
    let [side, ply] = setup.fields;
    for (sq, player) in g.squares().zip(&setup.board) {
        if let Some(player) = *player {
            pos.put_stone(sq, player);
        }
    }
    let side = side
        .parse::<char>()
        .ok()
        .and_then(piece)
        .ok_or_else(|| PositionStringError::field("side to move", side, "x or o"))?;
    let ply = read_number("ply", ply, u32::MAX, "a number")?;

    let (black, white) = (
        pos.stone_count(Player::First),
        pos.stone_count(Player::Second),
    );
    if black != white && black != white + 1 {
        return fail(
            InvalidKind::PieceCount,
            format!(
                "x has {black} stones and o has {white}: Black moves first, so x must have as many \
             stones as o or one more"
            ),
        );
    }
    let expected = if black == white {
        Player::First
    } else {
        Player::Second
    };
    if side != expected {
        return fail(
            InvalidKind::SideToMove,
            format!(
                "{} is to move, but with {black} x and {white} o stones it is {}'s turn",
                letter(side),
                letter(expected)
            ),
        );
    }
    if ply != black + white {
        return fail(
            InvalidKind::Counter,
            format!(
                "ply {ply} does not match the {} stones on the board (each move places one stone)",
                black + white
            ),
        );
    }

    let rule = config.rule();
    let lines = Player::BOTH.map(|p| winning_lines(g, rule, pos.stones(p)));
    let outcome = match (lines[0].first(), lines[1].first()) {
        (Some(x), Some(o)) => {
            return fail(
                InvalidKind::Outcome,
                format!(
                    "both x ({}) and o ({}) have a winning line",
                    describe(&pos, x),
                    describe(&pos, o)
                ),
            );
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
        return fail(InvalidKind::Outcome, "no winning line".into());
    };
    if side == winner {
        return fail(
            InvalidKind::Outcome,
            format!(
                "{} has five in a row ({}) but it is {}'s turn: the game ended with that line, \
             so {} cannot have moved since",
                letter(winner),
                describe(pos, first),
                letter(winner),
                letter(winner.other())
            ),
        );
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
    fail(
        InvalidKind::Outcome,
        format!(
            "{}'s winning lines ({}) cannot all have been made by one last move: the game \
         would have ended earlier",
            letter(winner),
            all.join(", ")
        ),
    )
}
