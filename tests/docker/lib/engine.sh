# shellcheck shell=bash
# The private Docker engine of the container proof (sourced by tests/docker/run.sh): starts a
# dockerd of its own in a temp dir (WORK), and `cleanup`, the EXIT trap, which removes what the run
# made — containers, volumes, the recipe's compose project, engine, bridges, temp dir — on success and failure alike, then prints
# the summary and exits with the run's status. DOCKER_TEST_KEEP=1 keeps the temp dir after a failure.

WORK=""
DOCKERD_PID=""
BRIDGE_EXISTED=1

docker() { "$DOCKER_BIN" "$@"; }

start_engine() { # start_engine: a dockerd on $WORK/docker.sock, exported as DOCKER_HOST
  WORK=$(mktemp -d /tmp/ingest-docker-test.XXXXXX)
  ip link show docker0 >/dev/null 2>&1 || BRIDGE_EXISTED=0
  export DOCKER_HOST="unix://$WORK/docker.sock"
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
}

stop_engine() { # stop_engine: SIGTERM to dockerd, SIGKILL if it has not gone after 20 s
  kill -TERM "$DOCKERD_PID" 2>/dev/null
  for _ in $(seq 1 100); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$DOCKERD_PID" 2>/dev/null; then
    log "dockerd did not stop in 20 s; killing it"
    kill -KILL "$DOCKERD_PID" 2>/dev/null
    sleep 1
  fi
}

remove_work_dir() { # remove_work_dir STATUS: unmounts and removes WORK (kept after a failure if asked)
  local status=$1
  # Unmount whatever the engine left mounted under the temp dir (deepest first), then remove it.
  awk -v w="$WORK" 'index($2, w) == 1 { print $2 }' /proc/self/mounts | sort -r |
    while read -r m; do umount -l "$m" 2>/dev/null; done
  if ((status != 0 || FAILED > 0)) && [[ ${DOCKER_TEST_KEEP:-} == 1 ]]; then
    log "keeping $WORK (DOCKER_TEST_KEEP=1)"
  else
    rm -rf "$WORK"
  fi
}

cleanup() { # cleanup: the EXIT trap; tears everything down, prints the summary, exits with the status
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
    if declare -F stop_recipe >/dev/null && ((COMPOSE_UP)); then
      ((status != 0 || FAILED > 0)) && { log "recipe logs (last 15 lines of each service):"; compose logs --no-color --tail 15 2>&1 | sed 's/^/    /'; }
      stop_recipe
    fi
    docker volume rm -f "$VOLUME" >/dev/null 2>&1
    log "cleanup: containers and volumes removed ($(elapsed "$t0")s)"
    stop_engine
  fi
  [[ -n $DOCKERD_PID ]] && log "cleanup: dockerd stopped ($(elapsed "$t0")s)"
  # dockerd leaves its bridge behind; remove it when this run created it.
  if ((BRIDGE_EXISTED == 0)) && ip link show docker0 >/dev/null 2>&1; then
    ip link delete docker0 2>/dev/null
  fi
  [[ -n $WORK && -d $WORK ]] && remove_work_dir "$status"
  PHASES+=("$(printf '%-34s %7ss' cleanup "$(elapsed "$t0")")")
  report_summary "$status"
  if ((status == 0 && FAILED > 0)); then status=1; fi
  exit "$status"
}
