# Sourced by the deploy scripts (POSIX sh: the temporalio/admin-tools image is Alpine's busybox).
# retry "what" cmd args...: runs cmd until it succeeds, every RETRY_INTERVAL seconds (2) for at most
# DEPLOY_WAIT_SECONDS (180); then prints what was awaited with the command's last output, and fails.
retry() {
  what=$1
  shift
  started=$(date +%s)
  while :; do
    if out=$("$@" 2>&1); then
      [ -n "$out" ] && printf '%s\n' "$out"
      return 0
    fi
    if [ $(($(date +%s) - started)) -ge "${DEPLOY_WAIT_SECONDS:-180}" ]; then
      echo "gave up after ${DEPLOY_WAIT_SECONDS:-180}s waiting for $what; last answer:" >&2
      printf '%s\n' "$out" | tail -n 5 >&2
      return 1
    fi
    sleep "${RETRY_INTERVAL:-2}"
  done
}
