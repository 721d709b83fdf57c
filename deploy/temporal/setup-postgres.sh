#!/bin/sh
# One-shot schema job: creates and migrates Temporal's two databases (idempotent: the tool skips applied versions).
# Waits for PostgreSQL with the SQL tool itself (admin-tools ships no pg_isready), for at most DEPLOY_WAIT_SECONDS.
# Outside the image: TEMPORAL_SCHEMA_DIR (the server module's schema/ folder) and temporal-sql-tool on PATH.
set -eu
: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${POSTGRES_PWD:?}"
. "$(dirname "$0")/retry.sh"
base=${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema}/postgresql/v12
sql() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -u "$POSTGRES_USER" -p "${DB_PORT:-5432}" --pw "$POSTGRES_PWD" "$@"; }
# create-database fails both when PostgreSQL is not up yet and when the database exists; only the first is retried.
create() {
  out=$(sql --db "$1" create-database 2>&1) && return 0
  case "$out" in *"already exists"*) return 0 ;; esac
  printf '%s\n' "$out"
  return 1
}
for db in temporal temporal_visibility; do
  dir=$base/temporal/versioned
  [ "$db" = temporal_visibility ] && dir=$base/visibility/versioned
  retry "PostgreSQL at $POSTGRES_SEEDS:${DB_PORT:-5432} to create database $db" create "$db"
  sql --db "$db" setup-schema -v 0.0
  sql --db "$db" update-schema -d "$dir"
done
echo "temporal schema ready"
