#!/bin/bash
# usage: run-h2h.sh SEED — Micro Armour (introductory): exploration 1.0 against the mcts preset (0.5), 0.03 s of CPU a move
cd /work/main
seed=$1
out=bench/results/s20-ma/eqtime-microarmour-c1-vs-mcts-003-seed$seed.jsonl
cmd="nice -n 5 .venv/bin/python -m ardsearch tournament microarmour --bots c1=mcts:exploration=1.0 mcts --movetime 0.03 --clock cpu --games 20 --seed $seed --concurrency 1 --out $out"
echo "$cmd" > ${out%.jsonl}.cmd
{ date -u +%H:%M:%S; cat /proc/loadavg; } > ${out%.jsonl}.load
$cmd > ${out%.jsonl}.out 2>&1
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> ${out%.jsonl}.load
