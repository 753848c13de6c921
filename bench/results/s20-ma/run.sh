#!/bin/bash
# usage: run.sh NAME SEED BOTSPEC — Micro Armour (introductory) against mcts-v1, 0.03 s of CPU a move
cd /work/main
name=$1; seed=$2; spec=$3
out=bench/results/s20-ma/eqtime-microarmour-$name-vs-v1-003-seed$seed.jsonl
cmd="nice -n 5 .venv/bin/python -m ardsearch tournament microarmour --bots $spec mcts-v1 --movetime 0.03 --clock cpu --games 20 --seed $seed --concurrency 1 --out $out"
echo "$cmd" > ${out%.jsonl}.cmd
{ date -u +%H:%M:%S; cat /proc/loadavg; } > ${out%.jsonl}.load
$cmd > ${out%.jsonl}.out 2>&1
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> ${out%.jsonl}.load
