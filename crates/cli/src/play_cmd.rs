//! `boardlab play` and `boardlab replay`: thin wiring of the `play` crate to stdin/stdout.

use std::{
    io::{self, IsTerminal},
    path::PathBuf,
    sync::{Arc, Mutex},
};

use ::play::{Humans, LevelMaker, Opponent, Progress, Replay, SaveSnapshot, Session, Settings};
use board_core::GameSpec;
use board_core::{Position, View, savefile, savefile::SaveFile};
use boardlab_games::Game;
use search::AgentKind;

use crate::{
    Registry,
    cli_error::CliError,
    commands::{EngineArgs, Think},
    setup,
};

/// The computer's strength by number, weakest first: who plays and how long it thinks (in
/// ms a move; the random and baseline players do not search on a clock).
pub const LEVELS: [(AgentKind, Option<u64>); 5] = [
    (AgentKind::Random, None),
    (AgentKind::Baseline, None),
    (AgentKind::Engine, Some(100)),
    (AgentKind::Engine, Some(1_000)),
    (AgentKind::Engine, Some(5_000)),
];

/// The budget a computer player gets when no level or flag names one.
const DEFAULT_THINK: Think = Think::Time(1_000);

/// A computer player as people are told of it: `the engine at 0.3 s a move`, from the
/// budget it really gets.
pub fn describe(kind: AgentKind, think: Think) -> String {
    match kind {
        AgentKind::Random => "random moves".to_string(),
        AgentKind::Baseline => "the source article's simple AI".to_string(),
        AgentKind::Engine => match think {
            Think::Time(ms) => format!("the engine at {} a move", seconds(ms)),
            Think::Depth(1) => "the engine searching 1 ply a move".to_string(),
            Think::Depth(d) => format!("the engine searching {d} plies a move"),
            Think::Nodes(n) => format!("the engine at {n} nodes a move"),
        },
    }
}

/// `ms` in seconds as people write them: `1 s`, `0.3 s`, `0.25 s`.
fn seconds(ms: u64) -> String {
    let whole = ms / 1000;
    let frac = format!("{:03}", ms % 1000);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{whole} s")
    } else {
        format!("{whole}.{frac} s")
    }
}

/// Level `level` (1-5): the player's kind and its budget, `think` (a `--time`, `--depth`
/// or `--nodes` given on the command line) in place of the level's own time.
fn level_player(level: u8, think: Option<Think>) -> (AgentKind, Think) {
    let (kind, ms) = LEVELS[usize::from(level.clamp(1, 5)) - 1];
    (kind, think.or(ms.map(Think::Time)).unwrap_or(DEFAULT_THINK))
}

/// The level `play` uses when none is named.
pub const DEFAULT_LEVEL: u8 = 4;

/// Everything `boardlab play` was asked for.
pub struct PlayArgs {
    pub spec: Option<String>,
    pub humans: Humans,
    /// `--time`/`--depth`/`--nodes`, if given: the computer's budget.
    pub think: Option<Think>,
    pub opponent: Option<AgentKind>,
    pub level: Option<u8>,
    pub load: Option<String>,
    pub no_color: bool,
    pub seed: Option<u64>,
    pub verbose: bool,
}

/// A save file given with `--load`: its path and the file, read and split once (it is
/// replayed once, by the game it names).
pub type Loaded = (String, SaveFile);

pub fn run(registry: &Registry, args: PlayArgs) -> Result<(), CliError> {
    let loaded = match &args.load {
        Some(path) => {
            let text = read(path)?;
            let file = SaveFile::parse::<std::fmt::Error>(&text)
                .map_err(|e| CliError::usage(format!("{path}: {e}")))?;
            Some((path.clone(), file))
        }
        None => None,
    };
    let spec = match (&args.spec, &loaded) {
        (Some(spec), _) => GameSpec::parse(spec)?,
        (None, Some((_, file))) => file.spec.clone(),
        (None, None) => return Err(CliError::usage("play needs a game spec or --load FILE")),
    };
    (crate::registry::of_spec(registry, &spec)?.play)(&spec, &args, loaded.as_ref())
}

fn read(path: &str) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError::usage(format!("cannot read {path}: {e}")))
}

pub fn run_play<P: Game + View>(
    spec: &GameSpec,
    args: &PlayArgs,
    loaded: Option<&Loaded>,
) -> Result<(), CliError> {
    let config = setup::config::<P>(spec)?;
    let loaded_game = match loaded {
        Some((path, file)) => {
            let game = file
                .replay::<P>()
                .map_err(|e| CliError::usage(format!("{path}: {e}")))?;
            let file_config = game.position.config();
            if args.spec.is_some() && *file_config != config {
                return Err(CliError::usage(format!(
                    "{path} is a game of {file_config}, not {config}: leave out the spec to \
                     play the file's rules"
                )));
            }
            Some(game)
        }
        None => None,
    };
    let (kind, think, about) = match (args.opponent, args.level) {
        (Some(kind), _) => {
            let think = args.think.unwrap_or(DEFAULT_THINK);
            (kind, think, describe(kind, think))
        }
        (None, level) => {
            let level = level.unwrap_or(DEFAULT_LEVEL);
            let (kind, think) = level_player(level, args.think);
            (
                kind,
                think,
                format!("level {level}, {}", describe(kind, think)),
            )
        }
    };
    let seed = args
        .seed
        .unwrap_or_else(|| u64::from(rand::random::<u32>()));
    let engine = EngineArgs {
        hash_mb: 64,
        threads: 1,
        seed,
    };
    let computer =
        P::player(kind, engine.options()?).map_err(|e| CliError::usage(e.to_string()))?;
    let stdin_is_terminal = io::stdin().is_terminal();
    let snapshot: SaveSnapshot = Arc::new(Mutex::new(String::new()));
    let settings = Settings {
        humans: args.humans,
        limits: think.limits(),
        color: ::play::use_color(args.no_color, io::stdout().is_terminal()),
        echo: !stdin_is_terminal,
        progress: if args.verbose {
            Progress::Verbose
        } else if io::stderr().is_terminal() {
            Progress::Line
        } else {
            Progress::Silent
        },
        confirm: stdin_is_terminal,
        snapshot: Some(snapshot.clone()),
    };
    let plays_computer = [board_core::Player::First, board_core::Player::Second]
        .iter()
        .any(|&p| !args.humans.plays(p));
    if plays_computer {
        let seed_note = match args.seed {
            Some(_) => String::new(),
            None => format!(", seed {seed} (--seed {seed} replays it)"),
        };
        outln!("The computer: {about}{seed_note}.");
    }
    install_autosave::<P>(snapshot)?;
    // `level N` during the game: that level's own player and time, the same seed.
    let make_level: LevelMaker<P> = Box::new(move |level| {
        let (kind, think) = level_player(level, None);
        let options = engine.options().map_err(|e| e.to_string())?;
        let agent = P::player(kind, options).map_err(|e| e.to_string())?;
        Ok(Opponent {
            agent,
            limits: think.limits(),
            about: format!("level {level}, {}", describe(kind, think)),
        })
    });
    let mut session = Session::new(P::new(config), Some(computer), settings).with_levels(
        LEVELS.len() as u8,
        about,
        make_level,
    );
    if let Some(game) = loaded_game {
        session.load_game(game);
    }
    let stdin = io::stdin();
    session
        .run(&mut stdin.lock(), &mut io::stdout(), &mut io::stderr())
        .map_err(|e| CliError::usage(format!("i/o error: {e}")))
}

/// Where Ctrl-C saves the game: `boardlab-autosave-<game>.save` in the current directory.
fn autosave_path<P: Position>() -> PathBuf {
    PathBuf::from(format!("boardlab-autosave-{}.save", ::play::game_id::<P>()))
}

/// On Ctrl-C, writes the game (as it stands after the last move) to the autosave file,
/// says where, and exits with 130 as a shell expects after SIGINT.
fn install_autosave<P: Position>(snapshot: SaveSnapshot) -> Result<(), CliError> {
    let path = autosave_path::<P>();
    ctrlc::set_handler(move || {
        let text = match snapshot.lock() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        let shown = path.display();
        match std::fs::write(&path, text) {
            Ok(()) => eprintln!(
                "\ninterrupted: the game is saved in {shown} (boardlab play --load {shown})"
            ),
            Err(e) => eprintln!("\ninterrupted: could not save the game to {shown}: {e}"),
        }
        std::process::exit(130);
    })
    .map_err(|e| CliError::usage(format!("cannot catch Ctrl-C: {e}")))
}

/// The game id of a save file's text.
fn save_game_id(text: &str) -> Result<String, CliError> {
    let file =
        SaveFile::parse::<std::fmt::Error>(text).map_err(|e| CliError::usage(e.to_string()))?;
    Ok(file.spec.id)
}

/// `boardlab replay FILE [--game N]`: one save file, or game N of a records file (a file of
/// several games lists them when no game is chosen).
pub fn run_replay_file(
    registry: &Registry,
    path: &str,
    game: Option<usize>,
    no_color: bool,
) -> Result<(), CliError> {
    let text = read(path)?;
    let games = savefile::split_records(&text);
    let chosen = match (game, games.len()) {
        (_, 0) => text,
        (None, 1) | (Some(1), 1) => games.into_iter().next().unwrap_or_default(),
        (None, n) => {
            outln!("{path} holds {n} games:");
            for (i, g) in games.iter().enumerate() {
                let title = g
                    .lines()
                    .find_map(|l| l.trim().strip_prefix('#').map(str::trim))
                    .unwrap_or("");
                outln!("{:>4}  {title}", i + 1);
            }
            return Err(CliError::usage(format!(
                "{path} holds {n} games: choose one with --game N (1-{n})"
            )));
        }
        (Some(k), n) if k == 0 || k > n => {
            return Err(CliError::usage(format!(
                "game {k} is out of range: {path} holds {n} game(s)"
            )));
        }
        (Some(k), _) => games.into_iter().nth(k - 1).unwrap_or_default(),
    };
    // Every error names the file it is about.
    let in_file = |e: CliError| CliError::usage(format!("{path}: {e}"));
    let id = save_game_id(&chosen).map_err(in_file)?;
    let game = crate::registry::of_id(registry, &id).map_err(in_file)?;
    (game.replay)(&chosen, path, no_color)
}

pub fn run_replay<P: View>(text: &str, path: &str, no_color: bool) -> Result<(), CliError> {
    let color = ::play::use_color(no_color, io::stdout().is_terminal());
    let mut replay = Replay::<P>::from_save(text, color)
        .map_err(|e| CliError::usage(format!("{path}: {e}")))?
        .with_echo(!io::stdin().is_terminal());
    let stdin = io::stdin();
    replay
        .run(&mut stdin.lock(), &mut io::stdout())
        .map_err(|e| CliError::usage(format!("i/o error: {e}")))
}
