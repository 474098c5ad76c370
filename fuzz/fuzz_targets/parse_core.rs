//! board-core's parsers on arbitrary text: squares and game spec strings never panic, and
//! whatever parses prints back to something that parses to the same value.
#![no_main]

use board_core::{Coord, GameSpec, Geometry};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(c) = text.parse::<Coord>() {
        assert_eq!(c.to_string().parse::<Coord>(), Ok(c));
    }
    for size in [3, 8, 19, 26] {
        let g = Geometry::new(size, size).expect("valid size");
        if let Ok(sq) = g.parse_square(text) {
            assert_eq!(g.parse_square(&g.format_square(sq)), Ok(sq));
        }
    }
    if let Ok(spec) = GameSpec::parse(text) {
        assert_eq!(GameSpec::parse(&spec.to_string()), Ok(spec.clone()));
        let mut r = spec.reader(&["size", "k", "rule"]);
        let _ = r.int("size", 15, 5, 26);
        let _ = r.int("k", 4, 2, 26);
        let _ = r.bool("adjudicate", false);
        let _ = r.choice("rule", 0, &["freestyle", "exact5"]);
        let _ = r.finish();
    }
});
