# shellcheck shell=bash
# What the host needs for the container proof (sourced by tests/docker/run.sh): root, node and npm
# (the probes; the stand-in's Node and npm come from the npm registry), a Docker engine, debootstrap
# and docker-compose, installed through apt when missing. Sets DOCKER_BIN, the client.

check_prerequisites() { # check_prerequisites: dies unless the host can run the proof
  [[ $(id -u) == 0 ]] || die "must run as root (it starts a Docker engine and runs debootstrap)"
  command -v node >/dev/null || die "node is required on the host"
  command -v npm >/dev/null || die "npm is required on the host"
  local need=()
  command -v dockerd >/dev/null || need+=(docker.io)
  command -v debootstrap >/dev/null || need+=(debootstrap)
  # The production recipe (deploy/compose.yaml) is started with Debian's docker-compose 1.29.
  command -v docker-compose >/dev/null || need+=(docker-compose)
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
}
