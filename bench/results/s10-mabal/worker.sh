#!/bin/bash
# worker.sh: pops the first line "NAME SEED [PAIRS]" of queue.txt (under a lock) and runs
# runlog.sh on it with the variant folder bench/results/s10-mabal-variants/NAME (the shipped
# files alone when that folder does not exist); stops when the queue is empty or holds "stop".
cd /work/wt-mabal3/bench/results/s10-mabal
while true; do
  job=$(flock queue.lock bash -c 'l=$(head -n1 queue.txt); [ -n "$l" ] && sed -i 1d queue.txt; echo "$l"')
  [ -z "$job" ] && break; [ "$job" = stop ] && break
  set -- $job
  # a shipped scenario runs with an empty folder, so that no variant is loaded beside it
  if [ -d ../s10-mabal-variants/$1 ]; then export VARDIR=bench/results/s10-mabal-variants/$1
  else mkdir -p ../s10-mabal-empty; export VARDIR=bench/results/s10-mabal-empty; fi
  echo "$(date -u +%H:%M:%S) worker $$ starts $job" >> workers.log
  ./runlog.sh $1 $2 ${3:-8}
  echo "$(date -u +%H:%M:%S) worker $$ ends $job" >> workers.log
done
