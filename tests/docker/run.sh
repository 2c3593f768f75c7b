#!/usr/bin/env bash
# Proves the Dockerfile for real: starts a private Docker engine, makes a local stand-in for the
# base image the Dockerfile names (no registry of images is reachable here, so `node:22-trixie-slim`
# cannot be pulled: Debian from its mirror, Node of the same major from the npm registry), builds
# the repository's Dockerfile unchanged, runs the image with a /data volume on a loopback port and
# checks what an operator relies on. Run as root on Debian 12 with node and npm, and the npm
# registry and Debian's mirror reachable (CI: `.ci/run`).
#
#   bash tests/docker/run.sh            (npm run test:docker)
#
# Environment:
#   DOCKER_TEST_CACHE   where the stand-ins' tarballs (and the Node and npm packages they are made
#                       from) are kept between runs (default /var/cache/ingest-docker-test; set to
#                       "" to disable)
#   DOCKER_TEST_KEEP=1  leave the engine's temp dir in place after a failure, for a look
#
# What the stand-ins are, and how they differ from the official images: lib/standin-image.sh and
# lib/recipe.sh; every run prints it (`stand-in:` lines, repeated in the summary).
#
# Checks: the image builds, runs the Node major its FROM lines name with better-sqlite3's addon
# built for that Node, and holds the compiled service with better-sqlite3 as its only package
# and no TypeScript source; GET /healthz answers 200; POST /api/newsletter answers 201 and the row
# is exported by `ingest export` inside the container; the service runs as a non-root user; the
# database is on /data; the HEALTHCHECK turns healthy; after `docker restart` the row and the
# generated captcha secret are still there and a duplicate signup is 409; the operator's online
# backup (VACUUM INTO) and `ingest erase` work through `docker exec`; `docker stop` ends the
# container within 10 s with exit code 0 (SIGTERM reaches node, which shuts down gracefully); the
# logs hold no visitor's address; a new container on the same volume still exports the row.
#
# Then the production recipe, deploy/compose.yaml, started with docker-compose as docs/operators.md
# says ("Run it in production"; stand-ins for the public images it names: lib/recipe.sh): nginx
# with the server block `sitegen build` generated, two replicas of the image built above, and
# PostgreSQL turn healthy; a signup through nginx (HTTPS) is taken by one replica and its mail's
# link confirmed through the other; ingest-a killed with SIGKILL and started again while signups
# stream in through nginx loses none that was answered 201.
# Prints PASS/FAIL lines, the time of each phase, and exits non-zero on any failure.
#
# This file is the order of the phases; lib/ holds the machinery (reporting, prerequisites, the
# engine and its cleanup, the stand-in image, probes of the service) and checks/ what is checked.
# shellcheck source-path=SCRIPTDIR
set -Eeuo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BASE_TAG="" # the Dockerfile's base image, read from its FROM lines (lib/standin-image.sh)
IMAGE=ingest:docker-test
CACHE_DIR=${DOCKER_TEST_CACHE-/var/cache/ingest-docker-test}
NAME="ingest-docker-test-$$"
VOLUME="ingest-docker-test-$$"

# shellcheck source=lib/report.sh
source "$HERE/lib/report.sh"
# shellcheck source=lib/prerequisites.sh
source "$HERE/lib/prerequisites.sh"
# shellcheck source=lib/engine.sh
source "$HERE/lib/engine.sh"
# shellcheck source=lib/standin-image.sh
source "$HERE/lib/standin-image.sh"
# shellcheck source=lib/probes.sh
source "$HERE/lib/probes.sh"
# shellcheck source=checks/build.sh
source "$HERE/checks/build.sh"
# shellcheck source=checks/first-run.sh
source "$HERE/checks/first-run.sh"
# shellcheck source=checks/restart.sh
source "$HERE/checks/restart.sh"
# shellcheck source=checks/operator-commands.sh
source "$HERE/checks/operator-commands.sh"
# shellcheck source=checks/stop-and-upgrade.sh
source "$HERE/checks/stop-and-upgrade.sh"
# shellcheck source=lib/recipe.sh
source "$HERE/lib/recipe.sh"
# shellcheck source=checks/recipe.sh
source "$HERE/checks/recipe.sh"

trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

phase "prerequisites"
check_prerequisites

phase "start dockerd"
start_engine

phase "stand-in base image"
import_standin_image

phase "docker build"
build_image

phase "run and check"
start_container
check_first_run

phase "restart and stop"
check_restart
# The operator's backup and erasure commands (docs/operators.md, "Back up and restore" and "Operator commands"), through docker exec.
check_backup_and_erase
check_stop_and_upgrade

phase "recipe: stand-ins and site"
check_compose_tool
recipe_standins
recipe_site_and_certificate

phase "recipe: compose up"
start_recipe

phase "recipe: checks"
check_recipe_signup_and_confirm
check_recipe_replica_kill

phase "recipe: compose down"
stop_recipe

phase ""
