python -m bench.balance_log /work/main/bench/results/s45-barrage/e-intro-s74.jsonl microarmour(scenario=introductory) --bot level-3 --pairs 8 --seed 74
