//! `think_checked`: the one place an agent's move is checked against the rules.

use board_core::{Notation, Rules};
use boardlab_search::{
    Agent, AgentError, IterationReport, Limits, RandomAgent, Score, SearchResult, SearchStats,
    StopReason, think_checked,
};

use crate::games::TicTacToe;

/// A broken player: answers the same move (or none) whatever the position.
struct Stubborn(Option<u8>);

impl Agent<TicTacToe> for Stubborn {
    fn name(&self) -> &str {
        "stubborn"
    }

    fn think(
        &mut self,
        _pos: &TicTacToe,
        _limits: &Limits,
        _report: &mut dyn FnMut(&IterationReport<u8>),
    ) -> SearchResult<u8> {
        SearchResult {
            best_move: self.0,
            score: Score::DRAW,
            depth: 0,
            pv: Vec::new(),
            stop_reason: StopReason::Depth,
            stats: SearchStats::default(),
            iterations: Vec::new(),
        }
    }
}

#[test]
fn a_checked_move_is_the_agents_own_legal_move() {
    let pos = TicTacToe::from_cells("xo.......");
    let mut agent = RandomAgent::new(3);
    let (mv, result) = think_checked(&mut agent, &pos, &Limits::new(), &mut |_| {}).unwrap();
    assert_eq!(result.best_move, Some(mv));
    assert!(pos.validate(&mv).is_ok());
}

#[test]
fn an_illegal_move_is_an_error_naming_the_agent_and_the_move() {
    let pos = TicTacToe::from_cells("xo.......");
    let answer = think_checked(&mut Stubborn(Some(1)), &pos, &Limits::new(), &mut |_| {});
    match answer {
        Err(AgentError::IllegalMove { agent, mv, .. }) => {
            assert_eq!(agent, "stubborn");
            assert_eq!(mv, pos.format_move(1));
        }
        other => panic!("expected an illegal-move error, got {other:?}"),
    }
}

#[test]
fn no_move_in_a_live_game_is_an_error() {
    let pos = TicTacToe::from_cells("xo.......");
    let answer = think_checked(&mut Stubborn(None), &pos, &Limits::new(), &mut |_| {});
    assert_eq!(
        answer.unwrap_err(),
        AgentError::NoMove {
            agent: "stubborn".into()
        }
    );
}

#[test]
fn a_finished_game_has_no_move_to_ask_for() {
    let pos = TicTacToe::from_cells("xxxoo....");
    assert!(pos.outcome().is_some());
    let answer = think_checked(&mut Stubborn(Some(5)), &pos, &Limits::new(), &mut |_| {});
    assert_eq!(answer.unwrap_err(), AgentError::GameOver);
}
