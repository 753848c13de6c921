#!/bin/bash
# usage: run-goal.sh SEED: Undaunted scenario 3, the ismcts preset on classic weights against itself on the shipped (goal) evaluation, 0.1 s of CPU a move
cd /work/main
seed=$1
out=bench/results/s19-und/eqtime-undaunted-s3-ismcts-classic-vs-goal-seed$seed.jsonl
cmd="nice -n 5 .venv/bin/python -m ardsearch tournament undaunted(scenario=3) --bots classic=ismcts:weights=classic goal=ismcts --movetime 0.1 --clock cpu --games 20 --seed $seed --concurrency 1 --out $out"
echo "$cmd" > ${out%.jsonl}.cmd
{ date -u +%H:%M:%S; cat /proc/loadavg; } > ${out%.jsonl}.load
$cmd > ${out%.jsonl}.out 2>&1
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> ${out%.jsonl}.load
