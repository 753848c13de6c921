#!/bin/bash
# Session 20, speculative: does Micro Armour's shipped calibration (fitted on mcts at
# exploration 0.5) hold for the candidate preset shape exploration 1.0? 150 fresh games
# (stopped at 135 when the rule in ../s20-ma/PLAN.md was read).
cd /work/main
D=bench/results/s20-cal
NICE=10 bench/logged.sh $D/ma-c1-7000 .venv/bin/python -m bench.calibration microarmour --games 150 --seed 7000 --bots a=mcts:nodes=1000,exploration=1.0 b=mcts:nodes=1000,exploration=1.0 --installed mcts --jobs 1 --records $D/cal-ma-c1-7000.jsonl
