//! Perft figures shared by `perft.rs` (the fast crate) and `reference.rs` (which checks
//! every figure small enough for the naive implementation).

/// (board size, position string, perft(1), perft(2), …).
pub type PerftCase = (u32, &'static str, &'static [u64]);

/// Positions past the opening, from seeded random playouts: early, middle and late games,
/// one where the player to move is close to losing, finished games.
pub const PERFT_CASES: &[PerftCase] = &[
    (
        10,
        "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w 0",
        &[2_176, 4_307_152],
    ),
    (8, "2b2b2/8/b6b/8/8/w6w/8/2w2w2 b 0", &[1_232, 1_331_198]),
    // After d1-d7/g7 j7-e2/b5 g1-g6/j3 a7-c9/a7 a4-a5/a4.
    (
        10,
        "3b2b3/2b7/10/x2w2x3/6w3/wx8/x8w/9x/4b5/10 b 5",
        &[1_634, 2_741_139],
    ),
    (
        10,
        "8x1/2b3w3/1xx3b3/2xw6/8b1/3b6/2xw1xx1x1/1wx5xx/x9/10 w 12",
        &[1_042, 1_154_181, 1_039_860_062],
    ),
    (
        10,
        "w1xbbwx3/1xx1xxw2x/2xxxxxx1x/xx3x4/x1x2x1xxx/x1w1x2xx1/b1x2x1x1b/x1xx3x2/1x3xxx2/4x4x w 40",
        &[87, 5_408, 401_313, 23_620_697],
    ),
    (
        10,
        "1xxxx1x2x/xxxwxxxxx1/1xbxx4x/xxxxxxx3/b1xxxxx1xx/x1xxxbxx1x/1xxbxxxxxx/xwx1x1xxxw/xxxxxxxxxx/wxxxxxxx2 w 70",
        &[2, 7, 5, 4],
    ),
    (
        10,
        "xxxxxx3x/1xbxbxxxxx/xxxxxxx1x1/xxxxxxxxbx/xxxwxxxxxx/x1xxxwxxxx/xxxxx1x2x/bxxxxxxxxx/xx1wxxxwxx/xxxxxxxxx1 w 80",
        &[2, 4, 4, 0],
    ),
    (
        8,
        "1bx1b2x/2x2x1w/bx1b4/x5w1/8/w7/3xw3/5x2 b 8",
        &[517, 431_103, 174_085_169],
    ),
    (
        8,
        "xbxbx1x1/2x1x1xx/1wbw1xxw/x1xxx1x1/xx2x3/3x1xxx/2xxwxx1/xx2x1bx b 30",
        &[24, 821, 14_780, 404_987],
    ),
    (
        8,
        "1xbx2x1/xxxxxxxw/1xbxxxxx/xxxxx1w1/x1xbxxx1/w1xxxx1x/xbxxxx1x/xx1xxxw1 b 42",
        &[5, 99, 73, 898],
    ),
    // Every Black move leaves White without a move: perft(2) = 0.
    (
        8,
        "xwxxxxxx/xxwxxxbx/xxxxxxb1/xx1xx1x1/xbx1xxxx/x1xxxxx1/bxxxxwxx/xxxxwxx1 b 48",
        &[11, 0, 0, 0],
    ),
    // Finished: the player to move is walled in.
    (10, "8bb/8bb/10/10/10/4x5/10/xxx7/wwx7/wwx7 w 6", &[0, 0, 0]),
    (8, "bxbx4/xxxx4/8/8/8/8/xwwww3/bxbxxxx1 b 12", &[0, 0]),
];
