#!/usr/bin/env bash
# Makes sure a Chromium is available for the browser tests: Debian's package where we are root
# with apt, Playwright's own download elsewhere (needs internet).
set -euo pipefail
status=0
bash "$(dirname "$0")/ensure-debian-package.sh" chromium "the browser tests" "${CHROMIUM_PATH:-}" /usr/bin/chromium || status=$?
if [ "$status" = 3 ]; then
  echo "Installing Playwright's Chromium for the browser tests…"
  npx playwright install chromium
elif [ "$status" != 0 ]; then
  exit "$status"
fi
