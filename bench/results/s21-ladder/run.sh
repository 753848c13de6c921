#!/bin/bash
# Session 21: Stosstruppen's level-5 over level-4 (4 pairs, seed 1), as session 20 measured Micro Armour's.
cd /work/main
bench/logged.sh bench/results/s21-ladder/stoss-l5 .venv/bin/python -m bench.ladder stosstruppen --rungs level-4 level-5 --pairs 4 --seed 1 --jobs 1 --json bench/results/s21-ladder/stoss-l5.jsonl
