python -m bench.balance_log /work/main/bench/results/s45-barrage/a-shipped-s21.jsonl microarmour(scenario=barrage) --bot level-3 --pairs 8 --seed 21
