# shellcheck shell=bash
# The stand-in for the Dockerfile's base image (sourced by tests/docker/run.sh). No registry is
# reachable here, so `node:20-bookworm-slim` cannot be pulled; `import_standin_image` makes one
# locally (or takes it from the cache, CACHE_DIR) and loads it into the engine as BASE_TAG.
#
# What the stand-in is: Debian bookworm minbase (debootstrap) plus this machine's Node 20 laid out
# as the official image does (/usr/local/bin/node, npm and the node headers under /usr/local, a
# `node` user with uid 1000). Two things differ from the official image, both only because this
# machine's network is not the internet: npm is told the headers are local (`nodedir`, as node-gyp
# cannot download them), and it trusts this machine's CA bundle (outbound TLS is intercepted).

STANDIN_RECIPE=3 # bump when the stand-in recipe below changes, so a cached tarball is rebuilt
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt

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

import_standin_image() { # import_standin_image: the stand-in, cached or made now, loaded as BASE_TAG
  NODE_VERSION=$(node -p 'process.versions.node')
  [[ ${NODE_VERSION%%.*} == 20 ]] || die "the stand-in needs this machine's node to be Node 20 (found $NODE_VERSION)"
  NODE_BIN=$(readlink -f "$(command -v node)")
  NODE_PREFIX=$(dirname "$(dirname "$NODE_BIN")")
  NPM_DIR="$NODE_PREFIX/lib/node_modules/npm"
  NODE_HEADERS="$NODE_PREFIX/include/node"
  [[ -d $NPM_DIR ]] || die "npm not found at $NPM_DIR"
  [[ -f $NODE_HEADERS/node.h ]] || die "node headers not found at $NODE_HEADERS (node-gyp needs them)"
  local cache_key cached="" tarball
  cache_key=$(
    {
      echo "recipe $STANDIN_RECIPE"
      sha256sum "$NODE_BIN" | cut -c1-64
      sha256sum <"$NPM_DIR/package.json" | cut -c1-64
      [[ -f $CA_BUNDLE ]] && sha256sum "$CA_BUNDLE" | cut -c1-64
    } | sha256sum | cut -c1-16
  )
  [[ -n $CACHE_DIR ]] && cached="$CACHE_DIR/node-$NODE_VERSION-bookworm-slim-$cache_key.tar"

  if [[ -n $cached && -s $cached ]]; then
    log "using cached stand-in $cached"
    tarball=$cached
  else
    tarball="$WORK/standin.tar"
    make_standin "$tarball"
    if [[ -n $cached ]] && mkdir -p "$CACHE_DIR" 2>/dev/null; then
      rm -f "$CACHE_DIR"/node-*-bookworm-slim-*.tar
      mv "$tarball" "$cached.part" && mv "$cached.part" "$cached" && tarball=$cached
      log "cached the stand-in as $cached ($(du -h "$cached" | cut -f1))"
    fi
  fi
  docker import \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_VERSION=$NODE_VERSION" \
    --change 'CMD ["node"]' \
    "$tarball" "$BASE_TAG" >/dev/null
  docker run --rm --network none "$BASE_TAG" node -e 'console.log("stand-in runs node " + process.version)'
}
