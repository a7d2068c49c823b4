//! Progress of long work (import, dataset): one line on standard error,
//! rewritten in place every 200 ms, with the time left when the size of
//! the input is known (not for standard input or a compressed file);
//! nothing at all when standard error is not a terminal (a pipe, a log
//! file).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The progress line of one command.
pub(super) struct Progress {
    terminal: bool,
    start: Instant,
    last: Instant,
    /// Bytes of all the inputs, when every one is a file of text.
    total: Option<u64>,
}

/// The size of the text of the file `path`: `None` for standard input
/// (`-`) and for a compressed file (its text is larger, by how much is
/// not known before it is read).
fn text_size(path: &str) -> Option<u64> {
    use std::io::Read;
    use xpgn::notation::compressed::{Format, SNIFF_BYTES};
    if path == "-" {
        return None;
    }
    let size = std::fs::metadata(path).ok()?.len();
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    std::fs::File::open(path)
        .ok()?
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .ok()?;
    Format::sniff(&head).is_none().then_some(size)
}

impl Progress {
    /// Progress over `inputs` (file paths; `-` is standard input, of no
    /// known size).
    pub(super) fn new(inputs: &[String]) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let total = if terminal {
            inputs.iter().map(|p| text_size(p)).sum::<Option<u64>>()
        } else {
            None
        };
        let now = Instant::now();
        Progress {
            terminal,
            start: now,
            last: now,
            total,
        }
    }

    /// Shows `games` read and `bytes` of the inputs, after `what` (the file
    /// being read), if 200 ms passed since the last line. `what` is made
    /// only then: this is asked once per game.
    pub(super) fn show(&mut self, what: impl FnOnce() -> String, games: u64, bytes: u64) {
        if !self.terminal || self.last.elapsed() < Duration::from_millis(200) {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let left = self
            .total
            .and_then(|total| time_left(total, bytes, secs))
            .map_or(String::new(), |l| format!(", {l} left"));
        let what = what();
        eprint!(
            "\r{what}{} games, {:.1} MB, {:.0} games/s, {:.1} MB/s{left}   ",
            games,
            bytes as f64 / 1e6,
            games as f64 / secs,
            bytes as f64 / 1e6 / secs
        );
    }

    /// Clears the line before the summary.
    pub(super) fn clear(&self) {
        if self.terminal {
            eprint!("\r\x1b[K");
        }
    }
}

/// The time left to read `total` bytes when `done` took `secs` seconds:
/// `1:05` (minutes and seconds), `2:03:04` past an hour; `None` before
/// anything was read.
fn time_left(total: u64, done: u64, secs: f64) -> Option<String> {
    if done == 0 || secs <= 0.0 {
        return None;
    }
    let rate = done as f64 / secs;
    let left = (total.saturating_sub(done) as f64 / rate).round() as u64;
    let (h, m, s) = (left / 3600, left / 60 % 60, left % 60);
    Some(if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compressed_file_has_no_known_text_size() {
        let dir = std::env::temp_dir().join(format!("xpgn-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("a.pgn");
        std::fs::write(&plain, "[Event \"a\"]\n1. e4 *\n").unwrap();
        let packed = dir.join("a.pgn.gz");
        std::fs::write(&packed, b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03").unwrap();
        assert_eq!(text_size(plain.to_str().unwrap()), Some(20));
        assert_eq!(text_size(packed.to_str().unwrap()), None);
        assert_eq!(text_size("-"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_time_left_follows_the_rate_so_far() {
        assert_eq!(time_left(1000, 0, 1.0), None);
        assert_eq!(time_left(1000, 100, 1.0).as_deref(), Some("0:09"));
        assert_eq!(time_left(100_000, 10, 1.0).as_deref(), Some("2:46:39"));
        assert_eq!(time_left(1000, 1000, 5.0).as_deref(), Some("0:00"));
        assert_eq!(time_left(1000, 500, 65.0).as_deref(), Some("1:05"));
    }
}
