//! The graphical board of boardlab: `boardlab web` serves a page (embedded in the binary:
//! one HTML, one JavaScript and one CSS file, no build step, works offline) where people
//! play every game on a real board, against the engine or each other, here or over the
//! network.
//!
//! - [`view`]: [`view::BoardView`], the structured board the page draws, built from each
//!   game's typed position;
//! - [`options`]: the game table for the new-game form (every spec key and its range);
//! - [`game`]: one hosted game, the games crate's erased [`boardlab_games::DynGame`] of
//!   any registered game, and its engine jobs;
//! - [`store`]: the hosted games with their seats, in the host's private save files
//!   (`boardlab_host`: the same files, lock and rules of conduct as `boardlab serve`);
//! - [`request`]: the page's WebSocket messages as typed requests, decoded and applied
//!   to the store;
//! - [`app`]: the HTTP/JSON API and the WebSockets ([`app::run`]);
//! - [`pick`]: the legal move that clicked squares name (the page never writes notation);
//! - [`pool`]: the engine pool, fair between games (people first);
//! - [`listener`]: the TCP listener with a bound on open connections that idle ones
//!   cannot hold.
//!
//! The user guide is `docs/web.md`.

#![deny(missing_docs)]

pub mod app;
pub mod game;
pub mod listener;
pub mod options;
pub mod pick;
pub mod pool;
pub mod request;
pub mod store;
pub mod view;

pub use app::{App, page_weight, router, run, serve};
pub use store::Store;
