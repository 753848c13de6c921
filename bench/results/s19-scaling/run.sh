#!/bin/bash
# Micro Armour's 0.3 s step over 0.1 s, at session 13's rate so it chains (session 19)
cd /work/main/bench/results/s19-scaling
{ date -u +%H:%M:%S; uptime; } > microarmour.load
nice -n 5 /work/main/.venv/bin/python -m bench.scaling microarmour --rate 135103 --times 0.1 0.3 --pairs 4 --seed 1 --results microarmour.jsonl > microarmour.out 2> microarmour.err
{ date -u +%H:%M:%S; uptime; } >> microarmour.load
