#!/usr/bin/env bash
# npm test: every test once (memory, SQLite, and PostgreSQL where TEST_POSTGRES_URL names a cluster), then,
# with PostgreSQL, the HTTP suite a second time on it. Without TEST_POSTGRES_URL the PostgreSQL tests say
# in one line that they are skipped.
#   npm run test:fast     the same without tests/process (real processes, over a minute)
#   npm run test:process  tests/process alone
# Other arguments go to bun test and run the first pass only (`npm test -- tests/domain`).
# Tests run in a random order, printed so that a failure can be repeated: TEST_SEED=<seed> npm test.
set -u
cd "$(dirname "$0")/.."
# The per-test budget. Bun reads it from the command line only (bunfig.toml's [test] timeout is ignored,
# leaving Bun's 5 s): a test that needs longer says so itself.
TIMEOUT_MS=30000
suite=all
case "${1:-}" in
  fast) suite=fast; shift ;;
  process) suite=process; shift ;;
esac
case "$suite" in
  all) files=() ;;
  fast) files=(--path-ignore-patterns='tests/process/**') ;;
  process) files=(tests/process) ;;
esac
seed=${TEST_SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "test order: random, seed $seed (TEST_SEED=$seed npm test repeats it)"
bun test --timeout "$TIMEOUT_MS" --randomize --seed "$seed" "${files[@]}" "$@"
first=$?
second=0
if [ $# -eq 0 ] && [ "$suite" != process ] && [ -n "${TEST_POSTGRES_URL:-}" ]; then
  echo
  echo "== the HTTP suite again, on PostgreSQL"
  TEST_DATABASE=postgres bun test --timeout "$TIMEOUT_MS" --randomize --seed "$seed" tests/adapters/http
  second=$?
fi
[ "$first" -eq 0 ] && [ "$second" -eq 0 ]
