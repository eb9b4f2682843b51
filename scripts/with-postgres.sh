#!/usr/bin/env bash
# Run a command against a throw-away PostgreSQL cluster, then remove the cluster.
# Usage: scripts/with-postgres.sh COMMAND [ARGS...]
# The command sees DATABASE_URL pointing at the cluster's "tigris" database. As root, the
# server runs as the "postgres" user (PostgreSQL refuses to run as root).
set -euo pipefail

bindir=${PG_BINDIR:-}
if [ -z "$bindir" ]; then
  if command -v initdb >/dev/null 2>&1; then
    bindir=$(dirname "$(readlink -f "$(command -v initdb)")")
  else
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  fi
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "error: PostgreSQL server binaries not found (set PG_BINDIR or install postgresql)" >&2
  exit 2
fi

run_as=()
if [ "$(id -u)" -eq 0 ]; then
  run_as=(runuser -u postgres --)
fi
# The server's tools run from / so the postgres user never needs access to this folder.
pg() { (cd / && "${run_as[@]}" "$@"); }

datadir=$(mktemp -d /tmp/tigris-pg.XXXXXX)
chmod 755 "$datadir"
[ ${#run_as[@]} -gt 0 ] && chown postgres "$datadir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cleanup() {
  pg "$bindir/pg_ctl" -D "$datadir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$datadir"
}
trap cleanup EXIT

pg "$bindir/initdb" -D "$datadir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
pg "$bindir/pg_ctl" -D "$datadir/data" -l "$datadir/server.log" -w \
  -o "-p $port -k $datadir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null
pg "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres tigris

export DATABASE_URL="postgres://postgres@127.0.0.1:$port/tigris"
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on port $port (throw-away cluster in $datadir)"
"$@"
