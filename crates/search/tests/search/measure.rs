//! Measurements, not tests: run by hand with
//! `cargo test -p boardlab-search --release --test search measure -- --ignored --nocapture --test-threads 1`.

use board_core::Rules as _;
use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    thread,
    time::{Duration, Instant},
};

use board_core::Position;
use boardlab_search::{Limits, SearchOptions, Searcher, ttd};

use crate::games::{TicTacToe, TicTacToeConfig, Tree, TreeEval, ttt_eval};

fn big(seed: u32) -> Tree {
    let mut pos = Tree::with(seed, 24);
    crate::games::random_walk(&mut pos, u64::from(seed), 2);
    pos
}

#[test]
#[ignore]
fn measure_overshoot_and_stop_latency() {
    let opts = SearchOptions::default();
    let mut worst = Duration::ZERO;
    for (i, ms) in [20u64, 50, 100, 200]
        .into_iter()
        .cycle()
        .take(16)
        .enumerate()
    {
        let threads = 1 + i % 2;
        let mut s = Searcher::new(
            TreeEval::default(),
            opts.clone().with_threads(threads).unwrap(),
        )
        .unwrap();
        let t = Instant::now();
        s.search_with(
            &big(i as u32),
            &Limits::new().with_hard_time(Duration::from_millis(ms)),
            |_| {},
        );
        let over = t.elapsed().saturating_sub(Duration::from_millis(ms));
        worst = worst.max(over);
        println!("hard {ms} ms, {threads} thread(s): overshoot {over:?}");
    }
    println!("worst hard-limit overshoot: {worst:?}");
    let mut worst = Duration::ZERO;
    for i in 0..8 {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let raiser = thread::spawn(move || {
            thread::sleep(Duration::from_millis(60));
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let mut s = Searcher::new(
            TreeEval::default(),
            opts.clone().with_threads(1 + i % 2).unwrap(),
        )
        .unwrap();
        s.search_with(&big(i as u32), &Limits::new().with_stop_flag(stop), |_| {});
        let latency = Instant::now() - raiser.join().unwrap();
        worst = worst.max(latency);
    }
    println!("worst stop-flag latency: {worst:?}");
}

#[test]
#[ignore]
fn measure_nps_and_ordering() {
    let mut s = Searcher::new(TreeEval::default(), SearchOptions::default()).unwrap();
    let pos = big(1);
    let r = s.search_with(&pos, &Limits::new().with_depth(6), |it| {
        println!("{}", it.info_line(&pos))
    });
    let st = &r.stats;
    println!(
        "tree d6: {} nodes, {} nps, tt hit {:.2}, first-move cutoffs {:.2}, pvs re-searches {}, aspiration re-searches {}",
        st.nodes,
        st.nps,
        st.tt_hit_rate(),
        st.first_move_cutoff_rate(),
        st.pvs_researches,
        st.aspiration_researches
    );
    let mut s = Searcher::new(ttt_eval, SearchOptions::default()).unwrap();
    let r = s.search_with(
        &TicTacToe::new(TicTacToeConfig::default()),
        &Limits::new().with_depth(9),
        |_| {},
    );
    println!(
        "tic-tac-toe solve: {} nodes (minimax: 549946), {} nps, first-move cutoffs {:.2}",
        r.stats.nodes,
        r.stats.nps,
        r.stats.first_move_cutoff_rate()
    );
    // Node counts of the configurations at one depth.
    for (name, opts) in crate::differential::configs() {
        let mut s = Searcher::new(TreeEval::default(), opts.with_hash_mb(16).unwrap()).unwrap();
        let r = s.search_with(&big(2), &Limits::new().with_depth(5), |_| {});
        println!("{name:>28}: {:>9} nodes at depth 5", r.stats.nodes);
    }
}

#[test]
#[ignore]
fn measure_smp_time_to_depth() {
    let positions: Vec<Tree> = (0..8).map(big).collect();
    let depth = 7;
    let opts = SearchOptions::default().with_hash_mb(64).unwrap();
    let mut one = Searcher::new(TreeEval::default(), opts.clone()).unwrap();
    let mut two = Searcher::new(TreeEval::default(), opts.with_threads(2).unwrap()).unwrap();
    let base = ttd::time_to_depth(&mut one, &positions, depth);
    let smp = ttd::time_to_depth(&mut two, &positions, depth);
    for d in 4..=depth {
        let total = |runs: &[Vec<ttd::DepthTime>]| -> Duration {
            runs.iter()
                .filter_map(|r| r.iter().find(|x| x.depth == d))
                .map(|x| x.time)
                .sum()
        };
        let nodes = |runs: &[Vec<ttd::DepthTime>]| -> u64 {
            runs.iter()
                .filter_map(|r| r.iter().find(|x| x.depth == d))
                .map(|x| x.nodes)
                .sum()
        };
        // On a loaded machine the node counts say more than the clock: with 2 threads each
        // did about half of the nodes.
        println!(
            "depth {d}: 1 thread {:?} {} nodes, 2 threads {:?} {} nodes (per thread {:.2} of 1-thread), speed-up (geometric mean) {:.2}",
            total(&base),
            nodes(&base),
            total(&smp),
            nodes(&smp),
            nodes(&smp) as f64 / 2.0 / nodes(&base) as f64,
            ttd::speedup(&base, &smp, d).unwrap_or(f64::NAN)
        );
    }
    let _ = positions[0].hash();
}
