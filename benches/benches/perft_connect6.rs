//! Connect6 perft benchmarks, node counts asserted.
//!
//! - `perft2_19x19`: perft(2) from the 19×19 start, the last ply counted in closed form.
//! - `perft2_19x19_generate`: the same 23,327,820 leaves, but every leaf move is generated
//!   into a reused `Vec` (the move generator's speed).
//! - `perft3_19x19`: 23 million make/unmake pairs at the second ply, the third counted in
//!   closed form (no player can have six stones yet, so no line is tested).
//! - `perft2_19x19_midgame`: 61,075 make/unmake pairs, each testing the lines through both
//!   new stones for a six.
//! - `perft4_6x6_late`: a crowded 6×6 position walked to depth 4 (wins and the
//!   single-last-stone rule in the tree).

use board_core::{Notation, Position, Rules, perft};
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

/// Six moves in: White has k9-k12, Black g10 h10 j10 l10 h11; no six is reachable in two
/// moves, so perft(2) = C(350,2)·C(348,2).
const MIDGAME: [&str; 6] = ["j10", "k11,k9", "h10,l10", "j12,j8", "g10,h11", "k10,k12"];

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
    let mut mid = start19();
    for m in MIDGAME {
        let mv = mid.parse_legal_move(m).expect("legal move");
        mid.make_move(mv);
    }
    group.bench_function("perft2_19x19_midgame", |b| {
        b.iter(|| assert_eq!(perft(&mut mid, 2), 3_687_586_350))
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
