#!/bin/bash
# Session 20: more fresh games for the calibrations that missed on fresh games in
# session 18 (Undaunted scenario 3, Stand at Mortain). Seed 7000: first a check of
# the shipped tables on games they never saw, then (PLAN.md) a refit on every game
# kept and a check on seed 8000.
cd /work/main
D=bench/results/s20-cal
bench/logged.sh $D/u3-7000 .venv/bin/python -m bench.calibration 'undaunted(scenario=3)' --games 300 --seed 7000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed ismcts --jobs 1 --records $D/cal-u3-7000.jsonl
bench/logged.sh $D/mort-7000 .venv/bin/python -m bench.calibration mortain --games 300 --seed 7000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed mcts --jobs 1 --records $D/cal-mort-7000.jsonl
