#!/bin/bash
# usage: run.sh NAME SEED BOTSPEC — Micro Armour (introductory) against mcts-v1, 0.03 s of CPU a move
cd /work/main
out=bench/results/s20-ma/eqtime-microarmour-$1-vs-v1-003-seed$2
bench/logged.sh $out .venv/bin/python -m ardsearch tournament microarmour --bots "$3" mcts-v1 --movetime 0.03 --clock cpu --games 20 --seed "$2" --concurrency 1 --out $out.jsonl
