//! `xpgn serve`: a local web viewer over one database, every asset
//! embedded in the binary.
//!
//! A layer above `db` (as `cli` is), behind the `serve` cargo feature.
//! Pages are written on the server (each value escaped: tags, comments
//! and the original text are untrusted) and work without script; a small
//! embedded script adds the arrow keys. Each page has a JSON twin under
//! `/api/` (documented in `docs/serve.md`).
//!
//! Safe by default: [`Config::default`] binds the loopback address; the
//! database is opened read-only for each request; every query is bounded
//! in rows (pages of at most [`MAX_PAGE`] games) and in time
//! ([`Config::deadline`]); no path outside the routes and the embedded
//! assets is served.

pub mod http;
mod pages;

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http::{Request, Response, read_request, write_response};

use crate::db::{Database, DbError};

/// Most games a page lists.
pub const MAX_PAGE: u64 = 100;
/// Games a page lists unless asked otherwise.
pub const DEFAULT_PAGE: u64 = 50;
/// Most connections served at once; more are answered 503.
const MAX_CONNECTIONS: usize = 32;

/// How to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// The database file (opened read-only).
    pub db: PathBuf,
    /// Where to listen.
    pub addr: SocketAddr,
    /// How long one request's SQL may run.
    pub deadline: Duration,
}

impl Config {
    /// Serving `db` on `127.0.0.1:8080`, 5 seconds per request.
    ///
    /// ```
    /// let c = xpgn::serve::Config::new("games.db");
    /// assert!(c.addr.ip().is_loopback());
    /// ```
    pub fn new(db: impl Into<PathBuf>) -> Config {
        Config {
            db: db.into(),
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            deadline: Duration::from_secs(5),
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database cannot be opened for reading.
    #[error("{path}: {source}")]
    Db {
        /// The database file.
        path: String,
        /// Why.
        source: DbError,
    },
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// A bound server, not yet answering.
pub struct Server {
    listener: TcpListener,
    state: Arc<State>,
}

struct State {
    db: PathBuf,
    deadline: Duration,
    active: AtomicUsize,
}

impl Server {
    /// Checks that the database opens for reading and binds the address
    /// (port 0 picks a free one).
    ///
    /// # Errors
    /// The database cannot be opened, or the address cannot be bound.
    pub fn bind(config: &Config) -> Result<Server, ServeError> {
        Database::open_existing(&config.db).map_err(|source| ServeError::Db {
            path: config.db.display().to_string(),
            source,
        })?;
        let listener = TcpListener::bind(config.addr).map_err(|source| ServeError::Bind {
            addr: config.addr,
            source,
        })?;
        Ok(Server {
            listener,
            state: Arc::new(State {
                db: config.db.clone(),
                deadline: config.deadline,
                active: AtomicUsize::new(0),
            }),
        })
    }

    /// The address listened on.
    ///
    /// # Errors
    /// The socket's error.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Answers requests until the process ends, one thread per connection
    /// (at most 32 at once).
    pub fn run(self) {
        for stream in self.listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let state = Arc::clone(&self.state);
            if state.active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                state.active.fetch_sub(1, Ordering::SeqCst);
                let _ = write_response(&mut stream, &Response::error(503, "busy"), false);
                continue;
            }
            let spawned = std::thread::Builder::new()
                .name("xpgn-serve".into())
                .spawn({
                    let state = Arc::clone(&state);
                    move || {
                        serve_connection(&state, stream);
                        state.active.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            if spawned.is_err() {
                state.active.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
}

fn serve_connection(state: &State, mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(http::READ_TIMEOUT));
    let (response, head_only) = match read_request(&stream) {
        Ok(req) => (respond(state, &req), req.method == "HEAD"),
        Err(http::BadRequest(status, why)) => (Response::error(status, why), false),
    };
    let _ = write_response(&mut stream, &response, head_only);
    // Closing a socket with unread input resets the connection, which
    // can destroy the answer before the client reads it (a refused
    // request whose head was not read to its end): say we are done, and
    // read what is left for a moment.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let _ = std::io::copy(
        &mut std::io::Read::take(&mut stream, 1 << 20),
        &mut std::io::sink(),
    );
}

/// Answers one request. A panic in a handler (a bug) is answered 500,
/// never brings the server down.
fn respond(state: &State, req: &Request) -> Response {
    let run = || -> Response {
        let db = match Database::open_existing(&state.db) {
            Ok(db) => db,
            Err(e) => return Response::error(500, &format!("database: {e}")),
        };
        db.set_deadline(Some(Instant::now() + state.deadline));
        match pages::route(&db, req) {
            Ok(r) => r,
            Err(pages::Fault::NotFound(what)) => Response::error(404, &what),
            Err(pages::Fault::BadRequest(what)) => Response::error(400, &what),
            Err(pages::Fault::Db(DbError::TimedOut)) => {
                Response::error(504, "the query took too long and was stopped")
            }
            Err(pages::Fault::Db(e)) => Response::error(500, &format!("database: {e}")),
        }
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
        .unwrap_or_else(|_| Response::error(500, "internal error"))
}

/// Binds `config.addr` and answers until the process ends, printing the
/// address first through `ready`.
///
/// # Errors
/// As [`Server::bind`].
pub fn serve(config: &Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let server = Server::bind(config)?;
    let addr = server.local_addr().map_err(|source| ServeError::Bind {
        addr: config.addr,
        source,
    })?;
    ready(addr);
    server.run();
    Ok(())
}
