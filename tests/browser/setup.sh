#!/usr/bin/env sh
# Installs what tests/it/browser.rs needs: Debian's Chromium, Node.js and npm
# (when missing, with apt-get, as root), and playwright-core at the version
# pinned in tests/browser/package.json, into target/browser-node/ (npm
# never downloads a browser here). `cargo test` itself installs nothing.
set -eu
cd "$(dirname "$0")/../.."
missing=""
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq $missing >/dev/null
  else
    echo "tests/browser/setup.sh: install$missing (Debian: apt-get install -y$missing)" >&2
    exit 1
  fi
fi
mkdir -p target/browser-node
cp tests/browser/package.json target/browser-node/package.json
cd target/browser-node
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --ignore-scripts --silent
echo "browser test ready: $(command -v chromium || echo /usr/bin/chromium), node $(node --version), playwright-core in target/browser-node"
