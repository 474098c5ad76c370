//! [`AmazonsPosition`]: the board state, move generation and counting, validation,
//! make/unmake and the accessors evaluators use.

use std::fmt;

use board_core::{Bitboard128, Coord, Geometry, Outcome, Player, Square, SquareSet};

use crate::{
    AmazonsConfig, AmazonsMove, MoveError,
    tables::{CELL_MASK, CELLS, LINE_BITS, LINE_MASK, LINES, TABLE_MASK, Tables, tables},
};

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A queen of this player.
    Queen(Player),
    /// A burned square.
    Arrow,
}

/// The undo record of [`make_move`](board_core::Rules::make_move): the squares'
/// mobility before the move (the board itself is restored by toggling the move's three
/// squares back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AmazonsUndo {
    mobility: [u8; CELLS],
}

/// An amazons position: queens, arrows, side to move and ply.
///
/// Besides the bitboards it keeps the occupancy of every row, column and diagonal as a
/// small integer, and the queen mobility of every empty square (see the crate docs, "How it
/// is fast"), which makes counting moves a matter of table lookups. Cloning copies about
/// 500 bytes and allocates nothing.
#[derive(Clone)]
pub struct AmazonsPosition {
    pub(crate) config: AmazonsConfig,
    pub(crate) tables: &'static Tables,
    pub(crate) geometry: &'static Geometry,
    /// Queens of `First` and `Second`.
    pub(crate) queens: [Bitboard128; 2],
    pub(crate) arrows: Bitboard128,
    /// Occupancy of every line (bits past a line's end set).
    pub(crate) lines: [u16; LINES],
    /// `mobility[sq]`: for an empty square, how many empty squares a queen there would
    /// reach; 0 for an occupied square.
    pub(crate) mobility: [u8; CELLS],
    /// A memo for [`make`](Self::make), not part of the position's state: the mobility
    /// after the last queen move made (before its arrow), with the exact board it belongs
    /// to. Moves are generated grouped by queen move, so consecutive makes usually repeat
    /// the queen move and only need to add their arrow.
    pub(crate) memo: QueenMoveMemo,
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
            && self.mobility == other.mobility
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

/// The mobility after a queen move, for the board (queens and arrows, before the arrow) it
/// was computed on.
#[derive(Clone, Copy)]
pub(crate) struct QueenMoveMemo {
    board: [Bitboard128; 3],
    mobility: [u8; CELLS],
}

impl QueenMoveMemo {
    const EMPTY: QueenMoveMemo = QueenMoveMemo {
        // No real board has every square holding both colours of queen.
        board: [Bitboard128(u128::MAX); 3],
        mobility: [0; CELLS],
    };
}

#[inline(always)]
fn bit(sq: usize) -> Bitboard128 {
    // Masked rather than checked: every caller's square is on the board or the result is
    // never used (an illegal move given to `make_move`), and the mask keeps it in range.
    Bitboard128(1u128 << (sq & CELL_MASK))
}

impl AmazonsPosition {
    /// An empty board (no queens, no arrows), `First` to move at ply 0. Callers place
    /// pieces with [`put`](Self::put), set the side and ply, then call
    /// [`refresh_mobility`](Self::refresh_mobility) and
    /// [`hash_from_scratch`](Self::hash_from_scratch).
    pub(crate) fn empty(config: AmazonsConfig) -> AmazonsPosition {
        let size = config.size() as u8;
        let tables = tables(size);
        let geometry = Geometry::square(size as u32).expect("8 and 10 are valid board sizes");
        AmazonsPosition {
            config,
            tables,
            geometry,
            queens: [Bitboard128::EMPTY; 2],
            arrows: Bitboard128::EMPTY,
            lines: tables.line_fill,
            mobility: [0; CELLS],
            memo: QueenMoveMemo::EMPTY,
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
        self.fill(sq);
    }

    /// The mobility of `sq` computed from the lines (four lookups).
    #[inline(always)]
    fn mobility_from_lines(&self, sq: usize) -> u8 {
        let t = self.tables;
        let c = &t.cell[sq & CELL_MASK];
        let mut m = 0u8;
        for axis in 0..4 {
            m = m.wrapping_add(t.reach_count[self.line_index(c.line[axis], c.pos[axis])]);
        }
        m
    }

    /// Occupies the empty square `sq`: flips it in its four lines and takes it out of the
    /// mobility of the squares that saw it. On each line, the empty run below `sq` loses
    /// `sq` and the run above it (1 + above), and the run above loses 1 + below.
    #[inline(always)]
    fn fill(&mut self, sq: usize) {
        self.update_runs(sq, u8::wrapping_sub);
        self.mobility[sq & CELL_MASK] = 0;
    }

    /// Empties the occupied square `sq`: the inverse of [`fill`](Self::fill).
    #[inline(always)]
    fn vacate(&mut self, sq: usize) {
        self.update_runs(sq, u8::wrapping_add);
        self.mobility[sq & CELL_MASK] = self.mobility_from_lines(sq);
    }

    #[inline(always)]
    fn update_runs(&mut self, sq: usize, op: fn(u8, u8) -> u8) {
        let t = self.tables;
        let c = &t.cell[sq & CELL_MASK];
        for axis in 0..4 {
            let line = c.line[axis] as usize & LINE_MASK;
            let pos = c.pos[axis] & 15;
            let idx = self.line_index(c.line[axis], pos);
            let runs = t.run_counts[idx];
            let (below, above) = ((runs & 15) as u64, (runs >> 4) as u64);
            let reach = t.reach_mask[idx] as usize;
            let below_mask = reach & ((1 << pos) - 1);
            // One nibble per position of the line: how much its mobility changes.
            let delta = t.spread[below_mask & 1023] * (1 + above)
                + t.spread[(reach & !below_mask) & 1023] * (1 + below);
            let squares = &t.line_squares[line];
            for (q, &s) in squares.iter().take(LINE_BITS as usize).enumerate() {
                let s = s as usize & CELL_MASK;
                self.mobility[s] = op(self.mobility[s], ((delta >> (4 * q)) & 15) as u8);
            }
            self.lines[line] ^= 1 << pos;
        }
    }

    /// Flips the occupancy of `sq` in its four lines (mobility untouched).
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
        if self.queens[0].has(sq) {
            Some(Piece::Queen(Player::First))
        } else if self.queens[1].has(sq) {
            Some(Piece::Queen(Player::Second))
        } else if self.arrows.has(sq) {
            Some(Piece::Arrow)
        } else {
            None
        }
    }

    /// The squares of `player`'s queens.
    #[inline]
    pub fn queens(&self, player: Player) -> Bitboard128 {
        self.queens[player.index()]
    }

    /// The four squares of `player`'s queens, lowest index first.
    pub fn queen_squares(&self, player: Player) -> [Square; 4] {
        let mut out = [Square(0); 4];
        for (slot, sq) in out.iter_mut().zip(self.queens[player.index()]) {
            *slot = sq;
        }
        out
    }

    /// The burned squares.
    #[inline]
    pub fn arrows(&self) -> Bitboard128 {
        self.arrows
    }

    /// Queens of both players and arrows: every square that blocks a queen or an arrow.
    #[inline]
    pub fn occupied(&self) -> Bitboard128 {
        self.occupied_bits()
    }

    #[inline(always)]
    fn occupied_bits(&self) -> Bitboard128 {
        self.queens[0] | self.queens[1] | self.arrows
    }

    /// The empty squares of the board.
    #[inline]
    pub fn empty_squares(&self) -> Bitboard128 {
        self.tables.board.without_all(self.occupied_bits())
    }

    /// Every square of the board.
    #[inline]
    pub fn board_squares(&self) -> Bitboard128 {
        self.tables.board
    }

    /// The squares next to `sq` (king moves), whatever stands on them.
    #[inline]
    pub fn neighbours(&self, sq: Square) -> Bitboard128 {
        self.tables.neighbours[sq.index() & CELL_MASK] & self.tables.board
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
        self.tables.queen_reach(sq.index(), blockers)
    }

    /// How many empty squares a queen on `sq` reaches (its mobility; `sq` itself may be
    /// occupied). An empty square's mobility is kept up to date, so this is one load there.
    #[inline]
    pub fn queen_mobility(&self, sq: Square) -> u32 {
        let i = sq.index();
        if i >= self.tables.cells {
            0
        } else if (self.occupied_bits() & bit(i)).is_empty() {
            self.mobility[i & CELL_MASK] as u32
        } else {
            self.mobility_from_lines(i) as u32
        }
    }

    /// Whether `player` has a legal move: some queen with an empty neighbour (it can step
    /// there and shoot back onto the square it left).
    #[inline]
    pub fn has_legal_move(&self, player: Player) -> bool {
        let empty = !self.occupied_bits();
        self.queens[player.index()]
            .into_iter()
            .any(|sq| !(self.tables.neighbours[sq.index() & CELL_MASK] & empty).is_empty())
    }

    /// The number of legal moves `player` would have if it were their turn (ignores
    /// whether the game is over): the full mobility term of an evaluation.
    pub fn move_count(&self, player: Player) -> u64 {
        let mut total = 0u32;
        for sq in self.queens[player.index()] {
            total += self.count_queen(sq.index());
        }
        total as u64
    }

    /// The number of legal moves of the queen on `sq` (if `sq` holds a queen; the count is
    /// the same for either owner).
    pub fn queen_move_count(&self, sq: Square) -> u64 {
        if sq.index() >= self.tables.cells
            || ((self.queens[0] | self.queens[1]) & bit(sq.index())).is_empty()
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

    /// The number of moves (destination × arrow) of the queen on `from`.
    ///
    /// A destination `t` has as many arrows as its mobility on the current board, except
    /// along the line the queen moved on, where `from` is now empty: the table
    /// `vacated_gain` adds those extra arrows for all destinations of the line at once. So
    /// the count is, per line, one lookup plus one load per destination.
    #[inline]
    fn count_queen(&self, from: usize) -> u32 {
        let t = self.tables;
        let c = &t.cell[from & CELL_MASK];
        let mut s = 0u32;
        for axis in 0..4 {
            let line = c.line[axis];
            let idx = self.line_index(line, c.pos[axis]);
            s += t.vacated_gain[idx] as u32;
            let squares = &t.line_squares[line as usize & LINE_MASK];
            let reach = t.reach_mask[idx] as u32;
            for (q, &sq) in squares.iter().take(LINE_BITS as usize).enumerate() {
                let keep = 0u32.wrapping_sub((reach >> q) & 1);
                s += self.mobility[sq as usize & CELL_MASK] as u32 & keep;
            }
        }
        s
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
        for from in self.queens[self.side.index()] {
            let from = from.index();
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

    /// Flips the bitboards and the hash for `mv` (the same both ways).
    #[inline(always)]
    fn flip_pieces(&mut self, mv: AmazonsMove, mover: Player) {
        let (from, to, arrow) = (mv.from.index(), mv.to.index(), mv.arrow.index());
        let keys = &self.tables.keys;
        let us = mover.index();
        self.queens[us] ^= bit(from) ^ bit(to);
        self.arrows ^= bit(arrow);
        self.hash ^= keys.queen[us][from & CELL_MASK]
            ^ keys.queen[us][to & CELL_MASK]
            ^ keys.arrow[arrow & CELL_MASK]
            ^ keys.side[0]
            ^ keys.side[1];
    }

    /// Plays `mv`. The three squares change one after the other (the queen leaves `from`,
    /// lands on `to`, the arrow fills its square), so an arrow shot back onto `from` leaves
    /// it occupied, as it must be.
    pub(crate) fn make(&mut self, mv: AmazonsMove) -> AmazonsUndo {
        let undo = AmazonsUndo {
            mobility: self.mobility,
        };
        // Only a queen move that is consistent with the board (the mover's queen on `from`,
        // `to` empty) updates the mobility correctly, and only such a result may be kept.
        let (from, to) = (mv.from.index(), mv.to.index());
        let memorable = !(self.queens[self.side.index()] & bit(from)).is_empty()
            && (self.occupied_bits() & bit(to)).is_empty();
        self.flip_pieces(mv, self.side);
        // The board after the queen move, before the arrow lands.
        let board = [
            self.queens[0],
            self.queens[1],
            self.arrows ^ bit(mv.arrow.index()),
        ];
        let m = &self.memo.board;
        if ((m[0] ^ board[0]) | (m[1] ^ board[1]) | (m[2] ^ board[2])).is_empty() {
            self.toggle(from);
            self.toggle(to);
            self.mobility = self.memo.mobility;
        } else {
            self.vacate(from);
            self.fill(to);
            if memorable {
                self.memo = QueenMoveMemo {
                    board,
                    mobility: self.mobility,
                };
            }
        }
        self.fill(mv.arrow.index());
        self.side = self.side.other();
        self.ply = self.ply.wrapping_add(1);
        undo
    }

    pub(crate) fn unmake(&mut self, mv: AmazonsMove, undo: AmazonsUndo) {
        self.side = self.side.other();
        self.ply = self.ply.wrapping_sub(1);
        self.flip_pieces(mv, self.side);
        self.toggle(mv.arrow.index());
        self.toggle(mv.to.index());
        self.toggle(mv.from.index());
        self.mobility = undo.mobility;
    }

    /// Sets every square's mobility from the lines (after building a position).
    pub(crate) fn refresh_mobility(&mut self) {
        let occupied = self.occupied_bits();
        for sq in 0..self.tables.cells {
            self.mobility[sq] = if (occupied & bit(sq)).is_empty() {
                self.mobility_from_lines(sq)
            } else {
                0
            };
        }
    }

    // ----- hashing and outcome -----

    pub(crate) fn hash_from_scratch(&self) -> u64 {
        let keys = &self.tables.keys;
        let mut h = keys.side[self.side.index()];
        for sq in 0..self.tables.cells {
            let b = bit(sq);
            if !(self.queens[0] & b).is_empty() {
                h ^= keys.queen[0][sq];
            }
            if !(self.queens[1] & b).is_empty() {
                h ^= keys.queen[1][sq];
            }
            if !(self.arrows & b).is_empty() {
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
        self.geometry
            .coord(Square(sq as u16))
            .expect("a square checked to be on the board")
    }

    /// The first square in `blockers` strictly between `a` and `b` (which are aligned),
    /// walking from `a`.
    fn first_blocker(&self, a: usize, b: usize, blockers: Bitboard128) -> Option<usize> {
        let n = self.tables.size as i32;
        let (ac, ar) = (a as i32 % n, a as i32 / n);
        let (bc, br) = (b as i32 % n, b as i32 / n);
        let (dc, dr) = ((bc - ac).signum(), (br - ar).signum());
        let (mut c, mut r) = (ac + dc, ar + dr);
        while (c, r) != (bc, br) {
            let sq = (r * n + c) as usize;
            if !(blockers & bit(sq)).is_empty() {
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
        if (self.queens[us] & bit(from)).is_empty() {
            let square = self.coord(from);
            return Err(if !(self.queens[1 - us] & bit(from)).is_empty() {
                MoveError::NotYourQueen { square }
            } else if !(self.arrows & bit(from)).is_empty() {
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
        if !(occupied & bit(to)).is_empty() {
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
        let after = occupied.without_all(bit(from)) | bit(to);
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
        if !(after & bit(arrow)).is_empty() {
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
}
