//! `xpgn serve`: a local analysis board over one database, every asset
//! embedded in the binary.
//!
//! A layer above `db` (as `cli` is), behind the `serve` cargo feature.
//! Pages are written on the server (each value escaped: tags, comments
//! and the original text are untrusted) and work without script; the
//! embedded script steps through a game without reloading, takes moves
//! on the board (the server says which are legal) and keeps local
//! variations, never the database's. Each page has a JSON twin under
//! `/api/` (documented in `docs/serve.md`).
//!
//! Safe by default: [`Config::new`] binds the loopback address; the
//! database is opened read-only for each request; every query is bounded
//! in rows (pages of at most [`MAX_PAGE`] games, move lists of at most
//! 500 plies) and in time ([`Config::deadline`]); no path outside the
//! routes and the embedded assets is served; only requests naming the
//! served address, `localhost` or a name of [`Config::allowed_hosts`] are
//! answered.
//!
//! Slow clients cannot starve the others: each connection has its own
//! thread, which waits for the client only until one deadline
//! ([`Config::request_timeout`]) for its whole request head and another
//! for taking its answer, and takes one of a few workers only while it
//! answers. Past [`Config::max_connections`] open connections, clients
//! are answered `503` with `Retry-After`.

mod board;
pub mod http;
mod open;
mod pages;
mod pattern;

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use http::{Request, Response, host_allowed, read_request, write_response};

use crate::db::{Database, DbError};
use crate::rules::Registry;

/// Most games a page lists.
pub const MAX_PAGE: u64 = 100;
/// Games a page lists unless asked otherwise.
pub const DEFAULT_PAGE: u64 = 50;
/// Connections refused at once (each read for a moment, then answered
/// `503`); past them a connection is closed unanswered.
const MAX_REFUSING: usize = 64;
/// How long accepting pauses after it failed.
const ACCEPT_PAUSE: Duration = Duration::from_millis(10);
/// How long a refused client has to send its request before its `503`.
const REFUSE_WAIT: Duration = Duration::from_secs(1);

/// How to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// The database file (opened read-only).
    pub db: PathBuf,
    /// Where to listen.
    pub addr: SocketAddr,
    /// How long one request's SQL may run.
    pub deadline: Duration,
    /// How long a client has to send its whole request head, and again
    /// to take its whole answer.
    pub request_timeout: Duration,
    /// Most connections open at once (reading, answering or writing);
    /// more are answered `503`.
    pub max_connections: usize,
    /// Most requests answered at once (the database work and the page).
    pub workers: usize,
    /// The variants games are replayed with, besides those the database
    /// stores.
    pub variants: Registry,
    /// Host names answered besides `localhost` and the served address
    /// (the `Host` check), as [`normalize_host`] writes them.
    pub allowed_hosts: Vec<String>,
}

/// A host name as the `Host` check compares it: lower case, without a
/// final dot. `None` for text that is no host name (letters, digits,
/// `-` and `.` only, no empty label).
///
/// ```
/// use xpgn::serve::normalize_host;
/// assert_eq!(normalize_host("Chess.Example."), Some("chess.example".into()));
/// assert_eq!(normalize_host("chess.example:8080"), None);
/// ```
pub fn normalize_host(name: &str) -> Option<String> {
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    let label_ok = |l: &str| {
        !l.is_empty() && l.len() <= 63 && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    (name.len() <= 253 && name.split('.').all(label_ok)).then_some(name)
}

impl Config {
    /// Serving `db` on `127.0.0.1:8080`: 5 seconds of database work per
    /// request, 10 seconds to send a request head and again to take the
    /// answer, at most 512 connections and 8 requests answered at once.
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
            request_timeout: Duration::from_secs(10),
            max_connections: 512,
            workers: 8,
            variants: Registry::builtin(),
            allowed_hosts: Vec::new(),
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
    /// The variants of [`Config::variants`] and the database's.
    registry: Arc<Registry>,
    deadline: Duration,
    request_timeout: Duration,
    max_connections: usize,
    /// The address served, for the `Host` check.
    served: SocketAddr,
    /// The other names the `Host` check accepts.
    allowed_hosts: Vec<String>,
    /// Connections open (each on its own thread).
    open: AtomicUsize,
    /// Connections being refused.
    refusing: AtomicUsize,
    /// Workers free, and a wait for one.
    free_workers: Mutex<usize>,
    worker_freed: Condvar,
}

impl Server {
    /// Checks that the database opens for reading and binds the address
    /// (port 0 picks a free one).
    ///
    /// # Errors
    /// The database cannot be opened, or the address cannot be bound.
    pub fn bind(config: &Config) -> Result<Server, ServeError> {
        let failed = |source| ServeError::Db {
            path: config.db.display().to_string(),
            source,
        };
        let mut db = Database::open_existing(&config.db).map_err(failed)?;
        db.use_variants(config.variants.clone()).map_err(failed)?;
        let listener = TcpListener::bind(config.addr).map_err(|source| ServeError::Bind {
            addr: config.addr,
            source,
        })?;
        let served = listener.local_addr().map_err(|source| ServeError::Bind {
            addr: config.addr,
            source,
        })?;
        Ok(Server {
            listener,
            state: Arc::new(State {
                db: config.db.clone(),
                registry: db.shared_registry(),
                deadline: config.deadline,
                request_timeout: config.request_timeout,
                max_connections: config.max_connections.max(1),
                served,
                allowed_hosts: config.allowed_hosts.clone(),
                open: AtomicUsize::new(0),
                refusing: AtomicUsize::new(0),
                free_workers: Mutex::new(config.workers.max(1)),
                worker_freed: Condvar::new(),
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
    /// (at most [`Config::max_connections`] at once).
    pub fn run(self) {
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else {
                // Out of file descriptors or memory, most likely: let
                // connections close before trying again.
                std::thread::sleep(ACCEPT_PAUSE);
                continue;
            };
            let state = &self.state;
            if state.open.fetch_add(1, Ordering::SeqCst) >= state.max_connections {
                state.open.fetch_sub(1, Ordering::SeqCst);
                refuse(state, stream);
                continue;
            }
            let spawned = std::thread::Builder::new()
                .name("xpgn-serve".into())
                .spawn({
                    let state = Arc::clone(state);
                    move || {
                        serve_connection(&state, stream);
                        state.open.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            if spawned.is_err() {
                state.open.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
}

/// Answers `503` with `Retry-After` on a thread of its own, after reading
/// the request for a moment (a connection closed with its request unread
/// is reset, and the client would see no answer). Past [`MAX_REFUSING`]
/// refusals at once, the connection is closed unanswered.
fn refuse(state: &Arc<State>, stream: TcpStream) {
    if state.refusing.fetch_add(1, Ordering::SeqCst) >= MAX_REFUSING {
        state.refusing.fetch_sub(1, Ordering::SeqCst);
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("xpgn-refuse".into())
        .spawn({
            let state = Arc::clone(state);
            move || {
                let _ = read_request(&stream, Instant::now() + REFUSE_WAIT);
                let busy = Response::error(503, "too many connections; try again shortly");
                finish(stream, busy, false, Instant::now() + REFUSE_WAIT);
                state.refusing.fetch_sub(1, Ordering::SeqCst);
            }
        });
    if spawned.is_err() {
        state.refusing.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A worker held while a request is answered; freed when dropped.
struct Worker<'s>(&'s State);

impl State {
    /// A free worker, waiting for one until `deadline`.
    fn worker(&self, deadline: Instant) -> Option<Worker<'_>> {
        let mut free = self.free_workers.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            free = self
                .worker_freed
                .wait_timeout(free, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        *free -= 1;
        Some(Worker(self))
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        *self
            .0
            .free_workers
            .lock()
            .unwrap_or_else(|e| e.into_inner()) += 1;
        self.0.worker_freed.notify_one();
    }
}

/// Reads one request by its deadline, answers it with a worker (waiting
/// for one no longer than the client may take to send a request), and
/// writes the answer by a second deadline.
fn serve_connection(state: &State, stream: TcpStream) {
    let head_deadline = Instant::now() + state.request_timeout;
    let (response, head_only) = match read_request(&stream, head_deadline) {
        Ok(req) if !host_allowed(req.host.as_deref(), state.served, &state.allowed_hosts) => (
            Response::error(
                421,
                "this server answers only requests for its own address, localhost or the names of --allow-host",
            ),
            false,
        ),
        Ok(req) => match state.worker(Instant::now() + state.request_timeout) {
            Some(_worker) => (respond(state, &req), req.method == "HEAD"),
            None => (Response::error(503, "busy; try again shortly"), false),
        },
        Err(http::BadRequest(status, why)) => (Response::error(status, why), false),
    };
    finish(
        stream,
        response,
        head_only,
        Instant::now() + state.request_timeout,
    );
}

/// Writes `response` by `deadline` and closes the connection, reading
/// what the client still sends for a moment first (see [`http::LINGER`]).
fn finish(mut stream: TcpStream, response: Response, head_only: bool, deadline: Instant) {
    if write_response(&mut stream, response, head_only, deadline).is_err() {
        return;
    }
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let until = Instant::now() + http::LINGER;
    let mut sink = [0; 4096];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match std::io::Read::read(&mut stream, &mut sink) {
            Ok(n) if n > 0 => {}
            _ => break,
        }
    }
}

/// Answers one request. A panic in a handler (a bug) is answered 500,
/// never brings the server down.
fn respond(state: &State, req: &Request) -> Response {
    let run = || -> Response {
        // Checked for damage once, at start (see `Database::reopen_existing`).
        let db = match Database::reopen_existing_with(&state.db, Arc::clone(&state.registry)) {
            Ok(db) => std::rc::Rc::new(db),
            Err(e) => return Response::error(500, &format!("database: {e}")),
        };
        let deadline = Instant::now() + state.deadline;
        db.set_deadline(Some(deadline));
        match pages::route(&db, req, deadline) {
            Ok(r) => r,
            Err(pages::Fault::NotFound(what)) => Response::error(404, &what),
            Err(pages::Fault::BadRequest(what)) => Response::error(400, &what),
            Err(pages::Fault::Method(what)) => Response::error(405, &what),
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
