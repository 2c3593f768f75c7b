# shellcheck shell=bash
# After `docker restart` (sourced by tests/docker/run.sh): the service answers again, the signup
# from the first run (EMAIL) and the captcha secret (SECRET_BEFORE) are still there, and the same
# address again is known: still waiting for its confirmation (double opt-in), so the answer is the
# same 201 "check your inbox" and no second row appears.

check_restart() { # check_restart: docker restart of NAME keeps the row and the secret; a repeat is the same pending row
  local t0 out rows secret_after
  t0=$(now)
  docker restart -t 20 "$NAME" >/dev/null
  log "docker restart took $(elapsed "$t0")s"
  if wait_healthz 60; then pass "GET /healthz answers 200 after docker restart"; else fail "no /healthz after docker restart"; fi
  rows=$(export_rows "$NAME" "$EMAIL" 2>&1) || true
  if grep -qF "$EMAIL" <<<"$rows"; then pass "the row survives docker restart"; else fail "the row is gone after docker restart: ${rows:0:400}"; fi
  secret_after=$(secret_sum)
  if [[ -n $SECRET_BEFORE && $SECRET_BEFORE == "$secret_after" ]]; then
    pass "the generated captcha secret in /data is kept across the restart"
  else
    fail "the captcha secret changed or is missing across the restart ('$SECRET_BEFORE' → '$secret_after')"
  fi
  out=$(http POST "$BASE/api/newsletter" "$BODY")
  rows=$(export_rows "$NAME" "$EMAIL" 2>&1) || true
  if [[ $out == 201*confirm_email* ]] && [[ $(grep -cF "$EMAIL" <<<"$rows") == 1 ]]; then
    pass "the same address again after restart is the one pending signup (201 check your inbox, one row)"
  else
    fail "a repeat after restart answered: $out; rows: ${rows:0:400}"
  fi
}
