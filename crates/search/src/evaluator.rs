//! [`Evaluator`]: everything game-specific the search needs beyond the rules.

use board_core::Notation;

/// A forced win found by a game's own tactical search (see [`Evaluator::forced_win`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ForcedWin<M> {
    /// The first move of the win.
    pub mv: M,
    /// Turns until the game is won, counting `mv` itself (at least 1: `1` means `mv` wins
    /// on the spot).
    pub turns: u32,
}

/// The game-specific side of the search: a static evaluation plus hooks that shape the tree.
///
/// Only [`evaluate`](Evaluator::evaluate) is required; every other hook has a default that
/// keeps the search exact (full-width over all legal moves, no quiescence, no shortcuts).
/// Methods take `&self` and `&P`: state that must change move by move (incremental
/// evaluation) belongs in the position. Wrap the game's position in a type that also
/// implements [`Rules`](board_core::Rules) and [`Notation`] and updates that state in `make_move`/`unmake_move`;
/// [`crate::Incremental`] is a ready wrapper of that kind.
///
/// An evaluator is shared by all search threads, hence `Send + Sync`. Any
/// `Fn(&P) -> i32 + Send + Sync` closure is an evaluator with the default hooks.
pub trait Evaluator<P: Notation>: Send + Sync {
    /// The static value of a position that is not finished, from the point of view of the
    /// side to move (higher is better for it), in centipawn-like units. A value of the
    /// same magnitude must mean the same for either side (negamax: the opponent's view is
    /// the negation). Results outside `±Score::MAX_EVAL` (900,000) are clamped, so they can
    /// never be mistaken for a forced win or loss; keep real values well inside (a few
    /// thousand is typical). Finished positions are scored by the search from
    /// [`Rules::outcome`](board_core::Rules::outcome) and never reach this method.
    fn evaluate(&self, pos: &P) -> i32;

    /// Replaces the contents of `moves` with the moves the search considers at `pos`.
    /// Default: every legal move ([`Rules::generate_moves`](board_core::Rules::generate_moves)).
    ///
    /// A game may return an ordered and pruned list instead: cells near stones and threat
    /// responses for k-in-a-row games, pairs built from a short list of good cells for
    /// Connect6, the top-K moves for Amazons. Every move returned must be legal; the order
    /// given is kept among moves the search has no other preference for. An empty list for
    /// an unfinished position makes it a leaf, scored by `evaluate` (at the root the search
    /// falls back to all legal moves).
    fn candidates(&self, pos: &P, moves: &mut Vec<P::Move>) {
        pos.generate_moves(moves);
    }

    /// An ordering hint for a candidate: positive for forcing moves (captures, threats),
    /// searched right after the transposition-table move and before killer and history
    /// moves, highest first; negative for moves to try last; zero (the default) for quiet
    /// moves, which killers and history order. Only ordering depends on it, never the
    /// search's value.
    fn move_hint(&self, pos: &P, mv: P::Move) -> i32 {
        let _ = (pos, mv);
        0
    }

    /// Replaces the contents of `moves` with the "noisy" moves quiescence search extends at
    /// the horizon: moves after which the static evaluation would be misleading (a capture
    /// that invites a recapture). Quiescence scores a horizon node as the best of its
    /// static value (the side to move may "stand pat") and its noisy moves, recursively.
    /// Default: none, so the horizon value is the static evaluation.
    fn noisy(&self, pos: &P, moves: &mut Vec<P::Move>) {
        let _ = pos;
        moves.clear();
    }

    /// A tactical pre-check at interior nodes (`depth` turns from the horizon, at least 1):
    /// if the side to move has a forced win (e.g. a VCF / threat-space search found one),
    /// return its first move and length; the search then scores the node as that win
    /// without searching it. The move is validated first (an illegal one is ignored).
    /// Called at every interior node that the transposition table does not settle (and
    /// once at the root, where an announced win is played without any search), so make it
    /// cheap or return `None` at small `depth`. A wrong claim is trusted: the hook must only
    /// announce wins it has proven. The hook may play moves on `pos` (a threat search
    /// needs to) but must leave it exactly as it found it. Default: `None`.
    fn forced_win(&self, pos: &mut P, depth: u32) -> Option<ForcedWin<P::Move>> {
        let _ = (pos, depth);
        None
    }

    /// Narrows the candidates of an interior node, `depth` turns above the horizon (at
    /// least 1; never the root, never quiescence), to the moves that refute a threat the
    /// opponent holds: where the opponent would have a forced win if it were its turn (a
    /// VCF or threat-space win in gomoku), only the moves after which it no longer has
    /// one can save the game, and the search need not try the others. `moves` is the
    /// non-empty list [`candidates`](Evaluator::candidates) just gave; keep the order of
    /// the moves kept. The game may add legal moves the candidates left out (a defence the
    /// usual list misses) and must keep some move when every one loses (the search then
    /// finds the longest resistance among them). Like [`forced_win`](Evaluator::forced_win)
    /// the hook may play moves on `pos` but must leave it exactly as it found it; make it
    /// cheap or do nothing at small `depth`. Default: the list as it is.
    fn threat_defence(&self, pos: &mut P, depth: u32, moves: &mut Vec<P::Move>) {
        let _ = (pos, depth, moves);
    }

    /// Reverse futility pruning at a node off the principal variation, `depth` turns above
    /// the horizon (at least 1; never the root): `Some(margin)` lets the search return the
    /// static value without searching the node when that value minus `margin` still
    /// reaches beta (the side to move is so far ahead that a shallow search would not
    /// bring it back under). Never applied when the window or the static value is a forced
    /// result. `None` (the default) never prunes; return it wherever the static value can
    /// hide a tactic (a pending threat) and at depths too large to trust it. A forward
    /// pruning: the search is then no longer exact.
    fn futility_margin(&self, pos: &P, depth: u32) -> Option<i32> {
        let _ = (pos, depth);
        None
    }

    /// Razoring at a node off the principal variation, `depth` turns above the horizon (at
    /// least 1; never the root), after [`forced_win`](Evaluator::forced_win) found nothing:
    /// `Some(margin)` lets the search replace the node's search by quiescence (the
    /// [`noisy`](Evaluator::noisy) moves) when the static value plus `margin` is still at
    /// or under alpha, and return the quiescence value when it fails low too. Never
    /// applied when the window or the static value is a forced result. `None` (the
    /// default) never razors. A forward pruning like
    /// [`futility_margin`](Evaluator::futility_margin).
    fn razor_margin(&self, pos: &P, depth: u32) -> Option<i32> {
        let _ = (pos, depth);
        None
    }

    /// The game's late-move reduction for `mv` at an interior node `depth` turns above the
    /// horizon (at least 2; never the root, never quiescence), `searched` moves already
    /// searched there (at least 1: the first move, and the transposition table's, are never
    /// reduced), `hint` its [`move_hint`](Evaluator::move_hint): the search tries the move
    /// `r` turns shallower with a null window first, and at full depth only if it beats
    /// alpha. For games whose ordering is the game's own (every candidate hinted), where
    /// the search's generic rule, which reduces only unhinted quiet moves
    /// ([`SearchOptions::with_late_move_reductions`](crate::SearchOptions::with_late_move_reductions)),
    /// never applies. The larger of the two reductions is used, at most `depth − 2` (the
    /// reduced search keeps at least one turn). A forward pruning like
    /// [`futility_margin`](Evaluator::futility_margin): return 0 for moves whose point may
    /// only show deep (threats, forced answers). Default: 0.
    fn late_move_reduction(
        &self,
        pos: &P,
        mv: P::Move,
        hint: i32,
        depth: u32,
        searched: usize,
    ) -> u32 {
        let _ = (pos, mv, hint, depth, searched);
        0
    }

    /// A search extension: plies added to the depth of the node a move leads to, asked on
    /// the position after the move (at the root's moves and every interior node's, never
    /// in quiescence). Meant for forced replies: in gomoku the answer to a four is the one
    /// block, so extending it makes a four and its block use up one ply instead of two, and
    /// the search sees through sequences of fours. At most 1 is applied. Extend only moves
    /// that leave a single reply: a game that extended every move would search without end
    /// until the search's ply limit (256) stops it. Exact: [`crate::reference::minimax`]
    /// applies the same extension. Default: 0.
    fn extension(&self, pos: &P) -> u32 {
        let _ = pos;
        0
    }

    /// Whether a position that repeats an earlier one (on the search path, or in the game
    /// history given to [`crate::Searcher::set_game_history`]) is scored as a draw. For
    /// games where positions can repeat (moving pieces without captures); default `false`.
    /// As in every engine, such path-dependent draws can reach other paths through the
    /// transposition table.
    fn repetition_is_draw(&self) -> bool {
        false
    }
}

impl<P: Notation, F: Fn(&P) -> i32 + Send + Sync> Evaluator<P> for F {
    fn evaluate(&self, pos: &P) -> i32 {
        self(pos)
    }
}

/// The extension the searcher applies after a move, `pos` the position reached: the
/// evaluator's [`Evaluator::extension`] clipped to one ply (the search and the reference
/// minimax both read it here, so they cannot disagree on the rule).
#[inline]
pub(crate) fn applied_extension<P: Notation, E: Evaluator<P>>(evaluator: &E, pos: &P) -> i32 {
    evaluator.extension(pos).min(1) as i32
}
