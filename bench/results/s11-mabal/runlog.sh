#!/bin/bash
# runlog.sh NAME SEED [PAIRS] [FIRST]: level-3 self-play of scenario NAME (a shipped file, or a
# variant in its own folder bench/results/s11-mabal-variants/NAME), each pair appended with both
# games' outcomes to bench/results/s11-mabal/NAME-seedSEED.jsonl; start/end time and load in the .log
cd /work/wt-mabal4
export ARDSEARCH_MICROARMOUR_SCENARIOS=${VARDIR:-bench/results/s11-mabal-variants/$1}
P=${3:-8}; F=${4:-0}
L=bench/results/s11-mabal/$1-seed$2${TAG}.log
J=bench/results/s11-mabal/$1-seed$2${TAG}.jsonl
{ echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) scenarios=$ARDSEARCH_MICROARMOUR_SCENARIOS"
  echo "cmd: python -m bench.balance_log $J \"microarmour(scenario=$1)\" --bot level-3 --pairs $P --seed $2 --first $F"
  nice -n 5 /work/main/.venv/bin/python -m bench.balance_log $J "microarmour(scenario=$1)" --bot level-3 --pairs $P --seed $2 --first $F 2>&1
  /work/main/.venv/bin/python -m bench.balance_log $J --summary 2>&1
  echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"; } >> $L 2>&1
