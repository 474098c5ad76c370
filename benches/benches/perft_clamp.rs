//! Clamp perft with asserted node counts (figures cross-checked against the naive
//! reference in `crates/rules-clamp/tests`):
//! `cargo bench -p boardlab-benches --bench perft_clamp`.
//!
//! The `perft` cases count the last ply with `count_moves` (16 shift-and-popcounts); the
//! `make/unmake` case plays every leaf move, which is what a search pays per node.

use std::hint::black_box;

use board_core::{Position, Rules, perft};
use criterion::{Criterion, criterion_group, criterion_main};
use rules_clamp::{ClampConfig, ClampPosition};

fn position(spec: &str, text: Option<&str>) -> ClampPosition {
    let config: ClampConfig = spec.parse().expect("the bench specs are valid");
    match text {
        Some(text) => ClampPosition::from_position_string(config, text)
            .expect("the bench positions are valid"),
        None => ClampPosition::new(config),
    }
}

/// Perft that makes and unmakes every move, leaves included (no bulk counting).
fn perft_full(pos: &mut ClampPosition, depth: u32, buffers: &mut [Vec<rules_clamp::Move>]) -> u64 {
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

fn bench_perft(c: &mut Criterion) {
    // (name, spec, position string or start, depth, node count)
    let cases: [(&str, &str, Option<&str>, u32, u64); 3] = [
        ("clamp 8x8 start perft(4)", "clamp", None, 4, 25_655_092),
        (
            "clamp 8x8 ply 90 perft(4)",
            "clamp",
            Some("X4XXX/XX6/6XX/X3O3/O4O2/O1O5/5O1O/5OO1 x 1 90"),
            4,
            35_201_360,
        ),
        (
            "clamp 6x6 start perft(4)",
            "clamp:size=6",
            None,
            4,
            3_451_756,
        ),
    ];
    let mut group = c.benchmark_group("perft_clamp");
    group.sample_size(10);
    for (name, spec, text, depth, nodes) in cases {
        let mut pos = position(spec, text);
        assert_eq!(perft(&mut pos, depth), nodes, "{name}");
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(perft(black_box(&mut pos), depth), nodes))
        });
    }
    let mut pos = position("clamp", None);
    let mut buffers = vec![Vec::new(); 3];
    assert_eq!(perft_full(&mut pos, 3, &mut buffers), 363_710);
    group.bench_function("clamp 8x8 start perft(3) make/unmake every leaf", |b| {
        b.iter(|| assert_eq!(perft_full(black_box(&mut pos), 3, &mut buffers), 363_710))
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
