//! [`BoardView`]: what the page draws, as typed data computed from a game's typed position
//! (never from its text diagram), one builder per game ([`ViewOf`]).
//!
//! The view is game-agnostic: a grid of cells (empty, a player's piece of some kind, or a
//! neutral marker such as an Amazons arrow), shaded regions (clamp's drop zones), the
//! squares the last move touched, status items (phase, pieces in hand, quiet counter,
//! stones per turn) and the outcome with its winning line. Squares are flat indices
//! `row * width + col` with row 0 the bottom rank, as in the notation (`a1` is 0).

use board_core::{Geometry, Player, Position, Square};
use engines::EngineGame;
use serde::Serialize;

/// The whole board as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    pub width: u32,
    pub height: u32,
    /// One entry per square, index `row * width + col`; `None` is an empty square.
    pub cells: Vec<Option<Cell>>,
    /// Shaded areas of the board.
    pub regions: Vec<Region>,
    /// Squares the last move touched (from, to, arrow; or the stones placed).
    pub last: Vec<u16>,
    /// Squares the last move emptied by capture.
    pub captured: Vec<u16>,
    /// The player to move (0 first, 1 second); in a finished game, who would move next.
    pub to_move: u8,
    /// Stones the player to move places this turn (Connect6: 1 or 2; 1 elsewhere).
    pub stones_per_turn: u32,
    /// Game state for people: phase, pieces in hand, quiet counter...
    pub status: Vec<StatusItem>,
    /// Set once the game is over (by the rules; a resignation is added by the store).
    pub outcome: Option<OutcomeView>,
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Cell {
    /// A player's piece (0 first, 1 second).
    Piece { owner: u8, kind: PieceKind },
    /// A neutral marker.
    Marker { kind: MarkerKind },
}

/// How a player's piece is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    /// A gomoku or Connect6 stone.
    Stone,
    /// A fourshift or clamp piece (it can move).
    Piece,
    /// An Amazons queen.
    Queen,
}

/// A neutral marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkerKind {
    /// An Amazons arrow (a burned square).
    Arrow,
}

/// A shaded set of squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Region {
    /// What it is (`drop-zone`).
    pub kind: &'static str,
    /// Whose it is (0 first, 1 second).
    pub owner: u8,
    pub squares: Vec<u16>,
    /// Shown as the region's title.
    pub label: String,
}

/// One line of the status panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusItem {
    pub label: &'static str,
    pub value: String,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeView {
    /// 0 first, 1 second, `None` a draw.
    pub winner: Option<u8>,
    /// The rules' reason ("four in a row c1-f4", "no legal moves"...).
    pub reason: String,
    /// The winning line's squares, when a line won.
    pub line: Vec<u16>,
}

/// A game whose position the page can draw.
pub trait ViewOf: EngineGame {
    /// The view of this position; `last` is the move that led to it.
    fn view(&self, last: Option<(Self, Self::Move)>) -> BoardView;

    /// Whether the page gets the full list of legal moves. `false` for placement games,
    /// where every empty square is a target (Connect6 pairs would be far too many: the
    /// server validates the pair).
    fn lists_moves() -> bool;
}

fn player_index(p: Player) -> u8 {
    p.index() as u8
}

fn sq(s: Square) -> u16 {
    s.0
}

/// The squares from `start` to `end` along a straight line (row, column or diagonal).
fn line_squares(g: &Geometry, start: Square, end: Square) -> Vec<u16> {
    let (c0, r0) = (g.col(start) as i64, g.row(start) as i64);
    let (c1, r1) = (g.col(end) as i64, g.row(end) as i64);
    let (dc, dr) = ((c1 - c0).signum(), (r1 - r0).signum());
    let n = (c1 - c0).abs().max((r1 - r0).abs());
    (0..=n)
        .filter_map(|i| {
            g.square_at((c0 + i * dc) as u32, (r0 + i * dr) as u32)
                .map(sq)
        })
        .collect()
}

/// The base of every view: the grid with `cell` on each square, whose move it is, and the
/// rules' outcome (the winning line is filled in by the game).
fn base<P: Position>(
    pos: &P,
    g: &Geometry,
    cell: impl Fn(Square) -> Option<Cell>,
    line: Vec<u16>,
) -> BoardView {
    BoardView {
        width: g.width(),
        height: g.height(),
        cells: g.squares().map(cell).collect(),
        regions: Vec::new(),
        last: Vec::new(),
        captured: Vec::new(),
        to_move: player_index(pos.side_to_move()),
        stones_per_turn: 1,
        status: Vec::new(),
        outcome: pos.outcome().map(|o| OutcomeView {
            winner: o.winner().map(player_index),
            reason: pos.outcome_reason().unwrap_or_else(|| o.to_string()),
            line,
        }),
    }
}

fn piece(owner: Player, kind: PieceKind) -> Cell {
    Cell::Piece {
        owner: player_index(owner),
        kind,
    }
}

impl ViewOf for rules_fourshift::Fourshift {
    fn view(&self, last: Option<(Self, Self::Move)>) -> BoardView {
        let g = self.geometry();
        let line = self
            .winning_line()
            .map(|l| line_squares(g, l.start, l.end))
            .unwrap_or_default();
        let mut v = base(
            self,
            g,
            |s| self.piece_at(s).map(|p| piece(p, PieceKind::Piece)),
            line,
        );
        if let Some((_, mv)) = last {
            v.last = mv.from().into_iter().chain([mv.to()]).map(sq).collect();
        }
        let config = self.config();
        v.status = vec![
            StatusItem {
                label: "phase",
                value: match self.phase() {
                    rules_fourshift::Phase::Placing => "placing".into(),
                    rules_fourshift::Phase::Moving => "moving".into(),
                },
            },
            StatusItem {
                label: "in hand",
                value: format!(
                    "{} {}, {} {}",
                    self.player_name(Player::First),
                    self.in_hand(Player::First),
                    self.player_name(Player::Second),
                    self.in_hand(Player::Second)
                ),
            },
            StatusItem {
                label: "to win",
                value: format!("{} in a row", config.k()),
            },
            StatusItem {
                label: "plies",
                value: format!("{} of {}", self.ply(), config.max_plies()),
            },
        ];
        v
    }
    fn lists_moves() -> bool {
        true
    }
}

impl ViewOf for rules_clamp::ClampPosition {
    fn view(&self, last: Option<(Self, Self::Move)>) -> BoardView {
        let g = self.geometry();
        let mut v = base(
            self,
            g,
            |s| self.piece_at(s).map(|p| piece(p, PieceKind::Piece)),
            Vec::new(),
        );
        for p in Player::BOTH {
            v.regions.push(Region {
                kind: "drop-zone",
                owner: player_index(p),
                squares: g
                    .squares()
                    .filter(|&s| self.in_drop_zone(p, s))
                    .map(sq)
                    .collect(),
                label: format!("{}'s drop zone", self.player_name(p)),
            });
        }
        if let Some((before, mv)) = last {
            v.last = mv.from().into_iter().chain([mv.to()]).map(sq).collect();
            // Captured: the mover's opponent's pieces that were there before and are gone.
            let victim = before.side_to_move().other();
            v.captured = g
                .squares()
                .filter(|&s| before.piece_at(s) == Some(victim) && self.piece_at(s).is_none())
                .map(sq)
                .collect();
        }
        let config = self.config();
        v.status = vec![
            StatusItem {
                label: "on board",
                value: format!(
                    "{} {}, {} {} (at most {} each)",
                    self.player_name(Player::First),
                    self.piece_count(Player::First),
                    self.player_name(Player::Second),
                    self.piece_count(Player::Second),
                    config.max_on_board()
                ),
            },
            StatusItem {
                label: "supply",
                value: "unlimited".into(),
            },
            StatusItem {
                label: "quiet moves",
                value: format!("{} of {}", self.quiet(), config.quiet_limit()),
            },
        ];
        v
    }
    fn lists_moves() -> bool {
        true
    }
}

impl ViewOf for rules_amazons::AmazonsPosition {
    fn view(&self, last: Option<(Self, Self::Move)>) -> BoardView {
        use rules_amazons::Piece;
        let g = self.geometry();
        let mut v = base(
            self,
            g,
            |s| {
                self.piece_at(s).map(|p| match p {
                    Piece::Queen(owner) => piece(owner, PieceKind::Queen),
                    Piece::Arrow => Cell::Marker {
                        kind: MarkerKind::Arrow,
                    },
                })
            },
            Vec::new(),
        );
        if let Some((_, mv)) = last {
            v.last = vec![sq(mv.from), sq(mv.to), sq(mv.arrow)];
        }
        v.status = vec![StatusItem {
            label: "moves available",
            value: format!("{}", self.count_moves()),
        }];
        v
    }
    fn lists_moves() -> bool {
        true
    }
}

impl ViewOf for rules_gomoku::GomokuPosition {
    fn view(&self, last: Option<(Self, Self::Move)>) -> BoardView {
        let g = self.geometry();
        let line = self
            .winning_line()
            .map(|l| line_squares(g, l.start, l.end))
            .unwrap_or_default();
        let mut v = base(
            self,
            g,
            |s| self.stone_at(s).map(|p| piece(p, PieceKind::Stone)),
            line,
        );
        if let Some((_, mv)) = last {
            v.last = vec![sq(mv.0)];
        }
        v.status = vec![StatusItem {
            label: "rule",
            value: match self.rule() {
                rules_gomoku::Rule::Freestyle => "five or more in a row wins".into(),
                rules_gomoku::Rule::Exact5 => "exactly five in a row wins".into(),
            },
        }];
        v
    }
    fn lists_moves() -> bool {
        false
    }
}

impl ViewOf for rules_connect6::Connect6Position {
    fn view(&self, last: Option<(Self, Self::Move)>) -> BoardView {
        let g = self.geometry();
        let line = self
            .winning_line()
            .map(|l| line_squares(g, l.start, l.end))
            .unwrap_or_default();
        let mut v = base(
            self,
            g,
            |s| self.stone_at(s).map(|p| piece(p, PieceKind::Stone)),
            line,
        );
        if let Some((_, mv)) = last {
            v.last = mv.squares().map(sq).collect();
        }
        v.stones_per_turn = self.stones_to_place().max(1);
        v.status = vec![StatusItem {
            label: "this turn",
            value: match self.stones_to_place() {
                0 => "game over".into(),
                1 => "place one stone".into(),
                _ => "place two stones".into(),
            },
        }];
        v
    }
    fn lists_moves() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played<P: ViewOf>(spec: &str, moves: &[&str]) -> (P, Option<(P, P::Move)>) {
        let mut pos = P::new(spec.parse().expect("spec"));
        let mut last = None;
        for m in moves {
            let before = pos.clone();
            let mv = pos.parse_legal_move(m).expect("legal");
            pos.make_move(mv);
            last = Some((before, mv));
        }
        (pos, last)
    }

    #[test]
    fn fourshift_win_marks_the_line_and_last_move() {
        let (pos, last) = played::<rules_fourshift::Fourshift>(
            "fourshift",
            &["a1", "a6", "b1", "b6", "c1", "c6", "d1"],
        );
        let v = pos.view(last);
        assert_eq!((v.width, v.height), (6, 6));
        assert_eq!(v.last, vec![3]);
        let o = v.outcome.expect("over");
        assert_eq!(o.winner, Some(0));
        assert_eq!(o.line, vec![0, 1, 2, 3]);
        assert_eq!(
            v.cells[0],
            Some(Cell::Piece {
                owner: 0,
                kind: PieceKind::Piece
            })
        );
        assert_eq!(v.cells[4], None);
        assert!(
            v.status
                .iter()
                .any(|s| s.label == "in hand" && s.value.contains('4'))
        );
    }

    #[test]
    fn clamp_shades_both_drop_zones_and_shows_a_capture() {
        let (pos, last) = played::<rules_clamp::ClampPosition>("clamp", &["c6-c4"]);
        let v = pos.view(last);
        assert_eq!(v.regions.len(), 2);
        // Black's zone is the top three rows: 24 squares, a8 = 56 among them.
        assert_eq!(v.regions[0].squares.len(), 24);
        assert!(v.regions[0].squares.contains(&56));
        assert!(v.regions[1].squares.contains(&0));
        assert_eq!(v.last, vec![42, 26]);
        assert!(
            v.status
                .iter()
                .any(|s| s.label == "quiet moves" && s.value == "1 of 80")
        );
    }

    #[test]
    fn clamp_marks_the_captured_square() {
        // c4-d4 lands below White d5 with Black d6 beyond: d5 is captured.
        let (pos, last) = played::<rules_clamp::ClampPosition>(
            "clamp",
            &["c6-c4", "d3-d5", "a8", "a1", "f6-f4", "h1", "c4-d4"],
        );
        let v = pos.view(last);
        assert_eq!(v.captured, vec![4 * 8 + 3]);
        assert_eq!(v.cells[4 * 8 + 3], None);
    }

    #[test]
    fn amazons_shows_queens_arrow_and_three_last_squares() {
        let (pos, last) = played::<rules_amazons::AmazonsPosition>("amazons", &["d1-d7/g7"]);
        let v = pos.view(last);
        let d7 = 6 * 10 + 3;
        let g7 = 6 * 10 + 6;
        assert_eq!(v.last, vec![3, d7, g7]);
        assert_eq!(
            v.cells[g7 as usize],
            Some(Cell::Marker {
                kind: MarkerKind::Arrow
            })
        );
        assert!(matches!(
            v.cells[d7 as usize],
            Some(Cell::Piece {
                kind: PieceKind::Queen,
                ..
            })
        ));
    }

    #[test]
    fn connect6_says_how_many_stones_to_place() {
        let (pos, last) = played::<rules_connect6::Connect6Position>("connect6", &[]);
        assert_eq!(pos.view(last).stones_per_turn, 1);
        let (pos, last) = played::<rules_connect6::Connect6Position>("connect6", &["j10"]);
        let v = pos.view(last);
        assert_eq!(v.stones_per_turn, 2);
        assert_eq!(v.status[0].value, "place two stones");
        assert_eq!(v.last, vec![9 * 19 + 9]);
    }

    #[test]
    fn gomoku_vertical_win_line_runs_bottom_to_top() {
        let (pos, last) = played::<rules_gomoku::GomokuPosition>(
            "gomoku:size=9",
            &["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5"],
        );
        let v = pos.view(last);
        assert_eq!(v.outcome.expect("over").line, vec![0, 9, 18, 27, 36]);
    }
}
