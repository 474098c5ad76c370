//! Where the forward-pruning margins come from: how far a shallow search's value lies from
//! the static value (the evaluation's odd/even swing), measured on book positions with
//! the pruning off. `measure_pruning_swing` prints the distributions and the margins a rule
//! reads from them (`docs/strength.md`, sessions 6 and 13: on the fitted evaluation the
//! rule's margins did not gain over the shipped [`FUTILITY_MARGINS`] and
//! [`RAZOR_MARGINS`], which come from session 6's measurement on the hand evaluation).

use std::path::PathBuf;

use board_core::{Notation as _, Position as _, Rules as _};
use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;
use rules_gomoku::{GomokuConfig, GomokuPosition};
use search::{Evaluator, ForcedWin, Limits, ScoreKind, SearchOptions, Searcher};

use super::*;

/// The engine's evaluator with reverse futility and razoring turned off (every other hook
/// is the engine's): the search whose values the margins must predict.
struct Unpruned(GomokuEval);

impl Evaluator<EnginePosition> for Unpruned {
    fn evaluate(&self, pos: &EnginePosition) -> i32 {
        self.0.evaluate(pos)
    }

    fn candidates(&self, pos: &EnginePosition, moves: &mut Vec<Move>) {
        self.0.candidates(pos, moves);
    }

    fn move_hint(&self, pos: &EnginePosition, mv: Move) -> i32 {
        self.0.move_hint(pos, mv)
    }

    fn noisy(&self, pos: &EnginePosition, moves: &mut Vec<Move>) {
        self.0.noisy(pos, moves);
    }

    fn forced_win(&self, pos: &mut EnginePosition, depth: u32) -> Option<ForcedWin<Move>> {
        self.0.forced_win(pos, depth)
    }

    fn threat_defence(&self, pos: &mut EnginePosition, depth: u32, moves: &mut Vec<Move>) {
        self.0.threat_defence(pos, depth, moves);
    }

    fn extension(&self, pos: &EnginePosition) -> u32 {
        self.0.extension(pos)
    }
}

/// The deepest search measured (the margins cover depths 1-3; depth 4 shows the swing
/// goes on).
const DEEPEST: u32 = 4;
/// Passes over the book by default (`PASSES=N` to change), each with its own number of
/// engine moves after every opening.
const PASSES: usize = 10;
/// Most engine moves played after an opening (0 to this many, drawn per position).
const MAX_ENGINE_MOVES: u32 = 30;
/// Depth of the engine moves that lead from the opening to the measured position.
const ENGINE_MOVE_DEPTH: u32 = 3;

/// A search value minus the static value; a forced win or loss sorts past every value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Swing {
    Loss,
    Value(i32),
    Win,
}

impl std::fmt::Display for Swing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Swing::Loss => f.write_str("(loss)"),
            Swing::Value(v) => write!(f, "{v}"),
            Swing::Win => f.write_str("(win)"),
        }
    }
}

/// The `p`-th percentile (nearest rank) of sorted samples.
fn percentile(sorted: &[Swing], p: f64) -> Swing {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn book_openings() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/openings/gomoku15.txt");
    let book = std::fs::read_to_string(path).expect("the book");
    crate::test_support::book_lines(&book)
        .map(str::to_string)
        .collect()
}

/// One measured distribution: `value(depth) − static value` for each depth 1..=[`DEEPEST`].
type Swings = Vec<Vec<Swing>>;

/// The swings over the quiet positions where the engine would allow reverse futility
/// (`[0]`) and razoring (`[1]`): `passes` × 200 positions, each a book opening
/// (`data/openings/gomoku15.txt`) followed by 0-30 moves of the unpruned search at depth
/// 3, searched with the pruning off, with the width of an interior node (the last entry of
/// [`MAX_CANDIDATES`], where the pruning acts in a deep search) or, with `root_widths`,
/// the root's. Sorted; also the number of positions, finished games and forcing positions.
fn measure_swings(passes: usize, root_widths: bool) -> ([Swings; 2], [usize; 3]) {
    let openings = book_openings();
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let options = SearchOptions::default().with_seed(13);
    // The moves to the positions are the unpruned search's too, so that the positions do
    // not depend on the margins measured.
    let mut mover: Searcher<EnginePosition, Unpruned> =
        Searcher::new(Unpruned(GomokuEval::new()), options.clone()).expect("a searcher");
    let mut measurer: Searcher<EnginePosition, Unpruned> =
        Searcher::new(Unpruned(GomokuEval::new()), options).expect("a searcher");
    let depth_limit = Limits::new().with_depth(DEEPEST);
    let mut swings: [Swings; 2] = std::array::from_fn(|_| vec![Vec::new(); DEEPEST as usize]);
    let (mut positions, mut finished, mut forcing) = (0, 0, 0);
    for _ in 0..passes {
        for opening in &openings {
            positions += 1;
            let mut pos = GomokuPosition::new(GomokuConfig::default());
            for m in opening.split_whitespace() {
                let mv = pos.parse_legal_move(m).expect("a legal book move");
                pos.make_move(mv);
            }
            let engine_moves = rng.random_range(0..=MAX_ENGINE_MOVES);
            mover.new_game();
            for _ in 0..engine_moves {
                if pos.outcome().is_some() {
                    break;
                }
                let r = mover.search_with(
                    &wrap(&pos),
                    &Limits::new().with_depth(ENGINE_MOVE_DEPTH),
                    |_| {},
                );
                pos.make_move(r.best_move.expect("a move in an unfinished game"));
            }
            if pos.outcome().is_some() {
                finished += 1;
                continue;
            }
            let engine_pos = wrap(&pos);
            let st = engine_pos.state();
            let me = pos.side_to_move();
            if quiet_features(st, me).is_none() {
                forcing += 1;
                continue;
            }
            let stand = static_value(st, me);
            let eval = GomokuEval::new();
            let eligible = [
                eval.futility_margin(&engine_pos, 1).is_some(),
                eval.razor_margin(&engine_pos, 1).is_some(),
            ];
            // Root ply 0: every node is past the schedule's last entry.
            let root_ply = if root_widths { pos.ply() } else { 0 };
            measurer.evaluator().0.set_root_ply(root_ply);
            measurer.new_game();
            let result = measurer.search_with(&engine_pos, &depth_limit, |_| {});
            for it in &result.iterations {
                let d = it.depth as usize;
                if d == 0 || d > DEEPEST as usize {
                    continue;
                }
                let swing = match it.score.kind() {
                    ScoreKind::Value(v) => Swing::Value(v - stand),
                    ScoreKind::Win(_) => Swing::Win,
                    ScoreKind::Loss(_) => Swing::Loss,
                };
                for (pruning, &ok) in eligible.iter().enumerate() {
                    if ok {
                        swings[pruning][d - 1].push(swing);
                    }
                }
            }
        }
    }
    for by_depth in &mut swings {
        for s in by_depth {
            s.sort_unstable();
        }
    }
    (swings, [positions, finished, forcing])
}

/// The share of futility's misses the margins allow: positions where the depth's value
/// lies more than the margin under the static value.
const FUTILITY_MISSES: f64 = 0.02;
/// The share of razoring's misses the margins allow: positions where the depth's value
/// lies more than the margin over the static value.
const RAZOR_MISSES: f64 = 0.05;
/// The margins' step.
const MARGIN_STEP: i32 = 50;

/// The smallest multiple of [`MARGIN_STEP`] that `missed(margin)` leaves at most `share`
/// of `sorted` beyond.
fn smallest_margin(sorted: &[Swing], share: f64, missed: impl Fn(Swing, i32) -> bool) -> i32 {
    let mut margin = 0;
    while sorted.iter().filter(|&&s| missed(s, margin)).count() as f64 > share * sorted.len() as f64
    {
        margin += MARGIN_STEP;
    }
    margin
}

/// The margins the rule reads from measured swings: futility's miss at most
/// [`FUTILITY_MISSES`] of the positions by more than the margin below, razoring's at most
/// [`RAZOR_MISSES`] by more than the margin above.
fn margins_from(swings: &[Swings; 2]) -> (Vec<i32>, Vec<i32>) {
    let futility = swings[0][..FUTILITY_MARGINS.len()]
        .iter()
        .map(|s| smallest_margin(s, FUTILITY_MISSES, |x, m| x < Swing::Value(-m)))
        .collect();
    let razor = swings[1][..RAZOR_MARGINS.len()]
        .iter()
        .map(|s| smallest_margin(s, RAZOR_MISSES, |x, m| x > Swing::Value(m)))
        .collect();
    (futility, razor)
}

/// Prints the distributions (with `PASSES` passes over the book, default 10: 2,000
/// positions; session 6 measured 600), at the interior width and at the root's widths,
/// and the margins the rule reads from them.
#[test]
#[ignore = "a measurement (seconds in release)"]
fn measure_pruning_swing() {
    let passes: usize = std::env::var("PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(PASSES);
    const PERCENTILES: [f64; 9] = [1.0, 2.0, 5.0, 10.0, 50.0, 90.0, 95.0, 98.0, 99.0];
    for (widths, root_widths) in [("interior width", false), ("root widths", true)] {
        let (swings, [positions, finished, forcing]) = measure_swings(passes, root_widths);
        println!(
            "{widths}: {positions} positions: {finished} finished, {forcing} with a forcing \
             threat (not quiet)"
        );
        for (pruning, samples) in ["futility", "razoring"].iter().zip(&swings) {
            println!(
                "  {pruning}-eligible: value(depth) - static value, \
                 p1 / p2 / p5 / p10 / p50 / p90 / p95 / p98 / p99"
            );
            for (d, s) in samples.iter().enumerate().filter(|(_, s)| !s.is_empty()) {
                let cells: Vec<String> = PERCENTILES
                    .iter()
                    .map(|&p| percentile(s, p).to_string())
                    .collect();
                println!(
                    "    depth {} ({} positions): {}",
                    d + 1,
                    s.len(),
                    cells.join(" / ")
                );
            }
        }
        let (futility, razor) = margins_from(&swings);
        println!("  margins by the rule: futility {futility:?}, razoring {razor:?}");
    }
}

#[test]
fn smallest_margin_counts_misses_beyond_the_margin() {
    let s: Vec<Swing> = (-10..90).map(|v| Swing::Value(v * 3)).collect();
    // Values -30..=267: at most 2 of 100 under -margin needs margin >= 25, so 50.
    assert_eq!(smallest_margin(&s, 0.02, |x, m| x < Swing::Value(-m)), 50);
    // At most 5 over the margin: the 6th largest is 252, so 252 <= margin: 300.
    assert_eq!(smallest_margin(&s, 0.05, |x, m| x > Swing::Value(m)), 300);
    // A win is beyond every margin, but within the share it is allowed.
    let mut w = s.clone();
    w.push(Swing::Win);
    w.sort_unstable();
    assert_eq!(smallest_margin(&w, 0.05, |x, m| x > Swing::Value(m)), 300);
}

#[test]
fn percentiles_are_nearest_rank_and_wins_sort_last() {
    let mut s = vec![Swing::Win, Swing::Value(3), Swing::Loss, Swing::Value(-7)];
    s.sort_unstable();
    assert_eq!(
        s,
        vec![Swing::Loss, Swing::Value(-7), Swing::Value(3), Swing::Win]
    );
    assert_eq!(percentile(&s, 1.0), Swing::Loss);
    assert_eq!(percentile(&s, 50.0), Swing::Value(-7));
    assert_eq!(percentile(&s, 51.0), Swing::Value(3));
    assert_eq!(percentile(&s, 99.0), Swing::Win);
}
