//! Per-game statistics the source articles use to judge a rule set's balance.

use board_core::{Outcome, Position, Rules};

use crate::game::GameRecord;

/// Game-specific statistics of a finished game, as `(name, value)` pairs; averaged over a
/// tournament. Default: none.
pub trait BalanceStats: Position {
    /// The named figures of one finished game (empty by default); a tournament averages
    /// each name over its games.
    fn balance_stats(record: &GameRecord<Self>) -> Vec<(&'static str, f64)> {
        let _ = record;
        Vec::new()
    }
}

impl BalanceStats for rules_gomoku::GomokuPosition {}
impl BalanceStats for rules_connect6::Connect6Position {}

/// Amazons: how many moves the game lasted.
impl BalanceStats for rules_amazons::AmazonsPosition {
    fn balance_stats(record: &GameRecord<Self>) -> Vec<(&'static str, f64)> {
        vec![("moves_to_end", record.moves.len() as f64)]
    }
}

/// Fourshift: whether a win came during the placing phase (the last placement included).
impl BalanceStats for rules_fourshift::Fourshift {
    fn balance_stats(record: &GameRecord<Self>) -> Vec<(&'static str, f64)> {
        let placing = record.moves.len() as u32 <= record.config.placing_plies();
        let decided = matches!(record.outcome, Outcome::Win(_)) && placing;
        vec![("decided_in_placing", f64::from(u8::from(decided)))]
    }
}

/// Clamp: pieces captured in the game (both sides).
impl BalanceStats for rules_clamp::ClampPosition {
    fn balance_stats(record: &GameRecord<Self>) -> Vec<(&'static str, f64)> {
        let mut pos = Self::new(record.config);
        let mut captures = 0u32;
        for &mv in &record.moves {
            let victim = pos.side_to_move().other();
            let before = pos.piece_count(victim);
            pos.make_move(mv);
            captures += before.saturating_sub(pos.piece_count(victim));
        }
        vec![("captures", f64::from(captures))]
    }
}
