python -m bench.ladder microarmour --rungs level-3 level-4 --pairs 10 --seed 42 --jobs 1 --json /work/main/bench/results/s42-ladder/ma-l3-l4.jsonl
