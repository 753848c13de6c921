#!/bin/bash
# Micro Armour's ladder, the step level-5 over level-4 (session 20), under nice -n 5.
cd /work/main
D=bench/results/s20-ladder
echo "python -m bench.ladder microarmour --rungs level-4 level-5 --pairs 4 --seed 1 --jobs 1 --json $D/ma-l5.jsonl" > $D/ma-l5.cmd
{ date -u +%H:%M:%S; cat /proc/loadavg; } > $D/ma-l5.load
nice -n 5 .venv/bin/python -m bench.ladder microarmour --rungs level-4 level-5 --pairs 4 --seed 1 --jobs 1 --json $D/ma-l5.jsonl > $D/ma-l5.out 2>&1
{ date -u +%H:%M:%S; cat /proc/loadavg; } >> $D/ma-l5.load
