//! Our generic search against the `minimax` crate (0.6), the search a Rust user would
//! reach for, on the same positions with the same move generation and the same static
//! evaluation: gomoku 15×15 at depth 5 and fourshift at depth 7, at a fixed depth, on one
//! thread (`IterativeSearch`) and on two (`ParallelSearch`, Young Brothers Wait).
//!
//! Both searches see one game: a boardlab engine position wrapped as a [`minimax::Game`]
//! (moves are the engine evaluator's `candidates`, in its order) and one evaluation,
//! the engine's static value scaled into `minimax`'s `i16` range, wrapped once for each
//! crate. Our side gets nothing else from the engine: no `move_hint`, no forced-win
//! hook, no repetition rule, so its own defaults (killers, countermoves, history) order
//! the moves, as they would for a user's game that supplies only an ordered candidate list.
//!
//! Time to depth is the search alone: building each search (allocating its table) is
//! setup that criterion does not time, for either crate.
//!
//! Before timing, each position is searched once by each crate on one thread: the table
//! of nodes and root values goes to stderr, and the values must agree wherever neither
//! is a forced result. Nodes: ours is `SearchStats::nodes` (calls of the node function,
//! re-searches included); `minimax`'s is its number of `apply` calls (a re-search of the
//! same child is not a new `apply`, so it undercounts by the re-searches).
//!
//! Run: `cargo bench -p boardlab-benches -- minimax`.

use std::{
    hint::black_box,
    marker::PhantomData,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use board_core::{Notation, Outcome, Position, Rules};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use engines::{fourshift, gomoku};
use minimax::{IterativeOptions, IterativeSearch, ParallelOptions, ParallelSearch, Strategy};
use search::{Evaluator, Limits, SearchOptions, Searcher};

/// Transposition table of each search, both crates.
const TABLE_MB: usize = 16;
/// Engine values are divided by this to fit `minimax`'s `i16` evaluations (the engines'
/// largest heuristic values are 65,000).
const EVAL_SCALE: i32 = 4;
/// Values beyond this are not heuristic in `minimax` (its wins sit within 100 of `i16::MAX`).
const EVAL_LIMIT: i32 = 30_000;

/// A boardlab game as both searches see it.
trait BenchGame: 'static {
    /// The engine's position (game plus incremental evaluation state).
    type Pos: Notation<Undo: Send + Sync>;
    /// The engine's evaluator: only `evaluate` and `candidates` are used.
    type Eval: Evaluator<Self::Pos> + 'static;
    const NAME: &'static str;
    const DEPTH: u32;
    /// (game spec, moves from the start).
    const POSITIONS: &'static [(&'static str, &'static str)];
    fn evaluator() -> Self::Eval;
    fn wrap(spec: &str, moves: &str) -> Self::Pos;
    /// Whether the comparison also counts the minimal tree (each node's children ordered
    /// by separate searches: affordable at gomoku's depth, not at fourshift's).
    const COUNT_MINIMAL_TREE: bool = false;
    /// Called before every search of `root`, by either crate.
    fn prepare(_eval: &Self::Eval, _root: &Self::Pos) {}
}

fn play<P: Position>(spec: &str, moves: &str) -> P {
    let mut pos = P::new(spec.parse().unwrap_or_else(|_| panic!("bad spec {spec}")));
    for text in moves.split_whitespace() {
        let mv = pos
            .parse_legal_move(text)
            .unwrap_or_else(|e| panic!("{spec} {moves}: {text}: {e}"));
        pos.make_move(mv);
    }
    pos
}

struct Gomoku;
impl BenchGame for Gomoku {
    type Pos = gomoku::EnginePosition;
    type Eval = gomoku::GomokuEval;
    const NAME: &'static str = "gomoku15";
    const DEPTH: u32 = 5;
    const COUNT_MINIMAL_TREE: bool = true;
    const POSITIONS: &'static [(&'static str, &'static str)] = &[
        ("gomoku", "h8 i9 g9 i7 i8 g7"),
        ("gomoku", "h8 h9 i9 g7 j10 k11 i8 i10 g8 j8 f8 e8 h7"),
        ("gomoku:rule=exact5", "h8 h9 g9 i7 i9 g8 f10 e11 j8"),
        ("gomoku", "h8 i8 h9 h7 g8 i10"),
        ("gomoku", "h8 g9 i9 g7 g8 i7 j10 f7"),
        ("gomoku", "h8 j8 h10 h9 g9 i7 f10 g10"),
    ];
    fn evaluator() -> gomoku::GomokuEval {
        gomoku::GomokuEval::new()
    }
    fn wrap(spec: &str, moves: &str) -> gomoku::EnginePosition {
        gomoku::wrap(&play(spec, moves))
    }
    fn prepare(eval: &gomoku::GomokuEval, root: &gomoku::EnginePosition) {
        // The candidate width depends on the distance from the root.
        eval.set_root_ply(root.ply());
    }
}

struct Fourshift;
impl BenchGame for Fourshift {
    type Pos = fourshift::EnginePosition;
    type Eval = fourshift::EngineEval;
    const NAME: &'static str = "fourshift";
    const DEPTH: u32 = 7;
    const POSITIONS: &'static [(&'static str, &'static str)] = &[
        ("fourshift", ""),
        ("fourshift", "a1 f6 f1 a6"),
        ("fourshift", "c3 d4 d3"),
        (
            "fourshift",
            "a1 b1 c1 d1 e1 f1 b3 a3 d3 c3 f3 e3 a5 b5 c5 d5 a1-a2 b1-b2",
        ),
        ("fourshift", "d3 c4 e4"),
        ("fourshift", "c4 d3"),
    ];
    fn evaluator() -> fourshift::EngineEval {
        fourshift::EngineEval
    }
    fn wrap(spec: &str, moves: &str) -> fourshift::EnginePosition {
        search::Incremental::new(play(spec, moves))
    }
}

/// The one static evaluation, from the side to move's point of view.
fn shared_eval<G: BenchGame>(eval: &G::Eval, pos: &G::Pos) -> i16 {
    (eval.evaluate(pos) / EVAL_SCALE).clamp(-EVAL_LIMIT, EVAL_LIMIT) as i16
}

// ---- our side ------------------------------------------------------------------------

/// The shared evaluation and candidate list for our search (every other hook default).
struct OurEval<G: BenchGame>(Arc<G::Eval>);

impl<G: BenchGame> Evaluator<G::Pos> for OurEval<G> {
    fn evaluate(&self, pos: &G::Pos) -> i32 {
        i32::from(shared_eval::<G>(&self.0, pos))
    }
    fn candidates(&self, pos: &G::Pos, moves: &mut Vec<<G::Pos as Rules>::Move>) {
        self.0.candidates(pos, moves);
    }
}

/// Our search with its default options (a fresh table of [`TABLE_MB`]).
fn our_searcher<G: BenchGame>(eval: &Arc<G::Eval>, threads: usize) -> Searcher<G::Pos, OurEval<G>> {
    let options = SearchOptions::default()
        .with_hash_mb(TABLE_MB)
        .and_then(|o| o.with_threads(threads))
        .expect("valid options");
    Searcher::new(OurEval::<G>(Arc::clone(eval)), options).expect("searcher")
}

/// One fixed-depth search: (nodes, value).
fn ours<G: BenchGame>(
    searcher: &mut Searcher<G::Pos, OurEval<G>>,
    root: &G::Pos,
) -> (u64, search::Score) {
    G::prepare(&searcher.evaluator().0, root);
    let result = searcher.search_with(root, &Limits::new().with_depth(G::DEPTH), |_| {});
    assert_eq!(
        result.depth,
        G::DEPTH,
        "{}: the search reached its depth",
        G::NAME
    );
    (result.stats.nodes, result.score)
}

// ---- the minimax crate's side --------------------------------------------------------

/// A boardlab position as a `minimax` game state: make/unmake in place, the undo records
/// on a stack.
struct MmState<G: BenchGame> {
    pos: G::Pos,
    eval: Arc<G::Eval>,
    undos: Vec<<G::Pos as Rules>::Undo>,
    /// Counts `apply` calls when set (only in the untimed run).
    applies: Option<Arc<AtomicU64>>,
}

/// `minimax` clones a state only to search moves from it (never to undo moves made
/// before the clone), so a clone starts with an empty undo stack.
impl<G: BenchGame> Clone for MmState<G> {
    fn clone(&self) -> Self {
        MmState {
            pos: self.pos.clone(),
            eval: Arc::clone(&self.eval),
            undos: Vec::new(),
            applies: self.applies.clone(),
        }
    }
}

struct MmGame<G>(PhantomData<fn() -> G>);

fn winner<P: Rules>(pos: &P) -> Option<minimax::Winner> {
    pos.outcome().map(|o| match o {
        Outcome::Draw => minimax::Winner::Draw,
        Outcome::Win(p) if p == pos.side_to_move() => minimax::Winner::PlayerToMove,
        Outcome::Win(_) => minimax::Winner::PlayerJustMoved,
    })
}

impl<G: BenchGame> minimax::Game for MmGame<G> {
    type S = MmState<G>;
    type M = <G::Pos as Rules>::Move;

    fn generate_moves(s: &MmState<G>, moves: &mut Vec<Self::M>) -> Option<minimax::Winner> {
        if let Some(w) = winner(&s.pos) {
            return Some(w);
        }
        s.eval.candidates(&s.pos, moves);
        None
    }

    fn apply(s: &mut MmState<G>, m: Self::M) -> Option<MmState<G>> {
        if let Some(n) = &s.applies {
            n.fetch_add(1, Ordering::Relaxed);
        }
        let undo = s.pos.make_move(m);
        s.undos.push(undo);
        None
    }

    fn undo(s: &mut MmState<G>, m: Self::M) {
        let undo = s.undos.pop().expect("undo follows apply");
        s.pos.unmake_move(m, undo);
    }

    fn get_winner(s: &MmState<G>) -> Option<minimax::Winner> {
        winner(&s.pos)
    }

    fn zobrist_hash(s: &MmState<G>) -> u64 {
        s.pos.hash()
    }
}

/// The shared evaluation for `minimax`.
struct MmEval<G>(PhantomData<fn() -> G>);

impl<G> Clone for MmEval<G> {
    fn clone(&self) -> Self {
        MmEval(PhantomData)
    }
}

impl<G: BenchGame> minimax::Evaluator for MmEval<G> {
    type G = MmGame<G>;
    fn evaluate(&self, s: &MmState<G>) -> minimax::Evaluation {
        shared_eval::<G>(&s.eval, &s.pos)
    }
}

fn mm_state<G: BenchGame>(eval: &Arc<G::Eval>, root: &G::Pos, count: bool) -> MmState<G> {
    G::prepare(eval, root);
    MmState {
        pos: root.clone(),
        eval: Arc::clone(eval),
        undos: Vec::new(),
        applies: count.then(|| Arc::new(AtomicU64::new(0))),
    }
}

fn mm_options() -> IterativeOptions {
    IterativeOptions::new().with_table_byte_size(TABLE_MB << 20)
}

/// A `minimax` search: `IterativeSearch` on one thread, `ParallelSearch` on more.
enum MmSearch<G: BenchGame> {
    Serial(IterativeSearch<MmEval<G>>),
    Parallel(ParallelSearch<MmEval<G>>),
}

/// A `minimax` search to [`BenchGame::DEPTH`] (a fresh table of [`TABLE_MB`]).
fn mm_searcher<G: BenchGame>(threads: usize) -> MmSearch<G> {
    let mut s = if threads == 1 {
        MmSearch::Serial(IterativeSearch::new(MmEval(PhantomData), mm_options()))
    } else {
        MmSearch::Parallel(ParallelSearch::new(
            MmEval(PhantomData),
            mm_options(),
            ParallelOptions::new().with_num_threads(threads),
        ))
    };
    match &mut s {
        MmSearch::Serial(s) => s.set_max_depth(G::DEPTH as u8),
        MmSearch::Parallel(s) => s.set_max_depth(G::DEPTH as u8),
    }
    s
}

/// One fixed-depth `minimax` search: (applies if `state` counts them, root value).
fn theirs<G: BenchGame>(searcher: &mut MmSearch<G>, state: &MmState<G>) -> (u64, i16) {
    let value = match searcher {
        MmSearch::Serial(s) => {
            black_box(s.choose_move(state));
            s.root_value()
        }
        MmSearch::Parallel(s) => {
            black_box(s.choose_move(state));
            s.root_value()
        }
    };
    let applies = state
        .applies
        .as_ref()
        .map_or(0, |n| n.load(Ordering::Relaxed));
    (applies, value)
}

// ---- the floor: perfect move ordering -------------------------------------------------

/// A result at a node: beyond every evaluation, a nearer win better.
const ORACLE_WIN: i32 = 1_000_000;

/// The value of a finished game for the side to move, `ply` plies from the root.
fn finished<P: Rules>(pos: &P, ply: i32) -> Option<i32> {
    pos.outcome().map(|o| match o {
        Outcome::Draw => 0,
        Outcome::Win(p) if p == pos.side_to_move() => ORACLE_WIN - ply,
        Outcome::Win(_) => ply - ORACLE_WIN,
    })
}

/// The fixed-depth value of `pos` (side to move's view) by our search, as an ordering key:
/// a proven result ranks as a win or a loss.
fn key_value<G: BenchGame>(
    keys: &mut Searcher<G::Pos, OurEval<G>>,
    pos: &G::Pos,
    depth: u32,
) -> i32 {
    if let Some(v) = finished(pos, 0) {
        return v;
    }
    if depth == 0 {
        return i32::from(shared_eval::<G>(&keys.evaluator().0, pos));
    }
    // Our wins and losses are already ±(1,000,000 − distance), nearer first.
    keys.search_with(pos, &Limits::new().with_depth(depth), |_| {})
        .score
        .raw()
}

/// Alpha-beta with perfect ordering: every node tries its children best first (by their
/// fixed-depth values, found by separate searches of our own that are not counted).
/// `made` counts the moves it makes, as `minimax`'s applies do: the size of the minimal
/// tree of the candidate lists at this depth (Knuth and Moore), which no alpha-beta search
/// at the same candidates and depth goes below, but for transpositions.
struct Oracle<'a, G: BenchGame> {
    eval: &'a G::Eval,
    keys: Searcher<G::Pos, OurEval<G>>,
    made: u64,
}

impl<G: BenchGame> Oracle<'_, G> {
    fn search(&mut self, pos: &mut G::Pos, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        if let Some(v) = finished(pos, ply) {
            return v;
        }
        if depth == 0 {
            return i32::from(shared_eval::<G>(self.eval, pos));
        }
        let mut moves = Vec::new();
        self.eval.candidates(pos, &mut moves);
        let mut ranked: Vec<_> = moves
            .into_iter()
            .map(|m| {
                let undo = pos.make_move(m);
                let v = -key_value::<G>(&mut self.keys, pos, depth - 1);
                pos.unmake_move(m, undo);
                (v, m)
            })
            .collect();
        ranked.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        let mut best = -ORACLE_WIN - 1;
        for (_, m) in ranked {
            self.made += 1;
            let undo = pos.make_move(m);
            let v = -self.search(pos, depth - 1, ply + 1, -beta, -alpha);
            pos.unmake_move(m, undo);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The minimal tree's size at `depth` from `root`, and its root value.
fn minimal_tree<G: BenchGame>(eval: &Arc<G::Eval>, root: &G::Pos, depth: u32) -> (u64, i32) {
    // The candidate lists depend on the distance from this root, for the ordering searches
    // too (they are not prepared for their own roots).
    G::prepare(eval, root);
    let keys = Searcher::new(
        OurEval::<G>(Arc::clone(eval)),
        SearchOptions::default()
            .with_hash_mb(4)
            .expect("valid options"),
    )
    .expect("searcher");
    let mut oracle = Oracle::<G> {
        eval,
        keys,
        made: 0,
    };
    let v = oracle.search(&mut root.clone(), depth, 0, -ORACLE_WIN - 1, ORACLE_WIN + 1);
    (oracle.made, v)
}

// ---- the comparison ------------------------------------------------------------------

/// Searches every position once with each crate on one thread, prints nodes, values and
/// wall times, and asserts the values agree where neither is a forced result.
fn compare_once<G: BenchGame>(eval: &Arc<G::Eval>) {
    eprintln!(
        "{} depth {}: position | our nodes | minimax applies | minimal tree | minimal trees, depths 1 to it | our value | minimax value | our ms | minimax ms",
        G::NAME,
        G::DEPTH
    );
    for (i, (spec, moves)) in G::POSITIONS.iter().enumerate() {
        let root = G::wrap(spec, moves);
        let mut searcher = our_searcher::<G>(eval, 1);
        let t = Instant::now();
        let (our_nodes, our_score) = ours::<G>(&mut searcher, &root);
        let our_ms = t.elapsed().as_secs_f64() * 1e3;
        let state = mm_state::<G>(eval, &root, true);
        let mut mm = mm_searcher::<G>(1);
        let t = Instant::now();
        let (mm_nodes, mm_value) = theirs::<G>(&mut mm, &state);
        let mm_ms = t.elapsed().as_secs_f64() * 1e3;
        // The minimal tree at the bench depth, and the sum of those of depths 1 to it: what
        // a perfectly ordered iterative deepening without transpositions would make.
        let (minimal, oracle_value) = if G::COUNT_MINIMAL_TREE {
            minimal_tree::<G>(eval, &root, G::DEPTH)
        } else {
            (0, 0)
        };
        let minimal_deepening: u64 = if G::COUNT_MINIMAL_TREE {
            (1..=G::DEPTH)
                .map(|d| minimal_tree::<G>(eval, &root, d).0)
                .sum()
        } else {
            0
        };
        eprintln!(
            "{i} | {our_nodes} | {mm_nodes} | {minimal} | {minimal_deepening} | {} | {mm_value} | {our_ms:.1} | {mm_ms:.1}",
            our_score.raw()
        );
        if G::COUNT_MINIMAL_TREE && !our_score.is_decisive() && oracle_value.abs() < ORACLE_WIN / 2
        {
            assert_eq!(
                our_score.raw(),
                oracle_value,
                "{} position {i}: the perfectly ordered search found another value",
                G::NAME
            );
        }
        let mm_decisive = i32::from(mm_value).abs() > EVAL_LIMIT;
        if !our_score.is_decisive() && !mm_decisive {
            assert_eq!(
                our_score.raw(),
                i32::from(mm_value),
                "{} position {i} ({spec} {moves}): the root values differ",
                G::NAME
            );
        } else {
            assert_eq!(
                our_score.is_decisive(),
                mm_decisive,
                "{} position {i}: one search proved a result, the other did not",
                G::NAME
            );
            assert_eq!(
                our_score.raw() > 0,
                mm_value > 0,
                "{} position {i}",
                G::NAME
            );
        }
    }
}

fn bench_game<G: BenchGame>(c: &mut Criterion) {
    let eval = Arc::new(G::evaluator());
    compare_once::<G>(&eval);
    let mut group = c.benchmark_group(format!("minimax_{}_depth{}", G::NAME, G::DEPTH));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (i, (spec, moves)) in G::POSITIONS.iter().enumerate() {
        let root = G::wrap(spec, moves);
        for threads in [1usize, 2] {
            // Building a search (allocating its table) is setup, not search time.
            group.bench_function(format!("{i}/ours/{threads}t"), |b| {
                b.iter_batched(
                    || our_searcher::<G>(&eval, threads),
                    |mut s| black_box(ours::<G>(&mut s, &root)),
                    BatchSize::PerIteration,
                )
            });
            group.bench_function(format!("{i}/minimax/{threads}t"), |b| {
                b.iter_batched(
                    || {
                        (
                            mm_searcher::<G>(threads),
                            mm_state::<G>(&eval, &root, false),
                        )
                    },
                    |(mut s, state)| black_box(theirs::<G>(&mut s, &state)),
                    BatchSize::PerIteration,
                )
            });
        }
    }
    group.finish();
}

fn minimax_comparison(c: &mut Criterion) {
    bench_game::<Gomoku>(c);
    bench_game::<Fourshift>(c);
}

criterion_group!(benches, minimax_comparison);
criterion_main!(benches);
