//! Helpers shared by the engine test modules: a game's engine with default options, a
//! search to a fixed depth, a move from its notation, and the lines of an opening book.

use board_core::Position;
use search::{Agent, Limits, SearchOptions, SearchResult};

use crate::EngineGame;

/// The openings of a book file's text (`data/openings/*.txt`, as `boardlab match --openings
/// book:FILE` reads it): one a line, without `#` comments and blank lines.
pub(crate) fn book_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
}

/// The game's engine under the default search options.
pub(crate) fn engine<P: EngineGame>() -> Box<dyn Agent<P>> {
    P::engine(SearchOptions::default()).expect("default options are valid")
}

/// `agent`'s search of `pos` to exactly `depth`.
pub(crate) fn think<P: Position>(
    agent: &mut dyn Agent<P>,
    pos: &P,
    depth: u32,
) -> SearchResult<P::Move> {
    agent.think(pos, &Limits::new().with_depth(depth), &mut |_| {})
}

/// The legal move `text` in `pos` (the test is wrong if it is not legal).
pub(crate) fn mv<P: Position>(pos: &P, text: &str) -> P::Move {
    pos.parse_legal_move(text).expect("legal move")
}

/// The body of the ignored tuning runs (`fit_*_weights`): fits a game's weights to the
/// records files named by `RECORDS` (comma-separated), skipping `SKIP` opening plies of each
/// game, from `hand` (or, with `START=shipped`, from `shipped`), and prints the sample
/// counts (`kept` and `skipped` name them for the game), the fit and the weights.
pub(crate) fn fit_from_env<W: crate::tune::TunedWeights + std::fmt::Debug>(
    hand: W,
    shipped: W,
    add_samples: impl Fn(&str, usize, &mut crate::tune::Samples) -> Result<(), crate::tune::TuneError>,
    (kept, skipped): (&str, &str),
) {
    let files = std::env::var("RECORDS").expect("RECORDS=file,file,...");
    let skip: usize = std::env::var("SKIP").map_or(0, |s| s.parse().expect("SKIP is a number"));
    let start = match std::env::var("START").as_deref() {
        Ok("shipped") => shipped,
        Ok("hand") | Err(_) => hand,
        Ok(other) => panic!("START is hand or shipped, not {other}"),
    };
    let mut s = crate::tune::Samples::default();
    for f in files.split(',') {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        add_samples(&text, skip, &mut s).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    println!(
        "{} games ({} unfinished skipped), {} {kept}, {} {skipped}",
        s.games,
        s.unfinished,
        s.samples.len(),
        s.forcing
    );
    let (weights, fitted) = crate::tune::fit_weights(&s.samples, &start).expect("fits");
    println!(
        "scale {:e}, error {:.6} -> {:.6}",
        fitted.scale, fitted.error_before, fitted.error_after
    );
    println!("{weights:?}");
}
