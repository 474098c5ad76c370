//! [`Fourshift`]: a position with its rules, implementing [`board_core::Position`].

use std::{fmt, sync::OnceLock};

use board_core::{
    Bitboard64, BoardSet, Coord, Direction, Geometry, Notation, NotationError, Outcome, Player,
    Position, PositionStringError, Rules, Square, SquareSet, zobrist,
};

use crate::{
    FourshiftConfig,
    bits::StoneSet,
    board::{Board, with_stones},
    moves::{Move, MoveError},
};

/// Which kind of move the player to move makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The player to move still has pieces in hand: they place one.
    Placing,
    /// All pieces are on the board: the player to move shifts one.
    Moving,
}

/// Why a game ended (`games.md` checks these after every move, in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The player who just moved has `k` or more in a row, and wins.
    Line(Player),
    /// This player, now to move, has no legal move: a draw.
    NoLegalMove(Player),
    /// `max_plies` plies have been played: a draw.
    MaxPlies,
}

impl EndReason {
    /// The result this reason gives.
    pub const fn outcome(self) -> Outcome {
        match self {
            EndReason::Line(p) => Outcome::Win(p),
            EndReason::NoLegalMove(_) | EndReason::MaxPlies => Outcome::Draw,
        }
    }
}

/// An unbroken run of one player's pieces along a row, column or diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// The player whose pieces form the run.
    pub player: Player,
    /// The end with the lower square index.
    pub start: Square,
    /// The end with the higher square index (equal to `start` for a single piece).
    pub end: Square,
    /// Number of pieces.
    pub len: u32,
}

/// What [`Rules::make_move`](board_core::Rules::make_move) hands back: the hash and end state before the move (the rest
/// is recomputed from the move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    hash: u64,
    end: Option<EndReason>,
}

/// A fourshift position: the board, the side to move, pieces in hand, the ply count, the
/// incremental Zobrist hash and the outcome once the game is over.
///
/// Boards up to 8×8 are two `u64`s; larger boards two [`BoardSet`]s. Cloning is a plain copy
/// of a few dozen bytes (a couple of hundred beyond 8×8).
#[derive(Clone)]
pub struct Fourshift {
    pub(crate) config: FourshiftConfig,
    pub(crate) geometry: &'static Geometry,
    keys: &'static Keys,
    pub(crate) board: Board,
    pub(crate) side: Player,
    /// Pieces in hand, by [`Player::index`]; always `pieces` minus the pieces on the board.
    pub(crate) hand: [u32; 2],
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) end: Option<EndReason>,
}

impl PartialEq for Fourshift {
    /// Equal rules, board, side, hands, ply, hash and end state (the geometry follows from
    /// the rules).
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
            && self.board == other.board
            && self.side == other.side
            && self.hand == other.hand
            && self.ply == other.ply
            && self.hash == other.hash
            && self.end == other.end
    }
}

impl fmt::Debug for Fourshift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fourshift")
            .field("config", &self.config.to_string())
            .field("position", &self.to_position_string())
            .field("hash", &format_args!("{:#018x}", self.hash))
            .field("end", &self.end)
            .finish()
    }
}

impl fmt::Display for Fourshift {
    /// The position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_position_string())
    }
}

impl Default for Fourshift {
    /// The start position under the default rules.
    fn default() -> Self {
        Fourshift::new(FourshiftConfig::default())
    }
}

/// The Zobrist keys of one board size, copied out of [`zobrist()`] so that a move costs
/// one table read per square: `squares[sq][player]` is `zobrist().piece(player, sq)`.
#[derive(Debug)]
struct Keys {
    squares: Box<[[u64; 2]]>,
    /// `zobrist().side(First) ^ zobrist().side(Second)`: what every move flips.
    side_flip: u64,
}

impl Keys {
    fn of(size: u32) -> &'static Keys {
        const SIZES: usize = board_core::MAX_SIDE as usize + 1;
        static TABLES: [OnceLock<Keys>; SIZES] = [const { OnceLock::new() }; SIZES];
        TABLES[(size as usize).min(SIZES - 1)].get_or_init(|| {
            let z = zobrist();
            Keys {
                squares: (0..(size * size) as u16)
                    .map(|sq| [z.piece(0, Square(sq)), z.piece(1, Square(sq))])
                    .collect(),
                side_flip: z.side(Player::First) ^ z.side(Player::Second),
            }
        })
    }

    /// The key of `player`'s piece on `sq` (0 off the board).
    #[inline]
    fn piece(&self, player: Player, sq: Square) -> u64 {
        self.squares
            .get(sq.index())
            .map_or(0, |keys| keys[player.index()])
    }
}

/// Display name and diagram character of each player.
pub(crate) const NAMES: [&str; 2] = ["Black", "White"];
pub(crate) const PIECE_CHARS: [char; 2] = ['X', 'O'];

fn number_word(n: u32) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

impl Fourshift {
    /// The board's geometry (size, square notation, step tables).
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// The side of the board.
    #[inline]
    pub fn size(&self) -> u32 {
        self.config.size()
    }

    /// Whose piece is on `sq` (`None` for an empty or off-board square).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Player> {
        with_stones!(&self.board, b => b.piece_at(sq))
    }

    /// `player`'s pieces as a set of any size.
    pub fn stones(&self, player: Player) -> BoardSet {
        with_stones!(&self.board, b => b.sets[player.index()].to_board_set())
    }

    /// `player`'s pieces as one word, on boards up to 8×8 (`None` beyond).
    #[inline]
    pub fn stones64(&self, player: Player) -> Option<Bitboard64> {
        match &self.board {
            Board::Word(b) => Some(b.sets[player.index()]),
            Board::Wide(_) => None,
        }
    }

    /// Every occupied square.
    pub fn occupied(&self) -> BoardSet {
        with_stones!(&self.board, b => b.occupied().to_board_set())
    }

    /// Every empty square.
    pub fn empty_squares(&self) -> BoardSet {
        with_stones!(&self.board, b => b.empty().to_board_set())
    }

    /// How many shifts `player` has (whoever is to move, whatever the phase): their
    /// mobility once all pieces are placed.
    pub fn shift_count(&self, player: Player) -> u32 {
        with_stones!(&self.board, b => b.count_shifts(player))
    }

    /// On boards up to 8×8, the four whole lines through `sq`: its row, its column, the
    /// diagonal rising to the right and the one rising to the left (`None` off the board or
    /// on larger boards). Handy for evaluating the `k`-windows a move changes.
    pub fn lines_through64(&self, sq: Square) -> Option<[Bitboard64; 4]> {
        match &self.board {
            Board::Word(b) => b.lines_through(sq).copied(),
            Board::Wide(_) => None,
        }
    }

    /// Pieces `player` has yet to place.
    #[inline]
    pub fn in_hand(&self, player: Player) -> u32 {
        self.hand[player.index()]
    }

    /// Pieces `player` has on the board.
    pub fn on_board(&self, player: Player) -> u32 {
        with_stones!(&self.board, b => b.sets[player.index()].count())
    }

    /// Whether the player to move places or shifts.
    #[inline]
    pub fn phase(&self) -> Phase {
        if self.hand[self.side.index()] > 0 {
            Phase::Placing
        } else {
            Phase::Moving
        }
    }

    /// Why the game ended, if it has.
    #[inline]
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }

    /// The diagram character of `player`'s pieces (`X` for Black, `O` for White).
    pub fn piece_char(player: Player) -> char {
        PIECE_CHARS[player.index()]
    }

    /// The longest unbroken line of `player`'s pieces (the first found, scanning squares
    /// upwards and directions east, north, north-east, south-east, on a tie), or `None` if
    /// they have no piece on the board.
    pub fn longest_line(&self, player: Player) -> Option<Line> {
        let g = self.geometry;
        let own = self.stones(player);
        let mut best: Option<Line> = None;
        for sq in own.squares() {
            for axis in Direction::AXES {
                if g.step(sq, axis.opposite()).is_some_and(|p| own.contains(p)) {
                    continue; // not the first piece of its run
                }
                let (mut end, mut len) = (sq, 1);
                while let Some(next) = g.step(end, axis).filter(|n| own.contains(*n)) {
                    end = next;
                    len += 1;
                }
                if best.is_none_or(|b| len > b.len) {
                    best = Some(Line {
                        player,
                        start: sq.min(end),
                        end: sq.max(end),
                        len,
                    });
                }
            }
        }
        best
    }

    /// The winner's line once the game has been won.
    pub fn winning_line(&self) -> Option<Line> {
        match self.end {
            Some(EndReason::Line(p)) => self.longest_line(p),
            _ => None,
        }
    }

    /// Whether `player` has `k` or more pieces in a row anywhere.
    pub fn has_k_in_a_row(&self, player: Player) -> bool {
        let k = self.config.k();
        with_stones!(&self.board, b => b.has_line(player, k))
    }

    /// Whether the player to move has a legal move, ignoring whether the game has ended.
    /// (A refused centre opening never leaves Black without a placement: the board has at
    /// least 9 squares and at most 4 of them are centre squares.)
    #[inline]
    fn mover_can_move(&self) -> bool {
        let side = self.side;
        let placing = self.hand[side.index()] > 0;
        with_stones!(&self.board, b => if placing {
            !b.empty().is_empty()
        } else {
            b.has_shift(side)
        })
    }

    /// Whether the next move is a first placement that may not be on a centre square
    /// (`centre_opening=false` at ply 0).
    #[inline]
    fn centre_refused(&self) -> bool {
        self.ply == 0 && !self.config.centre_opening()
    }

    /// Whether `sq` is a centre square of this board (the middle 2×2 on an even board, the
    /// middle square on an odd one); `false` off the board.
    pub fn is_centre(&self, sq: Square) -> bool {
        self.geometry.contains(sq) && {
            let (col, row) = (self.geometry.col(sq), self.geometry.row(sq));
            self.config.is_centre(col, row)
        }
    }

    /// The centre squares (4 on an even board, 1 on an odd one).
    pub fn centre_squares(&self) -> BoardSet {
        self.geometry
            .squares()
            .filter(|&sq| self.is_centre(sq))
            .collect()
    }

    /// The end state after `mover` played a move ending on `to`: `games.md`'s three checks
    /// in order.
    #[inline]
    fn end_after(&self, mover: Player, to: Square) -> Option<EndReason> {
        let (k, g) = (self.config.k(), self.geometry);
        // Fewer than k pieces on the board (early in placement) cannot make a line.
        let on_board = self.config.pieces().wrapping_sub(self.hand[mover.index()]);
        let line =
            on_board >= k && with_stones!(&self.board, b => b.has_line_through(mover, to, k, g));
        if line {
            Some(EndReason::Line(mover))
        } else if !self.mover_can_move() {
            Some(EndReason::NoLegalMove(self.side))
        } else if self.ply >= self.config.max_plies() {
            Some(EndReason::MaxPlies)
        } else {
            None
        }
    }

    /// The end state of a position read from a string (the previous mover is the player
    /// who made move `ply - 1`: the player not to move, except right after White's last
    /// placement under `moving_first=second`; ply 0 has no previous mover).
    pub(crate) fn derive_end(&self) -> Option<EndReason> {
        let mover = self.config.mover_at(self.ply.wrapping_sub(1));
        if self.ply > 0 && self.has_k_in_a_row(mover) {
            Some(EndReason::Line(mover))
        } else if !self.mover_can_move() {
            Some(EndReason::NoLegalMove(self.side))
        } else if self.ply >= self.config.max_plies() {
            Some(EndReason::MaxPlies)
        } else {
            None
        }
    }

    /// Whether the move that brought the game to `ply` was made by the player who is also
    /// to move at `ply`: White's last placement under `moving_first=second`.
    #[inline]
    fn double_move_at(&self, ply: u32) -> bool {
        ply == self.config.placing_plies()
            && self.config.moving_first() == crate::MovingFirst::Second
    }

    /// The coordinate of a square known to be on the board (validation checks first).
    fn coord(&self, sq: Square) -> Coord {
        self.geometry
            .coord(sq)
            .expect("a square checked to be on the board")
    }

    fn check_on_board(&self, sq: Square) -> Result<(), MoveError> {
        if self.geometry.contains(sq) {
            Ok(())
        } else {
            Err(MoveError::OffBoard {
                index: sq.0,
                size: self.size(),
            })
        }
    }
}

impl Rules for Fourshift {
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

    /// One key per piece (`zobrist().piece(player index, square)`) and the side to move.
    /// Pieces in hand and the phase follow from the board, so they need no key; the ply
    /// count is not hashed.
    fn compute_hash(&self) -> u64 {
        let z = zobrist();
        let mut hash = z.side(self.side);
        for player in Player::BOTH {
            for sq in self.stones(player).squares() {
                hash ^= z.piece(player.index(), sq);
            }
        }
        hash
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.end.map(EndReason::outcome)
    }

    /// Placements lowest square first; shifts grouped by direction (north, east, south,
    /// west), lowest destination first.
    #[inline]
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.end.is_some() {
            return;
        }
        let side = self.side;
        let placing = self.hand[side.index()] > 0;
        with_stones!(&self.board, b => if placing {
            b.push_places(moves)
        } else {
            b.push_shifts(side, moves)
        });
        if self.centre_refused() {
            moves.retain(|mv| !self.is_centre(mv.to()));
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.end.is_some() {
            return 0;
        }
        let side = self.side;
        let placing = self.hand[side.index()] > 0;
        let count = u64::from(with_stones!(&self.board, b => if placing {
            b.count_places()
        } else {
            b.count_shifts(side)
        }));
        if self.centre_refused() {
            // Ply 0 is the empty start: every centre square is an empty placement square.
            count.saturating_sub(self.centre_squares().count() as u64)
        } else {
            count
        }
    }

    fn validate(&self, mv: &Move) -> Result<(), MoveError> {
        if self.end.is_some() {
            return Err(MoveError::GameOver);
        }
        let in_hand = self.hand[self.side.index()];
        match *mv {
            Move::Place(sq) => {
                self.check_on_board(sq)?;
                if in_hand == 0 {
                    return Err(MoveError::PlaceWhileMoving);
                }
                if self.piece_at(sq).is_some() {
                    return Err(MoveError::Occupied {
                        square: self.coord(sq),
                    });
                }
                if self.centre_refused() && self.is_centre(sq) {
                    return Err(MoveError::CentreOpening {
                        square: self.coord(sq),
                    });
                }
            }
            Move::Shift { from, to } => {
                self.check_on_board(from)?;
                self.check_on_board(to)?;
                if in_hand > 0 {
                    return Err(MoveError::ShiftWhilePlacing { in_hand });
                }
                match self.piece_at(from) {
                    None => {
                        return Err(MoveError::NoPiece {
                            square: self.coord(from),
                        });
                    }
                    Some(p) if p != self.side => {
                        return Err(MoveError::NotYourPiece {
                            square: self.coord(from),
                        });
                    }
                    Some(_) => {}
                }
                let (a, b) = (self.coord(from), self.coord(to));
                if a.col().abs_diff(b.col()) + a.row().abs_diff(b.row()) != 1 {
                    return Err(MoveError::NotAdjacent { from: a, to: b });
                }
                if self.piece_at(to).is_some() {
                    return Err(MoveError::DestinationOccupied { square: b });
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            hash: self.hash,
            end: self.end,
        };
        let keys = self.keys;
        let me = self.side;
        let to = match mv {
            Move::Place(to) => {
                with_stones!(&mut self.board, b => b.toggle(me, to));
                let hand = &mut self.hand[me.index()];
                *hand = hand.wrapping_sub(1);
                self.hash ^= keys.piece(me, to);
                to
            }
            Move::Shift { from, to } => {
                with_stones!(&mut self.board, b => {
                    b.toggle(me, from);
                    b.toggle(me, to);
                });
                self.hash ^= keys.piece(me, from) ^ keys.piece(me, to);
                to
            }
        };
        self.ply = self.ply.wrapping_add(1);
        if self.double_move_at(self.ply) {
            // moving_first=second: White placed last and makes the first shift too.
        } else {
            self.side = me.other();
            self.hash ^= keys.side_flip;
        }
        self.end = self.end_after(me, to);
        undo
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let me = if self.double_move_at(self.ply) {
            self.side
        } else {
            self.side.other()
        };
        match mv {
            Move::Place(to) => {
                with_stones!(&mut self.board, b => b.toggle(me, to));
                let hand = &mut self.hand[me.index()];
                *hand = hand.wrapping_add(1);
            }
            Move::Shift { from, to } => {
                with_stones!(&mut self.board, b => {
                    b.toggle(me, from);
                    b.toggle(me, to);
                });
            }
        }
        self.side = me;
        self.ply = self.ply.wrapping_sub(1);
        self.hash = undo.hash;
        self.end = undo.end;
    }
}

impl Notation for Fourshift {
    /// `c3` (placement), `c3-c4` or `c3 c4` (shift); any case, surrounding whitespace ignored.
    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        const EXPECTED: &str = "a square like c3 to place, or from-to like c3-c4 to shift";
        let t = text.trim();
        let (first, second) = match t.split_once('-') {
            // A shift names two squares: `b1-b2-b3` is not a move, whatever its squares.
            Some((_, b)) if b.contains('-') => {
                return Err(NotationError::syntax(text, EXPECTED));
            }
            Some((a, b)) => (a.trim(), Some(b.trim())),
            None => {
                let mut parts = t.split_whitespace();
                let first = parts.next().unwrap_or("");
                let second = parts.next();
                if parts.next().is_some() {
                    return Err(NotationError::syntax(text, EXPECTED));
                }
                (first, second)
            }
        };
        if first.is_empty() || second.is_some_and(str::is_empty) {
            return Err(NotationError::syntax(text, EXPECTED));
        }
        let g = self.geometry;
        let from = g.parse_square(first)?;
        Ok(match second {
            None => Move::Place(from),
            Some(to) => Move::Shift {
                from,
                to: g.parse_square(to)?,
            },
        })
    }

    fn format_move(&self, mv: Move) -> String {
        match mv {
            Move::Place(sq) => self.geometry.format_square(sq),
            Move::Shift { from, to } => format!(
                "{}-{}",
                self.geometry.format_square(from),
                self.geometry.format_square(to)
            ),
        }
    }
}

impl Position for Fourshift {
    type Config = FourshiftConfig;

    fn new(config: FourshiftConfig) -> Self {
        let geometry =
            Geometry::square(config.size()).expect("a FourshiftConfig always has a valid size");
        let mut pos = Fourshift {
            config,
            geometry,
            keys: Keys::of(config.size()),
            board: Board::new(config.size(), config.k()),
            side: Player::First,
            hand: [config.pieces(); 2],
            ply: 0,
            hash: 0,
            end: None,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    #[inline]
    fn config(&self) -> &FourshiftConfig {
        &self.config
    }

    /// "four in a row c1-f4", "White has no legal moves", "move limit of 120 plies reached".
    fn outcome_reason(&self) -> Option<String> {
        Some(match self.end? {
            EndReason::Line(p) => match self.longest_line(p) {
                Some(line) => format!(
                    "{} in a row {}-{}",
                    number_word(line.len),
                    self.coord(line.start),
                    self.coord(line.end)
                ),
                None => format!("{} in a row", number_word(self.config.k())),
            },
            EndReason::NoLegalMove(p) => format!("{} has no legal moves", NAMES[p.index()]),
            EndReason::MaxPlies => {
                format!("move limit of {} plies reached", self.config.max_plies())
            }
        })
    }

    fn to_position_string(&self) -> String {
        crate::notation::write_position(self)
    }

    fn from_position_string(config: FourshiftConfig, s: &str) -> Result<Self, PositionStringError> {
        crate::notation::read_position(config, s)
    }

    fn player_name(&self, player: Player) -> &'static str {
        NAMES[player.index()]
    }
}
