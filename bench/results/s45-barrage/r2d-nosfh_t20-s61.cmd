python -m bench.balance_log /work/main/bench/results/s45-barrage/r2d-nosfh_t20-s61.jsonl microarmour(scenario=barrage_nosfh_t20) --bot level-3 --pairs 8 --seed 61
