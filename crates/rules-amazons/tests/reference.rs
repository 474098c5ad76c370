//! A deliberately naive implementation of amazons, written from `games.md` alone (2-D
//! array, plain loops, a cloned board per queen move, its own notation and position-string
//! code), and differential tests against the real crate: move lists, outcomes and perft on
//! the start positions, on positions reached by seeded random playouts (to the end of the
//! game) and on random boards read from position strings.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use board_core::{Notation, Player, Position, Rules, divide, perft};
use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_chacha::ChaCha8Rng;
use rules_amazons::{AmazonsConfig, AmazonsPosition};

mod common;

// ---------------------------------------------------------------------------------------
// The reference.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    White,
    Black,
    Arrow,
}

/// (column, row), both 0-based; row 0 is rank 1.
type Sq = (i32, i32);

#[derive(Clone, Debug)]
struct Naive {
    n: i32,
    /// `board[row][col]`.
    board: Vec<Vec<Cell>>,
    to_move: Cell,
    plies: u32,
}

const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn sq_name((c, r): Sq) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

fn sq_parse(s: &str) -> Sq {
    let b = s.as_bytes();
    (
        (b[0] - b'a') as i32,
        s[1..].parse::<i32>().expect("rank") - 1,
    )
}

impl Naive {
    fn start(n: i32) -> Naive {
        let mut p = Naive {
            n,
            board: vec![vec![Cell::Empty; n as usize]; n as usize],
            to_move: Cell::White,
            plies: 0,
        };
        let (white, black, first) = if n == 10 {
            (
                ["a4", "d1", "g1", "j4"],
                ["a7", "d10", "g10", "j7"],
                Cell::White,
            )
        } else {
            (
                ["a3", "c1", "f1", "h3"],
                ["a6", "c8", "f8", "h6"],
                Cell::Black,
            )
        };
        for s in white {
            p.set(sq_parse(s), Cell::White);
        }
        for s in black {
            p.set(sq_parse(s), Cell::Black);
        }
        p.to_move = first;
        p
    }

    /// Reads the board, side and ply fields (trusting them: tests only).
    fn from_position_string(n: i32, text: &str) -> Naive {
        let fields: Vec<&str> = text.split(' ').collect();
        let mut p = Naive::start(n);
        p.board = vec![vec![Cell::Empty; n as usize]; n as usize];
        for (i, rank) in fields[0].split('/').enumerate() {
            let r = n - 1 - i as i32;
            let (mut c, mut run) = (0, 0);
            for ch in rank.chars() {
                if let Some(d) = ch.to_digit(10) {
                    run = run * 10 + d as i32;
                    continue;
                }
                c += run;
                run = 0;
                let cell = match ch {
                    'w' => Cell::White,
                    'b' => Cell::Black,
                    _ => Cell::Arrow,
                };
                p.set((c, r), cell);
                c += 1;
            }
        }
        p.to_move = if fields[1] == "w" {
            Cell::White
        } else {
            Cell::Black
        };
        p.plies = fields[2].parse().expect("ply");
        p
    }

    fn get(&self, (c, r): Sq) -> Cell {
        self.board[r as usize][c as usize]
    }

    fn set(&mut self, (c, r): Sq, v: Cell) {
        self.board[r as usize][c as usize] = v;
    }

    fn on_board(&self, (c, r): Sq) -> bool {
        c >= 0 && r >= 0 && c < self.n && r < self.n
    }

    /// Every legal move as (from, to, arrow).
    fn moves(&self) -> Vec<(Sq, Sq, Sq)> {
        let mut out = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                if self.get((c, r)) != self.to_move {
                    continue;
                }
                for (dc, dr) in DIRS {
                    let mut to = (c + dc, r + dr);
                    while self.on_board(to) && self.get(to) == Cell::Empty {
                        // The queen stands on `to`; the square it left is empty.
                        let mut after = self.clone();
                        after.set((c, r), Cell::Empty);
                        after.set(to, self.to_move);
                        for (ac, ar) in DIRS {
                            let mut arrow = (to.0 + ac, to.1 + ar);
                            while after.on_board(arrow) && after.get(arrow) == Cell::Empty {
                                out.push(((c, r), to, arrow));
                                arrow = (arrow.0 + ac, arrow.1 + ar);
                            }
                        }
                        to = (to.0 + dc, to.1 + dr);
                    }
                }
            }
        }
        out
    }

    /// The winner, if the player to move has no move.
    fn winner(&self) -> Option<Cell> {
        if self.moves().is_empty() {
            Some(if self.to_move == Cell::White {
                Cell::Black
            } else {
                Cell::White
            })
        } else {
            None
        }
    }

    fn play(&mut self, (from, to, arrow): (Sq, Sq, Sq)) {
        let mover = self.get(from);
        self.set(from, Cell::Empty);
        self.set(to, mover);
        self.set(arrow, Cell::Arrow);
        self.to_move = if self.to_move == Cell::White {
            Cell::Black
        } else {
            Cell::White
        };
        self.plies += 1;
    }

    fn play_text(&mut self, text: &str) {
        let (from, rest) = text.split_once('-').expect("from-to/arrow");
        let (to, arrow) = rest.split_once('/').expect("from-to/arrow");
        self.play((sq_parse(from), sq_parse(to), sq_parse(arrow)));
    }

    fn move_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .moves()
            .into_iter()
            .map(|(f, t, a)| format!("{}-{}/{}", sq_name(f), sq_name(t), sq_name(a)))
            .collect();
        v.sort();
        v
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }

    /// The house position string, written independently of the crate.
    fn position_string(&self) -> String {
        let mut ranks = Vec::new();
        for r in (0..self.n).rev() {
            let mut s = String::new();
            let mut run = 0;
            for c in 0..self.n {
                let ch = match self.get((c, r)) {
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::White => 'w',
                    Cell::Black => 'b',
                    Cell::Arrow => 'x',
                };
                if run > 0 {
                    s += &run.to_string();
                    run = 0;
                }
                s.push(ch);
            }
            if run > 0 {
                s += &run.to_string();
            }
            ranks.push(s);
        }
        let side = if self.to_move == Cell::White {
            "w"
        } else {
            "b"
        };
        format!("{} {side} {}", ranks.join("/"), self.plies)
    }
}

// ---------------------------------------------------------------------------------------
// Comparison helpers.

fn config(n: i32) -> AmazonsConfig {
    AmazonsConfig::new(n as u32).unwrap()
}

fn crate_moves(pos: &AmazonsPosition) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    v.sort();
    v
}

/// Colour of the player in the crate's terms.
fn colour(pos: &AmazonsPosition, p: Player) -> Cell {
    if pos.player_name(p) == "White" {
        Cell::White
    } else {
        Cell::Black
    }
}

/// Move lists, move counts and outcomes agree; returns the number of moves.
fn assert_same(pos: &AmazonsPosition, naive: &Naive) -> usize {
    let context = || pos.to_position_string();
    assert_eq!(pos.to_position_string(), naive.position_string());
    let mine = crate_moves(pos);
    let theirs = naive.move_texts();
    if mine != theirs {
        let extra: Vec<_> = mine
            .iter()
            .filter(|m| !theirs.contains(m))
            .take(5)
            .collect();
        let missing: Vec<_> = theirs
            .iter()
            .filter(|m| !mine.contains(m))
            .take(5)
            .collect();
        panic!(
            "{}: {} moves vs reference {}; extra {extra:?}, missing {missing:?}",
            context(),
            mine.len(),
            theirs.len()
        );
    }
    assert_eq!(pos.count_moves(), theirs.len() as u64, "{}", context());
    let outcome = pos.outcome().map(|o| o.winner().map(|w| colour(pos, w)));
    let expected = naive.winner().map(Some);
    assert_eq!(outcome, expected, "{}", context());
    assert_eq!(colour(pos, pos.side_to_move()), naive.to_move);
    theirs.len()
}

/// perft(depth) and divide agree.
fn assert_same_perft(pos: &mut AmazonsPosition, naive: &Naive, depth: u32) -> u64 {
    let expected = naive.perft(depth);
    assert_eq!(
        perft(pos, depth),
        expected,
        "perft({depth}) of {}",
        pos.to_position_string()
    );
    if depth >= 2 {
        for (mv, n) in divide(pos, depth) {
            let mut next = naive.clone();
            next.play_text(&pos.format_move(mv));
            assert_eq!(n, next.perft(depth - 1), "divide {}", pos.format_move(mv));
        }
    }
    expected
}

// ---------------------------------------------------------------------------------------
// The tests.

#[test]
fn start_positions_agree() {
    for n in [10, 8] {
        let pos = AmazonsPosition::new(config(n));
        let naive = Naive::start(n);
        assert_eq!(assert_same(&pos, &naive), if n == 10 { 2176 } else { 1232 });
    }
    // The 8×8 perft(2) figure of `perft.rs`, from the reference alone.
    assert_eq!(Naive::start(8).perft(2), 1_331_198);
    let mut pos = AmazonsPosition::new(config(8));
    assert_same_perft(&mut pos, &Naive::start(8), 2);
}

#[test]
fn standard_perft2_agrees_with_reference() {
    assert_eq!(Naive::start(10).perft(2), 4_307_152);
}

/// Random games to the end, both sizes: every position's move list and outcome agree, and
/// perft(2) (perft(3) near the end) wherever the reference can afford it.
#[test]
fn random_playouts_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xA3A2_0115);
    let mut perfts = 0;
    let mut finished = [0u32; 2];
    for game in 0..24 {
        let n = if game % 3 == 0 { 10 } else { 8 };
        let mut pos = AmazonsPosition::new(config(n));
        let mut naive = Naive::start(n);
        loop {
            let count = assert_same(&pos, &naive);
            if count == 0 {
                let loser = pos.side_to_move();
                finished[loser.index()] += 1;
                assert_eq!(perft(&mut pos, 1), 0);
                assert_eq!(perft(&mut pos, 3), 0);
                assert!(pos.outcome_reason().unwrap().contains("has no legal move"));
                break;
            }
            if count <= 40 {
                assert_same_perft(&mut pos, &naive, 3);
                perfts += 1;
            } else if count <= 400 && rng.random_bool(0.3) {
                assert_same_perft(&mut pos, &naive, 2);
                perfts += 1;
            }
            let moves = naive.move_texts();
            let text = &moves[rng.random_range(0..moves.len())];
            let mv = pos.parse_legal_move(text).unwrap();
            pos.play(mv).unwrap();
            naive.play_text(text);
        }
    }
    assert!(perfts > 50, "only {perfts} perft comparisons");
    assert!(finished[0] > 0 && finished[1] > 0, "{finished:?}");
}

/// A random board: `arrows` arrows and four queens a side anywhere, side by parity.
fn random_board(rng: &mut ChaCha8Rng, n: i32, arrows: usize) -> Naive {
    let mut naive = Naive::start(n);
    naive.board = vec![vec![Cell::Empty; n as usize]; n as usize];
    let mut squares: Vec<Sq> = (0..n * n).map(|i| (i % n, i / n)).collect();
    squares.shuffle(rng);
    let mut it = squares.into_iter();
    for cell in [Cell::White, Cell::Black] {
        for _ in 0..4 {
            naive.set(it.next().unwrap(), cell);
        }
    }
    for _ in 0..arrows {
        naive.set(it.next().unwrap(), Cell::Arrow);
    }
    naive.plies = arrows as u32;
    let first = if n == 10 { Cell::White } else { Cell::Black };
    let second = if first == Cell::White {
        Cell::Black
    } else {
        Cell::White
    };
    naive.to_move = if arrows.is_multiple_of(2) {
        first
    } else {
        second
    };
    naive
}

/// Boards read from position strings, from sparse to almost full (many finished games,
/// many positions with a few queens walled in): moves, outcome and perft agree.
#[test]
fn random_boards_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0B0A_4D5E);
    let mut finished = 0;
    for i in 0..400 {
        let n = if i % 2 == 0 { 8 } else { 10 };
        let cells = (n * n) as usize;
        // Mostly late-game densities.
        let arrows = if i % 5 == 0 {
            rng.random_range(0..cells - 8)
        } else {
            rng.random_range((cells - 8) * 3 / 4..=cells - 8)
        };
        let naive = random_board(&mut rng, n, arrows);
        let text = naive.position_string();
        let mut pos = AmazonsPosition::from_position_string(config(n), &text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let count = assert_same(&pos, &naive);
        if count == 0 {
            finished += 1;
            assert_eq!(perft(&mut pos, 2), 0);
        } else if count <= 60 {
            assert_same_perft(&mut pos, &naive, 3);
        } else if count <= 600 {
            assert_same_perft(&mut pos, &naive, 2);
        }
    }
    assert!(finished > 10, "only {finished} finished boards");
}

/// The depth-3 figure from the reference, move by move (minutes: run by hand with
/// `cargo test --release -p rules-amazons --test reference -- --ignored --nocapture`).
#[test]
#[ignore = "slow: the naive reference takes minutes"]
fn standard_depth3_agrees_with_reference() {
    let naive = Naive::start(10);
    let mut pos = AmazonsPosition::new(config(10));
    let mut total = 0;
    for (mv, n) in divide(&mut pos, 3) {
        let mut next = naive.clone();
        next.play_text(&pos.format_move(mv));
        assert_eq!(n, next.perft(2), "{}", pos.format_move(mv));
        total += n;
    }
    assert_eq!(total, 8_350_439_170);
    println!("perft(3) = {total} confirmed by the reference");
}

/// Every figure of the shared perft table that the naive reference can afford.
#[test]
fn perft_table_agrees_with_reference() {
    let mut checked = 0;
    for &(size, text, figures) in common::PERFT_CASES {
        let naive = Naive::from_position_string(size as i32, text);
        assert_eq!(naive.position_string(), text);
        for (depth, &expected) in (1..).zip(figures) {
            if expected > 5_000_000 {
                break;
            }
            assert_eq!(naive.perft(depth), expected, "perft({depth}) of {text}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked}");
}
