//! Gravity Connect Four on 7 columns × 6 rows, written against boardlab's public API only:
//! the tutorial game of `docs/adding-a-game.md`. A move is the square a stone lands on.
//!
//! The board is two bitboards, one per player, seven bits per column: six rows and an
//! always-empty sentinel row above them, so that shifting stones one step along a line
//! never wraps onto another line. Bit `col * 7 + row`, row 0 at the bottom.

use board_core::{
    BoardGame, BoardSetup, Geometry, InvalidKind, InvalidKind::PieceCount, Outcome, Player,
    PositionStringError, Refused, Square, view::Cell,
};

// The rules' one parameter: how many stones in a row win (`connect4:k=5`).
board_core::int_config!(pub struct Config = "connect4" { k: 4 in 3..=6 });

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConnectFour {
    /// Each player's stones.
    stones: [u64; 2],
    config: Config,
}

/// The bottom square of every column, and all 42 squares (the sentinels left out).
const BOTTOM: u64 = 0x408_1020_4081;
const BOARD: u64 = BOTTOM * 0x3f;

/// The bit of a square (square index `row * 7 + col`); none for a square off the board.
fn bit(sq: Square) -> u64 {
    let (col, row) = (sq.index() % 7, sq.index() / 7);
    if row < 6 { 1 << (col * 7 + row) } else { 0 }
}

/// Whether stones `s` hold k in a row: some stone has k - 1 more a step apart along a
/// line. A step is a shift by 1 (up a column), 7 (along a row), 6 or 8 (diagonals).
fn has_row(s: u64, k: u32) -> bool {
    let run = |d: u32| (1..k).fold(s, |acc, i| acc & (s >> (i * d))) != 0;
    [1, 6, 7, 8].into_iter().any(run)
}

impl BoardGame for ConnectFour {
    type Config = Config;
    type Move = Square;
    type MoveError = Refused;

    fn new(config: Config) -> Self {
        ConnectFour {
            stones: [0; 2],
            config,
        }
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn geometry(&self) -> &'static Geometry {
        Geometry::new(7, 6).expect("7x6 is a valid board")
    }

    fn cell(&self, sq: Square) -> Cell {
        let on = |p: &Player| self.stones[p.index()] & bit(sq) != 0;
        Cell::from_owner(Player::BOTH.into_iter().find(on))
    }

    fn ply(&self) -> u32 {
        (self.stones[0] | self.stones[1]).count_ones()
    }

    fn outcome(&self) -> Option<Outcome> {
        let last = self.side_to_move().other();
        match self.stones[0] | self.stones[1] {
            _ if has_row(self.stones[last.index()], self.config.k) => Some(Outcome::Win(last)),
            BOARD => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// A stone lands where adding the bottom row to all stones carries to: up through its
    /// column's stones to the first empty square (a full column's sentinel, off the board).
    fn validate(&self, &sq: &Square) -> Result<(), Refused> {
        let lands = ((self.stones[0] | self.stones[1]) + BOTTOM) & BOARD;
        let falls = "a stone falls to the lowest empty square of its column";
        match lands & bit(sq) {
            _ if self.outcome().is_some() => Err(Refused::GameOver),
            0 => Err(Refused::rule(self.geometry(), sq, falls)),
            _ => Ok(()),
        }
    }

    fn apply(&mut self, sq: Square) {
        self.stones[self.side_to_move().index()] |= bit(sq);
    }

    /// The side to move and the ply follow from the stones (and the caller checks them
    /// against the string's), so only floating stones, the wrong number of stones or a game
    /// that ended earlier are refused here.
    fn from_cells(setup: BoardSetup<Config>) -> Result<Self, PositionStringError> {
        let mut pos = Self::new(setup.config);
        pos.stones = Player::BOTH.map(|p| setup.squares_of(p).map(bit).sum());
        let [x, o] = pos.stones.map(u64::count_ones);
        let all = pos.stones[0] | pos.stones[1];
        let over = has_row(pos.stones[pos.side_to_move().index()], pos.config.k);
        match () {
            _ if (all + BOTTOM) & all != 0 => setup.invalid(PieceCount, "a stone floats"),
            _ if x != o && x != o + 1 => setup.invalid(PieceCount, "X has O's count or one more"),
            _ if over => setup.invalid(InvalidKind::Outcome, "the game ended a move earlier"),
            _ => Ok(pos),
        }
    }
}
