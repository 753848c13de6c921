python -m bench.ladder microarmour --rungs random level-1 level-2 level-3 level-4 --pairs 10 10 8 6 --seed 1 --jobs 1 --json bench/results/s17-ladder/ladder-microarmour.jsonl
