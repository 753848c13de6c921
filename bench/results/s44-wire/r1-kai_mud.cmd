python -m bench.balance stosstruppen(scenario=kai_mud) --bot level-4 --pairs 64 --seed 41 --progress
