#!/usr/bin/env bash
# Makes sure Debian's nginx is available for tests/e2e/nginx.spec.ts, which serves the build with
# the generated dist/_deploy/nginx.conf. Installed with apt where we are root; elsewhere the
# spec fails with a message saying what to install (NGINX_PATH selects another binary).
set -euo pipefail
if [ -n "${NGINX_PATH:-}" ] && [ -x "$NGINX_PATH" ]; then exit 0; fi
if [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's nginx for the host-config tests…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
else
  echo "nginx is not installed: install it (Debian: sudo apt-get install -y nginx) or set NGINX_PATH" >&2
fi
