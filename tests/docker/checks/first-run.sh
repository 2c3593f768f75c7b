# shellcheck shell=bash
# The first run of the image (sourced by tests/docker/run.sh): `start_container` runs IMAGE as NAME
# with the volume VOLUME on /data and a loopback port (BASE); `check_first_run` checks that it
# answers, stores a signup, runs as non-root, keeps its database on /data and turns healthy. It
# leaves EMAIL and BODY (the signup) and SECRET_BEFORE (the captcha secret's sum) for later checks.

start_container() { # start_container: docker run of IMAGE as NAME, reachable at BASE
  # The health interval is shortened for the test only; the check command is the image's own.
  # A fixed host port (a free one, chosen now): `-p 127.0.0.1::8787` would pick a new one on restart.
  local host_port
  host_port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
  docker volume create "$VOLUME" >/dev/null
  docker run -d --name "$NAME" -v "$VOLUME:/data" -p "127.0.0.1:$host_port:8787" \
    --health-interval 2s --health-start-period 60s --health-retries 3 \
    -e SALES_EMAIL=sales@example.com "$IMAGE" >/dev/null 2>"$WORK/run.err" || { cat "$WORK/run.err"; die "docker run failed"; }
  # (dockerd runs with --ip-forward=false, so docker warns that container networking will not work:
  # outbound traffic indeed would not, and is not needed; the published loopback port works.)
  grep -v 'IPv4 forwarding is disabled' "$WORK/run.err" || true
  BASE="http://127.0.0.1:$host_port"
  log "container $NAME on $BASE"
}

check_first_run() { # check_first_run: /healthz, a signup stored, non-root, /data, HEALTHCHECK
  local t0 out rows
  t0=$(now)
  if wait_healthz 60; then pass "GET /healthz answers 200 ($(elapsed "$t0")s after docker run)"; else die "GET /healthz did not answer 200 in 60 s"; fi

  EMAIL="docker-test-$$-$(date +%s)@example.com"
  BODY=$(printf '{"name":"Ada Docker","email":"%s","privacyConsent":true,"marketingConsent":false,"lang":"en"}' "$EMAIL")
  out=$(http POST "$BASE/api/newsletter" "$BODY")
  if [[ $out == 201* ]]; then pass "POST /api/newsletter answers 201"; else fail "POST /api/newsletter answered: $out"; fi

  rows=$(export_rows "$NAME" "$EMAIL" 2>&1) || true
  if grep -qF "$EMAIL" <<<"$rows"; then pass "the row is in the database (ingest export in the container)"; else fail "ingest export does not list the row: ${rows:0:400}"; fi

  local uid_exec uid_proc user_cfg pid1
  uid_exec=$(docker exec "$NAME" id -u)
  uid_proc=$(docker exec "$NAME" sh -c 'for s in /proc/[0-9]*/status; do
    grep -q "^Name:[[:space:]]*node" "$s" && awk "/^Uid:/ { print \$2 }" "$s" && break; done')
  user_cfg=$(docker inspect --format '{{.Config.User}}' "$NAME")
  if [[ -n $uid_proc && $uid_proc != 0 && $uid_exec != 0 ]]; then
    pass "runs as a non-root user (image USER $user_cfg, server uid $uid_proc, exec uid $uid_exec)"
  else
    fail "runs as root or unknown (image USER '$user_cfg', server uid '$uid_proc', exec uid '$uid_exec')"
  fi
  pid1=$(docker exec "$NAME" cat /proc/1/comm)
  log "PID 1 in the container: $pid1"

  local data_files
  data_files=$(docker exec "$NAME" ls -A /data | tr '\n' ' ')
  log "/data holds: $data_files"
  if [[ $data_files == *ingest.sqlite* ]]; then pass "the database file is on the /data volume"; else fail "no ingest.sqlite under /data ($data_files)"; fi

  local health=""
  t0=$(now)
  for _ in $(seq 1 60); do
    health=$(docker inspect --format '{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$NAME")
    [[ $health == healthy || $health == unhealthy ]] && break
    sleep 1
  done
  if [[ $health == healthy ]]; then
    pass "HEALTHCHECK reports healthy ($(elapsed "$t0")s)"
  else
    fail "HEALTHCHECK status '$health'; last probe: $(docker inspect --format '{{json .State.Health.Log}}' "$NAME" | tail -c 300)"
  fi

  # shellcheck disable=SC2034 # read by check_restart (checks/restart.sh)
  SECRET_BEFORE=$(secret_sum)
}
