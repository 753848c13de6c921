python -m bench.balance_log bench/results/s36-balance/kaiser-l4-seed4-a.jsonl stosstruppen(scenario=kaiserschlacht) --bot level-4 --seed 4 --first 0 --pairs 8
