//! The JSON of a spec key's kind is what the web page's new-game form reads
//! (`crates/web/assets/app.js`: `o.kind.type`, `min`, `max`, `step`, `word`, `values`).

use boardlab_games::KeyKind;
use serde_json::json;

#[test]
fn key_kinds_serialise_with_a_type_tag() {
    let cases = [
        (
            KeyKind::Int {
                min: 4,
                max: 26,
                step: 2,
            },
            json!({"type": "int", "min": 4, "max": 26, "step": 2}),
        ),
        (
            KeyKind::IntOr {
                min: 0,
                max: 99,
                word: "unlimited",
            },
            json!({"type": "int_or", "min": 0, "max": 99, "word": "unlimited"}),
        ),
        (KeyKind::Bool, json!({"type": "bool"})),
        (
            KeyKind::Choice {
                values: &["10", "8"],
            },
            json!({"type": "choice", "values": ["10", "8"]}),
        ),
    ];
    for (kind, expected) in cases {
        assert_eq!(serde_json::to_value(&kind).expect("serialises"), expected);
    }
}
