#!/usr/bin/env bash
# `npm test`: type-check, then every test with the HTTP suite on SQLite; when ENTIA_TEST_POSTGRES is set (a
# postgres:// URL of a server where tests may create and drop schemas), test/http and test/store run a second
# time with the HTTP suite on PostgreSQL (ENTIA_TEST_STORE=postgres). Files named after a backend
# (*sqlite*, *postgres*) test that backend whatever ENTIA_TEST_STORE says, so they run in the first run
# only. Ends with one line adding up both runs; the exit status is non-zero if either failed.
set -uo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Three test files at a time on two cores: much of a test's time is spent waiting on servers it started
# (Chromium, Virtuoso, PostgreSQL, entia itself). Measured on test/http/[a-f]* (20 files, SQLite, 2026-11-27):
# 94 s with 2 at a time, 70 s with 3, 82 s with 4.
run_tests() {
  node --import tsx --test --test-concurrency=3 "$@" 2>&1 | tee -a "$log"
}

npm run --silent typecheck || exit 1

echo "# Entia tests, run 1: everything, HTTP suite on SQLite"
ENTIA_TEST_STORE=sqlite run_tests test/*/*.test.ts
first=$?

second=0
if [ -n "${ENTIA_TEST_POSTGRES:-}" ]; then
  # Not the browser tests (test/ui): the web interface reaches the store only through the HTTP API (a rule of
  # test/architecture), which this run tests; on PostgreSQL they took 100 to 165 s of the run's two cores
  # (2026-11-28).
  files=()
  for f in test/http/*.test.ts test/store/*.test.ts; do
    case "$(basename "$f")" in *sqlite*|*postgres*) ;; *) files+=("$f") ;; esac
  done
  echo "# Entia tests, run 2: test/http and test/store on PostgreSQL (ENTIA_TEST_STORE=postgres)"
  ENTIA_TEST_STORE=postgres run_tests "${files[@]}"
  second=$?
else
  echo "# ENTIA_TEST_POSTGRES is not set: no PostgreSQL run (README: Running on PostgreSQL)"
fi

# The runner's summary lines are "# pass N" (TAP) or "ℹ pass N" (spec reporter, on a terminal). A cancelled
# test (its set-up failed, or its file crashed) did not pass: it counts as failed, and so does a run whose exit
# status says it failed although no test was counted as such.
total() { grep -E "^(# |ℹ )$1 [0-9]+$" "$log" | awk '{ s += $3 } END { print s + 0 }'; }
failed=$(( $(total fail) + $(total cancelled) ))
if [ "$failed" -eq 0 ] && { [ "$first" -ne 0 ] || [ "$second" -ne 0 ]; }; then failed=1; fi
echo "tests: $(total pass) passed, $failed failed, $(total skipped) skipped"
[ "$first" -eq 0 ] && [ "$second" -eq 0 ]
