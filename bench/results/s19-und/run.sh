#!/bin/bash
# usage: run.sh SEED: Undaunted scenario 3, mcts against mcts-v1 at 0.1 s of CPU a move (session 15's form)
cd /work/main
seed=$1
out=bench/results/s19-und/eqtime-undaunted-s3-mcts-vs-v1-seed$seed.jsonl
cmd="nice -n 5 .venv/bin/python -m ardsearch tournament undaunted(scenario=3) --bots mcts mcts-v1 --movetime 0.1 --clock cpu --games 20 --seed $seed --concurrency 1 --out $out"
echo "$cmd" > ${out%.jsonl}.cmd
{ date -u +%H:%M:%S; cat /proc/loadavg; } > ${out%.jsonl}.load
$cmd > ${out%.jsonl}.out 2>&1
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> ${out%.jsonl}.load
