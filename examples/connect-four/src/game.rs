//! Gravity Connect Four (7 columns × 6 rows), written against boardlab's public API only:
//! the tutorial game of `docs/adding-a-game.md`.

use std::{fmt, str::FromStr};

use board_core::{
    GameConfig, GameSpec, Geometry, InvalidKind, Notation, NotationError, Outcome, Player,
    Position, PositionStringError, Rules, SpecError, Square, View,
    spec::expect_id,
    view::{self, Cell, PieceKind},
    zobrist,
};

pub const COLS: usize = 7;
pub const ROWS: usize = 6;

/// The rules have no parameters: the spec string is just `connect4`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config;

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::GAME_ID)
    }
}

impl FromStr for Config {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Config, SpecError> {
        let spec = GameSpec::parse(s)?;
        expect_id(&spec, Self::GAME_ID)?;
        spec.reader(&[]).finish()?;
        Ok(Config)
    }
}

impl GameConfig for Config {
    const GAME_ID: &'static str = "connect4";
}

/// A move drops a piece into a column (0 = `a`).
pub type Move = u8;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("there is no column {0}")]
    NoColumn(char),
    #[error("column {0} is full")]
    ColumnFull(char),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConnectFour {
    /// `cells[col][row]`, row 0 at the bottom.
    cells: [[Option<Player>; ROWS]; COLS],
    heights: [usize; COLS],
    side: Player,
    ply: u32,
    hash: u64,
    winner: Option<Player>,
    moves: Vec<Move>,
}

/// The shared Zobrist keys: piece kind = player, square index = row * 7 + col.
fn key(col: usize, row: usize, player: usize) -> u64 {
    zobrist().piece(player, Square::new((row * COLS + col) as u16))
}
const SECOND_TO_MOVE: u64 = 0x5851_F42D_4C95_7F2D;

impl ConnectFour {
    pub fn at(&self, col: usize, row: usize) -> Option<Player> {
        self.cells[col][row]
    }

    /// Whether the piece on (col, row) is part of four in a row.
    fn makes_four(&self, col: usize, row: usize) -> bool {
        let p = self.cells[col][row];
        let run = |dc: i32, dr: i32| {
            (1..4)
                .take_while(|i| {
                    let (c, r) = (col as i32 + dc * i, row as i32 + dr * i);
                    (0..COLS as i32).contains(&c)
                        && (0..ROWS as i32).contains(&r)
                        && self.cells[c as usize][r as usize] == p
                })
                .count()
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| run(dc, dr) + run(-dc, -dr) >= 3)
    }
}

impl Rules for ConnectFour {
    type Move = Move;

    type Undo = ();

    type MoveError = MoveError;

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Player::Second {
            SECOND_TO_MOVE
        } else {
            0
        };
        for c in 0..COLS {
            for r in 0..ROWS {
                if let Some(p) = self.cells[c][r] {
                    h ^= key(c, r, p.index());
                }
            }
        }
        h
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(p) => Some(Outcome::Win(p)),
            None if self.ply as usize == COLS * ROWS => Some(Outcome::Draw),
            None => None,
        }
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome().is_none() {
            // Centre columns first: a better order for the search.
            let order = [3, 2, 4, 1, 5, 0, 6];
            moves.extend(
                order
                    .into_iter()
                    .filter(|&c| self.heights[c as usize] < ROWS),
            );
        }
    }

    fn validate(&self, &col: &Move) -> Result<(), MoveError> {
        let name = (b'a' + col.min(25)) as char;
        if self.outcome().is_some() {
            Err(MoveError::GameOver)
        } else if col as usize >= COLS {
            Err(MoveError::NoColumn(name))
        } else if self.heights[col as usize] == ROWS {
            Err(MoveError::ColumnFull(name))
        } else {
            Ok(())
        }
    }

    fn make_move(&mut self, col: Move) {
        let (c, p) = (col as usize % COLS, self.side);
        let r = self.heights[c].min(ROWS - 1);
        self.cells[c][r] = Some(p);
        self.heights[c] = r + 1;
        self.hash ^= key(c, r, p.index()) ^ SECOND_TO_MOVE;
        self.side = p.other();
        self.ply += 1;
        self.moves.push(col);
        if self.makes_four(c, r) {
            self.winner = Some(p);
        }
    }

    fn unmake_move(&mut self, col: Move, _: ()) {
        let c = col as usize % COLS;
        let r = self.heights[c].saturating_sub(1);
        self.side = self.side.other();
        self.cells[c][r] = None;
        self.heights[c] = r;
        self.hash ^= key(c, r, self.side.index()) ^ SECOND_TO_MOVE;
        self.ply -= 1;
        self.winner = None;
        self.moves.pop();
    }
}

impl Notation for ConnectFour {
    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        match text.trim().to_ascii_lowercase().as_bytes() {
            &[c @ b'a'..=b'z'] => Ok(c - b'a'),
            _ => Err(NotationError::syntax(text, "a column letter, like d")),
        }
    }

    fn format_move(&self, col: Move) -> String {
        ((b'a' + col.min(25)) as char).to_string()
    }
}

impl Position for ConnectFour {
    type Config = Config;

    fn new(_: Config) -> Self {
        ConnectFour {
            cells: [[None; ROWS]; COLS],
            heights: [0; COLS],
            side: Player::First,
            ply: 0,
            hash: 0,
            winner: None,
            moves: Vec::new(),
        }
    }

    fn config(&self) -> &Config {
        &Config
    }

    /// The position string is simply the columns played so far (`dcd`), `-` at the start.
    fn to_position_string(&self) -> String {
        let moves: String = self.moves.iter().map(|&c| self.format_move(c)).collect();
        if moves.is_empty() { "-".into() } else { moves }
    }

    fn from_position_string(config: Config, s: &str) -> Result<Self, PositionStringError> {
        let mut pos = ConnectFour::new(config);
        for ch in s.trim().trim_start_matches('-').chars() {
            let mv = pos
                .parse_move(&ch.to_string())
                .map_err(|_| PositionStringError::field("move", &ch.to_string(), "a column a-g"))?;
            pos.play(mv).map_err(|e| {
                PositionStringError::invalid(InvalidKind::IllegalMove, format!("{ch}: {e}"))
            })?;
        }
        Ok(pos)
    }

    fn diagram(&self) -> String {
        view::diagram(self)
    }

    fn player_name(&self, player: Player) -> &'static str {
        ["Red", "Yellow"][player.index()]
    }
}

/// What the board shows: the terminal and web boards draw from this.
impl View for ConnectFour {
    fn geometry(&self) -> &Geometry {
        Geometry::new(COLS as u32, ROWS as u32).expect("7x6 is a valid board")
    }
    fn cell(&self, sq: Square) -> Cell {
        let owner = self.cells[sq.index() % COLS][sq.index() / COLS];
        owner.map_or(Cell::Empty, |owner| Cell::Piece {
            owner,
            kind: PieceKind::Stone,
        })
    }
    /// The square the piece lands on.
    fn move_squares(&self, mv: Move) -> Vec<Square> {
        let col = usize::from(mv);
        match self.heights.get(col) {
            Some(&row) if row < ROWS => vec![Square::new((row * COLS + col) as u16)],
            _ => Vec::new(), // no such column, or a full one: the move touches nothing
        }
    }
    fn glyph(&self, cell: Cell) -> char {
        symbol(cell.owner()).chars().next().unwrap_or('?')
    }
}

fn symbol(p: Option<Player>) -> &'static str {
    match p {
        Some(Player::First) => "x",
        Some(Player::Second) => "o",
        None => ".",
    }
}
