//! A TCP listener that holds at most [`MAX_HTTP_CONNECTIONS`] connections at once, and
//! where idle connections cannot lock a new page load out:
//!
//! - a connection that has not finished the headers of its first request within the
//!   host's first-request timeout ([`FIRST_REQUEST_TIMEOUT`]) is closed;
//! - when every slot is taken, a new connection takes the slot of the plain HTTP
//!   connection that has been silent longest (one that never sent a whole request, or a
//!   kept-alive one between requests: closing it loses nothing, a browser reconnects);
//!   WebSockets (pages following a game) are never closed for it. Only when every slot
//!   is a WebSocket does a new connection wait in the kernel's backlog until one closes.

use std::{
    io,
    net::SocketAddr,
    pin::Pin,
    sync::{
        Arc, Mutex, Weak,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll, Waker},
    time::Duration,
};

pub use boardlab_host::limits::FIRST_REQUEST_TIMEOUT;
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::{OwnedSemaphorePermit, Semaphore},
    time::{Instant, Sleep},
};

/// Most HTTP connections (pages' WebSockets included) open at once.
pub const MAX_HTTP_CONNECTIONS: usize = 2 * boardlab_host::limits::MAX_CONNECTIONS;
/// Bytes of a connection's first request searched for its end and an upgrade to a
/// WebSocket; a first request with longer headers is refused by the HTTP layer anyway.
const FIRST_REQUEST_SCAN: usize = 16 << 10;

/// What the listener knows of one open connection.
struct Meta {
    /// When the connection last received bytes.
    last_read: Mutex<Instant>,
    /// Its first request asked for a WebSocket: never evicted.
    websocket: AtomicBool,
    /// The listener closed it to make room.
    evicted: AtomicBool,
    /// Wakes its reader so it sees `evicted`.
    waker: Mutex<Option<Waker>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// [`TcpListener`] with a bound on open connections that idle ones cannot hold.
pub struct BoundedListener {
    inner: TcpListener,
    slots: Arc<Semaphore>,
    open: Vec<Weak<Meta>>,
    first_request_timeout: Duration,
}

impl BoundedListener {
    /// Wraps `inner`, allowing at most [`MAX_HTTP_CONNECTIONS`] connections open at once,
    /// each given [`FIRST_REQUEST_TIMEOUT`] for its first request.
    pub fn new(inner: TcpListener) -> BoundedListener {
        BoundedListener::with_first_request_timeout(inner, FIRST_REQUEST_TIMEOUT)
    }

    /// [`BoundedListener::new`] with another time for a connection's first request.
    pub fn with_first_request_timeout(inner: TcpListener, timeout: Duration) -> BoundedListener {
        BoundedListener {
            inner,
            slots: Arc::new(Semaphore::new(MAX_HTTP_CONNECTIONS)),
            open: Vec::new(),
            first_request_timeout: timeout,
        }
    }

    /// Closes the plain HTTP connection silent longest; `false` if there is none (every
    /// open connection is a WebSocket).
    fn evict_one(&mut self) -> bool {
        self.open.retain(|m| m.strong_count() > 0);
        let oldest = self
            .open
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|m| !m.websocket.load(Ordering::SeqCst) && !m.evicted.load(Ordering::SeqCst))
            .min_by_key(|m| *lock(&m.last_read));
        let Some(meta) = oldest else {
            return false;
        };
        meta.evicted.store(true, Ordering::SeqCst);
        if let Some(w) = lock(&meta.waker).take() {
            w.wake();
        }
        true
    }

    /// A slot for a connection just accepted: a free one, or one freed by closing the
    /// connection silent longest, or (every slot a WebSocket) the next one to close.
    async fn slot(&mut self) -> OwnedSemaphorePermit {
        loop {
            if let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() {
                return slot;
            }
            let evicted = self.evict_one();
            let wait = Arc::clone(&self.slots).acquire_owned();
            let slot = if evicted {
                // The evicted connection frees its slot as soon as its task sees it.
                match tokio::time::timeout(Duration::from_secs(1), wait).await {
                    Ok(slot) => slot,
                    Err(_) => continue,
                }
            } else {
                wait.await
            };
            match slot {
                Ok(slot) => return slot,
                // The semaphore is never closed; should it be, do not spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }
}

/// An accepted connection; its slot is freed when it is dropped.
pub struct BoundedStream {
    stream: TcpStream,
    meta: Arc<Meta>,
    /// Closes the connection if its first request has not ended by then; `None` once
    /// it has.
    first_request: Option<Pin<Box<Sleep>>>,
    /// The first request's bytes so far (its end and an upgrade are searched in them).
    head: Vec<u8>,
    _slot: OwnedSemaphorePermit,
}

impl axum::serve::Listener for BoundedListener {
    type Io = BoundedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (BoundedStream, SocketAddr) {
        loop {
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    let slot = self.slot().await;
                    let meta = Arc::new(Meta {
                        last_read: Mutex::new(Instant::now()),
                        websocket: AtomicBool::new(false),
                        evicted: AtomicBool::new(false),
                        waker: Mutex::new(None),
                    });
                    self.open.push(Arc::downgrade(&meta));
                    let deadline = Instant::now() + self.first_request_timeout;
                    return (
                        BoundedStream {
                            stream,
                            meta,
                            first_request: Some(Box::pin(tokio::time::sleep_until(deadline))),
                            head: Vec::new(),
                            _slot: slot,
                        },
                        addr,
                    );
                }
                // Out of descriptors or similar: wait instead of spinning.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

impl BoundedStream {
    /// Notes bytes of the first request: once its headers end the deadline is off, and
    /// an upgrade to a WebSocket makes the connection one that is never evicted.
    fn saw(&mut self, bytes: &[u8]) {
        if self.first_request.is_none() {
            return;
        }
        let room = FIRST_REQUEST_SCAN.saturating_sub(self.head.len());
        self.head.extend_from_slice(&bytes[..bytes.len().min(room)]);
        if let Some(end) = self.head.windows(4).position(|w| w == b"\r\n\r\n") {
            let headers = String::from_utf8_lossy(&self.head[..end]).to_ascii_lowercase();
            let upgrade = headers
                .lines()
                .any(|l| l.starts_with("upgrade:") && l.contains("websocket"));
            self.meta.websocket.store(upgrade, Ordering::SeqCst);
            self.first_request = None;
            self.head = Vec::new();
        }
    }
}

impl AsyncRead for BoundedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.meta.evicted.load(Ordering::SeqCst) {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "closed to make room for a new connection",
            )));
        }
        *lock(&this.meta.waker) = Some(cx.waker().clone());
        if let Some(deadline) = this.first_request.as_mut()
            && deadline.as_mut().poll(cx).is_ready()
        {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "no whole first request in time",
            )));
        }
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            let filled = buf.filled();
            if filled.len() > before {
                *lock(&this.meta.last_read) = Instant::now();
                let new = filled[before..].to_vec();
                this.saw(&new);
            }
        }
        polled
    }
}

impl AsyncWrite for BoundedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
