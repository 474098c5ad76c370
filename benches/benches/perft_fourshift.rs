//! Perft for fourshift (default 6×6 rules): the start (all placements: make/unmake plus bulk
//! counting of empty squares), a position late in placement whose tree crosses into the
//! moving phase, and a moving-phase position (shift generation and the win test after each
//! shift). Every node count is asserted before timing; the figures are cross-checked against
//! the naive reference in `crates/rules-fourshift/tests/reference.rs`.

use std::hint::black_box;

use board_core::{Position, perft};
use criterion::{Criterion, criterion_group, criterion_main};
use rules_fourshift::{Fourshift, FourshiftConfig};

/// (name, position string, depth, nodes)
const CASES: &[(&str, &str, u32, u64)] = &[
    ("start d4", "6/6/6/6/6/6 x 8 8 0", 4, 1_413_720),
    ("start d5", "6/6/6/6/6/6 x 8 8 0", 5, 45_239_040),
    (
        "late placement d5",
        "1OX2X/1OO2O/4X1/4X1/O2X1X/1XOO2 x 1 1 14",
        5,
        1_594_261,
    ),
    (
        "moving phase d5",
        "OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21",
        5,
        1_060_276,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft_fourshift");
    group.sample_size(10);
    for &(name, text, depth, nodes) in CASES {
        let mut pos = Fourshift::from_position_string(FourshiftConfig::default(), text)
            .expect("valid position string");
        assert_eq!(perft(&mut pos, depth), nodes, "{name}");
        group.bench_function(name, |b| {
            b.iter(|| perft(black_box(&mut pos), black_box(depth)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
