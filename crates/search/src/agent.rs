//! Players beside the search: [`Agent`] is anything that picks moves — a game's engine, its
//! baseline AI, a random player — so matches, self-play, the terminal UI and the protocols
//! drive them all the same way. [`SearchAgent`] turns any [`Evaluator`] into a player,
//! [`RandomAgent`] needs nothing from the game, and [`AgentKind`] names the three kinds a
//! game offers (the games table builds them).
//!
//! This module knows no game: a game defined outside the workspace gets its players from
//! here without compiling any bundled game.

use std::{fmt, str::FromStr};

use board_core::{Notation, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{
    Evaluator, IterationReport, Limits, OptionsError, Score, SearchOptions, SearchResult,
    SearchStats, Searcher, StopReason,
};

/// A player that chooses moves.
pub trait Agent<P: Position>: Send {
    /// A short name for tables and logs (`engine`, `baseline`, `random`).
    fn name(&self) -> &str;

    /// Forgets everything learnt in the previous game (hash tables, history).
    fn new_game(&mut self) {}

    /// Hashes of the positions played so far, oldest first, for games where repetition
    /// matters. Default: ignored.
    fn set_game_history(&mut self, hashes: &[u64]) {
        let _ = hashes;
    }

    /// Chooses a move for `pos` within `limits`, calling `report` after each completed
    /// search iteration. `best_move` is `None` only for a finished game.
    fn think(
        &mut self,
        pos: &P,
        limits: &Limits,
        report: &mut dyn FnMut(&IterationReport<P::Move>),
    ) -> SearchResult<P::Move>;
}

/// An agent that searches a (possibly wrapped) position `W` with the generic search.
///
/// `W` is the game's position or an engine position around it (e.g. [`crate::Incremental`]
/// with evaluation state); `wrap` builds it from the game position.
pub struct SearchAgent<P: Position, W: Notation<Move = P::Move>, E: Evaluator<W>> {
    name: String,
    searcher: Searcher<W, E>,
    wrap: fn(&P) -> W,
    /// `Some(d)`: always search exactly to depth `d`, ignoring the caller's limits except
    /// the stop flag (the baseline players are fixed-depth by definition).
    fixed_depth: Option<u32>,
}

impl<P: Position, W: Notation<Move = P::Move>, E: Evaluator<W>> SearchAgent<P, W, E> {
    /// An agent searching with `evaluator` under `options`.
    pub fn new(
        name: impl Into<String>,
        evaluator: E,
        options: SearchOptions,
        wrap: fn(&P) -> W,
    ) -> Result<Self, OptionsError> {
        Ok(SearchAgent {
            name: name.into(),
            searcher: Searcher::new(evaluator, options)?,
            wrap,
            fixed_depth: None,
        })
    }

    /// Makes the agent search to exactly `depth` whatever limits it is given.
    pub fn with_fixed_depth(mut self, depth: u32) -> Self {
        self.fixed_depth = Some(depth);
        self
    }

    /// The underlying searcher (options, evaluator, table).
    pub fn searcher_mut(&mut self) -> &mut Searcher<W, E> {
        &mut self.searcher
    }
}

/// A source article's baseline player: `evaluator` searched with `options` (plain
/// alpha-beta, [`SearchOptions::plain_alpha_beta`] or a variant of it) to exactly `depth`,
/// named `baseline`. Options the searcher refuses are an error, never a different player.
pub fn baseline_agent<P, W, E>(
    evaluator: E,
    options: SearchOptions,
    wrap: fn(&P) -> W,
    depth: u32,
) -> Result<Box<dyn Agent<P>>, OptionsError>
where
    P: Position + 'static,
    W: Notation<Move = P::Move> + 'static,
    E: Evaluator<W> + 'static,
{
    Ok(Box::new(
        SearchAgent::new("baseline", evaluator, options, wrap)?.with_fixed_depth(depth),
    ))
}

impl<P, W, E> Agent<P> for SearchAgent<P, W, E>
where
    P: Position,
    W: Notation<Move = P::Move>,
    E: Evaluator<W> + 'static,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) {
        self.searcher.new_game();
    }

    fn set_game_history(&mut self, hashes: &[u64]) {
        self.searcher.set_game_history(hashes);
    }

    fn think(
        &mut self,
        pos: &P,
        limits: &Limits,
        report: &mut dyn FnMut(&IterationReport<P::Move>),
    ) -> SearchResult<P::Move> {
        let wrapped = (self.wrap)(pos);
        match self.fixed_depth {
            Some(depth) => {
                let mut fixed = Limits::new().with_depth(depth);
                if let Some(flag) = limits.stop_flag() {
                    fixed = fixed.with_stop_flag(flag.clone());
                }
                self.searcher.search_with(&wrapped, &fixed, report)
            }
            None => self.searcher.search_with(&wrapped, limits, report),
        }
    }
}

/// Plays a uniformly random legal move (seeded: the same seed replays the same game).
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random player drawing from `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<P: Position> Agent<P> for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn think(
        &mut self,
        pos: &P,
        _limits: &Limits,
        _report: &mut dyn FnMut(&IterationReport<P::Move>),
    ) -> SearchResult<P::Move> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let best_move = (!moves.is_empty()).then(|| moves[self.rng.random_range(0..moves.len())]);
        SearchResult {
            best_move,
            score: Score::DRAW,
            depth: 0,
            pv: best_move.into_iter().collect(),
            stop_reason: if best_move.is_some() {
                StopReason::Depth
            } else {
                StopReason::GameOver
            },
            stats: SearchStats::default(),
            iterations: Vec::new(),
        }
    }
}

/// An agent's answer that breaks its contract: a move the rules refuse, or no move in a
/// game that is not over.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// The agent chose a move that is not legal here.
    #[error("{agent} chose {mv}, which is not legal here: {reason}")]
    IllegalMove {
        /// The agent's name.
        agent: String,
        /// The move, as the game prints it.
        mv: String,
        /// Why the rules refuse it.
        reason: String,
    },
    /// The agent gave no move although the game goes on.
    #[error("{agent} gave no move in a game that is not over")]
    NoMove {
        /// The agent's name.
        agent: String,
    },
    /// The game is over: there is no move to ask for.
    #[error("the game is over")]
    GameOver,
}

/// Asks `agent` for its move in `pos` within `limits` and checks the answer against the
/// rules. This is the one place an agent's move is checked: the protocols, matches and the
/// front ends all play agents' moves through it, and a broken answer is an error for the
/// caller to report — never replaced by some other move.
pub fn think_checked<P: Position>(
    agent: &mut dyn Agent<P>,
    pos: &P,
    limits: &Limits,
    report: &mut dyn FnMut(&IterationReport<P::Move>),
) -> Result<(P::Move, SearchResult<P::Move>), AgentError> {
    if pos.outcome().is_some() {
        return Err(AgentError::GameOver);
    }
    let result = agent.think(pos, limits, report);
    let Some(mv) = result.best_move else {
        return Err(AgentError::NoMove {
            agent: agent.name().to_string(),
        });
    };
    match pos.validate(&mv) {
        Ok(()) => Ok((mv, result)),
        Err(e) => Err(AgentError::IllegalMove {
            agent: agent.name().to_string(),
            mv: pos.format_move(mv),
            reason: e.to_string(),
        }),
    }
}

/// Which player to build, as named on command lines (`engine`, `baseline`, `random`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    /// The game's strong engine.
    Engine,
    /// The source article's simple fixed-depth AI.
    Baseline,
    /// A seeded uniformly random player.
    Random,
}

impl AgentKind {
    /// Every kind, in the order command lines list them.
    pub const ALL: [AgentKind; 3] = [AgentKind::Engine, AgentKind::Baseline, AgentKind::Random];
}

impl fmt::Display for AgentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AgentKind::Engine => "engine",
            AgentKind::Baseline => "baseline",
            AgentKind::Random => "random",
        })
    }
}

/// An unknown player name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player '{0}': expected engine, baseline or random")]
pub struct UnknownAgent(pub String);

impl FromStr for AgentKind {
    type Err = UnknownAgent;
    fn from_str(s: &str) -> Result<AgentKind, UnknownAgent> {
        AgentKind::ALL
            .into_iter()
            .find(|k| k.to_string().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownAgent(s.chars().take(32).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_kinds_parse_their_own_names_in_any_case() {
        for kind in AgentKind::ALL {
            assert_eq!(kind.to_string().parse::<AgentKind>(), Ok(kind));
            assert_eq!(
                kind.to_string().to_uppercase().parse::<AgentKind>(),
                Ok(kind)
            );
        }
        assert_eq!(
            "grandmaster".parse::<AgentKind>(),
            Err(UnknownAgent("grandmaster".into()))
        );
    }
}
