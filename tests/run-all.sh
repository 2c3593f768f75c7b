#!/usr/bin/env bash
# `npm test`: every test of the project, cheapest first. Exits non-zero on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."

stage() { printf '\n== %s\n' "$1"; }

stage "typecheck (tsc --noEmit, strict)"
npx tsc --noEmit

stage "architecture rules (dependency-cruiser) and unused code (knip)"
npm run --silent lint:deps
npm run --silent lint:unused

stage "content check (sitegen check)"
node cli/bin.js check

stage "unit, build and service tests (vitest)"
npx vitest run

stage "benchmarks in smoke mode (every bench:* script once with --smoke, all at once: each scenario end to end, no target judged; a missing tool is reported in its row, a benchmark that fails fails the stage)"
npm run --silent bench:smoke

stage "fault and concurrency suites (ingest replicas on a real PostgreSQL: kill -9, database restart, SMTP outage, shared limits; N identical requests at once on SQLite and PostgreSQL: one effect each)"
npm run --silent test:faults

stage "browser tests (Playwright in Chromium, real ingest service and SMTP peer, Debian's nginx)"
bash tests/e2e/support/ensure-browser.sh
bash tests/e2e/support/ensure-nginx.sh
npx playwright test -c tests/e2e
