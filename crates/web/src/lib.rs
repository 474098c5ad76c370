//! The graphical board of boardlab: `boardlab web` serves a page (embedded in the binary:
//! one HTML, one JavaScript and one CSS file, no build step, works offline) where people
//! play every game on a real board, against the engine or each other, here or over the
//! network.
//!
//! - [`view`]: [`view::BoardView`], the structured board the page draws, built from each
//!   game's typed position;
//! - [`options`]: the game table for the new-game form (every spec key and its range);
//! - [`state`]: what the page is sent of a game: the host's state for this follower and
//!   the board;
//! - [`request`]: the page's WebSocket messages as typed requests, decoded and applied
//!   to the host's game table;
//! - [`app`]: the HTTP/JSON API and the WebSockets ([`app::run`]);
//! - [`pick`]: the legal move that clicked squares name (the page never writes notation);
//! - [`listener`]: the TCP listener with a bound on open connections that idle ones
//!   cannot hold.
//!
//! The games themselves, their seats, save files, rules of conduct and the fair engine
//! queue are the host's ([`boardlab_host::Host`]): the same table `boardlab serve`'s line
//! protocol opens, in one process when both doors are open.
//!
//! The user guide is `docs/web.md`.

#![deny(missing_docs)]

pub mod app;
pub mod listener;
pub mod options;
pub mod pick;
pub mod request;
pub mod state;
pub mod view;

pub use app::{App, page_weight, router, run, serve, serve_blocking};
pub use boardlab_host::{Host, Table};
