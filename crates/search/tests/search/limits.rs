//! Limits, the stop flag, reports and the searcher's lifecycle. Timing asserts have wide
//! margins (the machine is shared); none is a performance test.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    thread,
    time::{Duration, Instant},
};

use board_core::{Outcome, Rules};
use boardlab_search::{Evaluator, Limits, Score, SearchOptions, Searcher, StopReason, TimeControl};

use crate::games::{TicTacToe, Tree, TreeEval, ttt_eval};

/// A tree far too big to finish, with no game end right at the root.
fn big() -> Tree {
    (7..)
        .map(|seed| Tree::with(seed, 24))
        .find(|pos| {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            moves.len() >= 12
                && !boardlab_search::reference::minimax(&TreeEval::default(), pos, 4, false)
                    .is_decisive()
        })
        .expect("some seed")
}

fn searcher(threads: usize) -> Searcher<Tree, TreeEval> {
    let opts = SearchOptions::default()
        .with_hash_mb(4)
        .and_then(|o| o.with_threads(threads))
        .expect("in range");
    Searcher::new(TreeEval::default(), opts).expect("valid options")
}

const MARGIN: Duration = Duration::from_millis(250);

#[test]
fn stop_flag_raised_before_the_search() {
    let pos = big();
    let stop = Arc::new(AtomicBool::new(true));
    let t = Instant::now();
    let r = searcher(1).search_with(&pos, &Limits::new().with_stop_flag(stop), |_| {});
    assert!(t.elapsed() < MARGIN);
    assert_eq!(r.stop_reason, StopReason::Stopped);
    assert_eq!(r.depth, 0);
    assert!(pos.validate(&r.best_move.unwrap()).is_ok());
    assert_eq!(r.pv, vec![r.best_move.unwrap()]);
}

#[test]
fn stop_flag_from_another_thread() {
    for threads in [1, 2] {
        let pos = big();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let raiser = thread::spawn(move || {
            thread::sleep(Duration::from_millis(150));
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let r = searcher(threads).search_with(&pos, &Limits::new().with_stop_flag(stop), |_| {});
        let done = Instant::now();
        let raised = raiser.join().unwrap();
        assert!(done >= raised);
        assert!(done - raised < MARGIN, "{:?} after the flag", done - raised);
        assert_eq!(r.stop_reason, StopReason::Stopped);
        assert!(r.depth >= 1);
        assert!(pos.validate(&r.best_move.unwrap()).is_ok());
    }
}

#[test]
fn hard_time_is_honoured() {
    for threads in [1, 2] {
        let pos = big();
        let t = Instant::now();
        let limits = Limits::new().with_hard_time(Duration::from_millis(100));
        let r = searcher(threads).search_with(&pos, &limits, |_| {});
        let elapsed = t.elapsed();
        assert!(elapsed >= Duration::from_millis(100));
        assert!(elapsed < Duration::from_millis(100) + MARGIN, "{elapsed:?}");
        assert_eq!(r.stop_reason, StopReason::HardTime);
        assert!(pos.validate(&r.best_move.unwrap()).is_ok());
        assert!(r.stats.time >= Duration::from_millis(100));
    }
}

#[test]
fn soft_time_ends_after_a_complete_iteration() {
    let pos = big();
    let limits = Limits::new()
        .with_soft_time(Duration::from_millis(30))
        .with_hard_time(Duration::from_secs(20));
    let t = Instant::now();
    let r = searcher(1).search_with(&pos, &limits, |_| {});
    assert!(t.elapsed() < Duration::from_secs(20));
    assert_eq!(r.stop_reason, StopReason::SoftTime);
    let last = r.iterations.last().unwrap();
    assert!(last.time >= Duration::from_millis(30));
    assert_eq!(
        (r.depth, &r.pv, r.score),
        (last.depth, &last.pv, last.score)
    );
}

#[test]
fn node_limit_is_exact_and_deterministic_with_one_thread() {
    let pos = big();
    let run = || searcher(1).search_with(&pos, &Limits::new().with_nodes(20_000), |_| {});
    let (a, b) = (run(), run());
    assert_eq!(a.stop_reason, StopReason::Nodes);
    assert_eq!(a.stats.nodes, 20_000);
    assert_eq!(
        (a.best_move, a.score, a.depth, &a.pv),
        (b.best_move, b.score, b.depth, &b.pv)
    );
    assert!(a.depth >= 2);
    // Even a single node yields a legal move.
    let r = searcher(1).search_with(&pos, &Limits::new().with_nodes(1), |_| {});
    assert!(pos.validate(&r.best_move.unwrap()).is_ok());
}

#[test]
fn iterations_are_reported_in_order() {
    let pos = big();
    let mut seen = Vec::new();
    let r = searcher(1).search_with(&pos, &Limits::new().with_depth(5), |it| {
        seen.push(it.clone());
    });
    assert_eq!(seen, r.iterations);
    let depths: Vec<u32> = seen.iter().map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert!(
        seen.windows(2)
            .all(|w| w[0].nodes <= w[1].nodes && w[0].time <= w[1].time)
    );
    assert!(
        seen.iter()
            .all(|i| i.seldepth >= i.depth && !i.pv.is_empty())
    );
    assert!(seen.iter().all(|i| (0.0..=1.0).contains(&i.tt_hit_rate)));
    assert_eq!(r.stop_reason, StopReason::Depth);
    let last = seen.last().unwrap();
    assert_eq!((last.score, &last.pv), (r.score, &r.pv));
    let line = last.info_line(&pos);
    let prefix = format!(
        "info depth 5 seldepth {} score {} nodes ",
        last.seldepth, last.score
    );
    assert!(line.starts_with(&prefix), "{line}");
    for word in [" nps ", " time ", " hashfull ", " pv t"] {
        assert!(line.contains(word), "{line}");
    }
    // Statistics add up.
    let s = &r.stats;
    assert!(s.nodes >= last.nodes && s.qnodes <= s.nodes);
    assert!(s.tt_hits <= s.tt_probes && s.tt_hit_rate() > 0.0);
    // (A random evaluation gives move ordering nothing to learn: no rate is asserted.)
    assert!(s.first_move_cutoffs <= s.beta_cutoffs && s.first_move_cutoff_rate() > 0.0);
    assert!(s.hashfull > 0 && s.hashfull <= 1000);
    assert!(s.seldepth >= 5);
    assert_eq!(s.threads, 1);
}

#[test]
fn finished_root_has_no_move() {
    let pos = TicTacToe::from_cells("xxxoo....");
    assert_eq!(pos.outcome(), Some(Outcome::Win(board_core::Player::First)));
    let mut s = Searcher::new(ttt_eval, SearchOptions::default()).unwrap();
    let r = s.search(&pos);
    assert_eq!(r.best_move, None);
    assert_eq!(r.stop_reason, StopReason::GameOver);
    // O is to move and has lost.
    assert_eq!(r.score, Score::loss_in(0));
}

#[test]
fn options_and_lifecycle() {
    let pos = big();
    let limits = Limits::new().with_depth(4);
    let mut s = searcher(1);
    let fresh = s.search_with(&pos, &limits, |_| {});
    // A second search reuses the table: fewer nodes for the same result.
    let again = s.search_with(&pos, &limits, |_| {});
    assert_eq!(again.score, fresh.score);
    assert!(again.stats.nodes < fresh.stats.nodes);
    // new_game forgets: the same work as a fresh searcher.
    s.new_game();
    let cleared = s.search_with(&pos, &limits, |_| {});
    assert_eq!(cleared.stats.nodes, fresh.stats.nodes);

    // Bad options are refused and leave the searcher as it was.
    assert!(SearchOptions::default().with_hash_mb(100_000).is_err());
    let opts = s
        .options()
        .clone()
        .with_hash_mb(2)
        .unwrap()
        .with_threads(2)
        .unwrap();
    s.set_options(opts).unwrap();
    assert_eq!(s.hash_bytes(), 2 << 20);
    assert_eq!(s.options().threads(), 2);
    let r = s.search_with(&pos, &limits, |_| {});
    assert_eq!(r.stats.threads, 2);
    // The options' own limits drive `search`.
    let opts = s.options().clone().with_limits(Limits::new().with_depth(2));
    s.set_options(opts).unwrap();
    assert_eq!(s.search(&pos).depth, 2);
    assert!(format!("{s:?}").contains("Searcher"));
}

#[test]
fn time_to_depth_reports_each_depth() {
    let positions: Vec<Tree> = (20..23).map(|s| Tree::with(s, 14)).collect();
    let mut one = searcher(1);
    let mut two = searcher(2);
    let base = boardlab_search::ttd::time_to_depth(&mut one, &positions, 4);
    let smp = boardlab_search::ttd::time_to_depth(&mut two, &positions, 4);
    assert_eq!((base.len(), smp.len()), (3, 3));
    for runs in base.iter().chain(&smp) {
        assert!(!runs.is_empty() && runs.len() <= 4);
        assert!(
            runs.windows(2)
                .all(|w| w[0].depth + 1 == w[1].depth && w[0].time <= w[1].time)
        );
    }
    let reached = |runs: &[Vec<boardlab_search::ttd::DepthTime>]| {
        runs.iter().any(|r| r.iter().any(|d| d.depth == 4))
    };
    if reached(&base) && reached(&smp) {
        assert!(boardlab_search::ttd::speedup(&base, &smp, 4).is_some_and(|s| s > 0.0));
    }
    assert_eq!(boardlab_search::ttd::speedup(&base, &smp, 99), None);
}

/// The tree's evaluator with a single candidate at every node: every reply is forced.
struct Forced(TreeEval);

impl Evaluator<Tree> for Forced {
    fn evaluate(&self, pos: &Tree) -> i32 {
        self.0.evaluate(pos)
    }
    fn candidates(&self, pos: &Tree, moves: &mut Vec<u8>) {
        pos.generate_moves(moves);
        moves.truncate(1);
    }
}

#[test]
fn a_managed_search_plays_a_forced_reply_at_once() {
    let pos = big();
    let opts = SearchOptions::default().with_hash_mb(1).expect("in range");
    let mut s = Searcher::new(Forced(TreeEval::default()), opts).expect("valid options");
    let budget = Limits::new().with_time_control(TimeControl::per_move(Duration::from_secs(20)));
    let t = Instant::now();
    let r = s.search_with(&pos, &budget, |_| {});
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!((r.stop_reason, r.depth), (StopReason::Forced, 1));
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    assert_eq!(r.best_move, legal.first().copied());
    // Unmanaged limits search the forced line as deep as asked.
    let r = s.search_with(&pos, &Limits::new().with_depth(6), |_| {});
    assert_eq!((r.stop_reason, r.depth), (StopReason::Depth, 6));
}

#[test]
fn an_in_process_move_time_keeps_nothing_back_and_stops_on_a_forced_reply() {
    let limits = Limits::new().with_move_time(Duration::from_millis(30));
    // A 30 ms seat gets its 30 ms: the protocol reserve (50 ms + 1/32) would leave nothing.
    assert_eq!(limits.hard_time(), Some(Duration::from_millis(30)));
    let budget = limits.budget().expect("managed");
    assert_eq!(budget.target, Duration::from_millis(30));
    let opts = SearchOptions::default().with_hash_mb(1).expect("in range");
    let mut s = Searcher::new(Forced(TreeEval::default()), opts).expect("valid options");
    let r = s.search_with(
        &big(),
        &Limits::new().with_move_time(Duration::from_secs(20)),
        |_| {},
    );
    assert_eq!((r.stop_reason, r.depth), (StopReason::Forced, 1));
}

#[test]
fn a_per_move_budget_is_searched_to_its_hard_stop() {
    let pos = big();
    let limits = Limits::new().with_time_control(TimeControl::per_move(Duration::from_millis(200)));
    let hard = limits.hard_time().expect("timed");
    // 200 ms less an eighth and a 32nd of it (a short limit's reserve).
    assert_eq!(hard, Duration::from_micros(168_750));
    let t = Instant::now();
    let r = searcher(1).search_with(&pos, &limits, |_| {});
    let elapsed = t.elapsed();
    // Unused time would be lost: no early stop while the position is unclear.
    assert_eq!(r.stop_reason, StopReason::HardTime);
    assert!(elapsed >= hard, "{elapsed:?}");
    assert!(elapsed < hard + MARGIN, "{elapsed:?}");
}

#[test]
fn the_clock_counts_from_the_given_start() {
    let pos = big();
    let start = Instant::now();
    thread::sleep(Duration::from_millis(60));
    let limits = Limits::new()
        .with_hard_time(Duration::from_millis(100))
        .with_start(start);
    let r = searcher(1).search_with(&pos, &limits, |_| {});
    let elapsed = start.elapsed();
    assert_eq!(r.stop_reason, StopReason::HardTime);
    assert!(elapsed >= Duration::from_millis(100));
    assert!(elapsed < Duration::from_millis(100) + MARGIN, "{elapsed:?}");
    // Reports count from the start too.
    assert!(r.stats.time >= Duration::from_millis(100));
}
