//! The gomoku position: board, side to move, outcome, hash; the [`Position`] implementation.

use std::fmt;

use board_core::{
    BoardSet, Direction, Geometry, NotationError, Outcome, Player, Position, PositionStringError,
    Square, SquareSet, Zobrist, diagram, zobrist,
};

use crate::{
    config::{GomokuConfig, Rule},
    moves::{Move, MoveError},
    position_string,
};

/// Cell codes of the padded board.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
/// The sentinel around the board: never equal to a stone, so runs stop at the edge.
const WALL: u8 = 3;

/// Row stride of the padded board for the widest board (26 columns + 1 sentinel column).
const MAX_STRIDE: usize = 27;
/// Padded board length for the largest board: a sentinel row below and above, one
/// sentinel column per row, and one cell for the north-east step off the last corner.
const PADDED_LEN: usize = (26 + 2) * MAX_STRIDE + 1;

/// The cell code of a player's stone.
#[inline]
pub(crate) const fn stone_code(player: Player) -> u8 {
    match player {
        Player::First => BLACK,
        Player::Second => WHITE,
    }
}

/// What [`Position::make_move`] returns: everything needed to restore the position exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    last: Option<Square>,
    outcome: Option<Outcome>,
    hash: u64,
}

/// A maximal run of one player's stones that wins under the position's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WinningLine {
    /// The left end of the run (the bottom end for a vertical run).
    pub start: Square,
    /// The other end.
    pub end: Square,
    /// From `start` towards `end`: `East`, `North`, `NorthEast` or `SouthEast`.
    pub direction: Direction,
    /// Number of stones (5, or more in freestyle).
    pub len: u32,
}

/// A gomoku position: stones on the board, the side to move, the ply, the outcome and the
/// Zobrist hash, plus the last move made on this object.
///
/// Internally the stones are kept twice: as one [`BoardSet`] per player (plus the set of
/// empty squares) for the evaluator and move generation, and as a byte board padded with a
/// sentinel border, so that a run along any line stops at the edge without bounds tests
/// (nothing wraps from one row to the next). Win detection after a move scans only the four
/// lines through the new stone.
///
/// Equality compares the rules, the stones, the side to move, the ply and the outcome; it
/// ignores [`last_move`](GomokuPosition::last_move), which a position string does not carry.
#[derive(Clone)]
pub struct GomokuPosition {
    config: GomokuConfig,
    geometry: &'static Geometry,
    keys: &'static Zobrist,
    /// `width + 1`: the row stride of `cells`.
    stride: usize,
    /// How many words of the square sets the board uses.
    words: usize,
    side: Player,
    ply: u32,
    outcome: Option<Outcome>,
    hash: u64,
    last: Option<Square>,
    stones: [BoardSet; 2],
    empty: BoardSet,
    /// The padded board: `(row + 1) * stride + col + 1` holds the cell at (`col`, `row`).
    cells: [u8; PADDED_LEN],
}

impl GomokuPosition {
    /// The empty board of `config` with Black to move (same as [`Position::new`]).
    pub fn start(config: GomokuConfig) -> GomokuPosition {
        let size = config.size();
        // A GomokuConfig can only hold a size of 5-26, which Geometry always accepts.
        let geometry = Geometry::square(size).expect("gomoku sizes 5-26 are valid geometries");
        let stride = size as usize + 1;
        let mut cells = [WALL; PADDED_LEN];
        for row in 0..size as usize {
            let base = (row + 1) * stride + 1;
            cells[base..base + size as usize].fill(EMPTY);
        }
        let n = geometry.cells();
        let keys = zobrist();
        GomokuPosition {
            config,
            geometry,
            keys,
            stride,
            words: n.div_ceil(64),
            side: Player::First,
            ply: 0,
            outcome: None,
            hash: keys.side(Player::First),
            last: None,
            stones: [BoardSet::EMPTY; 2],
            empty: BoardSet::first_n(n),
            cells,
        }
    }

    /// The board geometry (`size × size`, with step and ray tables).
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// Board side.
    #[inline]
    pub fn size(&self) -> u32 {
        self.config.size()
    }

    /// Which lines win.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.config.rule()
    }

    /// The stone on `sq`: `None` for an empty square or one off the board.
    #[inline]
    pub fn stone_at(&self, sq: Square) -> Option<Player> {
        if !self.geometry.contains(sq) {
            return None;
        }
        match self.cells[self.pad(sq)] {
            BLACK => Some(Player::First),
            WHITE => Some(Player::Second),
            _ => None,
        }
    }

    /// Whether `sq` is on the board and empty.
    #[inline]
    pub fn is_empty_square(&self, sq: Square) -> bool {
        self.empty.contains(sq)
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

    /// The squares holding a stone of either colour.
    #[inline]
    pub fn occupied(&self) -> BoardSet {
        self.stones[0] | self.stones[1]
    }

    /// How many stones `player` has on the board.
    #[inline]
    pub fn stone_count(&self, player: Player) -> u32 {
        self.stones[player.index()].count()
    }

    /// The square of the last move made on this object (restored by `unmake_move`);
    /// `None` at the start and after [`Position::from_position_string`], which does not
    /// record it.
    #[inline]
    pub fn last_move(&self) -> Option<Square> {
        self.last
    }

    /// How many of `player`'s stones follow `sq` in direction `dir`, without a gap (`sq`
    /// itself not counted). 0 if `sq` is off the board.
    pub fn ray_run(&self, player: Player, sq: Square, dir: Direction) -> u32 {
        if !self.geometry.contains(sq) {
            return 0;
        }
        self.count_ray(self.pad(sq), self.offset(dir), stone_code(player))
    }

    /// The length of the line of `player`'s stones through `sq` along the line of `dir`
    /// (both ways), counting `sq` itself as one of `player`'s stones whatever it holds: for
    /// an empty `sq`, the run that placing a stone there would make. 0 if off the board.
    pub fn run_through(&self, player: Player, sq: Square, dir: Direction) -> u32 {
        if !self.geometry.contains(sq) {
            return 0;
        }
        let (p, off, code) = (self.pad(sq), self.offset(dir), stone_code(player));
        1 + self.count_ray(p, off, code) + self.count_ray(p, -off, code)
    }

    /// The length of the run of same-coloured stones through the stone on `sq` along the
    /// line of `dir` (both ways); 0 for an empty or off-board square.
    pub fn run_length(&self, sq: Square, dir: Direction) -> u32 {
        self.stone_at(sq)
            .map_or(0, |player| self.run_through(player, sq, dir))
    }

    /// Whether a stone of `player` on the empty square `sq` would win under the rule
    /// (whoever is to move). `false` for an occupied or off-board square.
    pub fn is_winning_move(&self, player: Player, sq: Square) -> bool {
        self.is_empty_square(sq) && self.wins_at(self.pad(sq), stone_code(player))
    }

    /// The winning run of a finished game (the first in square order if several), or
    /// `None` if nobody has won.
    pub fn winning_line(&self) -> Option<WinningLine> {
        let winner = self.outcome?.winner()?;
        winning_lines(self.geometry, self.rule(), &self.stones[winner.index()])
            .into_iter()
            .next()
    }

    /// The padded index of an on-board square.
    #[inline]
    fn pad(&self, sq: Square) -> usize {
        let i = sq.index();
        i + i / (self.stride - 1) + self.stride + 1
    }

    /// The padded-board offset of one step in `dir`.
    #[inline]
    fn offset(&self, dir: Direction) -> isize {
        let (dc, dr) = dir.delta();
        dr as isize * self.stride as isize + dc as isize
    }

    /// Stones of `code` in a row from `p + off` on.
    #[inline]
    fn count_ray(&self, p: usize, off: isize, code: u8) -> u32 {
        let mut n = 0;
        let mut q = p.wrapping_add_signed(off);
        // The sentinel border stops every walk before it leaves the array.
        while self.cells.get(q) == Some(&code) {
            n += 1;
            q = q.wrapping_add_signed(off);
        }
        n
    }

    /// Whether a stone of `code` at padded index `p` (present or not) completes a winning
    /// line through `p`.
    #[inline]
    fn wins_at(&self, p: usize, code: u8) -> bool {
        let s = self.stride as isize;
        let rule = self.config.rule();
        [1, s, s + 1, s - 1]
            .into_iter()
            .any(|off| rule.wins(1 + self.count_ray(p, off, code) + self.count_ray(p, -off, code)))
    }

    /// Puts a stone on an empty on-board square without any rule bookkeeping (for the
    /// position-string reader).
    pub(crate) fn put_stone(&mut self, sq: Square, player: Player) {
        if !self.empty.contains(sq) {
            return;
        }
        let p = self.pad(sq);
        self.cells[p] = stone_code(player);
        self.stones[player.index()].insert(sq);
        self.empty.remove(sq);
        self.hash ^= self.keys.piece(player.index(), sq);
    }

    /// Sets the side to move, ply and outcome of a position being read.
    pub(crate) fn set_state(&mut self, side: Player, ply: u32, outcome: Option<Outcome>) {
        self.side = side;
        self.ply = ply;
        self.outcome = outcome;
        self.last = None;
        self.hash = self.compute_hash();
    }
}

/// Every maximal run of `set`'s squares that wins under `rule`, in order of its start
/// square then direction (East, North, NorthEast, SouthEast).
pub(crate) fn winning_lines(geometry: &Geometry, rule: Rule, set: &BoardSet) -> Vec<WinningLine> {
    let mut lines = Vec::new();
    for start in set.squares() {
        for direction in Direction::AXES {
            let before = geometry.step(start, direction.opposite());
            if before.is_some_and(|b| set.contains(b)) {
                continue; // not the start of its run
            }
            let (mut end, mut len) = (start, 1);
            while let Some(next) = geometry.step(end, direction).filter(|n| set.contains(*n)) {
                end = next;
                len += 1;
            }
            if rule.wins(len) {
                lines.push(WinningLine {
                    start,
                    end,
                    direction,
                    len,
                });
            }
        }
    }
    lines
}

impl PartialEq for GomokuPosition {
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
            && self.side == other.side
            && self.ply == other.ply
            && self.outcome == other.outcome
            && self.stones == other.stones
    }
}

impl Eq for GomokuPosition {}

impl fmt::Debug for GomokuPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GomokuPosition")
            .field("config", &self.config.to_string())
            .field("position", &self.to_position_string())
            .field("outcome", &self.outcome)
            .field("last", &self.last.map(|sq| self.geometry.format_square(sq)))
            .field("hash", &format_args!("{:#018x}", self.hash))
            .finish()
    }
}

impl Default for GomokuPosition {
    fn default() -> Self {
        GomokuPosition::start(GomokuConfig::default())
    }
}

/// "five", "six", … for the outcome reason.
fn count_word(n: u32) -> String {
    const WORDS: [&str; 6] = ["five", "six", "seven", "eight", "nine", "ten"];
    n.checked_sub(5)
        .and_then(|i| WORDS.get(i as usize))
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

impl Position for GomokuPosition {
    type Move = Move;
    type Undo = Undo;
    type Config = GomokuConfig;
    type MoveError = MoveError;

    fn new(config: GomokuConfig) -> Self {
        GomokuPosition::start(config)
    }

    #[inline]
    fn config(&self) -> &GomokuConfig {
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
        for player in Player::BOTH {
            for sq in self.stones[player.index()].squares() {
                h ^= self.keys.piece(player.index(), sq);
            }
        }
        h
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn outcome_reason(&self) -> Option<String> {
        Some(match self.outcome? {
            Outcome::Win(player) => {
                let name = self.player_name(player);
                match self.winning_line() {
                    Some(line) => format!(
                        "{name} wins: {} in a row {}-{}",
                        count_word(line.len),
                        self.geometry.format_square(line.start),
                        self.geometry.format_square(line.end)
                    ),
                    None => format!("{name} wins"),
                }
            }
            Outcome::Draw => "draw: the board is full and nobody has five in a row".to_string(),
        })
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        moves.reserve(self.geometry.cells().saturating_sub(self.ply as usize));
        for (i, &word) in self.empty.0[..self.words].iter().enumerate() {
            let mut w = word;
            while w != 0 {
                moves.push(Move(Square((i * 64) as u16 + w.trailing_zeros() as u16)));
                w &= w - 1;
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        self.empty.0[..self.words]
            .iter()
            .map(|w| w.count_ones() as u64)
            .sum()
    }

    fn validate(&self, mv: &Move) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        let sq = mv.0;
        if !self.geometry.contains(sq) {
            return Err(MoveError::OffBoard {
                index: sq.0,
                size: self.config.size() as u8,
            });
        }
        if !self.empty.contains(sq) {
            return Err(MoveError::Occupied(self.geometry.coord(sq)));
        }
        Ok(())
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            last: self.last,
            outcome: self.outcome,
            hash: self.hash,
        };
        let me = self.side;
        let sq = mv.0;
        self.ply = self.ply.wrapping_add(1);
        if self.geometry.contains(sq) {
            let p = self.pad(sq);
            let code = stone_code(me);
            self.cells[p] = code;
            self.stones[me.index()].insert(sq);
            self.empty.remove(sq);
            self.hash ^= self.keys.piece(me.index(), sq);
            self.last = Some(sq);
            // Black's fifth stone is the earliest that can make a five (ply 9).
            if self.ply >= 9 && self.wins_at(p, code) {
                self.outcome = Some(Outcome::Win(me));
            } else if self.ply as usize >= self.geometry.cells() {
                self.outcome = Some(Outcome::Draw);
            }
        }
        self.hash ^= self.keys.side(me) ^ self.keys.side(me.other());
        self.side = me.other();
        undo
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let me = self.side.other();
        let sq = mv.0;
        if self.geometry.contains(sq) {
            let p = self.pad(sq);
            self.cells[p] = EMPTY;
            self.stones[me.index()].remove(sq);
            self.empty.insert(sq);
        }
        self.side = me;
        self.ply = self.ply.wrapping_sub(1);
        self.last = undo.last;
        self.outcome = undo.outcome;
        self.hash = undo.hash;
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        let t = text.trim();
        if t.contains(|c: char| c.is_whitespace() || c == ',' || c == '-' || c == '/') {
            return Err(NotationError::syntax(t, "one square, like h8"));
        }
        Ok(Move(self.geometry.parse_square(t)?))
    }

    fn format_move(&self, mv: Move) -> String {
        self.geometry.format_square(mv.0)
    }

    fn to_position_string(&self) -> String {
        position_string::format(self)
    }

    fn from_position_string(
        config: GomokuConfig,
        s: &str,
    ) -> Result<GomokuPosition, PositionStringError> {
        position_string::parse(config, s)
    }

    fn diagram(&self) -> String {
        diagram::render(self.geometry, |sq| match self.stone_at(sq) {
            Some(Player::First) => 'x',
            Some(Player::Second) => 'o',
            None => '.',
        })
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "Black",
            Player::Second => "White",
        }
    }
}
