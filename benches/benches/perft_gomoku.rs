//! Perft for gomoku: the 15x15 and 20x20 starts (where perft is all make/unmake and bulk
//! counting) and positions near a win (where the win test after each move matters).
//! Every node count is asserted before timing.

use std::hint::black_box;

use board_core::{Notation, Position, Rules, perft};
use criterion::{Criterion, criterion_group, criterion_main};
use rules_gomoku::{GomokuConfig, GomokuPosition};

fn position(spec: &str, moves: &str) -> GomokuPosition {
    let config: GomokuConfig = spec.parse().expect("valid spec");
    let mut pos = GomokuPosition::new(config);
    for text in moves.split_whitespace() {
        let mv = pos.parse_legal_move(text).expect("legal move");
        pos.make_move(mv);
    }
    pos
}

/// (name, spec, moves, depth, nodes)
const CASES: &[(&str, &str, &str, u32, u64)] = &[
    ("15x15 start d3", "gomoku", "", 3, 11_239_200),
    ("15x15 start d4", "gomoku", "", 4, 2_495_102_400),
    ("20x20 start d3", "gomoku:size=20", "", 3, 63_520_800),
    (
        "15x15 open four d3",
        "gomoku",
        "h8 a1 i8 a2 j8 a3 k8",
        3,
        10_124_352,
    ),
    (
        "9x9 exact5 five-or-overline d4",
        "gomoku:size=9,rule=exact5",
        "a1 i9 b2 i8 c3 i7 d4 i6 a5 h9 b5 h8 c5 h7 d5 h6 f5 g9",
        4,
        13_406_460,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft_gomoku");
    group.sample_size(10);
    for &(name, spec, moves, depth, nodes) in CASES {
        let mut pos = position(spec, moves);
        assert_eq!(perft(&mut pos, depth), nodes, "{name}");
        group.bench_function(name, |b| {
            b.iter(|| perft(black_box(&mut pos), black_box(depth)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
