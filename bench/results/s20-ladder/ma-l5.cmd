python -m bench.ladder microarmour --rungs level-4 level-5 --pairs 4 --seed 1 --jobs 1 --json bench/results/s20-ladder/ma-l5.jsonl
