//! The [`board_core::Position`] implementation.

use board_core::{Notation, NotationError, Outcome, Player, Position, PositionStringError, Rules};

use crate::{AmazonsConfig, AmazonsMove, AmazonsPosition, AmazonsUndo, MoveError, moves};

impl Rules for AmazonsPosition {
    type Move = AmazonsMove;

    type Undo = AmazonsUndo;

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
        self.hash_from_scratch()
    }

    /// The player to move loses when they have no legal move; there are no draws.
    fn outcome(&self) -> Option<Outcome> {
        self.game_outcome()
    }

    fn generate_moves(&self, moves: &mut Vec<AmazonsMove>) {
        self.generate_into(moves);
    }

    /// Counts without generating: per queen and destination, a few table lookups.
    #[inline]
    fn count_moves(&self) -> u64 {
        self.count()
    }

    fn validate(&self, mv: &AmazonsMove) -> Result<(), MoveError> {
        self.check(mv)
    }

    #[inline]
    fn make_move(&mut self, mv: AmazonsMove) -> AmazonsUndo {
        self.make(mv)
    }

    #[inline]
    fn unmake_move(&mut self, mv: AmazonsMove, undo: AmazonsUndo) {
        self.unmake(mv, undo);
    }
}

impl Notation for AmazonsPosition {
    fn parse_move(&self, text: &str) -> Result<AmazonsMove, NotationError> {
        moves::parse(self.geometry, text)
    }

    fn format_move(&self, mv: AmazonsMove) -> String {
        moves::format(self.geometry, mv)
    }
}

impl Position for AmazonsPosition {
    type Config = AmazonsConfig;

    /// The start position: 10×10 White `a4 d1 g1 j4`, Black `a7 d10 g10 j7`, White to move;
    /// 8×8 Black `a6 c8 f8 h6`, White `a3 c1 f1 h3`, Black to move.
    fn new(config: AmazonsConfig) -> AmazonsPosition {
        let start = if config.size() == 8 {
            "2b2b2/8/b6b/8/8/w6w/8/2w2w2 b 0"
        } else {
            "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w 0"
        };
        AmazonsPosition::from_position_str(config, start).expect("the start positions are valid")
    }

    fn config(&self) -> &AmazonsConfig {
        &self.config
    }

    /// `"White has no legal move"` (the loser is the player to move).
    fn outcome_reason(&self) -> Option<String> {
        self.game_outcome()
            .map(|_| format!("{} has no legal move", self.config.player_name(self.side)))
    }

    fn to_position_string(&self) -> String {
        self.position_string()
    }

    fn from_position_string(
        config: AmazonsConfig,
        s: &str,
    ) -> Result<AmazonsPosition, PositionStringError> {
        AmazonsPosition::from_position_str(config, s)
    }

    fn player_name(&self, player: Player) -> &'static str {
        self.config.player_name(player)
    }
}
