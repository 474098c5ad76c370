//! Perft speed from a position:
//! `cargo run --release -p rules-clamp --example clamp_perft -- [spec] [depth] [position] [--full]`
//! (`--full` makes and unmakes every leaf move instead of counting the last ply).

use std::time::Instant;

use board_core::{Position, Rules, perft};
use rules_clamp::{ClampConfig, ClampPosition, Move};

fn perft_full(pos: &mut ClampPosition, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 0;
    };
    pos.generate_moves(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        total += perft_full(pos, depth - 1, rest);
        pos.unmake_move(mv, undo);
    }
    total
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--full");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--full").collect();
    let config: ClampConfig = rest.first().map_or("clamp", |s| s.as_str()).parse()?;
    let depth: u32 = rest.get(1).map_or(Ok(5), |s| s.parse())?;
    let mut pos = match rest.get(2) {
        Some(s) => ClampPosition::from_position_string(config, s)?,
        None => ClampPosition::new(config),
    };
    let t = Instant::now();
    let nodes = if full {
        let mut buffers = vec![Vec::new(); depth as usize];
        perft_full(&mut pos, depth, &mut buffers)
    } else {
        perft(&mut pos, depth)
    };
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{config} perft({depth}){} = {nodes} in {secs:.3} s: {:.1} M nodes/s",
        if full { " make/unmake" } else { "" },
        nodes as f64 / secs / 1e6
    );
    Ok(())
}
