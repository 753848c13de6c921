#!/bin/bash
# Session 20: Undaunted scenario 3 on seed 8000 (the refitted table checked) at once,
# then, when queue.sh (process $1) is done, scenario 2 on seed 7000.
cd /work/main
D=bench/results/s20-cal
bench/logged.sh $D/u3-8000 .venv/bin/python -m bench.calibration 'undaunted(scenario=3)' --games 300 --seed 8000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed ismcts --jobs 1 --records $D/cal-u3-8000.jsonl
while kill -0 "$1" 2>/dev/null; do sleep 5; done
bench/logged.sh $D/u2-7000 .venv/bin/python -m bench.calibration 'undaunted(scenario=2)' --games 600 --seed 7000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed ismcts --jobs 1 --records $D/cal-u2-7000.jsonl
