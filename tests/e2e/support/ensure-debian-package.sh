#!/usr/bin/env bash
# Usage: ensure-debian-package.sh PACKAGE PURPOSE BINARY...
# Succeeds at once when one of the BINARY paths is executable (empty ones are skipped, so a caller
# can pass "${SOME_PATH:-}" first), or after installing Debian's PACKAGE with apt where we are
# root. Exits 3 where apt cannot be used, so the caller decides what to do instead.
set -euo pipefail
package=$1 purpose=$2
shift 2
for binary in "$@"; do
  if [ -n "$binary" ] && [ -x "$binary" ]; then exit 0; fi
done
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's $package for $purpose…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
  exit 0
fi
exit 3
