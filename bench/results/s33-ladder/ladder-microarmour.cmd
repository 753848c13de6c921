.venv/bin/python -m bench.ladder microarmour --rungs random level-1 level-2 level-3 level-4 level-5 --pairs 10 10 8 6 4 --seed 1 --jobs 1 --json bench/results/s33-ladder/ladder-microarmour.jsonl
