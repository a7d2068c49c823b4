//! Just enough HTTP/1.1 for a local viewer: `GET` and `HEAD` requests,
//! and `POST` with a body of at most [`MAX_BODY`] bytes (a game file to
//! open), one per connection (`Connection: close`), bounded in size and
//! time.
//! Nothing else is understood; anything else is answered with an error
//! status, never served.
//!
//! Time is bounded per request, not per read: a request head must be
//! whole by one deadline and an answer taken by another, so a client
//! sending or reading a byte at a time holds its connection no longer
//! than one that sends nothing.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Longest request head (request line and headers) read.
const MAX_HEAD: usize = 16 * 1024;
/// Longest request body read (a `POST`'s), in bytes: 1 MB.
pub const MAX_BODY: usize = 1024 * 1024;
/// Seconds a client told `503` is asked to wait before trying again.
const RETRY_AFTER: u32 = 1;

/// A request: method, decoded path, decoded query pairs, and a `POST`'s
/// body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD` or `POST`.
    pub method: String,
    /// The path, percent-decoded (`/game/12`).
    pub path: String,
    /// The query's name-value pairs, percent- and `+`-decoded, in order.
    pub query: Vec<(String, String)>,
    /// The `Host` header, if sent.
    pub host: Option<String>,
    /// The `Content-Type` header, if sent.
    pub content_type: Option<String>,
    /// The body of a `POST` (empty otherwise).
    pub body: Vec<u8>,
}

impl Request {
    /// The first value of query parameter `name`, if given and not empty.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty())
    }
}

/// Bytes of a streamed body read and written at once.
pub const STREAM_CHUNK: usize = 64 * 1024;

/// Writes a streamed body to the connection it is given, a chunk at a
/// time as it reads it.
pub type BodyWriter = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()>>;

/// A body produced as it is written, never held whole: `len` bytes that
/// `write` writes.
pub struct Streamed {
    /// Its length, sent as `Content-Length`.
    pub len: u64,
    /// Writes it.
    pub write: BodyWriter,
}

impl std::fmt::Debug for Streamed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Streamed({} bytes)", self.len)
    }
}

/// A response to send.
#[derive(Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// The body, unless it is streamed.
    pub body: Vec<u8>,
    /// The body read as it is written (then `body` is empty).
    pub streamed: Option<Streamed>,
    /// Whether the body may be cached (embedded assets).
    pub cacheable: bool,
}

impl Response {
    /// A `200` response.
    pub fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status: 200,
            content_type,
            body: body.into(),
            streamed: None,
            cacheable: false,
        }
    }

    /// A `200` response whose `len` bytes `write` writes as it produces
    /// them.
    pub fn streamed(content_type: &'static str, len: u64, write: BodyWriter) -> Response {
        Response {
            streamed: Some(Streamed { len, write }),
            ..Response::ok(content_type, Vec::new())
        }
    }

    /// An error page in plain text.
    pub fn error(status: u16, message: &str) -> Response {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{status} {}: {message}\n", reason(status)).into_bytes(),
            streamed: None,
            cacheable: false,
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        421 => "Misdirected Request",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Error",
    }
}

/// What went wrong reading a request: the status to answer with.
#[derive(Debug)]
pub struct BadRequest(pub u16, pub &'static str);

/// A connection read with one deadline for all its reads: each read may
/// wait only for the time left.
struct ReadBy<'s> {
    stream: &'s TcpStream,
    deadline: Instant,
}

impl Read for ReadBy<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut stream = self.stream;
        stream.read(buf)
    }
}

/// Reads one request from `stream`, its head and a `POST`'s body, all of
/// it by `deadline`.
///
/// # Errors
/// The status to answer with: 400 for anything malformed (an HTTP/1.1
/// request without one `Host` header included), 405 for a method other
/// than `GET`, `HEAD` and `POST`, 408 for a request not whole by the
/// deadline, 411 for a `POST` without `Content-Length`, 413 for a body
/// over [`MAX_BODY`], 431 for a head over 16 KB.
pub fn read_request(stream: &TcpStream, deadline: Instant) -> Result<Request, BadRequest> {
    let by = ReadBy { stream, deadline };
    let mut reader = BufReader::new(by.take(MAX_HEAD as u64 + 1));
    let mut line = String::new();
    let mut head_len = 0;
    let mut first = None;
    let mut hosts = Vec::new();
    let mut length = None;
    let mut chunked = false;
    let mut content_type = None;
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(|e| match e.kind() {
            ErrorKind::TimedOut | ErrorKind::WouldBlock => {
                BadRequest(408, "the request was not sent in time")
            }
            _ => BadRequest(400, "unreadable request"),
        })?;
        head_len += n;
        if head_len > MAX_HEAD {
            return Err(BadRequest(431, "request head too long"));
        }
        if n == 0 {
            return Err(BadRequest(400, "incomplete request"));
        }
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if first.is_none() {
            first = Some(trimmed.to_string());
        } else if trimmed.is_empty() {
            break;
        } else if let Some((name, value)) = trimmed.split_once(':') {
            let value = value.trim();
            if name.eq_ignore_ascii_case("host") {
                hosts.push(value.to_string());
            } else if name.eq_ignore_ascii_case("content-length") {
                let n = value
                    .parse::<u64>()
                    .map_err(|_| BadRequest(400, "Content-Length is not a number"))?;
                if length.is_some_and(|l| l != n) {
                    return Err(BadRequest(400, "two different Content-Length headers"));
                }
                length = Some(n);
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = true;
            } else if name.eq_ignore_ascii_case("content-type") {
                content_type = Some(value.to_string());
            }
        }
    }
    let first = first.unwrap_or_default();
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(BadRequest(400, "malformed request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(BadRequest(400, "only HTTP/1.x is spoken here"));
    }
    if !["GET", "HEAD", "POST"].contains(&method) {
        return Err(BadRequest(405, "only GET, HEAD and POST"));
    }
    if hosts.len() > 1 || (hosts.is_empty() && version != "HTTP/1.0") {
        return Err(BadRequest(400, "an HTTP/1.1 request needs one Host header"));
    }
    if !target.starts_with('/') {
        return Err(BadRequest(400, "the target must be a path"));
    }
    let (raw_path, raw_query) = target.split_once('?').unwrap_or((target, ""));
    let raw_path = raw_path.split('#').next().unwrap_or("");
    let path = percent_decode(raw_path, false).ok_or(BadRequest(400, "bad escape in path"))?;
    let mut query = Vec::new();
    for pair in raw_query.split('&').filter(|p| !p.is_empty()) {
        let (n, v) = pair.split_once('=').unwrap_or((pair, ""));
        let n = percent_decode(n, true).ok_or(BadRequest(400, "bad escape in query"))?;
        let v = percent_decode(v, true).ok_or(BadRequest(400, "bad escape in query"))?;
        query.push((n, v));
    }
    let body = if method == "POST" {
        read_body(&mut reader, length, chunked)?
    } else {
        Vec::new()
    };
    Ok(Request {
        method: method.to_string(),
        path,
        query,
        host: hosts.pop(),
        content_type,
        body,
    })
}

/// Reads a `POST`'s body of `length` bytes after its head, by the
/// request's deadline: what the head's reader holds already, then the
/// rest. Never more than [`MAX_BODY`] bytes.
fn read_body(
    reader: &mut BufReader<std::io::Take<ReadBy<'_>>>,
    length: Option<u64>,
    chunked: bool,
) -> Result<Vec<u8>, BadRequest> {
    if chunked {
        return Err(BadRequest(
            411,
            "send the body with Content-Length, not in chunks",
        ));
    }
    let Some(length) = length else {
        return Err(BadRequest(411, "a POST needs Content-Length"));
    };
    if length > MAX_BODY as u64 {
        return Err(BadRequest(
            413,
            "the text sent is over 1 MB (1,048,576 bytes), the most read at once; split the file or import it with xpgn import",
        ));
    }
    let held = reader.buffer().len() as u64;
    reader.get_mut().set_limit(length.saturating_sub(held));
    let mut body = Vec::with_capacity(length as usize);
    reader
        .take(length)
        .read_to_end(&mut body)
        .map_err(|e| match e.kind() {
            ErrorKind::TimedOut | ErrorKind::WouldBlock => {
                BadRequest(408, "the request was not sent in time")
            }
            _ => BadRequest(400, "unreadable request body"),
        })?;
    if (body.len() as u64) < length {
        return Err(BadRequest(
            400,
            "the body is shorter than its Content-Length",
        ));
    }
    Ok(body)
}

/// Whether a request naming `host` (a `Host` header) may be answered by
/// the server listening on `served`: `localhost` and its subdomains, the
/// served address, when every interface is served any address, and the
/// names of `allowed` (lower case, without a final dot), each with the
/// served port. A page of another name cannot read the answers of a
/// server it reaches by rebinding its name to the loopback address.
/// HTTP/1.0 requests without the header are answered.
pub fn host_allowed(host: Option<&str>, served: SocketAddr, allowed: &[String]) -> bool {
    let Some(host) = host else { return true };
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    if port != Some(served.port()) {
        return false;
    }
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name == "localhost" || name.ends_with(".localhost") || allowed.contains(&name) {
        return true;
    }
    let literal = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(&name);
    match literal.parse::<IpAddr>() {
        Ok(ip) => ip == served.ip() || served.ip().is_unspecified(),
        Err(_) => false,
    }
}

/// Writes `response` to `stream` (headers only for `HEAD`), all of it by
/// `deadline`; a streamed body as it is produced.
///
/// # Errors
/// The connection's write errors, `TimedOut` once the deadline passed, or
/// the streamed body's error, or a length other than its `Content-Length`
/// (the connection is then closed, which tells the client).
pub fn write_response(
    stream: &mut TcpStream,
    response: Response,
    head_only: bool,
    deadline: Instant,
) -> std::io::Result<()> {
    let cache = if response.cacheable {
        "public, max-age=3600"
    } else {
        "no-store"
    };
    let retry = if response.status == 503 {
        format!("Retry-After: {RETRY_AFTER}\r\n")
    } else {
        String::new()
    };
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n{retry}\
         Cache-Control: {cache}\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n\
         X-Frame-Options: DENY\r\nContent-Security-Policy: default-src 'none'; script-src 'self'; \
         style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
         base-uri 'none'; frame-ancestors 'none'\r\n\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response
            .streamed
            .as_ref()
            .map_or(response.body.len() as u64, |s| s.len)
    );
    write_by(stream, head.as_bytes(), deadline)?;
    if head_only {
        return Ok(());
    }
    let Some(streamed) = response.streamed else {
        return write_by(stream, &response.body, deadline);
    };
    let mut body = BodyTo {
        stream,
        deadline,
        left: streamed.len,
    };
    (streamed.write)(&mut body)?;
    if body.left > 0 {
        return Err(ErrorKind::UnexpectedEof.into());
    }
    Ok(())
}

/// A streamed body's way to the connection: each write by the deadline,
/// no more bytes than announced.
struct BodyTo<'s> {
    stream: &'s mut TcpStream,
    deadline: Instant,
    /// Bytes of the `Content-Length` not written yet.
    left: u64,
}

impl Write for BodyTo<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() as u64 > self.left {
            return Err(std::io::Error::new(
                ErrorKind::InvalidData,
                "the body is longer than its Content-Length",
            ));
        }
        write_by(self.stream, buf, self.deadline)?;
        self.left -= buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes `bytes`, each write waiting only for the time left to `deadline`.
fn write_by(stream: &mut TcpStream, mut bytes: &[u8], deadline: Instant) -> std::io::Result<()> {
    while !bytes.is_empty() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        stream.set_write_timeout(Some(left))?;
        match stream.write(&bytes[..bytes.len().min(64 * 1024)]) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// How long a client that was answered has to finish sending what it
/// sent: closing a socket with unread input resets the connection, which
/// can destroy the answer before the client reads it.
pub(crate) const LINGER: Duration = Duration::from_millis(500);

/// Decodes `%XX` escapes (and `+` as a space in a query); `None` for a
/// bad escape or bytes that are not UTF-8.
pub fn percent_decode(text: &str, plus_is_space: bool) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3)?;
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// `text` escaped for a URL query value: everything but unreserved
/// characters as `%XX`.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3 / 2);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host_allowed_by_default(host: Option<&str>, served: SocketAddr) -> bool {
        host_allowed(host, served, &[])
    }

    #[test]
    fn the_names_allowed_are_hosts_with_the_served_port() {
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let allowed = ["chess.example".to_string(), "viewer".to_string()];
        for ok in [
            "chess.example:8080",
            "Chess.Example.:8080",
            "viewer:8080",
            "localhost:8080",
        ] {
            assert!(host_allowed(Some(ok), any, &allowed), "{ok}");
        }
        for bad in [
            "chess.example:8081",
            "chess.example",
            "www.chess.example:8080",
            "chess.example.evil:8080",
            "viewer2:8080",
        ] {
            assert!(!host_allowed(Some(bad), any, &allowed), "{bad}");
        }
        assert!(!host_allowed_by_default(Some("chess.example:8080"), any));
    }

    #[test]
    fn only_localhost_names_and_the_served_address_with_its_port_are_hosts() {
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        for ok in [
            "localhost:8080",
            "LocalHost:8080",
            "viewer.localhost:8080",
            "localhost.:8080",
            "127.0.0.1:8080",
        ] {
            assert!(host_allowed_by_default(Some(ok), local), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "localhost.evil.example:8080",
            "localhost:8081",
            "localhost",
            "127.0.0.2:8080",
            "[::1]:8080",
            "",
            ":8080",
        ] {
            assert!(!host_allowed_by_default(Some(bad), local), "{bad}");
        }
        assert!(host_allowed_by_default(None, local));
        let v6: SocketAddr = "[::1]:80".parse().unwrap();
        assert!(host_allowed_by_default(Some("[::1]"), v6));
        assert!(host_allowed_by_default(Some("[::1]:80"), v6));
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        assert!(host_allowed_by_default(Some("192.168.1.20:8080"), any));
        assert!(!host_allowed_by_default(Some("rebound.example:8080"), any));
    }

    #[test]
    fn escapes_round_trip_and_bad_ones_are_refused() {
        let s = "8/8 w - - 0 1 <é>&=";
        assert_eq!(percent_decode(&percent_encode(s), true).as_deref(), Some(s));
        assert_eq!(percent_decode("a+b%2Bc", true).as_deref(), Some("a b+c"));
        assert_eq!(percent_decode("a+b", false).as_deref(), Some("a+b"));
        assert_eq!(percent_decode("%zz", true), None);
        assert_eq!(percent_decode("%4", true), None);
        assert_eq!(percent_decode("%ff", true), None);
    }
}
