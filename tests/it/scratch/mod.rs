//! Scratch directories for tests, removed when each test ends.

use std::path::{Path, PathBuf};

/// A fresh, empty directory for one test, removed when the test ends,
/// whether it passes or fails.
pub struct Scratch(PathBuf);

impl Scratch {
    /// `xpgn-{prefix}-{pid}-{name}` under the temp folder, emptied first.
    pub fn new(prefix: &str, name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("xpgn-{prefix}-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
