#!/bin/bash
# usage: run-h2h.sh SEED — Micro Armour (introductory): exploration 1.0 against the mcts preset (0.5), 0.03 s of CPU a move
cd /work/main
out=bench/results/s20-ma/eqtime-microarmour-c1-vs-mcts-003-seed$1
bench/logged.sh $out .venv/bin/python -m ardsearch tournament microarmour --bots c1=mcts:exploration=1.0 mcts --movetime 0.03 --clock cpu --games 20 --seed "$1" --concurrency 1 --out $out.jsonl
