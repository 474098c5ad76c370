//! `boardlab selfplay`: parallel self-play tournaments, sweeps over rule parameters and
//! their charts (the work is in the `arena` crate; this file parses arguments and prints).

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use arena::{
    ArenaGame, GameResult, SelfplaySettings, SelfplaySummary, merge, plot, records_text,
    run_tournament_counting,
};
use board_core::GameSpec;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use crate::{
    Registry,
    cli_error::CliError,
    match_cmd::{check_writable, concurrency_phrase, tournament_info, write_file},
    setup,
};

/// Everything `selfplay` was asked for, game-independent.
#[derive(Clone, Debug)]
pub struct SelfplayArgs {
    pub spec: String,
    pub settings: SelfplaySettings,
    pub records: Option<String>,
    pub json: bool,
    /// `key=v1,v2,...` each; several give every combination.
    pub sweep: Vec<String>,
    /// Draw the sweep into this SVG file.
    pub plot: Option<String>,
}

/// One swept key and its values.
pub(crate) type Axis = (String, Vec<String>);

/// A point of a grid: its setting (key, value per axis) and its game spec.
pub(crate) type Point = (Vec<(String, String)>, GameSpec);

/// A sweep's row: its setting (key, value per swept key), summary and JSON report.
type Row = (Vec<(String, String)>, (SelfplaySummary, String));

/// Reads `key=v1,v2,...`, the argument of `flag` (`--sweep`, `--vary`).
pub(crate) fn parse_axis(flag: &str, text: &str) -> Result<Axis, CliError> {
    let bad = || {
        CliError::usage(format!(
            "bad {flag} '{}': expected key=v1,v2,...",
            setup::short(text)
        ))
    };
    let (key, values) = text.split_once('=').ok_or_else(bad)?;
    let key = key.trim().to_ascii_lowercase();
    let values: Vec<String> = values
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .collect();
    if key.is_empty() || values.is_empty() {
        return Err(bad());
    }
    Ok((key, values))
}

/// Every combination of the axes' values, the first axis varying slowest.
pub(crate) fn combinations(axes: &[Axis]) -> Vec<Vec<(String, String)>> {
    let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (key, values) in axes {
        combos = combos
            .into_iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut c = prefix.clone();
                    c.push((key.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    combos
}

/// The grid of `flag`'s arguments (`--sweep`, `--vary`; each `key=v1,v2,...`, each key
/// once) over `base`: the axes, and every combination's setting with its spec (`base`
/// with the setting's values), in [`combinations`] order.
pub(crate) fn grid(
    flag: &str,
    texts: &[String],
    base: &GameSpec,
) -> Result<(Vec<Axis>, Vec<Point>), CliError> {
    let axes = texts
        .iter()
        .map(|text| parse_axis(flag, text))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, (key, _)) in axes.iter().enumerate() {
        if axes[..i].iter().any(|(k, _)| k == key) {
            return Err(CliError::usage(format!("{flag} {key} is given twice")));
        }
    }
    let points = combinations(&axes)
        .into_iter()
        .map(|setting| {
            let mut spec = base.clone();
            for (key, value) in &setting {
                spec.params.retain(|(k, _)| k != key);
                spec.params.push((key.clone(), value.clone()));
            }
            (setting, spec)
        })
        .collect();
    Ok((axes, points))
}

pub fn run(registry: &Registry, args: SelfplayArgs) -> Result<(), CliError> {
    let base = GameSpec::parse(&args.spec)?;
    let game = crate::registry::of_spec(registry, &base)?;
    if args.sweep.is_empty() {
        if args.plot.is_some() {
            return Err(CliError::usage(
                "--plot draws a sweep: give --sweep key=v1,v2,...",
            ));
        }
        if let Some(path) = &args.records {
            check_writable(path, "records")?;
        }
        return (game.tournament)(&args, &base, true).map(|_| ());
    }
    let (axes, settings) = grid("--sweep", &args.sweep, &base)?;
    // Every setting and output file is checked before the first game: a bad value or path
    // fails at once, not after the settings before it were played.
    for (setting, spec) in &settings {
        (game.check_tournament)(&args, spec).map_err(|e| {
            CliError::usage(format!("--sweep setting {}: {e}", setting_label(setting)))
        })?;
        if let Some(path) = &args.records {
            check_writable(&records_path(path, spec, true), "records")?;
        }
    }
    if let Some(path) = &args.plot {
        check_writable(path, "the chart")?;
    }
    let mut rows = Vec::new();
    for (setting, spec) in settings {
        let row = (game.tournament)(&args, &spec, false)?;
        rows.push((setting, row));
    }
    // The table first: a chart that cannot be written after all does not lose it.
    if args.json {
        let json_rows: Vec<merge::SweepRow> = rows
            .iter()
            .map(|(setting, (_, report))| (setting.clone(), report.clone()))
            .collect();
        outln!("{}", merge::sweep_json(&json_rows));
    } else {
        print_sweep(&rows);
    }
    if let Some(path) = &args.plot {
        let labelled: Vec<(String, SelfplaySummary)> = rows
            .iter()
            .map(|(setting, (summary, _))| {
                let values: Vec<&str> = setting.iter().map(|(_, v)| v.as_str()).collect();
                (values.join(", "), summary.clone())
            })
            .collect();
        let keys: Vec<&str> = axes.iter().map(|(k, _)| k.as_str()).collect();
        let title = format!(
            "{}: {} vs {}, {}",
            args.spec, args.settings.a, args.settings.b, args.settings.budget
        );
        let svg = plot::sweep_svg(&title, &keys.join(", "), &labelled)
            .map_err(|e| CliError::usage(e.to_string()))?;
        write_file(path, &svg, "the chart")?;
    }
    Ok(())
}

/// Where a tournament's records go: `--records FILE` itself, or in a sweep one file per
/// setting, `FILE.<spec>`.
fn records_path(path: &str, spec: &GameSpec, sweep: bool) -> String {
    match sweep {
        false => path.to_string(),
        true => format!("{path}.{}", spec.to_string().replace([':', ',', '='], "_")),
    }
}

/// Checks a tournament of `spec` under `args` can be played, without playing it.
pub fn check_tournament<P: ArenaGame>(
    args: &SelfplayArgs,
    spec: &GameSpec,
) -> Result<(), CliError> {
    let config = setup::config::<P>(spec)?;
    args.settings
        .check::<P>(&config)
        .map_err(|e| CliError::usage(e.to_string()))
}

pub(crate) fn setting_label(setting: &[(String, String)]) -> String {
    setting
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The progress of a tournament, drawn on a terminal only (indicatif draws nothing on a
/// pipe): games done, and the moves played so far in `moves`, which go on counting while
/// long games are under way; `label` (the spec) last, cut to the terminal's width.
pub fn tournament_bar(games: usize, label: &str, moves: &Arc<AtomicU64>) -> ProgressBar {
    let shown = Arc::clone(moves);
    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "[{bar:20}] {pos}/{len} games, {moves} moves, {elapsed} {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "moves",
            move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", shown.load(Ordering::Relaxed));
            },
        ),
    );
    bar.set_message(label.to_string());
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// Plays one tournament; gives its summary and its JSON report.
pub fn tournament<P: ArenaGame>(
    args: &SelfplayArgs,
    spec: &GameSpec,
    print: bool,
) -> Result<(SelfplaySummary, String), CliError> {
    let config = setup::config::<P>(spec)?;
    let count = args
        .settings
        .shard
        .games(args.settings.total_games())
        .count();
    if let Some(replayed) = args.settings.replayed_openings() {
        eprintln!("warning: {spec}: {replayed}");
    }
    let moves = Arc::new(AtomicU64::new(0));
    let bar = tournament_bar(count, &spec.to_string(), &moves);
    let started = Instant::now();
    let played = run_tournament_counting::<P>(&config, &args.settings, &moves, |_| bar.inc(1));
    bar.finish_and_clear();
    let games = played.map_err(|e| CliError::usage(e.to_string()))?.games;
    let elapsed = started.elapsed();
    let results: Vec<GameResult> = games.iter().map(GameResult::of).collect();
    let summary = SelfplaySummary::of_results(
        &args.settings.a.to_string(),
        &args.settings.b.to_string(),
        &results,
    );
    let report = merge::report_json(&tournament_info::<P>(&config, &args.settings), &results);
    if let Some(path) = &args.records {
        let path = records_path(path, spec, !args.sweep.is_empty());
        write_file(&path, &records_text(&games), "records")?;
    }
    eprintln!(
        "{spec}: {} games in {:.1} s on {}",
        games.len(),
        elapsed.as_secs_f64(),
        concurrency_phrase(args.settings.threads)
    );
    if print {
        if args.json {
            outln!("{report}");
        } else {
            outln!("game: {config}");
            out!("{summary}");
        }
    }
    Ok((summary, report))
}

fn print_sweep(rows: &[Row]) {
    let labels: Vec<String> = rows.iter().map(|(s, _)| setting_label(s)).collect();
    let width = labels.iter().map(String::len).max().unwrap_or(7).max(7);
    outln!(
        "{:<width$} {:>6} {:>8} {:>8} {:>7} {:>15} {:>8}  balance",
        "setting",
        "games",
        "1st win",
        "2nd win",
        "draws",
        "1st 95% CI",
        "length"
    );
    for (label, (_, (s, _))) in labels.iter().zip(rows) {
        let n = s.games.max(1) as f64;
        let balance: Vec<String> = s
            .balance
            .iter()
            .map(|(k, v)| format!("{k} {v:.2}"))
            .collect();
        outln!(
            "{label:<width$} {:>6} {:>7.1}% {:>7.1}% {:>6.1}% {:>6.1}%-{:>5.1}% {:>8.1}  {}",
            s.games,
            100.0 * s.first_wins as f64 / n,
            100.0 * s.second_wins as f64 / n,
            100.0 * s.draws as f64 / n,
            100.0 * s.first_player_ci95.0,
            100.0 * s.first_player_ci95.1,
            s.mean_length,
            balance.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_keys_give_every_combination_first_key_slowest() {
        let axes = vec![
            parse_axis("--sweep", "moving_first=next,second").unwrap_or_default(),
            parse_axis("--sweep", "centre_opening=true,false").unwrap_or_default(),
        ];
        let labels: Vec<String> = combinations(&axes)
            .iter()
            .map(|c| setting_label(c))
            .collect();
        assert_eq!(
            labels,
            [
                "moving_first=next centre_opening=true",
                "moving_first=next centre_opening=false",
                "moving_first=second centre_opening=true",
                "moving_first=second centre_opening=false",
            ]
        );
        assert!(parse_axis("--sweep", "pieces").is_err());
        assert!(parse_axis("--sweep", "=1,2").is_err());
        assert!(parse_axis("--sweep", "pieces=").is_err());
    }
}
