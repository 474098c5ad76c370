//! Building a position from a spec string and a move list, generically for any game.

use board_core::{GameConfig as _, GameSpec, Position};

use crate::cli_error::CliError;

/// The rules named by `spec`, parsed once by the caller (whose id has already picked `P`).
pub fn config<P: Position>(spec: &GameSpec) -> Result<P::Config, CliError> {
    P::Config::from_spec(spec).map_err(CliError::Spec)
}

/// The start position of `spec` with `moves` (whitespace-separated, canonical notation)
/// played through validation; an error names the move, its number and the reason.
pub fn position<P: Position>(spec: &GameSpec, moves: &str) -> Result<P, CliError> {
    let mut pos = P::new(config::<P>(spec)?);
    for (i, text) in moves.split_whitespace().enumerate() {
        let mv = pos
            .parse_legal_move(text)
            .map_err(|e| CliError::usage(format!("move {} '{}': {e}", i + 1, short(text))))?;
        pos.make_move(mv);
    }
    Ok(pos)
}

/// Quotes at most 32 characters of user text in an error.
pub fn short(text: &str) -> String {
    text.chars().take(32).collect()
}
