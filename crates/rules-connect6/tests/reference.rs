//! An independent, deliberately naive implementation of the connect6 rules, written from
//! games.md alone (2-D array, copy-make, a whole-board scan for six in a row after every
//! move, move lists built by brute force), and differential tests against the real crate:
//! move lists, outcomes, perft and divide on the start position, on random positions
//! reached by seeded playouts, and on late-game positions down to the end of the game.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use board_core::View as _;
use board_core::{Notation, Outcome, Player, Position, Rules, divide, perft};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_connect6::{Connect6Config, Connect6Position};

mod naive {
    /// 0 empty, 1 black, 2 white.
    pub type Cell = u8;
    pub const BLACK: Cell = 1;
    pub const WHITE: Cell = 2;
    /// The largest board side (games.md: sizes 6-26).
    pub const MAX_N: usize = 26;

    /// A square as (column, row), row 0 = rank 1.
    pub type Sq = (usize, usize);

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum RMove {
        One(Sq),
        Two(Sq, Sq),
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Result {
        Winner(Cell),
        Draw,
    }

    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Census {
        pub perft: Vec<u64>,
        pub wins: u64,
        pub draws: u64,
        pub singles: u64,
    }

    #[derive(Clone, Debug)]
    pub struct Game {
        pub n: usize,
        /// `board[row][col]`, rows and columns from 0 to `n - 1` used (a fixed array, so
        /// that copy-make copies without allocating).
        pub board: [[Cell; MAX_N]; MAX_N],
        pub to_move: Cell,
        pub moves_played: u32,
        pub result: Option<Result>,
    }

    pub fn square_text(sq: Sq) -> String {
        format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
    }

    impl Game {
        pub fn new(n: usize) -> Game {
            Game {
                n,
                board: [[0; MAX_N]; MAX_N],
                to_move: BLACK,
                moves_played: 0,
                result: None,
            }
        }

        fn flat(&self, sq: Sq) -> usize {
            sq.1 * self.n + sq.0
        }

        /// "j10" or "j11,k12" with the lower flat index first.
        pub fn move_text(&self, m: RMove) -> String {
            match m {
                RMove::One(a) => square_text(a),
                RMove::Two(a, b) => {
                    let (lo, hi) = if self.flat(a) < self.flat(b) {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    format!("{},{}", square_text(lo), square_text(hi))
                }
            }
        }

        pub fn empty_squares(&self) -> Vec<Sq> {
            let mut out = Vec::new();
            for row in 0..self.n {
                for col in 0..self.n {
                    if self.board[row][col] == 0 {
                        out.push((col, row));
                    }
                }
            }
            out
        }

        pub fn legal_moves(&self) -> Vec<RMove> {
            let mut out = Vec::new();
            if self.result.is_some() {
                return out;
            }
            let empty = self.empty_squares();
            // The first move of the game, and the move onto the last empty square, place one
            // stone; every other move places two on different empty squares.
            if self.moves_played == 0 || empty.len() == 1 {
                for &s in &empty {
                    out.push(RMove::One(s));
                }
            } else {
                for i in 0..empty.len() {
                    for j in (i + 1)..empty.len() {
                        out.push(RMove::Two(empty[i], empty[j]));
                    }
                }
            }
            out
        }

        /// Whether `who` has six of their stones in a row anywhere on the board.
        pub fn has_six(&self, who: Cell) -> bool {
            let n = self.n as i64;
            let dirs = [(1i64, 0i64), (0, 1), (1, 1), (1, -1)];
            for row in 0..n {
                for col in 0..n {
                    for (dc, dr) in dirs {
                        let mut all = true;
                        for k in 0..6 {
                            let c = col + dc * k;
                            let r = row + dr * k;
                            if c < 0 || c >= n || r < 0 || r >= n {
                                all = false;
                                break;
                            }
                            if self.board[r as usize][c as usize] != who {
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

        pub fn play(&self, m: RMove) -> Game {
            let mut g = self.clone();
            let who = g.to_move;
            match m {
                RMove::One(a) => g.board[a.1][a.0] = who,
                RMove::Two(a, b) => {
                    g.board[a.1][a.0] = who;
                    g.board[b.1][b.0] = who;
                }
            }
            g.moves_played += 1;
            g.to_move = if who == BLACK { WHITE } else { BLACK };
            if g.has_six(who) {
                g.result = Some(Result::Winner(who));
            } else if g.board[..g.n].iter().all(|row| !row[..g.n].contains(&0)) {
                g.result = Some(Result::Draw);
            }
            g
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = self.legal_moves();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
        }

        /// Reads `<ranks top to bottom>/... <x|o> <ply>` (no checks: test input only).
        pub fn from_string(n: usize, text: &str) -> Game {
            let fields: Vec<&str> = text.split_whitespace().collect();
            let mut g = Game::new(n);
            for (i, rank) in fields[0].split('/').enumerate() {
                let row = n - 1 - i;
                let mut col = 0;
                let mut run = String::new();
                for ch in rank.chars().chain(std::iter::once(';')) {
                    if ch.is_ascii_digit() {
                        run.push(ch);
                        continue;
                    }
                    if !run.is_empty() {
                        col += run.parse::<usize>().unwrap();
                        run.clear();
                    }
                    match ch {
                        'x' => g.board[row][col] = BLACK,
                        'o' => g.board[row][col] = WHITE,
                        _ => continue,
                    }
                    col += 1;
                }
            }
            g.to_move = if fields[1] == "x" { BLACK } else { WHITE };
            g.moves_played = fields[2].parse().unwrap();
            assert!(!g.has_six(BLACK) && !g.has_six(WHITE) && !g.empty_squares().is_empty());
            g
        }

        /// One walk of the whole game tree: the number of move sequences of each length
        /// `1..` (perft at every depth), plus how many sequences end in a win, in a draw,
        /// and how many single-stone moves are played in the tree.
        pub fn walk_to_the_end(&self) -> Census {
            let mut census = Census::default();
            self.walk(0, &mut census);
            census
        }

        fn walk(&self, depth: usize, census: &mut Census) {
            for m in self.legal_moves() {
                if census.perft.len() <= depth {
                    census.perft.push(0);
                }
                census.perft[depth] += 1;
                if let RMove::One(_) = m {
                    census.singles += 1;
                }
                let next = self.play(m);
                match next.result {
                    Some(Result::Winner(_)) => census.wins += 1,
                    Some(Result::Draw) => census.draws += 1,
                    None => next.walk(depth + 1, census),
                }
            }
        }

        pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
            let mut out: Vec<(String, u64)> = self
                .legal_moves()
                .into_iter()
                .map(|m| (self.move_text(m), self.play(m).perft(depth - 1)))
                .collect();
            out.sort();
            out
        }
    }
}

use naive::{Game, RMove};

fn config(size: u32) -> Connect6Config {
    Connect6Config::new(size).unwrap()
}

/// The real position reached by replaying the reference's moves as text.
fn replay(size: u32, texts: &[String]) -> Connect6Position {
    let mut pos = Connect6Position::new(config(size));
    for t in texts {
        let mv = pos
            .parse_legal_move(t)
            .unwrap_or_else(|e| panic!("{t}: {e}"));
        pos.make_move(mv);
    }
    pos
}

fn same_outcome(g: &Game, pos: &Connect6Position) -> bool {
    let theirs = match g.result {
        None => None,
        Some(naive::Result::Draw) => Some(Outcome::Draw),
        Some(naive::Result::Winner(naive::BLACK)) => Some(Outcome::Win(Player::First)),
        Some(naive::Result::Winner(_)) => Some(Outcome::Win(Player::Second)),
    };
    theirs == pos.outcome()
}

/// Compares everything cheap between the two at one position.
fn compare_position(g: &Game, pos: &Connect6Position, context: &str) {
    assert!(
        same_outcome(g, pos),
        "{context}: outcome {:?} vs {:?}\n{}",
        g.result,
        pos.outcome(),
        pos.diagram()
    );
    let side = if g.to_move == naive::BLACK {
        Player::First
    } else {
        Player::Second
    };
    assert_eq!(side, pos.side_to_move(), "{context}");
    assert_eq!(g.moves_played, pos.ply(), "{context}");
    let mut theirs: Vec<String> = g
        .legal_moves()
        .into_iter()
        .map(|m| g.move_text(m))
        .collect();
    theirs.sort();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut ours: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    ours.sort();
    assert_eq!(theirs, ours, "{context}: move lists differ");
    assert_eq!(pos.count_moves(), theirs.len() as u64, "{context}");
}

fn compare_divide(g: &Game, pos: &mut Connect6Position, depth: u32, context: &str) -> u64 {
    let theirs = g.divide(depth);
    let mut ours: Vec<(String, u64)> = divide(pos, depth)
        .into_iter()
        .map(|(m, n)| (pos.format_move(m), n))
        .collect();
    ours.sort();
    assert_eq!(theirs, ours, "{context}: divide({depth}) differs");
    let total: u64 = ours.iter().map(|(_, n)| n).sum();
    assert_eq!(perft(pos, depth), total, "{context}");
    total
}

/// perft(depth) cost estimate for the naive code: the number of leaf list entries.
fn estimated_leaves(empty: u64, single_first: bool, depth: u32) -> u64 {
    let mut e = empty;
    let mut total = 1u64;
    for d in 0..depth {
        let n = if d == 0 && single_first || e == 1 {
            e
        } else {
            e * e.saturating_sub(1) / 2
        };
        total = total.saturating_mul(n.max(1));
        e = e.saturating_sub(if d == 0 && single_first { 1 } else { 2 });
    }
    total
}

// ----- published and start-position figures -------------------------------------------

#[test]
fn perft_19x19_start_published() {
    let mut pos = Connect6Position::new(Connect6Config::default());
    assert_eq!(perft(&mut pos, 0), 1);
    assert_eq!(perft(&mut pos, 1), 361);
    assert_eq!(perft(&mut pos, 2), 23_327_820);
    let g = Game::new(19);
    assert_eq!(g.perft(1), 361);
    assert_eq!(g.perft(2), 23_327_820);
    // The naive code agrees move by move.
    compare_position(&g, &pos, "19x19 start");
    let d = divide(&mut pos, 2);
    assert_eq!(d.len(), 361);
    assert!(d.iter().all(|&(_, n)| n == 64_620));
}

#[test]
fn perft_19x19_start_depth3() {
    // No line of six is possible within three moves, so perft(3) is the product
    // 361 · C(360,2) · C(358,2); this walks 23 million make/unmake pairs.
    let mut pos = Connect6Position::new(Connect6Config::default());
    assert_eq!(perft(&mut pos, 3), 361 * 64_620 * 63_903);
    assert_eq!(perft(&mut pos, 3), 1_490_717_681_460);
}

#[test]
fn perft_small_boards_start() {
    // 6x6: 36, 36·C(35,2), 36·C(35,2)·C(33,2).
    let g = Game::new(6);
    let mut pos = Connect6Position::new(config(6));
    let expected = [1, 36, 21_420, 11_309_760];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32), n, "6x6 perft({d})");
    }
    assert_eq!(g.perft(2), 21_420);
    compare_divide(&g, &mut pos, 3, "6x6 start");

    // 7x7: 49, 49·C(48,2), ·C(46,2).
    let g = Game::new(7);
    let mut pos = Connect6Position::new(config(7));
    let expected = [1, 49, 55_272, 57_206_520];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32), n, "7x7 perft({d})");
    }
    compare_divide(&g, &mut pos, 2, "7x7 start");
}

// ----- fixed positions past the opening -------------------------------------------------

/// Plays the texts in both implementations and returns both.
fn both(size: u32, texts: &[&str]) -> (Game, Connect6Position) {
    let mut g = Game::new(size as usize);
    let mut pos = Connect6Position::new(config(size));
    for &t in texts {
        let m = g
            .legal_moves()
            .into_iter()
            .find(|&m| {
                g.move_text(m)
                    == pos.format_move(pos.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}")))
            })
            .unwrap_or_else(|| panic!("{t} is not legal for the reference"));
        g = g.play(m);
        let mv = pos.parse_legal_move(t).unwrap();
        pos.make_move(mv);
    }
    (g, pos)
}

#[test]
fn perft_6x6_threats() {
    // Black has a1-d1 and c3,d3; White scattered. Black can win with e1,f1.
    let (g, mut pos) = both(
        6,
        &["a1", "a6,b6", "b1,c1", "c6,d6", "d1,c3", "a5,b5", "d3,e4"],
    );
    assert_eq!(pos.side_to_move(), Player::Second);
    let d1 = compare_divide(&g, &mut pos, 1, "6x6 threats");
    let d2 = compare_divide(&g, &mut pos, 2, "6x6 threats");
    let d3 = compare_divide(&g, &mut pos, 3, "6x6 threats");
    // 253 = C(23,2); at depth 2 White's e6,f6 (a6-f6) ends the game: 253·210 − 210.
    assert_eq!([d1, d2, d3], [253, 52_920, 9_013_581]);
}

#[test]
fn perft_19x19_after_opening() {
    // A few stones in the centre: no six is reachable within two moves, so perft(2) is
    // C(E,2)·C(E-2,2) with E empty squares; perft(3) then reaches positions where a player
    // has 3+2 stones and still cannot win.
    let (g, mut pos) = both(19, &["j10", "k11,k9", "h10,l10", "j12,j8"]);
    let e = pos.empty_count() as u64;
    assert_eq!(e, 361 - 7);
    let c2 = |e: u64| e * (e - 1) / 2;
    assert_eq!(perft(&mut pos, 1), c2(e));
    assert_eq!(perft(&mut pos, 2), c2(e) * c2(e - 2));
    compare_position(&g, &pos, "19x19 after opening");
}

// ----- random positions: move lists, outcomes and divide at every step -----------------

/// Plays seeded random games in the reference and the real crate side by side, comparing
/// every position; where affordable, divide/perft too. With `avoid_end`, a move that would
/// end the game is avoided when another random try does not (reaching crowded late-game
/// positions full of threats).
fn differential_playouts(size: u32, seed: u64, games: usize, avoid_end: bool, budget: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut compared_perft = 0;
    for game in 0..games {
        let mut g = Game::new(size as usize);
        let mut pos = Connect6Position::new(config(size));
        let mut texts: Vec<String> = Vec::new();
        loop {
            let context = format!("{size}x{size} game {game} after [{}]", texts.join(" "));
            compare_position(&g, &pos, &context);
            // The deepest divide the naive code can afford here.
            let empty = pos.empty_count() as u64;
            let single = pos.ply() == 0;
            let depth = (2..=6)
                .rev()
                .find(|&d| estimated_leaves(empty, single, d) <= budget)
                .unwrap_or(1);
            if depth >= 2 && (texts.len().is_multiple_of(3) || empty <= 14 || g.result.is_some()) {
                compare_divide(&g, &mut pos, depth, &context);
                compared_perft += 1;
            }
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut m = moves[rng.random_range(0..moves.len())];
            if avoid_end {
                for _ in 0..40 {
                    if g.play(m).result.is_none() {
                        break;
                    }
                    m = moves[rng.random_range(0..moves.len())];
                }
            }
            let t = g.move_text(m);
            g = g.play(m);
            let mv = pos
                .parse_legal_move(&t)
                .unwrap_or_else(|e| panic!("{context}: {t}: {e}"));
            pos.make_move(mv);
            // The position string of the real crate reads back to the same position.
            let back =
                Connect6Position::from_position_string(*pos.config(), &pos.to_position_string())
                    .unwrap();
            assert_eq!(back, pos);
            texts.push(t);
        }
        // Replaying the text record gives the same final position.
        assert_eq!(replay(size, &texts), pos);
    }
    assert!(compared_perft > 0);
}

#[test]
fn differential_6x6_random_games() {
    differential_playouts(6, 1, 30, false, 60_000);
}

#[test]
fn differential_6x6_late_games() {
    // Crowded boards: positions with the single-last-stone rule and full-board endings.
    differential_playouts(6, 2, 30, true, 150_000);
}

#[test]
fn differential_7x7_games() {
    differential_playouts(7, 3, 10, false, 60_000);
    differential_playouts(7, 4, 10, true, 150_000);
}

#[test]
fn differential_8x8_and_odd_sizes() {
    differential_playouts(8, 5, 4, true, 100_000);
    differential_playouts(9, 6, 3, false, 50_000);
}

#[test]
fn differential_19x19_late_game() {
    differential_playouts(19, 7, 1, true, 200_000);
}

/// Board size, position string, perft at depths 1.., and (wins, draws, single stones).
type Case = (u32, &'static str, &'static [u64], (u64, u64, u64));

/// Fixed late-game positions (from seeded playouts), perft at every depth to the end of
/// the game: pinned, and checked against one walk of the naive code over the whole tree.
#[test]
fn perft_to_the_end_fixed_positions() {
    #[rustfmt::skip]
    let cases: [Case; 4] = [
        (6, "1oo1o1/1xxxox/xxoxox/xoo1oo/o1xox1/1xx3 o 13",
            &[55, 1_980, 41_580, 405_720, 1_213_812, 1_094_580], (127_836, 1_088_100, 1_094_580)),
        (6, "oxoo2/xo1xo1/o1x1xx/ooxxoo/ooxx1o/1xx1ox x 14",
            &[36, 756, 7_560, 22_680, 22_680], (0, 22_680, 22_680)),
        (7, "ooxoxx1/1oxoooo/x1oxox1/ooxx1xx/o1ox1oo/1x1xooo/xxxx1ox x 20",
            &[45, 1_260, 18_900, 113_400, 109_620], (3_780, 109_620, 0)),
        (8, "2xxoooo/xxxoxoox/ox1xxxxo/ooxoxxo1/xoxoxxxo/xoxooo1o/1xooxxx1/oooo2ox x 28",
            &[36, 546, 5_330, 7_992, 7_452], (6_181, 4_500, 7_452)),
    ];
    for (size, text, expected, (wins, draws, singles)) in cases {
        let g = Game::from_string(size as usize, text);
        let mut pos = Connect6Position::from_position_string(config(size), text).unwrap();
        compare_position(&g, &pos, text);
        let got: Vec<u64> = (1..=expected.len() as u32 + 1)
            .map(|d| perft(&mut pos, d))
            .collect();
        // One ply past the longest game: nothing left.
        assert_eq!(got.last(), Some(&0), "{text}");
        assert_eq!(&got[..expected.len()], expected, "{text}");
        let census = g.walk_to_the_end();
        assert_eq!(census.perft, expected, "{text}: the naive code disagrees");
        // How the games end: wins, full-board draws (on 7x7 by a pair that fills the
        // board), and single stones on the last square (even boards only).
        assert_eq!(
            (census.wins, census.draws, census.singles),
            (wins, draws, singles),
            "{text}"
        );
        if expected.len() <= 5 {
            compare_divide(&g, &mut pos, expected.len() as u32, text);
        }
    }
}

#[test]
fn estimated_leaves_is_sane() {
    assert_eq!(estimated_leaves(36, true, 2), 36 * 595);
    assert_eq!(estimated_leaves(3, false, 2), 3);
    let _ = RMove::One((0, 0));
}
