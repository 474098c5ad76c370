//! [`BoardView`]: what the page draws, as JSON: board-core's typed
//! [`board_core::view::BoardView`] of the position (never its text diagram), with the
//! last move's squares and captures, in the numbers and names the page's script reads.
//!
//! The view is game-agnostic: a grid of cells (empty, a player's piece of some kind, or a
//! neutral marker such as an Amazons arrow), shaded regions (clamp's drop zones), the
//! squares the last move touched, status items (phase, pieces in hand, quiet counter,
//! stones per turn) and the outcome with its winning line. Squares are flat indices
//! `row * width + col` with row 0 the bottom rank, as in the notation (`a1` is 0).

use board_core::{
    GameSpec, Player, Square,
    view::{self, RegionKind},
};
use boardlab_games::{PlayedMove, PlyView};
use serde::Serialize;

/// The whole board as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// Columns of the board.
    pub width: u32,
    /// Rows of the board.
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
    /// The moves (0-based indices into the move list) that were passes
    /// ([`board_core::Rules::is_pass`]), with who passed: the page shows "White passes".
    pub passes: Vec<Pass>,
}

/// A move that was a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pass {
    /// Its index in the move list (0 the first move).
    pub index: usize,
    /// Who passed (0 first, 1 second).
    pub player: u8,
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Cell {
    /// A player's piece (0 first, 1 second).
    Piece {
        /// Whose piece it is (0 first, 1 second).
        owner: u8,
        /// How it is drawn.
        kind: PieceKind,
    },
    /// A neutral marker.
    Marker {
        /// Which marker it is.
        kind: MarkerKind,
    },
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
    /// Its squares, as flat indices.
    pub squares: Vec<u16>,
    /// Shown as the region's title.
    pub label: String,
}

/// One line of the status panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusItem {
    /// What the line is about (`phase`, `in hand`, `quiet moves`...).
    pub label: &'static str,
    /// Its value for people (`Black 12, White 11`, `3 of 80`...).
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

fn player_index(p: Player) -> u8 {
    p.index() as u8
}

fn sq(s: Square) -> u16 {
    s.0
}

impl BoardView {
    /// The page's view of a game's board ([`PlyView`]: board-core's view with the last
    /// move), the players named by `name`.
    pub fn of(at: PlyView, name: &dyn Fn(Player) -> &'static str) -> BoardView {
        from_core(at, name)
    }

    /// Adds what the game's record and rules say beyond the board: the passes among the
    /// first `ply` moves of `played`, and the status items the docs promise from the
    /// spec's keys (the plies of `max_plies`, the `rule`) and the number of legal moves
    /// (`legal`, for games that list them).
    pub fn with_record(
        mut self,
        spec: &str,
        played: &[PlayedMove],
        ply: usize,
        legal: Option<usize>,
    ) -> BoardView {
        self.passes = played
            .iter()
            .take(ply)
            .enumerate()
            .filter(|(_, m)| m.pass)
            .map(|(index, m)| Pass {
                index,
                player: player_index(m.player),
            })
            .collect();
        // The spec is the game's canonical one, every key written: read, not guessed.
        if let Ok(spec) = GameSpec::parse(spec) {
            for (key, value) in &spec.params {
                match key.as_str() {
                    "max_plies" => self.status.push(StatusItem {
                        label: "plies",
                        value: format!("{ply} of {value}"),
                    }),
                    "rule" => self.status.push(StatusItem {
                        label: "rule",
                        value: value.clone(),
                    }),
                    _ => {}
                }
            }
        }
        if let (Some(n), None) = (legal, &self.outcome) {
            self.status.push(StatusItem {
                label: "legal moves",
                value: n.to_string(),
            });
        }
        self
    }
}

fn from_core(at: PlyView, name: &dyn Fn(Player) -> &'static str) -> BoardView {
    let core = at.board;
    let cells = core
        .cells
        .iter()
        .map(|c| match *c {
            view::Cell::Empty => None,
            view::Cell::Piece { owner, kind } => Some(Cell::Piece {
                owner: player_index(owner),
                kind: match kind {
                    view::PieceKind::Stone => PieceKind::Stone,
                    view::PieceKind::Man => PieceKind::Piece,
                    view::PieceKind::Queen => PieceKind::Queen,
                },
            }),
            view::Cell::Marker => Some(Cell::Marker {
                kind: MarkerKind::Arrow,
            }),
        })
        .collect();
    let regions = core
        .regions
        .iter()
        .filter_map(|r| {
            let owner = r.owner?;
            let (kind, label) = match r.kind {
                RegionKind::DropZone => ("drop-zone", format!("{}'s drop zone", name(owner))),
                RegionKind::Centre => ("centre", "the centre".to_string()),
            };
            Some(Region {
                kind,
                owner: player_index(owner),
                squares: r.squares.iter().copied().map(sq).collect(),
                label,
            })
        })
        .collect();
    let mut stones_per_turn = 1;
    let mut status = Vec::new();
    let pairs = |items: &[(Player, u32)]| {
        items
            .iter()
            .map(|&(p, n)| format!("{} {n}", name(p)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (mut hands, mut on_board) = (Vec::new(), Vec::new());
    for item in &core.status {
        match *item {
            view::StatusItem::Phase(phase) => status.push(StatusItem {
                label: "phase",
                value: phase.to_string(),
            }),
            view::StatusItem::InHand { player, count } => hands.push((player, count)),
            view::StatusItem::OnBoard { player, count } => on_board.push((player, count)),
            view::StatusItem::Quiet { count, limit } => status.push(StatusItem {
                label: "quiet moves",
                value: format!("{count} of {limit}"),
            }),
            view::StatusItem::StonesToPlace(n) => {
                stones_per_turn = n;
                status.push(StatusItem {
                    label: "this turn",
                    value: match n {
                        0 => "game over".into(),
                        1 => "place one stone".into(),
                        _ => "place two stones".into(),
                    },
                });
            }
        }
    }
    if !hands.is_empty() {
        status.push(StatusItem {
            label: "in hand",
            value: pairs(&hands),
        });
    }
    if !on_board.is_empty() {
        status.push(StatusItem {
            label: "on board",
            value: pairs(&on_board),
        });
    }
    BoardView {
        width: core.width,
        height: core.height,
        cells,
        regions,
        last: at.last,
        captured: at.captured,
        to_move: player_index(at.side_to_move),
        stones_per_turn,
        status,
        outcome: core.outcome.map(|o| OutcomeView {
            winner: o.outcome.winner().map(player_index),
            reason: o.reason,
            line: o.line.into_iter().map(sq).collect(),
        }),
        passes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use boardlab_games::Registry;

    /// The page's view after `moves` from the start of `spec`.
    fn played(spec: &str, moves: &[&str]) -> BoardView {
        let mut game = Registry::bundled().start(spec).expect("spec");
        for m in moves {
            game.play(m).expect("legal");
        }
        BoardView::of(game.ply_view(), &|p| game.player_name(p))
    }

    #[test]
    fn fourshift_win_marks_the_line_and_last_move() {
        let v = played("fourshift", &["a1", "a6", "b1", "b6", "c1", "c6", "d1"]);
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
        let v = played("fourshift", &["a1", "a6", "b1"]);
        assert!(
            v.status
                .iter()
                .any(|s| s.label == "in hand" && s.value == "Black 6, White 7"),
            "{:?}",
            v.status
        );
    }

    #[test]
    fn clamp_shades_both_drop_zones_and_shows_a_capture() {
        let v = played("clamp", &["c6-c4"]);
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
        let v = played(
            "clamp",
            &["c6-c4", "d3-d5", "a8", "a1", "f6-f4", "h1", "c4-d4"],
        );
        assert_eq!(v.captured, vec![4 * 8 + 3]);
        assert_eq!(v.cells[4 * 8 + 3], None);
    }

    #[test]
    fn amazons_shows_queens_arrow_and_three_last_squares() {
        let v = played("amazons", &["d1-d7/g7"]);
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
        let v = played("connect6", &[]);
        assert_eq!(v.stones_per_turn, 1);
        let v = played("connect6", &["j10"]);
        assert_eq!(v.stones_per_turn, 2);
        assert_eq!(v.status[0].value, "place two stones");
        assert_eq!(v.last, vec![9 * 19 + 9]);
    }

    /// The view with its record: as [`played`], then [`BoardView::with_record`].
    fn recorded(spec: &str, moves: &[&str]) -> BoardView {
        let mut game = Registry::bundled().start(spec).expect("spec");
        for m in moves {
            game.play(m).expect("legal");
        }
        let legal = game.lists_moves().then(|| game.legal_moves().len());
        BoardView::of(game.ply_view(), &|p| game.player_name(p)).with_record(
            &game.spec(),
            &game.played(),
            game.ply_count(),
            legal,
        )
    }

    fn status(v: &BoardView, label: &str) -> Option<String> {
        v.status
            .iter()
            .find(|s| s.label == label)
            .map(|s| s.value.clone())
    }

    #[test]
    fn the_status_items_the_docs_promise() {
        let v = recorded("fourshift:max_plies=50", &["a1", "a6", "b1"]);
        assert_eq!(status(&v, "plies").as_deref(), Some("3 of 50"));
        assert_eq!(status(&v, "legal moves").as_deref(), Some("33"));
        let v = recorded("gomoku:rule=exact5", &["h8"]);
        assert_eq!(status(&v, "rule").as_deref(), Some("exact5"));
        assert_eq!(
            status(&v, "legal moves"),
            None,
            "gomoku does not list its moves"
        );
        let v = recorded("amazons", &[]);
        assert_eq!(status(&v, "legal moves").as_deref(), Some("2176"));
        assert!(v.passes.is_empty());
    }

    #[test]
    fn passes_are_marked_with_who_passed() {
        let game = Registry::bundled().start("gomoku:size=9").expect("spec");
        let played = [
            PlayedMove {
                player: Player::First,
                text: "e5".into(),
                pass: false,
            },
            PlayedMove {
                player: Player::Second,
                text: "pass".into(),
                pass: true,
            },
        ];
        let v = BoardView::of(game.ply_view(), &|p| game.player_name(p)).with_record(
            &game.spec(),
            &played,
            2,
            None,
        );
        assert_eq!(
            v.passes,
            vec![Pass {
                index: 1,
                player: 1
            }]
        );
        // At an earlier ply the later pass is not there yet.
        let v = BoardView::of(game.ply_view(), &|p| game.player_name(p)).with_record(
            &game.spec(),
            &played,
            1,
            None,
        );
        assert!(v.passes.is_empty());
    }

    #[test]
    fn gomoku_vertical_win_line_runs_bottom_to_top() {
        let v = played(
            "gomoku:size=9",
            &["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5"],
        );
        assert_eq!(v.outcome.expect("over").line, vec![0, 9, 18, 27, 36]);
    }
}
