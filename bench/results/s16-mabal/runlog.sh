#!/bin/bash
# runlog.sh NAME SEED [PAIRS]: level-3 self-play of Micro Armour scenario NAME (a variant in
# bench/results/s16-mabal-variants/NAME), each pair appended with both games' outcomes to
# bench/results/s16-mabal/NAME-seedSEED.jsonl; start/end time and load in the .log beside it
cd "$(dirname "$0")/../../.."
export ARDSEARCH_MICROARMOUR_SCENARIOS=bench/results/s16-mabal-variants/$1
P=${3:-8}
L=bench/results/s16-mabal/$1-seed$2.log
J=bench/results/s16-mabal/$1-seed$2.jsonl
{ echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) scenarios=$ARDSEARCH_MICROARMOUR_SCENARIOS"
  echo "cmd: python -m bench.balance_log $J \"microarmour(scenario=$1)\" --bot level-3 --pairs $P --seed $2"
  nice -n 5 .venv/bin/python -m bench.balance_log $J "microarmour(scenario=$1)" --bot level-3 --pairs $P --seed $2 2>&1
  .venv/bin/python -m bench.balance_log $J --summary 2>&1
  echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"; } >> $L 2>&1
