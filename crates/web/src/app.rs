//! The HTTP and WebSocket side: the embedded page, the JSON API and one WebSocket per
//! open page, on axum/tokio.
//!
//! # HTTP
//! - `GET /`, `/app.js`, `/app.css`: the page (embedded in the binary);
//! - `GET /api/games`: the game table (every game and spec key with its range);
//! - `POST /api/games` `{"spec": "gomoku:size=15", "seats": ["human", "engine:1000"]}`:
//!   a new game; a seat is `human`, `free` (taken later: `join`), `random`, `baseline`
//!   or `engine:MS`; an optional `"time"` is the time control (`5m+3s`, `30s/move`,
//!   `none`: `boardlab_host::TimeControl`). The reply has the id and the human seats'
//!   tokens;
//! - `POST /api/load` with a save file as the body: a new game (both seats people), with
//!   the file's clocks if it has them (`boardlab_host::Table::load`);
//! - `GET /api/lobby`: every game as anyone may see it, without tokens (seats, moves,
//!   result, spectators: `boardlab_host::table::LobbyEntry`);
//! - `POST /api/games/ID/join` `{"seat": 0 or 1}`: takes a live game's free seat; the
//!   reply (`{"id", "seat", "token"}`) is the only place its token is given;
//! - `GET /api/games/ID`: the game's state as a watcher sees it;
//! - `GET /api/games/ID/save`: the save file (never with tokens);
//! - `POST /api/games/ID/pick` `{"squares": [3, 63], "ply": 16}`: the legal move those
//!   clicked squares name after `ply` moves ([`crate::pick`]: `{"text", "squares"}`, the
//!   text to send as the move), or the reason none does; the page never writes notation;
//! - `GET /api/games/ID/sgf`: a gomoku game's SGF record (`boardlab_games::records`);
//! - `POST /api/sgf` with an SGF record as the body: a new gomoku game of its main line
//!   (both seats people), answered as `/api/load`.
//!
//! Errors are `{"error": "..."}` with status 400 (404 for a missing game).
//!
//! # WebSocket `/ws`
//! The page sends JSON messages `{"type": ...}`: `open` (`game`, `tokens`), `move`
//! (`move`), `undo` (a takeback: at once at one screen or against the engine, else
//! asked of the opponent), `redo`, `resign`, `draw` (a draw offer), `answer` (`accept`:
//! the answer to the opponent's takeback or draw offer), `help` (`on`: this player's
//! consent to engine help between two remote people), `pause` (`on`: the creator, who
//! opened the game with the creator's token, pauses or resumes its engines), `rematch`
//! (a player of a finished game: a new game, same spec, seats swapped; between two
//! remote people an offer the opponent accepts with `answer` or another `rematch`; each
//! player's `state` of the finished game then names it in `rematch` with their own
//! tokens), `hint`,
//! `analyse`, `view` (`ply`). Hints and analyses follow the host's fair-play rule. The server
//! answers with `state` (after every change of the followed game), `error` (`message`;
//! nothing changed), `thinking` (`seat`, `progress`: depth, score, nodes, pv), `engine`
//! (`seat`, `answer`: move, depth, score, pv), `hint` (`answer`), `view` (`ply`, `view`),
//! `analysis` (`ply`, `score`, `done`).
//!
//! # Engines
//! Engine moves, hints and analyses think on the host's engine queue
//! ([`boardlab_host::pool`], shared with every other door of the process), at most
//! [`ENGINE_THREADS`] at once, never on the async executor's threads. The threads go
//! fairly: people waiting for an engine first, round robin between games, and games
//! between engines never take the last thread.

use std::{
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
};

use axum::{
    Json, Router,
    extract::{
        DefaultBodyLimit, Path as UrlPath, State,
        ws::{Message, WebSocket, WebSocketUpgrade},
    },
    http::{StatusCode, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use boardlab_games::{Registry, records};
use boardlab_host::{
    Host, HostError, Level, Table, TimeControl,
    game::{Answer, Progress, Think},
    pool::Class,
    table::{Created, EndKind, Event, SeatChoice, SeatView, Status, Watching},
};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};

use crate::{
    options::games,
    request::{Request, Sender, apply, decode},
    state::{GameState, board_at, game_state},
    view::BoardView,
};

/// Most engines thinking at once (the host's limit).
pub use boardlab_host::limits::ENGINE_THREADS;
/// Most open WebSockets (pages) at once (the host's limit of connections).
pub use boardlab_host::limits::MAX_CONNECTIONS;
/// Longest WebSocket message and JSON request body (bytes): the host's longest request.
pub const MAX_MESSAGE_BYTES: usize = boardlab_host::limits::MAX_REQUEST_BYTES;
/// Longest uploaded save file.
pub const MAX_SAVE_BYTES: usize = board_core::savefile::MAX_BYTES;
/// Total think time of an analysis (ms), shared out over the positions: the host's.
pub use boardlab_host::limits::ANALYSIS_MS;
/// Think time of a hint (ms): the host's.
pub use boardlab_host::limits::HINT_MS;
/// Messages waiting to be written to one page before it is dropped.
const OUTBOX: usize = 256;
/// Events of the followed game a page may fall behind before it is sent the whole state
/// again.
const EVENT_QUEUE: usize = 64;

/// The page, embedded.
const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");

/// Bytes of the page's three files (HTML, JS, CSS).
pub fn page_weight() -> usize {
    INDEX_HTML.len() + APP_JS.len() + APP_CSS.len()
}

/// The state shared by every request.
pub struct App {
    /// The game table and engine queue, maybe shared with other doors.
    host: Arc<Host>,
    sockets: AtomicUsize,
}

/// The shared state handle.
pub type Shared = Arc<App>;

impl App {
    /// The browser door on a host of its own around `table`.
    pub fn new(table: Table) -> Shared {
        App::on(Host::new(table))
    }

    /// The browser door onto `host`, which other doors (the line protocol) may open too.
    pub fn on(host: Arc<Host>) -> Shared {
        Arc::new(App {
            host,
            sockets: AtomicUsize::new(0),
        })
    }

    /// The host this door opens onto.
    pub fn host(&self) -> &Arc<Host> {
        &self.host
    }
}

/// A join error of a blocking task, as the host's error for the page.
fn internal(e: tokio::task::JoinError) -> String {
    format!("internal error: {e}")
}

/// Runs `f` on the table off the async threads (it may write and sync a save file).
async fn with_table<T: Send + 'static>(
    app: &Shared,
    f: impl FnOnce(&mut Table) -> T + Send + 'static,
) -> Result<T, String> {
    let app = Arc::clone(app);
    tokio::task::spawn_blocking(move || f(&mut app.host.table()))
        .await
        .map_err(internal)
}

/// Thinks `job` for game `game` on the host's engine queue (people first, round robin
/// between games), on a blocking thread.
async fn think_on_pool(app: &Shared, game: u64, job: Box<dyn Think>) -> Result<Answer, String> {
    let app = Arc::clone(app);
    tokio::task::spawn_blocking(move || app.host.think(Class::Person, game, job, &mut |_| {}))
        .await
        .map_err(internal)?
}

/// The routes.
pub fn router(app: Shared) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/app.css",
            get(|| async { page(APP_CSS, "text/css; charset=utf-8") }),
        )
        .route("/api/games", get(list_games).post(create))
        .route(
            "/api/load",
            post(load).layer(DefaultBodyLimit::max(MAX_SAVE_BYTES + 1)),
        )
        .route("/api/lobby", get(lobby))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/save", get(download))
        .route("/api/games/{id}/pick", post(pick_squares))
        .route("/api/games/{id}/sgf", get(download_sgf))
        .route(
            "/api/sgf",
            post(load_sgf).layer(DefaultBodyLimit::max(MAX_SAVE_BYTES + 1)),
        )
        .route("/ws", get(socket))
        .layer(DefaultBodyLimit::max(MAX_MESSAGE_BYTES))
        .layer(axum::middleware::from_fn(same_origin))
        .with_state(app)
}

/// Refuses requests that another site's page makes from a visitor's browser (a POST that
/// would create games, a WebSocket): their `Origin` is not this server. Requests without
/// `Origin` (scripts, curl) pass.
async fn same_origin(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let headers = req.headers();
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let changes = req.method() != axum::http::Method::GET || req.uri().path() == "/ws";
    if let (true, Some(origin)) = (changes, origin) {
        let same = host.is_some_and(|h| {
            origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                == Some(h)
        });
        if !same {
            return error(
                StatusCode::FORBIDDEN,
                "requests from another site's page are refused".into(),
            );
        }
    }
    next.run(req).await
}

fn page(body: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

fn error(status: StatusCode, message: String) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

fn bad(message: String) -> Response {
    error(StatusCode::BAD_REQUEST, message)
}

/// A refusal of the host: 404 for a game that is not there, else 400.
fn refused(e: HostError) -> Response {
    let status = match e {
        HostError::NoGame(_) => StatusCode::NOT_FOUND,
        _ => StatusCode::BAD_REQUEST,
    };
    error(status, e.to_string())
}

async fn list_games(State(app): State<Shared>) -> Response {
    // Cloned out (it shares its entries) so that the store's lock is not held meanwhile.
    let registry = app.host.table().registry().clone();
    Json(games(&registry)).into_response()
}

/// A new game's request.
#[derive(Deserialize)]
struct NewGame {
    spec: String,
    seats: [String; 2],
    /// The time control (`5m+3s`, `30s/move`); absent, empty or `none`: no clocks.
    #[serde(default)]
    time: Option<String>,
}

/// Reads a seat choice: `human`, `free` (a person takes it later through the line
/// protocol's `join`), `random`, `baseline`, `engine:MS`.
fn seat_choice(s: &str) -> Result<SeatChoice, String> {
    let short: String = s.chars().take(24).collect();
    match s {
        "human" => Ok(SeatChoice::Human),
        "free" => Ok(SeatChoice::Free),
        "random" => Ok(SeatChoice::Engine(Level::Random)),
        "baseline" => Ok(SeatChoice::Engine(Level::Baseline)),
        _ => s
            .strip_prefix("engine:")
            .and_then(Level::from_word)
            .filter(|l| matches!(l, Level::Engine(_)))
            .map(SeatChoice::Engine)
            .ok_or_else(|| {
                let r = boardlab_host::limits::ENGINE_MS;
                format!(
                    "bad seat '{short}': expected human, free, random, baseline or \
                     engine:MS with MS from {} to {}",
                    r.start(),
                    r.end()
                )
            }),
    }
}

async fn create(
    State(app): State<Shared>,
    body: Result<Json<NewGame>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let Json(req) = match body {
        Ok(b) => b,
        Err(e) => {
            // Too large stays 413; anything else malformed is a plain 400.
            let status = match e.status() {
                StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
                _ => StatusCode::BAD_REQUEST,
            };
            return error(status, format!("bad request: {}", e.body_text()));
        }
    };
    let seats = match (seat_choice(&req.seats[0]), seat_choice(&req.seats[1])) {
        (Ok(a), Ok(b)) => [a, b],
        (Err(e), _) | (_, Err(e)) => return bad(e),
    };
    let time = match TimeControl::parse_choice(req.time.as_deref().unwrap_or("")) {
        Ok(time) => time,
        Err(e) => return bad(e.to_string()),
    };
    let spec = req.spec;
    match with_table(&app, move |s| s.create_timed(&spec, seats, None, time)).await {
        Ok(Ok(created)) => {
            app.host.kick(created.id);
            Json(created).into_response()
        }
        Ok(Err(e)) => refused(e),
        Err(e) => bad(e),
    }
}

/// Which game of a records file to load (`?game=N`, 1-based).
#[derive(Deserialize)]
struct LoadQuery {
    game: Option<usize>,
}

/// A loaded game: the new game, and how many games the file holds (a records file of
/// `selfplay --records` holds many).
#[derive(Serialize)]
struct Loaded {
    #[serde(flatten)]
    created: Created,
    games_in_file: usize,
    game_in_file: usize,
}

async fn load(
    State(app): State<Shared>,
    query: Result<axum::extract::Query<LoadQuery>, axum::extract::rejection::QueryRejection>,
    body: axum::body::Bytes,
) -> Response {
    let Ok(axum::extract::Query(query)) = query else {
        return bad("bad query: expected ?game=N".into());
    };
    let Ok(text) = String::from_utf8(body.to_vec()) else {
        return bad("the save file is not UTF-8 text".into());
    };
    // A records file holds one save file per game; a plain save file is one game.
    let mut games = board_core::savefile::split_records(&text);
    if games.len() <= 1 {
        games = vec![text];
    }
    let n = games.len();
    let k = query.game.unwrap_or(1);
    if k == 0 || k > n {
        return bad(format!("game {k} is not in this file: it holds {n} games"));
    }
    let text = games.swap_remove(k - 1);
    match with_table(&app, move |s| s.load(&text, [SeatChoice::Human; 2])).await {
        Ok(Ok(created)) => Json(Loaded {
            created,
            games_in_file: n,
            game_in_file: k,
        })
        .into_response(),
        Ok(Err(e)) => refused(e),
        Err(e) => bad(e),
    }
}

/// Every game as anyone may see it (no token): seats, moves, result, spectators.
async fn lobby(State(app): State<Shared>) -> Response {
    Json(app.host.table().lobby()).into_response()
}

/// A request to take a game's open seat from the lobby.
#[derive(Deserialize)]
struct JoinRequest {
    /// 0 the first seat, 1 the second.
    seat: u8,
}

/// The token of a seat taken from the lobby.
#[derive(Serialize)]
struct Joined {
    id: u64,
    seat: u8,
    token: String,
}

/// Takes the open (free) seat of a live game: its new token, for this caller only.
async fn join(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<JoinRequest>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let Ok(id) = id.parse::<u64>() else {
        return bad("the game id must be a number".into());
    };
    let seat = match body {
        Ok(Json(JoinRequest { seat: 0 })) => board_core::Player::First,
        Ok(Json(JoinRequest { seat: 1 })) => board_core::Player::Second,
        _ => return bad("bad request: expected {\"seat\": 0 or 1}".into()),
    };
    let joined = with_table(&app, move |t| {
        // A finished game's free seat is nobody's to take.
        if let Some(e) = t.state(id, [false; 2])?.ended {
            return Err(HostError::Over(e.reason));
        }
        t.join(id, seat)
    })
    .await;
    match joined {
        Ok(Ok(token)) => {
            app.host.kick(id);
            Json(Joined {
                id,
                seat: seat.index() as u8,
                token,
            })
            .into_response()
        }
        Ok(Err(e)) => refused(e),
        Err(e) => bad(e),
    }
}

async fn show(State(app): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    let Ok(id) = id.parse::<u64>() else {
        return bad("the game id must be a number".into());
    };
    let state = game_state(&app.host.table(), id, [false; 2], false);
    match state {
        Ok(state) => Json(state).into_response(),
        Err(e) => refused(e),
    }
}

async fn download(State(app): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    let Ok(id) = id.parse::<u64>() else {
        return bad("the game id must be a number".into());
    };
    let saved = {
        let table = app.host.table();
        table
            .save_text(id)
            .and_then(|t| Ok((t, table.state(id, [false; 2])?.game)))
    };
    let (text, name) = match saved {
        Ok((t, game)) => (t, format!("{game}-{id}.save")),
        Err(e) => return refused(e),
    };
    (
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response()
}

/// The SGF game information of a game's state: the seats' players (`PB`, `PW`) and the
/// end its players or a clock made (`RE[B+R]`, `RE[W+T]`, `RE[0]`).
fn sgf_info(st: &Status) -> records::GameInfo {
    let name = |seat: &SeatView| match seat.kind {
        "free" => None,
        "engine" => Some(format!("boardlab {}", seat.label)),
        _ => Some(seat.label.clone()),
    };
    let end = st.ended.as_ref().and_then(|e| match e.how {
        EndKind::Rules => None,
        EndKind::Resigned(p) => Some(records::End::Resigned(p)),
        EndKind::Time(p) => Some(records::End::Time(p)),
        EndKind::Agreed => Some(records::End::Agreed),
    });
    records::GameInfo {
        black: name(&st.seats[0]),
        white: name(&st.seats[1]),
        end,
    }
}

async fn download_sgf(State(app): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    let Ok(id) = id.parse::<u64>() else {
        return bad("the game id must be a number".into());
    };
    let (text, info) = {
        let table = app.host.table();
        (
            table.save_text(id),
            table.state(id, [false; 2]).map(|st| sgf_info(&st)),
        )
    };
    let sgf = match text
        .and_then(|t| Ok((t, info?)))
        .map(|(t, info)| records::sgf_from_save_with(&t, &info))
    {
        Ok(Ok(sgf)) => sgf,
        Ok(Err(e)) => return bad(e.to_string()),
        Err(e) => return refused(e),
    };
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-go-sgf; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"gomoku-{id}.sgf\""),
            ),
        ],
        sgf,
    )
        .into_response()
}

async fn load_sgf(State(app): State<Shared>, body: axum::body::Bytes) -> Response {
    let Ok(text) = String::from_utf8(body.to_vec()) else {
        return bad("the SGF record is not UTF-8 text".into());
    };
    let save = match boardlab_games::records::save_from_sgf(&text) {
        Ok(save) => save,
        Err(e) => return bad(format!("not a gomoku record: {e}")),
    };
    match with_table(&app, move |s| s.load(&save, [SeatChoice::Human; 2])).await {
        Ok(Ok(created)) => Json(Loaded {
            created,
            games_in_file: 1,
            game_in_file: 1,
        })
        .into_response(),
        Ok(Err(e)) => refused(e),
        Err(e) => bad(e),
    }
}

/// A `pick` request: squares clicked on the position after `ply` moves.
#[derive(Deserialize)]
struct PickRequest {
    squares: Vec<u16>,
    ply: usize,
}

async fn pick_squares(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    body: Result<Json<PickRequest>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let Ok(id) = id.parse::<u64>() else {
        return bad("the game id must be a number".into());
    };
    let Ok(Json(req)) = body else {
        return bad("bad request: expected {\"squares\": [...], \"ply\": N}".into());
    };
    if req.squares.is_empty() || req.squares.len() > crate::pick::MAX_PICK_SQUARES {
        return bad(crate::pick::PickError::Count(req.squares.len()).to_string());
    }
    // A copy of the game replayed from its save file, so the table's lock is not held
    // while the legal moves are listed (Connect6 has tens of thousands of pairs).
    let (text, registry) = {
        let table = app.host.table();
        (table.save_text(id), table.registry().clone())
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => return refused(e),
    };
    let picked = tokio::task::spawn_blocking(move || {
        let game = registry.load(&text).map_err(|e| e.to_string())?;
        if game.ply_count() != req.ply {
            return Err(format!(
                "the position changed: {} moves now, not {}",
                game.ply_count(),
                req.ply
            ));
        }
        crate::pick::pick(&*game, &req.squares).map_err(|e| e.to_string())
    })
    .await;
    match picked {
        Ok(Ok(info)) => Json(info).into_response(),
        Ok(Err(e)) => bad(e),
        Err(e) => bad(format!("internal error: {e}")),
    }
}

/// A message to a page.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ServerMsg {
    State(Box<GameState>),
    Error { message: String },
    Thinking { seat: u8, progress: Progress },
    Engine { seat: u8, answer: Answer },
    Hint { answer: Answer },
    View { ply: usize, view: BoardView },
    Analysis { ply: usize, score: i32, done: bool },
}

/// Counts an open WebSocket; the count drops with it.
struct SocketSlot(Shared);

impl Drop for SocketSlot {
    fn drop(&mut self) {
        self.0.sockets.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn socket(State(app): State<Shared>, ws: WebSocketUpgrade) -> Response {
    if app.sockets.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
        app.sockets.fetch_sub(1, Ordering::SeqCst);
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("too many connections (at most {MAX_CONNECTIONS})"),
        );
    }
    let slot = SocketSlot(Arc::clone(&app));
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |ws| async move {
            let _slot = slot;
            connection(ws, app).await;
        })
}

/// What one page follows.
struct Follow {
    game: u64,
    held: [bool; 2],
    /// The page showed the creator's token.
    owner: bool,
    events: broadcast::Receiver<Event>,
    /// A page holding no seat is counted among the game's spectators while it follows.
    _watching: Option<Watching>,
}

/// The page's own queue of the followed game's events: the host's follower callback
/// hands each event over without blocking; a page that falls [`EVENT_QUEUE`] events
/// behind is sent the whole state instead. The callback ends when the page follows
/// another game or closes.
fn follow_events(table: &Table, id: u64) -> Result<broadcast::Receiver<Event>, HostError> {
    let (tx, rx) = broadcast::channel(EVENT_QUEUE);
    table.subscribe(
        id,
        Box::new(move |e| {
            if tx.receiver_count() == 0 {
                return false;
            }
            // Full: the oldest event goes, and the page hears it lagged (a resync).
            let _ = tx.send(e.clone());
            true
        }),
    )?;
    Ok(rx)
}

/// One open page: reads its messages, pushes the followed game's changes.
async fn connection(ws: WebSocket, app: Shared) {
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = mpsc::channel::<ServerMsg>(OUTBOX);
    let mut follow: Option<Follow> = None;
    // One hint or analysis at a time per page.
    let busy = Arc::new(std::sync::atomic::AtomicBool::new(false));
    loop {
        let event = async {
            match follow.as_mut() {
                Some(f) => Some(f.events.recv().await),
                None => std::future::pending().await,
            }
        };
        let out = tokio::select! {
            msg = stream.next() => match msg {
                Some(Ok(Message::Text(text))) => {
                    handle(&app, &mut follow, &tx, &busy, text.as_str()).await
                }
                Some(Ok(Message::Binary(_))) => vec![ServerMsg::Error {
                    message: "messages must be JSON text".into(),
                }],
                Some(Ok(_)) => Vec::new(),
                Some(Err(_)) | None => break,
            },
            Some(e) = event => match e {
                Ok(Event::Changed) | Err(broadcast::error::RecvError::Lagged(_)) => {
                    follow.as_ref().map(|f| state_msg(&app, f)).into_iter().collect()
                }
                Ok(Event::Thinking { seat, progress }) => vec![ServerMsg::Thinking { seat: seat.index() as u8, progress }],
                Ok(Event::EngineMoved { seat, answer }) => vec![ServerMsg::Engine { seat: seat.index() as u8, answer }],
                Ok(Event::EngineFailed { seat, message }) => vec![ServerMsg::Error {
                    message: format!("the engine in seat {} could not move: {message}", seat.index() + 1),
                }],
                Ok(Event::Expired) => vec![ServerMsg::Error {
                    message: "the game expired: it is archived and closed".into(),
                }],
                Ok(Event::Notice(message)) => vec![ServerMsg::Error { message }],
                // The state that follows each of these (`Changed`) carries it.
                Ok(
                    Event::Moved { .. }
                    | Event::TakenBack { .. }
                    | Event::Resigned { .. }
                    | Event::Drawn
                    | Event::Flagged { .. }
                    | Event::Rematched { .. }
                    | Event::Offered(_)
                    | Event::Declined(_),
                )
                | Err(broadcast::error::RecvError::Closed) => Vec::new(),
            },
            Some(m) = rx.recv() => vec![m],
        };
        for m in out {
            let Ok(text) = serde_json::to_string(&m) else {
                continue;
            };
            if sink.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
    }
}

fn state_msg(app: &Shared, f: &Follow) -> ServerMsg {
    let state = game_state(&app.host.table(), f.game, f.held, f.owner);
    match state {
        Ok(s) => ServerMsg::State(Box::new(s)),
        Err(e) => ServerMsg::Error {
            message: e.to_string(),
        },
    }
}

fn err(message: impl Into<String>) -> Vec<ServerMsg> {
    vec![ServerMsg::Error {
        message: message.into(),
    }]
}

/// Answers one message of a page: the messages to send it now.
async fn handle(
    app: &Shared,
    follow: &mut Option<Follow>,
    tx: &mpsc::Sender<ServerMsg>,
    busy: &Arc<std::sync::atomic::AtomicBool>,
    text: &str,
) -> Vec<ServerMsg> {
    let msg = match decode(text) {
        Ok(m) => m,
        Err(e) => return err(e),
    };
    if let Request::Open { game, tokens } = msg {
        let opened = {
            let table = app.host.table();
            table.seats_of(game, &tokens).and_then(|held| {
                let owner = table.owns(game, &tokens);
                let watching = if held == [false; 2] && !owner {
                    Some(table.watch(game)?)
                } else {
                    None
                };
                Ok((held, owner, follow_events(&table, game)?, watching))
            })
        };
        return match opened {
            Ok((held, owner, events, watching)) => {
                let f = Follow {
                    game,
                    held,
                    owner,
                    events,
                    _watching: watching,
                };
                let state = state_msg(app, &f);
                *follow = Some(f);
                vec![state]
            }
            Err(e) => err(e.to_string()),
        };
    }
    let Some(f) = follow.as_ref() else {
        return err("open a game first");
    };
    let (id, held) = (f.game, f.held);
    let from = Sender {
        game: f.game,
        held: f.held,
        owner: f.owner,
    };
    let done = match msg {
        action @ (Request::Move { .. }
        | Request::Undo
        | Request::Redo
        | Request::Resign
        | Request::Draw
        | Request::Answer { .. }
        | Request::Help { .. }
        | Request::Pause { .. }) => with_table(app, move |s| apply(s, from, &action)).await,
        Request::Rematch => {
            // The new game's engine (if it moves first) starts now; the players hear of
            // the rematch in the finished game's state, each with their own seat. Between
            // two remote people it is offered first (no engine to start then).
            let made = with_table(app, move |s| s.rematch(id, held)).await;
            return match made {
                Ok(Ok(new)) => {
                    if let Some(new) = new {
                        app.host.kick(new);
                    }
                    Vec::new()
                }
                Ok(Err(e)) => err(e.to_string()),
                Err(e) => err(e),
            };
        }
        Request::Open { .. } => return Vec::new(),
        Request::View { ply } => {
            let board = board_at(&app.host.table(), id, ply);
            return match board {
                Ok(view) => vec![ServerMsg::View { ply, view }],
                Err(e) => err(e.to_string()),
            };
        }
        Request::Hint => {
            if busy.swap(true, Ordering::SeqCst) {
                return err("the engine is already working for this page");
            }
            let job = app.host.table().hint_job(id, held, HINT_MS);
            match job {
                Ok(job) => {
                    let (app, tx, busy) = (Arc::clone(app), tx.clone(), Arc::clone(busy));
                    tokio::spawn(async move {
                        let answer = think_on_pool(&app, id, job).await;
                        busy.store(false, Ordering::SeqCst);
                        let m = match answer {
                            Ok(answer) => ServerMsg::Hint { answer },
                            Err(e) => ServerMsg::Error {
                                message: format!("no hint: {e}"),
                            },
                        };
                        let _ = tx.send(m).await;
                    });
                    return Vec::new();
                }
                Err(e) => {
                    busy.store(false, Ordering::SeqCst);
                    return err(e.to_string());
                }
            }
        }
        Request::Analyse => {
            if busy.swap(true, Ordering::SeqCst) {
                return err("the engine is already working for this page");
            }
            let jobs = {
                let table = app.host.table();
                let plies = table.state(id, [false; 2]).map(|s| s.moves.len());
                let ms = plies.map_or(20, boardlab_host::limits::analysis_ms_per_position);
                table.analysis_jobs(id, held, ms)
            };
            match jobs {
                Ok(jobs) => {
                    let (app, tx, busy) = (Arc::clone(app), tx.clone(), Arc::clone(busy));
                    tokio::spawn(async move {
                        let n = jobs.len();
                        for (i, (ply, job)) in jobs.into_iter().enumerate() {
                            let m = match think_on_pool(&app, id, job).await {
                                Ok(answer) => ServerMsg::Analysis {
                                    ply,
                                    score: answer.score.map_or(0, |s| s.first),
                                    done: i + 1 == n,
                                },
                                Err(e) => ServerMsg::Error {
                                    message: format!("no analysis of ply {ply}: {e}"),
                                },
                            };
                            if tx.send(m).await.is_err() {
                                break;
                            }
                        }
                        busy.store(false, Ordering::SeqCst);
                    });
                    return Vec::new();
                }
                Err(e) => {
                    busy.store(false, Ordering::SeqCst);
                    return err(e.to_string());
                }
            }
        }
    };
    match done {
        Ok(Some(Ok(()))) => {
            app.host.kick(id);
            // The change reaches this page too, through the game's events.
            Vec::new()
        }
        Ok(Some(Err(e))) => err(e.to_string()),
        Ok(None) => err("not an action on the game"),
        Err(e) => err(e),
    }
}

/// Serves the board on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, app: Shared) -> std::io::Result<()> {
    app.host.start_engines();
    axum::serve(crate::listener::BoundedListener::new(listener), router(app)).await
}

/// Serves the board onto `host` (a game table other doors may share) on the bound
/// `listener` until the process ends: blocks the calling thread, on a tokio runtime of
/// its own.
pub fn serve_blocking(listener: std::net::TcpListener, host: Arc<Host>) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        serve(listener, App::on(host)).await
    })
}

/// `boardlab web`: binds `listen`, restores the games in `data`, prints the URL, opens a
/// browser if `open`, and serves the games of `registry` until killed.
pub fn run(
    listen: &str,
    data: Option<&Path>,
    open: bool,
    registry: Registry,
) -> std::io::Result<()> {
    let (table, warnings) = Table::open_with(data, registry)?;
    for w in warnings {
        eprintln!("web: skipped {w}");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen).await?;
        let addr = listener.local_addr()?;
        let url = format!("http://{addr}/");
        println!("board at {url}");
        if !addr.ip().is_loopback() {
            eprintln!(
                "web: listening on {addr}, not loopback: anyone who can reach it can create \
                 games and watch them (see docs/web.md)"
            );
        }
        if open {
            open_browser(&url);
        }
        serve(listener, App::new(table)).await
    })
}

/// Asks the desktop to open `url` (best effort: the URL is printed anyway).
fn open_browser(url: &str) {
    let launched = if cfg!(target_os = "macos") {
        std::process::Command::new("open").arg(url).spawn()
    } else if cfg!(target_os = "windows") {
        std::process::Command::new("cmd")
            .args(["/C", "start", "", url])
            .spawn()
    } else {
        std::process::Command::new("xdg-open").arg(url).spawn()
    };
    if let Err(e) = launched {
        eprintln!("web: could not open a browser ({e}): open {url} yourself");
    }
}
