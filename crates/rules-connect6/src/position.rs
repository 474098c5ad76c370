//! The connect6 position: board, side to move, make/unmake, move generation, validation,
//! outcome detection and Zobrist hashing.

use std::fmt;

use board_core::{
    BoardSet, Coord, Direction, Geometry, MAX_CELLS, NotationError, Outcome, Player, Position,
    PositionStringError, Square, SquareSet, Zobrist, diagram, zobrist,
};

use crate::{config::Connect6Config, error::MoveError, moves::Move, position_string};

/// How many stones in a row win.
pub const WIN_LENGTH: u32 = 6;

/// Cell contents in [`Connect6Position`]'s flat array.
const EMPTY: u8 = 0;

#[inline]
const fn color_of(player: Player) -> u8 {
    player.index() as u8 + 1
}

/// The line that won the game: from its lower-index end to its higher-index end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WinLine {
    /// The end with the lower flat index.
    pub from: Square,
    /// The end with the higher flat index.
    pub to: Square,
    /// Number of stones in the line (6 or more).
    pub len: u32,
}

/// What [`Connect6Position::make_move`](board_core::Position::make_move) returns: the
/// history fields that the move overwrote (the stones, side, ply and hash are recomputed
/// from the move itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    last_move: Option<Move>,
    outcome: Option<Outcome>,
    win_line: Option<WinLine>,
}

/// A connect6 position. See the crate docs for the rules and every choice made.
///
/// State: a flat cell array plus one [`BoardSet`] per player and one of the empty squares
/// (all kept in step), the side to move, the ply, the incremental Zobrist hash, the
/// outcome (with the line that won) and the last move.
///
/// Equality compares the rules, the stones, the side to move, the ply, the hash and the
/// outcome: everything that affects legality. The last move and the reported winning line
/// are history, not compared (a position read from a string has no last move).
#[derive(Clone)]
pub struct Connect6Position {
    config: Connect6Config,
    geometry: &'static Geometry,
    keys: &'static Zobrist,
    /// `cells[sq]`: 0 empty, 1 Black (`First`), 2 White (`Second`); past the board: 0.
    cells: [u8; MAX_CELLS],
    stones: [BoardSet; 2],
    empty: BoardSet,
    empty_count: u16,
    side: Player,
    ply: u32,
    hash: u64,
    outcome: Option<Outcome>,
    win_line: Option<WinLine>,
    last_move: Option<Move>,
}

impl PartialEq for Connect6Position {
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
            && self.side == other.side
            && self.ply == other.ply
            && self.hash == other.hash
            && self.outcome == other.outcome
            && self.empty_count == other.empty_count
            && self.stones == other.stones
            && self.empty == other.empty
            && self.cells == other.cells
    }
}

impl fmt::Debug for Connect6Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connect6Position")
            .field("config", &self.config.to_string())
            .field("position", &self.to_position_string())
            .field("hash", &format_args!("{:#018x}", self.hash))
            .field("outcome", &self.outcome)
            .field("win_line", &self.win_line)
            .field(
                "last_move",
                &self
                    .last_move
                    .map(|m| self.format_move(m))
                    .unwrap_or_default(),
            )
            .finish()
    }
}

impl Connect6Position {
    /// An empty board (Black to move, ply 0) for `config`.
    pub fn start(config: Connect6Config) -> Connect6Position {
        let geometry = Geometry::square(config.size())
            .expect("Connect6Config only holds sizes 6-26, which Geometry accepts");
        let keys = zobrist();
        let cells = config.cells();
        let mut pos = Connect6Position {
            config,
            geometry,
            keys,
            cells: [EMPTY; MAX_CELLS],
            stones: [BoardSet::EMPTY; 2],
            empty: BoardSet::first_n(cells),
            empty_count: cells as u16,
            side: Player::First,
            ply: 0,
            hash: 0,
            outcome: None,
            win_line: None,
            last_move: None,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// Builds a position from a board (`cells[sq]` is the stone on square `sq`), side to
    /// move and ply, deriving the outcome. The caller (the position-string reader) has
    /// checked that the counts, side and ply are consistent.
    pub(crate) fn from_parts(
        config: Connect6Config,
        board: &[Option<Player>],
        side: Player,
        ply: u32,
    ) -> Connect6Position {
        let mut pos = Connect6Position::start(config);
        for (i, stone) in board.iter().enumerate().take(config.cells()) {
            if let Some(p) = *stone {
                let sq = Square(i as u16);
                pos.cells[i] = color_of(p);
                pos.stones[p.index()].insert(sq);
                pos.empty.remove(sq);
                pos.empty_count -= 1;
            }
        }
        pos.side = side;
        pos.ply = ply;
        let mover = side.other();
        if let Some(line) = pos.line_of(mover) {
            pos.outcome = Some(Outcome::Win(mover));
            pos.win_line = Some(line);
        } else if pos.empty_count == 0 {
            pos.outcome = Some(Outcome::Draw);
        }
        pos.hash = pos.compute_hash();
        pos
    }

    /// The board geometry (size, square notation, step and ray tables).
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// The board side.
    #[inline]
    pub fn size(&self) -> u32 {
        self.config.size()
    }

    /// The stone on `sq` (`None` for an empty or off-board square).
    #[inline]
    pub fn stone_at(&self, sq: Square) -> Option<Player> {
        match self.cells.get(sq.index()) {
            Some(1) => Some(Player::First),
            Some(2) => Some(Player::Second),
            _ => None,
        }
    }

    /// The squares holding `player`'s stones.
    #[inline]
    pub fn stones(&self, player: Player) -> &BoardSet {
        &self.stones[player.index()]
    }

    /// The empty squares of the board.
    #[inline]
    pub fn empty_squares(&self) -> &BoardSet {
        &self.empty
    }

    /// How many squares are empty.
    #[inline]
    pub fn empty_count(&self) -> u32 {
        self.empty_count as u32
    }

    /// How many stones `player` has on the board.
    #[inline]
    pub fn stone_count(&self, player: Player) -> u32 {
        self.stones[player.index()].count()
    }

    /// The move that led here, if this position was reached by a move (positions read
    /// from a string have none).
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// The line of six or more that ended the game, if it was won.
    #[inline]
    pub fn winning_line(&self) -> Option<WinLine> {
        self.win_line
    }

    /// How many stones the side to move places this turn: 1 on the first move of the game
    /// and on the last empty square, 2 otherwise, 0 once the game is over.
    #[inline]
    pub fn stones_to_place(&self) -> u32 {
        if self.outcome.is_some() {
            0
        } else if self.is_single_turn() {
            1
        } else {
            2
        }
    }

    #[inline]
    fn is_single_turn(&self) -> bool {
        self.ply == 0 || self.empty_count == 1
    }

    /// The length of the unbroken line of `player`'s stones through `sq` along `axis`
    /// (and its opposite), counting `sq` itself as `player`'s whatever it holds: so for an
    /// empty `sq` this is the line a stone there would make. 0 for an off-board square.
    pub fn run_length(&self, sq: Square, axis: Direction, player: Player) -> u32 {
        if sq.index() >= self.config.cells() {
            return 0;
        }
        let color = color_of(player);
        1 + self.count_dir(sq, axis, color) + self.count_dir(sq, axis.opposite(), color)
    }

    /// The flat-index offset of one step in `dir`.
    #[inline]
    fn delta(&self, dir: Direction) -> isize {
        let (dc, dr) = dir.delta();
        dr as isize * self.geometry.width() as isize + dc as isize
    }

    /// Consecutive stones of `color` beyond `sq` (exclusive) in direction `dir`.
    #[inline]
    fn count_dir(&self, sq: Square, dir: Direction, color: u8) -> u32 {
        let limit = self.geometry.ray_length(sq, dir);
        let delta = self.delta(dir);
        let mut at = sq.index() as isize;
        let mut n = 0;
        while n < limit {
            at += delta;
            if self.cells.get(at as usize) != Some(&color) {
                break;
            }
            n += 1;
        }
        n
    }

    /// A line of six or more of `color` through the on-board square `sq`.
    #[inline]
    fn line_through(&self, sq: Square, color: u8) -> Option<WinLine> {
        for axis in Direction::AXES {
            let fwd = self.count_dir(sq, axis, color);
            let back = self.count_dir(sq, axis.opposite(), color);
            let len = fwd + back + 1;
            if len >= WIN_LENGTH {
                let d = self.delta(axis);
                let a = Square((sq.index() as isize + d * fwd as isize) as u16);
                let b = Square((sq.index() as isize - d * back as isize) as u16);
                let (from, to) = if a.0 <= b.0 { (a, b) } else { (b, a) };
                return Some(WinLine { from, to, len });
            }
        }
        None
    }

    /// The first line of six or more of `player`'s stones anywhere (lowest start square,
    /// then axis order East, North, NorthEast, SouthEast).
    pub(crate) fn line_of(&self, player: Player) -> Option<WinLine> {
        let color = color_of(player);
        for sq in self.stones[player.index()].squares() {
            for axis in Direction::AXES {
                let starts_run = self
                    .geometry
                    .step(sq, axis.opposite())
                    .is_none_or(|prev| self.cells[prev.index()] != color);
                if starts_run && self.count_dir(sq, axis, color) + 1 >= WIN_LENGTH {
                    return self.line_through(sq, color);
                }
            }
        }
        None
    }

    /// Puts a stone of `player` on `sq` (ignored if off the board).
    #[inline]
    fn put(&mut self, sq: Square, player: Player) {
        if let Some(cell) = self.cells.get_mut(sq.index())
            && sq.index() < self.config.cells()
        {
            *cell = color_of(player);
            self.stones[player.index()].insert(sq);
            self.empty.remove(sq);
            self.empty_count = self.empty_count.wrapping_sub(1);
            self.hash ^= self.keys.piece(player.index(), sq);
        }
    }

    /// Takes the stone of `player` off `sq` (ignored if off the board).
    #[inline]
    fn take(&mut self, sq: Square, player: Player) {
        if let Some(cell) = self.cells.get_mut(sq.index())
            && sq.index() < self.config.cells()
        {
            *cell = EMPTY;
            self.stones[player.index()].remove(sq);
            self.empty.insert(sq);
            self.empty_count = self.empty_count.wrapping_add(1);
            self.hash ^= self.keys.piece(player.index(), sq);
        }
    }

    #[inline]
    fn side_flip(&self) -> u64 {
        self.keys.side(Player::First) ^ self.keys.side(Player::Second)
    }

    /// The coordinate of an on-board square.
    #[inline]
    fn coord(&self, sq: Square) -> Coord {
        self.geometry.coord(sq)
    }

    fn format_square(&self, sq: Square) -> String {
        if self.geometry.contains(sq) {
            self.geometry.format_square(sq)
        } else {
            format!("#{}", sq.0)
        }
    }

    /// Words for the line lengths of `outcome_reason`.
    fn length_word(len: u32) -> String {
        const WORDS: [&str; 7] = ["six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
        WORDS
            .get(len.saturating_sub(6) as usize)
            .map_or_else(|| len.to_string(), |w| (*w).to_string())
    }
}

impl Position for Connect6Position {
    type Move = Move;
    type Undo = Undo;
    type Config = Connect6Config;
    type MoveError = MoveError;

    fn new(config: Connect6Config) -> Self {
        Connect6Position::start(config)
    }

    fn config(&self) -> &Connect6Config {
        &self.config
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.ply
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = self.keys.side(self.side);
        for p in Player::BOTH {
            for sq in self.stones[p.index()].squares() {
                h ^= self.keys.piece(p.index(), sq);
            }
        }
        h
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn outcome_reason(&self) -> Option<String> {
        match self.outcome? {
            Outcome::Win(_) => Some(match self.win_line {
                Some(line) => format!(
                    "{} in a row {}-{}",
                    Self::length_word(line.len),
                    self.format_square(line.from),
                    self.format_square(line.to)
                ),
                None => "six in a row".to_string(),
            }),
            Outcome::Draw => Some("the board is full with no six in a row".to_string()),
        }
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        if self.is_single_turn() {
            moves.extend(self.empty.squares().map(Move::single));
            return;
        }
        let mut empties = [Square(0); MAX_CELLS];
        let mut n = 0;
        for sq in self.empty.squares() {
            empties[n] = sq;
            n += 1;
        }
        let empties = &empties[..n];
        moves.reserve(n * n.saturating_sub(1) / 2);
        for (i, &a) in empties.iter().enumerate() {
            moves.extend(empties[i + 1..].iter().map(|&b| Move::pair(a, b)));
        }
    }

    /// Closed form: `E` singles on a single-stone turn, `C(E, 2)` pairs otherwise, 0 once
    /// the game is over (no pair is ever illegal).
    #[inline]
    fn count_moves(&self) -> u64 {
        if self.outcome.is_some() {
            0
        } else if self.is_single_turn() {
            self.empty_count as u64
        } else {
            let e = self.empty_count as u64;
            e * e.saturating_sub(1) / 2
        }
    }

    fn validate(&self, mv: &Move) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        for sq in mv.squares() {
            if !self.geometry.contains(sq) {
                return Err(MoveError::OffBoard {
                    index: sq.0,
                    size: self.config.size() as u8,
                });
            }
        }
        let (a, second) = mv.stones();
        match (second, self.is_single_turn()) {
            (None, false) => return Err(MoveError::PairRequired),
            (Some(_), true) if self.ply == 0 => return Err(MoveError::FirstMoveIsSingle),
            (Some(_), true) => {
                let last = self.empty.first().unwrap_or_default();
                return Err(MoveError::LastSquareIsSingle(self.coord(last)));
            }
            (Some(b), false) if a == b => return Err(MoveError::SameSquare(self.coord(a))),
            _ => {}
        }
        for sq in mv.squares() {
            if self.cells[sq.index()] != EMPTY {
                return Err(MoveError::Occupied(self.coord(sq)));
            }
        }
        Ok(())
    }

    fn make_move(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            last_move: self.last_move,
            outcome: self.outcome,
            win_line: self.win_line,
        };
        let mover = self.side;
        let (a, second) = mv.stones();
        self.put(a, mover);
        if let Some(b) = second {
            self.put(b, mover);
        }
        self.side = mover.other();
        self.ply = self.ply.wrapping_add(1);
        self.hash ^= self.side_flip();
        self.last_move = Some(mv);
        // Six or more, checked once both stones are down, through either stone.
        let color = color_of(mover);
        let win = mv
            .squares()
            .filter(|sq| self.geometry.contains(*sq))
            .find_map(|sq| self.line_through(sq, color));
        if let Some(line) = win {
            self.outcome = Some(Outcome::Win(mover));
            self.win_line = Some(line);
        } else if self.empty_count == 0 {
            self.outcome = Some(Outcome::Draw);
        }
        undo
    }

    fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let mover = self.side.other();
        let (a, second) = mv.stones();
        if let Some(b) = second {
            self.take(b, mover);
        }
        self.take(a, mover);
        self.side = mover;
        self.ply = self.ply.wrapping_sub(1);
        self.hash ^= self.side_flip();
        self.last_move = undo.last_move;
        self.outcome = undo.outcome;
        self.win_line = undo.win_line;
    }

    /// Reads `j10`, `j11,k12`, `k12,j11`, `j11 k12` (any case, whitespace around the
    /// squares ignored). Checks syntax and that the squares are on the board only.
    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        const EXPECTED: &str = "a square like j10, or two squares like j11,k12 or j11 k12";
        let t = text.trim();
        let syntax = || NotationError::syntax(text, EXPECTED);
        let (a, b) = if let Some((x, y)) = t.split_once(',') {
            let (x, y) = (x.trim(), y.trim());
            if x.is_empty() || y.is_empty() || y.contains(',') {
                return Err(syntax());
            }
            (x, Some(y))
        } else {
            let mut parts = t.split_whitespace();
            let x = parts.next().ok_or_else(syntax)?;
            let y = parts.next();
            if parts.next().is_some() {
                return Err(syntax());
            }
            (x, y)
        };
        if a.contains(char::is_whitespace) || b.is_some_and(|b| b.contains(char::is_whitespace)) {
            return Err(syntax());
        }
        let a = self.geometry.parse_square(a)?;
        match b {
            None => Ok(Move::single(a)),
            Some(b) => Ok(Move::pair(a, self.geometry.parse_square(b)?)),
        }
    }

    fn format_move(&self, mv: Move) -> String {
        match mv.stones() {
            (a, None) => self.format_square(a),
            (a, Some(b)) => format!("{},{}", self.format_square(a), self.format_square(b)),
        }
    }

    fn to_position_string(&self) -> String {
        position_string::write(self)
    }

    fn from_position_string(
        config: Connect6Config,
        s: &str,
    ) -> Result<Connect6Position, PositionStringError> {
        position_string::read(config, s)
    }

    fn diagram(&self) -> String {
        diagram::render(self.geometry, |sq| match self.stone_at(sq) {
            None => '.',
            Some(Player::First) => 'X',
            Some(Player::Second) => 'O',
        })
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "Black",
            Player::Second => "White",
        }
    }
}
