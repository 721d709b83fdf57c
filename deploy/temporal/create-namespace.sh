#!/bin/sh
# Waits for the server, then creates the namespace and chasqui's search attributes if they are missing.
set -eu
ns="${TEMPORAL_NAMESPACE:-default}"
attempts=0
until temporal operator cluster health --address "$TEMPORAL_ADDRESS" | grep -q SERVING; do
  attempts=$((attempts + 1))
  [ "$attempts" -gt 60 ] && { echo "temporal did not become healthy" >&2; exit 1; }
  sleep 2
done
temporal operator namespace describe --address "$TEMPORAL_ADDRESS" -n "$ns" >/dev/null 2>&1 ||
  temporal operator namespace create --address "$TEMPORAL_ADDRESS" -n "$ns" --retention 30d
existing=$(temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" -n "$ns")
# The same list as workflows/search-attributes.ts (SEARCH_ATTRIBUTES), as name:type.
for attribute in Ruc:Keyword DocType:Keyword DocStatus:Keyword DocNumber:Keyword IssueDate:Datetime; do
  name=${attribute%%:*}
  echo "$existing" | grep -qw "$name" ||
    temporal operator search-attribute create --address "$TEMPORAL_ADDRESS" -n "$ns" --name "$name" --type "${attribute#*:}"
done
echo "namespace $ns ready"
