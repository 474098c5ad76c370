//! [`AmazonsPosition`]: the board state, move generation and counting, validation,
//! make/unmake and the accessors evaluators use.

use std::fmt;

use board_core::{Bitboard128, Coord, Geometry, Outcome, Player, Square, diagram};

use crate::{
    AmazonsConfig, AmazonsMove, MoveError,
    tables::{CELL_MASK, LINE_BITS, LINE_MASK, LINES, TABLE_MASK, Tables, tables},
};

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A queen of this player.
    Queen(Player),
    /// A burned square.
    Arrow,
}

/// The undo record of [`AmazonsPosition::make_move`]. A move is undone from the move alone
/// (its three squares are toggled back), so the record carries nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AmazonsUndo;

/// An amazons position: queens, arrows, side to move and ply.
///
/// Besides the bitboards it keeps the occupancy of every row, column and diagonal as a
/// small integer (see the crate docs, "How it is fast"), which makes counting moves a
/// matter of table lookups. Cloning copies about 300 bytes and allocates nothing.
#[derive(Clone)]
pub struct AmazonsPosition {
    pub(crate) config: AmazonsConfig,
    pub(crate) tables: &'static Tables,
    pub(crate) geometry: &'static Geometry,
    /// Queens of `First` and `Second`.
    pub(crate) queens: [u128; 2],
    pub(crate) arrows: u128,
    /// Occupancy of every line (bits past a line's end set).
    pub(crate) lines: [u16; LINES],
    pub(crate) side: Player,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
}

impl PartialEq for AmazonsPosition {
    /// Compares everything but the (size-determined) tables.
    fn eq(&self, other: &AmazonsPosition) -> bool {
        self.config == other.config
            && self.queens == other.queens
            && self.arrows == other.arrows
            && self.lines == other.lines
            && self.side == other.side
            && self.ply == other.ply
            && self.hash == other.hash
    }
}

impl Eq for AmazonsPosition {}

impl fmt::Debug for AmazonsPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AmazonsPosition")
            .field("config", &self.config.to_string())
            .field("position", &self.position_string())
            .field("hash", &format_args!("{:#018x}", self.hash))
            .finish()
    }
}

#[inline(always)]
fn bit(sq: usize) -> u128 {
    1u128 << (sq & CELL_MASK)
}

impl AmazonsPosition {
    /// An empty board (no queens, no arrows), `First` to move at ply 0. Callers place
    /// pieces with [`put`](Self::put) and then fix the hash.
    pub(crate) fn empty(config: AmazonsConfig) -> AmazonsPosition {
        let size = config.size() as u8;
        let tables = tables(size);
        let geometry = Geometry::square(size as u32).expect("8 and 10 are valid board sizes");
        AmazonsPosition {
            config,
            tables,
            geometry,
            queens: [0; 2],
            arrows: 0,
            lines: tables.line_fill,
            side: Player::First,
            ply: 0,
            hash: 0,
        }
    }

    /// Puts a piece on an empty square of the board (no hash update).
    pub(crate) fn put(&mut self, sq: usize, piece: Piece) {
        match piece {
            Piece::Queen(p) => self.queens[p.index()] |= bit(sq),
            Piece::Arrow => self.arrows |= bit(sq),
        }
        self.toggle(sq);
    }

    /// Flips the occupancy of `sq` in its four lines.
    #[inline(always)]
    fn toggle(&mut self, sq: usize) {
        let c = &self.tables.cell[sq & CELL_MASK];
        for axis in 0..4 {
            self.lines[c.line[axis] as usize & LINE_MASK] ^= 1 << (c.pos[axis] & 15);
        }
    }

    // ----- accessors -----

    /// The board geometry (for `a1` notation, neighbours, rays).
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// The side of the board, 10 or 8.
    #[inline]
    pub fn size(&self) -> u32 {
        self.tables.size as u32
    }

    /// What stands on `sq`; `None` for an empty or off-board square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq.index() >= self.tables.cells {
            return None;
        }
        let b = bit(sq.index());
        if self.queens[0] & b != 0 {
            Some(Piece::Queen(Player::First))
        } else if self.queens[1] & b != 0 {
            Some(Piece::Queen(Player::Second))
        } else if self.arrows & b != 0 {
            Some(Piece::Arrow)
        } else {
            None
        }
    }

    /// The squares of `player`'s queens.
    #[inline]
    pub fn queens(&self, player: Player) -> Bitboard128 {
        Bitboard128(self.queens[player.index()])
    }

    /// The four squares of `player`'s queens, lowest index first.
    pub fn queen_squares(&self, player: Player) -> [Square; 4] {
        let mut out = [Square(0); 4];
        let mut q = self.queens[player.index()];
        for slot in &mut out {
            if q == 0 {
                break;
            }
            *slot = Square(q.trailing_zeros() as u16);
            q &= q - 1;
        }
        out
    }

    /// The burned squares.
    #[inline]
    pub fn arrows(&self) -> Bitboard128 {
        Bitboard128(self.arrows)
    }

    /// Queens of both players and arrows: every square that blocks a queen or an arrow.
    #[inline]
    pub fn occupied(&self) -> Bitboard128 {
        Bitboard128(self.occupied_bits())
    }

    #[inline(always)]
    fn occupied_bits(&self) -> u128 {
        self.queens[0] | self.queens[1] | self.arrows
    }

    /// The empty squares of the board.
    #[inline]
    pub fn empty_squares(&self) -> Bitboard128 {
        Bitboard128(self.tables.board & !self.occupied_bits())
    }

    /// Every square of the board.
    #[inline]
    pub fn board_squares(&self) -> Bitboard128 {
        Bitboard128(self.tables.board)
    }

    /// The squares next to `sq` (king moves), whatever stands on them.
    #[inline]
    pub fn neighbours(&self, sq: Square) -> Bitboard128 {
        Bitboard128(self.tables.neighbours[sq.index() & CELL_MASK] & self.tables.board)
    }

    /// The empty squares a queen on `sq` reaches in one move on the current board (`sq`
    /// itself is ignored, so it may hold the queen). Off-board squares reach nothing.
    #[inline]
    pub fn queen_reach(&self, sq: Square) -> Bitboard128 {
        self.queen_reach_in(sq, self.occupied())
    }

    /// The squares a queen on `sq` reaches through squares not in `blockers`: what a
    /// queen-distance flood fill needs (`blockers` need not be this position's occupancy).
    #[inline]
    pub fn queen_reach_in(&self, sq: Square, blockers: Bitboard128) -> Bitboard128 {
        if sq.index() >= self.tables.cells {
            return Bitboard128::EMPTY;
        }
        Bitboard128(self.tables.queen_reach(sq.index(), blockers.0))
    }

    /// How many empty squares a queen on `sq` reaches (its mobility), by four table lookups.
    #[inline]
    pub fn queen_mobility(&self, sq: Square) -> u32 {
        if sq.index() >= self.tables.cells {
            return 0;
        }
        let t = self.tables;
        let c = &t.cell[sq.index() & CELL_MASK];
        (0..4)
            .map(|a| t.reach_count[self.line_index(c.line[a], c.pos[a])] as u32)
            .sum()
    }

    /// Whether `player` has a legal move: some queen with an empty neighbour (it can step
    /// there and shoot back onto the square it left).
    #[inline]
    pub fn has_legal_move(&self, player: Player) -> bool {
        let empty = !self.occupied_bits();
        let mut q = self.queens[player.index()];
        while q != 0 {
            let sq = q.trailing_zeros() as usize;
            q &= q - 1;
            if self.tables.neighbours[sq & CELL_MASK] & empty != 0 {
                return true;
            }
        }
        false
    }

    /// The number of legal moves `player` would have if it were their turn (ignores
    /// whether the game is over): the full mobility term of an evaluation.
    pub fn move_count(&self, player: Player) -> u64 {
        let mut total = 0u32;
        let mut q = self.queens[player.index()];
        while q != 0 {
            let sq = q.trailing_zeros() as usize;
            q &= q - 1;
            total += self.count_queen(sq);
        }
        total as u64
    }

    /// The number of legal moves of the queen on `sq` (if `sq` holds a queen; the count is
    /// the same for either owner).
    pub fn queen_move_count(&self, sq: Square) -> u64 {
        if sq.index() >= self.tables.cells
            || (self.queens[0] | self.queens[1]) & bit(sq.index()) == 0
        {
            return 0;
        }
        self.count_queen(sq.index()) as u64
    }

    // ----- counting -----

    /// Index into the reach tables for position `pos` on `line`.
    #[inline(always)]
    fn line_index(&self, line: u8, pos: u8) -> usize {
        ((pos as usize) << LINE_BITS | self.lines[line as usize & LINE_MASK] as usize) & TABLE_MASK
    }

    /// The arrows a queen standing on `sq` can shoot along the three axes other than `A`.
    /// (The square the queen left lies on axis `A`, so these lines are unchanged by it.)
    #[inline(always)]
    fn cross_count<const A: usize>(&self, sq: usize) -> u32 {
        let t = self.tables;
        let c = &t.cell[sq & CELL_MASK];
        let mut s = 0;
        for b in 0..4 {
            if b != A {
                s += t.reach_count[self.line_index(c.line[b], c.pos[b])] as u32;
            }
        }
        s
    }

    /// The moves of a queen on `from` whose destination lies on its axis-`A` line.
    #[inline(always)]
    fn count_axis<const A: usize>(&self, from: usize) -> u32 {
        let t = self.tables;
        let c = &t.cell[from & CELL_MASK];
        let line = c.line[A];
        let idx = self.line_index(line, c.pos[A]);
        // Arrows along the line itself, with `from` vacated, summed over the destinations.
        let mut s = t.vacated_sum[idx] as u32;
        let squares = &t.line_squares[line as usize & LINE_MASK];
        let mut m = t.reach_mask[idx];
        while m != 0 {
            let q = m.trailing_zeros() as usize;
            m &= m - 1;
            s += self.cross_count::<A>(squares[q & 15] as usize);
        }
        s
    }

    /// The number of moves (destination × arrow) of the queen on `from`.
    #[inline]
    fn count_queen(&self, from: usize) -> u32 {
        self.count_axis::<0>(from)
            + self.count_axis::<1>(from)
            + self.count_axis::<2>(from)
            + self.count_axis::<3>(from)
    }

    // ----- generation -----

    /// Pushes the moves of the queen on `from` whose destination lies on its axis-`A` line.
    #[inline(always)]
    fn generate_axis<const A: usize>(&self, from: usize, moves: &mut Vec<AmazonsMove>) {
        let t = self.tables;
        let c = &t.cell[from & CELL_MASK];
        let line = c.line[A];
        let from_pos = c.pos[A];
        let idx = self.line_index(line, from_pos);
        let squares = &t.line_squares[line as usize & LINE_MASK];
        let mut dests = t.reach_mask[idx];
        while dests != 0 {
            let q = dests.trailing_zeros() as usize;
            dests &= dests - 1;
            let to = squares[q & 15] as usize;
            let tc = &t.cell[to & CELL_MASK];
            for b in 0..4 {
                let bline = tc.line[b];
                let mut occ = self.lines[bline as usize & LINE_MASK];
                if b == A {
                    // The line the queen moved along: the square it left is empty.
                    occ &= !(1 << (from_pos & 15));
                }
                let aidx = ((tc.pos[b] as usize) << LINE_BITS | occ as usize) & TABLE_MASK;
                let bsquares = &t.line_squares[bline as usize & LINE_MASK];
                let mut arrows = t.reach_mask[aidx];
                while arrows != 0 {
                    let r = arrows.trailing_zeros() as usize;
                    arrows &= arrows - 1;
                    moves.push(AmazonsMove::new(
                        Square(from as u16),
                        Square(to as u16),
                        Square(bsquares[r & 15] as u16),
                    ));
                }
            }
        }
    }

    pub(crate) fn generate_into(&self, moves: &mut Vec<AmazonsMove>) {
        moves.clear();
        let mut q = self.queens[self.side.index()];
        while q != 0 {
            let from = q.trailing_zeros() as usize;
            q &= q - 1;
            self.generate_axis::<0>(from, moves);
            self.generate_axis::<1>(from, moves);
            self.generate_axis::<2>(from, moves);
            self.generate_axis::<3>(from, moves);
        }
    }

    pub(crate) fn count(&self) -> u64 {
        self.move_count(self.side)
    }

    // ----- make / unmake -----

    /// Applies or takes back `mv` (the same toggles both ways). Each square is toggled on
    /// its own, so an arrow shot back onto `from` leaves it occupied, as it must be.
    #[inline(always)]
    fn apply(&mut self, mv: AmazonsMove, mover: Player) {
        let (from, to, arrow) = (mv.from.index(), mv.to.index(), mv.arrow.index());
        let keys = &self.tables.keys;
        let us = mover.index();
        self.queens[us] ^= bit(from) ^ bit(to);
        self.arrows ^= bit(arrow);
        self.toggle(from);
        self.toggle(to);
        self.toggle(arrow);
        self.hash ^= keys.queen[us][from & CELL_MASK]
            ^ keys.queen[us][to & CELL_MASK]
            ^ keys.arrow[arrow & CELL_MASK]
            ^ keys.side[0]
            ^ keys.side[1];
    }

    pub(crate) fn make(&mut self, mv: AmazonsMove) -> AmazonsUndo {
        self.apply(mv, self.side);
        self.side = self.side.other();
        self.ply = self.ply.wrapping_add(1);
        AmazonsUndo
    }

    pub(crate) fn unmake(&mut self, mv: AmazonsMove) {
        self.side = self.side.other();
        self.ply = self.ply.wrapping_sub(1);
        self.apply(mv, self.side);
    }

    // ----- hashing and outcome -----

    pub(crate) fn hash_from_scratch(&self) -> u64 {
        let keys = &self.tables.keys;
        let mut h = keys.side[self.side.index()];
        for sq in 0..self.tables.cells {
            let b = bit(sq);
            if self.queens[0] & b != 0 {
                h ^= keys.queen[0][sq];
            }
            if self.queens[1] & b != 0 {
                h ^= keys.queen[1][sq];
            }
            if self.arrows & b != 0 {
                h ^= keys.arrow[sq];
            }
        }
        h
    }

    /// The game is over when the player to move has no legal move: the other player wins.
    pub(crate) fn game_outcome(&self) -> Option<Outcome> {
        (!self.has_legal_move(self.side)).then(|| Outcome::Win(self.side.other()))
    }

    // ----- validation -----

    fn coord(&self, sq: usize) -> Coord {
        self.geometry.coord(Square(sq as u16))
    }

    /// The first square in `blockers` strictly between `a` and `b` (which are aligned),
    /// walking from `a`.
    fn first_blocker(&self, a: usize, b: usize, blockers: u128) -> Option<usize> {
        let n = self.tables.size as i32;
        let (ac, ar) = (a as i32 % n, a as i32 / n);
        let (bc, br) = (b as i32 % n, b as i32 / n);
        let (dc, dr) = ((bc - ac).signum(), (br - ar).signum());
        let (mut c, mut r) = (ac + dc, ar + dr);
        while (c, r) != (bc, br) {
            let sq = (r * n + c) as usize;
            if blockers & bit(sq) != 0 {
                return Some(sq);
            }
            c += dc;
            r += dr;
        }
        None
    }

    /// Whether `a` and `b` are distinct squares on one row, column or diagonal.
    fn aligned(&self, a: usize, b: usize) -> bool {
        let n = self.tables.size as i32;
        let dc = (b as i32 % n - a as i32 % n).abs();
        let dr = (b as i32 / n - a as i32 / n).abs();
        (dc, dr) != (0, 0) && (dc == 0 || dr == 0 || dc == dr)
    }

    pub(crate) fn check(&self, mv: &AmazonsMove) -> Result<(), MoveError> {
        if self.game_outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let cells = self.tables.cells;
        for sq in [mv.from, mv.to, mv.arrow] {
            if sq.index() >= cells {
                return Err(MoveError::OffBoard {
                    index: sq.0,
                    size: self.tables.size,
                });
            }
        }
        let (from, to, arrow) = (mv.from.index(), mv.to.index(), mv.arrow.index());
        let us = self.side.index();
        let occupied = self.occupied_bits();
        if self.queens[us] & bit(from) == 0 {
            let square = self.coord(from);
            return Err(if self.queens[1 - us] & bit(from) != 0 {
                MoveError::NotYourQueen { square }
            } else if self.arrows & bit(from) != 0 {
                MoveError::ArrowNotQueen { square }
            } else {
                MoveError::NoQueen { square }
            });
        }
        if to == from {
            return Err(MoveError::QueenMustMove {
                square: self.coord(from),
            });
        }
        if !self.aligned(from, to) {
            return Err(MoveError::NotQueenLine {
                from: self.coord(from),
                to: self.coord(to),
            });
        }
        if occupied & bit(to) != 0 {
            return Err(MoveError::Occupied {
                square: self.coord(to),
            });
        }
        if let Some(b) = self.first_blocker(from, to, occupied) {
            return Err(MoveError::PathBlocked {
                from: self.coord(from),
                to: self.coord(to),
                blocker: self.coord(b),
            });
        }
        // The board the arrow flies over: the queen has left `from` and stands on `to`.
        let after = (occupied & !bit(from)) | bit(to);
        if arrow == to {
            return Err(MoveError::ArrowOnQueen {
                square: self.coord(to),
            });
        }
        if !self.aligned(to, arrow) {
            return Err(MoveError::ArrowNotQueenLine {
                from: self.coord(to),
                to: self.coord(arrow),
            });
        }
        if after & bit(arrow) != 0 {
            return Err(MoveError::ArrowOccupied {
                square: self.coord(arrow),
            });
        }
        if let Some(b) = self.first_blocker(to, arrow, after) {
            return Err(MoveError::ArrowPathBlocked {
                from: self.coord(to),
                to: self.coord(arrow),
                blocker: self.coord(b),
            });
        }
        Ok(())
    }

    // ----- display -----

    /// The character of a square in diagrams and position strings: `w`/`b` for the White
    /// and Black queens, `x` for an arrow, `.` for empty.
    pub(crate) fn square_char(&self, sq: usize) -> char {
        match self.piece_at(Square(sq as u16)) {
            Some(Piece::Queen(p)) if p == self.config.white() => 'w',
            Some(Piece::Queen(_)) => 'b',
            Some(Piece::Arrow) => 'x',
            None => '.',
        }
    }

    pub(crate) fn render(&self) -> String {
        diagram::render(self.geometry, |sq| self.square_char(sq.index()))
    }
}
