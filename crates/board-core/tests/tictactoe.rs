//! A user's own game (tic-tac-toe) implemented on the public API only: checks perft against
//! the well-known figures, the save format, and that the conformance harness accepts a
//! correct game and catches broken ones.

use board_core::{
    Geometry, Notation, NotationError, Outcome, Player, Position, PositionStringError, Rules,
    Square, View, perft,
    savefile::{self, LoadErrorKind},
    testing,
    view::{Cell, PieceKind},
    zobrist,
};

board_core::config_without_parameters!(struct Config = "tictactoe");

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum MoveError {
    #[error("{0} is occupied")]
    Occupied(String),
    #[error("the game is over")]
    GameOver,
}

/// `break_hash` makes the incremental hash wrong after a centre move: a bug the
/// conformance harness must catch.
#[derive(Clone, Debug, PartialEq)]
struct TicTacToe {
    cells: [Option<Player>; 9],
    to_move: Player,
    ply: u32,
    hash: u64,
    bugs: Bugs,
}

/// Deliberate bugs; not part of the position, so equal whatever their setting.
#[derive(Clone, Copy, Debug, Default)]
struct Bugs {
    break_hash: bool,
    generate_duplicate: bool,
}

impl PartialEq for Bugs {
    fn eq(&self, _: &Bugs) -> bool {
        true
    }
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    fn geometry() -> &'static Geometry {
        Geometry::new(3, 3).expect("3x3 is a valid board")
    }
    fn key(p: Player, sq: usize) -> u64 {
        zobrist().piece(p.index(), Square(sq as u16))
    }
    fn winner(&self) -> Option<Player> {
        LINES.iter().find_map(|l| {
            let a = self.cells[l[0]]?;
            (self.cells[l[1]] == Some(a) && self.cells[l[2]] == Some(a)).then_some(a)
        })
    }
}

impl Rules for TicTacToe {
    type Move = Square;

    type Undo = ();

    type MoveError = MoveError;

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = zobrist().side(self.to_move);
        for (i, c) in self.cells.iter().enumerate() {
            if let Some(p) = c {
                h ^= Self::key(*p, i);
            }
        }
        h
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(p) => Some(Outcome::Win(p)),
            None if self.cells.iter().all(Option::is_some) => Some(Outcome::Draw),
            None => None,
        }
    }

    fn generate_moves(&self, moves: &mut Vec<Square>) {
        moves.clear();
        if self.outcome().is_none() {
            moves.extend(
                (0..9)
                    .filter(|&i| self.cells[i].is_none())
                    .map(|i| Square(i as u16)),
            );
            if self.bugs.generate_duplicate && !moves.is_empty() {
                moves.push(moves[0]);
            }
        }
    }

    fn validate(&self, mv: &Square) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        match self.cells.get(mv.index()) {
            Some(None) => Ok(()),
            _ => Err(MoveError::Occupied(Self::geometry().format_square(*mv))),
        }
    }

    fn make_move(&mut self, mv: Square) {
        self.cells[mv.index()] = Some(self.to_move);
        self.hash ^= Self::key(self.to_move, mv.index());
        self.hash ^= zobrist().side(self.to_move) ^ zobrist().side(self.to_move.other());
        if self.bugs.break_hash && mv.index() == 4 {
            self.hash ^= 1;
        }
        self.to_move = self.to_move.other();
        self.ply += 1;
    }

    fn unmake_move(&mut self, mv: Square, _: ()) {
        self.to_move = self.to_move.other();
        self.ply -= 1;
        self.cells[mv.index()] = None;
        self.hash ^= Self::key(self.to_move, mv.index());
        self.hash ^= zobrist().side(self.to_move) ^ zobrist().side(self.to_move.other());
        if self.bugs.break_hash && mv.index() == 4 {
            self.hash ^= 1;
        }
    }
}

impl Notation for TicTacToe {
    fn parse_move(&self, text: &str) -> Result<Square, NotationError> {
        Ok(Self::geometry().parse_square(text)?)
    }

    fn format_move(&self, mv: Square) -> String {
        Self::geometry().format_square(mv)
    }
}

impl Position for TicTacToe {
    type Config = Config;

    fn new(_: Config) -> Self {
        TicTacToe {
            cells: [None; 9],
            to_move: Player::First,
            ply: 0,
            hash: zobrist().side(Player::First),
            bugs: Bugs::default(),
        }
    }

    fn config(&self) -> &Config {
        &Config
    }

    fn to_position_string(&self) -> String {
        let cells: String = self
            .cells
            .iter()
            .map(|c| match c {
                Some(Player::First) => 'x',
                Some(Player::Second) => 'o',
                None => '.',
            })
            .collect();
        format!("{cells} {}", self.ply)
    }

    fn from_position_string(config: Config, s: &str) -> Result<Self, PositionStringError> {
        let bad = |m: &'static str| PositionStringError::field("position", s, m);
        let (cells, ply) = s.split_once(' ').ok_or_else(|| bad("'<cells> <ply>'"))?;
        let mut pos = TicTacToe::new(config);
        if cells.len() != 9 {
            return Err(bad("9 cells"));
        }
        for (i, c) in cells.chars().enumerate() {
            pos.cells[i] = match c {
                'x' => Some(Player::First),
                'o' => Some(Player::Second),
                '.' => None,
                _ => return Err(bad("cells of x, o or .")),
            };
        }
        let xs = pos
            .cells
            .iter()
            .filter(|c| **c == Some(Player::First))
            .count();
        let os = pos
            .cells
            .iter()
            .filter(|c| **c == Some(Player::Second))
            .count();
        pos.to_move = if xs == os {
            Player::First
        } else {
            Player::Second
        };
        pos.ply = ply.parse().map_err(|_| bad("a ply number"))?;
        pos.hash = pos.compute_hash();
        Ok(pos)
    }
}

/// Only the two methods no default can answer: the defaults draw the diagram and find
/// the square a move touches.
impl View for TicTacToe {
    fn geometry(&self) -> &Geometry {
        TicTacToe::geometry()
    }

    fn cell(&self, sq: Square) -> Cell {
        self.cells[sq.index()].map_or(Cell::Empty, |owner| Cell::Piece {
            owner,
            kind: PieceKind::Stone,
        })
    }
}

fn start() -> TicTacToe {
    TicTacToe::new(Config)
}

#[test]
fn perft_matches_the_known_figures() {
    // Move sequences of each length, games that ended earlier excluded.
    let expected = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0];
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut start(), depth as u32), n, "depth {depth}");
    }
    let divide = board_core::divide(&mut start(), 2);
    assert_eq!(divide.len(), 9);
    assert!(divide.iter().all(|(_, n)| *n == 8));
}

/// Regression (found by the no-panic review): perft used to allocate one move buffer per
/// ply of `depth` up front, so `perft(u32::MAX)` tried to allocate ~100 GB and aborted.
/// Tic-tac-toe ends within 9 plies, so no sequence is that long: the count is 0, reached
/// by walking the whole game tree once.
#[test]
fn perft_of_a_huge_depth_ends_with_the_game() {
    assert_eq!(perft(&mut start(), u32::MAX), 0);
    let divide = board_core::divide(&mut start(), u32::MAX);
    assert_eq!(divide.len(), 9);
    assert!(divide.iter().all(|(_, n)| *n == 0));
}

#[test]
fn conformance_accepts_a_correct_game() {
    let stats = testing::check_random_playouts(&start(), 7, 200, 9).unwrap();
    assert_eq!(stats.finished, 200);
    assert!(stats.illegal_probes > 0);
}

#[test]
fn conformance_catches_a_stale_hash() {
    let mut broken = start();
    broken.bugs.break_hash = true;
    let err = testing::check_playout(&broken, &[4, 0, 0, 0]).unwrap_err();
    assert!(err.what.contains("hash"), "{err}");
}

#[test]
fn conformance_reports_games_longer_than_the_limit() {
    let err = testing::check_random_playouts(&start(), 7, 5, 4).unwrap_err();
    assert!(err.what.contains("not over after 4 plies"), "{err}");
}

#[test]
fn conformance_catches_duplicate_moves() {
    let mut broken = start();
    broken.bugs.generate_duplicate = true;
    let err = testing::check_playout(&broken, &[0]).unwrap_err();
    assert!(err.what.contains("generated twice"), "{err}");
}

#[test]
fn save_and_load_round_trip() {
    let moves: Vec<Square> = [4, 0, 8].map(Square).to_vec();
    let text = savefile::save::<TicTacToe>(&Config, &moves);
    assert_eq!(
        text,
        "boardlab-save 1\ngame tictactoe\ne2\na1\nc3\n".replace("e2", "b2")
    );
    let loaded = savefile::load::<TicTacToe>(&text).unwrap();
    assert_eq!(loaded.moves, moves);
    assert_eq!(loaded.position.ply(), 3);
}

#[test]
fn a_spec_error_names_the_game_line_past_leading_comments() {
    let text = "# my game\n# (by hand)\nboardlab-save 1\ngame tictactoe:size=4\nb2\n";
    let err = savefile::load::<TicTacToe>(text).unwrap_err();
    assert_eq!(err.line, 4);
    assert!(matches!(err.kind, LoadErrorKind::Spec(_)), "{err}");
    let err = savefile::load::<TicTacToe>("\n# other\nboardlab-save 1\ngame gomoku\n").unwrap_err();
    assert_eq!(err.line, 4);
    assert!(matches!(err.kind, LoadErrorKind::WrongGame { .. }), "{err}");
}

#[test]
fn load_reports_the_first_bad_line() {
    let text = "# my game\nboardlab-save 1\n\ngame tictactoe\nb2\nA1  # corner\nb2\nc3\n";
    let err = savefile::load::<TicTacToe>(text).unwrap_err();
    assert_eq!(err.line, 7);
    assert_eq!(err.to_string(), "line 7: move 3 'b2': b2 is occupied");

    let err = savefile::load::<TicTacToe>("boardlab-save 2\ngame tictactoe\n").unwrap_err();
    assert!(matches!(err.kind, LoadErrorKind::UnsupportedVersion(_)));
    let err = savefile::load::<TicTacToe>("hello\n").unwrap_err();
    assert_eq!(err.line, 1);
    let err = savefile::load::<TicTacToe>("boardlab-save 1\ngame chess\n").unwrap_err();
    assert!(matches!(err.kind, LoadErrorKind::WrongGame { .. }), "{err}");
    let err = savefile::load::<TicTacToe>("boardlab-save 1\ngame tictactoe:size=4\n").unwrap_err();
    assert!(matches!(err.kind, LoadErrorKind::Spec(_)), "{err}");
    let err = savefile::load::<TicTacToe>("boardlab-save 1\nb2\n").unwrap_err();
    assert!(matches!(err.kind, LoadErrorKind::MissingGame(_)), "{err}");
    let err = savefile::load::<TicTacToe>("boardlab-save 1\ngame tictactoe\nz9\n").unwrap_err();
    assert_eq!(err.line, 3);
    assert!(err.to_string().contains("z9"), "{err}");
    let err = savefile::load::<TicTacToe>("").unwrap_err();
    assert!(matches!(err.kind, LoadErrorKind::BadHeader(_)));
}

#[test]
fn play_refuses_without_changing_anything() {
    let mut pos = start();
    pos.play(Square(4)).unwrap();
    let before = pos.clone();
    assert_eq!(pos.play(Square(4)), Err(MoveError::Occupied("b2".into())));
    assert_eq!(pos, before);
    assert!(pos.parse_legal_move("b2").is_err());
    assert!(pos.parse_legal_move("q2").is_err());
    assert!(pos.parse_legal_move("a1").is_ok());
}

#[test]
fn the_view_defaults_draw_the_board_and_find_the_square_a_move_touches() {
    let mut pos = start();
    pos.play(Square(4)).unwrap();
    pos.play(Square(0)).unwrap();
    assert_eq!(
        pos.diagram(),
        "  a b c\n3 . . .  3\n2 . X .  2\n1 O . .  1\n  a b c\n"
    );
    assert_eq!(pos.move_squares(Square(8)), [Square(8)]);
    // An occupied square is no move: it touches nothing.
    assert_eq!(pos.move_squares(Square(4)), []);
}
