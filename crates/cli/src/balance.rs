//! `boardlab balance`: an automatic search for the fairest rules. The variants of a grid
//! (`--vary key=v1,v2,...`, repeatable) play rounds of colour-swapped self-play pairs;
//! after each round the variants surely less fair than another are dropped (successive
//! elimination on the first player's score, [`arena::sequential`]), and the report ranks
//! the variants with their intervals, the games spent and a chart.
//!
//! Round `r` of a variant plays the pairs `r·R … (r+1)·R − 1` of the variant's one
//! tournament ([`arena::play_games`]), so a variant's games are always the first games of
//! `selfplay --seed S` on that variant. A run shards like `selfplay`: with `--shard K/N` a
//! process plays its games of the next round only and prints them (with its games of the
//! earlier rounds) as JSON; `boardlab merge` joins the shards, and `--after` the merged
//! file continues with the next round. The report after the last round is the one a single
//! process gives.

use std::{
    fs,
    sync::{Arc, atomic::AtomicU64},
    time::Duration,
};

use arena::{
    GameResult, SelfplaySettings, SelfplaySummary, Shard, merge,
    plot::{self, ChartRow},
    sequential::{ScoreInterval, dominated, pair_scores, simultaneous_z},
};
use board_core::GameSpec;
use boardlab_games::Game;
use clap::Args;
use search::AgentKind;
use serde_json::Value;

use crate::{
    cli_error::CliError,
    match_cmd::{check_writable, parse_openings, tournament_info, write_file},
    selfplay::{grid, setting_label, tournament_bar},
    setup,
};

/// The options of `boardlab balance`.
#[derive(Args, Debug, Clone)]
pub struct BalanceArgs {
    /// Game spec: the rules every variant starts from.
    pub spec: String,
    /// A rule parameter and the values to try: key=v1,v2,... Given twice or more, every
    /// combination is a variant.
    #[arg(long, required = true)]
    pub vary: Vec<String>,
    /// Colour-swapped pairs each surviving variant plays per round.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub round_pairs: u64,
    /// Pairs a variant plays at most (the last round may be shorter).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_pairs: u64,
    /// Probability that every interval of every round holds at once (the elimination never
    /// drops the fairest variant then).
    #[arg(long, default_value_t = 0.95)]
    pub confidence: f64,
    /// Player A: engine, baseline or random.
    #[arg(long, default_value = "engine")]
    pub a: AgentKind,
    /// Player B.
    #[arg(long, default_value = "engine")]
    pub b: AgentKind,
    /// Search to this depth (default 2).
    #[arg(long, conflicts_with_all = ["time", "nodes"], value_parser = clap::value_parser!(u32).range(1..=256))]
    pub depth: Option<u32>,
    /// Milliseconds per move (games are then not reproducible).
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub time: Option<u64>,
    /// Nodes per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Where each pair's opening comes from: random:K or book:FILE (as for `selfplay`).
    #[arg(long, default_value = "random:2", value_parser = parse_openings)]
    pub openings: arena::Openings,
    /// Seed for openings and tie-breaks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (each game's search is single-threaded).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// Transposition table size in MiB per engine.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// Play only shard K of N of the next round (with --json; `boardlab merge` the shards'
    /// outputs, then continue with --after).
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    /// Continue the run whose games this file holds (a merged --json output).
    #[arg(long)]
    pub after: Option<String>,
    /// Print every game's result as JSON (the input of `merge` and `--after`).
    #[arg(long)]
    pub json: bool,
    /// Draw the variants' first-player scores and intervals into this SVG.
    #[arg(long)]
    pub plot: Option<String>,
}

/// One variant of the grid: the values it gives the varied keys, and its spec.
#[derive(Clone, Debug)]
struct Variant {
    setting: Vec<(String, String)>,
    spec: GameSpec,
}

/// The schedule of a run: pairs per round, pairs at most, and the intervals' `z`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Plan {
    round_pairs: usize,
    max_pairs: usize,
    confidence: f64,
    z: f64,
}

impl Plan {
    fn rounds(&self) -> usize {
        self.max_pairs.div_ceil(self.round_pairs)
    }

    /// Games of a variant once round `round` (0-based) is played.
    fn games_through(&self, round: usize) -> usize {
        2 * ((round + 1) * self.round_pairs).min(self.max_pairs)
    }
}

/// Where a run stands: the next round to play (`None`: finished), and for each variant the
/// round after which it was dropped (`None`: still in).
#[derive(Clone, Debug, PartialEq)]
struct Standings {
    next_round: Option<usize>,
    dropped_after: Vec<Option<usize>>,
}

/// Replays the decisions over `results` (each variant's games, in index order): round by
/// round while every surviving variant has played the round, dropping the variants
/// [`dominated`] says. Errors when the games do not follow the plan.
fn replay(plan: &Plan, results: &[Vec<GameResult>]) -> Result<Standings, String> {
    let mut dropped_after: Vec<Option<usize>> = vec![None; results.len()];
    let mut round = 0;
    let next_round = loop {
        let alive: Vec<usize> = (0..results.len())
            .filter(|&v| dropped_after[v].is_none())
            .collect();
        if round == plan.rounds() || alive.len() <= 1 {
            break None;
        }
        let end = plan.games_through(round);
        if alive.iter().any(|&v| results[v].len() < end) {
            break Some(round);
        }
        let intervals: Vec<ScoreInterval> = alive
            .iter()
            .map(|&v| ScoreInterval::of_pairs(&pair_scores(&results[v][..end]), plan.z))
            .collect();
        for (&v, drop) in alive.iter().zip(dominated(&intervals)) {
            if drop {
                dropped_after[v] = Some(round);
            }
        }
        round += 1;
    };
    // Every variant must hold exactly the games the decisions gave it, numbered from 1.
    for (v, games) in results.iter().enumerate() {
        let expected = match (dropped_after[v], next_round) {
            (Some(r), _) => plan.games_through(r),
            (None, Some(0)) => 0,
            (None, Some(r)) => plan.games_through(r - 1),
            (None, None) if round == 0 => 0,
            (None, None) => plan.games_through(round - 1),
        };
        let numbered = games.iter().enumerate().all(|(i, g)| g.index == i);
        if games.len() != expected || !numbered {
            return Err(format!(
                "variant {} has {} games where this run's rounds give it {expected} \
                 (another --round-pairs, --max-pairs or --confidence, or a file that is not \
                 the merge of every shard?)",
                v + 1,
                games.len()
            ));
        }
    }
    Ok(Standings {
        next_round,
        dropped_after,
    })
}

/// Runs `boardlab balance` on game `P`.
pub fn run_balance<P: Game>(args: &BalanceArgs) -> Result<(), CliError> {
    let base = GameSpec::parse(&args.spec)?;
    let (axes, points) = grid("--vary", &args.vary, &base)?;
    let variants: Vec<Variant> = points
        .into_iter()
        .map(|(setting, spec)| Variant { setting, spec })
        .collect();
    if variants.len() < 2 {
        return Err(CliError::usage(
            "balance compares variants: --vary gives only one",
        ));
    }
    if args.max_pairs < args.round_pairs {
        return Err(CliError::usage(format!(
            "--max-pairs {} is less than one round of --round-pairs {}",
            args.max_pairs, args.round_pairs
        )));
    }
    let round_pairs = args.round_pairs as usize;
    let max_pairs = args.max_pairs as usize;
    let rounds = max_pairs.div_ceil(round_pairs);
    let z = simultaneous_z(args.confidence, variants.len() * rounds).ok_or_else(|| {
        CliError::usage(format!(
            "--confidence {} is out of range: expected a probability strictly between 0 and 1",
            args.confidence
        ))
    })?;
    let plan = Plan {
        round_pairs,
        max_pairs,
        confidence: args.confidence,
        z,
    };
    if args.shard.count > 1 && !args.json {
        return Err(CliError::usage(
            "a shard's games are for `boardlab merge`: give --json with --shard",
        ));
    }
    let budget = match (args.depth, args.time, args.nodes) {
        (_, Some(ms), _) => arena::Budget::Time(Duration::from_millis(ms)),
        (_, _, Some(n)) => arena::Budget::Nodes(n),
        (depth, _, _) => arena::Budget::Depth(depth.unwrap_or(2)),
    };
    let settings = SelfplaySettings {
        games: 2 * max_pairs,
        a: args.a.into(),
        b: args.b.into(),
        budget,
        openings: args.openings.clone(),
        seed: args.seed,
        threads: args.concurrency as usize,
        hash_mb: args.hash,
        shard: args.shard,
        ..SelfplaySettings::default()
    };
    // Every variant's rules and the settings are checked before the first game.
    let mut configs = Vec::with_capacity(variants.len());
    for variant in &variants {
        let in_variant = |e: String| {
            CliError::usage(format!(
                "--vary setting {}: {e}",
                setting_label(&variant.setting)
            ))
        };
        let config = setup::config::<P>(&variant.spec).map_err(|e| in_variant(e.to_string()))?;
        settings
            .check::<P>(&config)
            .map_err(|e| in_variant(e.to_string()))?;
        configs.push(config);
    }
    if let Some(path) = &args.plot {
        if args.shard.count > 1 {
            return Err(CliError::usage(
                "a shard draws no chart: give --plot to the run --after the merged file",
            ));
        }
        check_writable(path, "the chart")?;
    }
    let mut results: Vec<Vec<GameResult>> = match &args.after {
        Some(path) => read_after::<P>(path, &variants, &configs, &settings)?,
        None => vec![Vec::new(); variants.len()],
    };
    let mut standings = replay(&plan, &results).map_err(|e| {
        CliError::usage(format!(
            "--after {}: {e}",
            args.after.as_deref().unwrap_or("")
        ))
    })?;
    while let Some(round) = standings.next_round {
        let start = if round == 0 {
            0
        } else {
            plan.games_through(round - 1)
        };
        let end = plan.games_through(round);
        let shard = args.shard;
        let indices: Vec<usize> = (start..end)
            .filter(|i| i % shard.count as usize == shard.index as usize - 1)
            .collect();
        let alive: Vec<usize> = (0..variants.len())
            .filter(|&v| standings.dropped_after[v].is_none())
            .collect();
        let moves = Arc::new(AtomicU64::new(0));
        let bar = tournament_bar(
            indices.len() * alive.len(),
            &format!("{}: round {} of {}", args.spec, round + 1, plan.rounds()),
            &moves,
        );
        for &v in &alive {
            let played =
                arena::play_games_counting::<P>(&configs[v], &settings, &indices, &moves, |_| {
                    bar.inc(1)
                })
                .map_err(|e| CliError::usage(e.to_string()))?;
            results[v].extend(played.games.iter().map(GameResult::of));
        }
        bar.finish_and_clear();
        eprintln!(
            "round {} of {}: {} games of {} variants{}",
            round + 1,
            plan.rounds(),
            indices.len() * alive.len(),
            alive.len(),
            if shard.count > 1 {
                format!(" (shard {shard})")
            } else {
                String::new()
            }
        );
        if shard.count > 1 {
            // The next round depends on every shard's games: stop here, for the merge.
            break;
        }
        standings = replay(&plan, &results).map_err(CliError::usage)?;
    }
    if args.json {
        let rows: Vec<merge::SweepRow> = variants
            .iter()
            .zip(&configs)
            .zip(&results)
            .map(|((variant, config), games)| {
                let own: Vec<GameResult> = games
                    .iter()
                    .filter(|g| {
                        g.index % args.shard.count as usize == args.shard.index as usize - 1
                    })
                    .cloned()
                    .collect();
                let info = tournament_info::<P>(config, &settings);
                (variant.setting.clone(), merge::report_json(&info, &own))
            })
            .collect();
        outln!("{}", merge::sweep_json(&rows));
    }
    if args.shard.count > 1 {
        if standings.next_round.is_none() {
            eprintln!("the run is finished: `--after` the merged file prints the report");
        } else {
            eprintln!(
                "merge the shards' outputs (`boardlab merge`) and continue with --after FILE"
            );
        }
        return Ok(());
    }
    let report = Report::new(&plan, &variants, &results, &standings.dropped_after);
    if !args.json {
        out!(
            "{}",
            report.text(
                &args.spec,
                &settings.a.to_string(),
                &settings.b.to_string(),
                budget
            )
        );
    }
    if let Some(path) = &args.plot {
        let title = format!(
            "{}: fairest rules, {} vs {}, {budget}",
            args.spec, settings.a, settings.b
        );
        let keys: Vec<&str> = axes.iter().map(|(k, _)| k.as_str()).collect();
        let svg = plot::chart_svg(
            &title,
            &keys.join(", "),
            "% (first player's points; draws: of games)",
            &format!(
                "first player's score ({:.0}% simultaneous interval)",
                100.0 * plan.confidence
            ),
            &report.chart_rows(),
        )
        .map_err(|e| CliError::usage(e.to_string()))?;
        write_file(path, &svg, "the chart")?;
    }
    Ok(())
}

/// The games of a merged `--json` output, checked to be of this run's variants and settings.
fn read_after<P: Game>(
    path: &str,
    variants: &[Variant],
    configs: &[P::Config],
    settings: &SelfplaySettings,
) -> Result<Vec<Vec<GameResult>>, CliError> {
    let bad = |what: String| CliError::usage(format!("--after {path}: {what}"));
    let text = fs::read_to_string(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON: {e}")))?;
    let rows = value
        .as_array()
        .ok_or_else(|| bad("not a balance run's --json output (a list of variants)".into()))?;
    if rows.len() != variants.len() {
        return Err(bad(format!(
            "it has {} variants, this run {}",
            rows.len(),
            variants.len()
        )));
    }
    let mut results = Vec::with_capacity(rows.len());
    for ((row, variant), config) in rows.iter().zip(variants).zip(configs) {
        let setting: Option<Vec<(String, String)>> = row
            .get("setting")
            .and_then(Value::as_array)
            .and_then(|pairs| {
                pairs
                    .iter()
                    .map(|p| match p.as_array().map(Vec::as_slice) {
                        Some([Value::String(k), Value::String(v)]) => Some((k.clone(), v.clone())),
                        _ => None,
                    })
                    .collect()
            });
        if setting.as_ref() != Some(&variant.setting) {
            return Err(bad(format!(
                "its variants are not this run's (expected {})",
                setting_label(&variant.setting)
            )));
        }
        let summary = row
            .get("summary")
            .ok_or_else(|| bad("a variant without its 'summary'".into()))?;
        let (info, games) = merge::parse_report(summary).map_err(|e| bad(e.to_string()))?;
        let mut expected = tournament_info::<P>(config, settings);
        expected.shard = Shard::ALL;
        if info != expected {
            return Err(bad(format!(
                "variant {} was played as {info}, this run plays {expected}: not its games, \
                 or not merged",
                setting_label(&variant.setting)
            )));
        }
        results.push(games);
    }
    Ok(results)
}

/// One variant in the report.
#[derive(Clone, Debug)]
struct Line {
    label: String,
    interval: ScoreInterval,
    summary: SelfplaySummary,
    dropped_after: Option<usize>,
}

/// What a finished run found, computed from the games alone.
#[derive(Clone, Debug)]
struct Report {
    plan: Plan,
    variants: usize,
    /// Grid order.
    lines: Vec<Line>,
    games: usize,
}

impl Report {
    fn new(
        plan: &Plan,
        variants: &[Variant],
        results: &[Vec<GameResult>],
        dropped_after: &[Option<usize>],
    ) -> Report {
        let lines = variants
            .iter()
            .zip(results)
            .zip(dropped_after)
            .map(|((variant, games), &dropped_after)| Line {
                label: setting_label(&variant.setting),
                interval: ScoreInterval::of_pairs(&pair_scores(games), plan.z),
                summary: SelfplaySummary::of_results("", "", games),
                dropped_after,
            })
            .collect();
        Report {
            plan: *plan,
            variants: variants.len(),
            lines,
            games: results.iter().map(Vec::len).sum(),
        }
    }

    /// The variants best first: the survivors by distance of their score from ½, then the
    /// dropped ones, the last dropped first.
    fn ranked(&self) -> Vec<&Line> {
        let mut lines: Vec<&Line> = self.lines.iter().collect();
        lines.sort_by(|x, y| {
            let round = |l: &Line| l.dropped_after.map_or(usize::MAX, |r| r);
            round(y).cmp(&round(x)).then(
                (x.interval.score - 0.5)
                    .abs()
                    .total_cmp(&(y.interval.score - 0.5).abs()),
            )
        });
        lines
    }

    fn text(&self, spec: &str, a: &str, b: &str, budget: arena::Budget) -> String {
        let pct = |v: f64| format!("{:.1}%", 100.0 * v);
        let mut out = format!(
            "balance of {spec}: {a} vs {b}, {budget}, {} variants, rounds of {} pairs up to {} \
             pairs a variant\nintervals: all {} at once with {:.0}% (each at z = {:.2})\n",
            self.variants,
            self.plan.round_pairs,
            self.plan.max_pairs,
            self.variants * self.plan.rounds(),
            100.0 * self.plan.confidence,
            self.plan.z
        );
        let width = self
            .lines
            .iter()
            .map(|l| l.label.len())
            .max()
            .unwrap_or(7)
            .max(7);
        out.push_str(&format!(
            "{:<4} {:<width$} {:>5} {:>6} {:>9} {:>15} {:>7}  status\n",
            "rank", "setting", "pairs", "games", "1st score", "interval", "draws"
        ));
        for (rank, line) in self.ranked().into_iter().enumerate() {
            let status = match line.dropped_after {
                Some(r) => format!("dropped after round {}", r + 1),
                None if line.interval.contains_even() => "kept (interval holds 50%)".into(),
                None => "kept".into(),
            };
            out.push_str(&format!(
                "{:<4} {:<width$} {:>5} {:>6} {:>9} {:>15} {:>7}  {status}\n",
                rank + 1,
                line.label,
                line.interval.pairs,
                line.summary.games,
                pct(line.interval.score),
                format!("{}-{}", pct(line.interval.low), pct(line.interval.high)),
                pct(line.summary.draws as f64 / line.summary.games.max(1) as f64),
            ));
        }
        let full = 2 * self.plan.max_pairs * self.variants;
        out.push_str(&format!(
            "games spent: {} of the full grid's {full} ({:.0}%)\n",
            self.games,
            100.0 * self.games as f64 / full as f64
        ));
        let kept: Vec<&Line> = self
            .ranked()
            .into_iter()
            .filter(|l| l.dropped_after.is_none())
            .collect();
        let names: Vec<String> = kept
            .iter()
            .map(|l| {
                format!(
                    "{} ({} in {}-{})",
                    l.label,
                    pct(l.interval.score),
                    pct(l.interval.low),
                    pct(l.interval.high)
                )
            })
            .collect();
        out.push_str(&format!(
            "fairest: {}{}\n",
            names.join("; "),
            if kept.iter().any(|l| l.interval.contains_even()) {
                ""
            } else {
                " (no kept variant's interval holds 50%: none is shown balanced)"
            }
        ));
        out
    }

    fn chart_rows(&self) -> Vec<ChartRow> {
        self.lines
            .iter()
            .map(|l| ChartRow {
                label: match l.dropped_after {
                    Some(r) => format!("{} (out r{})", l.label, r + 1),
                    None => l.label.clone(),
                },
                point: l.interval.score,
                interval: (l.interval.low, l.interval.high),
                draws: l.summary.draws as f64 / l.summary.games.max(1) as f64,
                mean_length: l.summary.mean_length,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::MoveTiming;
    use board_core::{Outcome, Player};

    fn games(outcomes: &[Outcome]) -> Vec<GameResult> {
        outcomes
            .iter()
            .enumerate()
            .map(|(index, &outcome)| GameResult {
                index,
                a_side: if index.is_multiple_of(2) {
                    Player::First
                } else {
                    Player::Second
                },
                outcome,
                plies: 20,
                reason: String::new(),
                balance: Vec::new(),
                move_times: [MoveTiming::default(); 2],
            })
            .collect()
    }

    #[test]
    fn the_replay_drops_a_lopsided_variant_and_waits_for_the_rest() {
        let plan = Plan {
            round_pairs: 10,
            max_pairs: 30,
            confidence: 0.95,
            z: 1.0,
        };
        let first = Outcome::Win(Player::First);
        let second = Outcome::Win(Player::Second);
        // Variant 1 is even (alternating wins), variant 2 is all first-player wins.
        let even: Vec<Outcome> = (0..20)
            .map(|i| if i % 4 < 2 { first } else { second })
            .collect();
        let lopsided = vec![first; 20];
        let standings = replay(&plan, &[games(&even), games(&lopsided)]).expect("fits");
        assert_eq!(standings.dropped_after, [None, Some(0)]);
        // One variant left: the run is over after round 1.
        assert_eq!(standings.next_round, None);
        // Two even variants: nothing dropped, round 2 is next.
        let standings = replay(&plan, &[games(&even), games(&even)]).expect("fits");
        assert_eq!(standings.next_round, Some(1));
        // A round half played (a shard's file, not the merge) does not fit.
        assert!(replay(&plan, &[games(&even), games(&even[..10])]).is_err());
        assert_eq!(
            replay(&plan, &[Vec::new(), Vec::new()]).map(|s| s.next_round),
            Ok(Some(0))
        );
    }
}
