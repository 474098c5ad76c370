//! `boardlab match` (two players, colour-swapped pairs, optional SPRT) and `boardlab merge`
//! (shards' reports and records into the whole tournament's). The work is in `arena`.

use std::{
    fs,
    sync::{Arc, atomic::AtomicU64},
};

use arena::{
    ArenaGame, GameRecord, MatchReport, OpeningBook, Openings, PlayedGame, SelfplaySettings, Side,
    merge, merge::TournamentInfo, records_text, run_tournament_counting,
};
use board_core::GameSpec;
use board_core::Position;

use crate::{cli_error::CliError, setup};

/// Parses `random:K` (or a bare `K`: that many random opening plies) or `book:FILE` (the
/// lines of an opening book, read now), for both `match` and `selfplay`. A book's moves are
/// checked against the game when the tournament starts.
pub fn parse_openings(text: &str) -> Result<Openings, String> {
    if let Some(path) = text.strip_prefix("book:") {
        let content = fs::read_to_string(path)
            .map_err(|e| format!("cannot read opening book {path}: {e}"))?;
        return OpeningBook::parse(path, &content)
            .map(Openings::Book)
            .map_err(|e| e.to_string());
    }
    let k = text.strip_prefix("random:").unwrap_or(text);
    k.parse::<u32>()
        .ok()
        .filter(|k| *k <= Openings::MAX_RANDOM_PLIES)
        .map(Openings::Random)
        .ok_or_else(|| {
            format!(
                "bad --openings '{}': expected random:K with K from 0 to {}, or book:FILE",
                setup::short(text),
                Openings::MAX_RANDOM_PLIES
            )
        })
}

/// How many games ran at once, as the summary line says it: `one game at a time`, `2 games
/// at once` (the flag is `--concurrency`).
pub fn concurrency_phrase(games_at_once: usize) -> String {
    if games_at_once == 1 {
        "one game at a time".to_string()
    } else {
        format!("{games_at_once} games at once")
    }
}

/// Checks before any game that `path` can be written (so a bad `--records` or `--plot` path
/// fails at once, not after the tournament): opens it for appending, creating it if need
/// be, and removes it again if it was created here. An existing file is not changed.
pub fn check_writable(path: &str, what: &str) -> Result<(), CliError> {
    let existed = std::path::Path::new(path).exists();
    fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| CliError::usage(format!("cannot write {what} to {path}: {e}")))?;
    if !existed {
        let _ = fs::remove_file(path);
    }
    Ok(())
}

/// What a report says the tournament was.
pub fn tournament_info<P: Position>(
    config: &P::Config,
    settings: &SelfplaySettings,
) -> TournamentInfo {
    TournamentInfo {
        spec: config.to_string(),
        a: settings.a.to_string(),
        b: settings.b.to_string(),
        budget: settings.budget.to_string(),
        openings: settings.openings.to_string(),
        seed: settings.seed,
        games: settings.total_games(),
        shard: settings.shard,
        sprt: settings.sprt,
    }
}

/// Writes `text` to `path`, naming the file in the error.
pub fn write_file(path: &str, text: &str, what: &str) -> Result<(), CliError> {
    fs::write(path, text)
        .map_err(|e| CliError::usage(format!("cannot write {what} to {path}: {e}")))
}

/// Everything `match` was asked for besides the tournament settings.
#[derive(Clone, Debug)]
pub struct MatchOutput {
    pub records: Option<String>,
    pub json: bool,
}

/// The moves of a game in notation, the opening separated by ` | `.
fn record_moves<P: Position>(record: &GameRecord<P>) -> String {
    let mut pos = P::new(record.config.clone());
    let mut out = Vec::with_capacity(record.moves.len() + 1);
    for (i, &mv) in record.moves.iter().enumerate() {
        if i == record.opening_plies && i > 0 {
            out.push("|".to_string());
        }
        out.push(pos.format_move(mv));
        pos.make_move(mv);
    }
    out.join(" ")
}

pub fn run_match<P: ArenaGame>(
    spec: &GameSpec,
    settings: &SelfplaySettings,
    output: &MatchOutput,
) -> Result<(), CliError> {
    let config = setup::config::<P>(spec)?;
    if let Some(path) = &output.records {
        check_writable(path, "records")?;
    }
    if let Some(replayed) = settings.replayed_openings() {
        eprintln!("warning: {replayed}");
    }
    let mut report = MatchReport::new(settings.a.to_string(), settings.b.to_string());
    let moves = Arc::new(AtomicU64::new(0));
    let count = settings.shard.games(settings.total_games()).count();
    let bar = crate::selfplay::tournament_bar(count, &config.to_string(), &moves);
    let tournament = run_tournament_counting::<P>(&config, settings, &moves, |game| {
        let game: &PlayedGame<P> = game;
        let a_side: Side = game.a_side;
        report.add(&game.record, a_side);
        bar.inc(1);
        // The game line above the bar at a terminal, as it is on a pipe.
        bar.suspend(|| {
            eprintln!(
                "game {}: {} (first) vs {} (second): {} in {} plies: {}",
                game.index + 1,
                game.record.players[0],
                game.record.players[1],
                game.record.reason,
                game.record.moves.len(),
                record_moves(&game.record)
            );
        });
    });
    bar.finish_and_clear();
    let tournament = tournament.map_err(|e| CliError::usage(e.to_string()))?;
    if let Some(path) = &output.records {
        write_file(path, &records_text(&tournament.games), "records")?;
    }
    if output.json {
        let results: Vec<_> = tournament.games.iter().map(arena::GameResult::of).collect();
        outln!(
            "{}",
            merge::report_json(&tournament_info::<P>(&config, settings), &results)
        );
        return Ok(());
    }
    out!("{report}");
    if let Some(status) = &tournament.sprt {
        outln!("{status}");
    }
    outln!("{}", report.score_line());
    Ok(())
}

/// `boardlab merge FILES…`: JSON reports merge into a report, records files into a records
/// file; the result goes to stdout.
pub fn run_merge(files: &[String]) -> Result<(), CliError> {
    let texts = files
        .iter()
        .map(|f| {
            fs::read_to_string(f).map_err(|e| CliError::usage(format!("cannot read {f}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let is_json = |t: &String| t.trim_start().starts_with(['{', '[']);
    let merged = if texts.iter().all(is_json) {
        merge::merge_json(&texts)
    } else if texts.iter().any(is_json) {
        return Err(CliError::usage(
            "cannot merge JSON reports with records files: give one kind at a time",
        ));
    } else {
        merge::merge_records(&texts)
    }
    .map_err(|e| CliError::usage(e.to_string()))?;
    if texts.iter().all(is_json) {
        outln!("{merged}");
    } else {
        out!("{merged}");
    }
    Ok(())
}
