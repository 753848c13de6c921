#!/bin/bash
# runlog.sh NAME SEED: the same 16 games as run.sh (bench.balance), by bench.balance_log,
# each pair appended with its outcomes to NAME-seedSEED.jsonl
cd /work/wt-mabal
export ARDSEARCH_MICROARMOUR_SCENARIOS=bench/results/s9-mabal-variants
L=bench/results/s9-mabal/$1-seed$2.log
J=bench/results/s9-mabal/$1-seed$2.jsonl
{ echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  /work/main/.venv/bin/python -m bench.balance_log $J "microarmour(scenario=$1)" --bot level-3 --pairs 8 --seed $2 2>&1
  /work/main/.venv/bin/python -m bench.balance_log $J --summary 2>&1
  echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"; } > $L 2>&1
