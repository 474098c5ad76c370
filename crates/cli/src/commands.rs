//! The subcommands, each generic over the game and instantiated by `boardlab_games::with_game!`.

use std::time::{Duration, Instant};

use arena::Budget;
use board_core::GameSpec;
use board_core::{Outcome, Player, Position, View, divide, perft};
use boardlab_games::Game;
use search::{AgentKind, Limits, SearchOptions, TimeControl};

use crate::{cli_error::CliError, setup};

/// Deepest perft accepted: deeper searches would not finish on any game here.
pub const MAX_PERFT_DEPTH: u32 = 32;

pub fn run_perft<P: Position>(
    spec: &GameSpec,
    depth: u32,
    moves: &str,
    show_divide: bool,
) -> Result<(), CliError> {
    let mut pos = setup::position::<P>(spec, moves)?;
    let start = Instant::now();
    let total = if show_divide {
        let rows = divide(&mut pos, depth);
        for (mv, n) in &rows {
            outln!("{} {n}", pos.format_move(*mv));
        }
        if depth == 0 {
            1
        } else {
            rows.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft(&mut pos, depth)
    };
    eprintln!("{}", perft_timing(depth, total, start.elapsed()));
    outln!("{total}");
    Ok(())
}

/// Shortest run whose leaves-per-second figure means something: below it the clock's
/// resolution and the bulk counting of the last ply make the rate absurd.
const MIN_RATE_TIME: Duration = Duration::from_millis(10);

/// The timing line `perft` prints on stderr: the time in a unit that shows it, and the
/// rate only for a run long enough to measure one.
pub fn perft_timing(depth: u32, total: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let time = if secs >= 1.0 {
        format!("{secs:.2} s")
    } else {
        format!("{:.1} ms", secs * 1000.0)
    };
    if elapsed < MIN_RATE_TIME {
        format!("perft({depth}) = {total} in {time} (too quick to give a rate)")
    } else {
        format!(
            "perft({depth}) = {total} in {time} ({:.0} leaves/s)",
            total as f64 / secs
        )
    }
}

pub fn run_show<P: View>(spec: &GameSpec, moves: &str) -> Result<(), CliError> {
    let pos = setup::position::<P>(spec, moves)?;
    out!("{}", pos.diagram());
    outln!("game: {}", pos.config());
    outln!("position: {}", pos.to_position_string());
    outln!("to move: {}", pos.player_name(pos.side_to_move()));
    outln!("ply: {}", pos.ply());
    outln!("hash: {:016x}", pos.hash());
    match pos.outcome() {
        Some(_) => outln!("result: {}", ::play::render::result(&pos)),
        None => outln!("result: ongoing"),
    }
    Ok(())
}

/// `show --json`: one JSON object with the canonical spec, the ply, who is to move
/// (`first`, `second`, or `none` once the game is over), the result (`ongoing`,
/// `first-wins`, `second-wins`, `draw`), the reason (`null` while ongoing) and the
/// position string.
pub fn run_show_json<P: Position>(spec: &GameSpec, moves: &str) -> Result<(), CliError> {
    let pos = setup::position::<P>(spec, moves)?;
    outln!("{}", show_json(&pos));
    Ok(())
}

/// The object `show --json` prints.
pub fn show_json<P: Position>(pos: &P) -> serde_json::Value {
    let outcome = pos.outcome();
    let to_move = match (outcome, pos.side_to_move()) {
        (Some(_), _) => "none",
        (None, Player::First) => "first",
        (None, Player::Second) => "second",
    };
    let result = match outcome {
        None => "ongoing",
        Some(Outcome::Win(Player::First)) => "first-wins",
        Some(Outcome::Win(Player::Second)) => "second-wins",
        Some(Outcome::Draw) => "draw",
    };
    serde_json::json!({
        "spec": pos.config().to_string(),
        "ply": pos.ply(),
        "to_move": to_move,
        "result": result,
        "reason": pos.outcome_reason(),
        "position": pos.to_position_string(),
    })
}

/// Search settings shared by `analyze` and `match`.
#[derive(Clone, Debug)]
pub struct EngineArgs {
    pub hash_mb: usize,
    pub threads: usize,
    pub seed: u64,
}

impl EngineArgs {
    pub fn options(&self) -> Result<SearchOptions, CliError> {
        let bad = |e: search::OptionsError| CliError::usage(e.to_string());
        Ok(SearchOptions::default()
            .with_hash_mb(self.hash_mb)
            .map_err(bad)?
            .with_threads(self.threads)
            .map_err(bad)?
            .with_seed(self.seed))
    }
}

/// How long to think: exactly one of the three, or a default.
#[derive(Clone, Copy, Debug)]
pub enum Think {
    Depth(u32),
    Time(u64),
    Nodes(u64),
}

impl Think {
    /// The engine's limits; a time is a per-move limit under the engine's time manager
    /// (searched to it less the reserve for the reply, [`TimeControl::per_move`]).
    pub fn limits(self) -> Limits {
        match self {
            Think::Depth(d) => Limits::new().with_depth(d),
            Think::Time(ms) => {
                Limits::new().with_time_control(TimeControl::per_move(Duration::from_millis(ms)))
            }
            Think::Nodes(n) => Limits::new().with_nodes(n),
        }
    }

    pub fn budget(self) -> Budget {
        match self {
            Think::Depth(d) => Budget::Depth(d),
            Think::Time(ms) => Budget::Time(Duration::from_millis(ms)),
            Think::Nodes(n) => Budget::Nodes(n),
        }
    }
}

pub fn run_analyze<P: Game>(
    spec: &GameSpec,
    moves: &str,
    think: Think,
    engine: &EngineArgs,
) -> Result<(), CliError> {
    // `--time` counts from here: building the engine (its tables) is on the clock.
    let start = Instant::now();
    let pos = setup::position::<P>(spec, moves)?;
    if let Some(outcome) = pos.outcome() {
        let reason = pos.outcome_reason().unwrap_or_else(|| outcome.to_string());
        outln!("info string game over: {reason}");
        outln!("bestmove none");
        return Ok(());
    }
    let mut agent = P::player(AgentKind::Engine, engine.options()?)
        .map_err(|e| CliError::usage(e.to_string()))?;
    let limits = think.limits().with_start(start);
    let result = agent.think(&pos, &limits, &mut |it| outln!("{}", it.info_line(&pos)));
    match result.best_move {
        Some(mv) => outln!("bestmove {}", pos.format_move(mv)),
        None => outln!("bestmove none"),
    }
    Ok(())
}
