# shellcheck shell=bash
# The production recipe's machinery (sourced by tests/docker/run.sh): the stand-ins for the public
# images deploy/compose.yaml names, and starting that file with docker-compose as an operator would,
# plus tests/docker/recipe/proof.yaml (published replica ports, a mail sink, quicker health checks).
#
# Stand-ins: no registry is reachable here. `debian:bookworm-slim` is the proof's node stand-in
# under a second name (the same debootstrap root; Node in /usr/local is unused there), and
# `postgres:15` and `nginx:1.22` are built on it from recipe/standins.Dockerfile with Debian 12's
# PostgreSQL 15 and nginx 1.22, then kept in CACHE_DIR as a `docker save` tarball between runs.
# `maskwise-ingest`, the replicas' image, is the image the proof built from the Dockerfile (IMAGE):
# the compose file builds the same Dockerfile, so `up --no-build` runs what `up --build` would.

RECIPE_DIR="$REPO/tests/docker/recipe"
COMPOSE_FILE="$REPO/deploy/compose.yaml"
PROJECT="maskwise-proof-$$"
COMPOSE_UP=0

compose() { docker-compose --project-name "$PROJECT" --env-file "$WORK/recipe.env" -f "$COMPOSE_FILE" -f "$RECIPE_DIR/proof.yaml" "$@"; }
service_id() { compose ps -q "$1"; }

check_compose_tool() { # check_compose_tool: docker-compose (Debian's 1.29, installed by .ci/run) or dies
  command -v docker-compose >/dev/null || die "docker-compose is required for the recipe (apt-get install docker-compose)"
  log "$(docker-compose version --short 2>/dev/null | sed 's/^/docker-compose /')"
}

recipe_standins() { # recipe_standins: debian:bookworm-slim, postgres:15 and nginx:1.22, cached or built now
  docker tag "$BASE_TAG" debian:bookworm-slim
  local key cached="" target
  # Keyed by the recipe and the base's content (its layer digest: an import gets a new image id every run).
  key=$(cat "$RECIPE_DIR/standins.Dockerfile" "$RECIPE_DIR/postgres-entrypoint.sh" <(docker image inspect --format '{{json .RootFS.Layers}}' "$BASE_TAG") | sha256sum | cut -c1-16)
  [[ -n $CACHE_DIR ]] && cached="$CACHE_DIR/recipe-standins-$key.tar"
  if [[ -n $cached && -s $cached ]]; then
    docker load -i "$cached" >/dev/null || die "docker load of $cached failed"
    log "using cached stand-ins postgres:15 and nginx:1.22 ($cached)"
  else
    for target in postgres nginx; do
      if ! docker build --network host --target "$target" -t "$([[ $target == postgres ]] && echo postgres:15 || echo nginx:1.22)" \
        -f "$RECIPE_DIR/standins.Dockerfile" "$RECIPE_DIR" >"$WORK/build-$target.log" 2>&1; then
        tail -20 "$WORK/build-$target.log"
        die "the $target stand-in did not build (log above)"
      fi
    done
    log "built the stand-ins postgres:15 and nginx:1.22 ($(elapsed "$PHASE_T0")s)"
    if [[ -n $cached ]] && mkdir -p "$CACHE_DIR" 2>/dev/null; then
      rm -f "$CACHE_DIR"/recipe-standins-*.tar
      docker save -o "$cached.part" postgres:15 nginx:1.22 && mv "$cached.part" "$cached"
    fi
  fi
  docker tag "$IMAGE" maskwise-ingest:latest
}

recipe_site_and_certificate() { # the built site in WORK/site, a self-signed certificate in WORK/tls
  local t0
  t0=$(now)
  (cd "$REPO" && node cli/bin.js build --out "$WORK/site" >"$WORK/site-build.log" 2>&1) || { tail -20 "$WORK/site-build.log"; die "sitegen build failed"; }
  log "sitegen build took $(elapsed "$t0")s"
  mkdir -p "$WORK/tls" "$WORK/nginx-logs"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$WORK/tls/privkey.pem" -out "$WORK/tls/fullchain.pem" >/dev/null 2>&1 || die "openssl could not make the test certificate"
}

free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }

start_recipe() { # start_recipe: docker-compose up of deploy/compose.yaml; sets SITE (nginx, https), REPLICA_A and REPLICA_B (http)
  local https_port http_port port_a port_b t0
  https_port=$(free_port) http_port=$(free_port) port_a=$(free_port) port_b=$(free_port)
  # The values an operator writes into deploy/.env (deploy/example.env), and the proof's ports.
  cat >"$WORK/recipe.env" <<ENV
POSTGRES_PASSWORD=$(openssl rand -hex 24)
CAPTCHA_SECRET=$(openssl rand -hex 32)
# The stand-in mail sink speaks no TLS: on the compose network that is the explicit opt-out.
SMTP_URL=smtp://mail-sink:2525?starttls=optional
SALES_EMAIL=sales@example.com
MAIL_FROM=forms@example.com
SITE_DIR=$WORK/site
DEPLOY_DIR=$WORK/site-deploy
TLS_DIR=$WORK/tls
NGINX_LOG_DIR=$WORK/nginx-logs
HTTP_PUBLISH=127.0.0.1:$http_port
HTTPS_PUBLISH=127.0.0.1:$https_port
PROOF_PORT_A=$port_a
PROOF_PORT_B=$port_b
PROOF_DIR=$RECIPE_DIR
ENV
  SITE="https://127.0.0.1:$https_port"
  REPLICA_A="http://127.0.0.1:$port_a"
  REPLICA_B="http://127.0.0.1:$port_b"
  t0=$(now)
  COMPOSE_UP=1
  if compose up -d --no-build >"$WORK/compose-up.log" 2>&1; then
    pass "docker-compose up of deploy/compose.yaml: PostgreSQL, two replicas and nginx healthy ($(elapsed "$t0")s)"
  else
    grep -v 'IPv4 forwarding is disabled' "$WORK/compose-up.log" | tail -20
    compose logs --tail 20 2>&1 | tail -60
    die "docker-compose up failed (output above)"
  fi
}

stop_recipe() { # stop_recipe: docker-compose down, volumes included (the cleanup calls it too)
  ((COMPOSE_UP)) || return 0
  COMPOSE_UP=0
  compose down -v --remove-orphans -t 20 >"$WORK/compose-down.log" 2>&1 || { tail -5 "$WORK/compose-down.log"; return 1; }
}
