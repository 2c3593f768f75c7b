# The ingest form service as a container image.
#
#   docker build -t ingest .
#   docker run -d --name ingest -p 8787:8787 -v ingest-data:/data \
#     -e SALES_EMAIL=sales@example.com -e SMTP_URL=smtp://user:pass@mail.example.com:587 ingest
#
# Two stages on the official Node 22 slim image on Debian 13 (trixie): Node 22 is an LTS line
# maintained until 2027-04-30, trixie Debian's stable release. Both stages name the same tag, so
# the addon built in the first is built for the Node that runs it in the second (the container
# proof checks the image's node major against this tag and runs the addon's statements through
# garbage collection in it). Not Node 24 yet: better-sqlite3 12 compiled against Node 24.19 or
# later aborts the process when a statement is garbage collected (nodejs/node#65446; the proof
# showed it on 24.21); Node 24 needs better-sqlite3 13, which needs Node 22 or later everywhere
# (docs/developers.md, "Supported releases and install scripts").
#   build    installs production dependencies only (`npm ci --omit=dev`), adds esbuild at the
#            lockfile's version, and compiles the service (`node compile.js ingest`): one bundle in
#            build/ingest/ that holds ingest/ and every npm package it uses, except better-sqlite3,
#            a native addon (a prebuilt binary when one can be downloaded, else compiled by
#            node-gyp, hence python3, make and g++ here and only here).
#   runtime  the slim base and only what the service runs: build/ingest/ (with its source maps),
#            better-sqlite3 with the two small packages that load its addon, ingest/bin.js and
#            compile.js (which start the bundle), the SQLite writer thread (plain JavaScript, a
#            file of its own), and the site's texts the service reads (content/site.json,
#            content/locales/) for the mails it sends. No TypeScript loader, no sources, nothing
#            of the site generator (React, Vite, Tailwind, i18next, marked): `npm run
#            bench:runtime` compares its size and memory with the image that ran tsx.
#
# Signals: PID 1 is tini (Debian's static build, copied from the build stage), which forwards
# SIGTERM from `docker stop` to node and reaps zombies; node's own SIGTERM handler then stops
# accepting, finishes in-flight requests and the current mail send, and closes the database.
# (Without tini, node as PID 1 would only see SIGTERM because the app installs a handler.)
#
# State: everything the service writes lives under /data (SQLite database with its WAL files, the
# generated captcha secret, .eml files of the file mail sink). Mount a named volume or a host
# directory owned by uid 10001 there.

FROM node:22-trixie-slim AS build

ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ tini \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json tsconfig.json compile.js ./
# Production dependencies only, at the versions in package-lock.json. devDependencies are dropped
# from this stage's copy of package.json first: the image never needs them, and `npm ci` then does
# not insist on lock entries for dev-only platform packages (tailwind's oxide binaries for other
# operating systems). better-sqlite3's own install script (allowed by package.json's allowScripts)
# fetches or compiles its addon, for this stage's Node: the runtime stage's, as both name one tag.
# After a compile only build/Release/better_sqlite3.node is needed at run time: the SQLite sources
# and object files (about 25 MB) are dropped, and the addon is loaded once to prove it works.
RUN npm pkg delete devDependencies \
 && npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force \
 && cd node_modules/better-sqlite3 \
 && rm -rf deps src build/deps build/Release/obj build/Release/obj.target build/Release/.deps \
      build/Release/sqlite3.a build/Release/test_extension.node \
 && cd /app \
 && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()" \
 && npm install --no-save --no-audit --no-fund "esbuild@$(node -p "require('./package-lock.json').packages['node_modules/esbuild'].version")"

# The service's sources, compiled into build/ingest/; the texts are not needed to compile.
COPY ingest ./ingest
RUN node compile.js ingest \
 && node build/ingest/main.js --help >/dev/null


FROM node:22-trixie-slim AS runtime

COPY --from=build /usr/bin/tini-static /usr/local/bin/tini

# A dedicated unprivileged user that owns only /data; the code stays root-owned and read-only.
RUN groupadd --system --gid 10001 ingest \
 && useradd --system --uid 10001 --gid ingest --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin ingest \
 && mkdir -p /data \
 && chown ingest:ingest /data \
 && chmod 0750 /data

WORKDIR /app
COPY --from=build /app/node_modules/better-sqlite3 ./node_modules/better-sqlite3
COPY --from=build /app/node_modules/bindings ./node_modules/bindings
COPY --from=build /app/node_modules/file-uri-to-path ./node_modules/file-uri-to-path
COPY --from=build /app/build/ingest ./build/ingest
COPY package.json compile.js ./
COPY ingest/bin.js ./ingest/bin.js
COPY ingest/store/sqlite/writer-thread.js ./ingest/store/sqlite/writer-thread.js
# The site's texts the service reads: mail texts and consent wording per language, site URL, policy version.
COPY content/site.json ./content/site.json
COPY content/locales ./content/locales

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data \
    DATABASE_URL=sqlite:/data/ingest.sqlite

USER ingest:ingest
VOLUME /data
EXPOSE 8787

# Liveness through the service's own /healthz, with node (slim images have no curl or wget).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]

STOPSIGNAL SIGTERM
# Node options for the service go between "node" and "ingest/bin.js": `npm run bench:runtime`
# measures the service with them. A young generation of 4 MB semi-spaces, and an old generation
# that grows by a fifth of what survives a full collection instead of up to four times that, keep
# a replica under load near 110 MB instead of 170 (docs/developers.md, "Compiled programs").
ENTRYPOINT ["/usr/local/bin/tini", "--", "node", "--max-semi-space-size=4", "--heap-growing-percent=20", "ingest/bin.js"]
CMD ["serve"]
