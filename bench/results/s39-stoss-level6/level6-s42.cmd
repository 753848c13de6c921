python -m bench.ladder stosstruppen --rungs level-5 level-6 --pairs 8 --seed 42 --clock cpu --json bench/results/s39-stoss-level6/level6-s42.jsonl
