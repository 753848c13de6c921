#!/bin/bash
# Queue runner, one match at a time: pops "NAME SCENARIO SEED BOTSPEC [extra]" lines from lane.todo.
cd /work/wt-stossearch3
D=bench/results/s12-stossearch
while [ ! -e $D/STOP ]; do
  line=$(head -n1 $D/lane.todo 2>/dev/null)
  if [ -z "$line" ]; then sleep 10; continue; fi
  sed -i 1d $D/lane.todo
  $D/run1.sh $line
done
