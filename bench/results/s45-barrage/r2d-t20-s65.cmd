python -m bench.balance_log /work/main/bench/results/s45-barrage/r2d-t20-s65.jsonl microarmour(scenario=barrage_t20) --bot level-3 --pairs 8 --seed 65
