//! Drawing a position for people, from its typed [`View`] alone: the board with the last
//! move marked, a legend of the pieces, the marked regions, and a status line.

use search::ScoreKind;

use board_core::{
    Outcome, Player, Position, Square,
    view::{BoardView, Cell, PieceKind, RegionKind, StatusItem, View},
};

const RESET: &str = "\x1b[0m";
const MARK: &str = "\x1b[1;33m";
const FIRST: &str = "\x1b[1;31m";
const SECOND: &str = "\x1b[1;36m";
const DIM: &str = "\x1b[2m";
const ZONE_FIRST: &str = "\x1b[2;31m";
const ZONE_SECOND: &str = "\x1b[2;36m";

/// The board of `pos` with `[` `]` around the squares in `marked` (the last move's), in
/// colour when `color` is set; drop zones show in their owner's dim colour.
pub fn board<V: View>(pos: &V, marked: &[Square], color: bool) -> String {
    board_of(&pos.board_view(), &|cell| pos.glyph(cell), marked, color)
}

/// [`board`] drawn from a [`BoardView`] and the game's letters (`glyph`), as an erased
/// game ([`boardlab_games::DynGame`]) gives them.
pub fn board_of(
    view: &BoardView,
    glyph: &dyn Fn(Cell) -> char,
    marked: &[Square],
    color: bool,
) -> String {
    let (width, height) = (view.width as usize, view.height as usize);
    let num_width = height.to_string().len();
    let letters: String = (0..width)
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    let header = format!("{:num_width$}{letters}\n", "");
    let zone_owner = zone_owners(view);
    let mut out = header.clone();
    for row in (0..height).rev() {
        out.push_str(&format!("{:>num_width$}", row + 1));
        let at = |col: usize| row * width + col;
        let is_marked = |col: usize| marked.iter().any(|sq| sq.index() == at(col));
        for col in 0..=width {
            // The separator before cell `col` (after the last cell when `col == width`).
            let sep = match (col > 0 && is_marked(col - 1), col < width && is_marked(col)) {
                (false, false) => ' ',
                (true, false) => ']',
                (false, true) => '[',
                (true, true) => '|',
            };
            paint(&mut out, sep, (sep != ' ' && color).then_some(MARK));
            if col == width {
                break;
            }
            let cell = view.cells[at(col)];
            let letter = glyph(cell);
            let style = color.then(|| match cell {
                _ if is_marked(col) => MARK,
                Cell::Piece {
                    owner: Player::First,
                    ..
                } => FIRST,
                Cell::Piece {
                    owner: Player::Second,
                    ..
                } => SECOND,
                Cell::Empty => match zone_owner[at(col)] {
                    Some(Player::First) => ZONE_FIRST,
                    Some(Player::Second) => ZONE_SECOND,
                    None => DIM,
                },
                Cell::Marker => DIM,
            });
            paint(&mut out, letter, style);
        }
        out.push_str(&format!(" {}\n", row + 1));
    }
    out.push_str(&header);
    out
}

fn paint(out: &mut String, c: char, style: Option<&str>) {
    match style {
        Some(style) => {
            out.push_str(style);
            out.push(c);
            out.push_str(RESET);
        }
        None => out.push(c),
    }
}

/// For each square, the owner of the drop zone it lies in.
fn zone_owners(view: &BoardView) -> Vec<Option<Player>> {
    let mut owners = vec![None; view.cells.len()];
    for region in &view.regions {
        if region.kind == RegionKind::DropZone {
            for sq in &region.squares {
                if let Some(o) = owners.get_mut(sq.index()) {
                    *o = region.owner;
                }
            }
        }
    }
    owners
}

/// The kind of `player`'s pieces on the board (a stone when it has none yet), to pick
/// their glyph.
fn piece_kind(view: &BoardView, player: Player) -> PieceKind {
    view.cells
        .iter()
        .find_map(|c| match *c {
            Cell::Piece { owner, kind } if owner == player => Some(kind),
            _ => None,
        })
        .unwrap_or(PieceKind::Stone)
}

/// The legend under the board: each piece's letter and owner, the markers, and the drop
/// zones (`X Black · O White · drop zones: Black ranks 6-8, White ranks 1-3`).
pub fn legend<V: View>(pos: &V) -> String {
    legend_of(&pos.board_view(), &|cell| pos.glyph(cell), &|p| {
        pos.player_name(p)
    })
}

/// [`legend`] from a [`BoardView`], the game's letters (`glyph`) and its players' names.
pub fn legend_of(
    view: &BoardView,
    glyph: &dyn Fn(Cell) -> char,
    player_name: &dyn Fn(Player) -> &'static str,
) -> String {
    let mut parts: Vec<String> = [Player::First, Player::Second]
        .into_iter()
        .map(|p| {
            let kind = piece_kind(view, p);
            let letter = glyph(Cell::Piece { owner: p, kind });
            let what = match kind {
                PieceKind::Queen => " queen",
                PieceKind::Stone | PieceKind::Man => "",
            };
            format!("{letter} {}{what}", player_name(p))
        })
        .collect();
    if view.cells.contains(&Cell::Marker) {
        parts.push(format!("{} arrow", glyph(Cell::Marker)));
    }
    let zones: Vec<String> = view
        .regions
        .iter()
        .filter(|r| r.kind == RegionKind::DropZone && !r.squares.is_empty())
        .filter_map(|r| {
            let owner = r.owner?;
            let rows = r
                .squares
                .iter()
                .map(|sq| sq.index() / view.width as usize + 1);
            let (lo, hi) = (rows.clone().min()?, rows.max()?);
            Some(format!("{} ranks {lo}-{hi}", player_name(owner)))
        })
        .collect();
    if !zones.is_empty() {
        parts.push(format!("drop zones: {}", zones.join(", ")));
    }
    parts.join(" · ")
}

/// What a search's score means for the side to move, in words for a player (no
/// centipawns): `you win in 3 moves`, `about even`, `you look better`.
pub fn assessment(score: search::Score) -> String {
    /// Within this many evaluation units of 0 the game is called even.
    const EVEN: i32 = 50;
    match score.kind() {
        ScoreKind::Win(1) => "you win with it".to_string(),
        ScoreKind::Win(n) => format!("you win in {n} moves"),
        ScoreKind::Loss(n) => format!("the computer sees a forced loss in {n} moves"),
        ScoreKind::Value(v) if v.abs() <= EVEN => "about even".to_string(),
        ScoreKind::Value(v) if v > 0 => "you look better".to_string(),
        ScoreKind::Value(_) => "you look worse".to_string(),
    }
}

/// The result of a finished game, naming the winner and the game's reason (`Black wins:
/// five in a row h8-l8`; `First wins` for a game that gives no reason); empty while the
/// game goes on.
pub fn result<P: Position>(pos: &P) -> String {
    let Some(outcome) = pos.outcome() else {
        return String::new();
    };
    let result = match outcome {
        Outcome::Win(p) => format!("{} wins", pos.player_name(p)),
        Outcome::Draw => "draw".to_string(),
    };
    match pos.outcome_reason() {
        Some(reason) => format!("{result}: {reason}"),
        None => result,
    }
}

/// The game-specific part of the status line, from the view's typed items.
pub fn details<V: View>(pos: &V) -> Vec<String> {
    details_of(&pos.board_view(), &|cell| pos.glyph(cell))
}

/// [`details`] from a [`BoardView`] (its status items) and the game's letters (`glyph`).
pub fn details_of(view: &BoardView, glyph: &dyn Fn(Cell) -> char) -> Vec<String> {
    let items = &view.status;
    let mut parts = Vec::new();
    let hands: Vec<(Player, u32)> = items
        .iter()
        .filter_map(|i| match *i {
            StatusItem::InHand { player, count } => Some((player, count)),
            _ => None,
        })
        .collect();
    let on_board: Vec<(Player, u32)> = items
        .iter()
        .filter_map(|i| match *i {
            StatusItem::OnBoard { player, count } => Some((player, count)),
            _ => None,
        })
        .collect();
    // Pieces are named by their letters (the legend says whose), to fit 80 columns.
    let glyph_of = |p: Player| {
        glyph(Cell::Piece {
            owner: p,
            kind: piece_kind(view, p),
        })
    };
    let pairs = |list: &[(Player, u32)]| {
        list.iter()
            .map(|&(p, n)| format!("{} {n}", glyph_of(p)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut phase = None;
    for item in items {
        match *item {
            StatusItem::Phase(p) => phase = Some(p),
            StatusItem::Quiet { count, limit } => {
                parts.push(format!("quiet moves {count}/{limit}"))
            }
            StatusItem::StonesToPlace(1) => parts.push("place one stone".to_string()),
            StatusItem::StonesToPlace(n) => parts.push(format!("place {} stones", number(n))),
            StatusItem::InHand { .. } | StatusItem::OnBoard { .. } => {}
        }
    }
    let mut front = Vec::new();
    match (phase, hands.is_empty()) {
        (Some(phase), false) => front.push(format!("{phase}: in hand {}", pairs(&hands))),
        (Some(phase), true) => front.push(phase.to_string()),
        (None, false) => front.push(format!("in hand {}", pairs(&hands))),
        (None, true) => {}
    }
    if !on_board.is_empty() {
        front.push(format!("on board {}", pairs(&on_board)));
    }
    front.extend(parts);
    front
}

fn number(n: u32) -> String {
    match n {
        2 => "two".to_string(),
        3 => "three".to_string(),
        n => n.to_string(),
    }
}

/// `move 5 · Black to move · placing: …`, or the result of a finished game.
pub fn status<V: View>(pos: &V) -> String {
    if pos.outcome().is_some() {
        return format!("move {} · game over: {}", pos.ply(), result(pos));
    }
    let mut s = format!(
        "move {} · {} to move",
        pos.ply() + 1,
        pos.player_name(pos.side_to_move())
    );
    for d in details(pos) {
        s.push_str(" · ");
        s.push_str(&d);
    }
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use board_core::{Notation as _, Rules as _};

    #[test]
    fn clamp_status_shows_the_hands_under_a_finite_supply() {
        use rules_clamp::{ClampConfig, ClampPosition};
        let config: ClampConfig = "clamp:supply=12".parse().unwrap();
        let pos =
            ClampPosition::from_position_string(config, "8/3X4/2XXXX2/8/8/2OOOO2/8/8 o 1 1 11 12")
                .unwrap();
        assert_eq!(
            status(&pos),
            "move 2 · White to move · in hand X 11, O 12 · on board X 5, O 4 · quiet moves 1/80"
        );
        let plain = ClampPosition::new(ClampConfig::default());
        assert_eq!(
            status(&plain),
            "move 1 · Black to move · on board X 4, O 4 · quiet moves 0/80"
        );
        assert!(legend(&plain).ends_with("drop zones: Black ranks 6-8, White ranks 1-3"));
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
    fn marks_squares_of_the_last_move_and_captures() {
        use board_core::Position;
        use rules_clamp::ClampPosition;
        let mut pos = ClampPosition::new(Default::default());
        for text in ["d6-d4", "c3-c4", "g7"] {
            let mv = pos.parse_legal_move(text).unwrap();
            pos.make_move(mv);
        }
        let before = pos.clone();
        let mv = pos.parse_legal_move("e3-e4").unwrap();
        pos.make_move(mv);
        let d4 = pos.geometry().parse_square("d4").unwrap();
        assert_eq!(board_core::view::captured(&before, &pos, mv), vec![d4]);
        let drawn = board(&pos, &before.move_squares(mv), false);
        assert!(drawn.contains("4 . . O .[O]. . .  4"), "{drawn}");
        assert!(drawn.contains("3 . . . O[.]O . .  3"), "{drawn}");
    }
}
