//! Search speed: the engine of every game on its `boardlab bench` positions at a fixed depth
//! (one thread, fresh 16 MiB table per search), so a change in nodes per second shows up as a
//! change in time here while `boardlab bench` pins the node count.

use std::hint::black_box;

use board_core::Position;
use boardlab_games::{Game, GameId, with_game};
use criterion::{Criterion, criterion_group, criterion_main};
use search::{AgentKind, Limits, SearchOptions};

fn position<P: Position>(spec: &str, moves: &str) -> P {
    let mut pos = P::new(
        spec.parse()
            .unwrap_or_else(|_| panic!("bad bench spec {spec}")),
    );
    for text in moves.split_whitespace() {
        let mv = pos.parse_legal_move(text).expect("bench moves are legal");
        pos.make_move(mv);
    }
    pos
}

fn bench_game<P: Game>(c: &mut Criterion) {
    let name = <P::Config as board_core::GameConfig>::GAME_ID;
    let positions = P::BENCH_POSITIONS;
    // One ply shallower than `boardlab bench`, to keep the whole run to a few minutes.
    let depth = P::BENCH_DEPTH.saturating_sub(1).max(1);
    let mut group = c.benchmark_group(format!("search_{name}"));
    group.sample_size(10);
    for (i, (spec, moves)) in positions.iter().enumerate() {
        let pos: P = position(spec, moves);
        group.bench_function(format!("{i}_depth{depth}"), |b| {
            b.iter(|| {
                let options = SearchOptions::default()
                    .with_hash_mb(16)
                    .and_then(|o| o.with_threads(1))
                    .expect("valid options");
                let mut engine = P::player(AgentKind::Engine, options).expect("engine builds");
                let result = engine.think(&pos, &Limits::new().with_depth(depth), &mut |_| {});
                black_box(result.stats.nodes)
            })
        });
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    for &id in GameId::ALL {
        with_game!(id, bench_game(c));
    }
}

criterion_group!(benches, search);
criterion_main!(benches);
