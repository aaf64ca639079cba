#!/usr/bin/env bash
# SIGINT or SIGTERM during `conform` stops it before its next path: exit
# code 3, a line saying so, and the schema it was working in is gone.
#
# Usage: conform_interrupt.sh OUTBOX_CHECK CONNINFO (run through
# postgres_fixture.sh, which gives CONNINFO)
set -u
checker=$1 conninfo=$2
psql=$(ls -d /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -n 1)
[ -n "$psql" ] || psql=psql
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for signal in INT TERM; do
  schema=conform_cli_interrupt_$(echo "$signal" | tr 'A-Z' 'a-z')
  # Many scenarios, so that the run is still going when the signal comes.
  "$checker" conform --postgres "$conninfo" --schema "$schema" --paths 30 \
    scenarios/seed scenarios/examples scenarios/seed scenarios/examples \
    >"$work/out.txt" 2>&1 &
  pid=$!
  # Wait until the first scenario line, so the signal lands mid-run.
  for _ in $(seq 100); do
    [ -s "$work/out.txt" ] && break
    sleep 0.1
  done
  kill -"$signal" "$pid"
  wait "$pid"
  code=$?
  left=$("$psql" -X -A -t "$conninfo" \
    -c "SELECT count(*) FROM pg_namespace WHERE nspname = '$schema'")
  if [ "$code" -ne 3 ]; then
    echo "SIG$signal: exit code $code, expected 3"; status=1
  fi
  if ! grep -Eq "interrupted by SIG$signal after [0-9]+ agreeing paths?; schema \"$schema\" dropped" "$work/out.txt"; then
    echo "SIG$signal: no interruption line"; status=1
  fi
  if [ "$left" != 0 ]; then
    echo "SIG$signal: schema $schema left behind"; status=1
  fi
  [ "$status" -eq 0 ] || cat "$work/out.txt"
done
exit "$status"
