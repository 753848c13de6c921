#!/bin/bash
# Session 20: Undaunted scenario 2's refit (a Platt curve per side to move, fitted on all
# 1,900 games) checked on 400 new games.
cd /work/main
D=bench/results/s20-cal
bench/logged.sh $D/u2-8000 .venv/bin/python -m bench.calibration 'undaunted(scenario=2)' --games 400 --seed 8000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed ismcts --jobs 1 --records $D/cal-u2-8000.jsonl
