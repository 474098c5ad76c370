//! [`pick`]: which legal move the squares a person clicked name, so that the page never
//! writes notation. The page sends the clicked squares; the answer is the legal move's
//! [`MoveInfo`] (its text is what the page sends back to play it), or why those squares
//! name no legal move, in words drawn from the board (whose piece stands there, what is
//! in the way of a continuation).
//!
//! A move that only places stones (a gomoku stone, a Connect6 pair) names a set of
//! squares: the clicks match in any order. Every other move names its squares in order
//! (from, to, arrow).

use std::fmt;

use board_core::{Geometry, Square, view::Cell};
use boardlab_games::{DynGame, MoveInfo};

/// Most squares one move names (Amazons: from, to, arrow); longer lists are refused.
pub const MAX_PICK_SQUARES: usize = 8;

/// Why the clicked squares name no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickError {
    /// No squares, or more than [`MAX_PICK_SQUARES`].
    Count(usize),
    /// A square index past the board.
    OffBoard(u16),
    /// The game is over: nothing is legal.
    Over,
    /// The squares begin a legal move that needs more of them.
    Incomplete,
    /// No legal move: the reason for people.
    NoMove(String),
}

impl fmt::Display for PickError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PickError::Count(n) => {
                write!(f, "a move names 1 to {MAX_PICK_SQUARES} squares, not {n}")
            }
            PickError::OffBoard(i) => write!(f, "square {i} is off the board"),
            PickError::Over => f.write_str("the game is over"),
            PickError::Incomplete => f.write_str("choose the next square of the move"),
            PickError::NoMove(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for PickError {}

/// The legal move of `game` whose squares are `squares` (in order; in any order for a
/// move that only places stones).
pub fn pick(game: &dyn DynGame, squares: &[u16]) -> Result<MoveInfo, PickError> {
    if squares.is_empty() || squares.len() > MAX_PICK_SQUARES {
        return Err(PickError::Count(squares.len()));
    }
    let board = game.view();
    let cells = board.cells.len();
    if let Some(&off) = squares.iter().find(|&&s| usize::from(s) >= cells) {
        return Err(PickError::OffBoard(off));
    }
    if game.outcome().is_some() {
        return Err(PickError::Over);
    }
    let legal = game.legal_move_infos();
    let empty = |s: u16| board.cells[usize::from(s)] == Cell::Empty;
    if let Some(m) = legal.iter().find(|m| m.squares == squares) {
        return Ok(m.clone());
    }
    let mut wanted = squares.to_vec();
    wanted.sort_unstable();
    let placement_match = legal.iter().find(|m| {
        let mut named = m.squares.clone();
        named.sort_unstable();
        named == wanted && m.squares.iter().all(|&s| empty(s))
    });
    if let Some(m) = placement_match {
        return Ok(m.clone());
    }
    // How far the clicks follow some legal move: the first click that none continues is
    // the one to explain.
    let followed = legal
        .iter()
        .map(|m| {
            m.squares
                .iter()
                .zip(squares)
                .take_while(|(a, b)| a == b)
                .count()
        })
        .max()
        .unwrap_or(0);
    // Stones of a placement still to come: the clicks so far are part of one.
    let part_of_placement = legal.iter().any(|m| {
        m.squares.len() > squares.len()
            && m.squares.iter().all(|&s| empty(s))
            && squares.iter().all(|s| m.squares.contains(s))
    });
    if followed == squares.len() || part_of_placement {
        return Err(PickError::Incomplete);
    }
    let geometry = Geometry::new(board.width, board.height)
        .map_err(|e| PickError::NoMove(format!("the board cannot be named: {e}")))?;
    let name = |s: u16| geometry.format_square(Square(s));
    let mover = game.side_to_move();
    let mover_name = game.player_name(mover);
    let at = squares[followed];
    let here = name(at);
    let reason = if followed == 0 {
        // Whether the legal moves place stones: all of them (a placement game or phase,
        // where a stone on the square is simply in the way), or some (clamp's drops).
        let placing = |m: &MoveInfo| m.squares.iter().all(|&s| empty(s));
        let only_places = legal.iter().all(placing);
        let places = legal.iter().any(placing);
        match board.cells[usize::from(at)] {
            Cell::Piece { .. } if only_places => format!("{here} is occupied"),
            Cell::Piece { owner, .. } if owner != mover => format!(
                "{here} holds {}'s piece: {mover_name} moves one of its own",
                game.player_name(owner)
            ),
            Cell::Piece { .. } => format!("the piece on {here} has no legal move"),
            Cell::Marker => format!("{here} is blocked"),
            Cell::Empty if places => format!("no legal move places on {here}"),
            Cell::Empty => format!("{here} is empty: choose one of {mover_name}'s pieces"),
        }
    } else {
        let from = name(squares[followed - 1]);
        match board.cells[usize::from(at)] {
            // The square the piece leaves is free again for what follows it (an arrow).
            _ if followed >= 2 && at == squares[0] => {
                format!("no legal move goes on from {from} to {here}")
            }
            Cell::Piece { .. } => format!("{here} is occupied"),
            Cell::Marker => format!("{here} is blocked"),
            Cell::Empty if followed == 1 => {
                // A piece blocked on its way is told so only if the game's pieces move
                // that far now (an Amazons queen), never for a step it could not make
                // anyway (fourshift's one-square shifts, clamp's steps of two).
                let distance = |a: u16, b: u16| geometry.king_distance(Square(a), Square(b));
                let reach = legal
                    .iter()
                    .filter(|m| m.squares.len() >= 2 && !empty(m.squares[0]))
                    .map(|m| distance(m.squares[0], m.squares[1]))
                    .max()
                    .unwrap_or(0);
                let blocked = in_the_way(&board.cells, board.width, squares[0], at)
                    .filter(|_| reach >= 2 && distance(squares[0], at) <= reach)
                    .map(|s| format!(": {} is in the way", name(s)))
                    .unwrap_or_default();
                format!("{mover_name}'s piece on {from} cannot go to {here}{blocked}")
            }
            Cell::Empty => format!("no legal move goes on from {from} to {here}"),
        }
    };
    Err(PickError::NoMove(reason))
}

/// The first occupied square strictly between `from` and `to` when they share a row,
/// a column or a diagonal: what blocks a sliding piece.
fn in_the_way(cells: &[Cell], width: u32, from: u16, to: u16) -> Option<u16> {
    let (w, from, to) = (i64::from(width), i64::from(from), i64::from(to));
    let (dc, dr) = (to % w - from % w, to / w - from / w);
    if !(dc == 0 || dr == 0 || dc.abs() == dr.abs()) {
        return None;
    }
    let steps = dc.abs().max(dr.abs());
    let step = dc.signum() + dr.signum() * w;
    (1..steps)
        .map(|k| from + k * step)
        .find(|&s| {
            usize::try_from(s).is_ok_and(|s| cells.get(s).is_some_and(|c| *c != Cell::Empty))
        })
        .and_then(|s| u16::try_from(s).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    use boardlab_games::Registry;

    fn game(spec: &str, moves: &[&str]) -> Box<dyn DynGame> {
        let mut g = Registry::bundled().start(spec).expect("spec");
        for m in moves {
            g.play(m).expect("legal");
        }
        g
    }

    /// Flat index of `a1`-style `name` on a board `width` wide.
    fn sq(name: &str, width: u32) -> u16 {
        let g = Geometry::new(width, width).expect("geometry");
        g.parse_square(name).expect("square").0
    }

    #[test]
    fn a_placement_click_is_the_placement_move() {
        let g = game("gomoku", &[]);
        let m = pick(&*g, &[sq("h8", 15)]).expect("legal");
        assert_eq!(m.text, "h8");
        let g = game("gomoku", &["h8"]);
        assert_eq!(
            pick(&*g, &[sq("h8", 15)]),
            Err(PickError::NoMove("h8 is occupied".into()))
        );
    }

    #[test]
    fn a_connect6_pair_matches_in_either_order() {
        let g = game("connect6", &["j10"]);
        let (a, b) = (sq("k11", 19), sq("l12", 19));
        let one = pick(&*g, &[a, b]).expect("legal pair");
        let other = pick(&*g, &[b, a]).expect("legal pair, other order");
        assert_eq!(one, other);
        assert!(one.text.contains("k11") && one.text.contains("l12"));
        assert_eq!(
            pick(&*g, &[a, sq("j10", 19)]),
            Err(PickError::NoMove("j10 is occupied".into()))
        );
        assert_eq!(pick(&*g, &[a]), Err(PickError::Incomplete));
    }

    #[test]
    fn amazons_moves_name_their_squares_in_order() {
        let g = game("amazons", &[]);
        let (d1, d7, g7) = (sq("d1", 10), sq("d7", 10), sq("g7", 10));
        assert_eq!(pick(&*g, &[d1, d7, g7]).expect("legal").text, "d1-d7/g7");
        // The same squares in another order are another (or no) move, never this one.
        assert_ne!(
            pick(&*g, &[d1, g7, d7]).map(|m| m.text),
            Ok("d1-d7/g7".to_string())
        );
        assert_eq!(pick(&*g, &[d1, d7]), Err(PickError::Incomplete));
        // d10 is Black's queen; White is to move.
        assert_eq!(
            pick(&*g, &[sq("d10", 10)]),
            Err(PickError::NoMove(
                "d10 holds Black's piece: White moves one of its own".into()
            ))
        );
        // d1 to e3 is no queen line.
        assert_eq!(
            pick(&*g, &[d1, sq("e3", 10)]),
            Err(PickError::NoMove(
                "White's piece on d1 cannot go to e3".into()
            ))
        );
    }

    #[test]
    fn fourshift_moving_phase_explains_whose_piece_was_clicked() {
        let placements = [
            "a1", "f1", "b1", "f2", "c1", "a6", "d2", "c6", "a3", "e6", "c3", "f4", "e4", "d4",
            "b5", "b4",
        ];
        let g = game("fourshift", &placements);
        // Black to move; f1 is White's.
        let err = pick(&*g, &[sq("f1", 6)]).expect_err("not Black's");
        assert_eq!(
            err.to_string(),
            "f1 holds White's piece: Black moves one of its own"
        );
        let err = pick(&*g, &[sq("e1", 6)]).expect_err("empty");
        assert_eq!(err.to_string(), "e1 is empty: choose one of Black's pieces");
        assert_eq!(
            pick(&*g, &[sq("d2", 6), sq("d1", 6)]).expect("legal").text,
            "d2-d1"
        );
        // A shift is one step: d4 is no obstacle on the way from d2 to d5.
        let err = pick(&*g, &[sq("d2", 6), sq("d5", 6)]).expect_err("not a step");
        assert_eq!(err.to_string(), "Black's piece on d2 cannot go to d5");
    }

    #[test]
    fn bad_requests_and_finished_games_are_refused() {
        let g = game("fourshift", &[]);
        assert_eq!(pick(&*g, &[]), Err(PickError::Count(0)));
        assert_eq!(pick(&*g, &[36]), Err(PickError::OffBoard(36)));
        let g = game("fourshift", &["a1", "a6", "b1", "b6", "c1", "c6", "d1"]);
        assert_eq!(pick(&*g, &[10]), Err(PickError::Over));
    }
}
