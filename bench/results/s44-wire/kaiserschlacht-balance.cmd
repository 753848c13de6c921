python -m bench.balance stosstruppen(scenario=kaiserschlacht) --bot level-4 --pairs 64 --seed 41
