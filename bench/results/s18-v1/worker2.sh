#!/bin/bash
# waits for process $2 to end, then runs each line "NAME SEED SPEC" of the queue file $1
while kill -0 "$2" 2>/dev/null; do sleep 5; done
while read -r name seed spec; do
  [ -z "$name" ] && continue
  /work/main/bench/results/s18-v1/run.sh "$name" "$seed" "$spec"
done < "$1"
