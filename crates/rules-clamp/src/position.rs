//! [`ClampPosition`]: the state of a game and its implementation of [`Position`].

use std::fmt;

use board_core::{
    BitSet, Bitboard64, Bitboard128, BoardSet, Geometry, Notation, NotationError, Outcome, Player,
    Position, PositionStringError, Rules, ShiftSet, Square, SquareSet,
};

use crate::{
    board::Board,
    config::ClampConfig,
    moves::{Move, MoveError, Undo},
    position_string,
    tables::Tables,
};

/// The board in the smallest bit-set type that holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Boards {
    /// 6×6 and 8×8.
    Small(Board<Bitboard64>),
    /// 10×10.
    Medium(Board<Bitboard128>),
    /// 12×12 to 16×16.
    Large(Board<BitSet<4>>),
    /// 18×18 to 26×26.
    Huge(Board<BoardSet>),
}

/// Runs `$e` with `$b` bound to the board, whatever its bit-set type.
macro_rules! with_board {
    ($boards:expr, $b:ident => $e:expr) => {
        match $boards {
            Boards::Small($b) => $e,
            Boards::Medium($b) => $e,
            Boards::Large($b) => $e,
            Boards::Huge($b) => $e,
        }
    };
}

impl Boards {
    fn new(geometry: &Geometry, zone: u32) -> Boards {
        match geometry.cells() {
            0..=64 => Boards::Small(Board::new(Tables::get(geometry, zone))),
            65..=128 => Boards::Medium(Board::new(Tables::get(geometry, zone))),
            129..=256 => Boards::Large(Board::new(Tables::get(geometry, zone))),
            _ => Boards::Huge(Board::new(Tables::get(geometry, zone))),
        }
    }
}

/// Why the game ended, in the order games.md checks it after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The player to move has no piece on the board: the other player wins.
    NoPieces,
    /// The player to move has no legal move: the other player wins.
    NoMoves,
    /// `quiet_limit` half-moves without a capture: a draw, or adjudicated by piece count
    /// and then by pieces on the centre block.
    QuietLimit,
}

/// A clamp position: the pieces, the side to move, the quiet counter (half-moves since the
/// last capture) and the ply. Everything else, the outcome included, is derived from these
/// and the config.
///
/// ```
/// use board_core::{prelude::*, Player};
/// use rules_clamp::{ClampConfig, ClampPosition};
/// let mut pos = ClampPosition::new(ClampConfig::default());
/// assert_eq!(pos.to_position_string(), "8/8/2XXXX2/8/8/2OOOO2/8/8 x 0 0");
/// let mv = pos.parse_legal_move("c6-c4").unwrap();
/// pos.play(mv).unwrap();
/// assert_eq!(pos.side_to_move(), Player::Second);
/// assert_eq!(pos.quiet(), 1);
/// ```
#[derive(Clone)]
pub struct ClampPosition {
    config: ClampConfig,
    geometry: &'static Geometry,
    pub(crate) board: Boards,
    pub(crate) side: Player,
    pub(crate) quiet: u32,
    pub(crate) ply: u32,
    /// Pieces in hand by player index under a finite `supply` (both 0 and unused when the
    /// supply is unlimited).
    pub(crate) hand: [u32; 2],
    hash: u64,
}

impl PartialEq for ClampPosition {
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
            && self.side == other.side
            && self.quiet == other.quiet
            && self.ply == other.ply
            && self.hand == other.hand
            && self.board == other.board
    }
}

impl fmt::Debug for ClampPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ClampPosition(\"{}\" {})",
            self.to_position_string(),
            self.config
        )
    }
}

impl ClampPosition {
    /// An empty board (no pieces) with `side` to move, for the position-string reader.
    pub(crate) fn empty(config: ClampConfig, side: Player, quiet: u32, ply: u32) -> ClampPosition {
        // Every config size (6-26) is a valid board size, so this never fails.
        let geometry = Geometry::square(config.size()).expect("clamp sizes are 6-26");
        let mut pos = ClampPosition {
            config,
            geometry,
            board: Boards::new(geometry, config.zone()),
            side,
            quiet,
            ply,
            hand: [config.supply().unwrap_or(0); 2],
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// Sets the pieces in hand (position-string reader; a finite supply only). The hash is
    /// left stale: call [`ClampPosition::rehash`] when done.
    pub(crate) fn set_hand(&mut self, hand: [u32; 2]) {
        self.hand = hand;
    }

    /// Pieces `player` still has in hand, under a finite `supply` (`None`: unlimited).
    pub fn in_hand(&self, player: Player) -> Option<u32> {
        self.config.supply().map(|_| self.hand[player.index()])
    }

    /// The `max_on_board` to generate `p`'s drops with: 0 (no drop) once a finite supply is
    /// used up.
    #[inline(always)]
    fn drop_max(&self, p: usize) -> u32 {
        if self.config.supply().is_some() && self.hand[p] == 0 {
            0
        } else {
            self.config.max_on_board()
        }
    }

    /// Pieces of `player` on the centre block (the middle 4×4, see
    /// [`ClampConfig::centre_span`]): the adjudication's tie-break.
    pub fn centre_count(&self, player: Player) -> u32 {
        let (lo, hi) = self.config.centre_span();
        let g = self.geometry;
        self.pieces(player)
            .squares()
            .filter(|&sq| (lo..=hi).contains(&g.col(sq)) && (lo..=hi).contains(&g.row(sq)))
            .count() as u32
    }

    /// The result at the quiet limit under `adjudicate=true`: more pieces on the board
    /// wins; equal counts, more pieces on the centre block wins; equal again, a draw.
    fn adjudication(&self) -> Outcome {
        let count = |p| (self.piece_count(p), self.centre_count(p));
        let (x, o) = (count(Player::First), count(Player::Second));
        match x.cmp(&o) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Puts `piece` on (or removes any piece from) an on-board square. The hash is left
    /// stale: call [`ClampPosition::rehash`] when done.
    pub(crate) fn set_piece(&mut self, sq: Square, piece: Option<Player>) {
        if self.geometry.contains(sq) {
            with_board!(&mut self.board, b => b.set(sq.index(), piece.map(Player::index)));
        }
    }

    /// Recomputes the hash from scratch.
    pub(crate) fn rehash(&mut self) {
        self.hash = self.compute_hash();
    }

    /// The board geometry (size, step tables, square notation).
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// The piece on `sq`, if any (`None` also for an off-board square).
    pub fn piece_at(&self, sq: Square) -> Option<Player> {
        let i = sq.index();
        if i >= self.geometry.cells() {
            return None;
        }
        with_board!(&self.board, b => b.get(i)).map(|p| Player::BOTH[p])
    }

    /// Pieces `player` has on the board.
    pub fn piece_count(&self, player: Player) -> u32 {
        with_board!(&self.board, b => b.count(player.index()))
    }

    /// The squares of `player`'s pieces (any board size).
    pub fn pieces(&self, player: Player) -> BoardSet {
        let mut set = BoardSet::EMPTY;
        with_board!(&self.board, b => {
            for (dst, w) in set.0.iter_mut().zip(b.pieces[player.index()].words()) {
                *dst = w;
            }
        });
        set
    }

    /// The squares of `player`'s pieces as a [`Bitboard64`], on boards up to 8×8 (`None`
    /// on larger boards). No allocation: the evaluator's fast path.
    #[inline]
    pub fn bitboard(&self, player: Player) -> Option<Bitboard64> {
        match &self.board {
            Boards::Small(b) => Some(b.pieces[player.index()]),
            _ => None,
        }
    }

    /// The drop zone of `player` (Black: the top `zone` rows; White: the bottom ones).
    pub fn drop_zone(&self, player: Player) -> BoardSet {
        let size = self.config.size();
        let zone = self.config.zone();
        let rows = match player {
            Player::First => size - zone..size,
            Player::Second => 0..zone,
        };
        rows.flat_map(|r| (0..size).map(move |c| Square((r * size + c) as u16)))
            .collect()
    }

    /// Whether `sq` is in `player`'s drop zone.
    pub fn in_drop_zone(&self, player: Player, sq: Square) -> bool {
        if !self.geometry.contains(sq) {
            return false;
        }
        let row = self.geometry.row(sq);
        let (size, zone) = (self.config.size(), self.config.zone());
        match player {
            Player::First => row >= size - zone,
            Player::Second => row < zone,
        }
    }

    /// Half-moves since the last capture (or since the start).
    pub fn quiet(&self) -> u32 {
        self.quiet
    }

    /// Half-moves without a capture left before the quiet limit ends the game.
    pub fn quiet_remaining(&self) -> u32 {
        self.config.quiet_limit().saturating_sub(self.quiet)
    }

    /// Whether `player` may drop now: fewer than `max_on_board` pieces and an empty square
    /// in their zone (the end of the game aside).
    pub fn can_drop(&self, player: Player) -> bool {
        let max = self.drop_max(player.index());
        with_board!(&self.board, b => b.can_drop(player.index(), max))
    }

    /// The number of moves `player` would have if it were on move, whoever is on move and
    /// whether or not the game is over (the evaluator's mobility term).
    pub fn mobility(&self, player: Player) -> u64 {
        let max = self.drop_max(player.index());
        with_board!(&self.board, b => b.mobility(player.index(), max))
    }

    /// Whether `player` would have any legal move if it were on move (the end aside).
    pub fn has_move(&self, player: Player) -> bool {
        let max = self.drop_max(player.index());
        with_board!(&self.board, b => b.has_move(player.index(), max))
    }

    /// How many enemy pieces a legal move `mv` would capture (0–8); for move ordering.
    pub fn capture_count(&self, mv: Move) -> u32 {
        if !self.on_board(mv) {
            return 0;
        }
        let p = self.side.index();
        with_board!(&self.board, b => b.capture_count(p, mv))
    }

    /// The squares the pieces captured by `mv` stood on, given the [`Undo`] its
    /// `make_move` returned (valid before or after the move).
    pub fn captured_squares(&self, mv: Move, undo: &Undo) -> Vec<Square> {
        let to = mv.to();
        board_core::Direction::ALL
            .iter()
            .filter(|d| undo.captured & (1 << d.index()) != 0)
            .filter_map(|&d| self.geometry.step(to, d))
            .collect()
    }

    /// Why the game ended, if it did.
    pub fn end_reason(&self) -> Option<EndReason> {
        let stm = self.side.index();
        let max = self.drop_max(stm);
        with_board!(&self.board, b => {
            if b.count(stm) == 0 {
                Some(EndReason::NoPieces)
            } else if !b.has_move(stm, max) {
                Some(EndReason::NoMoves)
            } else if self.quiet >= self.config.quiet_limit() {
                Some(EndReason::QuietLimit)
            } else {
                None
            }
        })
    }

    /// A cheap test that decides "no moves" together with move generation: the side to
    /// move has no pieces, or the quiet limit is reached. (A side with pieces but no moves
    /// generates nothing anyway.)
    #[inline(always)]
    fn no_moves_by_rule(&self, count: u32) -> bool {
        count == 0 || self.quiet >= self.config.quiet_limit()
    }

    #[inline(always)]
    fn on_board(&self, mv: Move) -> bool {
        let cells = self.geometry.cells();
        mv.to().index() < cells && mv.from().is_none_or(|f| f.index() < cells)
    }

    /// The coordinate of a square known to be on the board (validation checks first).
    fn coord(&self, sq: Square) -> board_core::Coord {
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
                size: self.config.size(),
            })
        }
    }
}

impl Rules for ClampPosition {
    type Move = Move;

    type Undo = Undo;

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

    /// The pieces, the side to move and, under a finite supply, the pieces in hand. The
    /// quiet counter and the ply are not hashed (like chess's halfmove clock): positions
    /// that differ only in them share a hash.
    fn compute_hash(&self) -> u64 {
        self.compute_hash_for(self.side)
    }

    /// Derived from the position, checking games.md's rules in order as if the player not
    /// on move had just moved: the side to move has no pieces (the other wins); it has no
    /// legal move (the other wins); the quiet counter has reached `quiet_limit` (a draw, or
    /// with `adjudicate=true` the player with more pieces wins, equal counts the player with
    /// more pieces on the centre block, equal again a draw).
    fn outcome(&self) -> Option<Outcome> {
        Some(match self.end_reason()? {
            EndReason::NoPieces | EndReason::NoMoves => Outcome::Win(self.side.other()),
            EndReason::QuietLimit if self.config.adjudicate() => self.adjudication(),
            EndReason::QuietLimit => Outcome::Draw,
        })
    }

    #[inline]
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        let p = self.side.index();
        let max = self.drop_max(p);
        with_board!(&self.board, b => {
            if !self.no_moves_by_rule(b.count(p)) {
                b.generate(p, max, moves);
            }
        })
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        let p = self.side.index();
        let max = self.drop_max(p);
        with_board!(&self.board, b => {
            if self.no_moves_by_rule(b.count(p)) {
                0
            } else {
                b.mobility(p, max)
            }
        })
    }

    fn validate(&self, mv: &Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let me = self.side;
        match *mv {
            Move::Drop(to) => {
                self.check_on_board(to)?;
                if !self.in_drop_zone(me, to) {
                    let (size, zone) = (self.config.size(), self.config.zone());
                    let (first_rank, last_rank) = match me {
                        Player::First => (size - zone + 1, size),
                        Player::Second => (1, zone),
                    };
                    return Err(MoveError::OutsideZone {
                        square: self.coord(to),
                        first_rank,
                        last_rank,
                    });
                }
                if let Some(supply) = self.config.supply()
                    && self.hand[me.index()] == 0
                {
                    return Err(MoveError::NoPiecesInHand { supply });
                }
                if self.piece_count(me) >= self.config.max_on_board() {
                    return Err(MoveError::TooManyPieces {
                        max: self.config.max_on_board(),
                    });
                }
                if self.piece_at(to).is_some() {
                    return Err(MoveError::Occupied(self.coord(to)));
                }
                Ok(())
            }
            Move::Step(from, to) => {
                self.check_on_board(from)?;
                self.check_on_board(to)?;
                let (a, b) = (self.coord(from), self.coord(to));
                if from == to {
                    return Err(MoveError::NullStep(a));
                }
                match self.piece_at(from) {
                    None => return Err(MoveError::NoPiece(a)),
                    Some(p) if p != me => return Err(MoveError::NotYourPiece(a)),
                    Some(_) => {}
                }
                let (dc, dr) = (
                    b.col() as i32 - a.col() as i32,
                    b.row() as i32 - a.row() as i32,
                );
                if dc != 0 && dr != 0 && dc.abs() != dr.abs() {
                    return Err(MoveError::NotStraight { from: a, to: b });
                }
                let distance = dc.abs().max(dr.abs()) as u32;
                if distance > 2 {
                    return Err(MoveError::TooFar {
                        from: a,
                        to: b,
                        distance,
                    });
                }
                if self.piece_at(to).is_some() {
                    return Err(MoveError::Occupied(b));
                }
                if distance == 2 {
                    let over = Square((from.0 + to.0) / 2);
                    if self.piece_at(over).is_some() {
                        return Err(MoveError::Blocked {
                            from: a,
                            to: b,
                            over: self.coord(over),
                        });
                    }
                }
                Ok(())
            }
        }
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Undo {
        let p = self.side.index();
        let (captured, delta) = if !self.on_board(mv) {
            // Meaningless but harmless: only the turn passes.
            (0, self.hash ^ self.compute_hash_for(self.side.other()))
        } else if let Boards::Small(b) = &mut self.board {
            // The 8×8 path stays inline; larger boards go through `make_wide`.
            let (captured, delta) = b.make(p, mv);
            (captured, delta ^ b.t.side_toggle)
        } else {
            make_wide(&mut self.board, p, mv)
        };
        let undo = Undo {
            captured,
            quiet: self.quiet,
            hash: self.hash,
        };
        self.hash ^= delta;
        self.quiet = if captured != 0 {
            0
        } else {
            self.quiet.saturating_add(1)
        };
        if mv.is_drop() && self.config.supply().is_some() && self.on_board(mv) {
            let hand = &mut self.hand[p];
            let before = *hand;
            *hand = before.saturating_sub(1);
            self.hash ^= hand_key(p, before) ^ hand_key(p, *hand);
        }
        self.side = self.side.other();
        self.ply = self.ply.wrapping_add(1);
        undo
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move, undo: Undo) {
        self.side = self.side.other();
        self.ply = self.ply.wrapping_sub(1);
        self.quiet = undo.quiet;
        self.hash = undo.hash;
        if self.on_board(mv) {
            let p = self.side.index();
            if mv.is_drop() && self.config.supply().is_some() {
                self.hand[p] = self.hand[p].saturating_add(1);
            }
            if let Boards::Small(b) = &mut self.board {
                b.unmake(p, mv, undo.captured);
            } else {
                unmake_wide(&mut self.board, p, mv, undo.captured);
            }
        }
    }
}

impl Notation for ClampPosition {
    /// Reads `d7` (drop) or `c6-c4` / `c6 c4` (step); any case, whitespace around the
    /// squares ignored.
    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        const EXPECTED: &str = "a square like d7 (drop) or two squares like c6-c4 (step)";
        let t = text.trim();
        let parts: Vec<&str> = if t.contains('-') {
            t.split('-').map(str::trim).collect()
        } else {
            t.split_whitespace().collect()
        };
        match parts.as_slice() {
            [to] if !to.is_empty() => Ok(Move::Drop(self.geometry.parse_square(to)?)),
            [from, to] if !from.is_empty() && !to.is_empty() => Ok(Move::Step(
                self.geometry.parse_square(from)?,
                self.geometry.parse_square(to)?,
            )),
            _ => Err(NotationError::syntax(text, EXPECTED)),
        }
    }

    fn format_move(&self, mv: Move) -> String {
        let sq = |s: Square| {
            if self.geometry.contains(s) {
                self.geometry.format_square(s)
            } else {
                format!("#{}", s.0)
            }
        };
        match mv {
            Move::Drop(to) => sq(to),
            Move::Step(from, to) => format!("{}-{}", sq(from), sq(to)),
        }
    }
}

impl Position for ClampPosition {
    type Config = ClampConfig;

    /// The start position: Black on the middle four squares of the inner row of its zone
    /// (`c6 d6 e6 f6` on 8×8), White likewise (`c3 d3 e3 f3`), Black to move.
    fn new(config: ClampConfig) -> ClampPosition {
        let mut pos = ClampPosition::empty(config, Player::First, 0, 0);
        let (size, zone) = (config.size(), config.zone());
        let first_col = (size - 4) / 2;
        for col in first_col..first_col + ClampConfig::START {
            for (player, row) in [(Player::First, size - zone), (Player::Second, zone - 1)] {
                pos.set_piece(Square((row * size + col) as u16), Some(player));
            }
        }
        pos.rehash();
        pos
    }

    fn config(&self) -> &ClampConfig {
        &self.config
    }

    /// Why the game ended, without naming the result (front ends name the winner, or the
    /// draw, from [`outcome`](Rules::outcome)).
    fn outcome_reason(&self) -> Option<String> {
        let reason = self.end_reason()?;
        let loser = self.player_name(self.side);
        Some(match reason {
            EndReason::NoPieces => format!("{loser} has no pieces left"),
            EndReason::NoMoves => format!("{loser} has no legal move"),
            EndReason::QuietLimit => {
                let quiet = format!("{} half-moves without a capture", self.config.quiet_limit());
                let (x, o) = (
                    self.piece_count(Player::First),
                    self.piece_count(Player::Second),
                );
                let (cx, co) = (
                    self.centre_count(Player::First),
                    self.centre_count(Player::Second),
                );
                if !self.config.adjudicate() {
                    quiet
                } else if x == o && cx == co {
                    format!(
                        "{quiet}, adjudicated: {x} pieces each and {cx} each on the centre squares"
                    )
                } else if x == o {
                    let (hi, lo) = (cx.max(co), cx.min(co));
                    format!(
                        "{quiet}, adjudicated: {x} pieces each, {hi} to {lo} on the centre squares"
                    )
                } else {
                    let (hi, lo) = (x.max(o), x.min(o));
                    format!("{quiet}, adjudicated: {hi} pieces to {lo}")
                }
            }
        })
    }

    fn to_position_string(&self) -> String {
        position_string::format(self)
    }

    fn from_position_string(
        config: ClampConfig,
        s: &str,
    ) -> Result<ClampPosition, PositionStringError> {
        position_string::parse(config, s)
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "Black",
            Player::Second => "White",
        }
    }
}

impl ClampPosition {
    /// The hash of this board and hands with `side` on move.
    fn compute_hash_for(&self, side: Player) -> u64 {
        let hands = if self.config.supply().is_some() {
            hand_key(0, self.hand[0]) ^ hand_key(1, self.hand[1])
        } else {
            0
        };
        with_board!(&self.board, b => b.hash() ^ b.t.side[side.index()]) ^ hands
    }
}

/// The Zobrist key of player `p` (0/1) holding `n` pieces in hand: the player's auxiliary
/// key mixed with the count (a splitmix64 finaliser), so every count up to the largest
/// supply has its own key without a table.
fn hand_key(p: usize, n: u32) -> u64 {
    let mut x = board_core::zobrist().aux(p) ^ u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// `make` for the boards larger than 8×8, kept out of line so that the 8×8 path of
/// `make_move` stays small.
#[inline(never)]
fn make_wide(boards: &mut Boards, p: usize, mv: Move) -> (u8, u64) {
    with_board!(boards, b => {
        let (captured, delta) = b.make(p, mv);
        (captured, delta ^ b.t.side_toggle)
    })
}

/// `unmake` for the boards larger than 8×8 (see [`make_wide`]).
#[inline(never)]
fn unmake_wide(boards: &mut Boards, p: usize, mv: Move, captured: u8) {
    with_board!(boards, b => b.unmake(p, mv, captured))
}
