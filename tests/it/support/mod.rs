//! Shared by the server tests: a database of the samples, a hostile game
//! and generated games, served by `xpgn serve` on a free loopback port.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// A running `xpgn serve`, stopped when dropped.
pub struct Served {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    dir: PathBuf,
}

impl Served {
    /// The database served.
    #[allow(dead_code)]
    pub fn db(&self) -> PathBuf {
        self.dir.join("games.db")
    }

    /// The server's process id.
    #[allow(dead_code)]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub use crate::run::xpgn;

pub const HOSTILE: &str = r#"[Event "Hostile \"quoted\" & 'single' </td></tr></table>"]
[Site "<img src=x onerror=alert(1)>"]
[Date "2020.01.01"]
[Round "1"]
[White "<script>window.__xss = 1; alert(1)</script>"]
[Black "Robert'); DROP TABLE games;--"]
[Result "*"]
[Annotator "LONGVALUE"]

1. e4 {<script>alert("comment")</script>} e5 2. Nf3 (2. f4 {<b>bold</b>} exf4) Nc6 *
"#;

/// Imports the samples, a hostile game and `extra` generated games into a
/// new database, makes it read-only, and serves it on a free port.
pub fn serve(name: &str, extra: usize) -> Served {
    serve_with(name, extra, &[], &[])
}

/// As [`serve`], with more game files (`(name, text)`) imported and more
/// arguments to `xpgn serve`.
pub fn serve_with(name: &str, extra: usize, files: &[(&str, &str)], args: &[&str]) -> Served {
    let dir = std::env::temp_dir().join(format!("xpgn-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let long = "x".repeat(20_000);
    std::fs::write(dir.join("hostile.pgn"), HOSTILE.replace("LONGVALUE", &long)).unwrap();
    if extra > 0 {
        let mut text = String::new();
        for i in 0..extra {
            text.push_str(&format!(
                "[Event \"Bulk\"]\n[Round \"{i}\"]\n[White \"Bulk White\"]\n[Black \"Bulk Black\"]\n[Result \"1-0\"]\n\n1. d4 d5 1-0\n\n"
            ));
        }
        std::fs::write(dir.join("bulk.pgn"), text).unwrap();
    }
    let db = dir.join("games.db");
    let db_s = db.to_str().unwrap();
    let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/samples");
    let o = xpgn(&["import", samples, dir.to_str().unwrap(), "--db", db_s]);
    // samples/invalid: exit code 1, every game stored.
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut perms = std::fs::metadata(&db).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&db, perms).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(["serve", "--db", db_s, "--addr", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim()
        .trim_end_matches('/')
        .to_string();
    Served { child, addr, dir }
}
