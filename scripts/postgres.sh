#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks: Debian's server, listening only on a unix socket
# inside the cluster directory (no TCP port, no password: nothing outside this machine can reach it).
#   scripts/postgres.sh start DIR     initdb (first time) + start; prints the connection URL on stdout
#   scripts/postgres.sh restart DIR [MODE]  pg_ctl restart -m MODE (default fast; immediate = as after a crash)
#   scripts/postgres.sh stop DIR      stop the server (the directory stays; rm -rf it to forget the data)
#   scripts/postgres.sh url DIR       print the connection URL again
# initdb and postgres refuse to run as root, so as root they run as the `postgres` user (runuser).
# GATEHOUSE_POSTGRES_DURABLE=1 at the first start keeps PostgreSQL's durable defaults (fsync, full-page
# writes) as in production, for benchmarks; tests skip them for speed.
set -euo pipefail

command=${1:-}
dir=${2:-}
[[ -n "$command" && -n "$dir" ]] || { echo "usage: scripts/postgres.sh start|restart|stop|url DIR" >&2; exit 2; }

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[[ -x "$bindir/initdb" ]] || { echo "postgres: no PostgreSQL server under /usr/lib/postgresql; run scripts/bootstrap.sh" >&2; exit 1; }

run_as_owner() {
  if ((EUID == 0)); then runuser -u postgres -- "$@"; else "$@"; fi
}

url() {
  # libpq URL with the socket directory as host (percent-encoded path); database `postgres` always exists.
  local encoded
  encoded=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$dir/socket")
  echo "postgresql://postgres@${encoded}:5432/postgres"
}

pg_ctl_() {
  run_as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 "$@" >/dev/null
}

case "$command" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [[ ! -f "$dir/data/PG_VERSION" ]]; then
      mkdir -p "$dir/data" "$dir/socket"
      ((EUID == 0)) && chown -R postgres: "$dir"
      chmod 700 "$dir" "$dir/data"
      run_as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >"$dir/initdb.log"
      # Connections only through the socket in the cluster directory.
      cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir/socket'
unix_socket_permissions = 0700
port = 5432
max_connections = 200
shared_buffers = 128MB
CONF
      # Tests: no fsync (an OS crash may lose the cluster; a server crash or restart loses nothing a commit
      # acknowledged).
      if [[ "${GATEHOUSE_POSTGRES_DURABLE:-0}" != 1 ]]; then
        printf 'fsync = off\nfull_page_writes = off\n' >>"$dir/data/postgresql.conf"
      fi
    fi
    pg_ctl_ start
    url
    ;;
  restart) dir=$(cd "$dir" && pwd); pg_ctl_ restart -m "${3:-fast}" ;;
  stop) dir=$(cd "$dir" && pwd); pg_ctl_ stop -m fast ;;
  url) dir=$(cd "$dir" && pwd); url ;;
  *) echo "usage: scripts/postgres.sh start|restart|stop|url DIR" >&2; exit 2 ;;
esac
