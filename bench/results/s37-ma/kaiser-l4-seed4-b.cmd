python -m bench.balance_log bench/results/s37-ma/kaiser-l4-seed4-b.jsonl stosstruppen(scenario=kaiserschlacht) --bot level-4 --seed 4 --first 8 --pairs 8
