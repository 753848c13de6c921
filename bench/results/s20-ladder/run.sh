#!/bin/bash
# Micro Armour's ladder, the step level-5 over level-4 (session 20).
cd /work/main
D=bench/results/s20-ladder
bench/logged.sh $D/ma-l5 .venv/bin/python -m bench.ladder microarmour --rungs level-4 level-5 --pairs 4 --seed 1 --jobs 1 --json $D/ma-l5.jsonl
