#!/usr/bin/env bash
# Installs code-server (VS Code in the browser, from npm) for the VS Code
# end-to-end test (tests/vscode-e2e), idempotently, under .cache/code-server/.
# Prints the path of the code-server launcher on stdout; everything else on stderr.
#
# A plain `npm install code-server` cannot work on a machine that reaches only
# the package registries, as root: its postinstall refuses root and
# @vscode/ripgrep downloads a binary from GitHub. So: install with --ignore-scripts, then do by hand what the
# postinstall would (nested installs, native rebuilds, links), with Debian's rg.
# 4.100.3 (VS Code 1.100) is the newest code-server whose engines.node is 20.
#
# Re-running is cheap: nothing happens while the stamp matches this script.
# The install goes to a temporary folder that is renamed only when complete.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VERSION=${CODE_SERVER_VERSION:-4.100.3}
DEST=$ROOT/.cache/code-server
LAUNCHER=$DEST/node_modules/code-server/out/node/entry.js
STAMP=$DEST/.stamp
want=$( { cat "$0"; echo "$VERSION"; node --version; } | sha256sum | cut -c1-16)

log() { echo "setup-code-server: $*" >&2; }

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -f "$LAUNCHER" ]; then
  echo "$LAUNCHER"
  exit 0
fi

# System packages: GSSAPI headers for the `kerberos` native module, pkg-config,
# Debian's ripgrep (search in the workbench), a C++ toolchain for node-gyp.
missing=()
for pkg in libkrb5-dev pkg-config ripgrep g++ make python3; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi
RG=$(command -v rg)

TMP=$ROOT/.cache/code-server.tmp
rm -rf "$TMP"
mkdir -p "$TMP"
cd "$TMP"
echo '{"name": "tapewatch-code-server", "private": true}' > package.json
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false npm_config_yes=true

# node-gyp builds the native modules against Node's headers. Without a `nodedir` it downloads
# them from nodejs.org into ~/.cache/node-gyp, which a machine that reaches only the package
# registries cannot do. Where the distribution installed the headers of the very `node` that
# runs (Debian's nodejs: /usr/include/node), build against those, whatever the user's npm
# config says, so that the script works from any home directory.
node_headers() {
  local prefix version header
  prefix=$(node -p 'require("path").dirname(require("path").dirname(process.execPath))')
  version=$(node -p 'process.versions.node')
  header=$prefix/include/node/node_version.h
  [ -f "$prefix/include/node/node.h" ] && [ -f "$header" ] || return 1
  # The headers must be this node's, or the modules would not load (another ABI).
  [ "$(awk '/define NODE_(MAJOR|MINOR|PATCH)_VERSION /{v = v (v ? "." : "") $3} END {print v}' "$header")" = "$version" ] \
    || return 1
  echo "$prefix"
}
if [ -n "${npm_config_nodedir:-}" ]; then
  log "node-gyp: nodedir $npm_config_nodedir (from the environment)"
elif nodedir=$(node_headers); then
  export npm_config_nodedir=$nodedir
  log "node-gyp: nodedir $nodedir (the headers of $(command -v node))"
else
  log "node-gyp: no headers of this node ($(node --version)) under its prefix: node-gyp will download them"
fi

log "npm install --ignore-scripts code-server@$VERSION"
npm install --ignore-scripts --no-save --loglevel=error "code-server@$VERSION" >&2

CS=$TMP/node_modules/code-server
VS=$CS/lib/vscode
[ -d "$VS" ] || { log "no lib/vscode in code-server@$VERSION"; exit 1; }

log "lib/vscode: npm install --omit=dev --ignore-scripts"
(cd "$VS" && npm install --omit=dev --ignore-scripts --loglevel=error >&2)
log "lib/vscode: npm rebuild of the native modules"
(cd "$VS" && npm rebuild --loglevel=error kerberos @parcel/watcher node-pty native-watchdog @vscode/spdlog @vscode/deviceid >&2)

log "lib/vscode: links (node_modules.asar, rg, remote-cli, browser helper)"
ln -sfn node_modules "$VS/node_modules.asar"
mkdir -p "$VS/node_modules/@vscode/ripgrep/bin"
ln -sfn "$RG" "$VS/node_modules/@vscode/ripgrep/bin/rg"
if [ -d "$VS/bin/remote-cli" ]; then
  ln -sfn code-linux.sh "$VS/bin/remote-cli/code-server"
fi
if [ -d "$VS/bin/helpers" ]; then
  ln -sfn browser-linux.sh "$VS/bin/helpers/browser.sh"
fi

log "lib/vscode/extensions: npm install --omit=dev --ignore-scripts"
(cd "$VS/extensions" && npm install --omit=dev --ignore-scripts --loglevel=error >&2)

log "npm rebuild argon2"
npm rebuild --loglevel=error argon2 >&2

cd "$ROOT"
log "checking: code-server --version"
# (its own config folder: code-server writes a default config.yaml on first start)
XDG_CONFIG_HOME=$TMP/.xdg XDG_DATA_HOME=$TMP/.xdg \
  node "$TMP/node_modules/code-server/out/node/entry.js" --version >&2
rm -rf "$TMP/.xdg"

rm -rf "$DEST"
mv "$TMP" "$DEST"
echo "$want" > "$STAMP"
log "installed code-server $VERSION in ${DEST#"$ROOT"/}"
echo "$LAUNCHER"
