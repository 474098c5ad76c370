//! What every hosted boardlab game shares, whatever door its players come through (the
//! TCP line protocol of `boardlab serve`, the browser board of `boardlab web`):
//!
//! - [`limits`]: the one home of the limits and their defaults ([`ServeOptions`]);
//! - [`seat`]: who holds a seat ([`Seat`]): a person by a secret [`Token`] (128 bits of
//!   the operating system's randomness, compared in constant time) or the server's
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
//! The protocol is documented in `docs/server-protocol.md`, the browser board in
//! `docs/web.md`.

#![deny(missing_docs)]

pub mod conduct;
pub mod limits;
pub mod save;
pub mod seat;

pub use conduct::{ActionError, Conduct, Consent, Held, Help, Offer};
pub use limits::ServeOptions;
pub use seat::{Level, Seat, Token, seat_name, seat_of};
