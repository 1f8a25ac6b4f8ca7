#!/usr/bin/env bash
# Installs code-server (VS Code 1.139 in a browser, stable MCP API) for the end-to-end test into
# .e2e/, outside the extension's own node_modules. code-server needs Node 24, which the npm
# package `node@24` provides; its native modules (kerberos) need libkrb5-dev from apt.
# Cached: does nothing when both are already there. Usage: scripts/install-code-server.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD/.e2e"
NODE_DIR="$ROOT/node24"
CS_DIR="$ROOT/code-server"
CS_VERSION="4.139.1"
NODE24="$NODE_DIR/node_modules/node/bin/node"

if [ ! -x "$NODE24" ]; then
  mkdir -p "$NODE_DIR"
  npm install --prefix "$NODE_DIR" --no-audit --no-fund --loglevel=error node@24 >&2
fi
"$NODE24" --version >&2

if [ -f "$CS_DIR/node_modules/code-server/package.json" ] && \
   grep -q "\"version\": \"$CS_VERSION\"" "$CS_DIR/node_modules/code-server/package.json" && \
   [ -f "$CS_DIR/.installed" ]; then
  echo "code-server $CS_VERSION already installed in $CS_DIR" >&2
  exit 0
fi

if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  echo "libkrb5-dev missing: apt-get install -y libkrb5-dev" >&2
  exit 1
fi

mkdir -p "$CS_DIR"
# Run npm under Node 24 so code-server's postinstall builds its native modules for the Node it runs on.
NPM_CLI="$(dirname "$(command -v npm)")/../lib/node_modules/npm/bin/npm-cli.js"
[ -f "$NPM_CLI" ] || NPM_CLI="$(node -p "require.resolve('npm/bin/npm-cli.js', { paths: [require('path').dirname(process.execPath) + '/../lib/node_modules'] })")"
PATH="$(dirname "$NODE24"):$PATH" "$NODE24" "$NPM_CLI" install --prefix "$CS_DIR" --no-audit --no-fund \
  --loglevel=error --unsafe-perm "code-server@$CS_VERSION" >&2
touch "$CS_DIR/.installed"
echo "code-server $CS_VERSION installed in $CS_DIR" >&2
