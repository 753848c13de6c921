#!/bin/bash
# usage: run-vs-ne.sh SEED: neb16 (belief 16) against ne (the same shape without it), 0.1 s CPU a move
cd /work/main
seed=$1
out=bench/results/s19-belief/eqtime-ardennes-neb16-vs-ne-seed$seed.jsonl
cmd="nice -n 5 .venv/bin/python -m ardsearch tournament ardennes --bots neb16=mcts:normalize=true,eval_children=true,belief=16 ne=mcts:normalize=true,eval_children=true --movetime 0.1 --clock cpu --games 20 --seed $seed --concurrency 1 --out $out"
echo "$cmd" > ${out%.jsonl}.cmd
{ date -u +%H:%M:%S; cat /proc/loadavg; } > ${out%.jsonl}.load
$cmd > ${out%.jsonl}.out 2>&1
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> ${out%.jsonl}.load
