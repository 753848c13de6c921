python -m bench.balance_log /work/main/bench/results/s45-barrage/a-control-s20.jsonl microarmour(scenario=barrage_copy) --bot level-3 --pairs 8 --seed 20
