//! A deliberately naive second implementation of gomoku, written from `games.md` alone
//! (a 2-D array, full-board scans after every move, no incremental anything), and
//! differential tests: perft, divide, legal moves and outcomes must agree with the real
//! crate on many random positions, early and late, on several board sizes and both rules.
//! The perft tables at the end pin figures both implementations agree on.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns unwrap too

use std::collections::BTreeMap;

use board_core::{Direction, Notation, Outcome, Player, Position, Rules, divide, perft};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_gomoku::{GomokuConfig, GomokuPosition, Move, Rule};

/// The reference: `board[row][col]`, row 0 = rank 1; 0 empty, 1 Black, 2 White.
#[derive(Clone, Debug)]
struct Naive {
    n: usize,
    exact5: bool,
    board: Vec<Vec<u8>>,
    to_move: u8,
    winner: Option<u8>,
    draw: bool,
}

impl Naive {
    fn new(n: usize, exact5: bool) -> Naive {
        Naive {
            n,
            exact5,
            board: vec![vec![0; n]; n],
            to_move: 1,
            winner: None,
            draw: false,
        }
    }

    fn over(&self) -> bool {
        self.winner.is_some() || self.draw
    }

    /// Every empty square, as (row, col), in the order a1, b1, …, a2, …
    fn moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if self.over() {
            return out;
        }
        for r in 0..self.n {
            for c in 0..self.n {
                if self.board[r][c] == 0 {
                    out.push((r, c));
                }
            }
        }
        out
    }

    fn at(&self, r: i64, c: i64) -> Option<u8> {
        if r < 0 || c < 0 || r >= self.n as i64 || c >= self.n as i64 {
            None
        } else {
            Some(self.board[r as usize][c as usize])
        }
    }

    /// Does `colour` have a winning line anywhere on the board? Looks at every maximal run.
    fn has_win(&self, colour: u8) -> bool {
        let dirs = [(0i64, 1i64), (1, 0), (1, 1), (1, -1)];
        for r in 0..self.n as i64 {
            for c in 0..self.n as i64 {
                if self.at(r, c) != Some(colour) {
                    continue;
                }
                for (dr, dc) in dirs {
                    if self.at(r - dr, c - dc) == Some(colour) {
                        continue; // not where the run starts
                    }
                    let mut len = 0;
                    while self.at(r + len * dr, c + len * dc) == Some(colour) {
                        len += 1;
                    }
                    let wins = if self.exact5 { len == 5 } else { len >= 5 };
                    if wins {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn play(&mut self, r: usize, c: usize) {
        assert!(!self.over() && self.board[r][c] == 0);
        let me = self.to_move;
        self.board[r][c] = me;
        if self.has_win(me) {
            self.winner = Some(me);
        } else if self.board.iter().all(|row| row.iter().all(|&x| x != 0)) {
            self.draw = true;
        }
        self.to_move = 3 - me;
    }

    /// Takes back the stone on (`r`, `c`), the last one played.
    fn take_back(&mut self, r: usize, c: usize) {
        self.board[r][c] = 0;
        self.winner = None;
        self.draw = false;
        self.to_move = 3 - self.to_move;
    }

    /// Sequences of `depth` moves; those of length 1 are just the legal moves.
    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => return 1,
            1 => return self.moves().len() as u64,
            _ => {}
        }
        let mut me = self.clone();
        me.perft_in_place(depth)
    }

    fn perft_in_place(&mut self, depth: u32) -> u64 {
        if depth == 1 {
            return self.moves().len() as u64;
        }
        let mut total = 0;
        for (r, c) in self.moves() {
            self.play(r, c);
            total += self.perft_in_place(depth - 1);
            self.take_back(r, c);
        }
        total
    }

    fn outcome(&self) -> Option<Outcome> {
        match (self.winner, self.draw) {
            (Some(1), _) => Some(Outcome::Win(Player::First)),
            (Some(_), _) => Some(Outcome::Win(Player::Second)),
            (None, true) => Some(Outcome::Draw),
            (None, false) => None,
        }
    }

    fn name(&self, r: usize, c: usize) -> String {
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }
}

fn config(size: u32, rule: Rule) -> GomokuConfig {
    GomokuConfig::new(size, rule).unwrap()
}

/// Compares everything observable between the two implementations in one position.
fn assert_same(pos: &GomokuPosition, naive: &Naive, depth: u32, with_divide: bool) {
    let g = pos.geometry();
    for r in 0..naive.n {
        for c in 0..naive.n {
            let sq = g.square_at(c as u32, r as u32).unwrap();
            let want = match naive.board[r][c] {
                1 => Some(Player::First),
                2 => Some(Player::Second),
                _ => None,
            };
            assert_eq!(pos.stone_at(sq), want, "{}", naive.name(r, c));
        }
    }
    let side = if naive.to_move == 1 {
        Player::First
    } else {
        Player::Second
    };
    let here = pos.to_position_string();
    assert_eq!(pos.side_to_move(), side, "{here}");
    assert_eq!(pos.outcome(), naive.outcome(), "{here}");
    // Only the mover can have made a winning line: the player to move never has one.
    assert!(!naive.has_win(naive.to_move), "{here}");

    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|m| pos.format_move(*m)).collect();
    let want: Vec<String> = naive
        .moves()
        .into_iter()
        .map(|(r, c)| naive.name(r, c))
        .collect();
    assert_eq!(names, want, "{here}");

    // Lines and runs through every square, walked on the naive board.
    let axes = [(0i64, 1i64), (1, 0), (1, 1), (-1, 1)]; // (drow, dcol): E, N, NE, SE
    for r in 0..naive.n as i64 {
        for c in 0..naive.n as i64 {
            let sq = g.square_at(c as u32, r as u32).unwrap();
            let mut would_win = [false; 2];
            for (axis, (dr, dc)) in axes.into_iter().enumerate() {
                let dir = Direction::AXES[axis];
                let mut back = 0;
                while naive.at(r - (back + 1) * dr, c - (back + 1) * dc).is_some() {
                    back += 1;
                }
                let (mut black, mut white, mut len) = (0u32, 0u32, 0);
                while let Some(cell) = naive.at(r + (len - back) * dr, c + (len - back) * dc) {
                    match cell {
                        1 => black |= 1 << len,
                        2 => white |= 1 << len,
                        _ => {}
                    }
                    len += 1;
                }
                let view = pos.line_through(sq, dir).unwrap();
                assert_eq!(
                    (view.axis, view.black, view.white, view.pos, view.len),
                    (dir, black, white, back as u32, len as u32),
                    "{here}: line through {} along {dir:?}",
                    naive.name(r as usize, c as usize)
                );
                assert_eq!(pos.line_through(sq, dir.opposite()), Some(view));
                for (player, colour) in [(Player::First, 1), (Player::Second, 2)] {
                    let ray = |sign: i64| {
                        let mut k = 1;
                        while naive.at(r + sign * k * dr, c + sign * k * dc) == Some(colour) {
                            k += 1;
                        }
                        k as u32 - 1
                    };
                    let (up, down) = (ray(1), ray(-1));
                    assert_eq!(pos.ray_run(player, sq, dir), up);
                    assert_eq!(pos.ray_run(player, sq, dir.opposite()), down);
                    assert_eq!(pos.run_through(player, sq, dir), up + down + 1);
                    let placed = if naive.exact5 {
                        up + down + 1 == 5
                    } else {
                        up + down + 1 >= 5
                    };
                    would_win[player.index()] |= placed;
                }
            }
            for player in Player::BOTH {
                let empty = naive.board[r as usize][c as usize] == 0;
                assert_eq!(
                    pos.is_winning_move(player, sq),
                    empty && would_win[player.index()],
                    "{here}: {player:?} on {}",
                    naive.name(r as usize, c as usize)
                );
            }
        }
    }

    let mut p = pos.clone();
    for d in 0..=depth {
        assert_eq!(perft(&mut p, d), naive.perft(d), "perft({d}) of {here}");
    }
    if with_divide && depth >= 1 {
        let fast: BTreeMap<String, u64> = divide(&mut p, depth)
            .into_iter()
            .map(|(m, n)| (pos.format_move(m), n))
            .collect();
        let slow: BTreeMap<String, u64> = naive
            .moves()
            .into_iter()
            .map(|(r, c)| {
                let mut next = naive.clone();
                next.play(r, c);
                (naive.name(r, c), next.perft(depth - 1))
            })
            .collect();
        assert_eq!(fast, slow, "divide({depth}) of {here}");
    }
    assert_eq!(p, *pos);
    assert_eq!(p.hash(), pos.hash());
}

/// Plays a seeded random game in both implementations, comparing along the way. With
/// `cluster`, moves are drawn from a small window around the centre while it has room,
/// which makes dense, tactical positions (and wins) on big boards.
fn differential_game(
    cfg: GomokuConfig,
    seed: u64,
    cluster: Option<u32>,
    depth_at: impl Fn(usize) -> u32,
    compare_every: usize,
) -> (Option<Outcome>, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = cfg.size() as usize;
    let mut pos = GomokuPosition::new(cfg);
    let mut naive = Naive::new(n, cfg.rule() == Rule::Exact5);
    let mut moves = Vec::new();
    let mut plies = 0;
    loop {
        let empties = n * n - plies;
        if plies % compare_every == 0 || naive.over() {
            assert_same(
                &pos,
                &naive,
                depth_at(empties),
                plies % (2 * compare_every) == 0,
            );
        }
        if naive.over() {
            return (naive.outcome(), plies);
        }
        pos.generate_moves(&mut moves);
        let pick = match cluster {
            Some(radius) => {
                let mid = (n / 2) as i64;
                let near: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        let c = pos.geometry().coord(m.square()).unwrap();
                        (c.col() as i64 - mid).abs() <= radius as i64
                            && (c.row() as i64 - mid).abs() <= radius as i64
                    })
                    .collect();
                if near.is_empty() {
                    moves[rng.random_range(0..moves.len())]
                } else {
                    near[rng.random_range(0..near.len())]
                }
            }
            None => moves[rng.random_range(0..moves.len())],
        };
        let c = pos.geometry().coord(pick.square()).unwrap();
        naive.play(c.row() as usize, c.col() as usize);
        pos.play(pick).unwrap();
        plies += 1;
    }
}

#[test]
fn small_boards_agree_to_the_end_of_the_game() {
    // Perft to the end of the game once few squares are left: reaches every finished
    // game (wins on the last squares, full-board draws) from each position.
    let mut outcomes = BTreeMap::new();
    for size in [5, 6] {
        for rule in Rule::ALL {
            for seed in 0..12 {
                let (outcome, _) = differential_game(
                    config(size, rule),
                    seed,
                    None,
                    |empties| match empties {
                        0..=8 => empties as u32,
                        9..=12 => 4,
                        _ => 3,
                    },
                    3,
                );
                *outcomes.entry(format!("{outcome:?}")).or_insert(0) += 1;
            }
        }
    }
    // The random games must have covered wins for both players and draws.
    assert!(outcomes.len() == 3, "{outcomes:?}");
}

#[test]
fn medium_boards_agree() {
    for (size, rule, seed) in [
        (7, Rule::Freestyle, 1),
        (7, Rule::Exact5, 2),
        (8, Rule::Exact5, 3),
        (9, Rule::Freestyle, 4),
        (9, Rule::Exact5, 5),
        (10, Rule::Freestyle, 6),
    ] {
        differential_game(
            config(size, rule),
            seed,
            Some(2),
            |empties| if empties <= 40 { 3 } else { 2 },
            5,
        );
    }
}

#[test]
fn big_boards_agree_in_dense_tactical_positions() {
    // Clustered play on 15x15 and 20x20 gives crowded centres full of fours and overlines.
    let mut wins = 0;
    for (size, rule, seed) in [
        (15, Rule::Freestyle, 10),
        (15, Rule::Exact5, 11),
        (15, Rule::Exact5, 12),
        (20, Rule::Freestyle, 13),
        (20, Rule::Exact5, 14),
    ] {
        let (outcome, _) = differential_game(config(size, rule), seed, Some(3), |_| 1, 4);
        if matches!(outcome, Some(Outcome::Win(_))) {
            wins += 1;
        }
    }
    assert!(wins >= 3);
}

#[test]
fn many_exact5_games_agree_on_the_outcome() {
    // Cheap comparison (outcome and move list at every ply, perft(1)) over many games on a
    // crowded 9x9 board, where overlines are common.
    let mut overline_games = 0;
    for seed in 100..160 {
        let (outcome, plies) = differential_game(config(9, Rule::Exact5), seed, Some(2), |_| 1, 1);
        if outcome.is_some() && plies > 30 {
            overline_games += 1;
        }
    }
    assert!(overline_games > 0);
}

/// Plays `moves` (space-separated) from the start of `cfg` in both implementations.
fn both_after(cfg: GomokuConfig, moves: &str) -> (GomokuPosition, Naive) {
    let mut pos = GomokuPosition::new(cfg);
    let mut naive = Naive::new(cfg.size() as usize, cfg.rule() == Rule::Exact5);
    for text in moves.split_whitespace() {
        let mv = pos.parse_legal_move(text).unwrap();
        let c = pos.geometry().coord(mv.square()).unwrap();
        pos.make_move(mv);
        naive.play(c.row() as usize, c.col() as usize);
    }
    (pos, naive)
}

// --- Perft tables: every figure here was computed by the naive reference as well. ---

#[test]
fn perft_published_15x15() {
    let mut pos = GomokuPosition::new(GomokuConfig::default());
    let want = [1, 225, 50_400, 11_239_200];
    for (d, n) in want.into_iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32), n);
    }
    // Reference cross-check of the first two plies.
    let naive = Naive::new(15, false);
    assert_eq!(naive.perft(2), 50_400);
    let exact = GomokuPosition::new(config(15, Rule::Exact5));
    assert_eq!(perft(&mut exact.clone(), 3), 11_239_200);
}

#[test]
fn perft_20x20() {
    let mut pos = GomokuPosition::new(config(20, Rule::Freestyle));
    for (d, n) in [1u64, 400, 159_600, 63_520_800].into_iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32), n);
    }
    assert_eq!(Naive::new(20, false).perft(2), 159_600);
}

#[test]
fn perft_small_boards_from_the_start() {
    for (size, rule, want) in [
        (5, Rule::Freestyle, [25u64, 600, 13_800, 303_600]),
        (6, Rule::Exact5, [36, 1_260, 42_840, 1_413_720]),
    ] {
        let cfg = config(size, rule);
        let mut pos = GomokuPosition::new(cfg);
        let naive = Naive::new(size as usize, rule == Rule::Exact5);
        for (d, n) in want.into_iter().enumerate() {
            let d = d as u32 + 1;
            assert_eq!(perft(&mut pos, d), n, "{cfg} perft({d})");
            if d <= 3 {
                assert_eq!(naive.perft(d), n, "{cfg} naive perft({d})");
            }
        }
    }
}

/// Positions past the opening and near a win; the reference recomputes every figure.
const POSITIONS: &[(&str, &str, &[u64])] = &[
    // 15x15: Black has an open four h8-k8 after 7 plies, White to move. At depth 3, Black
    // wins at once after the 216 White moves that block neither g8 nor l8 (2 wins each)
    // and after the 2 that block one (1 win each): 216*215*216 + 2*216*216.
    ("gomoku", "h8 a1 i8 a2 j8 a3 k8", &[218, 47_306, 10_124_352]),
    // White blocked g8: Black to move wins on l8 only, so perft(2) = 216 * 216.
    (
        "gomoku",
        "h8 a1 i8 a2 j8 a3 k8 g8",
        &[217, 46_656, 10_031_040],
    ),
    // Freestyle, h8-k8 and m8 for Black, to move: l8 makes six and g8 five, both win:
    // perft(2) = 213 * 214.
    (
        "gomoku",
        "h8 a1 i8 a2 j8 a3 k8 a4 m8 o15",
        &[215, 45_582, 9_663_810],
    ),
    // The same under exact5: l8 makes an overline (no win), only g8 wins: 214 * 214.
    (
        "gomoku:rule=exact5",
        "h8 a1 i8 a2 j8 a3 k8 a4 m8 o15",
        &[215, 45_796, 9_709_179],
    ),
    // 9x9 exact5, Black to move: e5 makes an exact five on the diagonal a1-e5 and an
    // overline of six on rank 5 (a5-d5, f5): it wins, and is Black's only win (62 * 62).
    // White has two fours on the h and i files.
    (
        "gomoku:size=9,rule=exact5",
        "a1 i9 b2 i8 c3 i7 d4 i6 a5 h9 b5 h8 c5 h7 d5 h6 f5 g9",
        &[63, 3_844, 227_042, 13_406_460],
    ),
    // 20x20, two crossing threes.
    (
        "gomoku:size=20",
        "j10 a1 k11 a20 l12 t1 j11 t20 j12",
        &[391, 152_490, 59_318_610],
    ),
];

#[test]
fn perft_past_the_opening() {
    for &(spec, moves, want) in POSITIONS {
        let cfg: GomokuConfig = spec.parse().unwrap();
        let (pos, naive) = both_after(cfg, moves);
        for (d, &n) in want.iter().enumerate() {
            let d = d as u32 + 1;
            assert_eq!(naive.perft(d), n, "{spec} {moves}: naive perft({d})");
            assert_eq!(perft(&mut pos.clone(), d), n, "{spec} {moves}: perft({d})");
        }
    }
}

/// The reference position for a board given by a position string (read by the real
/// crate, then copied square by square).
fn naive_of(pos: &GomokuPosition) -> Naive {
    let n = pos.size() as usize;
    let mut naive = Naive::new(n, pos.rule() == Rule::Exact5);
    for r in 0..n {
        for c in 0..n {
            let sq = pos.geometry().square_at(c as u32, r as u32).unwrap();
            naive.board[r][c] = match pos.stone_at(sq) {
                Some(Player::First) => 1,
                Some(Player::Second) => 2,
                None => 0,
            };
        }
    }
    let stones = naive.board.iter().flatten().filter(|&&x| x != 0).count();
    naive.to_move = if stones % 2 == 0 { 1 } else { 2 };
    if naive.has_win(1) {
        naive.winner = Some(1);
    } else if naive.has_win(2) {
        naive.winner = Some(2);
    } else {
        naive.draw = stones == n * n;
    }
    naive
}

/// Late positions on small boards, perft to the end of the game: every line ends in a win
/// or a full-board draw. Each figure is recomputed by the reference.
const ENDGAMES: &[(&str, &str, &[u64])] = &[
    (
        "gomoku:size=5",
        "ooxo1/oxxo1/oxxx1/2x1o/1o2x x 16",
        &[9, 64, 448, 2_352, 11_460, 39_360, 112_320, 188_640, 175_680],
    ),
    (
        "gomoku:size=5",
        // No line can be completed any more: 8! sequences, all full-board draws.
        "xoo1o/3ox/o2x1/xxxxo/xox1o o 17",
        &[8, 56, 336, 1_680, 6_720, 20_160, 40_320, 40_320],
    ),
    (
        "gomoku:size=5,rule=exact5",
        "1oxoo/oxxo1/oxxx1/2x1o/1o2x x 16",
        &[9, 64, 448, 2_268, 11_340, 36_000, 106_920, 156_960, 152_640],
    ),
    (
        "gomoku:size=6",
        "oo2oo/x2oox/xxo2o/ox1xo1/xxxoox/ox1xx1 x 26",
        &[
            10, 72, 512, 2_646, 13_272, 44_040, 134_784, 225_936, 285_696, 97_920,
        ],
    ),
    (
        // The same board under exact5: overlines stop counting from depth 5 on.
        "gomoku:size=6,rule=exact5",
        "oo2oo/x2oox/xxo2o/ox1xo1/xxxoox/ox1xx1 x 26",
        &[
            10, 72, 512, 2_646, 13_608, 45_000, 144_000, 237_600, 316_800, 103_680,
        ],
    ),
];

#[test]
fn perft_small_board_endgames() {
    for &(spec, text, want) in ENDGAMES {
        let cfg: GomokuConfig = spec.parse().unwrap();
        let pos = GomokuPosition::from_position_string(cfg, text).unwrap();
        let naive = naive_of(&pos);
        assert_eq!(pos.outcome(), None);
        assert_eq!(want.len() as u32, cfg.size() * cfg.size() - pos.ply());
        for (d, &n) in want.iter().enumerate() {
            let d = d as u32 + 1;
            assert_eq!(naive.perft(d), n, "{spec} {text}: naive perft({d})");
            assert_eq!(perft(&mut pos.clone(), d), n, "{spec} {text}: perft({d})");
        }
        // One more ply than there are empty squares: every sequence has ended.
        assert_eq!(perft(&mut pos.clone(), want.len() as u32 + 1), 0);
    }
}
