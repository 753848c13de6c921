#!/bin/bash
# Runs one tournament against greedy: NAME SCENARIO SEED BOTSPEC [extra args]
cd /work/wt-stossearch3
D=bench/results/s12-stossearch
name=$1; scen=$2; seed=$3; spec=$4; shift 4
{ date -u +%H:%M:%S; uptime; } > $D/$name.load
echo "nice -n 5 python -m ardsearch tournament 'stosstruppen(scenario=$scen)' --bots '$spec' greedy --games 20 --seed $seed --concurrency 1 $* --out $D/$name.jsonl" > $D/$name.cmd
nice -n 5 /work/main/.venv/bin/python -m ardsearch tournament "stosstruppen(scenario=$scen)" --bots "$spec" greedy --games 20 --seed $seed --concurrency 1 --quiet "$@" --out $D/$name.jsonl > $D/$name.md 2> $D/$name.err
{ date -u +%H:%M:%S; uptime; } >> $D/$name.load
