#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests: `start` prints its URL, `stop` removes it; `pause` stops the
# server and keeps its data, `resume` starts it again on the same port (to test a database restart).
# `standby PRIMARY_PORT` makes the cluster a hot standby of the one on PRIMARY_PORT (pg_basebackup -R: it
# follows the primary and refuses writes), to test a failover; `promote` makes a standby a primary.
# PG_TEST_DIR and PG_TEST_PORT choose the data directory and port (several clusters may run at once).
# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
set -euo pipefail
dir=${PG_TEST_DIR:-/tmp/intake-pg-test}
port=${PG_TEST_PORT:-54329}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "no PostgreSQL server installed" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}

server_start() {
  as_owner "'$bin/pg_ctl' -D '$dir' -o '-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off' -l '$dir/log' -w start" >/dev/null
}

case "${1:-}" in
  start)
    as_owner "'$bin/pg_ctl' -D '$dir' stop -m immediate" >/dev/null 2>&1 || true
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "'$bin/initdb' -D '$dir' -U postgres --auth=trust -E UTF8" >/dev/null
    server_start
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  standby)
    primary=${2:?the port of the primary}
    as_owner "'$bin/pg_ctl' -D '$dir' stop -m immediate" >/dev/null 2>&1 || true
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir" && chmod 700 "$dir"
    as_owner "'$bin/pg_basebackup' -h 127.0.0.1 -p '$primary' -U postgres -D '$dir' -R -X stream -c fast" >/dev/null
    server_start
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  promote)
    as_owner "'$bin/pg_ctl' -D '$dir' promote -w" >/dev/null
    ;;
  pause)
    [ -f "$dir/PG_VERSION" ] || { echo "no cluster in $dir" >&2; exit 1; }
    as_owner "'$bin/pg_ctl' -D '$dir' stop -m fast -w" >/dev/null
    ;;
  resume)
    [ -f "$dir/PG_VERSION" ] || { echo "no cluster in $dir" >&2; exit 1; }
    server_start
    ;;
  stop)
    as_owner "'$bin/pg_ctl' -D '$dir' stop -m fast" >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|standby PRIMARY_PORT|promote|stop|pause|resume" >&2
    exit 2
    ;;
esac
