python -m bench.balance_log bench/results/s36-balance/ma-l4-ambush_support-seed5.jsonl microarmour(scenario=ambush_support) --bot level-4 --pairs 4 --seed 5
