//! The bulk count of the last two plies (`count_two_ply_sequences`, which `perft` uses)
//! against the count by playing every move: on random playouts of every size class, on
//! crafted positions where pairs fill several windows at once, where single squares win,
//! with overlines and blocked windows, and on positions one move from the end.

#![allow(clippy::unwrap_used)] // unwrap is fine in tests (helpers included)

use board_core::{Player, Position, Rules, SquareSet, perft};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_connect6::{Connect6Config, Connect6Position};

fn config(size: u32) -> Connect6Config {
    Connect6Config::new(size).unwrap()
}

/// Perft without any bulk count above the last ply: every move of every ply but the last
/// is played.
fn unbulked_perft(pos: &mut Connect6Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            moves
                .into_iter()
                .map(|mv| {
                    let undo = pos.make_move(mv);
                    let n = unbulked_perft(pos, depth - 1);
                    pos.unmake_move(mv, undo);
                    n
                })
                .sum()
        }
    }
}

/// The number of moves of the side to move that end the game with a win, by playing them.
fn winning_moves_played(pos: &mut Connect6Position) -> u64 {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mover = pos.side_to_move();
    moves
        .into_iter()
        .filter(|&mv| {
            let undo = pos.make_move(mv);
            let won = pos.outcome() == Some(board_core::Outcome::Win(mover));
            pos.unmake_move(mv, undo);
            won
        })
        .count() as u64
}

/// Asserts the bulk two-ply count, and perft at depth 2 and 3 where affordable, equal the
/// unbulked walk; returns the two-ply count.
fn assert_bulk_agrees(pos: &mut Connect6Position, context: &str) -> u64 {
    let walked = unbulked_perft(pos, 2);
    assert_eq!(
        pos.count_two_ply_sequences(),
        Some(walked),
        "{context}: {}",
        pos.to_position_string()
    );
    assert_eq!(perft(pos, 2), walked, "{context}: perft(2)");
    // Depth 3 costs about moves² make/unmake unbulked.
    if pos.count_moves() <= 300 {
        assert_eq!(
            perft(pos, 3),
            unbulked_perft(pos, 3),
            "{context}: perft(3) of {}",
            pos.to_position_string()
        );
    }
    walked
}

/// A position from rows of `x`, `o` and `.` (top rank first, all `size` wide) with
/// `mover` to move (so Black has an odd number of stones, White an even number, as in a
/// game). The opponent gets stones on the squares marked `f`, in order, until the
/// counts fit a ply (one stone more than the mover); the other `f` squares stay empty. The
/// opponent's stones only block, so fillers change nothing about the mover's wins.
fn board(rows: &[&str], mover: Player) -> Connect6Position {
    let size = rows.len();
    let mut cells: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    assert!(
        cells.iter().all(|r| r.len() == size),
        "rows must be {size} wide"
    );
    let (mine, theirs) = match mover {
        Player::First => ('x', 'o'),
        Player::Second => ('o', 'x'),
    };
    let count = |c| cells.iter().flatten().filter(|&&x| x == c).count();
    let want = count(mine) + 1;
    let mut have = count(theirs);
    for cell in cells.iter_mut().flatten() {
        if *cell == 'f' {
            *cell = if have < want {
                have += 1;
                theirs
            } else {
                '.'
            };
        }
    }
    assert_eq!(have, want, "not enough filler squares");
    let ranks: Vec<String> = cells
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut run = 0;
            for &c in row {
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        s += &run.to_string();
                        run = 0;
                    }
                    s.push(c);
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            s
        })
        .collect();
    let text = format!("{} {mine} {want}", ranks.join("/"));
    Connect6Position::from_position_string(config(size as u32), &text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A random move, biased towards extending the mover's own lines (a stone one or two steps
/// from one of the mover's stones) so that playouts are full of fours and fives.
fn biased_move(pos: &Connect6Position, rng: &mut ChaCha8Rng) -> rules_connect6::Move {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let g = pos.geometry();
    let own: Vec<_> = pos.stones(pos.side_to_move()).squares().collect();
    let near = |rng: &mut ChaCha8Rng| {
        let from = *own.get(rng.random_range(0..own.len().max(1)))?;
        let dir = board_core::Direction::ALL[rng.random_range(0..8)];
        let step = g.step(from, dir)?;
        let to = if rng.random_bool(0.5) {
            g.step(step, dir)?
        } else {
            step
        };
        pos.is_empty_square(to).then_some(to)
    };
    if !own.is_empty() && rng.random_bool(0.8) {
        let picks: Vec<_> = (0..8).filter_map(|_| near(rng)).collect();
        let fits = |m: &rules_connect6::Move| m.squares().all(|s| picks.contains(&s));
        let fitting: Vec<_> = moves.iter().filter(|m| fits(m)).collect();
        if !fitting.is_empty() {
            return *fitting[rng.random_range(0..fitting.len())];
        }
    }
    moves[rng.random_range(0..moves.len())]
}

/// Random playouts on every size class, to the end of the game, the bulk count checked on
/// every position (on the big boards only once few enough moves are left to play them all,
/// and on the first two plies).
#[test]
fn bulk_count_agrees_along_random_playouts() {
    let mut checked = 0;
    let mut late = 0;
    let mut with_wins = 0;
    for (size, games) in [
        (6u32, 12),
        (7, 8),
        (8, 5),
        (9, 4),
        (12, 2),
        (15, 1),
        (19, 1),
    ] {
        for game in 0..games {
            let mut rng = ChaCha8Rng::seed_from_u64(u64::from(size) * 100 + game);
            let mut pos = Connect6Position::new(config(size));
            loop {
                let moves = pos.count_moves();
                if pos.ply() < 2 && size <= 9 || moves <= 3000 {
                    let context = format!("size {size} game {game} ply {}", pos.ply());
                    assert_bulk_agrees(&mut pos, &context);
                    checked += 1;
                    late += u32::from(pos.empty_count() <= 3);
                    with_wins += u32::from(winning_moves_played(&mut pos) > 0);
                }
                if pos.outcome().is_some() {
                    assert_eq!(pos.count_two_ply_sequences(), Some(0));
                    break;
                }
                let mv = biased_move(&pos, &mut rng);
                pos.make_move(mv);
            }
        }
    }
    // The playouts reached the cases that matter.
    assert!(checked > 300, "{checked} positions checked");
    assert!(with_wins > 50, "{with_wins} positions with winning moves");
    assert!(late > 5, "{late} positions with at most 3 empty squares");
}

/// The mover's winning moves in a crafted position, by hand, from the number `e` of empty
/// squares.
type Wins = fn(u64) -> u64;

/// Hand-built positions on 9×9: (rows, mover, winning moves by hand, what).
#[test]
fn bulk_count_agrees_on_crafted_positions() {
    use Player::{First as X, Second as O};
    const F: &str = "f.f.f.f.f";
    const E: &str = ".........";
    #[rustfmt::skip]
    let cases: [(&[&str], Player, Wins, &str); 8] = [
        // {b3,e3} fills a3-f3 and b3-g3; {e3,h3} fills c3-h3.
        (&[F, F, E, E, E, E, "x.xx.xx..", E, E], X, |_| 2, "a pair in two windows"),
        (&[F, F, E, E, "........o", E, "o.oo.oo..", E, E], O, |_| 2, "the same for White"),
        // d3 fills a3-f3 and b3-g3 (seven in a row), so every pair through d3 wins; the
        // four of c3-h3 (d3, h3) is one of those.
        (&[F, F, E, E, "........x", E, "xxx.xxx..", E, E], X, |e| e - 1, "an overline square"),
        // f1 fills all four windows of a nine-long row.
        (&[F, F, E, E, "........x", E, E, E, "xxxxx.xxx"], X, |e| e - 1, "a square in four windows"),
        // Three winning squares (f1; a3 and g3): the pairs through any of them.
        (&[F, F, F, E, "........x", E, ".xxxxx...", E, "xxxxx...."], X,
            |e| e * (e - 1) / 2 - (e - 3) * (e - 4) / 2, "three winning squares"),
        // Fours on two lines through the empty c3: {c3,d3} (row 3) and {c3,c6} (file c);
        // the four on row 8 is boxed in and White's five on row 7 wins nothing for Black.
        (&[F, "oxxxxo...", "ooooo....", ".f.f.f.fx", "..x......", "..x......",
           "xx..xx...", "..x......", "..x......"], X, |_| 2, "two lines crossing a square"),
        // Five with both ends blocked, a boxed-in four: nothing.
        (&[F, F, E, E, E, E, E, "oxxxxxo..", "oxxxxo..."], X, |_| 0, "blocked windows"),
        // The same stones with White to move: White has no line at all.
        (&[F, "xxxxx....", E, "o.o.o.o.o", E, "o.o.o.o.o", E, "xxxxx....", E], O, |_| 0,
            "only the mover's lines count"),
    ];
    for (rows, mover, wins, what) in cases {
        let mut pos = board(rows, mover);
        assert_eq!(pos.side_to_move(), mover, "{what}");
        assert_eq!(pos.outcome(), None, "{what}");
        let e = u64::from(pos.empty_count());
        assert_eq!(
            winning_moves_played(&mut pos),
            wins(e),
            "{what}: the case itself"
        );
        let walked = assert_bulk_agrees(&mut pos, what);
        assert_eq!(
            walked,
            (e * (e - 1) / 2 - wins(e)) * ((e - 2) * (e - 3) / 2),
            "{what}"
        );
    }
}

/// The last moves of a game: the pair that fills the board (a draw or a win), the pair
/// that leaves one square (a single stone follows), the single last stone, the very first
/// (single) stone, and finished games.
#[test]
fn bulk_count_one_move_from_the_end_and_at_the_start() {
    // From the pinned late positions of the reference tests.
    let texts = [
        (6, "1oo1o1/1xxxox/xxoxox/xoo1oo/o1xox1/1xx3 o 13"),
        (6, "oxoo2/xo1xo1/o1x1xx/ooxxoo/ooxx1o/1xx1ox x 14"),
        (
            7,
            "ooxoxx1/1oxoooo/x1oxox1/ooxx1xx/o1ox1oo/1x1xooo/xxxx1ox x 20",
        ),
        (
            8,
            "2xxoooo/xxxoxoox/ox1xxxxo/ooxoxxo1/xoxoxxxo/xoxooo1o/1xooxxx1/oooo2ox x 28",
        ),
    ];
    let mut seen_empty = [false; 4];
    for (size, text) in texts {
        let start = Connect6Position::from_position_string(config(size), text).unwrap();
        // Every line of play from here (the trees are small), checking each position.
        fn walk(pos: &mut Connect6Position, seen: &mut [bool; 4]) {
            assert_bulk_agrees(pos, "late game");
            if let Some(slot) = seen.get_mut(pos.empty_count() as usize) {
                *slot |= pos.outcome().is_none();
            }
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            for mv in moves.into_iter().step_by(7) {
                let undo = pos.make_move(mv);
                walk(pos, seen);
                pos.unmake_move(mv, undo);
            }
        }
        walk(&mut start.clone(), &mut seen_empty);
    }
    assert_eq!(
        seen_empty,
        [false, true, true, true],
        "0 empty is always over"
    );
    for size in [6u32, 7, 19] {
        let mut pos = Connect6Position::new(config(size));
        let e = u64::from(size * size);
        assert_eq!(
            assert_bulk_agrees(&mut pos, "start"),
            e * ((e - 1) * (e - 2) / 2)
        );
    }
}
