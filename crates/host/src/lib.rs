//! What every hosted boardlab game shares, whatever door its players come through (the
//! TCP line protocol of `boardlab serve`, the browser board of `boardlab web`, both in
//! one process): one game table and one engine queue. A door decodes its wire format
//! into the table's typed requests and writes the table's typed replies and events back
//! in its own format; it holds no game state of its own.
//!
//! - [`table`]: the game table ([`Table`]): ids, creation from a spec or a save file,
//!   seats and tokens, join and rejoin, moves, takebacks and draws by the rules of
//!   conduct, resignations, engine help, the followers' events ([`Event`]) and the
//!   engine jobs; every refusal a typed [`HostError`];
//! - [`clock`]: time controls ([`TimeControl`]: base plus increment, or a time per
//!   move) and the two clocks of a game; the table decides flag fall in one place, and
//!   the host's ticker thread asks it between moves;
//! - [`engines`]: [`Host`], the table behind its lock with the engine queue: engine
//!   moves are thought on their own threads without the lock;
//! - [`pool`]: the engine queue, fair between games (people first);
//! - [`game`]: one hosted game, the games crate's erased game, and its engine jobs;
//! - [`limits`]: the one home of the limits and their defaults ([`ServeOptions`]);
//! - [`seat`]: who holds a seat ([`Seat`]): a person by a secret [`Token`] (128 bits of
//!   the operating system's randomness, compared in constant time) or the host's
//!   engine at a [`Level`];
//! - [`save`]: the durable, private save files: checked records, append plus fsync before
//!   the reply, atomic rewrite, `0700`/`0600`, the data-directory lock, torn last records
//!   dropped, bad files skipped and never overwritten, expiry to the archive; and the
//!   comment records of seats, resignations, draws and help ([`save::Recorded`]);
//! - [`conduct`]: the rules between the players of one game: a takeback or a draw
//!   between two remote people needs the opponent's consent, engine help between two
//!   remote people only when both turned it on, spectators' analysis only once the game
//!   is over.
//!
//! The doors are documented in `docs/server-protocol.md` and `docs/web.md`.

#![deny(missing_docs)]

pub mod clock;
pub mod conduct;
pub mod engines;
mod error;
pub mod game;
pub mod limits;
pub mod pool;
pub mod save;
pub mod seat;
pub mod table;

pub use clock::{TimeControl, TimeControlError};
pub use conduct::{ActionError, Conduct, Consent, Held, Help, Offer};
pub use engines::Host;
pub use error::HostError;
pub use limits::ServeOptions;
pub use seat::{Level, Seat, Token, seat_name, seat_of};
pub use table::{Event, Table};
