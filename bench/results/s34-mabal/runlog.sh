#!/bin/bash
# runlog.sh NAME SEED [PAIRS]: level-3 self-play of Micro Armour scenario NAME (a variant in
# its own folder bench/results/s34-mabal-variants/NAME, or a shipped file when there is no such
# folder), each pair appended with both games' outcomes to bench/results/s34-mabal/NAME-seedSEED.jsonl;
# start and end time, load and the command in the .log beside it (no score: the logs are read once,
# by `python -m bench.balance_log --summary`, when the plan says).
cd /work/main
V=bench/results/s34-mabal-variants/$1
if [ -d "$V" ]; then export ARDSEARCH_MICROARMOUR_SCENARIOS=$V; else unset ARDSEARCH_MICROARMOUR_SCENARIOS; fi
P=${3:-8}
L=bench/results/s34-mabal/$1-seed$2.log
J=bench/results/s34-mabal/$1-seed$2.jsonl
{ echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) scenarios=${ARDSEARCH_MICROARMOUR_SCENARIOS:-shipped}"
  echo "cmd: python -m bench.balance_log $J \"microarmour(scenario=$1)\" --bot level-3 --pairs $P --seed $2"
  nice -n 5 .venv/bin/python -m bench.balance_log $J "microarmour(scenario=$1)" --bot level-3 --pairs $P --seed $2 >/dev/null 2>bench/results/s34-mabal/$1-seed$2.err
  echo "rc $?"
  echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"; } >> $L 2>&1
