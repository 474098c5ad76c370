//! The gomoku position: board, side to move, outcome, hash; the [`Position`] implementation.

use std::fmt;

use board_core::{
    BoardSet, Direction, Geometry, Notation, NotationError, Outcome, Player, Position,
    PositionStringError, Rules, Square, SquareSet, Zobrist,
    lines::{self, LINE_SLOTS, LineView, Slot, axis_of, run_at, run_down, run_up},
    zobrist,
};

use crate::{
    config::{GomokuConfig, Rule},
    fives::{exactly_five, five_or_more},
    moves::{Move, MoveError},
    position_string,
};

/// What [`Rules::make_move`](board_core::Rules::make_move) returns: everything needed to restore the position exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    last: Option<Square>,
    outcome: Option<Outcome>,
    hash: u64,
    /// Whether a stone went down (not for an off-board or occupied square).
    placed: bool,
}

pub use board_core::lines::WinningLine;

/// A gomoku position: stones on the board, the side to move, the ply, the outcome and the
/// Zobrist hash, plus the last move made on this object.
///
/// Internally the stones are kept twice: as one [`BoardSet`] per player (plus the set of
/// empty squares) for the evaluator and move generation, and as line bitboards: every rank,
/// file and diagonal of the board as a `u32` per player ([`board_core::lines`], see
/// [`LineView`]). A run along a
/// line is a run of one bits, found with a shift and a count of trailing/leading ones, and
/// a line ends where its bits end, so nothing wraps from one row to the next. Win detection
/// after a move looks only at the four lines through the new stone.
///
/// Equality compares the rules, the stones, the side to move, the ply and the outcome; it
/// ignores [`last_move`](GomokuPosition::last_move), which a position string does not carry.
#[derive(Clone)]
pub struct GomokuPosition {
    config: GomokuConfig,
    geometry: &'static Geometry,
    keys: &'static Zobrist,
    /// Where each square sits on its four lines ([`lines::slots`]).
    table: &'static [[Slot; 4]],
    /// Number of squares on the board.
    area: usize,
    /// Number of empty squares (the size of `empty`).
    free: usize,
    /// How many words of the square sets the board uses.
    words: usize,
    side: Player,
    ply: u32,
    outcome: Option<Outcome>,
    hash: u64,
    last: Option<Square>,
    stones: [BoardSet; 2],
    empty: BoardSet,
    /// Per player, the stones on each line as bits (see [`board_core::lines`]); indexed by
    /// a `u8` line number, so 256 entries (only `6 * size - 2` used) need no bounds checks.
    lines: [[u32; LINE_SLOTS]; 2],
}

impl GomokuPosition {
    /// The empty board of `config` with Black to move (same as [`Position::new`]).
    pub fn start(config: GomokuConfig) -> GomokuPosition {
        let size = config.size();
        // A GomokuConfig can only hold a size of 5-26, which Geometry always accepts.
        let geometry = Geometry::square(size).expect("gomoku sizes 5-26 are valid geometries");
        let n = geometry.cells();
        let keys = zobrist();
        GomokuPosition {
            config,
            geometry,
            keys,
            table: lines::slots(size),
            area: n,
            free: n,
            words: n.div_ceil(64),
            side: Player::First,
            ply: 0,
            outcome: None,
            hash: keys.side(Player::First),
            last: None,
            stones: [BoardSet::EMPTY; 2],
            empty: BoardSet::first_n(n),
            lines: [[0; LINE_SLOTS]; 2],
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
        if self.stones[0].contains(sq) {
            Some(Player::First)
        } else if self.stones[1].contains(sq) {
            Some(Player::Second)
        } else {
            None
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

    /// The line through `sq` along the axis of `dir` (`dir` and its opposite give the same
    /// line), with both players' stones as bits; `None` if `sq` is off the board.
    ///
    /// ```
    /// use board_core::{Direction, Player, prelude::*};
    /// use rules_gomoku::GomokuPosition;
    ///
    /// let mut pos = GomokuPosition::default();
    /// for m in ["c3", "h8", "d3", "h9"] {
    ///     let mv = pos.parse_legal_move(m).unwrap();
    ///     pos.make_move(mv);
    /// }
    /// let e3 = pos.geometry().parse_square("e3").unwrap();
    /// let rank = pos.line_through(e3, Direction::West).unwrap();
    /// assert_eq!(rank.axis, Direction::East);
    /// assert_eq!((rank.pos, rank.len), (4, 15));
    /// assert_eq!(rank.stones(Player::First), 0b1100);
    /// assert_eq!(rank.empty().count_ones(), 13);
    /// ```
    #[inline]
    pub fn line_through(&self, sq: Square, dir: Direction) -> Option<LineView> {
        let (axis, _) = axis_of(dir);
        let slot = self.table.get(sq.index())?[axis];
        let line = slot.line as usize;
        Some(LineView::new(
            axis,
            slot,
            self.lines[0][line],
            self.lines[1][line],
        ))
    }

    /// How many of `player`'s stones follow `sq` in direction `dir`, without a gap (`sq`
    /// itself not counted). 0 if `sq` is off the board.
    pub fn ray_run(&self, player: Player, sq: Square, dir: Direction) -> u32 {
        let (axis, up) = axis_of(dir);
        let Some(slots) = self.table.get(sq.index()) else {
            return 0;
        };
        let slot = slots[axis];
        let bits = self.lines[player.index()][slot.line as usize];
        if up {
            run_up(bits, slot.pos)
        } else {
            run_down(bits, slot.pos)
        }
    }

    /// The length of the line of `player`'s stones through `sq` along the line of `dir`
    /// (both ways), counting `sq` itself as one of `player`'s stones whatever it holds: for
    /// an empty `sq`, the run that placing a stone there would make. 0 if off the board.
    pub fn run_through(&self, player: Player, sq: Square, dir: Direction) -> u32 {
        let (axis, _) = axis_of(dir);
        let Some(slots) = self.table.get(sq.index()) else {
            return 0;
        };
        let slot = slots[axis];
        let bits = self.lines[player.index()][slot.line as usize];
        run_at(bits | 1 << slot.pos, slot.pos)
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
        self.is_empty_square(sq) && self.wins_with(player, sq)
    }

    /// The winning run of a finished game (the first in square order if several), or
    /// `None` if nobody has won.
    pub fn winning_line(&self) -> Option<WinningLine> {
        let winner = self.outcome?.winner()?;
        winning_lines(self.geometry, self.rule(), &self.stones[winner.index()])
            .into_iter()
            .next()
    }

    /// Whether the square `sq` is on the board.
    #[inline]
    fn on_board(&self, sq: Square) -> bool {
        sq.index() < self.area
    }

    /// Whether `player`, with a stone on the on-board square `sq` (present or not), has a
    /// winning line through it.
    #[inline]
    fn wins_with(&self, player: Player, sq: Square) -> bool {
        let lines = &self.lines[player.index()];
        let runs = self.table[sq.index()]
            .map(|slot| run_at(lines[slot.line as usize] | slot.mask, slot.pos));
        match self.config.rule() {
            Rule::Freestyle => runs.into_iter().any(|n| n >= 5),
            Rule::Exact5 => runs.into_iter().any(|n| n == 5),
        }
    }

    /// Whether the stone just placed on `sq` by `player` won. Before the move nobody had a
    /// winning line (the game would be over), and lines not through `sq` did not change,
    /// so any winning run on the four lines through `sq` goes through it: a branch-free
    /// test of whole lines is enough.
    #[inline]
    fn just_won(&self, player: Player, sq: Square) -> bool {
        let lines = &self.lines[player.index()];
        let [a, b, c, d] = &self.table[sq.index()];
        let [a, b, c, d] = [a, b, c, d].map(|slot| lines[slot.line as usize]);
        match self.config.rule() {
            Rule::Freestyle => {
                five_or_more(a) | five_or_more(b) | five_or_more(c) | five_or_more(d) != 0
            }
            Rule::Exact5 => {
                exactly_five(a) | exactly_five(b) | exactly_five(c) | exactly_five(d) != 0
            }
        }
    }

    /// Adds or removes `player`'s stone on the on-board square `sq` in the line bitboards.
    #[inline]
    fn toggle_lines(&mut self, player: Player, sq: Square) {
        let lines = &mut self.lines[player.index()];
        for slot in &self.table[sq.index()] {
            lines[slot.line as usize] ^= slot.mask;
        }
    }

    /// Puts a stone on an empty on-board square without any rule bookkeeping (for the
    /// position-string reader).
    pub(crate) fn put_stone(&mut self, sq: Square, player: Player) {
        if !self.empty.contains(sq) {
            return;
        }
        self.toggle_lines(player, sq);
        self.stones[player.index()].insert(sq);
        self.empty.remove(sq);
        self.free -= 1;
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

impl Rules for GomokuPosition {
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

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        moves.reserve(self.free);
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
        self.free as u64
    }

    fn validate(&self, mv: &Move) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        let sq = mv.0;
        if !self.on_board(sq) {
            return Err(MoveError::OffBoard {
                index: sq.0,
                size: self.config.size() as u8,
            });
        }
        if !self.empty.contains(sq) {
            return Err(MoveError::Occupied(
                self.geometry
                    .coord(sq)
                    .expect("a square checked to be on the board"),
            ));
        }
        Ok(())
    }

    #[inline]
    /// Plays a legal move. Given an illegal one (which `validate` refuses), nothing breaks:
    /// an off-board or occupied square gets no stone, but the turn passes, and
    /// `unmake_move` still restores the position exactly.
    fn make_move(&mut self, mv: Move) -> Undo {
        let sq = mv.0;
        let placed = self.empty.contains(sq);
        let undo = Undo {
            last: self.last,
            outcome: self.outcome,
            hash: self.hash,
            placed,
        };
        let me = self.side;
        self.ply = self.ply.wrapping_add(1);
        if placed {
            self.toggle_lines(me, sq);
            self.stones[me.index()].insert(sq);
            self.empty.remove(sq);
            self.free = self.free.wrapping_sub(1);
            self.hash ^= self.keys.piece(me.index(), sq);
            self.last = Some(sq);
            // Black's fifth stone is the earliest that can make a five (ply 9).
            if self.ply >= 9 && self.just_won(me, sq) {
                self.outcome = Some(Outcome::Win(me));
            } else if self.free == 0 {
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
        if undo.placed && self.on_board(sq) {
            self.toggle_lines(me, sq);
            self.stones[me.index()].remove(sq);
            self.empty.insert(sq);
            self.free = self.free.wrapping_add(1);
        }
        self.side = me;
        self.ply = self.ply.wrapping_sub(1);
        self.last = undo.last;
        self.outcome = undo.outcome;
        self.hash = undo.hash;
    }
}

impl Notation for GomokuPosition {
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
}

impl Position for GomokuPosition {
    type Config = GomokuConfig;

    fn new(config: GomokuConfig) -> Self {
        GomokuPosition::start(config)
    }

    #[inline]
    fn config(&self) -> &GomokuConfig {
        &self.config
    }

    fn outcome_reason(&self) -> Option<String> {
        Some(match self.outcome? {
            // The reason says why, not who: front ends name the winner from `outcome`.
            Outcome::Win(_) => match self.winning_line() {
                Some(line) => format!(
                    "{} in a row {}-{}",
                    count_word(line.len),
                    self.geometry.format_square(line.start),
                    self.geometry.format_square(line.end)
                ),
                None => "five in a row".to_string(),
            },
            Outcome::Draw => "the board is full and nobody has five in a row".to_string(),
        })
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

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "Black",
            Player::Second => "White",
        }
    }
}
