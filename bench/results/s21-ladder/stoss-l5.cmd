.venv/bin/python -m bench.ladder stosstruppen --rungs level-4 level-5 --pairs 4 --seed 1 --jobs 1 --json bench/results/s21-ladder/stoss-l5.jsonl
