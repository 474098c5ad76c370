//! The command line's arguments (clap) and their dispatch: each command that takes a game
//! spec finds the game in the [`Registry`] and runs its generic command for that type.

use std::{ffi::OsString, process::ExitCode, time::Duration};

use arena::PlayerSpec;
use board_core::GameSpec;
use clap::{Args, Parser, Subcommand, error::ErrorKind};
use search::AgentKind;

use crate::{
    Registry, bench, book_cmd, botzone,
    cli_error::CliError,
    commands::{self, EngineArgs, Think},
    engine, match_cmd, pbrain, play_cmd, registry, selfplay, serve,
};

#[derive(Parser, Debug)]
#[command(
    name = "boardlab",
    version,
    about = "Board-game engines: rules, perft, search, play."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How long the engine thinks per move (at most one; default: the command's own).
#[derive(Args, Debug, Clone)]
struct ThinkArgs {
    /// Search to this depth.
    #[arg(long, conflicts_with_all = ["time", "nodes"], value_parser = clap::value_parser!(u32).range(1..=256))]
    depth: Option<u32>,
    /// Milliseconds per move.
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    time: Option<u64>,
    /// Nodes per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
}

impl ThinkArgs {
    fn think(&self, default: Think) -> Think {
        self.given().unwrap_or(default)
    }

    /// The budget given on the command line, if any.
    fn given(&self) -> Option<Think> {
        match (self.depth, self.time, self.nodes) {
            (Some(d), _, _) => Some(Think::Depth(d)),
            (_, Some(t), _) => Some(Think::Time(t)),
            (_, _, Some(n)) => Some(Think::Nodes(n)),
            _ => None,
        }
    }
}

/// Options `match` and `selfplay` share.
#[derive(Args, Debug, Clone)]
struct TournamentArgs {
    /// Where each pair's opening comes from: random:K (or K) random legal plies, or
    /// book:FILE, one opening a line in the game's notation (pair k plays line k, both
    /// colours; `boardlab book` makes a gomoku book).
    #[arg(long, default_value = "random:2", value_parser = match_cmd::parse_openings)]
    openings: arena::Openings,
    /// Seed for openings and tie-breaks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only shard K of N: the games numbered K, K+N, K+2N, ... (merge the shards'
    /// --json or --records outputs with `boardlab merge`).
    #[arg(long, default_value = "1/1", value_parser = parse_shard)]
    shard: arena::Shard,
    /// Write every game to this file in the save format.
    #[arg(long)]
    records: Option<String>,
    /// Print the report as one JSON object (with every game's result: `merge` reads it).
    #[arg(long)]
    json: bool,
}

fn parse_shard(text: &str) -> Result<arena::Shard, String> {
    text.parse()
}

fn parse_sprt(text: &str) -> Result<arena::sprt::Sprt, String> {
    text.parse()
        .map_err(|e: arena::sprt::SprtParseError| e.to_string())
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count move sequences of a given length (perft).
    Perft {
        /// Game spec, e.g. `gomoku` or `gomoku:size=20,rule=exact5`.
        spec: String,
        /// Number of plies.
        depth: u32,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "")]
        moves: String,
        /// Print one `<move> <count>` line per legal move before the total.
        #[arg(long)]
        divide: bool,
    },
    /// Print the board, position string, side to move and outcome.
    Show {
        /// Game spec, e.g. `amazons:size=8`.
        spec: String,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "")]
        moves: String,
        /// Print one JSON object (spec, ply, to_move, result, reason, position) instead.
        #[arg(long)]
        json: bool,
    },
    /// Search a position: one info line per iteration, then `bestmove <move>`.
    Analyze {
        /// Game spec.
        spec: String,
        /// Moves to play first, separated by spaces.
        #[arg(long, default_value = "")]
        moves: String,
        #[command(flatten)]
        think: ThinkArgs,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Seed for tie-breaks among equal moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Play a match between two players, colours swapped in pairs; optionally stop when an
    /// SPRT decides.
    Match {
        /// Game spec.
        spec: String,
        /// Player A: engine, baseline, random, or an external engine ugi:COMMAND,
        /// pbrain:COMMAND (gomoku) or botzone:COMMAND (amazons:size=8).
        #[arg(long, default_value = "engine")]
        a: PlayerSpec,
        /// Player B (as for --a).
        #[arg(long, default_value = "baseline")]
        b: PlayerSpec,
        /// Number of games (rounded up to an even number).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        games: u64,
        #[command(flatten)]
        think: ThinkArgs,
        #[command(flatten)]
        common: TournamentArgs,
        /// Transposition table size in MiB per engine.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Games played at once (each game's search is single-threaded; `--threads` is
        /// always search threads, as in `analyze` and `bench`).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        concurrency: u64,
        /// Stop when the sequential probability ratio test decides, e.g.
        /// elo0=0,elo1=5,alpha=0.05,beta=0.05 (pentanomial over pairs; model=logistic|normalized).
        #[arg(long, value_parser = parse_sprt)]
        sprt: Option<arena::sprt::Sprt>,
        /// Slack in ms an external engine gets on top of the move time before it loses on time.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=600_000))]
        tolerance: u64,
        /// Limit in ms on an external engine's move under --depth or --nodes.
        #[arg(long, default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
        timeout: u64,
    },
    /// Merge the --json reports (or the --records files) of a tournament's shards into the
    /// whole tournament's, printed to stdout.
    Merge {
        /// The shards' files: all JSON reports, or all records files.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Speak the Piskvork / Gomocup brain protocol on stdin/stdout: bundled gomoku only (the
    /// protocol is that game's), whatever games the program registers.
    Pbrain {
        /// The player behind the brain: engine, baseline or random.
        #[arg(long, default_value = "engine")]
        player: AgentKind,
    },
    /// Speak the UCI-style engine protocol (every registered game) on stdin/stdout.
    Engine,
    /// Be a Botzone Amazons bot (8×8; simple or JSON interaction) on stdin/stdout: bundled
    /// amazons only (the protocol is that game's), whatever games the program registers.
    Botzone {
        /// The player behind the bot: engine, baseline or random.
        #[arg(long, default_value = "engine")]
        player: AgentKind,
        /// Answer one turn and exit, instead of asking Botzone to keep the bot running.
        #[arg(long)]
        no_keep_running: bool,
    },
    /// Host games over TCP (line protocol: docs/server-protocol.md).
    Serve {
        /// Address to listen on, e.g. 127.0.0.1:7878 (port 0: any free port).
        #[arg(long, default_value = "127.0.0.1:7878")]
        listen: String,
        /// Also open the browser board on this address, onto the same games (one game
        /// table: a person in the browser and one in `connect` play each other).
        #[arg(long, value_name = "ADDR")]
        web: Option<String>,
        /// Directory of the save files (games survive a restart); none: in memory only.
        #[arg(long)]
        data: Option<String>,
        #[command(flatten)]
        limits: serve::ServeLimits,
    },
    /// The board in the browser for every game, the bundled ones and a user's own
    /// (docs/web.md).
    #[cfg(feature = "web")]
    Web {
        /// Address to listen on. Loopback by default: any other address lets everyone who
        /// can reach it create and watch games (docs/web.md, "Listening elsewhere").
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: String,
        /// Directory of the save files, the same as `serve --data`; none: in memory only.
        #[arg(long)]
        data: Option<String>,
        /// Open the page in the desktop's browser.
        #[arg(long)]
        open: bool,
    },
    /// Play on a `boardlab serve` server in the terminal: protocol commands, and after
    /// `join` a move alone (`c4`) plays it.
    Connect {
        /// The server's HOST:PORT.
        addr: String,
        /// Take back the seat of game ID saved when you joined it (after a crash).
        #[arg(long, value_name = "ID")]
        rejoin: Option<u64>,
        /// With --rejoin: the seat to take back when both are saved (first or second).
        #[arg(long, requires = "rejoin", value_parser = serve::parse_seat)]
        seat: Option<board_core::Player>,
        /// Where seat tokens are saved [default: $XDG_STATE_HOME/boardlab/tokens, else
        /// ~/.local/state/boardlab/tokens].
        #[arg(long, value_name = "FILE")]
        tokens: Option<std::path::PathBuf>,
        /// Plain boards, even on a terminal.
        #[arg(long)]
        no_color: bool,
    },
    /// Play in the terminal against the computer (or another person): moves, undo, save,
    /// hint, rules.
    Play {
        /// Game spec, e.g. `gomoku` or `fourshift:pieces=6` (optional with --load: the file
        /// names its game).
        #[arg(required_unless_present = "load")]
        spec: Option<String>,
        /// Which sides people play: first, second, both or none.
        #[arg(long, default_value = "first")]
        human: ::play::Humans,
        /// The computer's strength: 1 random moves, 2 the article's simple AI, 3-5 the engine
        /// at 0.1 s, 1 s, 5 s a move (default 4).
        #[arg(long, conflicts_with = "opponent", value_parser = clap::value_parser!(u8).range(1..=5))]
        level: Option<u8>,
        /// The computer player by name (engine, baseline or random), thinking as --time or
        /// --depth say.
        #[arg(long)]
        opponent: Option<AgentKind>,
        #[command(flatten)]
        think: ThinkArgs,
        /// Continue a saved game.
        #[arg(long)]
        load: Option<String>,
        /// No ANSI colours (also off with NO_COLOR set or when stdout is not a terminal).
        #[arg(long)]
        no_color: bool,
        /// Seed for the computer's choices among equal moves (default: a new one each game,
        /// printed so the game can be replayed).
        #[arg(long)]
        seed: Option<u64>,
        /// Show every search iteration (depth, score, nodes, principal variation).
        #[arg(long)]
        verbose: bool,
    },
    /// Fit an evaluator's weights (k-windows, mobility) to self-play results, then play the
    /// fitted weights against the given ones in colour-swapped pairs.
    Tune(crate::tune::TuneArgs),
    /// Search a grid of rule variants for the fairest: rounds of colour-swapped self-play
    /// pairs, dropping the variants surely less fair than another (docs/balance.md).
    Balance(crate::balance::BalanceArgs),
    /// Self-play tournament: games in parallel, colour-swapped pairs, balance statistics.
    Selfplay {
        /// Game spec.
        spec: String,
        /// Number of games (rounded up to an even number).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        games: u64,
        /// Player A: engine, baseline, random, or an external engine (see `match`).
        #[arg(long, default_value = "engine")]
        a: PlayerSpec,
        /// Player B.
        #[arg(long, default_value = "engine")]
        b: PlayerSpec,
        #[command(flatten)]
        think: ThinkArgs,
        #[command(flatten)]
        common: TournamentArgs,
        /// Games played at once (as for `match`; each game's search is single-threaded).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        concurrency: u64,
        /// Run the tournament once per value of a rule parameter: key=v1,v2,... Given twice or
        /// more, once per combination.
        #[arg(long)]
        sweep: Vec<String>,
        /// Draw the sweep (first-player wins with 95% intervals, draws, length) into this SVG.
        #[arg(long)]
        plot: Option<String>,
        /// Transposition table size in MiB per engine.
        #[arg(long, default_value_t = 8)]
        hash: usize,
    },
    /// Search fixed positions of every game at fixed depth: total nodes (a signature of the
    /// search's behaviour) and nodes per second.
    Bench {
        /// Search each game this many plies shallower (negative) or deeper than its default.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(-20..=10))]
        depth_delta: i32,
        /// Search threads: above 1 the node count is no longer a signature, and the total
        /// time against a one-thread run is the time-to-depth speed-up.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Make a gomoku opening book for `match --openings book:FILE` (printed to stdout):
    /// random stones near the centre, kept when the engine scores them near even at a fixed
    /// depth, distinct up to the board's symmetries. Reproducible from its settings.
    Book {
        /// Game spec: gomoku with any size and rule.
        spec: String,
        /// Openings to keep.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: u64,
        /// Stones per opening, MIN-MAX (Black's first).
        #[arg(long, default_value = "3-5", value_parser = book_cmd::parse_stones)]
        stones: (u32, u32),
        /// Stones go within this many steps (king moves) of the centre.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=12))]
        radius: u32,
        /// Search depth of the engine's score (the depth before it counts too).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(2..=30))]
        depth: u32,
        /// Keep an opening when the mean of the scores at the last two depths is within this
        /// many centipawns of even (the mean cancels the odd/even swing).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(i32).range(0..=100_000))]
        max_score: i32,
        /// Seed of the random stones.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Give up after this many drawn openings.
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        max_tries: u64,
    },
    /// Step through a saved game: Enter = next move, b = back, a number = jump.
    Replay {
        /// A save file, or a records file of several games (`selfplay --records`).
        file: String,
        /// Which game of a records file (1 = the first); a file of several games lists them.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        game: Option<u64>,
        /// No ANSI colours.
        #[arg(long)]
        no_color: bool,
    },
}

fn run(cli: Cli, registry: &Registry) -> Result<(), CliError> {
    match cli.command {
        Command::Perft {
            spec,
            depth,
            moves,
            divide,
        } => {
            if depth > commands::MAX_PERFT_DEPTH {
                return Err(CliError::usage(format!(
                    "depth {depth} is out of range: expected 0-{}",
                    commands::MAX_PERFT_DEPTH
                )));
            }
            let spec = GameSpec::parse(&spec)?;
            (registry::of_spec(registry, &spec)?.perft)(&spec, depth, &moves, divide)
        }
        Command::Show { spec, moves, json } => {
            let spec = GameSpec::parse(&spec)?;
            let game = registry::of_spec(registry, &spec)?;
            let show = if json { game.show_json } else { game.show };
            show(&spec, &moves)
        }
        Command::Analyze {
            spec,
            moves,
            think,
            threads,
            hash,
            seed,
        } => {
            let spec = GameSpec::parse(&spec)?;
            let game = registry::of_spec(registry, &spec)?;
            let engine = EngineArgs {
                hash_mb: hash,
                threads,
                seed,
            };
            let think = think.think(Think::Time(1000));
            (game.analyze)(&spec, &moves, think, &engine)
        }
        Command::Match {
            spec,
            a,
            b,
            games,
            think,
            common,
            hash,
            concurrency,
            sprt,
            tolerance,
            timeout,
        } => {
            let spec = GameSpec::parse(&spec)?;
            let game = registry::of_spec(registry, &spec)?;
            let settings = arena::SelfplaySettings {
                games: games as usize,
                a,
                b,
                budget: think.think(Think::Time(100)).budget(),
                openings: common.openings,
                seed: common.seed,
                threads: concurrency as usize,
                hash_mb: hash,
                max_plies: 2_000,
                shard: common.shard,
                sprt,
                tolerance: Duration::from_millis(tolerance),
                untimed_move: Duration::from_millis(timeout),
            };
            let output = match_cmd::MatchOutput {
                records: common.records,
                json: common.json,
            };
            (game.run_match)(&spec, &settings, &output)
        }
        Command::Merge { files } => match_cmd::run_merge(&files),
        Command::Pbrain { player } => pbrain::run(player),
        Command::Engine => engine::run(registry),
        Command::Botzone {
            player,
            no_keep_running,
        } => botzone::run(player, !no_keep_running),
        Command::Serve {
            listen,
            web,
            data,
            limits,
        } => serve::serve(registry, &listen, web.as_deref(), data.as_deref(), &limits),
        Command::Connect {
            addr,
            rejoin,
            seat,
            tokens,
            no_color,
        } => serve::connect(::play::connect::ConnectOptions {
            addr,
            tokens,
            rejoin,
            seat,
            color: ::play::use_color(
                no_color,
                std::io::IsTerminal::is_terminal(&std::io::stdout()),
            ),
            games: registry.detached(),
        }),
        #[cfg(feature = "web")]
        Command::Web { listen, data, open } => serve::web(registry, &listen, data.as_deref(), open),
        Command::Play {
            spec,
            human,
            level,
            opponent,
            think,
            load,
            no_color,
            seed,
            verbose,
        } => play_cmd::run(
            registry,
            play_cmd::PlayArgs {
                spec,
                humans: human,
                think: think.given(),
                opponent,
                level,
                load,
                no_color,
                seed,
                verbose,
            },
        ),
        Command::Replay {
            file,
            game,
            no_color,
        } => play_cmd::run_replay_file(registry, &file, game.map(|g| g as usize), no_color),
        Command::Tune(args) => {
            (registry::of_spec(registry, &GameSpec::parse(&args.spec)?)?.tune)(&args)
        }
        Command::Balance(args) => {
            (registry::of_spec(registry, &GameSpec::parse(&args.spec)?)?.balance)(&args)
        }
        Command::Selfplay {
            spec,
            games,
            a,
            b,
            think,
            common,
            concurrency,
            sweep,
            plot,
            hash,
        } => selfplay::run(
            registry,
            selfplay::SelfplayArgs {
                spec,
                settings: arena::SelfplaySettings {
                    games: games as usize,
                    a,
                    b,
                    budget: think.think(Think::Depth(2)).budget(),
                    openings: common.openings,
                    seed: common.seed,
                    threads: concurrency as usize,
                    hash_mb: hash,
                    max_plies: 2_000,
                    shard: common.shard,
                    ..arena::SelfplaySettings::default()
                },
                records: common.records,
                json: common.json,
                sweep,
                plot,
            },
        ),
        Command::Book {
            spec,
            count,
            stones,
            radius,
            depth,
            max_score,
            seed,
            max_tries,
        } => book_cmd::run(
            &spec,
            &arena::book::GomokuBookSettings {
                count: count as usize,
                min_stones: stones.0,
                max_stones: stones.1,
                radius,
                depth,
                max_score,
                seed,
                max_tries: max_tries as usize,
            },
        ),
        Command::Bench {
            depth_delta,
            threads,
        } => bench::run_bench(registry, depth_delta, threads as usize),
    }
}

/// A clap error on one line, as every other error: the error with what it names (a missing
/// argument's name), clap's tip if it has one, and the usage in brackets, without the blank
/// lines and the `--help` pointer.
fn usage_error(text: &str) -> String {
    let mut message: Vec<&str> = Vec::new();
    let mut tips: Vec<&str> = Vec::new();
    let mut usage = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("For more information") {
            continue;
        }
        if let Some(u) = line.strip_prefix("Usage:") {
            usage = Some(u.trim());
        } else if line.starts_with("tip:") {
            tips.push(line);
        } else {
            message.push(line);
        }
    }
    let mut out = message.join(" ");
    if out.is_empty() {
        out.push_str("error: bad arguments");
    }
    for tip in tips {
        out.push_str("; ");
        out.push_str(tip);
    }
    if let Some(usage) = usage {
        out.push_str(&format!(" (usage: {usage})"));
    }
    out.push('\n');
    out
}

/// Parses `args` (the program name first) and runs the command over `registry`'s games;
/// help and version go to stdout, errors to stderr with exit status 2.
pub fn run_from<I, T>(args: I, registry: &Registry) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            out!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprint!("{e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprint!("{}", usage_error(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    match run(cli, registry) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
