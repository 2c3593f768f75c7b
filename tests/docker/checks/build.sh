# shellcheck shell=bash
# The first check of the container proof (sourced by tests/docker/run.sh): the repository's
# Dockerfile, unchanged, builds on the stand-in base image into IMAGE, runs the Node major its FROM
# lines name, and loads better-sqlite3's addon in that Node and survives collecting its statements.

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
  check_image_node
  check_image_contents
}

check_image_node() { # the image's node is the Dockerfile's major (NODE_MAJOR), and better-sqlite3's addon, built for its ABI, survives garbage collection
  local out
  # As the image's own user, from its working directory: what `ingest serve` will load.
  out=$(docker run --rm --network none --entrypoint node "$IMAGE" -e '
    const db = new (require("better-sqlite3"))(":memory:");
    console.log(process.version, process.versions.modules, db.prepare("select sqlite_version() as v").get().v);' 2>&1) || true
  if [[ $out =~ ^v$NODE_MAJOR\.[0-9]+\.[0-9]+\ [0-9]+\ [0-9.]+$ ]]; then
    pass "the image runs Node ${out%% *} (the Dockerfile's $BASE_TAG) and loads better-sqlite3's addon built for its ABI $(echo "$out" | cut -d' ' -f2) (SQLite ${out##* })"
  else
    fail "the image does not run Node $NODE_MAJOR with a working better-sqlite3 (the Dockerfile names $BASE_TAG): ${out:0:300}"
  fi
  # What broke on Node 24.21 with better-sqlite3 12 compiled from source: a statement collected by
  # a garbage collection that ran between promise jobs aborted the process (`Assertion failed:
  # (env) != nullptr` in Statement::~Statement, nodejs/node#65446), a few seconds after `ingest
  # serve` started. The same here: statements prepared and dropped in promise jobs started from an
  # I/O callback, as the service's queries run (aborts at once on such a build, 2 s otherwise).
  out=$(docker run --rm --network none --entrypoint node "$IMAGE" -e '
    const db = new (require("better-sqlite3"))(":memory:");
    async function churn() { for (let i = 0; i < 100000; i++) { await null; db.prepare("select ?").get(i); } }
    require("node:fs").readFile("package.json", () => churn().then(() => console.log("survived")));' 2>&1) || true
  if [[ $out == survived ]]; then
    pass "better-sqlite3's statements are garbage collected in the image's Node without aborting the process (100,000 prepared in promise jobs)"
  else
    fail "garbage collection of better-sqlite3 statements aborts the image's Node $NODE_MAJOR: $(echo "$out" | grep -m1 -E 'Assertion|Segmentation|Error')"
  fi
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
