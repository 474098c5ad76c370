//! Claim: a tiny game with passes, written as a [`BoardGame`], for testing tools on a game
//! whose players may pass (it is also a complete example of a [`BoardGame`] with a field
//! of its own in the position string).
//!
//! On a `size × size` board (`claim:size=3`, 2 to 5) the players take turns to put a stone
//! on an empty square or to pass. The game ends when the board is full or after two passes
//! in a row; whoever has more stones wins, equal counts draw.

use crate::{
    BoardGame, BoardSetup, Geometry, InvalidKind, Outcome, Player, PositionStringError, Refused,
    Square, moves::PassOr, view::Cell,
};

crate::int_config!(
    /// The board's side.
    pub struct ClaimConfig = "claim" {
        /// Squares along a side.
        size: 3 in 2..=5,
    }
);

/// A position of Claim.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    /// Whose stone is on each square, by square index.
    cells: Vec<Option<Player>>,
    ply: u32,
    /// Passes in a row just played (0, 1 or 2: two end the game).
    passes: u32,
    config: ClaimConfig,
}

impl BoardGame for Claim {
    type Config = ClaimConfig;
    type Move = PassOr<Square>;
    type MoveError = Refused;

    fn new(config: ClaimConfig) -> Claim {
        let cells = vec![None; (config.size * config.size) as usize];
        Claim {
            cells,
            ply: 0,
            passes: 0,
            config,
        }
    }

    fn config(&self) -> &ClaimConfig {
        &self.config
    }

    fn geometry(&self) -> &'static Geometry {
        // The config keeps the size within 2..=5.
        Geometry::square(self.config.size).expect("a valid size")
    }

    fn cell(&self, sq: Square) -> Cell {
        Cell::from_owner(self.cells.get(sq.index()).copied().flatten())
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.passes < 2 && self.cells.contains(&None) {
            return None;
        }
        let count = |p: Player| self.cells.iter().filter(|&&c| c == Some(p)).count();
        let (first, second) = (count(Player::First), count(Player::Second));
        Some(match first.cmp(&second) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn validate(&self, mv: &PassOr<Square>) -> Result<(), Refused> {
        match *mv {
            _ if self.outcome().is_some() => Err(Refused::GameOver),
            PassOr::Pass => Ok(()),
            PassOr::Play(sq) if self.cells.get(sq.index()) == Some(&None) => Ok(()),
            PassOr::Play(sq) => Err(Refused::rule(self.geometry(), sq, "the square is taken")),
        }
    }

    fn apply(&mut self, mv: PassOr<Square>) {
        let side = self.side_to_move();
        match mv {
            PassOr::Pass => self.passes += 1,
            PassOr::Play(sq) => {
                if let Some(cell) = self.cells.get_mut(sq.index()) {
                    *cell = Some(side);
                }
                self.passes = 0;
            }
        }
        self.ply += 1;
    }

    fn is_pass(&self, mv: &PassOr<Square>) -> bool {
        *mv == PassOr::Pass
    }

    fn outcome_reason(&self) -> Option<String> {
        let why = if self.passes >= 2 {
            "two passes in a row"
        } else {
            "the board is full"
        };
        Some(format!("{why}, the most stones"))
    }

    fn fields(&self) -> Vec<String> {
        vec![self.passes.to_string()]
    }

    /// Each side has at most the stones of its turns so far; passes in a row at most 2, and
    /// no more than the plies.
    fn from_cells(setup: BoardSetup<ClaimConfig>) -> Result<Claim, PositionStringError> {
        let passes = match setup.fields[..] {
            [ref p] => crate::setup::read_number("passes", p, 2, "0, 1 or 2")?,
            _ => return setup.invalid(InvalidKind::Counter, "one field of passes"),
        };
        let cells: Vec<Option<Player>> = setup.cells.iter().map(|c| c.owner()).collect();
        let count = |p: Player| cells.iter().filter(|&&c| c == Some(p)).count() as u32;
        let turns = [setup.ply.div_ceil(2), setup.ply / 2];
        if Player::BOTH.iter().any(|&p| count(p) > turns[p.index()]) {
            return setup.invalid(InvalidKind::PieceCount, "more stones than turns");
        }
        if passes > setup.ply || count(Player::First) + count(Player::Second) + passes > setup.ply {
            return setup.invalid(InvalidKind::Counter, "more passes and stones than plies");
        }
        Ok(Claim {
            cells,
            ply: setup.ply,
            passes,
            config: setup.config,
        })
    }
}
