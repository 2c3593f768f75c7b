#!/usr/bin/env bash
# `npm test`: every test of the project, cheapest first. Exits non-zero on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's header says when it started, and the last line how long the whole run took (the
# figures the developers' guide quotes for test speed).
SECONDS=0
elapsed() { printf '%d min %02d s' $((SECONDS / 60)) $((SECONDS % 60)); }
# How busy the machine's cores were during each stage, from /proc/stat (every process counts,
# the browsers' and the database servers' too): the summary at the end says, stage by stage,
# whether the run waited for something or was short of CPU (docs/developers.md, test speed).
marks=()
mark() {
  local user=0 nice=0 system=0 idle=0 iowait=0 irq=0 softirq=0 steal=0
  [ -r /proc/stat ] && read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
  marks+=("$1|$SECONDS|$((user + nice + system + irq + softirq + steal))|$((idle + iowait))")
}
stage() { mark "$1"; printf '\n== %s (at %s)\n' "$1" "$(elapsed)"; }
summary() {
  mark ''
  local i name at busy idle next_at next_busy next_idle
  for ((i = 0; i + 1 < ${#marks[@]}; i++)); do
    IFS='|' read -r name at busy idle <<<"${marks[i]}"
    IFS='|' read -r _ next_at next_busy next_idle <<<"${marks[i + 1]}"
    local ticks=$((next_busy - busy + next_idle - idle))
    printf '  %4d s  cores busy %3s %%  %.70s\n' $((next_at - at)) "$([ "$ticks" -gt 0 ] && echo $((100 * (next_busy - busy) / ticks)) || echo '?')" "$name"
  done
}

# `later` starts a stage's command in the background; `collect` waits for all of them, prints each
# one's output in one piece, in the order they were started, and fails when one failed.
pending=()
later() {
  local log
  log=$(mktemp)
  { SECONDS=0; code=0; "$@" >"$log" 2>&1 || code=$?; echo "$code:$SECONDS" >"$log.exit"; } &
  pending+=("$log|$*")
}
collect() {
  wait
  local failed=0 item log exit seconds
  for item in "${pending[@]}"; do
    log=${item%%|*}
    IFS=: read -r exit seconds <"$log.exit"
    printf '\n-- %s (exit %s, %s s)\n' "${item#*|}" "$exit" "$seconds"
    cat "$log"
    rm -f "$log" "$log.exit"
    [ "$exit" = 0 ] || failed=1
  done
  pending=()
  return "$failed"
}

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
later npm run --silent bench:smoke

# At the same time as the benchmarks' smoke runs: 133 s for both against 75 + 92 s in turn on the
# shared 2-core machine (docs/developers.md, test speed), every verdict passing as in turn.
stage "fault and concurrency suites (ingest replicas on a real PostgreSQL: kill -9, database restart, SMTP outage, shared limits; N identical requests at once on SQLite and PostgreSQL: one effect each)"
later npm run --silent test:faults
collect

stage "browser tests (Playwright in Chromium, real ingest service and SMTP peer, Debian's nginx)"
bash tests/e2e/support/ensure-browser.sh
bash tests/e2e/support/ensure-nginx.sh
npx playwright test -c tests/e2e

printf '\nnpm test: every stage passed in %s, on %s cores:\n' "$(elapsed)" "$(nproc)"
summary
