#!/bin/bash
# usage: bench/queue.sh DIR [HHMM]
# One worker of a run queue: pops the first line of DIR/queue.txt and runs it
# through bench/logged.sh (so each job leaves DIR/PREFIX.cmd, .load, .out),
# until the queue is empty, its first line is "stop", or the UTC clock has
# reached HHMM (a deadline written in the run's PLAN.md: no job starts later).
# HHMM is read as its nearest occurrence: up to 12 hours ahead (so 0005 at
# 23:00 is five past midnight, not already past), else up to 12 hours back.
# A queue line is "PREFIX COMMAND...", PREFIX a name inside DIR and COMMAND
# shell words (quote an argument holding parentheses); a line that is not is
# logged and skipped. Start one worker a core; they share the queue (popping
# is locked on DIR) and append "UTC worker-pid starts|ends PREFIX (status)" to
# DIR/workers.log.
# Run it with the project's environment active, so `python` is its venv's.
set -u
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: bench/queue.sh DIR [HHMM] (DIR holds queue.txt: one 'PREFIX COMMAND...' a line)" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "$1" && pwd)
deadline=${2:-}
if [ -n "$deadline" ] && ! [[ $deadline =~ ^([01][0-9]|2[0-3])[0-5][0-9]$ ]]; then
  echo "bench/queue.sh: the deadline '$deadline' is not HHMM (UTC, e.g. 1745)" >&2
  exit 2
fi
# QUEUE_NOW (seconds since the epoch) stands in for the clock in tests.
clock() { echo "${QUEUE_NOW:-$(date -u +%s)}"; }
if [ -n "$deadline" ]; then
  now=$(clock)
  at=$(( now - now % 86400 + 10#${deadline:0:2} * 3600 + 10#${deadline:2:2} * 60 ))
  ahead=$(( ((at - now) % 86400 + 86400) % 86400 ))
  if (( ahead <= 43200 )); then end=$(( now + ahead )); else end=$(( now + ahead - 86400 )); fi
fi
while true; do
  if [ -n "$deadline" ] && [ "$(clock)" -ge "$end" ]; then break; fi
  # The directory is the lock: sed -i replaces queue.txt, so the file cannot be.
  job=$(flock "$dir" bash -c 'f="$1/queue.txt"; [ -f "$f" ] || exit 0
    l=$(head -n1 "$f"); [ -n "$l" ] && [ "$l" != stop ] && sed -i 1d "$f"; echo "$l"' _ "$dir")
  if [ -z "$job" ] || [ "$job" = stop ]; then break; fi
  read -r prefix command <<< "$job"
  echo "$(date -u +%H:%M:%S) worker $$ starts $prefix" >> "$dir/workers.log"
  # A line that is not shell words (an unquoted "(" say) must not run: set --
  # would not happen and the worker's own arguments would run in its place.
  if ! eval "set -- $command" 2> "$dir/$prefix.out"; then
    echo "$(date -u +%H:%M:%S) worker $$ ends $prefix (status 2: the line is not shell words; quote arguments holding ( ) ; & | < >, see $prefix.out)" >> "$dir/workers.log"
    continue
  fi
  "$here/logged.sh" "$dir/$prefix" "$@"
  status=$?
  echo "$(date -u +%H:%M:%S) worker $$ ends $prefix (status $status)" >> "$dir/workers.log"
done
