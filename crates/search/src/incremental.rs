//! [`Incremental`]: a position that carries evaluation state updated move by move.

use std::fmt;

use board_core::{Notation, NotationError, Outcome, Player, Position, Rules};

/// Evaluation state kept in step with a position by [`Incremental`] (line counts of a
/// k-in-a-row game, material, mobility caches, …).
pub trait EvalState<P: Position>: Clone + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// What [`unmake`](EvalState::unmake) needs to restore the state.
    type Undo: fmt::Debug;

    /// The state of `pos`, computed from scratch.
    fn from_position(pos: &P) -> Self;

    /// Updates the state after `mv` was made: `pos` is the position after the move, `undo`
    /// the game's own undo record for it (which tells a game what the move changed, e.g.
    /// captured pieces).
    fn make(&mut self, pos: &P, mv: P::Move, undo: &P::Undo) -> Self::Undo;

    /// Restores the state before the move that returned `undo`.
    fn unmake(&mut self, undo: Self::Undo);
}

/// A game position plus evaluation state that [`EvalState`] updates in `make_move` and
/// `unmake_move`. It implements [`Position`] itself (every rule question is forwarded), so
/// the search sees an ordinary game, and an [`crate::Evaluator`] for it reads
/// [`state`](Incremental::state) instead of rescanning the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Incremental<P: Position, S: EvalState<P>> {
    pos: P,
    state: S,
}

impl<P: Position, S: EvalState<P>> Incremental<P, S> {
    /// Wraps `pos`, computing its state from scratch.
    pub fn new(pos: P) -> Self {
        let state = S::from_position(&pos);
        Incremental { pos, state }
    }

    /// The game position.
    pub fn position(&self) -> &P {
        &self.pos
    }

    /// The evaluation state.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The evaluation state, for a game's own threat search
    /// ([`crate::Evaluator::forced_win`]) that plays on the state alone: whatever it changes
    /// it must change back before the position is used again, or the state no longer
    /// describes the position.
    pub fn state_mut(&mut self) -> &mut S {
        &mut self.state
    }

    /// The game position, unwrapped.
    pub fn into_inner(self) -> P {
        self.pos
    }
}

impl<P: Position, S: EvalState<P>> Rules for Incremental<P, S> {
    type Move = P::Move;

    type Undo = (P::Undo, S::Undo);

    type MoveError = P::MoveError;

    fn side_to_move(&self) -> Player {
        self.pos.side_to_move()
    }

    fn ply(&self) -> u32 {
        self.pos.ply()
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn compute_hash(&self) -> u64 {
        self.pos.compute_hash()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    fn generate_moves(&self, moves: &mut Vec<P::Move>) {
        self.pos.generate_moves(moves);
    }

    fn count_moves(&self) -> u64 {
        self.pos.count_moves()
    }

    fn count_two_ply_sequences(&self) -> Option<u64> {
        self.pos.count_two_ply_sequences()
    }

    fn validate(&self, mv: &P::Move) -> Result<(), P::MoveError> {
        self.pos.validate(mv)
    }

    fn make_move(&mut self, mv: P::Move) -> Self::Undo {
        let undo = self.pos.make_move(mv);
        let state_undo = self.state.make(&self.pos, mv, &undo);
        (undo, state_undo)
    }

    fn unmake_move(&mut self, mv: P::Move, (undo, state_undo): Self::Undo) {
        self.state.unmake(state_undo);
        self.pos.unmake_move(mv, undo);
    }
}

impl<P: Position, S: EvalState<P>> Notation for Incremental<P, S> {
    fn parse_move(&self, text: &str) -> Result<P::Move, NotationError> {
        self.pos.parse_move(text)
    }

    fn format_move(&self, mv: P::Move) -> String {
        self.pos.format_move(mv)
    }
}
