//! The connect6 position: board, side to move, make/unmake, move generation, validation,
//! outcome detection and Zobrist hashing.

use std::fmt;

use board_core::{
    BoardSet, Coord, Direction, Geometry, MAX_CELLS, Notation, NotationError, Outcome, Player,
    Position, PositionStringError, Rules, Square, SquareSet, Zobrist,
    lines::{self, LINE_SLOTS, LineView, Slot, axis_of, run_through},
    zobrist,
};

use crate::{bulk, config::Connect6Config, error::MoveError, moves::Move, position_string};

/// How many stones in a row win.
pub const WIN_LENGTH: u32 = 6;

pub use board_core::lines::WinningLine;

/// What [`make_move`](board_core::Rules::make_move) returns: the history fields the
/// move overwrote (stones, side, ply and hash are restored from the move itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    last_move: Option<Move>,
    outcome: Option<Outcome>,
    win_line: Option<WinningLine>,
}

/// A connect6 position. See the crate docs for the rules and every choice made.
///
/// State: one [`BoardSet`] per player and one of the empty squares, the same stones as
/// per-line bit masks (every row, column and diagonal a `u32`, so a run through a stone
/// is found with a few shifts), the side to move, the ply, the incremental Zobrist hash,
/// the outcome (with the line that won) and the last move.
///
/// Equality compares the rules, the stones, the side to move, the ply, the hash and the
/// outcome: everything that affects legality. The last move and the reported winning line
/// are history, not compared (a position read from a string has no last move).
#[derive(Clone)]
pub struct Connect6Position {
    config: Connect6Config,
    geometry: &'static Geometry,
    keys: &'static Zobrist,
    /// `cells[sq]`: the square's Zobrist keys and its line and bit on each axis.
    cells: &'static [[Slot; 4]],
    stones: [BoardSet; 2],
    /// Every square of the board.
    on_board: BoardSet,
    /// `lines[player][line]`: the player's stones on that line (see [`board_core::lines`]).
    lines: [[u32; LINE_SLOTS]; 2],
    empty_count: u16,
    side: Player,
    ply: u32,
    hash: u64,
    outcome: Option<Outcome>,
    win_line: Option<WinningLine>,
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
            && self.lines == other.lines
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
        let mut pos = Connect6Position {
            config,
            geometry,
            keys: zobrist(),
            cells: lines::slots(config.size()),
            stones: [BoardSet::EMPTY; 2],
            on_board: BoardSet::first_n(config.cells()),
            lines: [[0; LINE_SLOTS]; 2],
            empty_count: config.cells() as u16,
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

    /// Builds a position from a board (`board[sq]` is the stone on square `sq`), side to
    /// move and ply, deriving the outcome: a six of the player not to move is their win,
    /// else a full board is a draw. The position-string reader has checked the counts.
    pub(crate) fn from_parts(
        config: Connect6Config,
        board: &[Option<Player>],
        side: Player,
        ply: u32,
    ) -> Connect6Position {
        let mut pos = Connect6Position::start(config);
        for (i, stone) in board.iter().enumerate().take(config.cells()) {
            if let Some(p) = *stone {
                pos.put(Square(i as u16), p);
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
        if self.stones[0].contains(sq) {
            Some(Player::First)
        } else if self.stones[1].contains(sq) {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The squares holding `player`'s stones.
    #[inline]
    pub fn stones(&self, player: Player) -> &BoardSet {
        &self.stones[player.index()]
    }

    /// The empty squares of the board.
    #[inline]
    pub fn empty_squares(&self) -> BoardSet {
        self.on_board.without_all(self.stones[0] | self.stones[1])
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

    /// The run of six or more that ended the game, if it was won: through the stones of
    /// the winning move (the lower one first, axes in the order East, North, NorthEast,
    /// SouthEast); for a position read from a string, the first such run through the
    /// lowest square.
    #[inline]
    pub fn winning_line(&self) -> Option<WinningLine> {
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
    pub(crate) fn is_single_turn(&self) -> bool {
        self.ply == 0 || self.empty_count == 1
    }

    /// `player`'s stones as per-line bit masks (see [`board_core::lines`]).
    #[inline]
    pub(crate) fn line_masks(&self, player: Player) -> &[u32; LINE_SLOTS] {
        &self.lines[player.index()]
    }

    /// Whether `sq` is an empty square of the board.
    #[inline]
    pub fn is_empty_square(&self, sq: Square) -> bool {
        self.geometry.contains(sq) && !self.occupied().contains(sq)
    }

    /// The squares holding a stone of either player.
    #[inline]
    pub fn occupied(&self) -> BoardSet {
        self.stones[0] | self.stones[1]
    }

    /// The line through `sq` along the axis of `dir` (`dir` and its opposite give the same
    /// line), with both players' stones as bits; `None` if `sq` is off the board.
    ///
    /// ```
    /// use board_core::{Direction, Player, prelude::*};
    /// use rules_connect6::Connect6Position;
    /// let mut pos = Connect6Position::new(Default::default());
    /// for m in ["c1", "a1,d1"] {
    ///     let mv = pos.parse_legal_move(m).unwrap();
    ///     pos.make_move(mv);
    /// }
    /// let b1 = pos.geometry().parse_square("b1").unwrap();
    /// let rank = pos.line_through(b1, Direction::West).unwrap();
    /// assert_eq!((rank.axis, rank.pos, rank.len), (Direction::East, 1, 19));
    /// assert_eq!((rank.black, rank.white), (0b0100, 0b1001));
    /// assert_eq!(rank.stones(Player::Second), 0b1001);
    /// assert_eq!(rank.empty().count_ones(), 16);
    /// ```
    #[inline]
    pub fn line_through(&self, sq: Square, dir: Direction) -> Option<LineView> {
        let (axis, _) = axis_of(dir);
        let slot = self.cells.get(sq.index())?[axis];
        Some(LineView::new(
            axis,
            slot,
            self.lines[0][slot.line as usize],
            self.lines[1][slot.line as usize],
        ))
    }

    /// How many of `player`'s stones follow `sq` in direction `dir` without a gap (`sq`
    /// itself not counted). 0 if `sq` is off the board.
    pub fn ray_run(&self, player: Player, sq: Square, dir: Direction) -> u32 {
        let (axis, up) = axis_of(dir);
        let Some(cell) = self.cells.get(sq.index()) else {
            return 0;
        };
        let slot = cell[axis];
        let (ups, downs) = run_through(self.lines[player.index()][slot.line as usize], slot.pos);
        if up { ups - 1 } else { downs - 1 }
    }

    /// The length of the line of `player`'s stones through `sq` along the line of `dir`
    /// (both ways), counting `sq` itself as one of `player`'s stones whatever it holds: for
    /// an empty `sq`, the run a stone there would make. 0 if off the board.
    #[inline]
    pub fn run_through(&self, player: Player, sq: Square, dir: Direction) -> u32 {
        let Some(cell) = self.cells.get(sq.index()) else {
            return 0;
        };
        let slot = cell[axis_of(dir).0];
        let (up, down) = run_through(self.lines[player.index()][slot.line as usize], slot.pos);
        up + down - 1
    }

    /// The length of the run of same-coloured stones through the stone on `sq` along the
    /// line of `dir` (both ways); 0 for an empty or off-board square.
    pub fn run_length(&self, sq: Square, dir: Direction) -> u32 {
        self.stone_at(sq)
            .map_or(0, |player| self.run_through(player, sq, dir))
    }

    /// Whether `player` putting the stones of `mv` on the board would make six or more in
    /// a row (whoever is to move, and whether or not it is a single-stone turn). `false`
    /// if a square is occupied or off the board, or a pair repeats a square.
    pub fn is_winning_move(&self, player: Player, mv: Move) -> bool {
        let (a, b) = mv.stones();
        if !self.is_empty_square(a) || b.is_some_and(|b| b == a || !self.is_empty_square(b)) {
            return false;
        }
        let lines = &self.lines[player.index()];
        let other = b.map(|b| &self.cells[b.index()]);
        let wins_through = |sq: Square| {
            self.cells[sq.index()].iter().any(|slot| {
                let mut m = lines[slot.line as usize] | slot.mask;
                if let Some(cell) = other {
                    m |= cell
                        .iter()
                        .filter(|s| s.line == slot.line)
                        .fold(0, |acc, s| acc | s.mask);
                }
                let (up, down) = run_through(m, slot.pos);
                up + down > WIN_LENGTH
            })
        };
        wins_through(a) || b.is_some_and(wins_through)
    }

    /// The flat-index offset of one step in `dir`.
    #[inline]
    fn delta(&self, dir: Direction) -> isize {
        let (dc, dr) = dir.delta();
        dr as isize * self.geometry.width() as isize + dc as isize
    }

    /// A line of six or more of `player`'s stones through `sq` (which holds one of them).
    #[inline]
    fn six_through(&self, sq: Square, player: Player) -> Option<WinningLine> {
        let cell = self.cells.get(sq.index())?;
        let lines = &self.lines[player.index()];
        let mask = |i: usize| lines[cell[i].line as usize] as u64;
        // Is there a six anywhere on the four lines? Two lines per u64: a line uses at
        // most 26 bits, so the 6 zero bits above each keep runs from joining across.
        let six = |m: u64| {
            let m2 = m & (m >> 1);
            (m2 & (m2 >> 2)) & (m2 >> 4)
        };
        if six(mask(0) | (mask(1) << 32)) | six(mask(2) | (mask(3) << 32)) == 0 {
            return None;
        }
        self.run_of_six(sq, cell, player)
    }

    /// The slow part of [`six_through`](Self::six_through), once some line through `sq`
    /// holds a six: the axis whose run through `sq` itself is long enough, and its ends.
    #[cold]
    #[inline(never)]
    fn run_of_six(&self, sq: Square, cell: &[Slot; 4], player: Player) -> Option<WinningLine> {
        let lines = &self.lines[player.index()];
        let (axis, up, down) = cell.iter().enumerate().find_map(|(i, slot)| {
            let (up, down) = run_through(lines[slot.line as usize], slot.pos);
            (up + down > WIN_LENGTH).then_some((Direction::AXES[i], up, down))
        })?;
        let d = self.delta(axis);
        let end = Square((sq.index() as isize + d * (up as isize - 1)) as u16);
        let start = Square((sq.index() as isize - d * (down as isize - 1)) as u16);
        Some(WinningLine {
            start,
            end,
            direction: axis,
            len: up + down - 1,
        })
    }

    /// The first line of six or more of `player`'s stones anywhere (through the lowest
    /// square, axis order East, North, NorthEast, SouthEast).
    pub(crate) fn line_of(&self, player: Player) -> Option<WinningLine> {
        self.stones[player.index()]
            .squares()
            .find_map(|sq| self.six_through(sq, player))
    }

    /// Puts a stone of `player` on `sq` (ignored if off the board).
    #[inline]
    fn put(&mut self, sq: Square, player: Player) {
        if let Some(cell) = self.cells.get(sq.index()) {
            let p = player.index();
            let lines = &mut self.lines[p];
            for slot in cell {
                lines[slot.line as usize] |= slot.mask;
            }
            self.stones[p].insert(sq);
            self.empty_count = self.empty_count.wrapping_sub(1);
            self.hash ^= self.keys.piece(p, sq);
        }
    }

    /// Takes the stone of `player` off `sq` (ignored if off the board).
    #[inline]
    fn take(&mut self, sq: Square, player: Player) {
        if let Some(cell) = self.cells.get(sq.index()) {
            let p = player.index();
            let lines = &mut self.lines[p];
            for slot in cell {
                lines[slot.line as usize] &= !slot.mask;
            }
            self.stones[p].remove(sq);
            self.empty_count = self.empty_count.wrapping_add(1);
            self.hash ^= self.keys.piece(p, sq);
        }
    }

    #[inline]
    fn side_flip(&self) -> u64 {
        self.keys.side_toggle()
    }

    /// The coordinate of an on-board square.
    #[inline]
    fn coord(&self, sq: Square) -> Coord {
        self.geometry
            .coord(sq)
            .expect("a square checked to be on the board")
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

impl Rules for Connect6Position {
    type Move = Move;

    type Undo = Undo;

    type MoveError = MoveError;

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

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        let empty = self.empty_squares();
        if self.is_single_turn() {
            moves.extend(empty.squares().map(Move::single));
            return;
        }
        let mut empties = [Square(0); MAX_CELLS];
        let mut n = 0;
        for (slot, sq) in empties.iter_mut().zip(empty.squares()) {
            *slot = sq;
            n += 1;
        }
        let empties = &empties[..n];
        moves.reserve(n * n.saturating_sub(1) / 2);
        for (i, &a) in empties.iter().enumerate() {
            moves.extend(empties[i + 1..].iter().map(|&b| Move::ordered_pair(a, b)));
        }
    }

    /// Closed form: `E` singles on a single-stone turn, `C(E, 2)` pairs otherwise, 0 once
    /// the game is over (no pair of empty squares is ever illegal).
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

    /// In bulk: `(moves − W) · next`, where `W` is the number of moves that make six and
    /// `next` the move count one ply on (see the crate's `bulk` module).
    #[inline]
    fn count_two_ply_sequences(&self) -> Option<u64> {
        Some(bulk::two_ply_sequences(self))
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
                let last = self.empty_squares().first().unwrap_or_default();
                return Err(MoveError::LastSquareIsSingle(self.coord(last)));
            }
            (Some(b), false) if a == b => return Err(MoveError::SameSquare(self.coord(a))),
            _ => {}
        }
        for sq in mv.squares() {
            if self.stone_at(sq).is_some() {
                return Err(MoveError::Occupied(self.coord(sq)));
            }
        }
        Ok(())
    }

    #[inline]
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
        // Six or more, checked once both stones are down, through either stone. The mover
        // has at most `ply` stones (exactly that many unless the last move was a single
        // stone on the last square), so there is nothing to look for before ply 6.
        let win = if self.ply < WIN_LENGTH {
            None
        } else {
            match self.six_through(a, mover) {
                None => second.and_then(|b| self.six_through(b, mover)),
                found => found,
            }
        };
        if let Some(line) = win {
            self.outcome = Some(Outcome::Win(mover));
            self.win_line = Some(line);
        } else if self.empty_count == 0 {
            self.outcome = Some(Outcome::Draw);
        }
        undo
    }

    #[inline]
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
}

impl Notation for Connect6Position {
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
}

impl Position for Connect6Position {
    type Config = Connect6Config;

    fn new(config: Connect6Config) -> Self {
        Connect6Position::start(config)
    }

    fn config(&self) -> &Connect6Config {
        &self.config
    }

    fn outcome_reason(&self) -> Option<String> {
        match self.outcome? {
            Outcome::Win(_) => Some(match self.win_line {
                Some(line) => format!(
                    "{} in a row {}-{}",
                    Self::length_word(line.len),
                    self.format_square(line.start),
                    self.format_square(line.end)
                ),
                None => "six in a row".to_string(),
            }),
            Outcome::Draw => Some("the board is full with no six in a row".to_string()),
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

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "Black",
            Player::Second => "White",
        }
    }
}
