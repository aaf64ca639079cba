#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the conformance tests.
#
#   postgres_fixture.sh start STATE_DIR
#       Creates a cluster in a new temporary folder (initdb, trust
#       authentication, fsync off), as the unprivileged user "nobody" when
#       run as root (the server refuses to run as root), and starts it on a
#       free loopback port with its socket in that folder. Writes the
#       connection string to STATE_DIR/conninfo. A cluster an interrupted
#       run left in STATE_DIR is stopped first.
#   postgres_fixture.sh stop STATE_DIR
#       Stops the cluster and removes its folder. Safe to run twice.
#   postgres_fixture.sh run STATE_DIR COMMAND...
#       Runs COMMAND with every argument "@CONNINFO@" replaced by the
#       connection string, and OC_TEST_POSTGRES set to it.
#
# CTest runs start and stop as the setup and cleanup of a fixture, so stop
# runs even when a test fails.
set -euo pipefail
action=$1 state=$2
shift 2

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u nobody -- "$@"
  else
    "$@"
  fi
}

stop_cluster() {
  [ -f "$state/datadir" ] || return 0
  local dir bin
  dir=$(cat "$state/datadir")
  bin=$(cat "$state/bindir")
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf -- "$dir"
  rm -f -- "$state/datadir" "$state/bindir" "$state/conninfo"
}

case "$action" in
start)
  mkdir -p "$state"
  stop_cluster
  initdb=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$initdb" ]; then
    echo "postgres_fixture: no /usr/lib/postgresql/*/bin/initdb; run ./setup.sh (it installs Debian's postgresql)" >&2
    exit 1
  fi
  bin=$(dirname "$initdb")
  dir=$(mktemp -d /tmp/outbox-check-pg.XXXXXX)
  echo "$dir" >"$state/datadir"
  echo "$bin" >"$state/bindir"
  [ "$(id -u)" -ne 0 ] || chown nobody "$dir"
  if ! as_owner "$initdb" -D "$dir/data" -U postgres --auth=trust \
    --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    stop_cluster
    exit 1
  fi
  # A free port: not answering on loopback, and the server starts on it.
  for attempt in $(seq 1 20); do
    port=$((20000 + (RANDOM % 20000)))
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null; then
      conninfo="host=127.0.0.1 port=$port user=postgres dbname=postgres"
      # A role that may log in but not create a schema, for the bad-input
      # tests.
      "$bin/psql" -X -q -v ON_ERROR_STOP=1 "$conninfo" \
        -c "CREATE ROLE conform_no_rights LOGIN" >/dev/null
      echo "$conninfo" >"$state/conninfo"
      echo "postgres_fixture: cluster in $dir on port $port"
      exit 0
    fi
  done
  cat "$dir/server.log" >&2 || true
  stop_cluster
  echo "postgres_fixture: could not start a server on a free port" >&2
  exit 1
  ;;
stop)
  stop_cluster
  ;;
run)
  if [ ! -f "$state/conninfo" ]; then
    echo "postgres_fixture: no cluster running for $state" >&2
    exit 1
  fi
  conninfo=$(cat "$state/conninfo")
  args=()
  for a in "$@"; do
    args+=("${a//@CONNINFO@/$conninfo}")
  done
  OC_TEST_POSTGRES=$conninfo exec "${args[@]}"
  ;;
*)
  echo "usage: postgres_fixture.sh start|stop|run STATE_DIR [COMMAND...]" >&2
  exit 2
  ;;
esac
