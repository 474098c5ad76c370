//! `boardlab bench`: a fixed set of positions from every registered game (its
//! [`Game::BENCH_POSITIONS`]; a game with none is not benched) searched at fixed depth,
//! single-threaded with a fresh table. The total node count is a signature of the search's
//! behaviour (it changes only when the search or an evaluator changes); nps is the speed.
//! With `--threads N` the same searches run on N threads: the total time against the
//! one-thread run is the time-to-depth speed-up (the node count is then not a signature:
//! threads race).

use std::time::{Duration, Instant};

use boardlab_games::Game;
use search::{AgentKind, Limits, SearchOptions};

use crate::{Registry, cli_error::CliError, setup};

/// Totals of one game's positions.
#[derive(Default)]
pub struct Totals {
    nodes: u64,
    time: Duration,
}

/// Searches `P`'s bench positions to its bench depth shifted by `depth_delta` (at least 1).
pub fn bench_game<P: Game>(
    depth_delta: i32,
    threads: usize,
    totals: &mut Totals,
) -> Result<(), CliError> {
    let depth = (P::BENCH_DEPTH as i32 + depth_delta).max(1) as u32;
    for (number, (spec, moves)) in P::BENCH_POSITIONS.iter().enumerate() {
        let pos = setup::position::<P>(&board_core::GameSpec::parse(spec)?, moves)?;
        let options = SearchOptions::default()
            .with_hash_mb(16)
            .and_then(|o| o.with_threads(threads))
            .map_err(|e| CliError::usage(e.to_string()))?
            .with_seed(1);
        let mut engine =
            P::player(AgentKind::Engine, options).map_err(|e| CliError::usage(e.to_string()))?;
        let started = Instant::now();
        let result = engine.think(&pos, &Limits::new().with_depth(depth), &mut |_| {});
        let time = started.elapsed();
        let best = result
            .best_move
            .map_or("none".to_string(), |m| pos.format_move(m));
        outln!(
            "{:<48} depth {depth:>2} nodes {:>10} time {:>6} ms  best {best} score {}",
            position_label(spec, number + 1, moves),
            result.stats.nodes,
            time.as_millis(),
            result.score
        );
        totals.nodes += result.stats.nodes;
        totals.time += time;
    }
    Ok(())
}

/// A bench position as the table names it, unique within the bench: the spec, the
/// position's number among the game's, and how many moves lead to it
/// (`connect6 #3, 5 moves in`; `gomoku #1, start`).
fn position_label(spec: &str, number: usize, moves: &str) -> String {
    match moves.split_whitespace().count() {
        0 => format!("{spec} #{number}, start"),
        1 => format!("{spec} #{number}, 1 move in"),
        n => format!("{spec} #{number}, {n} moves in"),
    }
}

/// Runs the bench; `depth_delta` shifts every game's depth (negative for a quick run).
pub fn run_bench(registry: &Registry, depth_delta: i32, threads: usize) -> Result<(), CliError> {
    let mut totals = Totals::default();
    for (_, game) in registry.entries_attached() {
        (game.bench)(depth_delta, threads, &mut totals)?;
    }
    let nps = totals.nodes as f64 / totals.time.as_secs_f64().max(1e-9);
    outln!(
        "total time {} ms on {threads} thread{}",
        totals.time.as_millis(),
        if threads == 1 { "" } else { "s" }
    );
    outln!("{} nodes {:.0} nps", totals.nodes, nps);
    Ok(())
}
