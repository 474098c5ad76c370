//! Times perft from the start position (or a position string):
//!
//! ```text
//! cargo run --release -p rules-amazons --example perft -- [depth] [size] ["position string"]
//! ```
//!
//! Prints the count, the wall time and (on Linux) the CPU time of the thread, which is the
//! fairer figure on a busy machine.

use std::time::Instant;

use board_core::{Position, perft};
use rules_amazons::{AmazonsConfig, AmazonsPosition};

/// Nanoseconds this thread has run on a CPU (Linux), if known.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(3);
    let size: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let Ok(config) = AmazonsConfig::new(size) else {
        eprintln!("size must be 8 or 10");
        std::process::exit(2);
    };
    let mut pos = match args.get(2) {
        Some(text) => match AmazonsPosition::from_position_string(config, text) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
        None => AmazonsPosition::new(config),
    };
    let cpu = thread_cpu_ns();
    let t = Instant::now();
    let n = perft(&mut pos, depth);
    let wall = t.elapsed().as_secs_f64();
    let cpu = cpu
        .zip(thread_cpu_ns())
        .map(|(a, b)| format!(", cpu {:.3} s", (b - a) as f64 / 1e9))
        .unwrap_or_default();
    println!(
        "perft({depth}) = {n}: wall {wall:.3} s{cpu} ({:.0} M/s)",
        n as f64 / wall / 1e6
    );
}
