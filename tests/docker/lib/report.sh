# shellcheck shell=bash
# Reporting for the container proof (sourced by tests/docker/run.sh): timestamped log lines,
# PASS/FAIL lines and their counts, `stand-in:` lines saying what each local stand-in for a public
# image holds, named phases with the time each took, and the closing summary.

T_START=$(date +%s.%N)
PASSED=0
FAILED=0
PHASES=()
STANDINS=()
PHASE_NAME=""
PHASE_T0=""

log() { printf '[docker-test %(%H:%M:%S)T] %s\n' -1 "$*"; }
pass() { PASSED=$((PASSED + 1)); printf 'PASS: %s\n' "$*"; }
fail() { FAILED=$((FAILED + 1)); printf 'FAIL: %s\n' "$*"; }
die() { fail "$*"; exit 1; }
standin() { STANDINS+=("$*"); printf 'stand-in: %s\n' "$*"; } # what a locally made stand-in for a public image really holds
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

phase() { # phase NAME: closes the running phase (recording its time) and opens the next
  if [[ -n $PHASE_NAME ]]; then
    local took
    took=$(elapsed "$PHASE_T0")
    PHASES+=("$(printf '%-34s %7ss' "$PHASE_NAME" "$took")")
    log "phase '$PHASE_NAME' took ${took}s"
  fi
  PHASE_NAME=$1
  PHASE_T0=$(now)
  [[ -n $PHASE_NAME ]] && log "phase '$PHASE_NAME'"
  return 0
}

report_summary() { # report_summary STATUS: prints the phase times and the counts (exit STATUS ≠ 0 counts as a failure)
  local status=$1
  echo
  echo "Phase timings:"
  printf '  %s\n' "${PHASES[@]}"
  printf '  %-34s %7ss\n' total "$(elapsed "$T_START")"
  if ((${#STANDINS[@]})); then
    echo
    echo "Stand-ins for the public images (no registry of images is reachable here):"
    printf '  %s\n' "${STANDINS[@]}"
  fi
  if ((status != 0 && FAILED == 0)); then FAILED=1; echo "FAIL: the script stopped early (exit $status)"; fi
  echo
  echo "docker: $PASSED passed, $FAILED failed"
}
