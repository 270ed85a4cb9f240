#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests: `start` prints its URL, `stop` removes it.
# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
set -euo pipefail
dir=${PG_TEST_DIR:-/tmp/intake-pg-test}
port=${PG_TEST_PORT:-54329}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "no PostgreSQL server installed" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}

case "${1:-}" in
  start)
    as_owner "'$bin/pg_ctl' -D '$dir' stop -m immediate" >/dev/null 2>&1 || true
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "'$bin/initdb' -D '$dir' -U postgres --auth=trust -E UTF8" >/dev/null
    as_owner "'$bin/pg_ctl' -D '$dir' -o '-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off' -l '$dir/log' -w start" >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_owner "'$bin/pg_ctl' -D '$dir' stop -m fast" >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
