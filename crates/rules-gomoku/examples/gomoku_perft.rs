//! Times perft from a gomoku position:
//! `cargo run --release -p rules-gomoku --example gomoku_perft -- <spec> <depth> [moves...]`,
//! e.g. `-- gomoku 4` or `-- gomoku:size=20 3 j10 k11`.

use std::time::Instant;

use board_core::{Notation, Position, Rules, perft};
use rules_gomoku::{GomokuConfig, GomokuPosition};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args.first().map_or("gomoku", String::as_str);
    let depth: u32 = match args.get(1) {
        Some(d) => d.parse().map_err(|_| format!("bad depth '{d}'"))?,
        None => 3,
    };
    let config: GomokuConfig = spec.parse().map_err(|e| format!("{e}"))?;
    let mut pos = GomokuPosition::new(config);
    for text in args.iter().skip(2) {
        let mv = pos
            .parse_legal_move(text)
            .map_err(|e| format!("{text}: {e}"))?;
        pos.make_move(mv);
    }
    let start = Instant::now();
    let nodes = perft(&mut pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} perft({depth}) = {nodes} in {secs:.3} s: {:.1} M leaves/s",
        pos.config(),
        nodes as f64 / secs / 1e6
    );
    Ok(())
}
