python -m bench.balance_log bench/results/s37-ma/ma-l4-outpost-seed9.jsonl microarmour(scenario=outpost) --bot level-4 --pairs 4 --seed 9
