//! `boardlab selfplay`: parallel self-play tournaments, sweeps over rule parameters and
//! their charts (the work is in the `arena` crate; this file parses arguments and prints).

use std::time::Instant;

use arena::{
    ArenaGame, GameResult, SelfplaySettings, SelfplaySummary, merge, plot, records_text,
    run_tournament,
};
use board_core::GameSpec;
use indicatif::{ProgressBar, ProgressStyle};

use crate::{
    Registry,
    cli_error::CliError,
    match_cmd::{threads_phrase, tournament_info, write_file},
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

pub fn run(registry: &Registry, args: SelfplayArgs) -> Result<(), CliError> {
    let base = GameSpec::parse(&args.spec)?;
    let game = registry.of_spec(&base)?;
    if args.sweep.is_empty() {
        if args.plot.is_some() {
            return Err(CliError::usage(
                "--plot draws a sweep: give --sweep key=v1,v2,...",
            ));
        }
        return game.tournament(&args, &base, true).map(|_| ());
    }
    let axes = args
        .sweep
        .iter()
        .map(|s| parse_axis("--sweep", s))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, (key, _)) in axes.iter().enumerate() {
        if axes[..i].iter().any(|(k, _)| k == key) {
            return Err(CliError::usage(format!("--sweep {key} is given twice")));
        }
    }
    let mut rows = Vec::new();
    for setting in combinations(&axes) {
        let mut spec = base.clone();
        for (key, value) in &setting {
            spec.params.retain(|(k, _)| k != key);
            spec.params.push((key.clone(), value.clone()));
        }
        let row = game.tournament(&args, &spec, false)?;
        rows.push((setting, row));
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
    if args.json {
        let json_rows: Vec<merge::SweepRow> = rows
            .into_iter()
            .map(|(setting, (_, report))| (setting, report))
            .collect();
        outln!("{}", merge::sweep_json(&json_rows));
    } else {
        print_sweep(&rows);
    }
    Ok(())
}

pub(crate) fn setting_label(setting: &[(String, String)]) -> String {
    setting
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
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
    let bar = ProgressBar::new(count as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} games, {elapsed} elapsed, eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_prefix(spec.to_string());
    let started = Instant::now();
    let games = run_tournament::<P>(&config, &args.settings, |_| bar.inc(1))
        .map_err(|e| CliError::usage(e.to_string()))?
        .games;
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let results: Vec<GameResult> = games.iter().map(GameResult::of).collect();
    let summary = SelfplaySummary::of_results(
        &args.settings.a.to_string(),
        &args.settings.b.to_string(),
        &results,
    );
    let report = merge::report_json(&tournament_info::<P>(&config, &args.settings), &results);
    if let Some(path) = &args.records {
        let path = match args.sweep.is_empty() {
            true => path.clone(),
            false => format!("{path}.{}", spec.to_string().replace([':', ',', '='], "_")),
        };
        write_file(&path, &records_text(&games), "records")?;
    }
    eprintln!(
        "{spec}: {} games in {:.1} s on {}",
        games.len(),
        elapsed.as_secs_f64(),
        threads_phrase(args.settings.threads)
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
