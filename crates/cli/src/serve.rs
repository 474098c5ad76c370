//! `boardlab serve` / `boardlab connect`: the TCP game server and its terminal client;
//! `boardlab web`: the board in the browser.

use std::{path::Path, time::Duration};

use ::play::connect::ConnectOptions;
use board_core::Player;
use clap::Args;
use protocols::server::ServeOptions;

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
    web: Option<&str>,
    data: Option<&str>,
    limits: &ServeLimits,
) -> Result<(), CliError> {
    let usage = |e: std::io::Error| CliError::usage(format!("serve: {e}"));
    let Some(web) = web else {
        return protocols::server::run_with_games(
            listen,
            data.map(Path::new),
            limits.options()?,
            registry.detached(),
        )
        .map_err(usage);
    };
    serve_both(registry, listen, web, data, limits)
}

/// Both doors onto one game table in this process: the line protocol on `listen`, the
/// browser board on `web`; runs until one of them fails.
#[cfg(feature = "web")]
fn serve_both(
    registry: &Registry,
    listen: &str,
    web: &str,
    data: Option<&str>,
    limits: &ServeLimits,
) -> Result<(), CliError> {
    use std::net::TcpListener;

    let usage = |e: std::io::Error| CliError::usage(format!("serve: {e}"));
    let (table, notes) = boardlab_web::Table::open_with_options(
        data.map(Path::new),
        registry.detached(),
        limits.options()?,
    )
    .map_err(usage)?;
    for note in notes {
        eprintln!("serve: {note}");
    }
    let host = boardlab_web::Host::new(table);
    let line = TcpListener::bind(listen).map_err(usage)?;
    let board = TcpListener::bind(web).map_err(usage)?;
    let board_addr = board.local_addr().map_err(usage)?;
    println!("listening {}", line.local_addr().map_err(usage)?);
    println!("board at http://{board_addr}/");
    if !board_addr.ip().is_loopback() {
        eprintln!(
            "serve: the board listens on {board_addr}, not loopback: anyone who can reach it \
             can create games and watch them (see docs/web.md)"
        );
    }
    let (done, first_end) = std::sync::mpsc::channel();
    let (web_host, web_done) = (std::sync::Arc::clone(&host), done.clone());
    std::thread::Builder::new()
        .name("web".into())
        .spawn(move || {
            let _ = web_done.send(boardlab_web::serve_blocking(board, web_host));
        })
        .map_err(usage)?;
    std::thread::Builder::new()
        .name("line-protocol".into())
        .spawn(move || {
            let _ = done.send(protocols::server::serve_host(line, host));
        })
        .map_err(usage)?;
    match first_end.recv() {
        Ok(result) => result.map_err(usage),
        Err(_) => Err(CliError::usage("serve: both doors stopped".to_string())),
    }
}

/// Without the `web` feature there is no browser door to open.
#[cfg(not(feature = "web"))]
fn serve_both(
    _registry: &Registry,
    _listen: &str,
    _web: &str,
    _data: Option<&str>,
    _limits: &ServeLimits,
) -> Result<(), CliError> {
    Err(CliError::usage(
        "serve: --web needs the `web` feature (the browser board)".to_string(),
    ))
}

pub fn connect(options: ConnectOptions) -> Result<(), CliError> {
    ::play::connect::connect(&options).map_err(|e| CliError::usage(format!("connect: {e}")))
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
    boardlab_web::run(listen, data.map(Path::new), open, registry.detached())
        .map_err(|e| CliError::usage(format!("web: {e}")))
}
