#!/bin/bash
# Session 20, speculative: does Micro Armour's shipped calibration (fitted on mcts at
# exploration 0.5) hold for the candidate preset shape exploration 1.0? 150 fresh games.
cd /work/main
D=bench/results/s20-cal
n=ma-c1-7000
set -- .venv/bin/python -m bench.calibration microarmour --games 150 --seed 7000 --bots a=mcts:nodes=1000,exploration=1.0 b=mcts:nodes=1000,exploration=1.0 --installed mcts --jobs 1 --records $D/cal-ma-c1-7000.jsonl
echo "$*" > $D/$n.cmd
{ date -u +%H:%M:%S; cat /proc/loadavg; } > $D/$n.load
nice -n 10 "$@" > $D/$n.out 2>&1
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> $D/$n.load
