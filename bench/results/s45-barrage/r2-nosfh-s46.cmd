python -m bench.balance_log /work/main/bench/results/s45-barrage/r2-nosfh-s46.jsonl microarmour(scenario=barrage_nosfh) --bot level-3 --pairs 8 --seed 46
