//! `boardlab book`: a gomoku opening book for `match --openings book:FILE`, printed to
//! stdout. The work (random stones near the centre, kept when a fixed-depth engine search
//! scores them near even, distinct up to symmetry) is `arena::book::gomoku_book`.

use arena::book::{GomokuBookSettings, gomoku_book};
use board_core::GameConfig as _;
use boardlab_games::Gomoku;

use indicatif::{ProgressBar, ProgressStyle};

use crate::{cli_error::CliError, setup};

/// Parses `MIN-MAX` (or a bare `N`): the stone counts of the book's openings.
pub fn parse_stones(text: &str) -> Result<(u32, u32), String> {
    let bad = || {
        format!(
            "bad stone counts '{}': expected MIN-MAX, e.g. 3-5",
            setup::short(text)
        )
    };
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo = lo.trim().parse::<u32>().map_err(|_| bad())?;
    let hi = hi.trim().parse::<u32>().map_err(|_| bad())?;
    if lo == 0 || lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// Generates the book and prints it: a header naming the command's settings, one opening
/// a line, and the counts at the end (also on stderr, with progress).
pub fn run(spec: &str, settings: &GomokuBookSettings) -> Result<(), CliError> {
    let parsed = board_core::GameSpec::parse(spec)?;
    if parsed.id != <Gomoku as board_core::Position>::Config::GAME_ID {
        return Err(CliError::usage(format!(
            "boardlab book makes gomoku books only (random stones near the centre): '{}' is not gomoku",
            setup::short(spec)
        )));
    }
    let config = <Gomoku as board_core::Position>::Config::from_spec(&parsed)?;
    outln!(
        "# boardlab book {config} --count {} --stones {}-{} --radius {} --depth {} --max-score {} --seed {}",
        settings.count,
        settings.min_stones,
        settings.max_stones,
        settings.radius,
        settings.depth,
        settings.max_score,
        settings.seed
    );
    outln!(
        "# Random openings within {} of the centre, kept when the mean of the engine's scores at depths {} and {} is within {} cp of even; distinct up to the board's symmetries.",
        settings.radius,
        settings.depth - 1,
        settings.depth,
        settings.max_score
    );
    // Progress at a terminal only (indicatif draws nothing on a pipe): a line a kept
    // opening on stderr filled a log with thousands of lines.
    let bar = ProgressBar::new(settings.count as u64);
    bar.set_style(
        ProgressStyle::with_template("[{bar:20}] {pos}/{len} openings kept, {msg}, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    let book = gomoku_book(&config, settings, |entry, book| {
        // Printed with the bar out of the way, for a stdout that is the same terminal.
        bar.suspend(|| outln!("{}", entry.line(settings.depth)));
        bar.set_position(book.entries.len() as u64);
        bar.set_message(format!(
            "{} drawn ({} duplicates, {} unbalanced)",
            book.tried, book.duplicates, book.unbalanced
        ));
    });
    bar.finish_and_clear();
    let book = book.map_err(|e| CliError::usage(e.to_string()))?;
    let summary = format!(
        "{} openings kept of {} drawn: {} repeated one up to symmetry (or ended the game), {} scored beyond {} cp of even",
        book.entries.len(),
        book.tried,
        book.duplicates,
        book.unbalanced,
        settings.max_score
    );
    outln!("# {summary}");
    eprintln!("{summary}");
    Ok(())
}
