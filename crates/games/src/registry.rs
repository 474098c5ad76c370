//! The one list of the games a program offers: [`Registry`] maps game ids (the bundled games
//! and a user's own) to their [`GameEntry`], and carries beside each game a typed
//! [`Attachment`] built for its type when the game is registered — how a tool above this
//! crate (the command line's per-game commands) gets code monomorphised for a game it
//! never names, without a list of games of its own.

use std::sync::Arc;

use board_core::{GameConfig, GameSpec, SpecError, savefile::SaveFile};

use crate::{DynGame, Entry, Game, GameEntry, GameId, OpenError};

/// What a tool keeps beside each game of a [`Registry`], built for the game's type when it
/// is registered. `()` is no attachment: the registry the protocols, the host and the
/// front ends take. The command line attaches its per-game commands (a struct of `fn`
/// pointers, each the generic command instantiated for the game).
///
/// ```
/// use boardlab_games::{Attachment, Game, Gomoku, Registry};
///
/// /// Each game's bench size, read back by id.
/// #[derive(Clone, Copy)]
/// struct BenchSize(usize);
///
/// impl Attachment for BenchSize {
///     fn of<G: Game>() -> BenchSize {
///         BenchSize(G::BENCH_POSITIONS.len())
///     }
/// }
///
/// let registry = Registry::<BenchSize>::bundled_attached().with::<Gomoku>();
/// let (entry, size) = registry.get_attached("gomoku")?;
/// assert_eq!(entry.id(), "gomoku");
/// assert_eq!(size.0, Gomoku::BENCH_POSITIONS.len());
/// # Ok::<(), board_core::SpecError>(())
/// ```
pub trait Attachment: Clone + Send + Sync + 'static {
    /// The attachment of game `G`.
    fn of<G: Game>() -> Self;
}

impl Attachment for () {
    fn of<G: Game>() {}
}

/// The games a program offers, by id: the bundled ones ([`Registry::bundled`], also the
/// default) plus any a user registers ([`Registry::with`]), each with its attachment `A`
/// ([`Attachment`]; none by default). A clone shares the entries.
#[derive(Clone)]
pub struct Registry<A = ()> {
    games: Vec<Registered<A>>,
}

/// One registered game: how to open it, and what a tool attached to it.
#[derive(Clone)]
struct Registered<A> {
    entry: Arc<dyn GameEntry>,
    attachment: A,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::bundled()
    }
}

impl<A> std::fmt::Debug for Registry<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Registry").field(&self.ids()).finish()
    }
}

impl Registry {
    /// No games.
    pub fn empty() -> Registry {
        Registry::empty_attached()
    }

    /// Every bundled game, in the table's order.
    pub fn bundled() -> Registry {
        Registry::bundled_attached()
    }
}

impl<A: Attachment> Registry<A> {
    /// No games; each game registered later carries its `A`.
    pub fn empty_attached() -> Registry<A> {
        Registry { games: Vec::new() }
    }

    /// Every bundled game in the table's order, each with its `A`.
    pub fn bundled_attached() -> Registry<A> {
        fn add<G: Game>(registry: &mut Registry<impl Attachment>) {
            registry.add::<G>();
        }
        let mut registry = Registry::empty_attached();
        for &id in GameId::ALL {
            with_game!(id, add(&mut registry));
        }
        registry
    }

    /// Adds the game `G` with its attachment `A::of::<G>()`. A game whose id is already
    /// registered replaces the one registered before (so a user's variant can stand in for
    /// a bundled game of the same id); it then comes last in [`Registry::ids`].
    pub fn with<G: Game>(mut self) -> Registry<A> {
        self.add::<G>();
        self
    }

    /// [`Registry::with`] in place.
    fn add<G: Game>(&mut self) {
        let id = <G::Config as GameConfig>::GAME_ID;
        self.games.retain(|g| g.entry.id() != id);
        self.games.push(Registered {
            entry: Arc::new(Entry::<G>::default()),
            attachment: A::of::<G>(),
        });
    }
}

impl<A> Registry<A> {
    /// The same games without their attachments, as the protocols, the host and the front
    /// ends take them (the entries are shared, not copied).
    pub fn detached(&self) -> Registry {
        Registry {
            games: self
                .games
                .iter()
                .map(|g| Registered {
                    entry: Arc::clone(&g.entry),
                    attachment: (),
                })
                .collect(),
        }
    }

    /// The registered games, in order.
    pub fn entries(&self) -> impl Iterator<Item = &dyn GameEntry> {
        self.games.iter().map(|g| g.entry.as_ref())
    }

    /// The registered games with their attachments, in order.
    pub fn entries_attached(&self) -> impl Iterator<Item = (&dyn GameEntry, &A)> {
        self.games.iter().map(|g| (g.entry.as_ref(), &g.attachment))
    }

    /// The registered ids, in order.
    pub fn ids(&self) -> Vec<&'static str> {
        self.games.iter().map(|g| g.entry.id()).collect()
    }

    /// The entry of game `id` (case-insensitive, as specs are).
    pub fn get(&self, id: &str) -> Result<&dyn GameEntry, SpecError> {
        self.get_attached(id).map(|(entry, _)| entry)
    }

    /// The entry of game `id` (case-insensitive, as specs are) with its attachment; an
    /// unknown id is an error listing the registered ones.
    pub fn get_attached(&self, id: &str) -> Result<(&dyn GameEntry, &A), SpecError> {
        let id = id.trim();
        self.games
            .iter()
            .find(|g| g.entry.id().eq_ignore_ascii_case(id))
            .map(|g| (g.entry.as_ref(), &g.attachment))
            .ok_or_else(|| SpecError::UnknownGame {
                id: id.chars().take(32).collect(),
                known: self.ids().join(", "),
            })
    }

    /// The start position of a spec string (`gomoku:size=15`), parsed once: its id picks
    /// the entry, which builds the config from the same parsed spec.
    pub fn start(&self, spec: &str) -> Result<Box<dyn DynGame>, SpecError> {
        let spec = GameSpec::parse(spec)?;
        self.get(&spec.id)?.start(&spec)
    }

    /// A game replayed from the text of its save file, split once: its spec picks the
    /// entry, which replays the same parsed file.
    pub fn load(&self, text: &str) -> Result<Box<dyn DynGame>, OpenError> {
        // `parse` reports no move errors, so any error type serves for its `E`.
        let file =
            SaveFile::parse::<std::fmt::Error>(text).map_err(|e| OpenError::Save(e.to_string()))?;
        self.get(&file.spec.id)?.load(&file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Fourshift, Gomoku};

    /// The attachment the tests read back: the id its game was registered under.
    #[derive(Clone, Debug, PartialEq)]
    struct IdOf(&'static str);

    impl Attachment for IdOf {
        fn of<G: Game>() -> IdOf {
            IdOf(<G::Config as GameConfig>::GAME_ID)
        }
    }

    #[test]
    fn bundled_offers_every_game_of_the_table_in_its_order_each_with_its_attachment() {
        let table: Vec<&str> = GameId::ALL.iter().map(|id| id.as_str()).collect();
        let registry = Registry::<IdOf>::bundled_attached();
        assert_eq!(registry.ids(), table);
        assert_eq!(Registry::bundled().ids(), table);
        for (entry, attached) in registry.entries_attached() {
            assert_eq!(attached, &IdOf(entry.id()));
        }
        assert_eq!(registry.detached().ids(), table);
    }

    #[test]
    fn a_game_registered_again_replaces_the_first_and_comes_last() {
        let registry = Registry::<IdOf>::bundled_attached().with::<Fourshift>();
        let mut expected: Vec<&str> = GameId::ALL.iter().map(|id| id.as_str()).collect();
        expected.retain(|&id| id != GameId::Fourshift.as_str());
        expected.push(GameId::Fourshift.as_str());
        assert_eq!(registry.ids(), expected);
        assert_eq!(registry.entries_attached().count(), GameId::ALL.len());
    }

    #[test]
    fn an_unknown_game_is_an_error_naming_the_registered_ids() {
        let registry = Registry::<IdOf>::empty_attached().with::<Gomoku>();
        let err = registry.get_attached("clamp").err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("unknown game 'clamp': expected one of gomoku")
        );
        let found = registry.get_attached(" GOMOKU").map(|(_, a)| a.clone());
        assert_eq!(found.ok(), Some(IdOf("gomoku")));
    }
}
