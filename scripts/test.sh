#!/usr/bin/env bash
# npm test: every test once (memory, SQLite, and PostgreSQL where TEST_POSTGRES_URL names a cluster), then,
# with PostgreSQL, the HTTP suite a second time on it. Without TEST_POSTGRES_URL the PostgreSQL tests say
# in one line that they are skipped.
#   npm run test:fast     the same without tests/process (real processes, over a minute)
#   npm run test:process  tests/process alone
# Other arguments go to bun test and run the first pass only (`npm test -- tests/domain`).
# Tests run in a random order, printed so that a failure can be repeated: TEST_SEED=<seed> npm test.
#
# Two lanes, one per core: tests/process and tests/browser spend most of their time waiting on the processes
# they start (servers, Chromium), so they run in a second bun test beside the rest. Their output is printed
# when the first lane is done.
set -u
cd "$(dirname "$0")/.."
# The per-test budget. Bun reads it from the command line only (bunfig.toml's [test] timeout is ignored,
# leaving Bun's 5 s): a test that needs longer says so itself.
TIMEOUT_MS=30000
seed=${TEST_SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "test order: random, seed $seed (TEST_SEED=$seed npm test repeats it)"
run() { bun test --timeout "$TIMEOUT_MS" --randomize --seed "$seed" "$@"; }

case "${1:-}" in
  fast)
    shift
    if [ $# -gt 0 ]; then run --path-ignore-patterns='tests/process/**' "$@"; exit; fi
    beside=(tests/browser); ignored=('tests/process/**' 'tests/browser/**') ;;
  process) shift; run tests/process "$@"; exit ;;
  *)
    if [ $# -gt 0 ]; then run "$@"; exit; fi
    beside=(tests/process tests/browser); ignored=('tests/process/**' 'tests/browser/**') ;;
esac

besideLog=$(mktemp)
set -m # the second lane in a process group of its own, so an interrupted run stops it and the servers it started
run "${beside[@]}" </dev/null >"$besideLog" 2>&1 &
besidePid=$!
set +m
trap 'kill -TERM -- "-$besidePid" 2>/dev/null; rm -f "$besideLog"' EXIT
echo "(${beside[*]} run beside, in a second bun test: their output follows at the end)"

run "${ignored[@]/#/--path-ignore-patterns=}"
first=$?
second=0
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  echo
  echo "== the HTTP suite again, on PostgreSQL"
  TEST_DATABASE=postgres run tests/adapters/http
  second=$?
fi
wait "$besidePid"
third=$?
trap 'rm -f "$besideLog"' EXIT
echo
echo "== ${beside[*]}, run beside the above"
cat "$besideLog"
[ "$first" -eq 0 ] && [ "$second" -eq 0 ] && [ "$third" -eq 0 ]
