#!/bin/sh
# Creates the namespace and chasqui's search attributes (listed in ./search-attributes) if they are missing, and exits
# once the frontend accepts queries on them. Every step waits and retries for at most DEPLOY_WAIT_SECONDS: a fresh
# server answers "Namespace default is not found" for a few seconds after creating it (its namespace cache).
set -eu
: "${TEMPORAL_ADDRESS:?}"
here=$(dirname "$0")
. "$here/retry.sh"
ns="${TEMPORAL_NAMESPACE:-default}"
t() { "${TEMPORAL_CLI:-temporal}" "$@" --address "$TEMPORAL_ADDRESS"; }
attributes=$(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$here/search-attributes")

healthy() { t operator cluster health | grep -q SERVING; }
retry "Temporal at $TEMPORAL_ADDRESS to be healthy" healthy
# Created at most once: a create whose answer was lost is seen by the next describe.
namespace() { t operator namespace describe -n "$ns" >/dev/null 2>&1 || t operator namespace create -n "$ns" --retention 30d; }
retry "namespace $ns to be created" namespace

register() {
  existing=$(t operator search-attribute list -n "$ns") || return 1
  echo "$attributes" | while read -r name type; do
    echo "$existing" | grep -qw "$name" || t operator search-attribute create -n "$ns" --name "$name" --type "$type" || exit 1
  done
}
retry "search attributes of $ns to be registered" register
# Registered is not yet usable: the frontend validates starts and queries against a cache refreshed on a timer.
usable() { echo "$attributes" | while read -r name _; do t workflow count -n "$ns" --query "$name IS NOT NULL" >/dev/null || exit 1; done; }
retry "search attributes of $ns to be usable" usable
echo "namespace $ns ready with search attributes $(echo "$attributes" | cut -d' ' -f1 | tr '\n' ' ')"
