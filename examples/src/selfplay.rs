//! `boardlab selfplay`: parallel self-play tournaments and balance tables (the work is in the
//! `arena` crate; this file parses arguments and prints).

use std::{fs, time::Instant};

use arena::{SelfplaySettings, SelfplaySummary, records_text, run_selfplay};
use board_core::GameSpec;
use engines::{EngineGame, with_game};
use indicatif::{ProgressBar, ProgressStyle};

use crate::{cli_error::CliError, setup};

/// Everything `selfplay` was asked for, game-independent.
#[derive(Clone, Debug)]
pub struct SelfplayArgs {
    pub spec: String,
    pub settings: SelfplaySettings,
    pub records: Option<String>,
    pub json: bool,
    pub sweep: Option<String>,
}

/// Parses `random:K` (or a bare `K`): the number of random opening plies.
pub fn parse_openings(text: &str) -> Result<u32, String> {
    let k = text.strip_prefix("random:").unwrap_or(text);
    k.parse::<u32>()
        .ok()
        .filter(|k| *k <= 64)
        .ok_or_else(|| format!("bad --openings '{text}': expected random:K with K from 0 to 64"))
}

pub fn run(args: SelfplayArgs) -> Result<(), CliError> {
    let id = setup::game_id(&args.spec)?;
    match &args.sweep {
        None => with_game!(id.as_str(), tournament(&args, &args.spec, true))?.map(|_| ()),
        Some(sweep) => {
            let (key, values) = sweep
                .split_once('=')
                .filter(|(k, v)| !k.trim().is_empty() && !v.trim().is_empty())
                .ok_or_else(|| {
                    CliError::usage(format!("bad --sweep '{sweep}': expected key=v1,v2,..."))
                })?;
            let base = GameSpec::parse(&args.spec)?;
            let mut rows = Vec::new();
            for value in values.split(',').map(str::trim).filter(|v| !v.is_empty()) {
                let mut spec = base.clone();
                spec.params.retain(|(k, _)| k != key.trim());
                spec.params
                    .push((key.trim().to_ascii_lowercase(), value.to_string()));
                let spec = spec.to_string();
                let summary = with_game!(id.as_str(), tournament(&args, &spec, false))??;
                rows.push((value.to_string(), summary));
            }
            print_sweep(key.trim(), &rows, args.json);
            Ok(())
        }
    }
}

fn tournament<P: EngineGame + arena::BalanceStats>(
    args: &SelfplayArgs,
    spec: &str,
    print: bool,
) -> Result<SelfplaySummary, CliError> {
    let config = setup::config::<P>(spec)?;
    let total = args.settings.games.div_ceil(2).max(1) * 2;
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} games, {elapsed} elapsed, eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_prefix(spec.to_string());
    let started = Instant::now();
    let games = run_selfplay::<P>(&config, &args.settings, || bar.inc(1))
        .map_err(|e| CliError::usage(e.to_string()))?;
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let summary = SelfplaySummary::new(
        &args.settings.a.to_string(),
        &args.settings.b.to_string(),
        &games,
    );
    if let Some(path) = &args.records {
        let path = match &args.sweep {
            Some(_) => format!("{path}.{}", spec.replace([':', ',', '='], "_")),
            None => path.clone(),
        };
        fs::write(&path, records_text(&games))
            .map_err(|e| CliError::usage(format!("cannot write records to {path}: {e}")))?;
    }
    eprintln!(
        "{spec}: {} games in {:.1} s on {} threads",
        games.len(),
        elapsed.as_secs_f64(),
        args.settings.threads
    );
    if print {
        if args.json {
            outln!("{}", summary.to_json());
        } else {
            outln!("game: {}", P::new(config).config());
            out!("{summary}");
        }
    }
    Ok(summary)
}

fn print_sweep(key: &str, rows: &[(String, SelfplaySummary)], json: bool) {
    if json {
        let items: Vec<String> = rows
            .iter()
            .map(|(v, s)| format!(r#"{{"{key}":"{v}","summary":{}}}"#, s.to_json()))
            .collect();
        outln!("[{}]", items.join(","));
        return;
    }
    outln!(
        "{key:>10} {:>6} {:>8} {:>8} {:>7} {:>15} {:>8}  balance",
        "games",
        "1st win",
        "2nd win",
        "draws",
        "1st 95% CI",
        "length"
    );
    for (value, s) in rows {
        let n = s.games.max(1) as f64;
        let balance: Vec<String> = s
            .balance
            .iter()
            .map(|(k, v)| format!("{k} {v:.2}"))
            .collect();
        outln!(
            "{value:>10} {:>6} {:>7.1}% {:>7.1}% {:>6.1}% {:>6.1}%-{:>5.1}% {:>8.1}  {}",
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
