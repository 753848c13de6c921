python -m bench.balance_log /work/main/bench/results/s45-barrage/b-sfhd1-s22.jsonl microarmour(scenario=barrage_sfhd1) --bot level-3 --pairs 8 --seed 22
