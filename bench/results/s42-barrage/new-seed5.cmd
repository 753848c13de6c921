python -m bench.balance_log /work/main/bench/results/s42-barrage/new-seed5.jsonl microarmour(scenario=barrage) --bot level-3 --pairs 8 --seed 5
