#!/bin/bash
# usage: run.sh SCENARIO SEED — ISMCTS against PIMC expectimax at 0.1 s of CPU a move (session 18)
cd /work/main
sc=$1; seed=$2
out=bench/results/s18-pimc/und$sc-ismcts-vs-pimc-seed$seed.jsonl
cmd="nice -n 5 .venv/bin/python -m ardsearch tournament undaunted(scenario=$sc) --bots ismcts expectimax --movetime 0.1 --clock cpu --games 20 --seed $seed --concurrency 1 --out $out"
echo "$cmd" > ${out%.jsonl}.cmd
{ date -u +%H:%M:%S; cat /proc/loadavg; } > ${out%.jsonl}.load
$cmd > ${out%.jsonl}.out 2>&1
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> ${out%.jsonl}.load
