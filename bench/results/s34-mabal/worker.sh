#!/bin/bash
# worker.sh: pops the first line "NAME SEED [PAIRS]" of queue.txt (under a lock) and runs
# runlog.sh on it; stops when the queue is empty or its first line is "stop".
cd /work/main/bench/results/s34-mabal
while true; do
  job=$(flock queue.lock bash -c 'l=$(head -n1 queue.txt); [ -n "$l" ] && [ "$l" != stop ] && sed -i 1d queue.txt; echo "$l"')
  [ -z "$job" ] && break; [ "$job" = stop ] && break
  echo "$(date -u +%H:%M:%S) worker $$ starts $job" >> workers.log
  ./runlog.sh $job
  echo "$(date -u +%H:%M:%S) worker $$ ends $job" >> workers.log
done
