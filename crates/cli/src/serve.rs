//! `boardlab serve` / `boardlab connect`: the TCP game server and its terminal client;
//! `boardlab web`: the board in the browser.

use std::{path::Path, time::Duration};

use board_core::Player;
use clap::Args;
use protocols::server::{ConnectOptions, ServeOptions};

use crate::{Registry, cli_error::CliError};

/// The server's limits and expiry times (defaults: [`ServeOptions::default`]).
#[derive(Args, Debug)]
pub struct ServeLimits {
    /// Most games hosted at once.
    #[arg(long, default_value_t = ServeOptions::default().max_games)]
    max_games: usize,
    /// Most live games created from one peer address.
    #[arg(long, default_value_t = ServeOptions::default().max_games_per_peer)]
    max_games_per_peer: usize,
    /// Most simultaneous connections.
    #[arg(long, default_value_t = ServeOptions::default().max_connections)]
    max_connections: usize,
    /// Most simultaneous connections from one peer address.
    #[arg(long, default_value_t = ServeOptions::default().max_connections_per_peer)]
    max_connections_per_peer: usize,
    /// Seconds a new connection has to send its first request before it is closed.
    #[arg(long, value_name = "SECS",
          default_value_t = ServeOptions::default().first_request_timeout.as_secs())]
    first_request_timeout: u64,
    /// Seconds after its last move before a finished game is archived.
    #[arg(long, value_name = "SECS",
          default_value_t = ServeOptions::default().finished_expiry.as_secs())]
    finished_expiry: u64,
    /// Seconds without a join, engine seat or move before an unfinished game is archived.
    #[arg(long, value_name = "SECS",
          default_value_t = ServeOptions::default().abandoned_expiry.as_secs())]
    abandoned_expiry: u64,
}

impl ServeLimits {
    fn options(&self) -> Result<ServeOptions, CliError> {
        for (flag, value) in [
            ("--max-games", self.max_games as u64),
            ("--max-games-per-peer", self.max_games_per_peer as u64),
            ("--max-connections", self.max_connections as u64),
            (
                "--max-connections-per-peer",
                self.max_connections_per_peer as u64,
            ),
            ("--first-request-timeout", self.first_request_timeout),
            ("--finished-expiry", self.finished_expiry),
            ("--abandoned-expiry", self.abandoned_expiry),
        ] {
            if value == 0 {
                return Err(CliError::usage(format!("serve: {flag} must be at least 1")));
            }
        }
        Ok(ServeOptions {
            max_games: self.max_games,
            max_games_per_peer: self.max_games_per_peer,
            max_connections: self.max_connections,
            max_connections_per_peer: self.max_connections_per_peer,
            first_request_timeout: Duration::from_secs(self.first_request_timeout),
            finished_expiry: Duration::from_secs(self.finished_expiry),
            abandoned_expiry: Duration::from_secs(self.abandoned_expiry),
            ..ServeOptions::default()
        })
    }
}

pub fn serve(
    registry: &Registry,
    listen: &str,
    data: Option<&str>,
    limits: &ServeLimits,
) -> Result<(), CliError> {
    protocols::server::run_with_games(
        listen,
        data.map(Path::new),
        limits.options()?,
        registry.games().clone(),
    )
    .map_err(|e| CliError::usage(format!("serve: {e}")))
}

pub fn connect(options: ConnectOptions) -> Result<(), CliError> {
    protocols::server::connect(&options).map_err(|e| CliError::usage(format!("connect: {e}")))
}

/// A seat as `--seat` names it: `first` or `second`.
pub fn parse_seat(text: &str) -> Result<Player, String> {
    match text.to_ascii_lowercase().as_str() {
        "first" => Ok(Player::First),
        "second" => Ok(Player::Second),
        _ => Err(format!("bad seat '{text}': expected first or second")),
    }
}

/// Every game of `registry` on the board, the bundled ones and a user's own alike.
/// Only with the `web` feature (on by default), which brings the web stack (axum, tokio).
#[cfg(feature = "web")]
pub fn web(
    registry: &Registry,
    listen: &str,
    data: Option<&str>,
    open: bool,
) -> Result<(), CliError> {
    boardlab_web::run(listen, data.map(Path::new), open, registry.games().clone())
        .map_err(|e| CliError::usage(format!("web: {e}")))
}
