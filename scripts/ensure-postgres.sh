#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the server tests and the bench (never for production).
#
#   scripts/ensure-postgres.sh              installs Debian's postgresql if no PostgreSQL
#                                           server is found (apt-get), initdb's a cluster in a
#                                           temporary directory, starts it on 127.0.0.1 on a
#                                           free port, creates the database `cardtable` and
#                                           prints its URL (the only line on stdout):
#                                           postgresql://cardtable@127.0.0.1:PORT/cardtable
#   scripts/ensure-postgres.sh --stop DIR   stops that cluster and removes DIR
#
# The cluster's directory is told on stderr ("cluster: DIR"); set CARDTABLE_PG_DIR to choose
# it (it must be reachable by the postgres user: e.g. under /tmp). CARDTABLE_PG_FAST=1 turns
# fsync off (tests: they kill the server, never the database); CARDTABLE_PG_MAX_CONNECTIONS sets
# its max_connections (default 300; PostgreSQL's own default is 100). As root, the cluster runs as
# the `postgres` user (initdb refuses root); trust authentication, loopback only.
set -euo pipefail

say() { echo "ensure-postgres: $*" >&2; }

find_bindir() {
    local d
    if command -v pg_config >/dev/null 2>&1; then
        d=$(pg_config --bindir 2>/dev/null || true)
        if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
    fi
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
    done
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"; return 0
    fi
    return 1
}

as_owner() {   # run a command as the cluster's owner
    if [ "$(id -u)" = 0 ]; then
        runuser -u "$PGOWNER" -- "$@"
    else
        "$@"
    fi
}

owner() {
    if [ "$(id -u)" != 0 ]; then id -un; return; fi
    if id postgres >/dev/null 2>&1; then echo postgres; return; fi
    useradd --system --no-create-home --shell /usr/sbin/nologin cardtable-pg >/dev/null 2>&1 || true
    echo cardtable-pg
}

if [ "${1:-}" = "--stop" ]; then
    dir=${2:?usage: ensure-postgres.sh --stop DIR}
    BIN=$(find_bindir) || { rm -rf "$dir"; exit 0; }
    PGOWNER=$(stat -c %U "$dir" 2>/dev/null || echo root)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    exit 0
fi

if ! BIN=$(find_bindir); then
    say "no PostgreSQL found: installing Debian's postgresql"
    sh "$(dirname "$0")/apt-install.sh" postgresql
    BIN=$(find_bindir) || { say "PostgreSQL is still missing"; exit 1; }
fi

PGOWNER=$(owner)
dir=${CARDTABLE_PG_DIR:-$(mktemp -d /tmp/cardtable-pg.XXXXXX)}
mkdir -p "$dir"
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown "$PGOWNER" "$dir"
say "cluster: $dir"

as_owner "$BIN/initdb" -D "$dir/data" -A trust -U cardtable -E UTF8 --locale=C --no-sync \
    >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }

extra=()
if [ "${CARDTABLE_PG_FAST:-}" = "1" ]; then
    extra=(-c fsync=off -c synchronous_commit=off -c full_page_writes=off)
fi

port_free() {
    python3 - "$1" <<'PY'
import socket, sys
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
finally:
    s.close()
PY
}

started=""
for _ in $(seq 1 20); do
    port=$(( 20000 + RANDOM % 30000 ))
    port_free "$port" || continue
    opts="-h 127.0.0.1 -p $port -k $dir -c max_connections=${CARDTABLE_PG_MAX_CONNECTIONS:-300} -c shared_buffers=128MB ${extra[*]:-}"
    if as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "$opts" -w -t 60 start \
        >/dev/null 2>&1; then
        started=1
        break
    fi
done
if [ -z "$started" ]; then
    say "could not start PostgreSQL"; cat "$dir/server.log" >&2 || true; exit 1
fi

as_owner "$BIN/createdb" -h 127.0.0.1 -p "$port" -U cardtable cardtable
echo "postgresql://cardtable@127.0.0.1:$port/cardtable"
