#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks (CI runs it; see docs/sandbox.md).
#   scripts/pg-throwaway.sh start DIR   initdb in DIR, start on a free port of 127.0.0.1, print the URL
#   scripts/pg-throwaway.sh stop DIR    stop it (DIR can then be deleted)
# Outages, for the chaos tests (test/server/postgres-chaos.test.ts):
#   stop-fast DIR        pg_ctl stop -m fast (sessions are terminated, clean shutdown)
#   stop-immediate DIR   pg_ctl stop -m immediate (no shutdown: crash recovery at the next start)
#   restart DIR          start a stopped cluster again, on the same port
#   pause DIR            SIGSTOP every process of the cluster: connections stay open, nothing answers
#   resume DIR           SIGCONT them
# PostgreSQL refuses to run as root: as root, the cluster runs as the user `postgres`
# (Debian's package creates it), or PG_USER.
set -euo pipefail
cmd="${1:?start|stop|stop-fast|stop-immediate|restart|pause|resume}"
dir="${2:?directory}"

bin_of() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -z "$found" ]; then echo "pg-throwaway: $1 not found (apt-get install -y postgresql)" >&2; exit 1; fi
  echo "$found"
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then "$(runuser_bin)" -u "${PG_USER:-postgres}" -- "$@"; else "$@"; fi
}

# runuser lives in /usr/sbin (util-linux), which a root shell's PATH may leave out (cron, env -i).
runuser_bin() {
  local found
  for found in "$(command -v runuser 2>/dev/null || true)" /usr/sbin/runuser /sbin/runuser; do
    if [ -n "$found" ] && [ -x "$found" ]; then echo "$found"; return; fi
  done
  echo "pg-throwaway: runuser not found (util-linux); as root the cluster runs as ${PG_USER:-postgres} through it" >&2
  exit 1
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    # Absolute (the socket directory must be), and the working directory, so that
    # the cluster's user need not be able to enter the caller's.
    dir="$(cd "$dir" && pwd)"
    cd "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown "${PG_USER:-postgres}" "$dir"; fi
    port="$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
    as_owner "$(bin_of initdb)" -D "$dir/data" -A trust -U postgres -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    echo "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" >"$dir/options"
    as_owner "$(bin_of pg_ctl)" -D "$dir/data" -l "$dir/server.log" -w \
      -o "$(cat "$dir/options")" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir="$(cd "$dir" && pwd)"
    cd "$dir"
    as_owner "$(bin_of pg_ctl)" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  stop-fast|stop-immediate)
    dir="$(cd "$dir" && pwd)"
    cd "$dir"
    as_owner "$(bin_of pg_ctl)" -D "$dir/data" -m "${cmd#stop-}" -w stop >/dev/null
    ;;
  restart)
    dir="$(cd "$dir" && pwd)"
    cd "$dir"
    as_owner "$(bin_of pg_ctl)" -D "$dir/data" -l "$dir/server.log" -w \
      -o "$(cat "$dir/options")" start >/dev/null \
      || { tail -n 20 "$dir/server.log" >&2; exit 1; }
    ;;
  pause|resume)
    dir="$(cd "$dir" && pwd)"
    postmaster="$(head -n 1 "$dir/data/postmaster.pid")"
    signal=STOP
    if [ "$cmd" = resume ]; then signal=CONT; fi
    # The postmaster first (it would start new backends), then every process it started.
    kill "-$signal" "$postmaster"
    for pid in $(ps -o pid= --ppid "$postmaster"); do kill "-$signal" "$pid" 2>/dev/null || true; done
    ;;
  *) echo "usage: $0 start|stop|stop-fast|stop-immediate|restart|pause|resume DIR" >&2; exit 2 ;;
esac
