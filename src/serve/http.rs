//! Just enough HTTP/1.1 for a local viewer: `GET` and `HEAD` requests,
//! one per connection (`Connection: close`), bounded in size and time.
//! Nothing else is understood; anything else is answered with an error
//! status, never served.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Longest request head (request line and headers) read.
const MAX_HEAD: usize = 16 * 1024;
/// How long a client may take to send its request.
pub(crate) const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A request: method, decoded path, decoded query pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// `GET` or `HEAD`.
    pub method: String,
    /// The path, percent-decoded (`/game/12`).
    pub path: String,
    /// The query's name-value pairs, percent- and `+`-decoded, in order.
    pub query: Vec<(String, String)>,
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

/// A response to send.
#[derive(Clone, Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
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
            cacheable: false,
        }
    }

    /// An error page in plain text.
    pub fn error(status: u16, message: &str) -> Response {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{status} {}: {message}\n", reason(status)).into_bytes(),
            cacheable: false,
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Error",
    }
}

/// What went wrong reading a request: the status to answer with.
#[derive(Debug)]
pub struct BadRequest(pub u16, pub &'static str);

/// Reads one request head from `stream`.
///
/// # Errors
/// The status to answer with: 400 for anything malformed, 405 for a
/// method other than `GET` and `HEAD`, 413 for a head over 16 KB.
pub fn read_request(stream: &TcpStream) -> Result<Request, BadRequest> {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let mut reader = BufReader::new(stream.take(MAX_HEAD as u64 + 1));
    let mut line = String::new();
    let mut head_len = 0;
    let mut first = None;
    loop {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .map_err(|_| BadRequest(400, "unreadable request"))?;
        head_len += n;
        if head_len > MAX_HEAD {
            return Err(BadRequest(413, "request head too long"));
        }
        if n == 0 {
            return Err(BadRequest(400, "incomplete request"));
        }
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if first.is_none() {
            first = Some(trimmed.to_string());
        } else if trimmed.is_empty() {
            break;
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
    if method != "GET" && method != "HEAD" {
        return Err(BadRequest(405, "only GET and HEAD"));
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
    Ok(Request {
        method: method.to_string(),
        path,
        query,
    })
}

/// Writes `response` to `stream` (headers only for `HEAD`).
///
/// # Errors
/// The connection's write errors.
pub fn write_response(
    stream: &mut TcpStream,
    response: &Response,
    head_only: bool,
) -> std::io::Result<()> {
    let cache = if response.cacheable {
        "public, max-age=3600"
    } else {
        "no-store"
    };
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: {cache}\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n\
         X-Frame-Options: DENY\r\nContent-Security-Policy: default-src 'none'; script-src 'self'; \
         style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
         base-uri 'none'; frame-ancestors 'none'\r\n\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len()
    );
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(&response.body)?;
    }
    stream.flush()
}

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
