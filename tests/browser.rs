//! The viewer in a real browser: headless Chromium, driven by
//! `tests/browser/viewer.cjs` (Node and playwright-core), over `xpgn
//! serve` on a database of the samples and a hostile game.
//!
//! Chromium: `$XPGN_CHROMIUM`, else `/usr/bin/chromium` (or `chromium` on
//! the path); when missing, `apt-get install -y chromium` is tried (as
//! root). Only when it can be neither found nor installed is the test
//! skipped, with a message saying so. Node is required; playwright-core is
//! installed with npm into `target/browser-node/` on the first run (the
//! version pinned in `tests/browser/package.json`; it never downloads a
//! browser).
//!
//! Screenshots go to `target/browser-shots/`; with
//! `XPGN_DOCS_SCREENSHOTS=1` the two README screenshots are written to
//! `docs/` instead.
#![cfg(feature = "serve")]

mod support;

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

/// Chromium, installed with apt-get when missing and possible.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = find_chromium() {
        return Some(p);
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if root && runs("apt-get", &["--version"]) {
        eprintln!("browser test: chromium missing, trying apt-get install -y chromium");
        if !runs("apt-get", &["install", "-y", "chromium"]) {
            let _ = runs("apt-get", &["update"]);
            let _ = runs("apt-get", &["install", "-y", "chromium"]);
        }
    }
    find_chromium()
}

/// The folder holding `node_modules/playwright-core`, installed if needed.
fn playwright(root: &Path) -> PathBuf {
    let dir = root.join("target/browser-node");
    let pinned = std::fs::read_to_string(root.join("tests/browser/package.json")).unwrap();
    let installed = std::fs::read_to_string(dir.join("package.json")).unwrap_or_default();
    if installed != pinned
        || !dir
            .join("node_modules/playwright-core/package.json")
            .exists()
    {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("package.json"), &pinned).unwrap();
        let o = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--ignore-scripts"])
            .current_dir(&dir)
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .output()
            .expect("npm runs (the browser test needs Node and npm)");
        assert!(
            o.status.success(),
            "npm install playwright-core failed in {}:\n{}",
            dir.display(),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    dir.join("node_modules")
}

#[test]
fn the_viewer_works_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        println!(
            "SKIPPED the_viewer_works_in_headless_chromium: chromium not found (XPGN_CHROMIUM, \
             /usr/bin/chromium, PATH) and it could not be installed (apt-get install -y chromium)"
        );
        return;
    };
    assert!(
        runs("node", &["--version"]),
        "the browser test needs Node.js (`node`) to drive Chromium with playwright-core"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let modules = playwright(root);
    let shots = root.join("target/browser-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let served = support::serve("browser", 0);
    let mut cmd = Command::new("node");
    cmd.arg(root.join("tests/browser/viewer.cjs"))
        .env("NODE_PATH", &modules)
        .env("XPGN_URL", format!("http://{}", served.addr))
        .env("XPGN_CHROMIUM", &chromium)
        .env("XPGN_SHOTS", &shots);
    if std::env::var_os("XPGN_DOCS_SCREENSHOTS").is_some() {
        cmd.env("XPGN_DOCS", root.join("docs"));
    }
    let o = cmd.output().expect("node runs");
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    println!("{out}");
    assert!(o.status.success(), "browser checks failed:\n{out}\n{err}");
    assert!(out.contains("ok: at that ply h8 holds the promoted white Courier"));
    println!("screenshots in {}", shots.display());
}
