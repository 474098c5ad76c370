//! What the page is sent of a game: the host's [`Status`] for this follower with the
//! board drawn from the typed position ([`BoardView`]), a resignation or agreed draw
//! included in its outcome.

use boardlab_host::{
    Held, HostError, Table,
    table::{Ended, Status},
};
use serde::Serialize;

use crate::view::{BoardView, OutcomeView};

/// Everything the page shows of a game, for one follower.
#[derive(Clone, Debug, Serialize)]
pub struct GameState {
    /// The host's state of the game for this follower.
    #[serde(flatten)]
    pub status: Status,
    /// The board now, with the outcome (a resignation or agreed draw included).
    pub view: BoardView,
}

/// The state of game `id` for a follower holding `held` (`owner`: the creator's token).
pub fn game_state(table: &Table, id: u64, held: Held, owner: bool) -> Result<GameState, HostError> {
    let status = table.state_for(id, held, owner)?;
    let game = table.game(id)?.erased();
    // The mover's status lists the legal moves already; others count them here.
    let legal = status
        .legal
        .as_ref()
        .map(Vec::len)
        .or_else(|| game.lists_moves().then(|| game.legal_moves().len()));
    let mut view = BoardView::of(game.ply_view(), &|p| game.player_name(p)).with_record(
        &game.spec(),
        &game.played(),
        game.ply_count(),
        legal,
    );
    if let Some(Ended {
        winner,
        reason,
        by_players: true,
        ..
    }) = &status.ended
    {
        view.outcome = Some(OutcomeView {
            winner: winner.map(|p| p.index() as u8),
            reason: reason.clone(),
            line: Vec::new(),
        });
    }
    Ok(GameState { status, view })
}

/// The board of game `id` after its first `ply` moves (replay).
pub fn board_at(table: &Table, id: u64, ply: usize) -> Result<BoardView, HostError> {
    table.check_ply(id, ply)?;
    let game = table.game(id)?.erased();
    let at = game.view_at(ply).ok_or(HostError::PastTheEnd {
        id,
        moves: game.ply_count(),
    })?;
    Ok(BoardView::of(at, &|p| game.player_name(p)).with_record(
        &game.spec(),
        &game.played(),
        ply,
        None,
    ))
}
