# shellcheck shell=bash
# The production recipe's machinery (sourced by tests/docker/run.sh): the stand-ins for the public
# images deploy/compose.yaml names, and starting that file with docker-compose as an operator would,
# plus tests/docker/recipe/proof.yaml (published replica ports, a mail sink, quicker health checks).
#
# Stand-ins: no registry of images is reachable here. The postgres and nginx tags are read from
# deploy/compose.yaml and built from recipe/standins.Dockerfile on local Debian stand-ins
# (lib/standin-image.sh): `postgres:15` on Debian 12 (bookworm) with its PostgreSQL 15, `nginx:1.30`
# on Debian 13 (trixie) with Debian's nginx of that line (from Debian testing while trixie has
# 1.26), then kept in CACHE_DIR as a `docker save` tarball between runs. Each prints what it holds
# (`stand-in:` lines); an nginx of another line than the tag's is said plainly, not hidden.
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

compose_image() { # compose_image NAME: the NAME:TAG image deploy/compose.yaml names
  awk -v name="$1:" '$1 == "image:" && index($2, name) == 1 && !found { print $2; found = 1 }' "$COMPOSE_FILE"
}

recipe_standins() { # recipe_standins: the postgres and nginx images compose.yaml names, cached or built now
  local postgres_tag nginx_tag postgres_major nginx_line postgres_suite nginx_suite=trixie key cached="" target held
  postgres_tag=$(compose_image postgres) nginx_tag=$(compose_image nginx)
  [[ $postgres_tag =~ ^postgres:([0-9]+)$ ]] || die "deploy/compose.yaml names no postgres:MAJOR image (found '$postgres_tag')"
  postgres_major=${BASH_REMATCH[1]}
  [[ $nginx_tag =~ ^nginx:([0-9]+\.[0-9]+)(\.[0-9]+)?$ ]] || die "deploy/compose.yaml names no nginx:MAJOR.MINOR image (found '$nginx_tag')"
  nginx_line=${BASH_REMATCH[1]}
  # The Debian release that carries each PostgreSQL major as its own.
  case $postgres_major in
    15) postgres_suite=bookworm ;;
    17) postgres_suite=trixie ;;
    *) die "no Debian release here carries PostgreSQL $postgres_major for the postgres:$postgres_major stand-in" ;;
  esac
  import_debian_standin "$postgres_suite"
  import_debian_standin "$nginx_suite"
  # Keyed by the recipe, the tags and the bases' content (their layer digests: an import gets a new image id every run).
  key=$(cat "$RECIPE_DIR/standins.Dockerfile" "$RECIPE_DIR/postgres-entrypoint.sh" <(echo "$postgres_tag $nginx_tag") \
    <(docker image inspect --format '{{json .RootFS.Layers}}' "debian:$postgres_suite-slim" "debian:$nginx_suite-slim") | sha256sum | cut -c1-16)
  [[ -n $CACHE_DIR ]] && cached="$CACHE_DIR/recipe-standins-$key.tar"
  if [[ -n $cached && -s $cached ]]; then
    docker load -i "$cached" >/dev/null || die "docker load of $cached failed"
    log "using cached stand-ins $postgres_tag and $nginx_tag ($cached)"
  else
    for target in postgres nginx; do
      if ! docker build --network host --target "$target" -t "$([[ $target == postgres ]] && echo "$postgres_tag" || echo "$nginx_tag")" \
        --build-arg "POSTGRES_SUITE=$postgres_suite" --build-arg "POSTGRES_MAJOR=$postgres_major" \
        --build-arg "NGINX_SUITE=$nginx_suite" --build-arg "NGINX_LINE=$nginx_line" \
        -f "$RECIPE_DIR/standins.Dockerfile" "$RECIPE_DIR" >"$WORK/build-$target.log" 2>&1; then
        tail -20 "$WORK/build-$target.log"
        die "the $target stand-in did not build (log above)"
      fi
    done
    log "built the stand-ins $postgres_tag and $nginx_tag ($(elapsed "$PHASE_T0")s)"
    if [[ -n $cached ]] && mkdir -p "$CACHE_DIR" 2>/dev/null; then
      rm -f "$CACHE_DIR"/recipe-standins-*.tar
      docker save -o "$cached.part" "$postgres_tag" "$nginx_tag" && mv "$cached.part" "$cached"
    fi
  fi
  held=$(docker run --rm --network none --entrypoint postgres "$postgres_tag" --version | awk '{ print $3 }')
  standin "$postgres_tag: Debian $postgres_suite's PostgreSQL $held (Debian's build, not the PostgreSQL project's)"
  held=$(docker run --rm --network none --entrypoint nginx "$nginx_tag" -v 2>&1 | sed -n 's|^nginx version: nginx/||p')
  if [[ $held == "$nginx_line".* ]]; then
    standin "$nginx_tag: Debian's nginx $held (its $(docker run --rm --network none --entrypoint sh "$nginx_tag" -c 'dpkg-query -W -f "\${Version}" nginx') package) on Debian $nginx_suite, not nginx.org's build"
  else
    standin "$nginx_tag is a stand-in of ANOTHER VERSION: Debian's nginx $held on Debian $nginx_suite (no Debian suite reachable here has nginx $nginx_line); the recipe was proven on nginx $held"
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
PROOF_NODE_IMAGE=$BASE_TAG
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
