#!/usr/bin/env bash
# Makes sure Debian's nginx is available for tests/e2e/nginx.spec.ts, which serves the build with
# the generated dist-deploy/nginx.conf. Installed with apt where we are root; elsewhere the
# spec fails with a message saying what to install (NGINX_PATH selects another binary).
set -euo pipefail
status=0
bash "$(dirname "$0")/ensure-debian-package.sh" nginx "the host-config tests" "${NGINX_PATH:-}" /usr/sbin/nginx || status=$?
if [ "$status" = 3 ]; then
  echo "nginx is not installed: install it (Debian: sudo apt-get install -y nginx) or set NGINX_PATH" >&2
elif [ "$status" != 0 ]; then
  exit "$status"
fi
