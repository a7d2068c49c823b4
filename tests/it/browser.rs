//! The viewer in a real browser: headless Chromium, driven by
//! `tests/browser/viewer.cjs` (Node and playwright-core), over `xpgn
//! serve` on a database of the samples and a hostile game.
//!
//! Chromium: `$XPGN_CHROMIUM`, else `/usr/bin/chromium` (or `chromium` on
//! the path); Node.js with playwright-core in `target/browser-node/` (the
//! version pinned in `tests/browser/package.json`). The test installs
//! nothing: `tests/browser/setup.sh` does (CI runs it). When something is
//! missing the test says what and how to install it, and is skipped.
//!
//! Screenshots go to `target/browser-shots/`; with
//! `XPGN_DOCS_SCREENSHOTS=1` the screenshots of docs/serve.md are written
//! to `docs/` instead.
#![cfg(feature = "serve")]

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

fn runs(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("XPGN_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if Path::new(p).exists() {
            return Some(PathBuf::from(p));
        }
    }
    let which = Command::new("sh")
        .args(["-c", "command -v chromium || command -v chromium-browser"])
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&which.stdout).trim().to_string();
    (which.status.success() && !path.is_empty()).then(|| PathBuf::from(path))
}

/// The folder holding `node_modules/playwright-core` at the pinned
/// version, if `tests/browser/setup.sh` has installed it.
fn playwright(root: &Path) -> Option<PathBuf> {
    let dir = root.join("target/browser-node");
    let pinned = std::fs::read_to_string(root.join("tests/browser/package.json")).ok()?;
    let installed = std::fs::read_to_string(dir.join("package.json")).ok()?;
    let present = dir
        .join("node_modules/playwright-core/package.json")
        .exists();
    (installed == pinned && present).then(|| dir.join("node_modules"))
}

/// Why the browser test cannot run here, if it cannot.
fn missing_tools(root: &Path) -> Option<String> {
    if find_chromium().is_none() {
        return Some("chromium not found (XPGN_CHROMIUM, /usr/bin/chromium, PATH)".into());
    }
    if !runs("node", &["--version"]) {
        return Some("Node.js (`node`) not found".into());
    }
    if playwright(root).is_none() {
        return Some(
            "playwright-core at the version of tests/browser/package.json is not in target/browser-node"
                .into(),
        );
    }
    None
}

/// The position the browser sets up in the board editor: the board and
/// side to move after 1. e4 e5 2. Nf3.
const EDITOR_POSITION: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b";

#[test]
fn the_viewer_works_in_headless_chromium() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(why) = missing_tools(root) {
        println!(
            "SKIPPED the_viewer_works_in_headless_chromium: {why}; run tests/browser/setup.sh \
             (installs chromium, nodejs and npm with apt-get as root, and playwright-core with npm)"
        );
        return;
    }
    let chromium = find_chromium().expect("found above");
    let modules = playwright(root).expect("found above");
    let shots = root.join("target/browser-shots");
    std::fs::create_dir_all(&shots).unwrap();
    // 600 moves of knights out and back: 1200 plies, three windows of moves.
    let mut knights = String::from("[Event \"Knights\"]\n[White \"Out\"]\n[Black \"Back\"]\n\n");
    for i in 0..600 {
        let pair = if i % 2 == 0 { "Nf3 Nf6" } else { "Ng1 Ng8" };
        knights.push_str(&format!("{}. {pair}\n", i + 1));
    }
    knights.push_str("*\n");
    let games = [
        ("knights.pgn", knights.as_str()),
        (
            "blitz-with-clocks.pgn",
            include_str!("../browser/games/blitz-with-clocks.pgn"),
        ),
        (
            "crazyhouse.pgn",
            include_str!("../browser/games/crazyhouse.pgn"),
        ),
    ];
    let served = support::serve_with("browser", 0, &games, &[]);
    // The games `xpgn query --fen` finds for the position the board
    // editor sets up (1. e4 e5 2. Nf3, Black to move, any castling).
    let query = support::xpgn(&[
        "query",
        "--db",
        served.db().to_str().unwrap(),
        "--fen",
        EDITOR_POSITION,
        "--format",
        "json",
    ]);
    let expected: Vec<String> = String::from_utf8_lossy(&query.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].to_string())
        .collect();
    assert!(!expected.is_empty(), "xpgn query --fen finds games");
    // The games and plies `xpgn query --piece` finds for the pattern the
    // editor sets up (a white knight on f3, a black one on f6).
    let query = support::xpgn(&[
        "query",
        "--db",
        served.db().to_str().unwrap(),
        "--piece",
        "white:N@f3",
        "--piece",
        "black:n@f6",
        "--format",
        "json",
    ]);
    let pattern_hits: Vec<String> = String::from_utf8_lossy(&query.stdout)
        .lines()
        .map(|l| {
            let v = serde_json::from_str::<serde_json::Value>(l).unwrap();
            format!("{}@{}", v["id"], v["ply"])
        })
        .collect();
    assert!(!pattern_hits.is_empty(), "xpgn query --piece finds games");
    let mut cmd = Command::new("node");
    cmd.arg(root.join("tests/browser/viewer.cjs"))
        .env("NODE_PATH", &modules)
        .env("XPGN_URL", format!("http://{}", served.addr))
        .env("XPGN_CHROMIUM", &chromium)
        .env("XPGN_SHOTS", &shots)
        .env("XPGN_EDITOR_POSITION", EDITOR_POSITION)
        .env("XPGN_EDITOR_GAMES", expected.join(","))
        .env("XPGN_PATTERN_GAMES", pattern_hits.join(","));
    if std::env::var_os("XPGN_DOCS_SCREENSHOTS").is_some() {
        cmd.env("XPGN_DOCS", root.join("docs"));
    }
    let o = cmd.output().expect("node runs");
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    println!("{out}");
    assert!(o.status.success(), "browser checks failed:\n{out}\n{err}");
    assert!(out.contains("ok: at that ply h8 holds the promoted white Courier"));
    assert!(out.contains("ok: clicking the variation move d5 shows its position"));
    assert!(out.contains("ok: an illegal move on the 12x8 board snaps back with the reason"));
    assert!(out.contains("ok: no horizontal overflow at 360 px"));
    assert!(out.contains("ok: the pasted game's diagnostic is shown"));
    assert!(out.contains("ok: dragging the knight from k1 to j3 plays"));
    assert!(out.contains("ok: the chosen move gates the Hawk onto g1"));
    assert!(out.contains("ok: a legal move made with the keyboard alone plays"));
    assert!(out.contains("ok: stepping past the window's last ply loads the next window"));
    assert!(
        out.contains("ok: End steps the pasted game to ply 1200, its last window posted again")
    );
    assert!(out.contains("ok: the editor's position finds the games xpgn query --fen finds"));
    assert!(out.contains("ok: the editor's pattern finds the games xpgn query --piece finds"));
    println!("screenshots in {}", shots.display());
}
