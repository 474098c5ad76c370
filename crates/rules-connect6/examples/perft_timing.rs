//! Times connect6 perft on 19×19 (wall and CPU time of this process):
//!
//! ```text
//! cargo run --release -p rules-connect6 --example perft_timing [-- <moves...>]
//! ```
//!
//! Plays the given moves (`j10 k11,k9 ...`) from the start, then prints perft(2..=DEPTH)
//! (env `DEPTH`, default 3; beware: perft(3) past the opening is ~4·10⁹ make/unmakes) and,
//! unless `GEN=0`, perft(2) with every leaf move generated instead of counted.
use std::time::Instant;

use board_core::{Notation, Position, Rules, perft};
use rules_connect6::{Connect6Config, Connect6Position};

fn cpu_time() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let mut pos = Connect6Position::new(Connect6Config::default());
    let args: Vec<String> = std::env::args().skip(1).collect();
    let max_depth: u32 = std::env::var("DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(3);
    let moves = args;
    for m in &moves {
        let mv = pos.parse_legal_move(m).expect("legal move");
        pos.make_move(mv);
    }
    for depth in 2..=max_depth {
        let (t0, c0) = (Instant::now(), cpu_time());
        let n = perft(&mut pos, depth);
        let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_time() - c0);
        println!("perft({depth}) = {n}  wall {wall:.3}s  cpu {cpu:.2}s");
    }
    if std::env::var("GEN").is_ok_and(|g| g == "0") {
        return;
    }
    let (t0, c0) = (Instant::now(), cpu_time());
    let mut root = Vec::new();
    let mut leaves = Vec::new();
    pos.generate_moves(&mut root);
    let mut total = 0u64;
    for &m in &root {
        let undo = pos.make_move(m);
        pos.generate_moves(&mut leaves);
        total += leaves.len() as u64;
        pos.unmake_move(m, undo);
    }
    println!(
        "perft(2) generating the last ply = {total}  wall {:.3}s  cpu {:.2}s",
        t0.elapsed().as_secs_f64(),
        cpu_time() - c0
    );
}
