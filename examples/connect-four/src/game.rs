//! Gravity Connect Four (7 columns × 6 rows), written against boardlab's public API only:
//! the tutorial game of `docs/adding-a-game.md`.
//!
//! The board is two bitboards, one per player, seven bits per column: six rows and an
//! always-empty sentinel row above them, so that shifting stones one step along a line
//! never wraps onto another line. Bit `col * 7 + row`, row 0 at the bottom.

use board_core::{
    Geometry, Notation, NotationError, Outcome, Player, Position, PositionStringError, Rules,
    Square, View, setup, view::Cell,
};

const ROWS: u32 = 6;

// The rules have no parameters: the spec string is just `connect4`.
board_core::config_without_parameters!(pub struct Config = "connect4");

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("there is no column {0}")]
    NoColumn(char),
    #[error("column {0} is full")]
    ColumnFull(char),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConnectFour {
    /// Each player's stones.
    stones: [u64; 2],
    /// The columns played (0 = `a`), oldest first: the position string.
    moves: Vec<u8>,
}

/// The bit of a square.
fn bit(col: u8, row: u32) -> u64 {
    1 << (u32::from(col) * (ROWS + 1) + row)
}

/// Whether stones `s` hold four in a row: some stone has three more a step apart along
/// a line. A step is a shift by 1 (up a column), 7 (along a row), 6 or 8 (diagonals).
fn has_four(s: u64) -> bool {
    let run = |d: u32| s & (s >> d) & (s >> (2 * d)) & (s >> (3 * d)) != 0;
    run(1) || run(6) || run(7) || run(8)
}

fn letter(col: u8) -> char {
    char::from(b'a' + col.min(25))
}

impl ConnectFour {
    pub fn stones(&self, player: Player) -> u64 {
        self.stones[player.index()]
    }

    /// Where a stone dropped into `col` lands (the sentinel if the column is full): adding
    /// the column's bottom bit carries up through its stones to the first empty square.
    fn landing(&self, col: u8) -> u64 {
        ((self.stones[0] | self.stones[1]) + bit(col, 0)) & (bit(col, 0) * 0x7f)
    }
}

impl Rules for ConnectFour {
    type Move = u8;
    /// The stones before the move (copy-make: two words).
    type Undo = [u64; 2];
    type MoveError = MoveError;

    fn side_to_move(&self) -> Player {
        Player::BOTH[self.moves.len() % 2]
    }

    fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    /// The mover's stones plus all stones is a different number for every position (an old
    /// Connect Four trick); the odd multiplier spreads it over 64 bits, still one-to-one.
    fn compute_hash(&self) -> u64 {
        let all = self.stones[0] | self.stones[1];
        (self.stones(self.side_to_move()) + all).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn outcome(&self) -> Option<Outcome> {
        let last = self.side_to_move().other();
        match self.moves.len() {
            _ if has_four(self.stones(last)) => Some(Outcome::Win(last)),
            42 => Some(Outcome::Draw),
            _ => None,
        }
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        // Centre columns first: a better order for the search.
        moves.clear();
        moves.extend_from_slice(&[3, 2, 4, 1, 5, 0, 6]);
        moves.retain(|c| self.validate(c).is_ok());
    }

    fn validate(&self, &col: &u8) -> Result<(), MoveError> {
        match col {
            _ if self.outcome().is_some() => Err(MoveError::GameOver),
            7.. => Err(MoveError::NoColumn(letter(col))),
            _ if self.landing(col) == bit(col, ROWS) => Err(MoveError::ColumnFull(letter(col))),
            _ => Ok(()),
        }
    }

    fn make_move(&mut self, col: u8) -> [u64; 2] {
        let before = self.stones;
        self.stones[self.side_to_move().index()] |= self.landing(col % 7);
        self.moves.push(col);
        before
    }

    fn unmake_move(&mut self, _: u8, before: [u64; 2]) {
        self.stones = before;
        self.moves.pop();
    }
}

impl Notation for ConnectFour {
    fn parse_move(&self, text: &str) -> Result<u8, NotationError> {
        match text.trim().to_ascii_lowercase().as_bytes() {
            &[c @ b'a'..=b'z'] => Ok(c - b'a'),
            _ => Err(NotationError::syntax(text, "a column letter, like d")),
        }
    }

    fn format_move(&self, col: u8) -> String {
        letter(col).to_string()
    }
}

impl Position for ConnectFour {
    type Config = Config;

    fn new(_: Config) -> Self {
        ConnectFour::default()
    }

    fn config(&self) -> &Config {
        &Config
    }

    /// The columns played so far (`d c d`), `-` at the start.
    fn to_position_string(&self) -> String {
        setup::write_moves(&ConnectFour::default(), &self.moves)
    }

    fn from_position_string(_: Config, s: &str) -> Result<Self, PositionStringError> {
        setup::read_moves(ConnectFour::default(), s)
    }
}

/// What the board shows, from which the defaults draw the diagram and find the square a
/// move lands on. The terminal and web boards draw from it.
impl View for ConnectFour {
    fn geometry(&self) -> &Geometry {
        Geometry::new(7, ROWS).expect("7x6 is a valid board")
    }

    fn cell(&self, sq: Square) -> Cell {
        let on = bit((sq.index() % 7) as u8, sq.index() as u32 / 7);
        let owner = Player::BOTH.into_iter().find(|&p| self.stones(p) & on != 0);
        owner.map_or(Cell::Empty, Cell::stone)
    }
}
