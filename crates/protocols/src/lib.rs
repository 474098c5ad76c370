//! Engine protocols for boardlab:
//! - [`pbrain`]: the Piskvork / Gomocup brain protocol (gomoku; `docs/protocol-gomocup.md`),
//!   a pure state machine ([`pbrain::PbrainSession`]) plus its I/O loop;
//! - [`ugi`]: the UCI-style engine protocol for every game (`docs/protocol-engine.md`), the
//!   search on a worker thread so that `stop` is read while it thinks;
//! - [`botzone`]: the Botzone Amazons bot (8×8; simple, JSON and keep-running modes;
//!   `docs/protocol-botzone.md`);
//! - [`server`]: the TCP game server and its terminal client (`boardlab serve` / `connect`);
//! - [`lines`]: length-capped line reading shared by the protocols.

#![deny(missing_docs)]

pub mod botzone;
pub mod lines;
pub mod pbrain;
pub mod server;
pub mod ugi;
