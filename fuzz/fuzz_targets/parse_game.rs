//! Every game's text inputs on arbitrary text: game spec strings, position strings, move
//! notation and save files. Nothing panics; whatever parses prints back to the same value.
#![no_main]

mod common;

use board_core::{GameConfig, View, savefile, testing};
use libfuzzer_sys::fuzz_target;

fn run<P: View>(spec: &str, text: &str) {
    if let Ok(config) = text.parse::<P::Config>() {
        let again: P::Config = config.to_string().parse().expect("printed spec reads back");
        assert_eq!(again, config);
    }
    let config: P::Config = spec.parse().expect("fuzz specs are valid");
    if let Ok(pos) = P::from_position_string(config.clone(), text) {
        let back = P::from_position_string(config.clone(), &pos.to_position_string())
            .expect("printed position string reads back");
        assert_eq!(back, pos);
        assert_eq!(pos.hash(), pos.compute_hash());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert_eq!(pos.count_moves(), moves.len() as u64);
        assert_eq!(pos.outcome().is_some(), moves.is_empty());
        let _ = pos.diagram();
        let _ = pos.outcome_reason();
        // A parsed position is a start like any other: the conformance invariants hold
        // from it for a few plies chosen by the text itself.
        let choices: Vec<u32> = text.bytes().take(6).map(u32::from).collect();
        if let Err(e) = testing::check_playout(&pos, &choices) {
            panic!("{spec}: from '{text}': {e}");
        }
    }
    let start = P::new(config.clone());
    if let Ok(mv) = start.parse_move(text) {
        let _ = start.validate(&mv);
    }
    let save = format!("boardlab-save 1\ngame {config}\n{text}");
    if let Ok(loaded) = savefile::load::<P>(&save) {
        let written = savefile::save::<P>(&config, &loaded.moves);
        let again = savefile::load::<P>(&written).expect("written save file loads");
        assert_eq!(again.position, loaded.position);
    }
    let _ = savefile::load::<P>(text);
    let _ = <P::Config as GameConfig>::GAME_ID;
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (id, spec) = common::spec_of(pick);
    boardlab_games::with_game!(id, run(spec, text));
});
