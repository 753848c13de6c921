python -m bench.balance_log /work/main/bench/results/s45-barrage/r2d-nosfh_t20-s63.jsonl microarmour(scenario=barrage_nosfh_t20) --bot level-3 --pairs 8 --seed 63
