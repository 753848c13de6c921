#!/bin/bash
# usage: bench/logged.sh PREFIX COMMAND...
# Runs COMMAND from the repository's root under `nice -n ${NICE:-5}` and keeps,
# beside a figure's records, what bench/README.md cites for each run:
# PREFIX.cmd (the command), PREFIX.load (UTC time and /proc/loadavg at the start
# and at the end) and PREFIX.out (its output). Exits with COMMAND's status.
set -u
if [ $# -lt 2 ]; then
  echo "usage: bench/logged.sh PREFIX COMMAND... (writes PREFIX.cmd, PREFIX.load, PREFIX.out)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
prefix=$1; shift
echo "$*" > "$prefix.cmd"
{ date -u +%H:%M:%S; cat /proc/loadavg; } > "$prefix.load"
nice -n "${NICE:-5}" "$@" > "$prefix.out" 2>&1
status=$?
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> "$prefix.load"
exit $status
