python -m bench.balance_log /work/main/bench/results/s45-barrage/c-lefh2-s31.jsonl microarmour(scenario=barrage_lefh2) --bot level-3 --pairs 8 --seed 31
