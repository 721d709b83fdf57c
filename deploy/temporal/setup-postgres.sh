#!/bin/sh
# One-shot schema job: creates and migrates Temporal's two databases (idempotent; the tool skips applied versions).
set -eu
: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${POSTGRES_PWD:?}"
until pg_isready -h "$POSTGRES_SEEDS" -p "${DB_PORT:-5432}" -U "$POSTGRES_USER"; do sleep 1; done 2>/dev/null || true
base=/etc/temporal/schema/postgresql/v12
for db in temporal temporal_visibility; do
  dir=$base/temporal/versioned
  [ "$db" = temporal_visibility ] && dir=$base/visibility/versioned
  tool="temporal-sql-tool --plugin postgres12 --ep $POSTGRES_SEEDS -u $POSTGRES_USER -p ${DB_PORT:-5432} --pw $POSTGRES_PWD --db $db"
  $tool create || true
  $tool setup-schema -v 0.0
  $tool update-schema -d "$dir"
done
