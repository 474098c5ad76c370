//! Amazons perft with bulk counting at the last ply, with asserted node counts:
//! `cargo bench -p boardlab-benches --bench perft_amazons`.

use std::hint::black_box;

use board_core::{Position, perft};
use criterion::{Criterion, criterion_group, criterion_main};
use rules_amazons::{AmazonsConfig, AmazonsPosition};

fn position(config: AmazonsConfig, text: Option<&str>) -> AmazonsPosition {
    match text {
        Some(text) => AmazonsPosition::from_position_string(config, text)
            .expect("the bench positions are valid"),
        None => AmazonsPosition::new(config),
    }
}

fn bench_perft(c: &mut Criterion) {
    // (name, config, position string or start, depth, node count)
    let cases: [(&str, AmazonsConfig, Option<&str>, u32, u64); 4] = [
        (
            "amazons 10x10 start perft(2)",
            AmazonsConfig::STANDARD,
            None,
            2,
            4_307_152,
        ),
        (
            "amazons 8x8 start perft(2)",
            AmazonsConfig::SMALL,
            None,
            2,
            1_331_198,
        ),
        (
            "amazons 10x10 ply 40 perft(3)",
            AmazonsConfig::STANDARD,
            Some(
                "w1xbbwx3/1xx1xxw2x/2xxxxxx1x/xx3x4/x1x2x1xxx/x1w1x2xx1/b1x2x1x1b/x1xx3x2/1x3xxx2/4x4x w 40",
            ),
            3,
            401_313,
        ),
        (
            "amazons 10x10 ply 12 perft(2)",
            AmazonsConfig::STANDARD,
            Some("8x1/2b3w3/1xx3b3/2xw6/8b1/3b6/2xw1xx1x1/1wx5xx/x9/10 w 12"),
            2,
            1_154_181,
        ),
    ];
    let mut group = c.benchmark_group("perft_amazons");
    group.sample_size(10);
    for (name, config, text, depth, nodes) in cases {
        let mut pos = position(config, text);
        assert_eq!(perft(&mut pos, depth), nodes, "{name}");
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(perft(black_box(&mut pos), depth), nodes))
        });
    }
    group.finish();

    // The headline figure: about a second per iteration, so only ten of them.
    let mut slow = c.benchmark_group("perft_amazons_slow");
    slow.sample_size(10);
    let mut pos = AmazonsPosition::new(AmazonsConfig::STANDARD);
    slow.bench_function("amazons 10x10 start perft(3)", |b| {
        b.iter(|| assert_eq!(perft(black_box(&mut pos), 3), 8_350_439_170))
    });
    slow.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
