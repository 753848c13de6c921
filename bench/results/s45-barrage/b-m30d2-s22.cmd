python -m bench.balance_log /work/main/bench/results/s45-barrage/b-m30d2-s22.jsonl microarmour(scenario=barrage_m30d2) --bot level-3 --pairs 8 --seed 22
