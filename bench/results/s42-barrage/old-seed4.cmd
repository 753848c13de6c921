python -m bench.balance_log bench/results/s42-barrage/old-seed4.jsonl microarmour(scenario=barrage) --bot level-3 --pairs 8 --seed 4
