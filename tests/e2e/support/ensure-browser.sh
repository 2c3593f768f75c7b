#!/usr/bin/env bash
# Makes sure a Chromium is available for the browser tests: Debian's package where we are root
# with apt, Playwright's own download elsewhere (needs internet).
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's Chromium for the browser tests…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "Installing Playwright's Chromium for the browser tests…"
  npx playwright install chromium
fi
