#!/bin/bash
# runs each line "NAME SEED SPEC" of the queue file $1, one after another
while read -r name seed spec; do
  [ -z "$name" ] && continue
  /work/main/bench/results/s20-ma/run.sh "$name" "$seed" "$spec"
done < "$1"
