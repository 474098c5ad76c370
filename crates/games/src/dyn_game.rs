//! One erased game: [`DynGame`] is an object-safe handle on a position with its history and
//! its player, so front ends and protocols hold "a game" without being generic over its
//! type; [`GameEntry`] opens one game type by id for the [`Registry`](crate::Registry).

use std::marker::PhantomData;

use board_core::{
    GameConfig, GameSpec, MoveInputError, NotationError, Outcome, Player, SpecError,
    savefile::{self, SaveFile},
    view::{self, BoardView, Cell},
};
use search::{Agent, AgentError, AgentKind, Limits, OptionsError, Score, SearchOptions};

use crate::{Game, SpecKey};

/// Why a move text was refused; the game is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The text is not a move in the game's notation.
    #[error("'{text}' is not a move: {reason}")]
    Notation {
        /// The text given (at most 32 characters of it).
        text: String,
        /// What is wrong with it.
        reason: NotationError,
    },
    /// The move is not legal in this position.
    #[error("illegal move '{text}': {reason}")]
    Illegal {
        /// The text given (at most 32 characters of it).
        text: String,
        /// The rules' reason.
        reason: String,
    },
}

impl PlayError {
    /// The text that was refused.
    pub fn text(&self) -> &str {
        match self {
            PlayError::Notation { text, .. } | PlayError::Illegal { text, .. } => text,
        }
    }

    /// Why, without the text.
    pub fn reason(&self) -> String {
        match self {
            PlayError::Notation { reason, .. } => reason.to_string(),
            PlayError::Illegal { reason, .. } => reason.clone(),
        }
    }
}

/// Why a saved game could not be opened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    /// The game spec names no registered game or has bad parameters.
    #[error("bad game spec: {0}")]
    Spec(#[from] SpecError),
    /// The save file is malformed or a move in it is illegal (the message names the line).
    #[error("{0}")]
    Save(String),
}

/// Why a position could not be set; the game is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The spec is malformed, names another game or has bad parameters.
    #[error("bad game spec: {0}")]
    Spec(#[from] SpecError),
    /// Move `index` (1-based) of the list is refused.
    #[error("move {index}: {error}")]
    Move {
        /// 1-based index of the move in the list.
        index: usize,
        /// Why it is refused.
        error: PlayError,
    },
}

/// An agent's move with what it found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move, in canonical notation.
    pub mv: String,
    /// Its score for the side to move.
    pub score: Score,
    /// The depth reached.
    pub depth: u32,
    /// The principal variation in canonical notation, space-separated.
    pub pv: String,
}

/// One move of a game's history, typed for front ends: who played it, its notation, and
/// whether it was a pass ([`board_core::Rules::is_pass`]), so that a page or a terminal
/// shows "White passes" rather than a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The player who made the move.
    pub player: Player,
    /// The move in canonical notation.
    pub text: String,
    /// Whether the move was a pass.
    pub pass: bool,
}

/// One completed iteration of the player's search, typed for front ends that draw it (an
/// evaluation bar, a principal variation) and with the engine protocol's line for those
/// that print it.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// The root's score for the side to move.
    pub score: Score,
    /// Nodes searched so far in this move's search.
    pub nodes: u64,
    /// The principal variation in canonical notation, space-separated.
    pub pv: String,
    /// The engine protocol's `info depth ...` line of this iteration.
    pub info_line: String,
}

/// The board after some number of moves, with what the move that led there did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyView {
    /// What the board shows.
    pub board: BoardView,
    /// The player to move (in a finished game, who would move next).
    pub side_to_move: Player,
    /// The squares the last move named ([`MoveInfo::squares`]); empty at the start.
    pub last: Vec<u16>,
    /// The squares the last move emptied by capture ([`view::captured`]).
    pub captured: Vec<u16>,
}

/// A legal move with the squares it names, so a front end draws targets, selections and
/// last moves from the squares and never parses notation to find them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MoveInfo {
    /// The move in canonical notation (what a front end sends back to play it).
    pub text: String,
    /// The squares it names, in the order it names them (from, to, arrow; the stones of
    /// a pair; the one square of a placement), as flat indices `row * width + col` (row 0
    /// the bottom rank, `a1` is 0).
    pub squares: Vec<u16>,
}

impl MoveInfo {
    /// The text and squares of `mv`, a legal move of `pos`.
    pub fn of<G: Game>(pos: &G, mv: G::Move) -> MoveInfo {
        MoveInfo {
            text: pos.format_move(mv),
            squares: pos.move_squares(mv).into_iter().map(|s| s.0).collect(),
        }
    }
}

/// A game position with its history and its player, behind a trait object.
pub trait DynGame: Send {
    /// The game id (`gomoku`).
    fn id(&self) -> &'static str;
    /// The rules, as their canonical spec (`gomoku:size=15,rule=freestyle`).
    fn spec(&self) -> String;
    /// The player to move.
    fn side_to_move(&self) -> Player;
    /// A player's display name ("Black").
    fn player_name(&self, player: Player) -> &'static str;
    /// The moves played from the start, in canonical notation.
    fn moves(&self) -> Vec<String>;
    /// The moves played from the start, typed: the player, the notation, whether a pass.
    fn played(&self) -> Vec<PlayedMove>;
    /// How many moves were played from the start.
    fn ply_count(&self) -> usize;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Why the game ended, for people: the game's reason
    /// ([`Position::outcome_reason`](board_core::Position::outcome_reason)), or the result
    /// in words (`first player wins`) for a game that gives none; `None` exactly while the
    /// game goes on.
    fn outcome_reason(&self) -> Option<String>;
    /// Every legal move, in canonical notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Every legal move with its squares ([`MoveInfo`]).
    fn legal_move_infos(&self) -> Vec<MoveInfo>;
    /// Whether front ends get the list of legal moves ([`Game::LISTS_MOVES`]).
    fn lists_moves(&self) -> bool;
    /// The legal move `text` with its squares, without playing it.
    fn move_info(&self, text: &str) -> Result<MoveInfo, PlayError>;
    /// The canonical notation of the legal move `text`, without playing it.
    fn check_move(&self, text: &str) -> Result<String, PlayError>;
    /// Plays the legal move `text`; its canonical notation.
    fn play(&mut self, text: &str) -> Result<String, PlayError>;
    /// Sets the position to the start of the parsed `spec` (a spec of this game) plus
    /// `moves`, keeping the player (told of a new game when the rules change). On error
    /// nothing changes.
    fn set_position(&mut self, spec: &GameSpec, moves: &[&str]) -> Result<(), PositionError>;
    /// Takes back the last move; `false` at the start.
    fn undo(&mut self) -> bool;
    /// The position's hash.
    fn hash(&self) -> u64;
    /// The position string.
    fn position_string(&self) -> String;
    /// The board diagram.
    fn diagram(&self) -> String;
    /// What the board shows.
    fn view(&self) -> BoardView;
    /// The one character the game's diagram draws for `cell`
    /// ([`View::glyph`](board_core::view::View::glyph)), so a front end drawing a
    /// [`BoardView`] as text uses the game's own letters.
    fn glyph(&self, cell: Cell) -> char;
    /// The name of square `square` (a flat index, as in [`PlyView`]) in the game's
    /// notation (`c4`); `None` off the board.
    fn square_name(&self, square: u16) -> Option<String>;
    /// The board now, with the last move's squares.
    fn ply_view(&self) -> PlyView;
    /// The board after the first `ply` moves (0 the start), with the last move's squares;
    /// `None` past the moves played.
    fn view_at(&self, ply: usize) -> Option<PlyView>;
    /// The game in the save format.
    fn save(&self) -> String;
    /// Builds the player that [`DynGame::think`] asks (replacing the previous one; on
    /// error there is no player until one builds).
    fn set_player(&mut self, kind: AgentKind, options: SearchOptions) -> Result<(), OptionsError>;
    /// Tells the player a new game starts (forgets its tables).
    fn new_game(&mut self);
    /// A copy of the position and its history, without the player (to think on elsewhere,
    /// for example off a server's lock).
    fn snapshot(&self) -> Box<dyn DynGame>;
    /// Asks the player for its move here (not played), reporting each finished iteration
    /// to `progress`. A player's broken answer is an error.
    fn think(
        &mut self,
        limits: &Limits,
        progress: &mut dyn FnMut(Iteration),
    ) -> Result<Thought, ThinkError>;
}

/// Why [`DynGame::think`] gave no move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ThinkError {
    /// No player was built (or the last build failed).
    #[error("no player: {0}")]
    NoPlayer(String),
    /// The player's answer broke the rules, or the game is over.
    #[error(transparent)]
    Agent(#[from] AgentError),
}

/// The [`DynGame`] of a game type `G`.
pub struct Handle<G: Game> {
    pos: G,
    /// Every move played, oldest first.
    history: Vec<G::Move>,
    /// Hashes of every position from the start to `pos` (repetition rules).
    hashes: Vec<u64>,
    player: Result<Box<dyn Agent<G>>, String>,
}

impl<G: Game> Handle<G> {
    /// The start position of `config`, without a player.
    pub fn new(config: G::Config) -> Handle<G> {
        let pos = G::new(config);
        let hashes = vec![pos.hash()];
        Handle {
            pos,
            history: Vec::new(),
            hashes,
            player: Err("no player was chosen".into()),
        }
    }

    /// A game replayed from its save file, already split into spec and moves.
    pub fn load(file: &SaveFile) -> Result<Handle<G>, OpenError> {
        let loaded = file
            .replay::<G>()
            .map_err(|e| OpenError::Save(e.to_string()))?;
        let mut game = Handle::<G>::new(loaded.position.config().clone());
        for mv in loaded.moves {
            game.push(mv);
        }
        Ok(game)
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.pos
    }

    fn push(&mut self, mv: G::Move) {
        self.pos.make_move(mv);
        self.history.push(mv);
        self.hashes.push(self.pos.hash());
    }

    /// The board after the first `ply` moves (at most the moves played) and what the move
    /// that led there did.
    fn replayed_view(&self, ply: usize) -> PlyView {
        let mut pos = G::new(self.pos.config().clone());
        let mut last = None;
        for &mv in self.history.iter().take(ply) {
            let before = pos.clone();
            pos.make_move(mv);
            last = Some((before, mv));
        }
        let squares = |list: Vec<board_core::Square>| list.into_iter().map(|s| s.0).collect();
        let (last, captured) = match last {
            Some((before, mv)) => (
                squares(before.move_squares(mv)),
                squares(view::captured(&before, &pos, mv)),
            ),
            None => (Vec::new(), Vec::new()),
        };
        PlyView {
            board: pos.board_view(),
            side_to_move: pos.side_to_move(),
            last,
            captured,
        }
    }

    fn parse(&self, text: &str) -> Result<G::Move, PlayError> {
        let quoted = || text.chars().take(32).collect::<String>();
        self.pos.parse_legal_move(text).map_err(|e| match e {
            MoveInputError::Notation(reason) => PlayError::Notation {
                text: quoted(),
                reason,
            },
            MoveInputError::Illegal(reason) => PlayError::Illegal {
                text: quoted(),
                reason: reason.to_string(),
            },
        })
    }
}

impl<G: Game> DynGame for Handle<G> {
    fn id(&self) -> &'static str {
        <G::Config as GameConfig>::GAME_ID
    }
    fn spec(&self) -> String {
        self.pos.config().to_string()
    }
    fn side_to_move(&self) -> Player {
        self.pos.side_to_move()
    }
    fn player_name(&self, player: Player) -> &'static str {
        self.pos.player_name(player)
    }
    fn moves(&self) -> Vec<String> {
        let mut pos = G::new(self.pos.config().clone());
        self.history
            .iter()
            .map(|&mv| {
                let text = pos.format_move(mv);
                pos.make_move(mv);
                text
            })
            .collect()
    }
    fn played(&self) -> Vec<PlayedMove> {
        let mut pos = G::new(self.pos.config().clone());
        self.history
            .iter()
            .map(|&mv| {
                let played = PlayedMove {
                    player: pos.side_to_move(),
                    text: pos.format_move(mv),
                    pass: pos.is_pass(&mv),
                };
                pos.make_move(mv);
                played
            })
            .collect()
    }
    fn ply_count(&self) -> usize {
        self.history.len()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }
    fn outcome_reason(&self) -> Option<String> {
        let outcome = self.pos.outcome()?;
        Some(
            self.pos
                .outcome_reason()
                .unwrap_or_else(|| outcome.to_string()),
        )
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.pos.generate_moves(&mut moves);
        moves.into_iter().map(|m| self.pos.format_move(m)).collect()
    }
    fn legal_move_infos(&self) -> Vec<MoveInfo> {
        let mut moves = Vec::new();
        self.pos.generate_moves(&mut moves);
        moves
            .into_iter()
            .map(|m| MoveInfo::of(&self.pos, m))
            .collect()
    }
    fn lists_moves(&self) -> bool {
        G::LISTS_MOVES
    }
    fn move_info(&self, text: &str) -> Result<MoveInfo, PlayError> {
        self.parse(text).map(|mv| MoveInfo::of(&self.pos, mv))
    }
    fn check_move(&self, text: &str) -> Result<String, PlayError> {
        self.parse(text).map(|mv| self.pos.format_move(mv))
    }
    fn play(&mut self, text: &str) -> Result<String, PlayError> {
        let mv = self.parse(text)?;
        let canonical = self.pos.format_move(mv);
        self.push(mv);
        Ok(canonical)
    }
    fn set_position(&mut self, spec: &GameSpec, moves: &[&str]) -> Result<(), PositionError> {
        let mut next = Handle::<G>::new(G::Config::from_spec(spec)?);
        for (i, text) in moves.iter().enumerate() {
            let mv = next.parse(text).map_err(|error| PositionError::Move {
                index: i + 1,
                error,
            })?;
            next.push(mv);
        }
        if next.pos.config() != self.pos.config() {
            self.new_game();
        }
        self.pos = next.pos;
        self.history = next.history;
        self.hashes = next.hashes;
        Ok(())
    }
    fn undo(&mut self) -> bool {
        // Replayed from the start: undo records need not be kept (nor be `Send`).
        let Some(_) = self.history.pop() else {
            return false;
        };
        self.hashes.pop();
        let mut pos = G::new(self.pos.config().clone());
        for &mv in &self.history {
            pos.make_move(mv);
        }
        self.pos = pos;
        true
    }
    fn hash(&self) -> u64 {
        self.pos.hash()
    }
    fn position_string(&self) -> String {
        self.pos.to_position_string()
    }
    fn diagram(&self) -> String {
        self.pos.diagram()
    }
    fn view(&self) -> BoardView {
        self.pos.board_view()
    }
    fn glyph(&self, cell: Cell) -> char {
        self.pos.glyph(cell)
    }
    fn square_name(&self, square: u16) -> Option<String> {
        let geometry = self.pos.geometry();
        (usize::from(square) < geometry.cells())
            .then(|| geometry.format_square(board_core::Square(square)))
    }
    fn ply_view(&self) -> PlyView {
        self.replayed_view(self.history.len())
    }
    fn view_at(&self, ply: usize) -> Option<PlyView> {
        (ply <= self.history.len()).then(|| self.replayed_view(ply))
    }
    fn save(&self) -> String {
        savefile::save::<G>(self.pos.config(), &self.history)
    }
    fn set_player(&mut self, kind: AgentKind, options: SearchOptions) -> Result<(), OptionsError> {
        // Drop the old player (and its table) before building the new one.
        self.player = Err("the player is being rebuilt".into());
        match G::player(kind, options) {
            Ok(player) => {
                self.player = Ok(player);
                Ok(())
            }
            Err(e) => {
                self.player = Err(format!("it could not be built: {e}"));
                Err(e)
            }
        }
    }
    fn new_game(&mut self) {
        if let Ok(player) = self.player.as_mut() {
            player.new_game();
        }
    }
    fn snapshot(&self) -> Box<dyn DynGame> {
        Box::new(Handle::<G> {
            pos: self.pos.clone(),
            history: self.history.clone(),
            hashes: self.hashes.clone(),
            player: Err("a snapshot has no player until one is set".into()),
        })
    }
    fn think(
        &mut self,
        limits: &Limits,
        progress: &mut dyn FnMut(Iteration),
    ) -> Result<Thought, ThinkError> {
        let player = self
            .player
            .as_mut()
            .map_err(|e| ThinkError::NoPlayer(e.clone()))?;
        player.set_game_history(&self.hashes);
        let pos = &self.pos;
        let (mv, result) = search::think_checked(player.as_mut(), pos, limits, &mut |it| {
            progress(Iteration {
                depth: it.depth,
                score: it.score,
                nodes: it.nodes,
                pv: search::format_pv(pos, &it.pv),
                info_line: it.info_line(pos),
            })
        })?;
        Ok(Thought {
            mv: pos.format_move(mv),
            score: result.score,
            depth: result.depth,
            pv: result.pv_string(pos),
        })
    }
}

/// What a registry knows of one game: its id and how to open it.
pub trait GameEntry: Send + Sync {
    /// The game id.
    fn id(&self) -> &'static str;
    /// The game's name for people.
    fn title(&self) -> &'static str;
    /// The keys of the game's spec with their values ([`Game::spec_keys`]).
    fn spec_keys(&self) -> Vec<SpecKey>;
    /// The start position under the default rules.
    fn start_default(&self) -> Box<dyn DynGame>;
    /// The start position of the parsed `spec` (whose id is this game's).
    fn start(&self, spec: &GameSpec) -> Result<Box<dyn DynGame>, SpecError>;
    /// A game replayed from its parsed save file (whose spec names this game).
    fn load(&self, file: &SaveFile) -> Result<Box<dyn DynGame>, OpenError>;
}

/// The [`GameEntry`] of a game type `G`.
pub struct Entry<G>(PhantomData<fn() -> G>);

impl<G> Default for Entry<G> {
    fn default() -> Self {
        Entry(PhantomData)
    }
}

impl<G: Game> GameEntry for Entry<G> {
    fn id(&self) -> &'static str {
        <G::Config as GameConfig>::GAME_ID
    }
    fn title(&self) -> &'static str {
        G::TITLE
    }
    fn spec_keys(&self) -> Vec<SpecKey> {
        G::spec_keys()
    }
    fn start_default(&self) -> Box<dyn DynGame> {
        Box::new(Handle::<G>::new(G::Config::default()))
    }
    fn start(&self, spec: &GameSpec) -> Result<Box<dyn DynGame>, SpecError> {
        Ok(Box::new(Handle::<G>::new(G::Config::from_spec(spec)?)))
    }
    fn load(&self, file: &SaveFile) -> Result<Box<dyn DynGame>, OpenError> {
        Ok(Box::new(Handle::<G>::load(file)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Registry;

    fn spec(text: &str) -> GameSpec {
        GameSpec::parse(text).unwrap()
    }

    #[test]
    fn a_move_is_played_undone_and_refused_with_its_reason() {
        let registry = Registry::bundled();
        let mut game = registry.start("gomoku:size=9").unwrap();
        assert_eq!(game.id(), "gomoku");
        assert_eq!(game.legal_moves().len(), 81);
        assert_eq!(game.play(" e5 ").unwrap(), "e5");
        let before = game.hash();
        assert!(matches!(
            game.play("e5"),
            Err(PlayError::Illegal { ref text, .. }) if text == "e5"
        ));
        assert!(matches!(game.play("zz"), Err(PlayError::Notation { .. })));
        assert_eq!(game.hash(), before, "a refused move changes nothing");
        assert_eq!(game.moves(), ["e5"]);
        assert!(game.undo());
        assert!(!game.undo());
        assert_eq!(game.moves(), Vec::<String>::new());
    }

    #[test]
    fn legal_moves_come_with_the_squares_they_name() {
        let game = Registry::bundled().start("amazons:size=8").unwrap();
        let infos = game.legal_move_infos();
        assert_eq!(
            infos.iter().map(|m| m.text.clone()).collect::<Vec<_>>(),
            game.legal_moves()
        );
        // A queen move names its from, to and arrow squares, in that order.
        for info in &infos {
            let names: Vec<String> = info
                .squares
                .iter()
                .map(|&i| format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1))
                .collect();
            let written = info.text.replace(['-', '/'], " ");
            assert_eq!(names.join(" "), written, "{}", info.text);
        }
        let placing = Registry::bundled().start("gomoku:size=9").unwrap();
        let e5 = placing
            .legal_move_infos()
            .into_iter()
            .find(|m| m.text == "e5")
            .unwrap();
        assert_eq!(e5.squares, vec![4 * 9 + 4]);
    }

    #[test]
    fn the_game_names_its_letters_and_squares() {
        let game = Registry::bundled().start("amazons:size=8").unwrap();
        // The game's own letters, not the defaults (`#`, `X`).
        assert_eq!(game.glyph(Cell::Marker), 'x');
        assert_eq!(game.glyph(Cell::Empty), '.');
        let queen = |owner| Cell::Piece {
            owner,
            kind: board_core::view::PieceKind::Queen,
        };
        assert_ne!(game.glyph(queen(Player::First)), 'X');
        assert_ne!(
            game.glyph(queen(Player::First)),
            game.glyph(queen(Player::Second))
        );
        // 10 is row 1, column c on an 8-wide board.
        assert_eq!(game.square_name(10).as_deref(), Some("c2"));
        assert_eq!(game.square_name(63).as_deref(), Some("h8"));
        assert_eq!(game.square_name(64), None, "off the board");
    }

    #[test]
    fn the_default_registry_is_the_bundled_games() {
        assert_eq!(Registry::default().ids(), Registry::bundled().ids());
        let one = Registry::empty().with::<crate::Gomoku>();
        assert_eq!(format!("{one:?}"), r#"Registry(["gomoku"])"#);
    }

    #[test]
    fn the_board_is_shown_at_any_ply_with_the_move_that_led_there() {
        let mut game = Registry::bundled().start("clamp").unwrap();
        for mv in ["c6-c4", "d3-d5", "a8", "a1", "f6-f4", "h1", "c4-d4"] {
            game.play(mv).unwrap();
        }
        // c4-d4 lands below White d5 with Black d6 beyond: d5 is captured.
        let now = game.ply_view();
        assert_eq!(now.last, vec![3 * 8 + 2, 3 * 8 + 3]);
        assert_eq!(now.captured, vec![4 * 8 + 3]);
        assert_eq!(Some(now.clone()), game.view_at(7));
        let start = game.view_at(0).unwrap();
        assert!(start.last.is_empty() && start.captured.is_empty());
        assert_eq!(start.side_to_move, Player::First);
        assert_eq!(game.view_at(1).unwrap().side_to_move, Player::Second);
        assert_eq!(game.view_at(1).unwrap().last, vec![5 * 8 + 2, 3 * 8 + 2]);
        assert_eq!(game.view_at(8), None, "past the moves played");
        assert_eq!(game.ply_count(), 7, "showing a ply changes nothing");
    }

    #[test]
    fn a_move_text_gives_its_squares_and_placements_are_not_listed() {
        let game = Registry::bundled().start("amazons:size=8").unwrap();
        assert!(game.lists_moves());
        let first = &game.legal_move_infos()[0];
        assert_eq!(game.move_info(&first.text).as_ref(), Ok(first));
        assert!(matches!(
            game.move_info("a1-a1/a1"),
            Err(PlayError::Illegal { .. } | PlayError::Notation { .. })
        ));
        let mut pairs = Registry::bundled().start("connect6:size=9").unwrap();
        assert!(!pairs.lists_moves());
        pairs.play("e5").unwrap();
        assert_eq!(pairs.move_info("a1,b2").unwrap().squares, vec![0, 10]);
    }

    #[test]
    fn a_refused_position_leaves_the_game_as_it_was() {
        let mut game = Registry::bundled().start("gomoku:size=9").unwrap();
        game.set_position(&spec("gomoku:size=7"), &["a1", "b2"])
            .unwrap();
        assert_eq!(game.moves(), ["a1", "b2"]);
        assert_eq!(game.spec(), "gomoku:size=7,rule=freestyle");
        let err = game
            .set_position(&spec("gomoku"), &["a1", "a1"])
            .unwrap_err();
        assert!(matches!(err, PositionError::Move { index: 2, .. }), "{err}");
        assert!(matches!(
            game.set_position(&spec("amazons"), &[]),
            Err(PositionError::Spec(SpecError::UnknownGame { .. }))
        ));
        assert_eq!(game.moves(), ["a1", "b2"]);
    }

    #[test]
    fn a_saved_game_loads_back_to_the_same_position() {
        let registry = Registry::bundled();
        let mut game = registry.start("connect6:size=9").unwrap();
        for mv in ["e5", "a1,b2", "c3,d4"] {
            game.play(mv).unwrap();
        }
        let loaded = registry.load(&game.save()).unwrap();
        assert_eq!(loaded.hash(), game.hash());
        assert_eq!(loaded.moves(), game.moves());
        assert_eq!(loaded.spec(), game.spec());
    }

    #[test]
    fn unknown_games_and_bad_saves_are_errors_naming_the_problem() {
        let registry = Registry::bundled();
        let err = registry.start("chess").err().unwrap();
        assert!(matches!(err, SpecError::UnknownGame { ref id, .. } if id == "chess"));
        assert!(matches!(
            registry.load("not a save"),
            Err(OpenError::Save(_))
        ));
    }

    use board_core::testing::claim::Claim;

    /// The sample game with passes, registered with a random engine.
    impl Game for Claim {
        const TITLE: &'static str = "Claim";

        fn engine(options: SearchOptions) -> Result<Box<dyn Agent<Self>>, OptionsError> {
            Ok(Box::new(search::RandomAgent::new(options.seed())))
        }
    }

    #[test]
    fn passes_are_typed_events_of_the_history() {
        let registry = Registry::empty().with::<Claim>();
        let mut game = registry.start("claim:size=2").unwrap();
        for mv in ["a1", "PASS", "b2"] {
            game.play(mv).unwrap();
        }
        let played = game.played();
        let seen: Vec<(Player, &str, bool)> = played
            .iter()
            .map(|p| (p.player, p.text.as_str(), p.pass))
            .collect();
        assert_eq!(
            seen,
            [
                (Player::First, "a1", false),
                (Player::Second, "pass", true),
                (Player::First, "b2", false),
            ]
        );
        // The save keeps the pass; two more passes end the game, with a reason.
        let loaded = registry.load(&game.save()).unwrap();
        assert_eq!(loaded.played(), played);
        assert_eq!(game.outcome_reason(), None);
        game.play("pass").unwrap();
        game.play("pass").unwrap();
        assert_eq!(
            game.outcome_reason().as_deref(),
            Some("two passes in a row, the most stones")
        );
        // The default keys and baseline of a game that declares neither.
        assert_eq!(Claim::spec_keys()[0].key, "size");
        assert_eq!(
            Claim::baseline()
                .map(|b| b.name().to_string())
                .ok()
                .as_deref(),
            Some("baseline")
        );
    }

    #[test]
    fn the_player_is_asked_and_its_move_is_checked_but_not_played() {
        let mut game = Registry::bundled().start("gomoku:size=7").unwrap();
        assert!(matches!(
            game.think(&Limits::new(), &mut |_| {}),
            Err(ThinkError::NoPlayer(_))
        ));
        game.set_player(AgentKind::Random, SearchOptions::default().with_seed(5))
            .unwrap();
        let thought = game.think(&Limits::new(), &mut |_| {}).unwrap();
        assert!(game.legal_moves().contains(&thought.mv));
        game.set_player(AgentKind::Engine, SearchOptions::default())
            .unwrap();
        let mut iterations = Vec::new();
        let thought = game
            .think(&Limits::new().with_depth(2), &mut |it| iterations.push(it))
            .unwrap();
        let last = iterations.last().expect("each iteration is reported");
        assert_eq!((last.depth, last.score), (thought.depth, thought.score));
        assert!(
            last.pv.starts_with(&thought.mv),
            "{} {}",
            last.pv,
            thought.mv
        );
        assert!(
            last.info_line.starts_with("info depth 2 "),
            "{}",
            last.info_line
        );
        assert!(game.moves().is_empty());
    }
}
