#!/bin/bash
# usage: run.sh NAME SEED BOTSPEC
cd /work/main
name=$1; seed=$2; spec=$3
out=bench/results/s19-belief/eqtime-ardennes-$name-vs-v1-seed$seed.jsonl
cmd="nice -n 5 .venv/bin/python -m ardsearch tournament ardennes --bots $spec mcts-v1 --movetime 0.1 --clock cpu --games 20 --seed $seed --concurrency 1 --out $out"
echo "$cmd" > ${out%.jsonl}.cmd
{ date -u +%H:%M:%S; cat /proc/loadavg; } > ${out%.jsonl}.load
$cmd > ${out%.jsonl}.out 2>&1
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> ${out%.jsonl}.load
