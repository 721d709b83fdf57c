#!/usr/bin/env bash
# Builds (or reuses) the Temporal server and its SQL schema tool at the version docker-compose.yml runs, from the Go
# module proxy, into a cache outside the clone: ${CHASQUI_CACHE_DIR:-~/.cache/chasqui}/temporal-server/<version>/.
# Prints that directory (holding `temporal-server`, `temporal-sql-tool` and the module's `schema/`, laid out as in
# the temporalio images so deploy/temporal/*.sh run unchanged). For running the production shape without
# Docker (npm run test:production, npm run bench:cost); compose itself uses the temporalio images.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=${TEMPORAL_SERVER_VERSION:-$(sed -n 's#^ *image: temporalio/server:\([0-9.]*\)$#\1#p' "$here/../../docker-compose.yml" | head -1)}
[ -n "$version" ] || { echo "build-server: no temporalio/server version in docker-compose.yml" >&2; exit 1; }
dir="${CHASQUI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/chasqui}/temporal-server/$version"
ready() { [ -x "$dir/temporal-server" ] && [ -x "$dir/temporal-sql-tool" ] && [ -d "$dir/schema/postgresql" ]; }
if ready; then echo "$dir"; exit 0; fi
command -v go >/dev/null || { echo "build-server: Go is needed to build Temporal server $version (https://go.dev/dl)" >&2; exit 1; }
mkdir -p "$dir"
exec 9>"$dir.lock"
flock 9 # two builds at once (a bench and a test) share one result
if ! ready; then
  tmp=$(mktemp -d "$dir.build.XXXXXX")
  echo "build-server: building Temporal server $version and its SQL tool with $(go version | cut -d' ' -f3) (several minutes the first time)" >&2
  started=$(date +%s)
  GOBIN="$tmp" GOFLAGS=-trimpath go install "go.temporal.io/server/cmd/server@v$version" "go.temporal.io/server/cmd/tools/sql@v$version" >&2
  mv "$tmp/server" "$dir/temporal-server"
  mv "$tmp/sql" "$dir/temporal-sql-tool"
  rm -rf "$dir/schema"
  cp -R "$(go env GOMODCACHE)/go.temporal.io/server@v$version/schema" "$dir/schema"
  chmod -R u+w "$dir/schema"
  rmdir "$tmp"
  echo "build-server: built in $(( $(date +%s) - started ))s into $dir" >&2
fi
echo "$dir"
