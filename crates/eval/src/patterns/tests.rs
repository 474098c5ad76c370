use std::collections::BTreeSet;

use board_core::{BoardSet, Direction, Geometry, Player, Square, SquareSet};
use proptest::prelude::*;

use super::*;
use Pattern::*;

/// `x` own, `o` opponent, `.` empty; cell 0 is the first character.
fn line(s: &str) -> (u32, u32, u32) {
    let (mut own, mut opp) = (0, 0);
    for (i, c) in s.chars().enumerate() {
        match c {
            'x' => own |= 1 << i,
            'o' => opp |= 1 << i,
            _ => {}
        }
    }
    (own, opp, s.len() as u32)
}

fn found(s: &str, k: u32, rule: Rule) -> Vec<Pattern> {
    let (own, opp, len) = line(s);
    let mut v: Vec<Pattern> = analyze_line(own, opp, len, k, rule)
        .unwrap()
        .found
        .iter()
        .map(|f| f.pattern)
        .collect();
    v.sort();
    v
}

fn five_points(s: &str, k: u32, rule: Rule) -> Vec<usize> {
    let (own, opp, len) = line(s);
    let fp = analyze_line(own, opp, len, k, rule).unwrap().five_points;
    (0..32).filter(|i| fp >> i & 1 != 0).collect()
}

#[test]
fn gomoku_shapes() {
    let f = Rule::Freestyle;
    let cases: &[(&str, &[Pattern])] = &[
        // fives
        (".xxxxx.", &[Five]),
        ("xxxxx", &[Five]),
        ("oxxxxxo", &[Five]),
        ("xxxxxx", &[Five]),
        ("xxxxxoxxxxx", &[Five, Five]),
        // fours
        (".xxxx.", &[OpenFour]),
        ("..xxxx...", &[OpenFour]),
        ("oxxxx.", &[Four]),
        ("xxxx.", &[Four]), // closed by the edge
        (".xxxx", &[Four]), // closed by the edge
        ("oxxxx.o", &[Four]),
        ("xx.xx", &[Four]),   // broken
        (".x.xxx.", &[Four]), // broken, even with room around
        // A double four on one line; the middle x.x.x is a stone set of its own that no
        // window of the fours covers, so it counts as a closed three too.
        ("xxx.x.xxx", &[Four, Four, ClosedThree]),
        ("oxxxxo", &[]), // dead
        ("xxxx", &[]),   // no room at all: line shorter than k
        // threes
        ("..xxx..", &[OpenThree]),
        (".xxx..", &[OpenThree]), // one side has a single space, still makes .xxxx.
        ("..xxx.", &[OpenThree]),
        (".xxx.", &[ClosedThree]), // only .xxxx (edge) or xxxx. possible
        ("oxxx..", &[ClosedThree]),
        ("xxx..", &[ClosedThree]),
        ("o.xxx.o", &[ClosedThree]),
        (".x.xx.", &[BrokenThree]),
        (".xx.x.", &[BrokenThree]),
        ("ox.xx.", &[ClosedThree]),
        ("x..xx", &[ClosedThree]),
        ("x.x.x", &[ClosedThree]),
        (".x.x.x.", &[ClosedThree]),
        ("oxxxo....", &[]),
        // twos
        ("..xx..", &[OpenTwo]),
        (".x.x..", &[OpenTwo]),
        (".x..x.", &[OpenTwo]),
        ("oxx...", &[ClosedTwo]),
        ("xx...", &[ClosedTwo]),
        (".xx..o", &[ClosedTwo]), // only room for one window
        ("..xx..o", &[OpenTwo]),
        ("o.xx.o", &[]), // segment of 4 < k: dead
        ("x...x", &[ClosedTwo]),
        // mixed: a four swallows the three inside it
        ("..xxx.x..", &[Four]),
        ("x....x", &[]), // single stones are not patterns
        ("....x....", &[]),
    ];
    for (s, want) in cases {
        assert_eq!(found(s, 5, f), *want, "{s}");
    }
}

#[test]
fn gomoku_five_points() {
    let f = Rule::Freestyle;
    assert_eq!(five_points(".xxxx.", 5, f), [0, 5]);
    assert_eq!(five_points("oxxxx.", 5, f), [5]);
    assert_eq!(five_points("xx.xx", 5, f), [2]);
    assert_eq!(five_points("xxx.x.xxx", 5, f), [3, 5]);
    assert_eq!(five_points("..xxx..", 5, f), Vec::<usize>::new());
    // Freestyle: filling the gap of xx.xxx makes six, a win.
    assert_eq!(five_points("xx.xxx", 5, f), [2]);
    assert_eq!(five_points("xx.xxx", 5, Rule::Exact), Vec::<usize>::new());
}

#[test]
fn exact_rule() {
    let e = Rule::Exact;
    assert_eq!(found("xxxxxx", 5, e), []);
    assert_eq!(found(".xxxxxx.", 5, e), []);
    assert_eq!(found("xxxxx.xxxxxx", 5, e), [Five]);
    assert_eq!(found(".xxxx.", 5, e), [OpenFour]);
    // The right end would make an overline: only a closed four.
    assert_eq!(found(".xxxx.x", 5, e), [Four]);
    assert_eq!(five_points(".xxxx.x", 5, e), [0]);
    assert_eq!(found(".xxxx.x", 5, Rule::Freestyle), [OpenFour, Four]);
    assert_eq!(five_points(".xxxx.x", 5, Rule::Freestyle), [0, 5]);
    // A three next to an own stone across a gap of one: .xxx.x → fours only.
    assert_eq!(found("..xxx.x..", 5, e), [Four]);
    // Stones that can only ever become an overline are dead.
    assert_eq!(found("xxx.xx", 5, e), []);
    assert_eq!(found("..xxx..", 5, e), [OpenThree]);
    // The three xxx.. is part of the broken four x.xxx; its other windows would touch x.
    assert_eq!(found("x.xxx...", 5, e), [Four]);
}

#[test]
fn connect6_shapes() {
    let f = Rule::Freestyle;
    let cases: &[(&str, &[Pattern])] = &[
        ("xxxxxx", &[Five]),
        (".xxxxxxx.", &[Five]),
        ("xxxxx", &[]),
        (".xxxxx.", &[OpenFour]),
        ("oxxxxx.", &[Four]),
        ("xx.xxx", &[Four]),
        // Two windows, two overlapping stone sets {0,1,2,4} and {1,2,4,6}.
        ("xxx.x.x", &[ClosedThree, ClosedThree]),
        ("..xxxx..", &[OpenThree]),
        ("oxxxx..", &[ClosedThree]),
        (".xx.xx..", &[BrokenThree]),
        ("..xxx...", &[OpenTwo]),
        ("oxxx...", &[ClosedTwo]),
        (".xxxx.", &[ClosedThree]), // 6 cells: one window only
    ];
    for (s, want) in cases {
        assert_eq!(found(s, 6, f), *want, "{s}");
    }
    assert_eq!(five_points(".xxxxx.", 6, f), [0, 6]);
}

#[test]
fn analyze_line_checks_input() {
    assert!(matches!(
        analyze_line(1, 1, 5, 5, Rule::Freestyle),
        Err(EvalError::BadLine { .. })
    ));
    assert!(matches!(
        analyze_line(1 << 5, 0, 5, 5, Rule::Freestyle),
        Err(EvalError::BadLine { .. })
    ));
    assert!(matches!(
        analyze_line(0, 0, 33, 5, Rule::Freestyle),
        Err(EvalError::BadLine { .. })
    ));
    assert!(matches!(
        analyze_line(0, 0, 5, 0, Rule::Freestyle),
        Err(EvalError::BadK { .. })
    ));
    assert!(matches!(
        analyze_line(0, 0, 5, 33, Rule::Freestyle),
        Err(EvalError::BadK { .. })
    ));
    let full = analyze_line(u32::MAX, 0, 32, 32, Rule::Exact).unwrap();
    assert_eq!(full.counts[Five], 1);
    let r = analyze_line(0b1111, 0, 4, 32, Rule::Freestyle).unwrap();
    assert_eq!(r.counts, PatternCounts::default());
}

/// The definition, written out literally over sets: the reference for the bit scan.
fn naive(
    cells: &[u8],
    k: usize,
    exact: bool,
) -> (Vec<(Pattern, BTreeSet<usize>)>, BTreeSet<usize>) {
    let n = cells.len();
    let own = |i: usize| cells[i] == b'x';
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        if own(i) {
            let j = i;
            while i < n && own(i) {
                i += 1;
            }
            if i - j >= k && (!exact || i - j == k) {
                out.push((Five, (j..i).collect()));
            }
        } else {
            i += 1;
        }
    }
    let mut wins: Vec<(usize, BTreeSet<usize>)> = Vec::new();
    if n >= k {
        for s in 0..=n - k {
            if (s..s + k).any(|i| cells[i] == b'o') {
                continue;
            }
            if exact && ((s > 0 && own(s - 1)) || (s + k < n && own(s + k))) {
                continue;
            }
            wins.push((s, (s..s + k).filter(|&i| own(i)).collect()));
        }
    }
    let mut fp = BTreeSet::new();
    for (s, c) in &wins {
        if c.len() + 1 == k {
            fp.extend((*s..s + k).filter(|&i| !own(i)));
        }
    }
    let mut seen = BTreeSet::new();
    for (_, t) in &wins {
        if t.is_empty() || t.len() >= k || k - t.len() > 3 || !seen.insert(t.clone()) {
            continue;
        }
        if wins.iter().any(|(_, c)| c.is_superset(t) && c != t) {
            continue;
        }
        let m = wins.iter().filter(|(_, c)| c == t).count();
        let lo = *t.first().unwrap();
        let hi = *t.last().unwrap();
        let consecutive = hi - lo + 1 == t.len();
        let p = match (k - t.len(), m >= 2) {
            (1, true) => OpenFour,
            (1, false) => Four,
            (2, true) if consecutive => OpenThree,
            (2, true) => BrokenThree,
            (2, false) => ClosedThree,
            (3, true) => OpenTwo,
            _ => ClosedTwo,
        };
        out.push((p, t.clone()));
    }
    (out, fp)
}

fn to_set(mask: u32) -> BTreeSet<usize> {
    (0..32).filter(|i| mask >> i & 1 != 0).collect()
}

fn cells_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![b'.', b'.', b'.', b'x', b'x', b'o']),
        0..=26,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn scan_matches_the_literal_definition(cells in cells_strategy(), k in 1u32..=8, exact in any::<bool>()) {
        let s = std::str::from_utf8(&cells).unwrap();
        let (own, opp, len) = line(s);
        let rule = if exact { Rule::Exact } else { Rule::Freestyle };
        let report = analyze_line(own, opp, len, k, rule).unwrap();
        let mut got: Vec<(Pattern, BTreeSet<usize>)> =
            report.found.iter().map(|f| (f.pattern, to_set(f.stones))).collect();
        let (mut want, fp) = naive(&cells, k as usize, exact);
        got.sort();
        want.sort();
        prop_assert_eq!(got, want, "{}", s);
        prop_assert_eq!(to_set(report.five_points), fp, "{}", s);
    }

    /// The documented meaning of "open": one more stone makes an open pattern of the next
    /// level out of the same stones (for fours: two five points).
    #[test]
    fn open_means_one_stone_from_open(cells in cells_strategy(), k in 4u32..=7, exact in any::<bool>()) {
        let s = std::str::from_utf8(&cells).unwrap();
        let (own, opp, len) = line(s);
        let rule = if exact { Rule::Exact } else { Rule::Freestyle };
        let report = analyze_line(own, opp, len, k, rule).unwrap();
        for f in &report.found {
            let open = match f.pattern.stones_needed() {
                0 => continue,
                1 => {
                    // Count the five points whose five includes all of T.
                    (0..len)
                        .filter(|&e| (own | opp) >> e & 1 == 0)
                        .filter(|&e| {
                            let r = analyze_line(own | 1 << e, opp, len, k, rule).unwrap();
                            r.found.iter().any(|g| g.pattern == Five && g.stones & f.stones == f.stones)
                        })
                        .count()
                        >= 2
                }
                _ => (0..len).filter(|&e| (own | opp) >> e & 1 == 0).any(|e| {
                    let r = analyze_line(own | 1 << e, opp, len, k, rule).unwrap();
                    r.found.iter().any(|g| {
                        g.pattern.is_open()
                            && g.pattern.stones_needed() + 1 == f.pattern.stones_needed()
                            && g.stones == f.stones | 1 << e
                    })
                }),
            };
            prop_assert_eq!(open, f.pattern.is_open(), "{} {:?}", s, f);
        }
    }
}

/// Every line of the board as text, for the board-level reference.
fn board_lines(g: &Geometry, board: &[Option<Player>], me: Player) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for axis in Direction::AXES {
        for first in g.squares() {
            if g.step(first, axis.opposite()).is_some() {
                continue;
            }
            out.push(
                std::iter::once(first)
                    .chain(g.ray(first, axis))
                    .map(|sq| match board[sq.index()] {
                        None => b'.',
                        Some(p) if p == me => b'x',
                        Some(_) => b'o',
                    })
                    .collect(),
            );
        }
    }
    out
}

fn naive_totals(g: &Geometry, board: &[Option<Player>], k: u32, exact: bool) -> [PatternCounts; 2] {
    let mut totals = [PatternCounts::default(); 2];
    for p in Player::BOTH {
        for l in board_lines(g, board, p) {
            for (pat, _) in naive(&l, k as usize, exact).0 {
                totals[p.index()][pat] += 1;
            }
        }
    }
    totals
}

fn walk(w: u32, h: u32, k: u32, rule: Rule, ops: &[(bool, u16)]) {
    let g = Geometry::new(w, h).unwrap();
    let weights = PatternWeights([1000, 300, 100, 90, 70, 20, 5, 1]);
    let mut lp = LinePatterns::new(g, k, rule, weights).unwrap();
    let mut sets = [BoardSet::empty(); 2];
    let mut board = vec![None; g.cells()];
    for &(first, raw) in ops {
        let sq = Square(raw % g.cells() as u16);
        let p = if first { Player::First } else { Player::Second };
        match lp.piece_at(sq) {
            None => {
                let before = lp.score();
                let probe = lp.probe(p, sq).unwrap();
                lp.place(p, sq).unwrap();
                assert_eq!(lp.score(), before + probe.score_delta);
                // What the probe said the stone creates: the patterns holding it, line by line.
                let mut created = PatternCounts::default();
                let mut per_axis = [None; 4];
                for (a, axis) in Direction::AXES.into_iter().enumerate() {
                    let mut first = sq;
                    while let Some(prev) = g.step(first, axis.opposite()) {
                        first = prev;
                    }
                    let cells: Vec<Square> =
                        std::iter::once(first).chain(g.ray(first, axis)).collect();
                    let (mut own, mut opp, mut bit) = (0u32, 0u32, 0u32);
                    for (i, c) in cells.iter().enumerate() {
                        match lp.piece_at(*c) {
                            Some(q) if q == p => own |= 1 << i,
                            Some(_) => opp |= 1 << i,
                            None => {}
                        }
                        if *c == sq {
                            bit = 1 << i;
                        }
                    }
                    for f in analyze_line(own, opp, cells.len() as u32, k, rule)
                        .unwrap()
                        .found
                    {
                        if f.stones & bit != 0 {
                            created[f.pattern] += 1;
                            per_axis[a] =
                                Some(per_axis[a].map_or(f.pattern, |q: Pattern| q.min(f.pattern)));
                        }
                    }
                }
                assert_eq!(probe.created, created);
                assert_eq!(probe.per_axis, per_axis);
                sets[p.index()].insert(sq);
                board[sq.index()] = Some(p);
            }
            Some(q) => {
                lp.remove(q, sq).unwrap();
                sets[q.index()].remove(sq);
                board[sq.index()] = None;
            }
        }
    }
    let scratch = LinePatterns::from_sets(g, k, rule, weights, [&sets[0], &sets[1]]).unwrap();
    assert_eq!(scratch.totals, lp.totals);
    assert_eq!(scratch.five_points, lp.five_points);
    assert_eq!(scratch.score(), lp.score());
    assert_eq!(naive_totals(g, &board, k, rule == Rule::Exact), lp.totals);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn incremental_equals_scratch_gomoku(ops in prop::collection::vec((any::<bool>(), 0u16..81), 0..160), exact in any::<bool>()) {
        // A 9x9 corner of play keeps lines crowded enough for every class to show up.
        let ops: Vec<(bool, u16)> = ops.into_iter().map(|(p, i)| (p, (i / 9) * 15 + i % 9 + 48)).collect();
        walk(15, 15, 5, if exact { Rule::Exact } else { Rule::Freestyle }, &ops);
    }

    #[test]
    fn incremental_equals_scratch_connect6(ops in prop::collection::vec((any::<bool>(), any::<u16>()), 0..200)) {
        walk(19, 19, 6, Rule::Freestyle, &ops);
    }

    #[test]
    fn incremental_equals_scratch_any_size(
        w in 1u32..=26, h in 1u32..=26, kk in any::<u32>(), exact in any::<bool>(),
        ops in prop::collection::vec((any::<bool>(), any::<u16>()), 0..100),
    ) {
        let k = 1 + kk % w.max(h).min(8);
        walk(w, h, k, if exact { Rule::Exact } else { Rule::Freestyle }, &ops);
    }
}

fn setup(k: u32, size: u32, stones: &[(Player, &str)]) -> LinePatterns {
    let g = Geometry::square(size).unwrap();
    let mut lp = LinePatterns::new(g, k, Rule::Freestyle, PatternWeights::gomoku()).unwrap();
    for &(p, s) in stones {
        lp.place(p, g.parse_square(s).unwrap()).unwrap();
    }
    lp
}

#[test]
fn board_edges_and_directions() {
    use Player::{First as B, Second as W};
    // A four along the bottom edge, closed by the corner.
    let lp = setup(5, 15, &[(B, "a1"), (B, "b1"), (B, "c1"), (B, "d1")]);
    assert_eq!(lp.counts(B)[Four], 1);
    assert_eq!(lp.counts(B).fours(), 1);
    let g = lp.geometry();
    assert_eq!(
        lp.five_points(B)
            .map(|s| g.format_square(s))
            .collect::<Vec<_>>(),
        ["e1"]
    );
    // An open four on the falling diagonal.
    let lp = setup(5, 15, &[(W, "c8"), (W, "d7"), (W, "e6"), (W, "f5")]);
    assert_eq!(lp.counts(W)[OpenFour], 1);
    let mut fp: Vec<String> = lp.five_points(W).map(|s| g.format_square(s)).collect();
    fp.sort();
    assert_eq!(fp, ["b9", "g4"]);
    assert_eq!(lp.counts(B).best(), None);
    // The same four in a corner where the diagonal is only 5 long: a1..e1's mirror a5-e1.
    let lp = setup(5, 15, &[(W, "a5"), (W, "b4"), (W, "c3"), (W, "d2")]);
    assert_eq!(lp.counts(W)[Four], 1);
    // A diagonal shorter than k holds no patterns at all.
    let lp = setup(5, 15, &[(W, "a4"), (W, "b3"), (W, "c2")]);
    assert_eq!(lp.counts(W).best(), None);
    // Blocked by an opponent stone on one side.
    let lp = setup(5, 15, &[(B, "f8"), (B, "g8"), (B, "h8"), (W, "e8")]);
    assert_eq!(lp.counts(B)[ClosedThree], 1);
    assert_eq!(lp.counts(W).best(), None);
    // A vertical broken three plus a horizontal open two sharing a stone.
    let lp = setup(5, 15, &[(B, "h5"), (B, "h7"), (B, "h8"), (B, "i5")]);
    assert_eq!(lp.counts(B)[BrokenThree], 1);
    assert_eq!(lp.counts(B)[OpenTwo], 1);
    assert_eq!(lp.counts(B).open_threes(), 1);
}

#[test]
fn probe_reports_what_a_stone_creates() {
    use Player::{First as B, Second as W};
    let lp = setup(
        5,
        15,
        &[(B, "f8"), (B, "g8"), (B, "h8"), (B, "h9"), (B, "h10")],
    );
    let g = lp.geometry();
    let sq = |s| g.parse_square(s).unwrap();
    // h7 makes a vertical open four and leaves the horizontal three alone.
    let p = lp.probe(B, sq("h7")).unwrap();
    assert_eq!(p.per_axis[1], Some(OpenFour));
    assert_eq!(p.best(), Some(OpenFour));
    assert!(!p.wins());
    // e8 extends the row to an open four.
    let p = lp.probe(B, sq("e8")).unwrap();
    assert_eq!(p.per_axis, [Some(OpenFour), None, None, None]);
    // The opponent's stone at h7 blocks: that is what probing for White shows.
    let p = lp.probe(W, sq("h7")).unwrap();
    assert!(p.score_delta < 0, "blocking lowers Black's vertical three");
    assert_eq!(p.best(), None);
    let mut after = lp.clone();
    after.place(W, sq("h7")).unwrap();
    assert_eq!(after.score(), lp.score() + p.score_delta);
    // Winning probe.
    let lp = setup(5, 15, &[(B, "a1"), (B, "a2"), (B, "a3"), (B, "a4")]);
    let p = lp
        .probe(B, lp.geometry().parse_square("a5").unwrap())
        .unwrap();
    assert!(p.wins());
    assert_eq!(p.created.fives(), 1);
    // Errors: occupied, off board.
    assert!(matches!(
        lp.probe(B, Square(0)),
        Err(EvalError::Occupied { .. })
    ));
    assert!(matches!(
        lp.probe(B, Square(225)),
        Err(EvalError::OffBoard { .. })
    ));
}

#[test]
fn connect6_board() {
    use Player::{First as B, Second as W};
    let lp = setup(6, 19, &[(B, "j10"), (B, "k10"), (B, "l10"), (B, "m10")]);
    assert_eq!(
        lp.counts(B)[OpenThree],
        1,
        "four stones, two short of six, open"
    );
    let lp = setup(
        6,
        19,
        &[
            (B, "j10"),
            (B, "k10"),
            (B, "l10"),
            (B, "m10"),
            (B, "n10"),
            (W, "i10"),
        ],
    );
    assert_eq!(lp.counts(B)[Four], 1);
    let g = lp.geometry();
    assert_eq!(
        lp.five_points(B)
            .map(|s| g.format_square(s))
            .collect::<Vec<_>>(),
        ["o10"]
    );
}

#[test]
fn errors_and_accessors() {
    let g = Geometry::square(15).unwrap();
    assert!(matches!(
        LinePatterns::new(g, 0, Rule::Exact, PatternWeights::gomoku()),
        Err(EvalError::BadK { .. })
    ));
    assert!(matches!(
        LinePatterns::new(g, 16, Rule::Exact, PatternWeights::gomoku()),
        Err(EvalError::BadK { .. })
    ));
    let mut lp = LinePatterns::new(g, 5, Rule::Exact, PatternWeights::default()).unwrap();
    assert_eq!((lp.k(), lp.rule()), (5, Rule::Exact));
    assert!(lp.place(Player::First, Square(225)).is_err());
    lp.place(Player::First, Square(3)).unwrap();
    assert!(lp.place(Player::Second, Square(3)).is_err());
    assert!(lp.remove(Player::Second, Square(3)).is_err());
    assert!(lp.remove(Player::First, Square(4)).is_err());
    lp.set_weights(PatternWeights::connect6());
    assert_eq!(lp.weights().get(Five), 1_000_000);
    let mut w = PatternWeights::gomoku();
    w.set(ClosedTwo, 7);
    assert_eq!(w.get(ClosedTwo), 7);
    let a: BoardSet = [Square(1)].into_iter().collect();
    assert!(matches!(
        LinePatterns::from_sets(g, 5, Rule::Exact, w, [&a, &a]),
        Err(EvalError::Overlap { square: 1 })
    ));
    assert_eq!(
        Pattern::ALL.map(Pattern::stones_needed),
        [0, 1, 1, 2, 2, 2, 3, 3]
    );
}
