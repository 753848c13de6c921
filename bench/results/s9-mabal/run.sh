#!/bin/bash
# run.sh NAME SEED: one 16-game level-3 balance run of a scenario variant, logged
cd /work/wt-mabal
export ARDSEARCH_MICROARMOUR_SCENARIOS=bench/results/s9-mabal-variants
L=bench/results/s9-mabal/$1-seed$2.log
{ echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  /work/main/.venv/bin/python -m bench.balance "microarmour(scenario=$1)" --bot level-3 --pairs 8 --seed $2 --progress 2>&1
  echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"; } > $L 2>&1
