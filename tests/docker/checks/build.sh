# shellcheck shell=bash
# The first check of the container proof (sourced by tests/docker/run.sh): the repository's
# Dockerfile, unchanged, builds on the stand-in base image into IMAGE.

build_image() { # build_image: docker build of REPO as IMAGE; on failure shows the log's telling lines
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
}
