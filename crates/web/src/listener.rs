//! A TCP listener that holds at most [`MAX_HTTP_CONNECTIONS`] connections at once: a
//! further connection waits in the kernel's backlog until one closes, so a flood of
//! connections cannot exhaust the server's memory or descriptors.

use std::{
    io,
    net::SocketAddr,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::{OwnedSemaphorePermit, Semaphore},
};

/// Most HTTP connections (pages' WebSockets included) open at once.
pub const MAX_HTTP_CONNECTIONS: usize = 2 * protocols::server::MAX_CONNECTIONS;

/// [`TcpListener`] with a bound on open connections.
pub struct BoundedListener {
    inner: TcpListener,
    slots: Arc<Semaphore>,
}

impl BoundedListener {
    /// Wraps `inner`, allowing at most [`MAX_HTTP_CONNECTIONS`] connections open at once.
    pub fn new(inner: TcpListener) -> BoundedListener {
        BoundedListener {
            inner,
            slots: Arc::new(Semaphore::new(MAX_HTTP_CONNECTIONS)),
        }
    }
}

/// An accepted connection; its slot is freed when it is dropped.
pub struct BoundedStream {
    stream: TcpStream,
    _slot: OwnedSemaphorePermit,
}

impl axum::serve::Listener for BoundedListener {
    type Io = BoundedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (BoundedStream, SocketAddr) {
        let slot = loop {
            match Arc::clone(&self.slots).acquire_owned().await {
                Ok(slot) => break slot,
                // The semaphore is never closed; should it be, do not spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        };
        loop {
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    return (
                        BoundedStream {
                            stream,
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

impl AsyncRead for BoundedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
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
