//! `perft` and `show`: generic over the game, instantiated by `with_game!`.

use std::time::Instant;

use board_core::{Position, divide, perft};

use crate::{cli_error::CliError, setup};

/// Deepest perft accepted: deeper searches would not finish on any game here.
pub const MAX_PERFT_DEPTH: u32 = 32;

pub fn run_perft<P: Position>(
    spec: &str,
    depth: u32,
    moves: &str,
    show_divide: bool,
) -> Result<(), CliError> {
    let mut pos = setup::position::<P>(spec, moves)?;
    let start = Instant::now();
    let total = if show_divide {
        let rows = divide(&mut pos, depth);
        for (mv, n) in &rows {
            println!("{} {n}", pos.format_move(*mv));
        }
        if depth == 0 { 1 } else { rows.iter().map(|(_, n)| n).sum() }
    } else {
        perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft({depth}) = {total} in {secs:.3} s ({:.0} leaves/s)",
        total as f64 / secs.max(1e-9)
    );
    println!("{total}");
    Ok(())
}

pub fn run_show<P: Position>(spec: &str, moves: &str) -> Result<(), CliError> {
    let pos = setup::position::<P>(spec, moves)?;
    print!("{}", pos.diagram());
    println!("game: {}", pos.config());
    println!("position: {}", pos.to_position_string());
    println!("to move: {}", pos.player_name(pos.side_to_move()));
    println!("ply: {}", pos.ply());
    println!("hash: {:016x}", pos.hash());
    match pos.outcome_reason() {
        Some(reason) => println!("result: {reason}"),
        None => println!("result: ongoing"),
    }
    Ok(())
}
