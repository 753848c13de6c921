#!/bin/bash
# worker.sh: pops the first line "NAME SEED [PAIRS]" of queue.txt (under a lock) and runs
# runlog.sh on it with the variant folder bench/results/s11-mabal-variants/NAME (an empty
# folder, i.e. the shipped files alone, when NAME has no variant folder); stops when the
# queue is empty or its first line is "stop".
cd /work/wt-mabal4/bench/results/s11-mabal
while true; do
  job=$(flock queue.lock bash -c 'l=$(head -n1 queue.txt); [ -n "$l" ] && [ "$l" != stop ] && sed -i 1d queue.txt; echo "$l"')
  [ -z "$job" ] && break; [ "$job" = stop ] && break
  set -- $job
  if [ -d ../s11-mabal-variants/$1 ]; then export VARDIR=bench/results/s11-mabal-variants/$1
  else mkdir -p ../s11-mabal-empty; export VARDIR=bench/results/s11-mabal-empty; fi
  echo "$(date -u +%H:%M:%S) worker $$ starts $job" >> workers.log
  ./runlog.sh $1 $2 ${3:-8}
  echo "$(date -u +%H:%M:%S) worker $$ ends $job" >> workers.log
done
