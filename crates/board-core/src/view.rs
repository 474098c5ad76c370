//! What a board shows, as typed values: [`View`] and the [`BoardView`] it builds.
//!
//! Front ends (the terminal, the web board) draw from this and never from printed text:
//! the diagram is one more renderer of the same cells. A game implements the two methods
//! only it can answer (the board's shape, what stands on a square) and gets the rest (its
//! diagram, the squares a move touches, the whole [`BoardView`]) derived.
//!
//! Why a trait of its own beside [`Position`]: the rules (generation, make/unmake, hash)
//! are what search and perft need, and presentation is not. Keeping it apart means a search
//! benchmark or a fuzz target compiles against rules alone, and a game that only wants
//! perft need not describe its board.
//!
//! ```
//! use board_core::view::{Cell, PieceKind};
//! use board_core::Player;
//! let cell = Cell::Piece { owner: Player::First, kind: PieceKind::Stone };
//! assert_eq!(cell.owner(), Some(Player::First));
//! assert_eq!(Cell::Marker.owner(), None);
//! assert_eq!(Cell::from_owner(Some(Player::Second)), Cell::stone(Player::Second));
//! assert_eq!(Cell::from_owner(None), Cell::Empty);
//! ```

use crate::{Geometry, Outcome, Player, Position, Square, diagram};

/// What kind of piece stands on a square (for drawing: a stone, a man, a queen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// A stone of a placement game (gomoku, connect6).
    Stone,
    /// A piece that moves (fourshift, clamp).
    Man,
    /// An Amazons queen.
    Queen,
}

/// One square of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing on it.
    Empty,
    /// A player's piece.
    Piece {
        /// Whose piece.
        owner: Player,
        /// What it is.
        kind: PieceKind,
    },
    /// Taken by no player: an Amazons arrow, a blocked square.
    Marker,
}

impl Cell {
    /// A stone of `owner` (the piece of a placement game).
    pub const fn stone(owner: Player) -> Cell {
        Cell::Piece {
            owner,
            kind: PieceKind::Stone,
        }
    }

    /// A stone of `owner`, or an empty square for none: the cell of a placement game's
    /// square from whose stone (if any) is on it.
    pub const fn from_owner(owner: Option<Player>) -> Cell {
        match owner {
            Some(owner) => Cell::stone(owner),
            None => Cell::Empty,
        }
    }

    /// The player whose piece this is, if any.
    pub fn owner(self) -> Option<Player> {
        match self {
            Cell::Piece { owner, .. } => Some(owner),
            Cell::Empty | Cell::Marker => None,
        }
    }
}

/// What a marked region of the board means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegionKind {
    /// Where its owner may drop new pieces (clamp).
    DropZone,
    /// Squares a rule treats specially at the centre (a centre-opening ban, a tie-break).
    Centre,
}

/// A set of squares worth marking on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// What the region is.
    pub kind: RegionKind,
    /// The player it belongs to, if any.
    pub owner: Option<Player>,
    /// Its squares, in index order.
    pub squares: Vec<Square>,
}

/// One item of the status a game shows beside the board, as a typed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatusItem {
    /// The phase of a game that has phases (`"placing"`, `"moving"`).
    Phase(&'static str),
    /// Pieces a player still has to put on the board (fourshift's hand, clamp's supply).
    InHand {
        /// Whose.
        player: Player,
        /// How many.
        count: u32,
    },
    /// Pieces a player has on the board.
    OnBoard {
        /// Whose.
        player: Player,
        /// How many.
        count: u32,
    },
    /// Half-moves without a capture, against the limit that ends the game.
    Quiet {
        /// Half-moves so far.
        count: u32,
        /// The limit.
        limit: u32,
    },
    /// Stones the player to move places this turn (connect6: 1 on the first move, then 2).
    StonesToPlace(u32),
}

/// How a finished game ended, for drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewOutcome {
    /// Win or draw.
    pub outcome: Outcome,
    /// Why, for people, without the winner ([`Position::outcome_reason`]; `game over`
    /// for a game that gives no reason).
    pub reason: String,
    /// The squares of the winning line, where the game was won by one (else empty).
    pub line: Vec<Square>,
}

/// Everything a board shows at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The cells by square index (`row * width + col`, row 0 = rank 1).
    pub cells: Vec<Cell>,
    /// Regions worth marking.
    pub regions: Vec<Region>,
    /// The player to move, `None` once the game is over.
    pub to_move: Option<Player>,
    /// Typed status items.
    pub status: Vec<StatusItem>,
    /// The end of the game, if it is over.
    pub outcome: Option<ViewOutcome>,
}

/// The presentation side of a game: what is on each square, what a move touches, what to
/// mark and report. Required: only [`geometry`](View::geometry) and [`cell`](View::cell),
/// which no one but the game can answer; everything else has a default derived from them
/// (the diagram, the glyphs, the squares a move touches) or an empty one (regions, status,
/// the winning line, the rules text), which a game overrides to show more.
pub trait View: Position {
    /// The board's shape.
    fn geometry(&self) -> &Geometry;

    /// What stands on `sq`.
    fn cell(&self, sq: Square) -> Cell;

    /// The squares `mv` touches, in the order it names them (from, to, arrow; the stones
    /// of a pair). Asked of the position the move is played from; an illegal move touches
    /// nothing.
    ///
    /// The default plays `mv` on a copy and lists the squares whose [`cell`](View::cell)
    /// changed, in index order: exactly right when a move changes only the square it
    /// names (a stone dropped or placed). A game whose move names several squares in an
    /// order (from, to, arrow; a pair) or changes others too (captures, which [`captured`]
    /// finds) overrides it.
    fn move_squares(&self, mv: Self::Move) -> Vec<Square> {
        let mut after = self.clone();
        if after.play(mv).is_err() {
            return Vec::new();
        }
        self.geometry()
            .squares()
            .filter(|&sq| self.cell(sq) != after.cell(sq))
            .collect()
    }

    /// A plain-text board with column letters and row numbers: by default [`diagram()`],
    /// drawn from the cells and [`glyph`](View::glyph). A game overrides it only to add
    /// lines the board cannot show (clamp's pieces in hand).
    fn diagram(&self) -> String {
        diagram(self)
    }

    /// Regions worth marking (none by default).
    fn regions(&self) -> Vec<Region> {
        Vec::new()
    }

    /// Status items beside whose turn it is (none by default).
    fn status(&self) -> Vec<StatusItem> {
        Vec::new()
    }

    /// The squares of the line that won the game, if it was won by one (none by default).
    fn winning_line(&self) -> Vec<Square> {
        Vec::new()
    }

    /// The game's rules in brief, for people who have never played it (a few lines; the
    /// parameters in force are printed beside it). Empty by default.
    fn rules_text(&self) -> String {
        String::new()
    }

    /// The one character a diagram draws for `cell` (`.`, `X`, `O`, `#` by default).
    fn glyph(&self, cell: Cell) -> char {
        match cell {
            Cell::Empty => '.',
            Cell::Marker => '#',
            Cell::Piece {
                owner: Player::First,
                ..
            } => 'X',
            Cell::Piece {
                owner: Player::Second,
                ..
            } => 'O',
        }
    }

    /// Everything the board shows now.
    fn board_view(&self) -> BoardView {
        let g = self.geometry();
        let outcome = self.outcome().map(|outcome| ViewOutcome {
            outcome,
            reason: self
                .outcome_reason()
                .unwrap_or_else(|| "game over".to_string()),
            line: self.winning_line(),
        });
        BoardView {
            width: g.width(),
            height: g.height(),
            cells: (0..g.cells())
                .map(|i| self.cell(Square(i as u16)))
                .collect(),
            regions: self.regions(),
            to_move: outcome.is_none().then(|| self.side_to_move()),
            status: self.status(),
            outcome,
        }
    }
}

/// The plain-text diagram of a position, drawn from its cells and glyphs (what
/// [`View::diagram`] returns by default).
pub fn diagram<V: View>(pos: &V) -> String {
    diagram::render(pos.geometry(), |sq| pos.glyph(pos.cell(sq)))
}

/// The squares that held a piece of the mover's opponent before `mv` and are empty after
/// it, except the squares the move itself names: the pieces it captured (clamp's custodian
/// captures; none in games without captures).
pub fn captured<V: View>(before: &V, after: &V, mv: V::Move) -> Vec<Square> {
    let mover = before.side_to_move();
    let touched = before.move_squares(mv);
    before
        .geometry()
        .squares()
        .filter(|&sq| {
            before.cell(sq).owner() == Some(mover.other())
                && after.cell(sq) == Cell::Empty
                && !touched.contains(&sq)
        })
        .collect()
}

/// The squares of the straight line from `start` to `end` inclusive (a row, column or
/// diagonal, as a winning line is); just `start` when the two are not on one line.
pub fn line_squares(geometry: &Geometry, start: Square, end: Square) -> Vec<Square> {
    let (c0, r0) = (geometry.col(start) as i64, geometry.row(start) as i64);
    let (c1, r1) = (geometry.col(end) as i64, geometry.row(end) as i64);
    let (dc, dr) = (c1 - c0, r1 - r0);
    if dc != 0 && dr != 0 && dc.abs() != dr.abs() {
        return vec![start];
    }
    let steps = dc.abs().max(dr.abs());
    (0..=steps)
        .filter_map(|i| {
            let col = c0 + dc.signum() * i;
            let row = r0 + dr.signum() * i;
            geometry.square_at(col as u32, row as u32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_run_through_every_square() {
        let g = Geometry::new(6, 6).expect("6x6");
        let sq = |s: &str| g.parse_square(s).expect("square");
        assert_eq!(
            line_squares(g, sq("a1"), sq("d4")),
            vec![sq("a1"), sq("b2"), sq("c3"), sq("d4")]
        );
        assert_eq!(
            line_squares(g, sq("a4"), sq("d1")),
            vec![sq("a4"), sq("b3"), sq("c2"), sq("d1")]
        );
        assert_eq!(line_squares(g, sq("c2"), sq("c2")), vec![sq("c2")]);
        assert_eq!(line_squares(g, sq("a1"), sq("c2")), vec![sq("a1")]);
    }
}
