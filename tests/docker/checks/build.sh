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
  check_image_contents
}

check_image_contents() { # the image holds the compiled service and its native addon, no sources and nothing of the site generator
  local modules sources
  modules=$(docker run --rm --entrypoint ls "$IMAGE" /app/node_modules | tr '\n' ' ')
  # The service's own sources (the packages' type declarations, .d.ts, are theirs).
  sources=$(docker run --rm --entrypoint find "$IMAGE" /app -path /app/node_modules -prune -o \( -name '*.ts' -o -name '*.tsx' \) -print | head -3 | tr '\n' ' ')
  if [ "$modules" = "better-sqlite3 bindings file-uri-to-path " ] && [ -z "$sources" ]; then
    pass "the image runs the compiled service: node_modules holds only better-sqlite3 (and bindings, file-uri-to-path), no .ts file"
  else
    fail "the image holds more than the compiled service: node_modules: $modules; sources: ${sources:-none}"
  fi
}
