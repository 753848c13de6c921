python -m bench.balance stosstruppen(scenario=villers) --bot level-4 --pairs 64 --seed 41
