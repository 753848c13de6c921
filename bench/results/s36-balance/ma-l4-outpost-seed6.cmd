python -m bench.balance_log bench/results/s36-balance/ma-l4-outpost-seed6.jsonl microarmour(scenario=outpost) --bot level-4 --pairs 4 --seed 6
