#!/bin/bash
# worker.sh: pops "NAME SEED" lines off queue.txt (under a lock) and runs each with runlog.sh
cd /work/wt-mabal/bench/results/s9-mabal
while true; do
  job=$(flock queue.lock bash -c 'l=$(head -n1 queue.txt); [ -n "$l" ] && sed -i 1d queue.txt; echo "$l"')
  [ -z "$job" ] && exit 0
  ./runlog.sh $job
done
