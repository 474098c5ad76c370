//! Connect6 perft benchmarks, node counts asserted.
//!
//! - `perft2_19x19`: perft(2) from the 19×19 start, the last ply counted in closed form.
//! - `perft2_19x19_generate`: the same 23,327,820 leaves, but every leaf move is generated
//!   into a reused `Vec` (the move generator's speed).
//! - `perft3_19x19`: 23 million make/unmake pairs (with line-scan win detection) at the
//!   second ply, the third counted in closed form.
//! - `perft4_6x6_late`: a crowded 6×6 position walked to depth 4 (wins and the
//!   single-last-stone rule in the tree).

use board_core::{Position, perft};
use criterion::{Criterion, criterion_group, criterion_main};
use rules_connect6::{Connect6Config, Connect6Position};

fn start19() -> Connect6Position {
    Connect6Position::new(Connect6Config::default())
}

/// perft(2) with full generation at the last ply.
fn perft2_generated(pos: &mut Connect6Position) -> u64 {
    let mut root = Vec::new();
    let mut leaves = Vec::new();
    pos.generate_moves(&mut root);
    let mut total = 0;
    for &m in &root {
        let undo = pos.make_move(m);
        pos.generate_moves(&mut leaves);
        total += leaves.len() as u64;
        pos.unmake_move(m, undo);
    }
    total
}

const LATE_6X6: &str = "1oo1o1/1xxxox/xxoxox/xoo1oo/o1xox1/1xx3 o 13";

fn benches(c: &mut Criterion) {
    let mut pos = start19();
    assert_eq!(perft(&mut pos, 2), 23_327_820);
    assert_eq!(perft2_generated(&mut pos), 23_327_820);
    c.bench_function("connect6/perft2_19x19", |b| {
        b.iter(|| assert_eq!(perft(&mut pos, 2), 23_327_820))
    });

    let mut group = c.benchmark_group("connect6");
    group.sample_size(10);
    group.bench_function("perft2_19x19_generate", |b| {
        b.iter(|| assert_eq!(perft2_generated(&mut pos), 23_327_820))
    });
    group.bench_function("perft3_19x19", |b| {
        b.iter(|| assert_eq!(perft(&mut pos, 3), 1_490_717_681_460))
    });
    let config = Connect6Config::new(6).expect("6 is a legal size");
    let mut late =
        Connect6Position::from_position_string(config, LATE_6X6).expect("valid position string");
    group.bench_function("perft4_6x6_late", |b| {
        b.iter(|| assert_eq!(perft(&mut late, 4), PERFT4_6X6_LATE))
    });
    group.finish();
}

const PERFT4_6X6_LATE: u64 = 405_720;

criterion_group!(perft_connect6, benches);
criterion_main!(perft_connect6);
