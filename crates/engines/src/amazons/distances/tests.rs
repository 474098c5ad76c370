use board_core::{Bitboard64, Bitboard128, BoardSet};
use proptest::prelude::*;

use super::*;

fn set<S: SquareSet>(g: &Geometry, names: &[&str]) -> S {
    names.iter().map(|n| g.parse_square(n).unwrap()).collect()
}

/// 4x4, First's queen a1, Second's d4, arrows b3 c3 c2:
///
/// ```text
/// 4 . . . q
/// 3 . X X .
/// 2 . . X .
/// 1 Q . . .
///   a b c d
/// ```
fn small<S: SquareSet>() -> (&'static Geometry, AmazonsDistances) {
    let g = Geometry::square(4).unwrap();
    let arrows: S = set(g, &["b3", "c3", "c2"]);
    let q1: S = set(g, &["a1"]);
    let q2: S = set(g, &["d4"]);
    (g, AmazonsDistances::new(g, &arrows, [&q1, &q2]).unwrap())
}

/// Distances worked out by hand, empty squares only, as (square, First, Second).
const QUEEN: [(&str, u8, u8); 11] = [
    ("a2", 1, 2),
    ("a3", 1, 2),
    ("a4", 1, 1),
    ("b1", 1, 2),
    ("b2", 1, 3),
    ("b4", 2, 1),
    ("c1", 1, 2),
    ("c4", 2, 1),
    ("d1", 1, 1),
    ("d2", 2, 1),
    ("d3", 2, 1),
];
const KING: [(&str, u8, u8); 11] = [
    ("a2", 1, 4),
    ("a3", 2, 3),
    ("a4", 3, 3),
    ("b1", 1, 4),
    ("b2", 1, 4),
    ("b4", 3, 2),
    ("c1", 2, 3),
    ("c4", 4, 1),
    ("d1", 3, 3),
    ("d2", 3, 2),
    ("d3", 4, 1),
];

fn check_small<S: SquareSet>() {
    let (g, d) = small::<S>();
    for (name, a, b) in QUEEN {
        let sq = g.parse_square(name).unwrap();
        assert_eq!(d.queen(Player::First, sq), Some(a), "queen First {name}");
        assert_eq!(d.queen(Player::Second, sq), Some(b), "queen Second {name}");
    }
    for (name, a, b) in KING {
        let sq = g.parse_square(name).unwrap();
        assert_eq!(d.king(Player::First, sq), Some(a), "king First {name}");
        assert_eq!(d.king(Player::Second, sq), Some(b), "king Second {name}");
    }
    let sq = |n| g.parse_square(n).unwrap();
    assert_eq!(d.queen(Player::First, sq("a1")), Some(0));
    assert_eq!(d.queen(Player::First, sq("d4")), None);
    assert_eq!(d.queen(Player::First, sq("b3")), None);
    assert_eq!(d.king(Player::Second, sq("c2")), None);
    assert_eq!(d.queen(Player::First, Square(16)), None);
    assert_eq!(d.empty_squares().len(), 11);

    let t = d.terms();
    assert_eq!(
        t.queen,
        Territory {
            owned: [5, 4],
            ties: 2,
            neutral: 0
        }
    );
    assert_eq!(
        t.king,
        Territory {
            owned: [5, 4],
            ties: 2,
            neutral: 0
        }
    );
    assert!((t.c1 - 0.75).abs() < 1e-12, "{}", t.c1);
    assert!((t.c2 - 0.5).abs() < 1e-12, "{}", t.c2);
    assert!((t.w - 6.25).abs() < 1e-12, "{}", t.w);
    assert!((t.t1(Player::First, 0.2) - 1.4).abs() < 1e-12);
    assert!((t.t1(Player::Second, 0.2) - 0.6).abs() < 1e-12);
    assert!((t.t2(Player::Second, 0.5) - 0.0).abs() < 1e-12);
    assert_eq!(t.queen.score_scaled(Player::First, 100, 20), 140);
    assert_eq!(t.queen.score_scaled(Player::Second, 100, 20), 60);
}

#[test]
fn hand_computed_4x4() {
    check_small::<Bitboard64>();
    check_small::<Bitboard128>();
    check_small::<BoardSet>();
}

#[test]
fn walls_leave_neutral_squares() {
    // 3 q X .
    // 2 . X .
    // 1 Q X .
    let g = Geometry::square(3).unwrap();
    let arrows: Bitboard64 = set(g, &["b1", "b2", "b3"]);
    let q1: Bitboard64 = set(g, &["a1"]);
    let q2: Bitboard64 = set(g, &["a3"]);
    // Queens may also be passed inside the occupied set.
    let occ = arrows | q1 | q2;
    let d = AmazonsDistances::new(g, &occ, [&q1, &q2]).unwrap();
    let t = d.terms();
    assert_eq!(
        t.queen,
        Territory {
            owned: [0, 0],
            ties: 1,
            neutral: 3
        }
    );
    assert_eq!(t.king, t.queen);
    assert_eq!(t.c1, 0.0);
    assert_eq!(t.c2, 0.0);
    assert_eq!(t.w, 1.0);
    // A player with no queen reaches nothing; a3 is empty now and one queen move from a1.
    let none = Bitboard64::empty();
    let d = AmazonsDistances::new(g, &arrows, [&q1, &none]).unwrap();
    let t = d.terms();
    assert_eq!(t.queen.owned, [2, 0]);
    assert_eq!(t.queen.neutral, 3);
    assert_eq!(t.c2, 2.0);
    assert_eq!(t.c1, 2.0 * (0.5 + 0.5));
    assert_eq!(t.w, 0.0);
}

fn start(size: u32) -> (&'static Geometry, [Bitboard128; 2]) {
    let g = Geometry::square(size).unwrap();
    if size == 10 {
        (
            g,
            [
                set(g, &["a4", "d1", "g1", "j4"]),
                set(g, &["a7", "d10", "g10", "j7"]),
            ],
        )
    } else {
        (
            g,
            [
                set(g, &["a3", "c1", "f1", "h3"]),
                set(g, &["a6", "c8", "f8", "h6"]),
            ],
        )
    }
}

#[test]
fn start_positions_are_balanced() {
    for size in [8, 10] {
        let (g, [w, b]) = start(size);
        let d = AmazonsDistances::new(g, &Bitboard128::empty(), [&w, &b]).unwrap();
        let t = d.terms();
        assert_eq!(t.queen.owned[0], t.queen.owned[1], "{size}");
        assert_eq!(t.king.owned[0], t.king.owned[1], "{size}");
        assert!(t.c1.abs() < 1e-9 && t.c2.abs() < 1e-9);
        assert_eq!(t.queen.neutral, 0);
        let empty = g.cells() as u32 - 8;
        assert_eq!(t.queen.owned[0] * 2 + t.queen.ties, empty);
        // On an empty board every square is within two queen moves.
        assert!(
            d.queen_map(Player::First)
                .iter()
                .all(|&x| x <= 2 || x == UNREACHED)
        );
        assert_eq!(d.king_map(Player::Second).len(), g.cells());
    }
}

#[test]
fn rejects_bad_input() {
    let g = Geometry::square(10).unwrap();
    let e = Bitboard64::empty();
    assert!(matches!(
        AmazonsDistances::new(g, &e, [&e, &e]),
        Err(EvalError::SetTooSmall { .. })
    ));
    let g = Geometry::square(3).unwrap();
    let q: Bitboard64 = set(g, &["a1"]);
    assert!(matches!(
        AmazonsDistances::new(g, &e, [&q, &q]),
        Err(EvalError::Overlap { .. })
    ));
    let stray: Bitboard64 = [Square(20)].into_iter().collect();
    assert!(matches!(
        AmazonsDistances::new(g, &stray, [&q, &e]),
        Err(EvalError::OffBoard { .. })
    ));
}

/// The definition by relaxation: a square is at distance d+1 if a single move from a square
/// at distance d reaches it. Independent of both the flood and the BFS.
fn reference(g: &Geometry, blocked: &[bool], sources: &[Square], reach: u32) -> Vec<u8> {
    let mut dist = vec![UNREACHED; g.cells()];
    for s in sources {
        dist[s.index()] = 0;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for from in g.squares() {
            if dist[from.index()] == UNREACHED {
                continue;
            }
            for dir in Direction::ALL {
                for to in g.ray(from, dir).take(reach as usize) {
                    if blocked[to.index()] {
                        break;
                    }
                    if dist[to.index()] > dist[from.index()] + 1 {
                        dist[to.index()] = dist[from.index()] + 1;
                        changed = true;
                    }
                }
            }
        }
    }
    dist
}

fn compare(w: u32, h: u32, cells: &[u8]) {
    let g = Geometry::new(w, h).unwrap();
    let mut arrows = BoardSet::empty();
    let mut queens = [BoardSet::empty(); 2];
    let mut blocked = vec![false; g.cells()];
    for sq in g.squares() {
        match cells.get(sq.index()).copied().unwrap_or(0) % 10 {
            0..=2 => {
                arrows.insert(sq);
                blocked[sq.index()] = true;
            }
            3 => {
                queens[0].insert(sq);
                blocked[sq.index()] = true;
            }
            4 => {
                queens[1].insert(sq);
                blocked[sq.index()] = true;
            }
            _ => {}
        }
    }
    let d = AmazonsDistances::new(g, &arrows, [&queens[0], &queens[1]]).unwrap();
    for p in Player::BOTH {
        let src: Vec<Square> = queens[p.index()].squares().collect();
        assert_eq!(
            d.queen_map(p),
            reference(g, &blocked, &src, u32::MAX),
            "queen {w}x{h}"
        );
        assert_eq!(
            d.king_map(p),
            reference(g, &blocked, &src, 1),
            "king {w}x{h}"
        );
    }
    // The generic BFS agrees with the flood on small boards too.
    if g.cells() <= 128 {
        let all = arrows | queens[0] | queens[1];
        for p in Player::BOTH {
            let mut q = vec![UNREACHED; g.cells()];
            bfs(g, &all, &queens[p.index()], u32::MAX, &mut q);
            assert_eq!(d.queen_map(p), &q[..]);
            let mut k = vec![UNREACHED; g.cells()];
            bfs(g, &all, &queens[p.index()], 1, &mut k);
            assert_eq!(d.king_map(p), &k[..]);
        }
    }
    // Reusing the buffers gives the same answer.
    let mut again = AmazonsDistances::new(
        Geometry::square(2).unwrap(),
        &BoardSet::empty(),
        [&BoardSet::empty(); 2],
    )
    .unwrap();
    again.compute(g, &arrows, [&queens[0], &queens[1]]).unwrap();
    assert_eq!(again, d);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn distances_match_the_definition(w in 1u32..=13, h in 1u32..=13, cells in prop::collection::vec(any::<u8>(), 169)) {
        compare(w, h, &cells);
    }

    #[test]
    fn distances_match_on_big_boards(w in 12u32..=26, h in 11u32..=26, cells in prop::collection::vec(any::<u8>(), 676)) {
        compare(w, h, &cells);
    }
}
