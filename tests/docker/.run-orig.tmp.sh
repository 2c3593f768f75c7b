#!/usr/bin/env bash
# Proves the Dockerfile for real: starts a private Docker engine, makes a local stand-in for the
# base image (no registry is reachable here, so `node:20-bookworm-slim` cannot be pulled), builds
# the repository's Dockerfile unchanged, runs the image with a /data volume on a loopback port and
# checks what an operator relies on. Run as root on Debian 12 with Node 20 (CI: `.ci/run`).
#
#   bash tests/docker/run.sh            (npm run test:docker)
#
# Environment:
#   DOCKER_TEST_CACHE   where the stand-in base image tarball is kept between runs
#                       (default /var/cache/ingest-docker-test; set to "" to disable)
#   DOCKER_TEST_KEEP=1  leave the engine's temp dir in place after a failure, for a look
#
# What the stand-in is: Debian bookworm minbase (debootstrap) plus this machine's Node 20 laid out
# as the official image does (/usr/local/bin/node, npm and the node headers under /usr/local, a
# `node` user with uid 1000). Two things differ from the official image, both only because this
# machine's network is not the internet: npm is told the headers are local (`nodedir`, as node-gyp
# cannot download them), and it trusts this machine's CA bundle (outbound TLS is intercepted).
#
# Checks: the image builds; GET /healthz answers 200; POST /api/newsletter answers 201 and the row
# is exported by `ingest export` inside the container; the service runs as a non-root user; the
# database is on /data; the HEALTHCHECK turns healthy; after `docker restart` the row and the
# generated captcha secret are still there and a duplicate signup is 409; the operator's online
# backup (VACUUM INTO) and `ingest erase` work through `docker exec`; `docker stop` ends the
# container within 10 s with exit code 0 (SIGTERM reaches node, which shuts down gracefully); the
# logs hold no visitor's address; a new container on the same volume still exports the row.
# Prints PASS/FAIL lines, the time of each phase, and exits non-zero on any failure.
set -Eeuo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BASE_TAG=node:20-bookworm-slim
IMAGE=ingest:docker-test
CACHE_DIR=${DOCKER_TEST_CACHE-/var/cache/ingest-docker-test}
STANDIN_RECIPE=3 # bump when the stand-in recipe below changes, so a cached tarball is rebuilt

T_START=$(date +%s.%N)
PASSED=0
FAILED=0
PHASES=()
WORK=""
DOCKERD_PID=""
BRIDGE_EXISTED=1
NAME="ingest-docker-test-$$"
VOLUME="ingest-docker-test-$$"

log() { printf '[docker-test %(%H:%M:%S)T] %s\n' -1 "$*"; }
pass() { PASSED=$((PASSED + 1)); printf 'PASS: %s\n' "$*"; }
fail() { FAILED=$((FAILED + 1)); printf 'FAIL: %s\n' "$*"; }
die() { fail "$*"; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

PHASE_NAME=""
PHASE_T0=""
phase() { # phase NAME: closes the running phase (recording its time) and opens the next
  if [[ -n $PHASE_NAME ]]; then
    local took
    took=$(elapsed "$PHASE_T0")
    PHASES+=("$(printf '%-34s %7ss' "$PHASE_NAME" "$took")")
    log "phase '$PHASE_NAME' took ${took}s"
  fi
  PHASE_NAME=$1
  PHASE_T0=$(now)
  [[ -n $PHASE_NAME ]] && log "phase '$PHASE_NAME'"
  return 0
}

cleanup() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  [[ -n $PHASE_NAME ]] && phase ""
  local t0
  t0=$(now)
  if [[ -n $DOCKERD_PID ]] && kill -0 "$DOCKERD_PID" 2>/dev/null; then
    if ((status != 0 || FAILED > 0)); then
      log "container logs (last 40 lines):"
      docker logs --tail 40 "$NAME" 2>&1 | sed 's/^/    /'
    fi
    docker rm -f "$NAME" "$NAME-2" >/dev/null 2>&1
    docker volume rm -f "$VOLUME" >/dev/null 2>&1
    log "cleanup: containers and volume removed ($(elapsed "$t0")s)"
    kill -TERM "$DOCKERD_PID" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$DOCKERD_PID" 2>/dev/null; then
      log "dockerd did not stop in 20 s; killing it"
      kill -KILL "$DOCKERD_PID" 2>/dev/null
      sleep 1
    fi
  fi
  [[ -n $DOCKERD_PID ]] && log "cleanup: dockerd stopped ($(elapsed "$t0")s)"
  # dockerd leaves its bridge behind; remove it when this run created it.
  if ((BRIDGE_EXISTED == 0)) && ip link show docker0 >/dev/null 2>&1; then
    ip link delete docker0 2>/dev/null
  fi
  if [[ -n $WORK && -d $WORK ]]; then
    # Unmount whatever the engine left mounted under the temp dir (deepest first), then remove it.
    awk -v w="$WORK" 'index($2, w) == 1 { print $2 }' /proc/self/mounts | sort -r |
      while read -r m; do umount -l "$m" 2>/dev/null; done
    if ((status != 0 || FAILED > 0)) && [[ ${DOCKER_TEST_KEEP:-} == 1 ]]; then
      log "keeping $WORK (DOCKER_TEST_KEEP=1)"
    else
      rm -rf "$WORK"
    fi
  fi
  PHASES+=("$(printf '%-34s %7ss' cleanup "$(elapsed "$t0")")")
  echo
  echo "Phase timings:"
  printf '  %s\n' "${PHASES[@]}"
  printf '  %-34s %7ss\n' total "$(elapsed "$T_START")"
  if ((status == 0 && FAILED > 0)); then status=1; fi
  if ((status != 0 && FAILED == 0)); then FAILED=1; echo "FAIL: the script stopped early (exit $status)"; fi
  echo
  echo "docker: $PASSED passed, $FAILED failed"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --------------------------------------------------------------------------------------------
phase "prerequisites"
[[ $(id -u) == 0 ]] || die "must run as root (it starts a Docker engine and runs debootstrap)"
command -v node >/dev/null || die "node is required on the host"
need=()
command -v dockerd >/dev/null || need+=(docker.io)
command -v debootstrap >/dev/null || need+=(debootstrap)
if ((${#need[@]})); then
  log "apt-get install ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 apt-get install -y -qq --no-install-recommends \
    "${need[@]}" >/dev/null
fi
# Prefer the client packaged with this dockerd (same API version); any docker client works.
if [[ -x /usr/bin/docker ]]; then DOCKER_BIN=/usr/bin/docker; else DOCKER_BIN=$(command -v docker); fi
[[ -n $DOCKER_BIN ]] || die "no docker client found"
export DOCKER_BUILDKIT=0 # the legacy builder: no BuildKit/buildx here

# --------------------------------------------------------------------------------------------
phase "start dockerd"
WORK=$(mktemp -d /tmp/ingest-docker-test.XXXXXX)
ip link show docker0 >/dev/null 2>&1 || BRIDGE_EXISTED=0
export DOCKER_HOST="unix://$WORK/docker.sock"
docker() { "$DOCKER_BIN" "$@"; }
# No iptables rules and no ip_forward change on the host: the build uses the host's network and
# the container is reached on 127.0.0.1 through docker-proxy, so neither NAT nor forwarding is needed.
dockerd --data-root "$WORK/data" --exec-root "$WORK/exec" --pidfile "$WORK/docker.pid" \
  -H "$DOCKER_HOST" --iptables=false --ip-forward=false >"$WORK/dockerd.log" 2>&1 &
DOCKERD_PID=$!
for _ in $(seq 1 150); do
  docker version >/dev/null 2>&1 && break
  kill -0 "$DOCKERD_PID" 2>/dev/null || { tail -20 "$WORK/dockerd.log"; die "dockerd exited at start"; }
  sleep 0.2
done
docker version >/dev/null 2>&1 || { tail -20 "$WORK/dockerd.log"; die "dockerd did not answer in 30 s"; }
log "engine $(docker version --format '{{.Server.Version}}') on $DOCKER_HOST"

# --------------------------------------------------------------------------------------------
phase "stand-in base image"
NODE_VERSION=$(node -p 'process.versions.node')
[[ ${NODE_VERSION%%.*} == 20 ]] || die "the stand-in needs this machine's node to be Node 20 (found $NODE_VERSION)"
NODE_BIN=$(readlink -f "$(command -v node)")
NODE_PREFIX=$(dirname "$(dirname "$NODE_BIN")")
NPM_DIR="$NODE_PREFIX/lib/node_modules/npm"
NODE_HEADERS="$NODE_PREFIX/include/node"
[[ -d $NPM_DIR ]] || die "npm not found at $NPM_DIR"
[[ -f $NODE_HEADERS/node.h ]] || die "node headers not found at $NODE_HEADERS (node-gyp needs them)"
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
CACHE_KEY=$(
  {
    echo "recipe $STANDIN_RECIPE"
    sha256sum "$NODE_BIN" | cut -c1-64
    cat "$NPM_DIR/package.json" | sha256sum | cut -c1-64
    [[ -f $CA_BUNDLE ]] && sha256sum "$CA_BUNDLE" | cut -c1-64
  } | sha256sum | cut -c1-16
)
CACHED=""
[[ -n $CACHE_DIR ]] && CACHED="$CACHE_DIR/node-$NODE_VERSION-bookworm-slim-$CACHE_KEY.tar"

make_standin() { # make_standin TARBALL: debootstrap + this machine's node, as a tar of the root fs
  local rootfs="$WORK/rootfs" out=$1 t0
  t0=$(now)
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian \
    >"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log"; die "debootstrap failed"; }
  log "debootstrap took $(elapsed "$t0")s"
  # Node laid out like the official image: /usr/local/{bin,lib/node_modules,include}.
  install -D -m 0755 "$NODE_BIN" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include" "$rootfs/usr/local/etc"
  cp -a "$NPM_DIR" "$rootfs/usr/local/lib/node_modules/npm"
  cp -a "$NODE_HEADERS" "$rootfs/usr/local/include/node"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # Only because of this machine's network (see the header): local headers, local CA bundle.
  {
    echo "nodedir=/usr/local"
    echo "update-notifier=false"
    if [[ -f $CA_BUNDLE ]]; then echo "cafile=/usr/local/etc/ca-certificates.crt"; fi
  } >"$rootfs/usr/local/etc/npmrc"
  [[ -f $CA_BUNDLE ]] && cp "$CA_BUNDLE" "$rootfs/usr/local/etc/ca-certificates.crt"
  # Apt sources as in the official image (bookworm, bookworm-updates, bookworm-security).
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  chroot "$rootfs" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin groupadd --gid 1000 node
  chroot "$rootfs" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  chroot "$rootfs" env -i /usr/local/bin/node -e 'process.exit(0)' || die "node does not run in the stand-in"
  # Slim like the official image: no package caches, lists, docs or locales.
  rm -rf "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/* "$rootfs"/var/log/*.log
  tar --numeric-owner -C "$rootfs" -cf "$out" .
  rm -rf "$rootfs"
}

if [[ -n $CACHED && -s $CACHED ]]; then
  log "using cached stand-in $CACHED"
  TARBALL=$CACHED
else
  TARBALL="$WORK/standin.tar"
  make_standin "$TARBALL"
  if [[ -n $CACHED ]] && mkdir -p "$CACHE_DIR" 2>/dev/null; then
    rm -f "$CACHE_DIR"/node-*-bookworm-slim-*.tar
    mv "$TARBALL" "$CACHED.part" && mv "$CACHED.part" "$CACHED" && TARBALL=$CACHED
    log "cached the stand-in as $CACHED ($(du -h "$CACHED" | cut -f1))"
  fi
fi
docker import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  --change 'CMD ["node"]' \
  "$TARBALL" "$BASE_TAG" >/dev/null
docker run --rm --network none "$BASE_TAG" node -e 'console.log("stand-in runs node " + process.version)'

# --------------------------------------------------------------------------------------------
phase "docker build"
# --network host: RUN steps reach Debian's apt and the npm registry through the host's network.
if docker build --network host -t "$IMAGE" "$REPO" >"$WORK/build.log" 2>&1; then
  pass "docker build of the unchanged Dockerfile ($(elapsed "$PHASE_T0")s)"
else
  grep -nE 'npm error (code|Missing)|^E: |error:|returned a non-zero code' "$WORK/build.log" | head -20
  echo "    ... last lines of the build log:"
  tail -30 "$WORK/build.log" | sed 's/^/    /'
  die "docker build failed (log above)"
fi
log "image size: $(docker image inspect --format '{{.Size}}' "$IMAGE" | awk '{ printf "%.0f MB", $1 / 1e6 }')"

# --------------------------------------------------------------------------------------------
phase "run and check"
# The health interval is shortened for the test only; the check command is the image's own.
# A fixed host port (a free one, chosen now): `-p 127.0.0.1::8787` would pick a new one on restart.
HOST_PORT=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
docker volume create "$VOLUME" >/dev/null
docker run -d --name "$NAME" -v "$VOLUME:/data" -p "127.0.0.1:$HOST_PORT:8787" \
  --health-interval 2s --health-start-period 60s --health-retries 3 \
  -e SALES_EMAIL=sales@example.com "$IMAGE" >/dev/null 2>"$WORK/run.err" || { cat "$WORK/run.err"; die "docker run failed"; }
# (dockerd runs with --ip-forward=false, so docker warns that container networking will not work:
# outbound traffic indeed would not, and is not needed; the published loopback port works.)
grep -v 'IPv4 forwarding is disabled' "$WORK/run.err" || true
BASE="http://127.0.0.1:$HOST_PORT"
log "container $NAME on $BASE"

# http METHOD URL [JSON]: prints "STATUS BODY" (node, as the host may have no curl).
http() {
  node -e '
    const [method, url, body] = process.argv.slice(1);
    const init = { method, signal: AbortSignal.timeout(5000) };
    if (body) { init.body = body; init.headers = { "content-type": "application/json" }; }
    fetch(url, init).then(async (r) => console.log(r.status, (await r.text()).slice(0, 300)),
      (e) => { console.log(0, String(e.cause?.code ?? e.message)); });
  ' "$@"
}
wait_healthz() { # wait_healthz SECONDS: until /healthz answers 200
  local deadline=$(($(date +%s) + $1)) out
  while (($(date +%s) < deadline)); do
    out=$(http GET "$BASE/healthz")
    [[ $out == 200* ]] && return 0
    [[ $(docker inspect --format '{{.State.Running}}' "$NAME") == true ]] || return 1
    sleep 0.5
  done
  return 1
}
export_rows() { docker exec "$1" node ingest/bin.js export --table newsletter --format jsonl; }

t0=$(now)
if wait_healthz 60; then pass "GET /healthz answers 200 ($(elapsed "$t0")s after docker run)"; else die "GET /healthz did not answer 200 in 60 s"; fi

EMAIL="docker-test-$$-$(date +%s)@example.com"
BODY=$(printf '{"name":"Ada Docker","email":"%s","privacyConsent":true,"marketingConsent":false,"lang":"en"}' "$EMAIL")
out=$(http POST "$BASE/api/newsletter" "$BODY")
if [[ $out == 201* ]]; then pass "POST /api/newsletter answers 201"; else fail "POST /api/newsletter answered: $out"; fi

rows=$(export_rows "$NAME" 2>&1) || true
if grep -qF "$EMAIL" <<<"$rows"; then pass "the row is in the database (ingest export in the container)"; else fail "ingest export does not list the row: ${rows:0:400}"; fi

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

data_files=$(docker exec "$NAME" ls -A /data | tr '\n' ' ')
log "/data holds: $data_files"
[[ $data_files == *ingest.sqlite* ]] && pass "the database file is on the /data volume" || fail "no ingest.sqlite under /data ($data_files)"

t0=$(now)
health=""
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

secret_sum() { docker exec "$NAME" sh -c 'sha256sum /data/captcha-secret 2>/dev/null | cut -c1-64'; }
secret_before=$(secret_sum)

# --------------------------------------------------------------------------------------------
phase "restart and stop"
t0=$(now)
docker restart -t 20 "$NAME" >/dev/null
log "docker restart took $(elapsed "$t0")s"
if wait_healthz 60; then pass "GET /healthz answers 200 after docker restart"; else fail "no /healthz after docker restart"; fi
rows=$(export_rows "$NAME" 2>&1) || true
if grep -qF "$EMAIL" <<<"$rows"; then pass "the row survives docker restart"; else fail "the row is gone after docker restart: ${rows:0:400}"; fi
secret_after=$(secret_sum)
if [[ -n $secret_before && $secret_before == "$secret_after" ]]; then
  pass "the generated captcha secret in /data is kept across the restart"
else
  fail "the captcha secret changed or is missing across the restart ('$secret_before' → '$secret_after')"
fi
out=$(http POST "$BASE/api/newsletter" "$BODY")
if [[ $out == 409* ]]; then pass "the same address again answers 409 after restart"; else fail "a duplicate after restart answered: $out"; fi

# The operator's backup and erasure commands (.tmp/operator-docker.md), through docker exec.
EMAIL2="docker-erase-$$-$(date +%s)@example.com"
out=$(http POST "$BASE/api/newsletter" "${BODY//$EMAIL/$EMAIL2}")
[[ $out == 201* ]] || fail "a second POST /api/newsletter answered: $out"
if out=$(docker exec "$NAME" node -e "new (require('better-sqlite3'))('/data/ingest.sqlite').exec(\"VACUUM INTO '/data/backup-test.sqlite'\")" 2>&1); then
  rows=$(docker exec -e DATABASE_URL=sqlite:/data/backup-test.sqlite "$NAME" \
    node ingest/bin.js export --table newsletter --format jsonl 2>&1) || true
else
  rows="VACUUM INTO failed: $out"
fi
docker exec "$NAME" rm -f /data/backup-test.sqlite /data/backup-test.sqlite-wal /data/backup-test.sqlite-shm
if grep -qF "$EMAIL" <<<"$rows" && grep -qF "$EMAIL2" <<<"$rows"; then
  pass "an online backup (VACUUM INTO through docker exec) holds both rows"
else
  fail "the online backup does not hold the rows: ${rows:0:400}"
fi
erased=$(docker exec "$NAME" node ingest/bin.js erase --email "$EMAIL2" 2>&1) || true
rows=$(export_rows "$NAME" 2>&1) || true
if [[ $erased == *"newsletter 1"* ]] && ! grep -qF "$EMAIL2" <<<"$rows" && grep -qF "$EMAIL" <<<"$rows"; then
  pass "ingest erase through docker exec removes exactly that address ($erased)"
else
  fail "ingest erase through docker exec: '$erased'; rows now: ${rows:0:400}"
fi

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
if docker logs "$NAME" 2>&1 | grep -qiF -e "$EMAIL" -e "$EMAIL2"; then fail "the logs contain a visitor's email address"; else pass "the container logs contain no visitor's email address"; fi

# A new container on the same volume (what an upgrade does) still has the row.
rows=$(docker run --rm --name "$NAME-2" --network none -v "$VOLUME:/data" "$IMAGE" export --table newsletter --format jsonl 2>&1) || true
if grep -qF "$EMAIL" <<<"$rows"; then pass "a new container on the same volume exports the row"; else fail "a new container on the volume does not see the row: ${rows:0:400}"; fi

phase ""
