//! One hosted game ([`HostedGame`]): the games crate's erased game ([`DynGame`]) of any
//! registered game, created from a spec or a save file, played from move text, cut back
//! for a takeback, and snapshotted into engine jobs ([`Think`]) that run on the engine
//! pool without any lock. The engine's answer stays typed ([`Answer`]) until a door
//! writes it on its wire.

use std::sync::{Arc, atomic::AtomicBool};

use board_core::Player;
use boardlab_games::{DynGame, MoveInfo, OpenError, Registry};
use search::{AgentKind, Limits, Score, ScoreKind, SearchOptions, TimeControl};
use serde::Serialize;

use crate::{HostError, Level, error::shortened, limits::ENGINE_HASH_MB};

/// An engine score for people and for the evaluation graph.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreView {
    /// The protocol's form from the mover's side: `cp 35`, `win 7`, `loss 4`.
    pub text: String,
    /// From the first player's side, forced results at ±10000, values clamped to ±9000.
    pub first: i32,
}

impl ScoreView {
    fn new(score: Score, mover: Player) -> ScoreView {
        let mover_view = match score.kind() {
            ScoreKind::Value(v) => v.clamp(-9000, 9000),
            ScoreKind::Win(_) => 10_000,
            ScoreKind::Loss(_) => -10_000,
        };
        ScoreView {
            text: score.to_string(),
            first: if mover == Player::First {
                mover_view
            } else {
                -mover_view
            },
        }
    }
}

/// One completed iteration while the engine thinks.
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    /// Nominal depth of the iteration just completed.
    pub depth: u32,
    /// The root's score after it.
    pub score: ScoreView,
    /// Nodes searched so far in this move's search.
    pub nodes: u64,
    /// The principal variation in canonical notation, space-separated.
    pub pv: String,
}

/// The engine's answer.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The move in canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// `None` for the random player.
    pub score: Option<ScoreView>,
    /// The principal variation in canonical notation, space-separated (may be empty).
    pub pv: String,
    /// The squares of the move (drawn for a hint).
    pub squares: Vec<u16>,
}

/// The engine's work for one move, on a snapshot of the position.
pub trait Think: Send {
    /// The answer, or why there is none (the game is over, or the engine failed: no other
    /// move stands in). `progress` is called after each completed iteration.
    fn think(self: Box<Self>, progress: &mut dyn FnMut(Progress)) -> Result<Answer, String>;
}

/// The engine jobs of an analysis: each position's ply and its job.
pub type AnalysisJobs = Vec<(usize, Box<dyn Think>)>;

/// One hosted game: the games crate's one erased game ([`DynGame`], any game of the
/// registry, bundled or a user's own) with what the doors ask of it.
pub struct HostedGame(Box<dyn DynGame>);

impl HostedGame {
    /// The erased game itself (read only: every change goes through the table), for a
    /// door that draws it.
    pub fn erased(&self) -> &dyn DynGame {
        self.0.as_ref()
    }
    /// The canonical spec string.
    pub fn spec(&self) -> String {
        self.0.spec()
    }
    /// The players' display names (first, second) under this game's rules.
    pub fn player_names(&self) -> [&'static str; 2] {
        [
            self.0.player_name(Player::First),
            self.0.player_name(Player::Second),
        ]
    }
    /// Moves played.
    pub fn ply(&self) -> usize {
        self.0.ply_count()
    }
    /// The player to move now (in a finished game, who would move next).
    pub fn to_move(&self) -> Player {
        self.0.side_to_move()
    }
    /// The player to move after the first `ply` moves (now, past the moves played).
    pub fn to_move_at(&self, ply: usize) -> Player {
        self.0
            .view_at(ply)
            .map_or_else(|| self.0.side_to_move(), |v| v.side_to_move)
    }
    /// The rules' result: winner (`None` a draw) and reason.
    pub fn outcome(&self) -> Option<(Option<Player>, String)> {
        let o = self.0.outcome()?;
        Some((
            o.winner(),
            self.0.outcome_reason().unwrap_or_else(|| o.to_string()),
        ))
    }
    /// The moves in canonical notation.
    pub fn moves(&self) -> Vec<String> {
        self.0.moves()
    }
    /// Validates `text`; when legal calls `commit` with its canonical notation and plays it
    /// only if `commit` succeeds. A refused move changes nothing; the error is the rules'
    /// reason, or `commit`'s error.
    pub fn play(
        &mut self,
        text: &str,
        commit: &mut dyn FnMut(&str) -> Result<(), HostError>,
    ) -> Result<String, HostError> {
        let illegal = |e: boardlab_games::PlayError| HostError::Illegal {
            text: shortened(text, 32),
            reason: e.reason(),
        };
        let canonical = self.0.check_move(text).map_err(illegal)?;
        commit(&canonical)?;
        self.0.play(&canonical).map_err(illegal)
    }
    /// Takes back every move after the first `ply`.
    pub fn truncate(&mut self, ply: usize) {
        while self.0.ply_count() > ply && self.0.undo() {}
    }
    /// Every legal move with its squares, for games that list them
    /// ([`DynGame::lists_moves`]); `None` for placement games.
    pub fn legal(&self) -> Option<Vec<MoveInfo>> {
        self.0.lists_moves().then(|| self.0.legal_move_infos())
    }
    /// The save file (header, spec, one move a line).
    pub fn save_text(&self) -> String {
        self.0.save()
    }
    /// A snapshot of the position for `level` to think on.
    pub fn think_job(&self, level: Level, seed: u64) -> Box<dyn Think> {
        self.think_job_within(level, seed, None, Arc::default())
    }

    /// [`HostedGame::think_job`] for an engine seat with a clock: `clock` is what its
    /// clock leaves for this move, counted from now. The engine level's own think time
    /// holds unless the clock's budget (the search's time manager,
    /// [`TimeControl::budget`]) stops it sooner; the random player and the baseline keep
    /// their fixed think (a clock too short for it runs out). Raising `stop` ends the
    /// think within a few milliseconds (its answer is then stale: the game changed).
    pub fn think_job_within(
        &self,
        level: Level,
        seed: u64,
        clock: Option<TimeControl>,
        stop: Arc<AtomicBool>,
    ) -> Box<dyn Think> {
        Box::new(Snapshot {
            game: self.0.snapshot(),
            level,
            seed,
            clock: clock.map(|c| (c, std::time::Instant::now())),
            stop,
        })
    }
    /// Snapshots of the positions after each of the moves (0 the start), each an engine
    /// job of `ms` for the evaluation graph; finished positions skipped.
    pub fn analysis_jobs(&self, ms: u64) -> AnalysisJobs {
        let mut game = self.0.snapshot();
        let mut jobs: AnalysisJobs = Vec::new();
        loop {
            if game.outcome().is_none() {
                jobs.push((
                    game.ply_count(),
                    Box::new(Snapshot {
                        game: game.snapshot(),
                        level: Level::Engine(ms),
                        seed: 0,
                        clock: None,
                        stop: Arc::default(),
                    }),
                ));
            }
            if !game.undo() {
                break;
            }
        }
        jobs.reverse();
        jobs
    }
}

/// An engine move to think: a snapshot of the game (position and history), copied out of
/// the table.
struct Snapshot {
    game: Box<dyn DynGame>,
    level: Level,
    seed: u64,
    /// The engine seat's clock for this move and when it was read.
    clock: Option<(TimeControl, std::time::Instant)>,
    /// Raised by the table when the game changes under the think.
    stop: Arc<AtomicBool>,
}

/// The limits `level` thinks under with `clock` (and when it was read): the level's own
/// unless the clock's budget stops the engine sooner.
fn limits_within(level: Level, clock: Option<(TimeControl, std::time::Instant)>) -> Limits {
    let (kind, limits) = level.player();
    let Some((control, read)) = clock else {
        return limits;
    };
    match control.budget() {
        Some(budget)
            if kind == AgentKind::Engine
                && limits.hard_time().is_none_or(|own| budget.hard < own) =>
        {
            Limits::new().with_budget(budget).with_start(read)
        }
        _ => limits,
    }
}

impl Think for Snapshot {
    fn think(mut self: Box<Self>, progress: &mut dyn FnMut(Progress)) -> Result<Answer, String> {
        let mover = self.game.side_to_move();
        let kind = self.level.player().0;
        let limits = limits_within(self.level, self.clock).with_stop_flag(self.stop.clone());
        // A panicking engine must not take the server down; like any engine failure it
        // gives no answer (the players are told why), and no other move is played in its place.
        let game = &mut self.game;
        let thought = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let options = SearchOptions::default()
                .with_hash_mb(ENGINE_HASH_MB)
                .and_then(|o| o.with_threads(1))
                .map_err(|e| e.to_string())?
                .with_seed(self.seed);
            game.set_player(kind, options).map_err(|e| e.to_string())?;
            game.think(&limits, &mut |it| {
                progress(Progress {
                    depth: it.depth,
                    score: ScoreView::new(it.score, mover),
                    nodes: it.nodes,
                    pv: it.pv,
                })
            })
            .map_err(|e| e.to_string())
        }))
        .unwrap_or_else(|_| Err("the engine panicked".to_string()))
        .map_err(|e| format!("the {kind} gave no move: {e}"))?;
        let squares = self
            .game
            .move_info(&thought.mv)
            .map_err(|e| format!("the {kind} gave no move: {e}"))?
            .squares;
        Ok(Answer {
            mv: thought.mv,
            depth: thought.depth,
            score: (kind != AgentKind::Random).then(|| ScoreView::new(thought.score, mover)),
            pv: thought.pv,
            squares,
        })
    }
}

/// A new game from a game spec (`gomoku:size=15`) of a registered game; the error is the
/// spec parser's.
pub fn create_game(registry: &Registry, spec: &str) -> Result<HostedGame, HostError> {
    registry
        .start(spec)
        .map(HostedGame)
        .map_err(|e| HostError::BadSpec(e.to_string()))
}

/// A game replayed from the text of a save file; the error names the first bad line and
/// its reason, as `play --load` does.
pub fn load_game_text(registry: &Registry, text: &str) -> Result<HostedGame, HostError> {
    registry.load(text).map(HostedGame).map_err(|e| match e {
        OpenError::Spec(e) => HostError::BadSave(format!("line 2: {e}")),
        OpenError::Save(e) => HostError::BadSave(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_moves_give_the_rules_reason_and_change_nothing() {
        let mut g = create_game(&Registry::bundled(), "gomoku").expect("game");
        g.play("h8", &mut |_| Ok(())).expect("legal");
        let before = g.save_text();
        let err = g.play("h8", &mut |_| Ok(())).expect_err("occupied");
        assert_eq!(err.to_string(), "illegal move 'h8': h8 is occupied");
        let err = g.play("zz", &mut |_| Ok(())).expect_err("syntax");
        assert!(err.to_string().contains("'zz'"), "{err}");
        assert_eq!(g.save_text(), before);
    }

    #[test]
    fn a_failed_commit_leaves_the_game_as_it_was() {
        let mut g = create_game(&Registry::bundled(), "fourshift").expect("game");
        let err = g
            .play("c3", &mut |_| Err(HostError::Save("disk full".into())))
            .expect_err("commit fails");
        assert_eq!(err.to_string(), "cannot save: disk full");
        assert_eq!(g.ply(), 0);
    }

    #[test]
    fn truncate_takes_moves_back_and_save_round_trips() {
        let mut g = create_game(&Registry::bundled(), "amazons:size=8").expect("game");
        let legal = g.legal().expect("amazons lists moves");
        assert_eq!(legal[0].squares.len(), 3, "from, to, arrow");
        g.play(&legal[0].text, &mut |_| Ok(())).expect("legal");
        let one = g.save_text();
        let legal = g.legal().expect("listed");
        g.play(&legal[0].text, &mut |_| Ok(())).expect("legal");
        g.truncate(1);
        assert_eq!(g.save_text(), one);
        let loaded = load_game_text(&Registry::bundled(), &one).expect("loads");
        assert_eq!(loaded.moves(), g.moves());
    }

    #[test]
    fn a_bad_save_file_names_its_line() {
        let text = "boardlab-save 1\ngame gomoku\nh8\nh8\n";
        let err = load_game_text(&Registry::bundled(), text)
            .err()
            .expect("refused");
        assert_eq!(err.to_string(), "line 4: move 2 'h8': h8 is occupied");
        let err = load_game_text(&Registry::bundled(), "boardlab-save 1\ngame chess\n")
            .err()
            .expect("refused");
        let err = err.to_string();
        assert!(err.starts_with("line 2:") && err.contains("chess"), "{err}");
    }

    #[test]
    fn an_engine_seat_thinks_within_its_clock() {
        let ms = std::time::Duration::from_millis;
        let now = std::time::Instant::now();
        let level = Level::Engine(5000);
        // Plenty on the clock: the level's own time.
        let roomy = TimeControl::clock(search::Clock::new(ms(3_600_000), ms(0), None));
        let own = limits_within(level, Some((roomy, now)));
        assert_eq!(own.hard_time(), Some(ms(5000)));
        // Ten seconds left, one of increment: the time manager's share of it.
        let short = TimeControl::clock(search::Clock::new(ms(10_000), ms(1000), None));
        let within = limits_within(level, Some((short, now)));
        let budget = short.budget().expect("a budget");
        assert_eq!(within.hard_time(), Some(budget.hard));
        assert!(budget.hard < ms(10_000) / 3 && within.start() == Some(now));
        // A second per move: below it.
        let per_move = limits_within(level, Some((TimeControl::per_move(ms(1000)), now)));
        assert!(per_move.hard_time().is_some_and(|h| h < ms(1000)));
        // The baseline keeps its fixed think whatever the clock.
        let baseline = limits_within(Level::Baseline, Some((short, now)));
        assert_eq!(baseline.hard_time(), None);
    }

    #[test]
    fn engine_levels_answer_with_a_legal_move_and_report_progress() {
        for level in [Level::Random, Level::Baseline, Level::Engine(30)] {
            let g = create_game(&Registry::bundled(), "fourshift").expect("game");
            let mut reports = 0;
            let a = g
                .think_job(level, 1)
                .think(&mut |_| reports += 1)
                .expect("a move");
            let mut g2 = create_game(&Registry::bundled(), "fourshift").expect("game");
            g2.play(&a.mv, &mut |_| Ok(()))
                .expect("engine move is legal");
            assert_eq!(a.squares.len(), 1);
            if level == Level::Engine(30) {
                assert!(reports > 0 && a.score.is_some() && a.depth > 0);
            }
        }
    }
}
