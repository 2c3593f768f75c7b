# shellcheck shell=bash
# The end of the container's life (sourced by tests/docker/run.sh): `docker stop` is graceful and
# quick, the logs hold no visitor's address (EMAIL, ERASED_EMAIL), and a new container on the same
# volume — what an upgrade does — still has the row.

check_stop_and_upgrade() { # check_stop_and_upgrade: graceful docker stop, clean logs, the volume outlives the container
  local t0 stop_s code rows
  t0=$(now)
  docker stop -t 20 "$NAME" >/dev/null
  stop_s=$(elapsed "$t0")
  code=$(docker inspect --format '{{.State.ExitCode}}' "$NAME")
  # tini forwards SIGTERM to node; the service's handler closes down and exits 0. 143 would mean node
  # died of SIGTERM without its handler, 137 that nothing reacted and Docker sent SIGKILL.
  if awk -v s="$stop_s" 'BEGIN { exit !(s < 10) }' && [[ $code == 0 ]]; then
    pass "docker stop took ${stop_s}s (graceful shutdown, exit code 0)"
  else
    fail "docker stop took ${stop_s}s with exit code $code (expected under 10 s and 0)"
  fi
  # Read the logs whole first: with `docker logs | grep -q` under pipefail, grep leaving early on a
  # match could make docker logs fail on the closed pipe, and the check would pass wrongly.
  logs=$(docker logs "$NAME" 2>&1)
  if grep -qiF -e "$EMAIL" -e "$ERASED_EMAIL" <<<"$logs"; then fail "the logs contain a visitor's email address"; else pass "the container logs contain no visitor's email address"; fi

  # A new container on the same volume (what an upgrade does) still has the row.
  rows=$(docker run --rm --name "$NAME-2" --network none -v "$VOLUME:/data" "$IMAGE" export --email "$EMAIL" 2>/dev/null | newsletter_lines) || true
  if grep -qF "$EMAIL" <<<"$rows"; then pass "a new container on the same volume exports the row"; else fail "a new container on the volume does not see the row: ${rows:0:400}"; fi
}
