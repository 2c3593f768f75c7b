# shellcheck shell=bash
# The operator's backup and erasure commands, as docs/operators.md's "Back up and restore" and "Operator commands"
# give them, run through `docker exec` in the container NAME (sourced by tests/docker/run.sh).

check_backup_and_erase() { # check_backup_and_erase: an online backup holds the rows; `ingest erase` removes one address
  local email2 out rows erased
  email2="docker-erase-$$-$(date +%s)@example.com"
  out=$(http POST "$BASE/api/newsletter" "${BODY//$EMAIL/$email2}")
  [[ $out == 201* ]] || fail "a second POST /api/newsletter answered: $out"
  if out=$(docker exec "$NAME" node -e "new (require('better-sqlite3'))('/data/ingest.sqlite').exec(\"VACUUM INTO '/data/backup-test.sqlite'\")" 2>&1); then
    rows=$(for address in "$EMAIL" "$email2"; do
      docker exec -e DATABASE_URL=sqlite:/data/backup-test.sqlite "$NAME" node ingest/bin.js export --email "$address" 2>/dev/null | newsletter_lines
    done) || true
  else
    rows="VACUUM INTO failed: $out"
  fi
  docker exec "$NAME" rm -f /data/backup-test.sqlite /data/backup-test.sqlite-wal /data/backup-test.sqlite-shm
  if grep -qF "$EMAIL" <<<"$rows" && grep -qF "$email2" <<<"$rows"; then
    pass "an online backup (VACUUM INTO through docker exec) holds both rows"
  else
    fail "the online backup does not hold the rows: ${rows:0:400}"
  fi
  erased=$(docker exec "$NAME" node ingest/bin.js erase --email "$email2" 2>&1) || true
  rows=$(export_rows "$NAME" "$EMAIL" "$email2" 2>&1) || true
  if [[ $erased == *"newsletter 1"* ]] && ! grep -qF "$email2" <<<"$rows" && grep -qF "$EMAIL" <<<"$rows"; then
    pass "ingest erase through docker exec removes exactly that address ($erased)"
  else
    fail "ingest erase through docker exec: '$erased'; rows now: ${rows:0:400}"
  fi
  # shellcheck disable=SC2034 # read by check_stop_and_upgrade (checks/stop-and-upgrade.sh)
  ERASED_EMAIL=$email2
}
