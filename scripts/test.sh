#!/usr/bin/env bash
# npm test: every test once (memory, SQLite, and PostgreSQL where TEST_POSTGRES_URL names a cluster), then,
# with PostgreSQL, the HTTP suite a second time on it. Without TEST_POSTGRES_URL the PostgreSQL tests say
# in one line that they are skipped. Arguments go to bun test and run the first pass only.
# Tests run in a random order, printed so that a failure can be repeated: TEST_SEED=<seed> npm test.
set -u
cd "$(dirname "$0")/.."
seed=${TEST_SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "test order: random, seed $seed (TEST_SEED=$seed npm test repeats it)"
bun test --randomize --seed "$seed" "$@"
first=$?
second=0
if [ $# -eq 0 ] && [ -n "${TEST_POSTGRES_URL:-}" ]; then
  echo
  echo "== the HTTP suite again, on PostgreSQL"
  TEST_DATABASE=postgres bun test --randomize --seed "$seed" tests/adapters/http
  second=$?
fi
[ "$first" -eq 0 ] && [ "$second" -eq 0 ]
