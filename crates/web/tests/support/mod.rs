//! A real board server on 127.0.0.1:0 for the tests, an HTTP client and a WebSocket
//! client speaking the page's JSON messages.

#![allow(dead_code)]

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use boardlab_web::{App, Host, Table};
use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper_util::{client::legacy::Client, rt::TokioExecutor};
use serde_json::{Value, json};
use tokio::{net::TcpStream, task::JoinHandle};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, tungstenite::Message};

/// The store of `data`: a server stopped just before may still hold the directory's
/// lock for a moment (its connections' tasks end after it), so a refusal is retried for
/// a few seconds. Notes of modes tightened are fine; a skipped file fails the test.
pub async fn open_store(data: Option<&Path>) -> Table {
    let mut tries = 0;
    loop {
        match Table::open(data) {
            Ok((store, notes)) => {
                assert!(!notes.iter().any(|n| n.contains("skipped")), "{notes:?}");
                return store;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && tries < 100 => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("store does not open: {e}"),
        }
    }
}

/// A running board server.
pub struct Board {
    pub addr: SocketAddr,
    /// The server's task, when it runs in this process.
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl Board {
    /// Starts a server keeping its games in `data` (none: in memory).
    pub async fn start(data: Option<&Path>) -> Board {
        Board::start_with(open_store(data).await).await
    }

    pub async fn start_with(store: Table) -> Board {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(boardlab_web::serve(listener, App::new(store)));
        Board {
            addr,
            task: Some(task),
        }
    }

    /// Starts the board onto `host`, a game table other doors may open too.
    pub async fn start_on(host: std::sync::Arc<Host>) -> Board {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(boardlab_web::serve(listener, App::on(host)));
        Board {
            addr,
            task: Some(task),
        }
    }

    /// A client of a board served elsewhere (another process) at `addr`.
    pub fn at(addr: SocketAddr) -> Board {
        Board { addr, task: None }
    }

    /// Stops accepting (open connections are closed by the caller).
    pub fn stop(self) {
        if let Some(task) = self.task {
            task.abort();
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `GET path`: status and body.
    pub async fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, "", Vec::new()).await
    }

    /// `POST path` with a JSON body.
    pub async fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self
            .request(
                "POST",
                path,
                "application/json",
                body.to_string().into_bytes(),
            )
            .await;
        (status, serde_json::from_str(&text).expect("JSON reply"))
    }

    /// `POST path` with a raw body.
    pub async fn post_raw(&self, path: &str, kind: &str, body: Vec<u8>) -> (u16, String) {
        self.request("POST", path, kind, body).await
    }

    async fn request(&self, method: &str, path: &str, kind: &str, body: Vec<u8>) -> (u16, String) {
        let headers: Vec<(&str, &str)> = if kind.is_empty() {
            Vec::new()
        } else {
            vec![("content-type", kind)]
        };
        self.request_with(method, path, &headers, body).await
    }

    /// A request with these headers: status and body.
    pub async fn request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Vec<u8>,
    ) -> (u16, String) {
        let client = Client::builder(TokioExecutor::new()).build_http::<Full<axum::body::Bytes>>();
        let mut req = axum::http::Request::builder()
            .method(method)
            .uri(self.url(path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = req
            .body(Full::new(axum::body::Bytes::from(body)))
            .expect("request");
        let resp = client.request(req).await.expect("HTTP answer");
        let status = resp.status().as_u16();
        let bytes = resp.into_body().collect().await.expect("body").to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Creates a game; the reply (id, spec, tokens).
    pub async fn create(&self, spec: &str, seats: [&str; 2]) -> Value {
        let (status, v) = self
            .post_json("/api/games", &json!({ "spec": spec, "seats": seats }))
            .await;
        assert_eq!(status, 200, "{v}");
        v
    }

    pub async fn socket(&self) -> Page {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", self.addr))
            .await
            .expect("websocket");
        Page { ws }
    }
}

/// One page's WebSocket.
pub struct Page {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Page {
    pub async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .expect("send");
    }

    pub async fn send_text(&mut self, t: &str) {
        self.ws
            .send(Message::Text(t.to_string().into()))
            .await
            .expect("send");
    }

    /// The next message of type `kind`, skipping others (panics after `secs`).
    pub async fn next_of(&mut self, kind: &str, secs: u64) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let msg = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("no '{kind}' message within {secs} s"))
                .expect("socket open")
                .expect("message");
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(&t).expect("JSON message");
                if v["type"] == kind {
                    return v;
                }
            }
        }
    }

    /// The next state whose move count is `n`.
    pub async fn state_with(&mut self, n: usize, secs: u64) -> Value {
        loop {
            let s = self.next_of("state", secs).await;
            if s["moves"].as_array().map(Vec::len) == Some(n) {
                return s;
            }
        }
    }

    pub async fn open(&mut self, game: u64, tokens: &[&str]) -> Value {
        self.send(json!({ "type": "open", "game": game, "tokens": tokens }))
            .await;
        self.next_of("state", 10).await
    }

    pub async fn play(&mut self, mv: &str) {
        self.send(json!({ "type": "move", "move": mv })).await;
    }
}

/// A fresh temporary directory.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("boardlab-web-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

pub fn tokens(created: &Value) -> Vec<String> {
    created["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect()
}

/// A board server on its own thread and runtime: stopping it ends every connection, as a
/// killed process would.
pub struct ThreadedBoard {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ThreadedBoard {
    /// Serves on `addr` (`127.0.0.1:0` for any port) with the games in `data`.
    pub fn start(addr: &str, data: &Path) -> ThreadedBoard {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let (addr, data) = (addr.to_string(), data.to_path_buf());
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async {
                let store = open_store(Some(&data)).await;
                let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
                addr_tx
                    .send(listener.local_addr().expect("addr"))
                    .expect("send addr");
                tokio::select! {
                    r = boardlab_web::serve(listener, App::new(store)) => r.expect("serve"),
                    _ = stop_rx => {}
                }
            });
            rt.shutdown_timeout(Duration::from_secs(2));
        });
        let addr = addr_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("server started");
        ThreadedBoard {
            addr,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Stops the server and closes every connection.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for ThreadedBoard {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The line protocol's door (`boardlab serve`) onto `host` on 127.0.0.1, on its own
/// thread: its address.
pub fn line_door(host: std::sync::Arc<Host>) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || protocols::server::serve_host(listener, host));
    addr
}

/// A player speaking the line protocol (as `boardlab connect` does): requests and their
/// replies, with the pushed lines kept in order.
pub struct LinePlayer {
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::net::tcp::OwnedReadHalf>>,
    out: tokio::net::tcp::OwnedWriteHalf,
    /// Pushed `update`/`notice` lines not yet taken.
    pub pushed: Vec<String>,
}

impl LinePlayer {
    pub async fn connect(addr: SocketAddr) -> LinePlayer {
        use tokio::io::AsyncBufReadExt;
        let stream = TcpStream::connect(addr).await.expect("connect");
        let (read, out) = stream.into_split();
        LinePlayer {
            lines: tokio::io::BufReader::new(read).lines(),
            out,
            pushed: Vec::new(),
        }
    }

    async fn line(&mut self, secs: u64) -> String {
        tokio::time::timeout(Duration::from_secs(secs), self.lines.next_line())
            .await
            .unwrap_or_else(|_| panic!("no line within {secs} s"))
            .expect("read")
            .expect("the server closed the connection")
    }

    /// Sends `request`; its reply (`ok ...` or `error ...`).
    pub async fn ask(&mut self, request: &str) -> String {
        use tokio::io::AsyncWriteExt;
        self.out
            .write_all(format!("{request}\n").as_bytes())
            .await
            .expect("write");
        loop {
            let line = self.line(10).await;
            if line.starts_with("ok ") || line.starts_with("error ") {
                return line;
            }
            self.pushed.push(line);
        }
    }

    /// The first pushed line starting with `prefix` (waiting up to `secs`); the pushes
    /// before it are dropped.
    pub async fn pushed_starting(&mut self, prefix: &str, secs: u64) -> String {
        if let Some(i) = self.pushed.iter().position(|l| l.starts_with(prefix)) {
            return self.pushed.drain(..=i).next_back().expect("line");
        }
        self.pushed.clear();
        loop {
            let line = self.line(secs).await;
            if line.starts_with(prefix) {
                return line;
            }
        }
    }
}
