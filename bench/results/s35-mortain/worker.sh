#!/bin/bash
# worker.sh: pops the first line of queue.txt (under a lock) and runs runjob.sh on it; stops on an
# empty queue, a "stop" line, or after 15:35 UTC (PLAN.md's deadline: no job starts later).
cd /work/main/bench/results/s35-mortain
while true; do
  [ "$(date -u +%H%M)" -ge 1535 ] && break
  job=$(flock queue.lock bash -c 'l=$(head -n1 queue.txt); [ -n "$l" ] && [ "$l" != stop ] && sed -i 1d queue.txt; echo "$l"')
  [ -z "$job" ] && break; [ "$job" = stop ] && break
  echo "$(date -u +%H:%M:%S) worker $$ starts $job" >> workers.log
  ./runjob.sh $job
  echo "$(date -u +%H:%M:%S) worker $$ ends $job" >> workers.log
done
