# shellcheck shell=bash
# After `docker restart` (sourced by tests/docker/run.sh): the service answers again, the signup
# from the first run (EMAIL) and the captcha secret (SECRET_BEFORE) are still there, and the same
# address again is refused as a duplicate.

check_restart() { # check_restart: docker restart of NAME keeps the row and the secret; a duplicate is 409
  local t0 out rows secret_after
  t0=$(now)
  docker restart -t 20 "$NAME" >/dev/null
  log "docker restart took $(elapsed "$t0")s"
  if wait_healthz 60; then pass "GET /healthz answers 200 after docker restart"; else fail "no /healthz after docker restart"; fi
  rows=$(export_rows "$NAME" 2>&1) || true
  if grep -qF "$EMAIL" <<<"$rows"; then pass "the row survives docker restart"; else fail "the row is gone after docker restart: ${rows:0:400}"; fi
  secret_after=$(secret_sum)
  if [[ -n $SECRET_BEFORE && $SECRET_BEFORE == "$secret_after" ]]; then
    pass "the generated captcha secret in /data is kept across the restart"
  else
    fail "the captcha secret changed or is missing across the restart ('$SECRET_BEFORE' → '$secret_after')"
  fi
  out=$(http POST "$BASE/api/newsletter" "$BODY")
  if [[ $out == 409* ]]; then pass "the same address again answers 409 after restart"; else fail "a duplicate after restart answered: $out"; fi
}
