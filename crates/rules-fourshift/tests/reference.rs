//! A deliberately naive second implementation of fourshift, written from `games.md` alone
//! (2-D array, plain loops, whole-board line scan, copy-make), and differential tests that
//! compare it with the real crate: move lists, outcomes, position strings, perft and divide
//! on many positions reached by seeded random playouts (to the end of the game) and on
//! random boards.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns unwrap too

use std::collections::BTreeMap;

use board_core::{Notation, Outcome, Player, Position, Rules, divide, perft};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_fourshift::{EndReason, Fourshift, FourshiftConfig};

const EMPTY: u8 = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RefEnd {
    Win(usize),
    Stuck,
    Limit,
}

#[derive(Clone, Debug)]
struct Ref {
    n: usize,
    k: usize,
    pieces: usize,
    max_plies: usize,
    /// `moving_first=second`: White makes the first shift, right after its last placement.
    white_shifts_first: bool,
    /// `centre_opening=false`: Black's first placement may not be on a centre square.
    no_centre_opening: bool,
    /// `grid[row][col]`, row 0 = rank 1; 0 empty, 1 Black, 2 White.
    grid: Vec<Vec<u8>>,
    hand: [usize; 2],
    /// 0 = Black, 1 = White.
    turn: usize,
    ply: usize,
    end: Option<RefEnd>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RefMove {
    /// (row, col)
    Place(usize, usize),
    /// (row, col) -> (row, col)
    Shift(usize, usize, usize, usize),
}

fn sq_name(row: usize, col: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

impl RefMove {
    fn text(self) -> String {
        match self {
            RefMove::Place(r, c) => sq_name(r, c),
            RefMove::Shift(r, c, r2, c2) => format!("{}-{}", sq_name(r, c), sq_name(r2, c2)),
        }
    }
}

impl Ref {
    fn new(n: usize, k: usize, pieces: usize, max_plies: usize) -> Ref {
        Ref {
            n,
            k,
            pieces,
            max_plies,
            white_shifts_first: false,
            no_centre_opening: false,
            grid: vec![vec![EMPTY; n]; n],
            hand: [pieces, pieces],
            turn: 0,
            ply: 0,
            end: None,
        }
    }

    fn from_config(c: &FourshiftConfig) -> Ref {
        let mut r = Ref::new(
            c.size() as usize,
            c.k() as usize,
            c.pieces() as usize,
            c.max_plies() as usize,
        );
        // Read back from the spec text, not the typed accessors.
        let spec = c.to_string();
        r.white_shifts_first = spec.contains("moving_first=second");
        r.no_centre_opening = spec.contains("centre_opening=false");
        r
    }

    /// games.md: the middle 2×2 on an even board, the middle square on an odd one.
    fn is_centre(&self, row: usize, col: usize) -> bool {
        let n = self.n;
        let middle: Vec<usize> = if n.is_multiple_of(2) {
            vec![n / 2 - 1, n / 2]
        } else {
            vec![n / 2]
        };
        middle.contains(&row) && middle.contains(&col)
    }

    /// Under centre_opening=false, a position where Black has not shifted yet (so Black's
    /// first piece still stands where it was placed) and every Black piece is on a centre
    /// square cannot be reached.
    fn centre_opening_impossible(&self) -> bool {
        let placing = 2 * self.pieces;
        let black_shifts_from = if self.white_shifts_first {
            placing + 1
        } else {
            placing
        };
        let black: Vec<(usize, usize)> = (0..self.n)
            .flat_map(|r| (0..self.n).map(move |c| (r, c)))
            .filter(|&(r, c)| self.grid[r][c] == 1)
            .collect();
        self.no_centre_opening
            && self.ply <= black_shifts_from
            && !black.is_empty()
            && black.iter().all(|&(r, c)| self.is_centre(r, c))
    }

    /// Who moves at `ply` by the letter of the rules: placements alternate from Black;
    /// the first shift is Black's (alternation) or, under moving_first=second, White's;
    /// then alternation again.
    fn turn_at(&self, ply: usize) -> usize {
        let placing = 2 * self.pieces;
        if ply < placing || !self.white_shifts_first {
            ply % 2
        } else {
            1 - (ply - placing) % 2
        }
    }

    /// Legal moves by the letter of the rules.
    fn moves(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        if self.end.is_some() {
            return out;
        }
        let me = self.turn as u8 + 1;
        let n = self.n as i64;
        for row in 0..self.n {
            for col in 0..self.n {
                if self.hand[self.turn] > 0 {
                    let refused =
                        self.ply == 0 && self.no_centre_opening && self.is_centre(row, col);
                    if self.grid[row][col] == EMPTY && !refused {
                        out.push(RefMove::Place(row, col));
                    }
                } else if self.grid[row][col] == me {
                    for (dr, dc) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
                        let (r2, c2) = (row as i64 + dr, col as i64 + dc);
                        if r2 >= 0
                            && r2 < n
                            && c2 >= 0
                            && c2 < n
                            && self.grid[r2 as usize][c2 as usize] == EMPTY
                        {
                            out.push(RefMove::Shift(row, col, r2 as usize, c2 as usize));
                        }
                    }
                }
            }
        }
        out
    }

    /// Does `who` (0/1) have k or more in an unbroken line anywhere? (Any line of k+ contains
    /// a line of exactly k starting at its first piece.)
    fn has_k(&self, who: usize) -> bool {
        let me = who as u8 + 1;
        let n = self.n as i64;
        for row in 0..n {
            for col in 0..n {
                for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
                    let mut all = true;
                    for i in 0..self.k as i64 {
                        let (r, c) = (row + dr * i, col + dc * i);
                        if r < 0
                            || r >= n
                            || c < 0
                            || c >= n
                            || self.grid[r as usize][c as usize] != me
                        {
                            all = false;
                            break;
                        }
                    }
                    if all {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn play(&mut self, m: RefMove) {
        let who = self.turn;
        let me = who as u8 + 1;
        match m {
            RefMove::Place(r, c) => {
                assert_eq!(self.grid[r][c], EMPTY);
                self.grid[r][c] = me;
                self.hand[who] -= 1;
            }
            RefMove::Shift(r, c, r2, c2) => {
                assert_eq!(self.grid[r][c], me);
                assert_eq!(self.grid[r2][c2], EMPTY);
                self.grid[r][c] = EMPTY;
                self.grid[r2][c2] = me;
            }
        }
        self.ply += 1;
        self.turn = self.turn_at(self.ply);
        self.end = self.judge(who);
    }

    /// The end checks of games.md, in order, with `mover` the player who just moved.
    fn judge(&self, mover: usize) -> Option<RefEnd> {
        if self.has_k(mover) {
            Some(RefEnd::Win(mover))
        } else if self.moves().is_empty() {
            Some(RefEnd::Stuck)
        } else if self.ply >= self.max_plies {
            Some(RefEnd::Limit)
        } else {
            None
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }

    fn divide(&self, depth: u32) -> BTreeMap<String, u64> {
        self.moves()
            .into_iter()
            .map(|m| {
                let mut child = self.clone();
                child.play(m);
                (m.text(), child.perft(depth - 1))
            })
            .collect()
    }

    /// The position string exactly as the crate docs describe it.
    fn position_string(&self) -> String {
        let mut ranks = Vec::new();
        for row in (0..self.n).rev() {
            let mut s = String::new();
            let mut empties = 0;
            for col in 0..self.n {
                let ch = match self.grid[row][col] {
                    1 => 'X',
                    2 => 'O',
                    _ => {
                        empties += 1;
                        continue;
                    }
                };
                if empties > 0 {
                    s += &empties.to_string();
                    empties = 0;
                }
                s.push(ch);
            }
            if empties > 0 {
                s += &empties.to_string();
            }
            ranks.push(s);
        }
        format!(
            "{} {} {} {} {}",
            ranks.join("/"),
            if self.turn == 0 { "x" } else { "o" },
            self.hand[0],
            self.hand[1],
            self.ply
        )
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.map(|e| match e {
            RefEnd::Win(0) => Outcome::Win(Player::First),
            RefEnd::Win(_) => Outcome::Win(Player::Second),
            RefEnd::Stuck | RefEnd::Limit => Outcome::Draw,
        })
    }
}

fn end_kind(e: Option<EndReason>) -> Option<RefEnd> {
    e.map(|e| match e {
        EndReason::Line(p) => RefEnd::Win(p.index()),
        EndReason::NoLegalMove(_) => RefEnd::Stuck,
        EndReason::MaxPlies => RefEnd::Limit,
    })
}

fn real_moves(pos: &Fourshift) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    texts.sort();
    texts
}

/// Compares everything observable at one position.
fn compare(r: &Ref, pos: &Fourshift, context: &str) {
    let mut ref_moves: Vec<String> = r.moves().into_iter().map(RefMove::text).collect();
    ref_moves.sort();
    assert_eq!(real_moves(pos), ref_moves, "moves differ {context}");
    assert_eq!(pos.count_moves(), ref_moves.len() as u64, "count {context}");
    assert_eq!(pos.outcome(), r.outcome(), "outcome {context}");
    assert_eq!(end_kind(pos.end_reason()), r.end, "end reason {context}");
    assert_eq!(
        pos.to_position_string(),
        r.position_string(),
        "string {context}"
    );
    assert_eq!(pos.ply() as usize, r.ply, "ply {context}");
    let back = Fourshift::from_position_string(*pos.config(), &r.position_string())
        .unwrap_or_else(|e| panic!("reference string does not read {context}: {e}"));
    assert_eq!(&back, pos, "read-back differs {context}");
}

/// Deepest perft with at most about `budget` reference nodes, given the branching factor.
fn depth_for(branching: usize, budget: f64) -> u32 {
    let b = branching.max(2) as f64;
    let mut d = 0;
    while d < 4 && b.powi(d as i32 + 1) <= budget {
        d += 1;
    }
    d
}

fn compare_perft(r: &Ref, pos: &mut Fourshift, budget: f64, context: &str) {
    let d = depth_for(r.moves().len(), budget);
    if d == 0 {
        return;
    }
    let real: BTreeMap<String, u64> = divide(pos, d)
        .into_iter()
        .map(|(m, n)| (pos.format_move(m), n))
        .collect();
    let reference = r.divide(d);
    assert_eq!(real, reference, "divide({d}) {context}");
    assert_eq!(
        perft(pos, d),
        reference.values().sum::<u64>(),
        "perft({d}) {context}"
    );
}

/// Seeded random games played on both implementations side by side, to the end.
fn differential(spec: &str, games: usize, seed: u64, perft_every: usize, budget: f64) {
    let config: FourshiftConfig = spec.parse().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut ends = BTreeMap::new();
    for game in 0..games {
        let mut r = Ref::from_config(&config);
        let mut pos = Fourshift::new(config);
        loop {
            let context = format!("in {spec}, game {game}, at {}", r.position_string());
            compare(&r, &pos, &context);
            if r.ply % perft_every == perft_every - 1 || r.end.is_some() {
                compare_perft(&r, &mut pos, budget, &context);
            }
            let moves = r.moves();
            if moves.is_empty() {
                *ends.entry(format!("{:?}", r.end)).or_insert(0) += 1;
                break;
            }
            // Before the move: the moves of a finished child agree with the reference.
            let m = moves[rng.random_range(0..moves.len())];
            let mv = pos.parse_legal_move(&m.text()).unwrap();
            let hash_before = pos.hash();
            let undo = pos.make_move(mv);
            r.play(m);
            assert_eq!(pos.hash(), pos.compute_hash(), "hash {context}");
            let _ = (undo, hash_before);
        }
    }
    assert!(!ends.is_empty());
    eprintln!("{spec}: {ends:?}");
}

#[test]
fn start_perft_agrees() {
    let config = FourshiftConfig::default();
    let r = Ref::from_config(&config);
    let mut pos = Fourshift::new(config);
    for (d, expected) in [(1, 36), (2, 1_260), (3, 42_840)] {
        assert_eq!(r.perft(d), expected);
        assert_eq!(perft(&mut pos, d), expected);
    }
}

#[test]
fn differential_default() {
    differential("fourshift", 80, 1, 4, 8_000.0);
}

#[test]
fn differential_small_boards() {
    for (spec, seed) in [
        ("fourshift:size=3,k=3,pieces=4", 2),
        ("fourshift:size=3,k=2,pieces=2", 3),
        ("fourshift:size=4,k=3,pieces=8", 4),
        ("fourshift:size=4,k=4,pieces=5,max_plies=40", 5),
        ("fourshift:size=5,k=4,pieces=12,max_plies=60", 6),
        ("fourshift:size=5,k=3,pieces=3", 7),
        ("fourshift:size=6,k=2,pieces=4", 8),
        ("fourshift:size=6,k=6,pieces=18,max_plies=80", 9),
        ("fourshift:size=6,k=4,pieces=3,max_plies=50", 10),
        ("fourshift:size=6,pieces=8,max_plies=17", 11),
        ("fourshift:size=6,pieces=8,max_plies=9", 12),
    ] {
        differential(spec, 20, seed, 3, 5_000.0);
    }
}

/// The balance variants (`moving_first`, `centre_opening`), alone and together, played to
/// the end on both implementations.
#[test]
fn differential_variants() {
    for (spec, seed, games) in [
        ("fourshift:moving_first=second", 30, 60),
        ("fourshift:centre_opening=false", 31, 40),
        ("fourshift:moving_first=second,centre_opening=false", 32, 40),
        ("fourshift:pieces=6,moving_first=second", 33, 30),
        (
            "fourshift:size=3,k=3,pieces=4,moving_first=second,centre_opening=false",
            34,
            30,
        ),
        ("fourshift:size=4,k=4,pieces=8,moving_first=second", 35, 20),
        ("fourshift:size=5,k=3,pieces=5,centre_opening=false", 36, 30),
        (
            "fourshift:size=6,pieces=8,max_plies=17,moving_first=second",
            37,
            20,
        ),
        (
            "fourshift:size=6,pieces=8,max_plies=16,moving_first=second",
            38,
            20,
        ),
        (
            "fourshift:size=7,k=4,pieces=6,moving_first=second,centre_opening=false",
            39,
            15,
        ),
    ] {
        differential(spec, games, seed, 3, 5_000.0);
    }
}

/// Start perft under centre_opening=false agrees with the reference (and with counting by
/// hand: 32 first placements on 6×6, 24 on 5×5).
#[test]
fn variant_start_perft_agrees() {
    for (spec, expected) in [
        ("fourshift:centre_opening=false", vec![32, 1_120, 38_080]),
        ("fourshift:moving_first=second", vec![36, 1_260, 42_840]),
        (
            "fourshift:size=5,centre_opening=false",
            vec![24, 576, 13_248],
        ),
    ] {
        let config: FourshiftConfig = spec.parse().unwrap();
        let r = Ref::from_config(&config);
        let mut pos = Fourshift::new(config);
        for (d, &n) in (1..).zip(&expected) {
            assert_eq!(r.perft(d), n, "{spec} reference perft({d})");
            assert_eq!(perft(&mut pos, d), n, "{spec} perft({d})");
        }
    }
}

/// The variants' figures pinned in `tests/variants.rs` and the crate docs, recomputed by
/// the reference: around White's double move (moving_first=second) and in the moving phase.
#[test]
fn variant_moving_phase_perft_agrees() {
    for (spec, text, expected) in [
        (
            "fourshift",
            "1OX2X/1OO2O/4X1/4X1/O2X1X/1XOO2 x 1 1 14",
            [22, 462, 7_640, 97_043],
        ),
        (
            "fourshift:moving_first=second",
            "1OX2X/1OO2O/4X1/4X1/O2X1X/1XOO2 x 1 1 14",
            [22, 462, 5_960, 98_870],
        ),
        (
            "fourshift:moving_first=second",
            "OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 o 0 0 16",
            [11, 169, 2_197, 33_535],
        ),
        (
            "fourshift",
            "OOX2X/1OO2O/4X1/4X1/O2X1X/XXOO2 x 0 0 16",
            [15, 168, 2_528, 32_817],
        ),
        (
            "fourshift:centre_opening=false",
            "OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21",
            [15, 240, 3_902, 62_876],
        ),
    ] {
        let config: FourshiftConfig = spec.parse().unwrap();
        let mut pos = Fourshift::from_position_string(config, text).unwrap();
        let r = reference_from(&pos);
        assert_eq!(r.position_string(), text);
        for (d, &n) in (1..).zip(&expected) {
            assert_eq!(r.perft(d), n, "{spec} {text} reference perft({d})");
            assert_eq!(perft(&mut pos, d), n, "{spec} {text} perft({d})");
        }
    }
}

#[test]
fn differential_larger_boards() {
    for (spec, seed, games) in [
        ("fourshift:size=7,k=5,pieces=10", 20, 20),
        ("fourshift:size=8,k=4,pieces=6", 21, 20),
        ("fourshift:size=8,k=3,pieces=32,max_plies=90", 22, 10),
        ("fourshift:size=9,k=4,pieces=8", 23, 20),
        ("fourshift:size=9,k=3,pieces=40", 24, 5),
        ("fourshift:size=10,k=5,pieces=12,max_plies=80", 25, 10),
        ("fourshift:size=12,k=3,pieces=5", 26, 10),
        ("fourshift:size=26,k=6,pieces=20,max_plies=100", 27, 3),
        ("fourshift:size=26,k=2,pieces=3", 28, 3),
    ] {
        differential(spec, games, seed, 9, 2_500.0);
    }
}

/// Random boards (not necessarily reachable by play) with consistent counts: the real
/// crate must read the reference's string exactly when the side to move has no line, and
/// then agree on moves, outcome and perft.
#[test]
fn random_boards_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let specs = [
        "fourshift",
        "fourshift:k=3,pieces=6",
        "fourshift:size=4,k=3,pieces=8",
        "fourshift:size=5,k=3,pieces=7,max_plies=30",
        "fourshift:size=8,k=3,pieces=20",
        "fourshift:size=9,k=3,pieces=12",
        "fourshift:moving_first=second",
        "fourshift:k=3,pieces=6,moving_first=second,centre_opening=false",
        "fourshift:size=5,k=3,pieces=7,max_plies=30,centre_opening=false",
        "fourshift:size=4,k=3,pieces=8,moving_first=second",
    ];
    let mut counts = BTreeMap::new();
    for i in 0..1200 {
        let config: FourshiftConfig = specs[i % specs.len()].parse().unwrap();
        let mut r = Ref::from_config(&config);
        let n = r.n;
        // Pieces on the board: either a placing-phase count or everything placed.
        let placing = rng.random_bool(0.3);
        let (black, white) = if placing {
            let placed = rng.random_range(0..2 * r.pieces);
            (placed.div_ceil(2), placed / 2)
        } else {
            (r.pieces, r.pieces)
        };
        let mut cells: Vec<(usize, usize)> = (0..n)
            .flat_map(|row| (0..n).map(move |col| (row, col)))
            .collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.random_range(0..=i));
        }
        for (j, &(row, col)) in cells.iter().take(black + white).enumerate() {
            r.grid[row][col] = if j < black { 1 } else { 2 };
        }
        r.hand = [r.pieces - black, r.pieces - white];
        if placing {
            r.ply = black + white;
        } else {
            r.ply = 2 * r.pieces + rng.random_range(0..=(r.max_plies.saturating_sub(2 * r.pieces)));
        }
        r.turn = r.turn_at(r.ply);
        if r.ply > r.max_plies {
            continue;
        }
        let text = r.position_string();
        let parsed = Fourshift::from_position_string(config, &text);
        if r.ply > 0 && r.has_k(1 - r.turn_at(r.ply - 1)) {
            assert!(
                parsed.is_err(),
                "{text} should be rejected: side to move has a line"
            );
            *counts.entry("rejected".to_string()).or_insert(0) += 1;
            continue;
        }
        if r.centre_opening_impossible() {
            assert!(
                parsed.is_err(),
                "{text} should be rejected under {config}: Black's unshifted first piece is on the centre"
            );
            *counts.entry("rejected centre".to_string()).or_insert(0) += 1;
            continue;
        }
        r.end = if r.ply > 0 {
            r.judge(r.turn_at(r.ply - 1))
        } else {
            None
        };
        let mut pos = parsed.unwrap_or_else(|e| panic!("{text}: {e}"));
        let context = format!("random board {text} under {config}");
        compare(&r, &pos, &context);
        compare_perft(&r, &mut pos, 3_000.0, &context);
        *counts.entry(format!("{:?}", r.end)).or_insert(0) += 1;
    }
    eprintln!("{counts:?}");
    assert!(counts.len() >= 4, "{counts:?}");
}

/// Deeper figures for the positions pinned in `tests/rules.rs`, computed by the reference
/// (a minute or two): `cargo test -p rules-fourshift --test reference -- --ignored --nocapture`.
#[test]
#[ignore]
fn deep_reference_figures() {
    for (spec, text, depth) in [
        ("fourshift", "O2X2/3XX1/2O1OX/O5/4X1/2OXO1 x 2 2 12", 5),
        ("fourshift", "1OX2X/1OO2O/4X1/4X1/O2X1X/1XOO2 x 1 1 14", 6),
        ("fourshift", "OXO2O/2O2X/X3O1/O5/1XOOXX/X2X2 o 0 0 21", 6),
        ("fourshift", "XOO3/O1OX1O/1X2X1/X1O1OX/X5/O4X x 0 0 30", 5),
        (
            "fourshift:size=8,k=5,pieces=12",
            "2X5/1XXXO3/OX2X3/3XO3/8/O1OXXO2/5OO1/4OOX1 x 2 2 20",
            4,
        ),
        (
            "fourshift:size=8,k=5,pieces=12",
            "2XXO1O1/1XX1O3/4XX2/1X1XO3/O7/O1O1XO2/4XOOX/3O1OX1 x 0 0 40",
            4,
        ),
        (
            "fourshift:size=9,k=4,pieces=6",
            "3O5/1XX2O3/1O6X/9/7X1/9/6X1O/9/6OOX x 0 0 20",
            5,
        ),
    ] {
        let config: FourshiftConfig = spec.parse().unwrap();
        let mut pos = Fourshift::from_position_string(config, text).unwrap();
        let r = reference_from(&pos);
        assert_eq!(r.position_string(), text);
        let figures: Vec<u64> = (1..=depth).map(|d| r.perft(d)).collect();
        let real: Vec<u64> = (1..=depth).map(|d| perft(&mut pos, d)).collect();
        eprintln!("{spec} {text}: {figures:?}");
        assert_eq!(real, figures, "{text}");
    }
}

/// The reference position equal to `pos` (copied square by square).
fn reference_from(pos: &Fourshift) -> Ref {
    let mut r = Ref::from_config(pos.config());
    let g = pos.geometry();
    for sq in g.squares() {
        let c = g.coord(sq).unwrap();
        r.grid[c.row() as usize][c.col() as usize] = match pos.piece_at(sq) {
            None => EMPTY,
            Some(p) => p.index() as u8 + 1,
        };
    }
    r.hand = [
        pos.in_hand(Player::First) as usize,
        pos.in_hand(Player::Second) as usize,
    ];
    r.turn = pos.side_to_move().index();
    r.ply = pos.ply() as usize;
    r.end = if r.ply > 0 {
        r.judge(r.turn_at(r.ply - 1))
    } else {
        None
    };
    r
}
