//! `boardlab tune`: fits the weights of a cell evaluator (`boardlab_eval::CellEvaluator`:
//! k-windows and mobility, the evaluator any game gets from its cells) to the results of
//! self-play games, Texel-style (`boardlab_eval::tune::fit`), then plays the fitted weights
//! against the starting ones in colour-swapped pairs. Generic over the game, reproducible
//! from `--seed`, and sharded like `selfplay`: each shard plays its games and writes their
//! positions (`--samples FILE`); `--from FILES` fits from the shards' files.

use std::{fmt::Write as _, fs};

use arena::{Shard, play_game, random_opening, stats};
use board_core::{Outcome, Player};
use boardlab_games::Game;
use clap::Args;
use eval::{
    CellEvaluator,
    tune::{Sample, fit},
};
use search::{Agent, AgentKind, Limits, SearchAgent, SearchOptions};

use crate::{cli_error::CliError, setup};

/// The options of `boardlab tune`.
#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// Game spec.
    pub spec: String,
    /// Window length of the evaluator's window term (the game's row length).
    #[arg(long)]
    pub k: u32,
    /// Starting (hand) weights of windows 1, 2, ... pieces short of k, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub weights: Vec<i32>,
    /// Add mobility: squares reached at most REACH away, with this starting weight
    /// (REACH:WEIGHT).
    #[arg(long)]
    pub mobility: Option<String>,
    /// Self-play games whose positions are fitted.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Search depth of the self-play games and of the check match.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Random plies that open each game.
    #[arg(long, default_value_t = 2)]
    pub openings: u32,
    /// Colour-swapped pairs of the check match, fitted against starting weights (0: none).
    #[arg(long, default_value_t = 100)]
    pub pairs: u64,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only shard K of N of the self-play games (write them with --samples).
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    /// Write the positions of this shard's games to FILE and stop (no fit).
    #[arg(long)]
    pub samples: Option<String>,
    /// Fit the positions of these files (the shards' --samples) instead of playing.
    #[arg(long, num_args = 1..)]
    pub from: Vec<String>,
}

/// A cell evaluator's terms with weights of its own: the window length and weights, and
/// mobility's reach and weight.
#[derive(Clone, Debug)]
struct Weighted {
    k: u32,
    windows: Vec<i32>,
    mobility: Option<(u32, i32)>,
}

impl Weighted {
    /// The terms `args` describe, with `weights` (the window weights, then mobility's).
    fn new(args: &TuneArgs, weights: &[i32]) -> Result<Weighted, CliError> {
        let n = args.weights.len();
        let mismatch = || CliError::usage("tune: the weights do not match the terms");
        let mobility = match (&args.mobility, weights.len().checked_sub(n)) {
            (None, Some(0)) => None,
            (Some(m), Some(1)) => Some((reach(m)?, weights[n])),
            _ => return Err(mismatch()),
        };
        Ok(Weighted {
            k: args.k,
            windows: weights[..n].to_vec(),
            mobility,
        })
    }

    fn evaluator(&self) -> CellEvaluator<'_> {
        let windows = CellEvaluator::windows(self.k, &self.windows);
        match self.mobility {
            Some((reach, weight)) => windows.with_mobility(reach, weight),
            None => windows,
        }
    }
}

/// The REACH of `--mobility REACH:WEIGHT`.
fn reach(text: &str) -> Result<u32, CliError> {
    let bad = || CliError::usage(format!("bad --mobility '{text}': expected REACH:WEIGHT"));
    let (reach, _) = text.split_once(':').ok_or_else(bad)?;
    reach.parse().map_err(|_| bad())
}

/// The starting weights: `--weights`, then the mobility weight of `--mobility`.
fn start_weights(args: &TuneArgs) -> Result<Vec<i32>, CliError> {
    let mut weights = args.weights.clone();
    if let Some(m) = &args.mobility {
        let bad = || CliError::usage(format!("bad --mobility '{m}': expected REACH:WEIGHT"));
        let (_, weight) = m.split_once(':').ok_or_else(bad)?;
        weights.push(weight.parse().map_err(|_| bad())?);
    }
    Ok(weights)
}

/// The result of a game for First: 1, ½ or 0.
fn first_score(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Win(Player::First) => 1.0,
        Outcome::Win(Player::Second) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// Plays this shard's self-play games with the game's engine and gives the positions of
/// each (after its opening, before its end) with its result.
fn self_play<G: Game>(
    args: &TuneArgs,
    start: &G,
    eval: &CellEvaluator,
) -> Result<Vec<Sample>, CliError> {
    let limits = Limits::new().with_depth(args.depth);
    let mut samples = Vec::new();
    for game in args.shard.games(args.games as usize) {
        let options = SearchOptions::default().with_seed(args.seed.wrapping_add(game as u64));
        let build = || {
            G::player(AgentKind::Engine, options.clone())
                .map_err(|e| CliError::usage(e.to_string()))
        };
        let (mut first, mut second) = (build()?, build()?);
        let opening = random_opening(start, args.openings, args.seed ^ (game as u64) << 20);
        let record = play_game(
            start.clone(),
            &opening,
            [first.as_mut(), second.as_mut()],
            &limits,
            2_000,
        );
        let result = first_score(record.outcome);
        let mut pos = start.clone();
        for (ply, &mv) in record.moves.iter().enumerate() {
            if ply >= record.opening_plies && pos.outcome().is_none() {
                samples.push(Sample {
                    features: eval.features(&pos),
                    result,
                });
            }
            pos.make_move(mv);
        }
    }
    Ok(samples)
}

/// One sample a line: the result, then the features, separated by spaces.
fn write_samples(path: &str, samples: &[Sample]) -> Result<(), CliError> {
    let mut text = String::new();
    for s in samples {
        let _ = write!(text, "{}", s.result);
        for f in &s.features {
            let _ = write!(text, " {f}");
        }
        text.push('\n');
    }
    fs::write(path, text).map_err(|e| CliError::usage(format!("tune: {path}: {e}")))
}

fn read_samples(path: &str) -> Result<Vec<Sample>, CliError> {
    let text =
        fs::read_to_string(path).map_err(|e| CliError::usage(format!("tune: {path}: {e}")))?;
    let bad = |line: usize| CliError::usage(format!("tune: {path} line {line}: not a sample"));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let mut words = line.split_whitespace();
            let result = words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or(bad(i + 1))?;
            let features: Option<Vec<i64>> = words.map(|w| w.parse().ok()).collect();
            Ok(Sample {
                features: features.ok_or(bad(i + 1))?,
                result,
            })
        })
        .collect()
}

/// `boardlab tune` for game `G`.
pub fn run_tune<G: Game>(args: &TuneArgs) -> Result<(), CliError> {
    let spec = board_core::GameSpec::parse(&args.spec)?;
    let start = G::new(setup::config::<G>(&spec)?);
    let hand = start_weights(args)?;
    let hand_terms = Weighted::new(args, &hand)?;
    let samples = if args.from.is_empty() {
        self_play(args, &start, &hand_terms.evaluator())?
    } else {
        let mut all = Vec::new();
        for path in &args.from {
            all.extend(read_samples(path)?);
        }
        all
    };
    if let Some(path) = &args.samples {
        write_samples(path, &samples)?;
        outln!("{} positions written to {path}", samples.len());
        return Ok(());
    }
    let fitted = fit(&samples, &hand).map_err(|e| CliError::usage(format!("tune: {e}")))?;
    let join = |w: &[i32]| w.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
    outln!(
        "positions {}  scale {:.6}  error {:.5} -> {:.5}",
        samples.len(),
        fitted.scale,
        fitted.error_before,
        fitted.error_after
    );
    outln!("hand weights   {}", join(&hand));
    outln!("tuned weights  {}", join(&fitted.weights));
    if args.pairs > 0 {
        let tuned_terms = Weighted::new(args, &fitted.weights)?;
        let (w, d, l) = check_match(args, &start, &tuned_terms, &hand_terms)?;
        let (elo, lo, hi) = stats::elo_95(w, d, l);
        outln!(
            "tuned vs hand, {} colour-swapped pairs at depth {}: {w}-{d}-{l}, Elo {} [{}, {}]",
            args.pairs,
            args.depth,
            stats::signed_elo(elo),
            stats::signed_elo(lo),
            stats::signed_elo(hi)
        );
    }
    Ok(())
}

/// Tuned against hand weights, each pair from one random opening with colours swapped:
/// the tuned side's wins, draws and losses.
fn check_match<G: Game>(
    args: &TuneArgs,
    start: &G,
    tuned: &Weighted,
    hand: &Weighted,
) -> Result<(u32, u32, u32), CliError> {
    let agent = |name: &str, terms: &Weighted| -> Result<Box<dyn Agent<G>>, CliError> {
        let terms = terms.clone();
        let evaluate = move |pos: &G| terms.evaluator().evaluate(pos);
        let agent = SearchAgent::new(name, evaluate, SearchOptions::default(), Clone::clone)
            .map_err(|e| CliError::usage(e.to_string()))?;
        Ok(Box::new(agent))
    };
    let limits = Limits::new().with_depth(args.depth);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for pair in 0..args.pairs {
        let opening = random_opening(start, args.openings, !args.seed ^ pair << 20);
        for tuned_first in [true, false] {
            let (mut a, mut b) = (agent("tuned", tuned)?, agent("hand", hand)?);
            let play = |first: &mut dyn Agent<G>, second: &mut dyn Agent<G>| {
                play_game(start.clone(), &opening, [first, second], &limits, 2_000)
            };
            let (record, tuned_side) = if tuned_first {
                (play(a.as_mut(), b.as_mut()), Player::First)
            } else {
                (play(b.as_mut(), a.as_mut()), Player::Second)
            };
            match record.outcome {
                Outcome::Draw => draws += 1,
                Outcome::Win(p) if p == tuned_side => wins += 1,
                Outcome::Win(_) => losses += 1,
            }
        }
    }
    Ok((wins, draws, losses))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_round_trip_through_their_file() {
        let dir = std::env::temp_dir().join(format!("boardlab-tune-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("samples");
        let path = path.to_str().expect("utf-8");
        let samples = vec![
            Sample {
                features: vec![3, -1],
                result: 1.0,
            },
            Sample {
                features: vec![0, 2],
                result: 0.5,
            },
        ];
        write_samples(path, &samples).expect("written");
        assert_eq!(read_samples(path).expect("read"), samples);
        fs::write(path, "1 x\n").expect("written");
        assert!(read_samples(path).is_err());
        let _ = fs::remove_dir_all(&dir);
    }
}
